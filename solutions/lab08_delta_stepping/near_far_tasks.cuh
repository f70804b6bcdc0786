// Lab 08, tasks 4 and 5: the two device functions of Near-Far a student
// writes, with the lists and loop state they work on. near_far.cu's step
// kernel calls them, and so do the checkpoints' harness kernels
// (checkpoints.cu), so a checkpoint grades the very code the solver runs,
// each task on its own.
//
// Include it after SSSP_DEVICE_TODO_STATE(8): the skeleton's stubs record an
// unfinished task in that word of the including file.
#pragma once

#include <cooperative_groups.h>

#include <cstdint>

#include "lab08.hpp"
#include "sssp/cuda/atomics.cuh"
#include "sssp/cuda/device_graph.cuh"
#include "sssp/cuda/todo.cuh"

namespace lab08 {
namespace {

namespace cg = cooperative_groups;
using sssp::weight_t;
using sssp::cuda::load_dist;  // relaxed atomic read of a distance: see its comment

// Lists, counts and loop states rotate through this many copies (see near_far.cu).
constexpr unsigned kCopies = 3;

// The loop state a launch leaves for the next one.
struct Frontier {
  dist_t threshold;  // near holds distances below it
  // Smallest distance a split left in the far pile, or kInfinity when the
  // previous launch was not a split. A split that finds it at or above the
  // next threshold jumps to it, so an empty distance range costs one split.
  dist_t far_min;
  unsigned split;  // splits so far: picks the far pile's copy
};

// What the host reads when it looks; written by thread 0 of block 0 only,
// one launch after another, except `overflow`.
struct RunStats {
  unsigned long long near_rounds;
  unsigned long long splits;
  unsigned done_launch;  // the first launch that found both lists empty, 0 while running
  unsigned overflow;     // a list ran out of room: a broken deduplication
};

// The device arrays of a run, passed by value to every launch.
// Copy c of a list is capacity slots from c * capacity: one array per kind,
// indexed by arithmetic (an array of pointers indexed by the launch number
// would put the kernel's parameters in slow local memory).
struct Lists {
  vertex_t* near;        // kCopies lists
  unsigned* near_count;  // kCopies counts
  vertex_t* far;         // kCopies lists
  unsigned* far_count;   // kCopies counts
  Frontier* frontier;    // kCopies states
  RunStats* stats;
  unsigned* queued_by;  // per vertex: the launch that last queued it into a near list (0: none)
  unsigned* in_far;     // per vertex: 1 while it is in the far pile
  dist_t* expanded_at;  // per vertex: the distance it was last expanded at (kInfinity: never)
  vertex_t capacity;    // slots per list: n

  __device__ vertex_t* near_list(unsigned copy) const { return near + std::uint64_t{copy % kCopies} * capacity; }
  __device__ vertex_t* far_list(unsigned copy) const { return far + std::uint64_t{copy % kCopies} * capacity; }
};

// What one launch works on: its copies of the lists.
struct Launch {
  unsigned number;     // L, from 1
  vertex_t* near_out;  // next near list
  unsigned* near_out_count;
  vertex_t* far_now;  // the far pile near rounds append to
  unsigned* far_now_count;
  vertex_t* far_next;  // where a split keeps what stays far
  unsigned* far_next_count;
  dist_t threshold;
};

// Appends v to a list. The threads of a warp that append at the same time
// take their slots with one atomicAdd: on a small round one counter would
// otherwise take an atomic per improved vertex. Past `capacity` nothing is
// written and the run is marked overflowed.
__device__ void append(vertex_t* items, unsigned* count, vertex_t v, vertex_t capacity, unsigned* overflow) {
  const cg::coalesced_group group = cg::coalesced_threads();
  unsigned base = 0;
  if (group.thread_rank() == 0) base = atomicAdd(count, group.size());
  base = group.shfl(base, 0);
  const std::uint64_t slot = std::uint64_t{base} + group.thread_rank();
  if (slot < capacity) {
    items[slot] = v;
  } else {
    *overflow = 1;
  }
}

// Task 4: offers dv + w(e) along arc e of a near item; if the offer lowers
// the head's distance, queues the head: in the next near list if the offer
// is below the threshold, else in the far pile, each at most once.
__device__ void relax_and_route(const vertex_t* __restrict__ targets, const weight_t* __restrict__ weights,
                                dist_t* dist, const Lists& lists, const Launch& launch, dist_t dv, std::uint64_t e) {
  // BEGIN SOLUTION task 4: relax an arc of a near item and send an improved head to near or far
  const vertex_t w = targets[e];
  const dist_t offer = dv + weights[e];
  if (offer >= load_dist(dist, w)) return;  // most offers lose: skip the atomic
  if (offer >= sssp::cuda::atomic_min_dist(&dist[w], offer)) return;
  if (offer < launch.threshold) {
    if (atomicExch(&lists.queued_by[w], launch.number) != launch.number) {
      append(launch.near_out, launch.near_out_count, w, lists.capacity, &lists.stats->overflow);
    }
  } else if (atomicExch(&lists.in_far[w], 1u) == 0) {
    append(launch.far_now, launch.far_now_count, w, lists.capacity, &lists.stats->overflow);
  }
  // SKELETON
  // // TODO(task 4): on return, dist[w] (w = targets[e]) is at most dv +
  // // weights[e], however many lanes offer to w at once; if this offer lowered
  // // it, w is queued once: in this launch's near list when the offer is
  // // below launch.threshold, else in the far pile, and never a second time in
  // // the same near list (lists.queued_by) or far pile (lists.in_far), so
  // // lists of n slots cannot overflow. Argue: which lane queues w when eight
  // // lanes lower it in one launch?
  // SSSP_DEVICE_TODO(8, 4, "relax an arc of a near item and send an improved head to near or far");
  // END SOLUTION
}

// Task 5: far item w when the threshold moves from `old_threshold` to
// launch.threshold. Returns w's distance if it stays far, else kInfinity.
__device__ dist_t split_far_item(const dist_t* dist, const Lists& lists, const Launch& launch, dist_t old_threshold,
                                 vertex_t w) {
  // BEGIN SOLUTION task 5: drop, move to near, or keep a far item
  const dist_t d = load_dist(dist, w);
  const bool stays = d >= launch.threshold;
  lists.in_far[w] = stays ? 1 : 0;  // no near round runs during a split: nothing races this store
  if (stays) {
    append(launch.far_next, launch.far_next_count, w, lists.capacity, &lists.stats->overflow);
    return d;
  }
  // Below the old threshold, w was improved after it went far, by an offer
  // that queued it in a near list: it has been expanded at that distance.
  if (d >= old_threshold) append(launch.near_out, launch.near_out_count, w, lists.capacity, &lists.stats->overflow);
  // SKELETON
  // // TODO(task 5): far item w, at its current distance d: returns d if w
  // // stays far (d at or above launch.threshold: kept in launch.far_next,
  // // still marked in the pile), else infinity; a w that leaves the pile is
  // // unmarked and goes to the near list if d is at or above old_threshold.
  // // Argue: why is a w with d below old_threshold safe to drop?
  // SSSP_DEVICE_TODO_RETURN(8, 5, "drop, move to near, or keep a far item", sssp::kInfinity);
  // END SOLUTION
  return sssp::kInfinity;
}

}  // namespace
}  // namespace lab08
