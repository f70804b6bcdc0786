/// @file
/// @brief Lab 08's test hooks (given code, not a task): the checkpoints,
/// harness kernels (checkpoints.cu) that run one task's device function, the
/// very one the solver calls, on hand-made inputs, with the rest of the
/// solver's work done by given code, and return what it wrote. The graded
/// Checkpoint tests check each task alone with them; nothing else calls
/// them. Each throws sssp::InputError for inputs of the wrong size or naming
/// a vertex out of range, and sssp::NotImplemented while its task is the
/// skeleton's stub. The solvers' contracts are in lab08.hpp.
///
/// A plain C++ header: the tests include it without nvcc.
#pragma once

#include <cstdint>
#include <vector>

#include "lab08.hpp"

namespace lab08 {

/// A request-list slot nothing was written to, in the checkpoints.
inline constexpr vertex_t kNoRequest = ~vertex_t{0};

/// What one launch of task 2 (take_from_bucket, in chen_tasks.cuh) did.
struct TakeBucketCheckpoint {
  std::vector<vertex_t> requests;     ///< The request list, all n slots; kNoRequest where nothing was written.
  unsigned taken = 0;                 ///< How many calls returned true.
  std::vector<bucket_t> bindex;       ///< BIndex after the launch.
  std::vector<bucket_t> taken_stamp;  ///< The S stamps after the launch (all 0 before it).
};

/// Task 2 alone: one thread per vertex v of `bindex` (its size is n) calls
/// take_from_bucket for bucket `current`, with ReqIndex the exclusive prefix
/// sum of "bindex[v] == current", computed here as the solver's CUB scan does.
[[nodiscard]] TakeBucketCheckpoint checkpoint_take_bucket(const std::vector<bucket_t>& bindex, bucket_t current);

/// What one launch of task 3 (offer_arc, in chen_tasks.cuh) did.
struct RelaxCheckpoint {
  std::vector<dist_t> dist;        ///< Distances after the launch.
  std::vector<bucket_t> bindex;    ///< BIndex after the launch.
  unsigned long long offered = 0;  ///< The sum of what the calls returned: the arcs offered.
};

/// Task 3 alone: one thread per entry v of `requests` calls offer_arc on each
/// of v's arcs in turn, on `graph` with `delta` and `light`, starting from
/// `dist` and `bindex` (both of size n).
[[nodiscard]] RelaxCheckpoint checkpoint_relax_requests(const CsrGraph& graph, const std::vector<dist_t>& dist,
                                                        const std::vector<bucket_t>& bindex,
                                                        const std::vector<vertex_t>& requests, dist_t delta,
                                                        bool light);

/// What one launch of task 7 (offer_share, in chen_tasks.cuh) did, with a
/// stand-in for task 3 that records each call and returns 1.
struct ShareCheckpoint {
  std::vector<unsigned> calls;                 ///< Per arc of the graph: the calls that offered it.
  std::vector<unsigned> tail_wrong;            ///< Per arc: the calls that named a vertex other than its tail.
  unsigned beyond_the_arcs = 0;                ///< Calls for an arc index past the graph's arcs.
  std::vector<unsigned long long> per_thread;  ///< Per thread: the calls it made.
  std::vector<unsigned long long> returned;    ///< Per thread: what its task 7 call returned.
};

/// Task 7 alone: exactly `threads` threads (1 to 2^20), thread t calling
/// offer_share(..., t, threads, stand-in) on the arcs of `requests` (vertices
/// of `graph`, none twice), with reqSize the exclusive prefix sum of
/// their out-degrees, computed here as the solver's CUB scan does.
[[nodiscard]] ShareCheckpoint checkpoint_offer_share(const CsrGraph& graph, const std::vector<vertex_t>& requests,
                                                     std::uint64_t threads);

/// What one near round of task 4 (relax_and_route, in near_far_tasks.cuh) did.
struct OfferCheckpoint {
  std::vector<dist_t> dist;    ///< Distances after the round.
  std::vector<vertex_t> near;  ///< The next near list, in the order written.
  std::vector<vertex_t> far;   ///< What the round appended to the far pile, in the order written.
  bool overflow = false;       ///< Whether a list ran out of its slots (one per arc plus n).
};

/// Task 4 alone: one near round under `threshold`. One thread per item v of
/// `near` (distinct vertices) calls relax_and_route on each of v's arcs in
/// order, at dv = dist[v]; every near stamp is clear and the vertices of
/// `already_far` are marked as in the far pile (they are not in the returned
/// far list unless the round appends them again).
[[nodiscard]] OfferCheckpoint checkpoint_offer(const CsrGraph& graph, const std::vector<dist_t>& dist,
                                               const std::vector<vertex_t>& near, dist_t threshold,
                                               const std::vector<vertex_t>& already_far);

/// What one split of task 5 (split_far_item, in near_far_tasks.cuh) did.
struct SplitCheckpoint {
  std::vector<vertex_t> near;    ///< The near list the split wrote, in the order written.
  std::vector<vertex_t> far;     ///< The far pile the split kept, in the order written.
  std::vector<unsigned> in_far;  ///< The far marks after the split (1 for the items of `far` before it, else 0).
  /// The smallest distance a call returned other than sssp::kInfinity (what
  /// stays far), or sssp::kInfinity: the solver's next threshold jump.
  dist_t far_min = sssp::kInfinity;
};

/// Task 5 alone: the threshold moves from `old_threshold` to `threshold`; one
/// thread per item w of `far` (distinct vertices, distances in `dist`, of
/// size n) calls split_far_item.
[[nodiscard]] SplitCheckpoint checkpoint_split(const std::vector<dist_t>& dist, const std::vector<vertex_t>& far,
                                               dist_t old_threshold, dist_t threshold);

/// Copy c of each rotating piece of Near-Far's loop state: frontier copy c,
/// the count of near list copy c (by launch number) and of far pile copy c
/// (by split number).
struct LoopCopy {
  dist_t threshold = 0;              ///< The threshold a launch reading this copy routes by.
  dist_t far_min = sssp::kInfinity;  ///< The smallest distance a split left far (the blocks' atomicMin).
  unsigned split = 0;                ///< Splits so far: picks the far pile.
  unsigned near_count = 0;           ///< Items appended to near list copy c.
  unsigned far_count = 0;            ///< Items appended to far pile copy c.
};

/// What task 6 (leave_state_for_the_next_launch, in near_far_tasks.cuh)
/// reads and writes: the kLoopCopies copies and the run's statistics.
struct LoopState {
  std::vector<LoopCopy> copies;        ///< kLoopCopies entries; copy c at index c.
  unsigned long long near_rounds = 0;  ///< Near rounds counted so far.
  unsigned long long splits = 0;       ///< Splits counted so far.
  unsigned done_launch = 0;            ///< The first idle launch, 0 while running.
};

/// Task 6 alone: launch `number` (from 1), a near round, a split or neither
/// (idle), leaves its state for launch number + 1. One thread calls
/// leave_state_for_the_next_launch on `before`, with frontier copy
/// number % kLoopCopies as the launch's own state and `threshold` as the one
/// it routed by (after a split, the advanced one). Returns the state after the call.
[[nodiscard]] LoopState checkpoint_next_launch(const LoopState& before, unsigned number, dist_t threshold,
                                               bool near_round, bool split);

/// What task 8 (decide_step, in near_far_tasks.cuh) decided for one launch.
/// Lists and counts are named by their copy: 0 to kLoopCopies - 1, or -1 for
/// a pointer to none of the copies.
struct StepCheckpoint {
  bool near_round = false;  ///< The launch expands its near list.
  bool split = false;       ///< The launch splits its far pile.
  unsigned near_items = 0;  ///< Items of the near list it reads.
  unsigned far_items = 0;   ///< Items of the far pile it reads.
  int near_in = -1;         ///< The near list it reads.
  int near_out = -1;        ///< The near list it appends to.
  int near_out_count = -1;  ///< That list's count.
  int far_in = -1;          ///< The far pile it reads.
  int far_now = -1;         ///< The far pile a near round appends to.
  int far_now_count = -1;   ///< That pile's count.
  int far_next = -1;        ///< The far pile a split keeps its far items in.
  int far_next_count = -1;  ///< That pile's count.
  unsigned number = 0;      ///< The launch number it records.
  dist_t threshold = 0;     ///< The threshold it routes by.
};

/// Task 8 alone: one thread calls decide_step for launch `number` (from 1)
/// with bucket width `delta` on the loop state `state` (kLoopCopies copies),
/// with lists of `capacity` slots (1 to 2^20). Returns what it decided.
[[nodiscard]] StepCheckpoint checkpoint_decide_step(const LoopState& state, unsigned number, dist_t delta,
                                                    vertex_t capacity);

}  // namespace lab08
