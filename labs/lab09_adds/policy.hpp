// Lab 09 skeleton, generated from solutions/lab09_adds/policy.hpp by common/tools/make_skeleton.py.
// This file is yours: replace each SSSP_TODO with your code.
/// @file
/// @brief Lab 09, tasks 1 and 5: the two decisions of ADDS that are plain
/// arithmetic. Which bucket an offer goes to (every worker, at every
/// improvement) and what delta becomes (the manager, every few head-bucket
/// switches). Inline and callable from host and device, so the kernel and
/// the CPU tests run the very same code.
#pragma once

#include "sssp/todo.hpp"
#include "sssp/types.hpp"

#if defined(__CUDACC__)
/// Compiles a function for the host and, under nvcc, for the device too.
#define LAB09_HOST_DEVICE __host__ __device__
#else
#define LAB09_HOST_DEVICE
#endif

namespace lab09 {

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
/// Without a GPU the skeleton throws; on the GPU it sends every offer to the
/// head bucket, which is slow but still correct.
// (The parameters are [[maybe_unused]] only so that the skeleton compiles
// warning-free wherever this header is included.)
[[nodiscard]] LAB09_HOST_DEVICE inline unsigned bucket_of([[maybe_unused]] sssp::dist_t offer,
                                                          [[maybe_unused]] sssp::dist_t head_lo,
                                                          [[maybe_unused]] sssp::dist_t delta,
                                                          [[maybe_unused]] unsigned head,
                                                          [[maybe_unused]] unsigned buckets = kBuckets) {
  // TODO(task 1): k = (offer - head_lo) / delta buckets after the head (0
  // for an offer at or below head_lo), at most buckets - 1; return
  // (head + k) % kBuckets. Mind that head_lo + k * delta can overflow.
  #if defined(__CUDA_ARCH__)
  return head;  // placeholder on the GPU: every offer in the head bucket
  #else
  SSSP_TODO(9, 1, "the bucket of an offer, clipped to the last bucket");
  #endif
}

/// What the manager has measured when it decides delta (task 5).
struct DeltaSignal {
  /// The bucket width now.
  sssp::dist_t delta = 1;
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
  sssp::dist_t min_delta = 1;        ///< delta never goes below this
  sssp::dist_t max_delta = 1;        ///< nor above this (min_delta <= max_delta)
  double low_utilisation = 1.0;      ///< below it the GPU starves: widen the buckets
  double high_utilisation = 8.0;     ///< above it there is work to spare: narrow them
  double max_repeat_share = 0.5;     ///< above it too much work is wasted: narrow them
  double tail_majority = 0.5;        ///< above it the last bucket holds most of the work
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
/// overflow. Without a GPU the skeleton throws; on the GPU it keeps delta
/// (a static delta: correct, not adaptive).
[[nodiscard]] LAB09_HOST_DEVICE inline sssp::dist_t next_delta([[maybe_unused]] const DeltaSignal& signal,
                                                               [[maybe_unused]] const DeltaBounds& bounds) {
  // TODO(task 5): apply the four rules above, in order, then clamp to
  // [bounds.min_delta, bounds.max_delta] (double without overflow).
  #if defined(__CUDA_ARCH__)
  return signal.delta;  // placeholder on the GPU: delta stays where it started
  #else
  SSSP_TODO(9, 5, "the manager's delta decision");
  #endif
}

}  // namespace lab09
