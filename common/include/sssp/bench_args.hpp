/// @file
/// @brief What the labs' benchmark programs share: the options naming the
/// graph, weights, source, repeats and block size (parsed by sssp/cli.hpp,
/// as the runner's), the graph they name, and how runs are timed.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "sssp/cli.hpp"
#include "sssp/graph.hpp"
#include "sssp/weights.hpp"

namespace sssp::bench {

/// The options every lab benchmark program that runs on one graph takes.
struct BenchArgs {
  std::string graph_file;                                    ///< `--graph FILE`; empty: generate `spec`.
  std::string spec = "grid:1000x1000";                       ///< `--gen SPEC`, as the runner's `--gen`.
  WeightPolicy weights = WeightPolicy::uniform(1, 1000, 1);  ///< `--weights LO:HI[:SEED]`, for unweighted input.
  vertex_t source = 0;                                       ///< `--source V`.
  unsigned repeats = 5;                                      ///< `--repeats R`, at least 1.
  unsigned block_size = 256;                                 ///< `--block-size B`, 1 to 1024 (the solver checks more).
};

/// The largest `--repeats` a benchmark program takes.
inline constexpr unsigned kMaxRepeats = 100000;

/// Declares the shared options on `parser`, storing into `args` (whose
/// fields hold the program's defaults, shown in the usage). `--graph` and
/// `--gen` exclude each other.
void add_shared_options(cli::Parser& parser, BenchArgs& args);

/// The graph `args` names: read from `graph_file` (unweighted files get
/// `weights`) or generated from `spec` with seed 1. Throws InputError for a
/// bad file or spec and InvalidSource unless `args.source` is a vertex of it.
[[nodiscard]] CsrGraph load_graph(const BenchArgs& args);

/// The median of `samples`: the middle one of an odd count, the mean of the
/// two middle ones of an even count (an even count then has no bias toward
/// the slower half). Throws std::invalid_argument for no samples.
[[nodiscard]] double median(std::vector<double> samples);

/// Calls `run` `warmups` times, then `repeats` times more, and returns the
/// median of what those later calls return (each run's time, in whatever
/// unit `run` measures it: the solver's CUDA-event time or a host clock).
/// `run` also checks its answer, on the warm-up runs too. `repeats` >= 1.
template <typename Run>
[[nodiscard]] double measure(unsigned warmups, unsigned repeats, Run&& run) {
  for (unsigned i = 0; i < warmups; ++i) (void)run();
  std::vector<double> times;
  times.reserve(repeats);
  for (unsigned i = 0; i < repeats; ++i) times.push_back(run());
  return median(std::move(times));
}

}  // namespace sssp::bench
