// Lab 09, task 9: what the dynamic delta decides from. At a decision the
// manager's warp measures the run (measure_delta_signal), task 5's
// next_delta turns the measurement into a delta, and the trace keeps both.
// manager.cuh (the solver) and checkpoints.cu (the graded harness that runs
// this function alone, on counters set by hand) include this file, so both
// run the same code.
#pragma once

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include "chunk_tasks.cuh"
#include "lab09.hpp"
#include "queue.cuh"
#include "sssp/cuda/atomics.cuh"
#include "sssp/cuda/todo.cuh"

namespace lab09 {
namespace {

// Task 9: the measurement the dynamic delta decides from. Called by the
// manager's whole warp at a decision (with r.dynamic_delta, at every
// kSwitchesPerDecision-th head switch). Lane L holds bucket L's `resv`, its
// reservations as this pass loaded them, and `read`, how far the manager has
// handed its slots out, this pass's hand-out included. `held_total`, the items
// the workers hold now, and `position` are the same in every lane, and so is
// `seen`: what the previous decision left there ({0, 0} before the first).
//
// The contract. Returns, in every lane alike, DeltaSignal (lab09.hpp) as it
// stands now:
//  - delta: position.delta;
//  - utilisation: held_total items of r.average_degree arcs each, over the
//    threads of the r.workers worker blocks (kBlock each);
//  - tail_share: of the items waiting in the queue, the share that waits in
//    the last bucket in use, the r.buckets_used-th counting the head as the
//    first (an item waits from its reservation until its slot is handed
//    out); 0 when nothing waits. A scan that ran after load_counts may have
//    handed out slots reserved since: a bucket's read can be past its resv;
//  - repeat_share: of the expansions counted in *r.work since the previous
//    decision, the share that expanded a vertex again; 0 when there were
//    none. The workers add to the two counters while the manager reads them,
//    and nothing orders what it sees of one against the other: the share is
//    within [0, 1] all the same.
// On return `seen` holds, in every lane alike, the counters this decision
// measured from, for the next one. Wait for nothing and write nothing but
// `seen`: the manager must never block, and the run is not yours to change.
//
// Be ready to argue: why does the tail bucket's share, not the head's, tell
// that delta is too narrow? Why measure repeats since the last decision
// rather than since the run began? What would the warp do if two lanes read
// a counter and saw two values? (The handout's "The dynamic delta's
// measurement (task 9)".)
__device__ __forceinline__ DeltaSignal measure_delta_signal(const Run& r, const cg::thread_block_tile<32>& warp,
                                                            unsigned lane, const QueuePosition& position, unsigned resv,
                                                            unsigned read, unsigned held_total, DeltaHistory& seen) {
  // BEGIN SOLUTION task 9: the measurement the dynamic delta decides from
  DeltaSignal signal;
  signal.delta = position.delta;
  signal.utilisation = held_total * r.average_degree / (static_cast<double>(r.workers) * kBlock);
  // A bucket handed out past the resv this pass loaded waits for nothing
  // (unsigned, resv - read would wrap to about 2^32).
  const unsigned waiting_here = resv > read ? resv - read : 0;
  const unsigned waiting = cg::reduce(warp, waiting_here, cg::plus<unsigned>());
  const unsigned last = (position.head + r.buckets_used - 1) % kBuckets;
  const unsigned waiting_last = warp.shfl(waiting_here, last);
  signal.tail_share = waiting == 0 ? 0.0 : static_cast<double>(waiting_last) / waiting;
  // One lane reads the counters and the warp takes its values: lanes that
  // read on their own might see two values, and then decide two deltas.
  unsigned long long expansions = 0, repeats = 0;
  if (lane == 0) {
    expansions = load_relaxed(&r.work->expansions);
    repeats = load_relaxed(&r.work->repeats);
  }
  expansions = warp.shfl(expansions, 0);
  repeats = warp.shfl(repeats, 0);
  const unsigned long long expanded = expansions - seen.expansions;
  const unsigned long long repeated = repeats - seen.repeats;
  // A worker's chunk adds its expansions, then its repeats: the manager may
  // see the repeats of a chunk whose expansions it missed.
  signal.repeat_share = expanded == 0 ? 0.0 : fmin(1.0, static_cast<double>(repeated) / static_cast<double>(expanded));
  seen = DeltaHistory{expansions, repeats};
  return signal;
  // SKELETON
  // // TODO(task 9): meet the contract above, and be ready to argue its
  // // questions. Given: cg::reduce, warp.shfl, load_relaxed, kBlock, kBuckets.
  // (void)r, (void)warp, (void)lane, (void)resv, (void)read, (void)held_total, (void)seen;
  // DeltaSignal none;
  // none.delta = position.delta;
  // SSSP_DEVICE_TODO_RETURN(9, 9, "the measurement the dynamic delta decides from", none);
  // END SOLUTION
}

}  // namespace
}  // namespace lab09
