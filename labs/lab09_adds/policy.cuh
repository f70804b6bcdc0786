// Lab 09 skeleton, generated from solutions/lab09_adds/policy.cuh by common/tools/make_skeleton.py.
// This file is yours: replace each SSSP_TODO with your code.
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
  // TODO(task 1): k = (offer - head_lo) / delta buckets after the head (0
  // for an offer at or below head_lo), at most buckets - 1; return
  // (head + k) % kBuckets. Mind that head_lo + k * delta can overflow.
#if defined(__CUDA_ARCH__)
  return head;  // placeholder on the GPU: every offer in the head bucket
#else
  SSSP_TODO(9, 1, "the bucket of an offer, clipped to the last bucket");
#endif
}

LAB09_HOST_DEVICE dist_t next_delta(const DeltaSignal& signal, const DeltaBounds& bounds) {
  // TODO(task 5): apply the four rules of next_delta in lab09.hpp, in order, then clamp to
  // [bounds.min_delta, bounds.max_delta] (double without overflow).
#if defined(__CUDA_ARCH__)
  return signal.delta;  // placeholder on the GPU: delta stays where it started
#else
  SSSP_TODO(9, 5, "the manager's delta decision");
#endif
}

}  // namespace lab09
