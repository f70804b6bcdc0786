// Lab 09, tasks 2 and 3: the queue's two halves that must agree on memory
// order. A worker publishes an item into a bucket (task 2) and the manager
// scans the segments' write-completed counters to know how far a bucket is
// readable (task 3). adds.cu (the solver) and queue_harness.cu (the graded
// harness that drives these very functions alone, with no graph) include
// this file, so both run the same code. Each .cu file that includes it gets
// its own copy (an anonymous namespace) and its own device-TODO word.
#pragma once

#include <cooperative_groups.h>

#include <cstdint>

#include "lab09.hpp"
#include "sssp/cuda/atomics.cuh"
#include "sssp/cuda/todo.cuh"

namespace lab09 {
namespace {

SSSP_DEVICE_TODO_STATE_IN(9, {4, "adds.cu"}, {6, "chunk_tasks.cuh"}, {7, "chunk_tasks.cuh"}, {8, "hand_out.cuh"},
                          {9, "delta_signal.cuh"});

using sssp::edge_t;
using sssp::weight_t;
namespace cg = cooperative_groups;

constexpr unsigned kPage = 4096;   // slots per page
constexpr unsigned kSegment = 32;  // slots per write-completed counter
constexpr unsigned kSegmentsPerPage = kPage / kSegment;

// Why the manager stopped early (Control::error).
enum RunError : unsigned {
  kNoError = 0,
  kPoolExhausted = 1,
  kStalled = 2,
  kUnfinishedTask = 3,
  kCounterLimit = 4,
  kWordNotIdle = 5,  // a worker found its finished chunk still in its assignment word (task 6)
};

struct Bucket {
  unsigned resv;  // slots reserved by writers (atomicAdd)
  unsigned read;  // slots handed out; the manager keeps it in a register and writes it here at the end
  unsigned cwc;   // slots whose expansion is complete
};

// The manager's state the workers read (head, head_lo, delta) and what the
// host reads after the run.
struct Control {
  dist_t head_lo;
  dist_t delta;
  unsigned head;
  unsigned error;  // RunError
  unsigned long long passes;
  unsigned long long switches;
  unsigned long long stalled_ms;  // with kStalled: how long nothing moved
  unsigned idle_workers;          // at the end
};

// Work counters, summed by the workers as chunks complete (the manager reads
// expansions and repeats live, for the controller).
struct Work {
  unsigned long long expansions;
  unsigned long long repeats;
  unsigned long long local;
  unsigned long long arcs;
};

// Everything the kernel needs, passed by value.
struct Run {
  // graph
  const edge_t* offsets;
  const vertex_t* targets;
  const weight_t* weights;
  dist_t* dist;
  dist_t* expanded_at;  // per vertex: the distance of its last claim (kInfinity: never claimed)
  // queue
  Bucket* buckets;       // kBuckets
  unsigned* mapped;      // kBuckets: slots below it have a page (manager writes, release)
  unsigned* ring;        // kBuckets x pages: page of each bucket's slot range, by (slot / kPage) % pages
  vertex_t* pool;        // pages x kPage slots
  unsigned* wcc;         // pages x kSegmentsPerPage write-completed counters
  unsigned* page_done;   // per page: slots of it expanded
  unsigned* free_pages;  // stack of free page numbers (the manager's only)
  unsigned pages;
  unsigned free_top;  // free pages at the start
  // manager and workers
  unsigned long long* assignment;  // per worker: kIdle, kExit, or encode_assignment(a chunk)
  unsigned* idle_map;              // bit w: worker w is idle and its word is kIdle
  unsigned workers;
  Control* control;
  Work* work;
  TraceEntry* trace;
  unsigned* trace_count;
  // options
  unsigned buckets_used;
  unsigned max_open;
  unsigned local_items;
  bool dynamic_delta;
  DeltaBounds bounds;
  double average_degree;
  unsigned long long watchdog_ns;  // 0: no watchdog
};

using sssp::cuda::load_acquire;
using sssp::cuda::load_relaxed;
using sssp::cuda::store_relaxed;
using sssp::cuda::store_release;

__device__ bool stopped(const Run& r) { return load_relaxed(&r.control->error) != kNoError; }

// The page that holds slot i of bucket b. __ldcg: the manager rewrites ring
// entries as pages come and go, so never from a stale L1 line.
__device__ unsigned page_of(const Run& r, unsigned b, unsigned i) {
  return __ldcg(&r.ring[std::uint64_t{b} * r.pages + (i / kPage) % r.pages]);
}

__device__ unsigned* wcc_of(const Run& r, unsigned page, unsigned slot) {
  return &r.wcc[std::uint64_t{page} * kSegmentsPerPage + (slot % kPage) / kSegment];
}

// Task 2: publishes vertex w into bucket b, so that the manager will hand it
// to a worker. Called by any subset of a warp's threads, for any buckets.
//
// The contract. On return, unless the run has stopped (stopped(r)), w is in
// a slot of bucket b that no other publisher got, and that slot is counted
// once in its segment's wcc, after the store of w is visible to every SM.
// Never two items in one slot; never a slot reserved and not counted (the
// scan stops before it for good: the watchdog fires); never a count that
// another SM can see before the item (a worker would read an old id, and w
// would never be expanded); never a store into a page before the manager's
// mapping of it is visible (it writes the ring entries, fences, then releases
// mapped[b]). Wait for nothing but mapped[b]: publishers never wait for each
// other, and the manager maps pages every pass or stops the run.
__device__ void publish(const Run& r, vertex_t w, unsigned b) {
  // BEGIN SOLUTION task 2: publish an item: a slot of its own, counted only once written
  // The threads of the warp publishing to the same bucket reserve together:
  // one atomic per bucket per warp instead of one per item.
  const cg::coalesced_group active = cg::coalesced_threads();
  const cg::coalesced_group same = cg::labeled_partition(active, b);
  unsigned base = 0;
  if (same.thread_rank() == 0) base = atomicAdd(&r.buckets[b].resv, same.size());
  const unsigned slot = same.shfl(base, 0) + same.thread_rank();
  // The manager maps pages ahead of the reservations; wait if it is behind
  // (it maps every pass, or stops the run with an error).
  while (slot >= load_acquire(&r.mapped[b])) {
    if (stopped(r)) return;
    __nanosleep(100);
  }
  const unsigned page = page_of(r, b, slot);
  __stcg(&r.pool[std::uint64_t{page} * kPage + slot % kPage], w);
  __threadfence();  // the item before its count: whoever sees the count sees the item
  atomicAdd(wcc_of(r, page, slot), 1u);
  // SKELETON
  // // TODO(task 2): meet the contract above, and be ready to argue it: what
  // // makes a slot yours alone; which load of mapped[b] pairs with the
  // // manager's release, so that page_of(r, b, slot) reads the slot's page;
  // // what orders w before its count for the scan (task 3) and, through the
  // // manager, for the worker (the handout's "Why the fences are where they
  // // are"). Given: page_of, wcc_of, stopped, and sssp/cuda/atomics.cuh's
  // // loads and stores by memory order; a page moves between SMs, so write
  // // past L1 (__stcg, as page_of reads).
  // SSSP_DEVICE_TODO(9, 2, "publish an item: a slot of its own, counted only once written");
  // END SOLUTION
}

// Task 3: how far bucket b can be handed out, from slot `read`: the end of
// the slots known to be written. Called by the manager's whole warp (every
// lane gets the same answer). `mapped_end` and `resv` are the bucket's mapped
// end and reservations, loaded before the call. Looks at most 32 segments ahead.
//
// The contract. Returns end, the same in every lane, read <= end <= mapped_end,
// such that every slot of [read, end) is reserved and its item written, and
// the counts that told so are ordered before the manager's next writes (the
// assignment words): a worker that acquires its word reads the items, never an
// old id. A wcc says how many of its segment's slots are written, not which:
// a partial segment may be handed out only if no slot reserved in it can be
// missing from its count. Never read a wcc at or past mapped_end (its ring
// entry is not yet this bucket's page), and never wait: a slot not yet
// written waits for a later pass, since the manager must never block.
__device__ unsigned readable_end(const Run& r, unsigned b, unsigned read, unsigned mapped_end, unsigned resv) {
  // BEGIN SOLUTION task 3: the manager's scan of completed segments
  const unsigned lane = threadIdx.x % 32;
  const unsigned first = read / kSegment;
  const unsigned seg_start = (first + lane) * kSegment;
  unsigned wcc = 0;
  const bool present = seg_start < mapped_end && seg_start < resv;
  if (present) wcc = load_relaxed(wcc_of(r, page_of(r, b, seg_start), seg_start));
  // Lane l looks at segment first + l: the readable run is the full segments before the first that is not.
  const unsigned full = __ballot_sync(0xFFFFFFFF, present && wcc == kSegment);
  const unsigned full_segments = full == 0xFFFFFFFF ? 32 : __ffs(~full) - 1;
  unsigned end = max(read, (first + full_segments) * kSegment);
  if (full_segments < 32) {
    // The partial segment: its wcc was read first, so if the reservations,
    // read after it, end exactly where the written slots end, every slot
    // reserved in it is written. (Read the other way round, a writer could
    // reserve between the two loads.)
    const unsigned partial_wcc = __shfl_sync(0xFFFFFFFF, wcc, full_segments);
    const unsigned partial_start = (first + full_segments) * kSegment;
    if (partial_wcc != 0 && partial_start < mapped_end) {
      __threadfence();
      const unsigned fresh = load_relaxed(&r.buckets[b].resv);
      if (partial_start + partial_wcc == fresh) end = max(end, fresh);
    }
  }
  __threadfence();  // the counts before the items: a worker given [read, end) sees them written
  return end;
  // SKELETON
  // // TODO(task 3): meet the contract above with one wcc load per lane and
  // // warp votes (__ballot_sync, __shfl_sync, __ffs). Be ready to argue the
  // // partial segment: which two counters you compare, why the order of their
  // // loads, and the fence between them, rule out a slot reserved but not yet
  // // written (the paper's section 5.2); and which fence orders your loads
  // // before the words that hand the slots out.
  // SSSP_DEVICE_TODO_RETURN(9, 3, "the manager's scan of completed segments", read);
  // END SOLUTION
}

}  // namespace
}  // namespace lab09
