// Lab 08, tasks 4, 5, 6 and 8: the four device functions of Near-Far a
// student writes, with the lists and loop state they work on. near_far.cu's step
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
constexpr unsigned kCopies = kLoopCopies;

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

// Task 6: the GPU drives itself. Launch `number` (a near round if
// `near_round`, a split if `split`, else idle) leaves the loop's state for
// launch number + 1, which no host decision stands between: the host only
// queues launches and looks, now and then, whether stats.done_launch is set.
// Called by thread 0 of block 0 alone, after its own block's work, while other
// blocks of this launch may still be running: they append to near list copy
// number + 1 and to the far pile (copy now.split in a near round, now.split + 1
// in a split) and atomicMin their far_min into frontier copy number + 1.
// `threshold` is this launch's (a split advanced it: next_threshold).
//
// The contract. On return:
//  - frontier copy number + 1 holds what launch number + 1 reads: the
//    threshold to route by and the number of splits so far (one more after a
//    split, which picks the far pile it reads); its far_min is the blocks'
//    (do not touch it);
//  - every counter that launch number + 1 appends to, or atomicMins into, is
//    empty: the near count of copy number + 2, frontier copy number + 2's
//    far_min (kInfinity), and, after a split, the count of far pile copy
//    now.split + 2, where the next split keeps its far items;
//  - stats counts this launch as a near round or a split, and done_launch is
//    this launch's number if it is the first idle one (found both lists
//    empty), and is never changed after that.
//
// Be ready to argue: why may block 0 empty copy number + 2 while other blocks
// of this launch still run, and what would go wrong with two copies (empty
// copy number + 1 instead)? Why must no launch before number + 1 empty what
// number + 1 fills? Why is the first idle launch the end of the run: what
// could still add work after it? (The handout's "The GPU drives itself (task 6)".)
__device__ __forceinline__ void leave_state_for_the_next_launch(const Lists& lists, unsigned number,
                                                                const Frontier& now, dist_t threshold, bool near_round,
                                                                bool split) {
  // BEGIN SOLUTION task 6: the next launch's state (the GPU-driven loop)
  Frontier& next = lists.frontier[(number + 1) % kCopies];
  next.threshold = threshold;
  next.split = split ? now.split + 1 : now.split;
  lists.frontier[(number + 2) % kCopies].far_min = sssp::kInfinity;
  lists.near_count[(number + 2) % kCopies] = 0;               // launch number + 1 appends there
  if (split) lists.far_count[(now.split + 2) % kCopies] = 0;  // the next split keeps its far items there
  RunStats& stats = *lists.stats;
  if (near_round) ++stats.near_rounds;
  if (split) ++stats.splits;
  if (!near_round && !split && stats.done_launch == 0) stats.done_launch = number;
  // SKELETON
  // // TODO(task 6): meet the contract above, and be ready to argue it (the
  // // questions above). Given: kCopies, the Lists and RunStats fields; the
  // // blocks' far_min is already on its way into copy number + 1.
  // SSSP_DEVICE_TODO(8, 6, "the next launch's state (the GPU-driven loop)");
  // END SOLUTION
}

// What one launch is and works on: task 8 decides it from the state the
// previous launch left, and every block of the launch decides the same.
struct Step {
  Frontier now;             // the state the previous launch left for this one
  const vertex_t* near_in;  // the near list a near round expands
  unsigned near_in_count;   // its items
  const vertex_t* far_in;   // the far pile a split splits
  unsigned far_in_count;    // its items
  bool near_round;          // this launch expands near_in
  bool split;               // this launch splits far_in
  Launch launch;            // where it appends, and the threshold it routes by
};

// Task 8: what launch `number` (from 1) does, decided from the state launch
// number - 1 left (task 6 wrote it; launch 1 reads initialise's). Returns a
// step that meets this contract:
//  - now is frontier copy number % kCopies;
//  - near_in is near list copy number and far_in far pile copy now.split,
//    with their counts, each at most lists.capacity (a count past it means
//    an overflow the host reports: only the slots that exist are items);
//  - the launch is a near round if near_in holds items, else a split if
//    far_in does, else idle (neither);
//  - launch.number is number; a near round appends to near list copy
//    number + 1 and to far pile copy now.split (near_out, far_now, with
//    their counts), and a split keeps what stays far in far pile copy
//    now.split + 1 (far_next, with its count); every field is set, whatever
//    the launch is;
//  - launch.threshold is now.threshold, except after a split: then the
//    smallest now.threshold + k * delta, k >= 1, above now.far_min when
//    now.far_min is finite and at least now.threshold (else k = 1), or
//    kInfinity if that passes it.
//
// Be ready to argue: why must every block of a launch reach the same
// decision, and what makes it so? Why may a split jump several deltas at
// once, and why never past now.far_min's bucket?
__device__ __forceinline__ Step decide_step(const Lists& lists, unsigned number, dist_t delta) {
  Step step{};
  // BEGIN SOLUTION task 8: the step a launch takes, from the state the previous one left
  step.now = lists.frontier[number % kCopies];
  const Frontier& now = step.now;
  step.near_in = lists.near_list(number);
  step.near_in_count = min(lists.near_count[number % kCopies], lists.capacity);
  step.far_in = lists.far_list(now.split);
  step.far_in_count = min(lists.far_count[now.split % kCopies], lists.capacity);
  step.near_round = step.near_in_count > 0;
  step.split = !step.near_round && step.far_in_count > 0;
  dist_t threshold = now.threshold;
  if (step.split) {
    // threshold + delta, or further if the last split measured that the far
    // pile holds nothing below that: then the smallest far distance's bucket.
    dist_t steps = 1;
    if (now.far_min != sssp::kInfinity && now.far_min >= now.threshold)
      steps = (now.far_min - now.threshold) / delta + 1;
    threshold = steps > (sssp::kInfinity - now.threshold) / delta ? sssp::kInfinity : now.threshold + steps * delta;
  }
  step.launch = Launch{number,
                       lists.near_list(number + 1),
                       &lists.near_count[(number + 1) % kCopies],
                       lists.far_list(now.split),
                       &lists.far_count[now.split % kCopies],
                       lists.far_list(now.split + 1),
                       &lists.far_count[(now.split + 1) % kCopies],
                       threshold};
  // SKELETON
  // // TODO(task 8): meet the contract above, and be ready to argue it (the
  // // questions above). Given: kCopies, Lists::near_list and far_list, the
  // // Frontier, Launch and Step fields.
  // (void)lists, (void)number, (void)delta;
  // SSSP_DEVICE_TODO_RETURN(8, 8, "the step a launch takes, from the state the previous one left", step);
  // END SOLUTION
  return step;
}

}  // namespace
}  // namespace lab08
