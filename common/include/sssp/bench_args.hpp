/// @file
/// @brief The command line that the labs' benchmark programs share (which
/// graph, weights, source, repeats and block size), parsed and loaded once.
#pragma once

#include <string>
#include <string_view>

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

/// The shared options' names, for an "unknown option" message.
inline constexpr const char* kSharedOptions = "--graph, --gen, --weights, --source, --repeats, --block-size";

/// `text` as an integer 0..`most` (digits only). Throws InputError naming
/// `what` otherwise.
[[nodiscard]] unsigned parse_count(const std::string& text, const char* what, unsigned most);

/// If `option` is one of the shared options, stores `value` in `args` and
/// returns true; returns false for any other option. Throws InputError for a
/// bad value.
bool parse_shared_option(std::string_view option, const std::string& value, BenchArgs& args);

/// The graph `args` names: read from `graph_file` (unweighted files get
/// `weights`) or generated from `spec` with seed 1. Throws InputError for a
/// bad file or spec and InvalidSource unless `args.source` is a vertex of it.
[[nodiscard]] CsrGraph load_graph(const BenchArgs& args);

}  // namespace sssp::bench
