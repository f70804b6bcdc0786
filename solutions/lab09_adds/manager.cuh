// Lab 09: the manager warp (given code), block 0's first warp of adds.cu's
// kernel: each pass it loads the buckets' counters, takes back idle workers,
// frees expanded pages and maps pages ahead, hands out chunks of the open
// buckets to idle workers (task 8, in hand_out.cuh, with task 3's scan
// inside), retires the head (task 7),
// decides a dynamic delta (adapt_delta: task 9 measures, task 5 decides), watches for a stall
// and ends the run. adds.cu includes it (one translation unit: see there).
#pragma once

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include <cstdint>

#include "chunk_tasks.cuh"
#include "delta_signal.cuh"
#include "hand_out.cuh"
#include "lab09.hpp"
#include "policy.cuh"
#include "queue.cuh"
#include "sssp/cuda/atomics.cuh"
#include "sssp/cuda/todo.cuh"

namespace lab09 {
namespace {

namespace cg = cooperative_groups;

constexpr unsigned kTrace = 4096;     // delta decisions kept
constexpr unsigned kAheadPages = 2;   // pages mapped to a bucket past its reservations
constexpr dist_t kDynamicRange = 16;  // a dynamic delta stays within [delta / 16, delta x 16]

// A bucket's counters are 32 bits for the whole run (buckets are reused as
// the head rotates): past this many reservations in one bucket the run stops
// with an error instead of wrapping around.
constexpr unsigned kMaxReservations = 0xFFFFFFFFu - (1u << 20);

// The global timer in nanoseconds (the watchdog's clock).
__device__ unsigned long long now_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// The manager's warp: lane L keeps bucket L's ends in registers and owns
// idle bits 32L..32L+31 (kMaxWorkers workers in all). The functions below are
// the steps of its pass, in order; each is called by the whole warp.

// The watchdog's last sign of progress and when it changed.
struct Watchdog {
  unsigned long long mark;
  unsigned long long at;
};

// The sum of x over the warp, in every lane.
__device__ __forceinline__ unsigned warp_sum(const cg::thread_block_tile<32>& warp, unsigned x) {
  return cg::reduce(warp, x, cg::plus<unsigned>());
}

// A device TODO ran: a task's placeholder did nothing, so the run can never
// be right. Stop it, so that the host reports which task.
__device__ __forceinline__ void stop_if_a_task_is_unfinished(const Run& r, unsigned lane) {
  if (load_relaxed(&sssp_device_todo_task) != 0 && lane == 0) {
    store_relaxed(&r.control->error, unsigned{kUnfinishedTask});
  }
}

// Loads completions, then (after the fence) reservations: a worker counts a
// chunk complete only after its pushes are reserved, so every push of a
// chunk seen complete is in `resv`, which retiring the head relies on. Stops
// the run before a bucket's 32-bit counters could wrap.
__device__ __forceinline__ PassCounts load_counts(const Run& r, unsigned lane) {
  PassCounts n;
  n.idle_bits = load_relaxed(&r.idle_map[lane]);
  n.cwc = load_relaxed(&r.buckets[lane].cwc);
  __threadfence();
  n.resv = load_relaxed(&r.buckets[lane].resv);
  if (n.resv > kMaxReservations) store_relaxed(&r.control->error, unsigned{kCounterLimit});
  return n;
}

// Workers whose idle bit is set have completed their chunks: their items
// leave `inflight`, lane L's share of the items the workers hold.
__device__ __forceinline__ void take_back_idle_workers(ManagerStorage& storage, unsigned lane, unsigned idle_bits,
                                                       unsigned& inflight) {
  for (unsigned bits = idle_bits; bits != 0; bits &= bits - 1) {
    const unsigned w = lane * 32 + __ffs(bits) - 1;
    inflight -= storage.held[w];
    storage.held[w] = 0;
  }
}

// Returns bucket L's pages below `read` to the pool, oldest first, once
// every slot of a page is expanded (page_done): no worker reads a page after
// it is reused. Its counters are zeroed for its next bucket.
__device__ __forceinline__ void free_expanded_pages(const Run& r, ManagerStorage& storage, unsigned lane,
                                                    LaneBucket& own) {
  while (own.freed + kPage <= own.read) {
    const unsigned page = page_of(r, lane, own.freed);
    if (load_relaxed(&r.page_done[page]) != kPage) break;
    for (unsigned s = 0; s < kSegmentsPerPage; ++s) r.wcc[std::uint64_t{page} * kSegmentsPerPage + s] = 0;
    r.page_done[page] = 0;
    r.free_pages[atomicAdd(&storage.free_top, 1u)] = page;
    own.freed += kPage;
  }
}

// Keeps bucket L mapped kAheadPages past its reservations, so that a
// publisher seldom waits for its slot's page; the ring entries are fenced
// before the new end is released to publish(). An empty pool stops the run:
// going on would drop work.
__device__ __forceinline__ void map_pages_ahead(const Run& r, ManagerStorage& storage, unsigned lane, LaneBucket& own,
                                                unsigned resv) {
  bool grew = false;
  while (own.mapped < resv + kAheadPages * kPage) {
    const unsigned top = atomicSub(&storage.free_top, 1u);
    if (top == 0 || top > r.pages) {  // empty (the subtraction wrapped): give up, loudly
      atomicAdd(&storage.free_top, 1u);
      store_relaxed(&r.control->error, unsigned{kPoolExhausted});
      break;
    }
    r.ring[std::uint64_t{lane} * r.pages + (own.mapped / kPage) % r.pages] = r.free_pages[top - 1];
    own.mapped += kPage;
    grew = true;
  }
  if (grew) {
    __threadfence();  // the ring entries before the new end
    store_release(&r.mapped[lane], own.mapped);
  }
}

// The watchdog: stops the run once nothing was reserved, completed, handed
// out or came back idle for r.watchdog_ns (0: never).
__device__ __forceinline__ void watch_progress(const Run& r, const cg::thread_block_tile<32>& warp, unsigned lane,
                                               const PassCounts& n, unsigned read, Watchdog& dog) {
  if (r.watchdog_ns == 0) return;
  const unsigned long long mark = warp_sum(warp, n.resv + n.cwc + read + __popc(n.idle_bits));
  const unsigned long long t = now_ns();
  if (mark != dog.mark) {
    dog.mark = mark;
    dog.at = t;
  } else if (t - dog.at > r.watchdog_ns && lane == 0) {
    r.control->stalled_ms = (t - dog.at) / 1000000;
    store_relaxed(&r.control->error, unsigned{kStalled});
  }
}

// Task 8's scan is task 3's (hand_out.cuh declares it for the file that
// includes it to define: the checkpoint has a stand-in). Maybe unused: a
// hand-out still the skeleton's stub calls no scan.
[[maybe_unused]] __device__ __forceinline__ unsigned scan_readable_end(const Run& r, unsigned b, unsigned read,
                                                                       unsigned mapped_end, unsigned resv) {
  return readable_end(r, b, read, mapped_end, resv);
}

// The dynamic delta's decision: this pass's signal (task 9's measurement),
// task 5's next_delta of it, and the decision added to the trace by lane 0.
// Returns the new delta in every lane.
__device__ __forceinline__ dist_t adapt_delta(const Run& r, const cg::thread_block_tile<32>& warp, unsigned lane,
                                              const QueuePosition& position, const PassCounts& n, unsigned read,
                                              unsigned held_total, unsigned open_used, unsigned long long pass,
                                              DeltaHistory& seen) {
  const DeltaSignal signal = measure_delta_signal(r, warp, lane, position, n.resv, read, held_total, seen);
  const dist_t delta = next_delta(signal, r.bounds);
  if (lane == 0) {
    const unsigned t = atomicAdd(r.trace_count, 1u);
    if (t < kTrace) r.trace[t] = TraceEntry{pass, signal, delta, held_total, open_used};
  }
  return delta;
}

// The queue's position for the workers' next chunks. Relaxed: a worker with
// a stale view may put an offer in a bucket of the wrong priority, which
// costs order, never answers.
__device__ __forceinline__ void store_position(const Run& r, unsigned lane, const QueuePosition& position) {
  if (lane == 0) {
    store_relaxed(&r.control->head_lo, position.head_lo);
    store_relaxed(&r.control->delta, position.delta);
    store_relaxed(&r.control->head, position.head);
  }
}

// A quiet pass: every worker idle and none given a chunk now, and every
// bucket handed out up to its reservations. Two in a row end the run.
__device__ __forceinline__ bool is_quiet(const Run& r, unsigned idle_total, unsigned used, unsigned resv,
                                         unsigned read) {
  return idle_total == r.workers && used == 0 && __all_sync(0xFFFFFFFF, resv == read);
}

// After the last pass: every worker's word becomes kExit, and the manager's
// state goes to the host.
__device__ __forceinline__ void finish(const Run& r, unsigned lane, unsigned read, const QueuePosition& position,
                                       unsigned long long pass, unsigned idle_total) {
  __threadfence();
  for (unsigned w = lane; w < r.workers; w += 32) store_relaxed(&r.assignment[w], kExit);
  r.buckets[lane].read = read;  // for the host's report
  if (lane == 0) {
    Control& c = *r.control;
    c.passes = pass;
    c.switches = position.switches;
    c.head = position.head;
    c.head_lo = position.head_lo;
    c.delta = position.delta;
    c.idle_workers = idle_total;
  }
}

// The manager: one warp, passing over the queue until two quiet passes, an
// error, or an unfinished task (the handout's "The manager's pass").
__device__ __noinline__ void manager(const Run& r, ManagerStorage& storage) {
  const cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
  const unsigned lane = warp.thread_rank();
  if (lane == 0) storage.free_top = r.free_top;
  for (unsigned w = lane; w < kMaxWorkers; w += 32) storage.held[w] = 0;
  LaneBucket own{0, 0, lane == 0 ? kPage : 0};  // the host mapped bucket 0's first page
  QueuePosition position{0, 0, r.control->delta, 0};
  DeltaHistory seen{0, 0};
  Watchdog dog{0, now_ns()};
  unsigned inflight = 0, idle_total = 0, quiet = 0;
  unsigned long long pass = 0;
  __syncwarp();
  while (true) {
    ++pass;
    stop_if_a_task_is_unfinished(r, lane);
    const PassCounts counts = load_counts(r, lane);
    take_back_idle_workers(storage, lane, counts.idle_bits, inflight);
    free_expanded_pages(r, storage, lane, own);
    __syncwarp();  // every lane's pages pushed before any lane pops one
    map_pages_ahead(r, storage, lane, own, counts.resv);
    watch_progress(r, warp, lane, counts, own.read, dog);
    if (__any_sync(0xFFFFFFFF, stopped(r))) break;
    const Plan plan = hand_out_chunks(r, storage, lane, position.head, counts.idle_bits, counts.resv, own, inflight);
    idle_total = plan.idle;
    const unsigned held_total = warp_sum(warp, inflight);
    retire_empty_head_buckets(r, warp, lane, counts, own.read, held_total, plan.open_used, pass, position, seen);
    store_position(r, lane, position);
    quiet = is_quiet(r, idle_total, plan.used, counts.resv, own.read) ? quiet + 1 : 0;
    if (quiet >= 2) break;
  }
  finish(r, lane, own.read, position, pass, idle_total);
}

}  // namespace
}  // namespace lab09
