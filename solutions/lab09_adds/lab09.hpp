/// @file
/// @brief Lab 09 — ADDS, asynchronous dynamic delta-stepping (Wang, Fussell
/// and Lin, PPoPP 2021, section 5), in one persistent launch: a manager warp
/// and worker thread blocks sharing a circular queue of 32 buckets in global
/// memory, with no host round trip until the answer is ready.
///
/// A plain C++ header: the runner and the tests include it without nvcc.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "policy.hpp"  // tasks 1 and 5: bucket_of and next_delta, shared by host and kernel
#include "sssp/graph.hpp"
#include "sssp/result.hpp"
#include "sssp/types.hpp"

/// Lab 09: ADDS.
namespace lab09 {

using sssp::CsrGraph;
using sssp::dist_t;
using sssp::SsspResult;
using sssp::vertex_t;

/// How AddsSssp runs. The defaults are the reference's measured best on an
/// H100 over road, grid and R-MAT graphs (the handout's tables).
struct AddsOptions {
  /// Bucket width at the start; 0 picks C x W / D (lab 08's Near-Far rule).
  dist_t delta = 0;
  /// The constant C of the starting delta: a positive finite number.
  double c = 64.0;
  /// Buckets of the queue in use, 2 to 32: offers past the last one are
  /// clipped to it. 2 is Near-Far's split (the paper's ablation).
  unsigned buckets = kBuckets;
  /// Buckets, head first, the manager assigns from in one pass: 1 to `buckets`.
  unsigned max_open = 2;
  /// Rounds a worker block may expand same-bucket improvements itself before
  /// it publishes the rest; 0: every improvement goes through the queue.
  unsigned local_rounds = 32;
  /// Whether the manager moves delta during the run (task 5's next_delta,
  /// within [delta / 16, delta x 16], every 8 head-bucket switches).
  bool dynamic_delta = false;
  /// Pages of 4096 queue slots in the pool; 0 sizes it from the graph. The
  /// queue needs 2 pages per bucket ahead of its writers, so fewer than 65
  /// always runs out (a test of the error path).
  unsigned pool_pages = 0;
  /// The manager gives up, with a report of the queue, after this long with
  /// no progress at all (nothing reserved, completed or assigned); 0 never.
  unsigned watchdog_ms = 2000;
};

/// One decision of the manager's delta controller, as it saw it.
struct TraceEntry {
  unsigned long long pass = 0;   ///< manager passes so far
  DeltaSignal signal;            ///< what next_delta was given
  dist_t delta = 0;              ///< what next_delta returned: delta from then on
  unsigned items_held = 0;       ///< items the workers held at the decision
  unsigned buckets_open = 0;     ///< buckets assigned from in that pass
};

/// What one run did, beyond the distances.
struct AddsStats {
  unsigned long long passes = 0;          ///< manager passes
  unsigned long long head_switches = 0;   ///< times the head bucket retired
  unsigned long long expansions = 0;      ///< items expanded (stale copies skipped are not counted)
  unsigned long long repeats = 0;         ///< of those, a vertex expanded a second time or more
  unsigned long long local_expansions = 0;  ///< of those, expanded from a block's local list, not the queue
  unsigned long long published = 0;       ///< items that went through the queue (the source included)
  dist_t final_delta = 0;                 ///< delta when the run ended
};

/// ADDS on the GPU. The constructor copies the graph once and allocates the
/// queue's page pool; run() solves from one source in one cooperative launch.
class AddsSssp {
 public:
  /// Checks `options` (sssp::InputError naming the bad value) and that the
  /// graph and the pool fit the GPU (sssp::CudaError with the bytes needed
  /// and free), picks delta and uploads `graph`.
  explicit AddsSssp(const CsrGraph& graph, AddsOptions options = {});
  ~AddsSssp();
  AddsSssp(const AddsSssp&) = delete;
  AddsSssp& operator=(const AddsSssp&) = delete;

  /// Distances from `source` (sssp::kInfinity where unreachable). Throws
  /// sssp::InvalidSource for a bad source; sssp::AlgorithmError when the
  /// page pool ran out (never a silent loss of work) or the watchdog fired,
  /// with the queue's state; sssp::NotImplemented when a skeleton's device
  /// task ran. Counters: iterations = manager passes, vertices_processed =
  /// items expanded, edges_relaxed = their arcs, kernel_launches = 1,
  /// host_syncs = 1 (the end). device_ms: the launch, by CUDA events.
  [[nodiscard]] SsspResult run(vertex_t source);
  /// Delta at the start of every run.
  [[nodiscard]] dist_t delta() const;
  /// The manager's trace of the last run: its first 4096 delta decisions
  /// (none with a static delta).
  [[nodiscard]] std::vector<TraceEntry> last_trace() const;
  /// What the last run did.
  [[nodiscard]] AddsStats last_stats() const;
  /// The limits task 5's next_delta gets with a dynamic delta: delta / 16 to
  /// delta x 16 around the starting delta (within 1 .. 2^62), and the default
  /// utilisation, repeat and tail limits of DeltaBounds.
  [[nodiscard]] DeltaBounds delta_bounds() const;
  /// Worker blocks of the launch: every block the GPU can hold at once, less
  /// the manager's, at most 1024.
  [[nodiscard]] unsigned workers() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace lab09
