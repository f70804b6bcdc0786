// Lab 09, tasks 1 and 5: the two decisions of ADDS that are plain
// arithmetic. Which bucket an offer goes to (every worker, at every
// improvement) and what delta becomes (the manager, every few head-bucket
// switches). Their contracts are in lab09.hpp. adds.cu includes this file,
// so the kernel and the CPU tests (which call the host versions in the lab's
// library) run the very same code.
#pragma once

#include "lab09.hpp"
#include "sssp/todo.hpp"

namespace lab09 {

LAB09_HOST_DEVICE unsigned bucket_of(dist_t offer, dist_t head_lo, dist_t delta, unsigned head, unsigned buckets) {
  // BEGIN SOLUTION task 1: the bucket of an offer, clipped to the last bucket
  // Divide before comparing: head_lo + k * delta could pass 2^64.
  const dist_t steps = offer <= head_lo ? 0 : (offer - head_lo) / delta;
  const dist_t last = buckets - 1;
  const unsigned k = static_cast<unsigned>(steps < last ? steps : last);
  return (head + k) % kBuckets;
  // SKELETON
  // // TODO(task 1): k = (offer - head_lo) / delta buckets after the head (0
  // // for an offer at or below head_lo), at most buckets - 1; return
  // // (head + k) % kBuckets. Mind that head_lo + k * delta can overflow.
  // #if defined(__CUDA_ARCH__)
  // return head;  // placeholder on the GPU: every offer in the head bucket
  // #else
  // SSSP_TODO(9, 1, "the bucket of an offer, clipped to the last bucket");
  // #endif
  // END SOLUTION
}

LAB09_HOST_DEVICE dist_t next_delta(const DeltaSignal& signal, const DeltaBounds& bounds) {
  // BEGIN SOLUTION task 5: the manager's delta decision
  const dist_t d = signal.delta;
  const dist_t doubled = d > bounds.max_delta / 2 ? bounds.max_delta : 2 * d;
  dist_t next = d;
  if (signal.tail_share > bounds.tail_majority) {
    next = doubled;
  } else if (signal.repeat_share > bounds.max_repeat_share || signal.utilisation > bounds.high_utilisation) {
    next = d / 2;
  } else if (signal.utilisation < bounds.low_utilisation) {
    next = doubled;
  }
  if (next < bounds.min_delta) next = bounds.min_delta;
  if (next > bounds.max_delta) next = bounds.max_delta;
  return next;
  // SKELETON
  // // TODO(task 5): apply the four rules of next_delta in lab09.hpp, in order, then clamp to
  // // [bounds.min_delta, bounds.max_delta] (double without overflow).
  // #if defined(__CUDA_ARCH__)
  // return signal.delta;  // placeholder on the GPU: delta stays where it started
  // #else
  // SSSP_TODO(9, 5, "the manager's delta decision");
  // #endif
  // END SOLUTION
}

}  // namespace lab09
