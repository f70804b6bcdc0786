/// @file
/// @brief The runner's table of algorithms. One table, compiled twice: into
/// `sssp` against the student's labs/ and into `sssp-ref` against solutions/.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "sssp/counters.hpp"
#include "sssp/graph.hpp"

namespace sssp::runner {

/// What one run of an algorithm produced.
struct RunOutput {
  std::vector<dist_t> dist;     ///< Distances (SSSP algorithms).
  std::vector<level_t> levels;  ///< Levels (BFS algorithms).
  Counters counters;            ///< Work done.
  /// GPU time of the run measured with CUDA events, in ms; negative for CPU
  /// algorithms, which the runner times with a host clock.
  double device_ms = -1.0;
};

/// Runs the algorithm from one source on the graph given to prepare().
using PreparedRun = std::function<RunOutput(vertex_t source)>;

/// The launch parameters of the labs' option structs that the runner's
/// options set (--block-size, ...). An unset one keeps the lab's default.
struct Tuning {
  std::optional<unsigned> block_size;           ///< Threads per block.
  std::optional<unsigned> rounds_per_check;     ///< Rounds between two looks at the result (labs 04, 06, 08).
  std::optional<unsigned> depth;                ///< Lab 07's k.
  std::optional<unsigned> vertices_per_thread;  ///< Lab 07's vertices per thread.
  std::optional<unsigned> delta;                ///< Labs 08 and 09: the bucket width (unset: the solver's rule picks it).
};

/// The values one algorithm takes for one field of Tuning.
struct Tunable {
  std::optional<unsigned> Tuning::*field;  ///< Which parameter.
  bool (*accepts)(unsigned value);         ///< The algorithm's own rule, the one its constructor checks.
  std::string rule;                        ///< That rule in words, for the error message.
};

/// One runnable algorithm.
struct Algorithm {
  std::string name;     ///< "lab01/dijkstra": lab folder number and algorithm.
  std::string summary;  ///< One line for --list.
  bool gpu = false;     ///< Needs a GPU.
  bool bfs = false;     ///< Produces levels instead of distances.
  /// The parameters of Tuning it has. The runner refuses any other, and any
  /// value its rule refuses, before it loads the graph (with or without a GPU).
  std::vector<Tunable> tunables;
  /// Does the per-graph setup that is not timed (e.g. copying the graph to
  /// the GPU) and returns the timed part.
  std::function<PreparedRun(const CsrGraph&, const Tuning&)> prepare;
  /// Works on an adjacency matrix (lab 05): O(V^2) memory and work per round,
  /// O(V^3) in all for the naive variants. The runner's default set leaves
  /// such algorithms out on all but small graphs.
  bool dense_matrix = false;
};

/// Every algorithm of every lab built into this runner.
[[nodiscard]] const std::vector<Algorithm>& algorithms();

}  // namespace sssp::runner
