/// @file
/// @brief Lab 02 — vertex-parallel frontier SSSP and BFS after Harish and
/// Narayanan: a mask of frontier vertices, a cost array and an updating-cost
/// array, two kernels per iteration, and a host loop on a "changed" flag.
///
/// A plain C++ header: the runner and the tests include it without nvcc. The
/// device state lives behind a pointer to an implementation in the .cu file.
#pragma once

#include <memory>
#include <vector>

#include "sssp/graph.hpp"
#include "sssp/result.hpp"
#include "sssp/types.hpp"

/// Lab 02: frontier-based GPU SSSP and BFS.
namespace lab02 {

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

/// Frontier SSSP (Harish and Narayanan, as restated in Safari and Ebnenasir,
/// Algorithms 3-5). The constructor copies the graph to the GPU once;
/// run() solves from one source.
class FrontierSssp {
 public:
  /// Uploads `graph` (synchronously) and allocates the per-run arrays.
  /// Throws sssp::CudaError when there is no usable GPU or memory runs out.
  explicit FrontierSssp(const CsrGraph& graph, Options options = {});
  ~FrontierSssp();
  FrontierSssp(const FrontierSssp&) = delete;
  FrontierSssp& operator=(const FrontierSssp&) = delete;

  /// Distances from `source` (sssp::kInfinity where unreachable). Throws
  /// sssp::InvalidSource for a bad source. Counters: iterations = host-loop
  /// iterations (one per kernel pair, the last one finding no change),
  /// kernel_launches = every launch including initialisation, host_syncs =
  /// times the host waited for the flag. device_ms: from initialisation to the
  /// end of the loop, the host round trips included.
  [[nodiscard]] SsspResult run(vertex_t source);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// Level-synchronous frontier BFS of the same family: one kernel per level
/// expands the vertices of the current level; the host stops at the first
/// level that adds no vertex.
class FrontierBfs {
 public:
  /// Uploads `graph` and allocates the level array.
  explicit FrontierBfs(const CsrGraph& graph, Options options = {});
  ~FrontierBfs();
  FrontierBfs(const FrontierBfs&) = delete;
  FrontierBfs& operator=(const FrontierBfs&) = delete;

  /// Levels from `source` (sssp::kUnreached where unreachable); counters and
  /// device_ms as for FrontierSssp::run().
  [[nodiscard]] BfsResult run(vertex_t source);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace lab02
