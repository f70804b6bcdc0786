/// @file
/// @brief Lab 09 — ADDS, asynchronous dynamic delta-stepping (Wang, Fussell
/// and Lin, PPoPP 2021, section 5), in one persistent launch: a manager warp
/// and worker thread blocks sharing a circular queue of 32 buckets in global
/// memory, with no host round trip until the answer is ready.
///
/// A plain C++ header: the runner and the tests include it without nvcc. The
/// graded tests' hooks into the given harnesses are in lab09_testing.hpp.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "sssp/graph.hpp"
#include "sssp/result.hpp"
#include "sssp/types.hpp"

#if defined(__CUDACC__)
/// Compiles a function for the host and, under nvcc, for the device too:
/// tasks 1 and 5 run in the kernel and, without a GPU, in the CPU tests.
#define LAB09_HOST_DEVICE __host__ __device__
#else
#define LAB09_HOST_DEVICE
#endif

/// Lab 09: ADDS.
namespace lab09 {

using sssp::CsrGraph;
using sssp::dist_t;
using sssp::SsspResult;
using sssp::vertex_t;

/// Buckets in the circular queue: one per lane of the manager's warp.
inline constexpr unsigned kBuckets = 32;

/// Task 1: the bucket, an index 0..31 of the circular queue, that an offer
/// of distance `offer` goes to.
///
/// Bucket `head` is the head bucket; it holds distances below
/// `head_lo + delta`. Bucket `(head + k) % 32` holds [head_lo + k delta,
/// head_lo + (k + 1) delta), for k = 1 .. `buckets` - 1. An offer at or below
/// `head_lo` goes to the head bucket (an improvement of a vertex the queue
/// has moved past must still be expanded, and soon). An offer beyond the last
/// bucket's range is clipped to the last bucket, `(head + buckets - 1) % 32`.
///
/// Preconditions: `delta` >= 1, 2 <= `buckets` <= 32, `head` < 32.
/// Written in policy.cuh, which the kernel's file (adds.cu) includes. The
/// skeleton throws on the host; in the kernel it sends every offer to the
/// head bucket, which is slow but still correct.
[[nodiscard]] LAB09_HOST_DEVICE unsigned bucket_of(dist_t offer, dist_t head_lo, dist_t delta, unsigned head,
                                                   unsigned buckets = kBuckets);

/// What the manager has measured when it decides delta (task 5).
struct DeltaSignal {
  /// The bucket width now.
  dist_t delta = 1;
  /// Items held by the workers, times the graph's average out-degree, over
  /// the workers' threads: about the arcs in flight per hardware thread.
  double utilisation = 0;
  /// Of the items waiting in the queue (published, not yet assigned), the
  /// share in the last bucket, where every offer past the queue's range is
  /// clipped to. Near 1: the buckets are too narrow for the distances in play.
  double tail_share = 0;
  /// Of the items expanded since the last decision, the share that expanded
  /// a vertex a second time or more: the work delta-stepping wastes.
  double repeat_share = 0;
};

/// The controller's limits, fixed for a run.
struct DeltaBounds {
  dist_t min_delta = 1;           ///< delta never goes below this
  dist_t max_delta = 1;           ///< nor above this (min_delta <= max_delta)
  double low_utilisation = 1.0;   ///< below it the GPU starves: widen the buckets
  double high_utilisation = 8.0;  ///< above it there is work to spare: narrow them
  double max_repeat_share = 0.5;  ///< above it too much work is wasted: narrow them
  double tail_majority = 0.5;     ///< above it the last bucket holds most of the work
};

/// Task 5: delta after one decision of the manager. In this order:
///  1. the last bucket holds most of the waiting work (`tail_share` >
///     `tail_majority`): the buckets are too narrow; double delta (this is
///     the lower bound: delta never shrinks while the tail is full);
///  2. else too much work is repeated (`repeat_share` > `max_repeat_share`)
///     or there is work to spare (`utilisation` > `high_utilisation`): halve it;
///  3. else the GPU starves (`utilisation` < `low_utilisation`): double it;
///  4. else keep it.
///
/// The result is clamped to [min_delta, max_delta]; doubling must not
/// overflow. Written in policy.cuh, which adds.cu includes. The skeleton
/// throws on the host; in the kernel it keeps delta (a static delta:
/// correct, not adaptive).
[[nodiscard]] LAB09_HOST_DEVICE dist_t next_delta(const DeltaSignal& signal, const DeltaBounds& bounds);

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
  /// Same-bucket improvements a worker block may keep in its own list and
  /// expand itself, per chunk, before it publishes the rest: 0 to 4096,
  /// rounded up to a multiple of 32 (the list's 32 parts by distance); 0:
  /// every improvement goes through the queue.
  unsigned local_items = 4096;
  /// Whether the manager moves delta during the run (task 5's next_delta,
  /// within [delta / 16, delta x 16], every 8 head-bucket switches).
  bool dynamic_delta = false;
  /// Pages of 4096 queue slots in the pool; 0 sizes it from the graph. The
  /// manager keeps 2 pages mapped past each bucket's reservations (3 once a
  /// bucket has any), and a page returns only when all its slots are done:
  /// a run needs about 65 pages plus one per bucket it touches, and more as
  /// live items grow. Fewer than 65 always runs out (a test of the error path).
  unsigned pool_pages = 0;
  /// Worker blocks to launch beside the manager: 0, as many as fit on the
  /// GPU at once (at most 1024); or 1 to 1024, an error if that many do not
  /// fit. One worker sees every chunk: the tests use it to build chunks of
  /// many items.
  unsigned workers = 0;
  /// The manager gives up, with a report of the queue, after this long with
  /// no progress at all (nothing reserved, completed or assigned); 0 never.
  unsigned watchdog_ms = 2000;
};

/// Throws sssp::InputError naming the first option outside the range its
/// comment above states. AddsSssp's constructor calls it first; the runner
/// calls it before it loads a graph, so a bad flag fails at once.
void validate(const AddsOptions& options);

/// One decision of the manager's delta controller, as it saw it.
struct TraceEntry {
  unsigned long long pass = 0;  ///< manager passes so far
  DeltaSignal signal;           ///< what next_delta was given
  dist_t delta = 0;             ///< what next_delta returned: delta from then on
  unsigned items_held = 0;      ///< items the workers held at the decision
  unsigned buckets_open = 0;    ///< buckets assigned from in that pass
};

/// What one run did, beyond the distances.
struct AddsStats {
  unsigned long long passes = 0;            ///< manager passes
  unsigned long long head_switches = 0;     ///< times the head bucket retired
  unsigned long long expansions = 0;        ///< items expanded (stale copies skipped are not counted)
  unsigned long long repeats = 0;           ///< of those, a vertex expanded a second time or more
  unsigned long long local_expansions = 0;  ///< of those, expanded from a block's local list, not the queue
  unsigned long long published = 0;         ///< items that went through the queue (the source included)
  dist_t final_delta = 0;                   ///< delta when the run ended
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
  /// page pool ran out (never a silent loss of work), the watchdog fired, or
  /// a bucket passed 2^32 - 2^20 reservations, with the queue's state; sssp::NotImplemented when a skeleton's device
  /// task ran. Counters: iterations = manager passes, vertices_processed =
  /// items expanded, edges_relaxed = their arcs (all of them, also for a hub
  /// whose expansion stopped early: an upper bound), kernel_launches = 1,
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
