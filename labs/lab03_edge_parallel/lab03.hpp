/// @file
/// @brief Lab 03 — edge-parallel BFS and edge-based Dijkstra after Singla,
/// Tiwari and Singh: one thread per arc of a coordinate list (COO), instead of
/// lab 02's one thread per vertex.
///
/// A plain C++ header: the runner and the tests include it without nvcc. The
/// device state lives behind a pointer to an implementation in the .cu files.
#pragma once

#include <memory>

#include "sssp/graph.hpp"
#include "sssp/result.hpp"
#include "sssp/types.hpp"

/// Lab 03: edge-parallel GPU BFS and edge-based Dijkstra.
namespace lab03 {

using sssp::BfsResult;
using sssp::CsrGraph;
using sssp::dist_t;
using sssp::level_t;
using sssp::SsspResult;
using sssp::vertex_t;

/// Launch configuration.
struct Options {
  unsigned block_size = 256;  ///< Threads per block, 1 to 1024.
};

/// Throws sssp::InputError naming the first bad field of `options`. Both
/// solvers' constructors call it first; the runner, before it loads a graph.
void validate(const Options& options);

/// Level-synchronous BFS with one thread per arc (Singla et al., Figures 5
/// and 6, with a level array in place of the visited array so that levels,
/// not only reachability, come out). Each level is one launch over every arc;
/// the host stops at the first level that reaches no new vertex.
class EdgeBfs {
 public:
  /// Uploads the arcs of `graph` as COO (synchronously). Throws
  /// sssp::CudaError when there is no usable GPU or memory runs out, and
  /// sssp::InputError for an illegal block size.
  explicit EdgeBfs(const CsrGraph& graph, Options options = {});
  ~EdgeBfs();
  EdgeBfs(const EdgeBfs&) = delete;
  EdgeBfs& operator=(const EdgeBfs&) = delete;

  /// Levels from `source` (sssp::kUnreached where unreachable). Throws
  /// sssp::InvalidSource for a bad source. Counters: iterations = levels
  /// expanded (the last one reaching nothing), kernel_launches = every launch
  /// including initialisation, host_syncs = times the host waited for the
  /// flag. device_ms: from initialisation to the end of the loop, the host
  /// round trips included.
  [[nodiscard]] BfsResult run(vertex_t source);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// Edge-based Dijkstra (Singla et al., Figures 3 and 4): each round finds the
/// smallest tentative distance among unsettled vertices, settles every vertex
/// at that distance at once, and relaxes their out-arcs with one thread per
/// arc. Rounds count distinct settled distances, not vertices, when no arc
/// weighs 0: a vertex that a zero-weight arc lowers to the current minimum
/// during a round is settled in the next round, at the same distance.
class EdgeDijkstra {
 public:
  /// Uploads the arcs of `graph` as COO and allocates the per-run arrays.
  explicit EdgeDijkstra(const CsrGraph& graph, Options options = {});
  ~EdgeDijkstra();
  EdgeDijkstra(const EdgeDijkstra&) = delete;
  EdgeDijkstra& operator=(const EdgeDijkstra&) = delete;

  /// Distances from `source` (sssp::kInfinity where unreachable). Throws
  /// sssp::InvalidSource for a bad source. Counters: iterations = rounds that
  /// settled vertices, vertices_processed = vertices settled, kernel_launches
  /// = every launch including initialisation, host_syncs = times the host
  /// waited for a round's minimum. device_ms: from initialisation to the end
  /// of the loop, the host round trips included.
  [[nodiscard]] SsspResult run(vertex_t source);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace lab03
