/// @file
/// @brief The command line that the labs' benchmark programs share (which
/// graph, weights, source, repeats and block size), parsed and loaded once.
#pragma once

#include <functional>
#include <initializer_list>
#include <string>

#include "sssp/graph.hpp"
#include "sssp/weights.hpp"

namespace sssp::bench {

/// The options every lab benchmark program takes.
struct BenchArgs {
  std::string graph_file;                                    ///< `--graph FILE`; empty: generate `spec`.
  std::string spec = "grid:1000x1000";                       ///< `--gen SPEC`, as the runner's `--gen`.
  WeightPolicy weights = WeightPolicy::uniform(1, 1000, 1);  ///< `--weights LO:HI[:SEED]`, for unweighted input.
  unsigned source = 0;                                       ///< `--source V`.
  unsigned repeats = 5;                                      ///< `--repeats R`, at least 1.
  unsigned block_size = 256;                                 ///< `--block-size B`, 0 to 1024 (the solver checks it).
};

/// `text` as an integer 0..`most` (digits only). Throws InputError naming
/// `what` otherwise.
[[nodiscard]] unsigned parse_count(const std::string& text, const char* what, unsigned most);

/// An option of one program beside the shared ones: its name ("--lanes") and
/// what to do with its value (throw InputError for a bad one).
struct ExtraOption {
  const char* name;                                 ///< e.g. "--max-depth".
  std::function<void(const std::string&)> set;      ///< Stores the value.
};

/// Reads `--option value` pairs from argv into `args` (whose fields hold the
/// program's defaults) and the program's `extra` options. Throws InputError
/// for an unknown option (listing every known one), a missing or a bad value.
void parse_args(int argc, char** argv, BenchArgs& args, std::initializer_list<ExtraOption> extra = {});

/// The graph `args` names: read from `graph_file` (unweighted files get
/// `weights`) or generated from `spec` with seed 1. Throws InputError for a
/// bad file or spec and InvalidSource unless `args.source` is a vertex of it.
[[nodiscard]] CsrGraph load_graph(const BenchArgs& args);

}  // namespace sssp::bench
