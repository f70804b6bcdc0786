// Lab 09 skeleton, generated from solutions/lab09_adds/adds.cu by common/tools/make_skeleton.py.
// This file is yours: replace each SSSP_TODO with your code.
// Lab 09: ADDS, asynchronous dynamic delta-stepping (Wang, Fussell and Lin,
// PPoPP 2021, section 5), in our own code.
//
// One cooperative launch runs the whole solve. Block 0's first warp is the
// manager; every other block is a worker of 256 threads. They share, in
// global memory:
//  - a circular queue of 32 buckets. Bucket (head + k) % 32 holds distances
//    [head_lo + k delta, head_lo + (k + 1) delta); the last bucket also takes
//    every offer past the queue's range. A bucket is a FIFO of vertex ids
//    with three monotone counters: `resv` (slots reserved by writers),
//    `read` (slots the manager has handed out) and `cwc` (slots whose
//    expansion is complete);
//  - a pool of pages (4096 slots each). The manager maps pages to a bucket
//    ahead of its writers and returns them to the pool once every slot in
//    them is expanded: buckets grow and shrink with no allocation in the kernel;
//  - a write-completed counter (wcc) per segment of 32 slots.
//
// A worker that lowers dist[w] publishes w (task 2, in queue.cuh) in a slot of its own,
// counted in its segment's wcc only once w is written there (the paper's
// section 5.2). The manager hands out only slots it knows are written
// (task 3, in queue.cuh). It hands chunks of the open buckets (the head first) to
// idle workers through one assignment word per worker. A worker expands its
// chunk (task 4) and keeps improvements that fall in the same bucket in a
// list in shared memory, which its warps expand as soon as they are pushed,
// with no barrier and no trip through the queue; then it reports the chunk
// complete (task 6, in chunk_tasks.cuh): fences, adds the chunk to the
// bucket's cwc and goes idle. The head bucket retires when read == resv ==
// cwc (task 7, in chunk_tasks.cuh); every few retirements the manager may
// move delta (task 5).
//
// Why the answer is right: a distance only drops, by atomicMin, to a real
// path length, and whoever lowers dist[w] makes sure w is expanded later at
// that distance or below: it publishes w into a bucket, or keeps it in its
// block's list, which is expanded to the last item before the chunk completes. So
// an expansion may skip a copy already expanded at its distance, and a warp
// or block may stop expanding a hub once its distance is beaten: the thread
// that beat it owes a better expansion. A published slot is handed out once
// its wcc says it is written; a chunk's cwc is counted only after every push
// it caused is reserved. The run ends when, twice in a row, every worker is
// idle and every bucket has read == resv: nothing is waiting and nothing can
// be published any more, so every arc satisfies dist[w] <= dist[v] + w(v, w),
// the Bellman-Ford fixpoint.
// Why no wait hangs is argued, wait by wait, in the handout.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda/atomic>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "lab09.hpp"
#include "lab09_testing.hpp"
#include "policy.cuh"
#include "chunk_tasks.cuh"
#include "queue.cuh"
#include "sssp/cuda/atomics.cuh"
#include "sssp/cuda/check.cuh"
#include "sssp/cuda/device.hpp"
#include "sssp/cuda/device_graph.cuh"
#include "sssp/cuda/launch.cuh"
#include "sssp/cuda/stream.cuh"
#include "sssp/cuda/timed_run.cuh"
#include "sssp/cuda/todo.cuh"
#include "sssp/errors.hpp"

namespace lab09 {
namespace {

using sssp::Counters;
using sssp::cuda::DeviceBuffer;
using sssp::cuda::load_dist;
namespace cg = cooperative_groups;

constexpr unsigned kMaxWorkers = 1024;   // the manager's idle bitmap: 32 lanes x 32 bits
constexpr unsigned kTrace = 4096;        // delta decisions kept
constexpr unsigned kWarpDegree = 32;     // items of higher out-degree are expanded by a whole warp
constexpr unsigned kBlockDegree = 1024;  // and of higher still, by the whole block
constexpr unsigned kAheadPages = 2;      // pages mapped to a bucket past its reservations
constexpr dist_t kDynamicRange = 16;     // a dynamic delta stays within [delta / 16, delta x 16]

// A bucket's counters are 32 bits for the whole run (buckets are reused as
// the head rotates): past this many reservations in one bucket the run stops
// with an error instead of wrapping around.
constexpr unsigned kMaxReservations = 0xFFFFFFFFu - (1u << 20);

// Keeps w, improved to `offer`, in the block's list: in the part of its
// distance, or if that is full the nearest one above with room. False if
// none has. The bits of parts found full let a push into a full list give up
// after two atomics (a 60,000-leaf star pushes 60,000 at once).
__device__ bool keep_local(const LocalList& local, vertex_t w, dist_t offer) {
  static_assert(kSubLists >= 1 && kSubLists <= 32 && kLocal % kSubLists == 0,
                "one bit of `full` and one lane of the pop per part, and parts of equal size");
  constexpr unsigned kAllParts = kSubLists == 32 ? 0xFFFFFFFFu : (1u << kSubLists) - 1;
  const dist_t k = offer <= local.lo ? 0 : (offer - local.lo) / local.width;
  unsigned part = k > kSubLists - 1 ? kSubLists - 1 : static_cast<unsigned>(k);
  unsigned at = atomicAdd(&local.pushed[part], 1u);
  unsigned full = 0;
  while (at >= local.part) {
    full |= atomicOr(local.full, 1u << part) | (1u << part);
    const unsigned above = ~full & kAllParts & ~((2u << part) - 1u);  // parts past `part` (2u << 31 wraps to 0)
    if (above == 0) return false;
    part = __ffs(above) - 1;
    at = atomicAdd(&local.pushed[part], 1u);
  }
  // Slots, and the list's counters, are read while other warps write them:
  // atomics (on shared memory, cheap) say so to the compiler and to racecheck.
  atomicExch(&local.items[part * local.part + at], w);
  return true;
}

// What a worker's chunk works with.
struct Chunk {
  dist_t head_lo;
  dist_t delta;
  unsigned head;
  unsigned bucket;        // the chunk's bucket
  unsigned local_bucket;  // improvements into it stay in the block (kBuckets: none)
};

// The first distance of bucket b as the chunk saw the queue: head_lo + k x
// delta, k buckets after the head, or the largest distance if that overflows.
__device__ dist_t bucket_start(const Chunk& c, unsigned b) {
  const unsigned k = (b + kBuckets - c.head) % kBuckets;
  constexpr dist_t kLargest = ~dist_t{0};
  return k != 0 && c.delta > (kLargest - c.head_lo) / k ? kLargest : c.head_lo + k * c.delta;
}

// Whether item v is to be expanded, and at which distance (*dv), with its
// arcs [*begin, *end): not if it is a stale copy, already expanded at its
// current distance. *again: v was expanded before (at a larger distance).
__device__ bool claim(const Run& r, vertex_t v, dist_t* dv, edge_t* begin, edge_t* end, bool* again) {
  // The arcs' range is loaded with the two distances, not after the
  // check: one round trip less on the path of every expansion.
  *begin = r.offsets[v];
  *end = r.offsets[v + 1];
  *dv = load_dist(r.dist, v);
  dist_t before = load_dist(r.expanded_at, v);
  if (*dv >= before) return false;
  if (*end - *begin > kWarpDegree) {
    // A warp or the block will offer its many arcs: an atomic makes the claim
    // exclusive, so that two copies racing at one distance do not both.
    before = sssp::cuda::atomic_min_dist(&r.expanded_at[v], *dv);
    if (*dv >= before) return false;
  } else {
    store_relaxed(&r.expanded_at[v], *dv);  // two copies racing here both expand: a few arcs, harmless
  }
  *again = before != sssp::kInfinity;
  return true;
}

// The two given steps relax_and_route (task 4) routes with: the bucket of an
// offer (bucket_of, task 1) and publish (task 2). The solver's are these;
// task 4's checkpoint (checkpoint_relax_and_route, at the end of this file)
// passes stand-ins that record each call, so that task 4 is graded alone.
struct QueueRoute {
  __device__ unsigned bucket_of(dist_t offer, dist_t head_lo, dist_t delta, unsigned head, unsigned buckets) const {
    return lab09::bucket_of(offer, head_lo, delta, head, buckets);
  }
  __device__ void publish(const Run& r, vertex_t w, unsigned b) const { lab09::publish(r, w, b); }
};

// Task 4: offers dv + weight along the arc to w (`offer`). Called by any
// subset of a warp's threads, for a vertex it expands in chunk c. `route`
// gives bucket_of and publish: call them as route.bucket_of(...) and
// route.publish(...).
//
// The contract. If the offer is below dist[w], dist[w] drops to it, by an
// atomic (no smaller concurrent offer is lost), and this thread then owes an
// expansion of w at `offer` or below: before it returns, w is kept in the
// block's local list (keep_local, for items of the chunk's c.local_bucket
// only: the list is ordered within that bucket and drained before the chunk
// completes) or published (task 2) in the bucket of `offer` as c sees the
// queue. An offer that does not win, an equal one included (zero-weight
// cycles), keeps and publishes nothing. The lowering comes before the item is
// kept or published: whoever expands w must read the new dist[w] (claim()
// skips a copy whose dist[w] is not below expanded_at[w]). Nothing is left
// for later: the worker counts its chunk complete right after its last call.
template <class Route = QueueRoute>
__device__ void relax_and_route(const Run& r, const Chunk& c, const LocalList& local, vertex_t w, dist_t offer,
                                const Route& route = {}) {
  // TODO(task 4): meet the contract above, and be ready to argue it: how
  // you know this offer won (sssp::cuda::atomic_min_dist returns the old
  // distance), why no winner's w is left unexpanded, what keep_local's
  // false means, and why routing by a stale view of the queue costs order,
  // never answers. Given: route.bucket_of (task 1), keep_local,
  // route.publish (task 2).
  SSSP_DEVICE_TODO(9, 4, "a worker relaxes an arc and routes the improved vertex");
}

// Offers v's distance dv along its arcs [begin, end), arc begin + rank
// first, then every stride-th: a warp's or the block's share of a hub. Stops
// once dist[v] drops below dv: whoever lowered it has queued v again, and that
// expansion's offers beat these (a hub is often improved while it is expanded).
__device__ void expand_arcs(const Run& r, const Chunk& c, const LocalList& local, vertex_t v, dist_t dv, edge_t begin,
                            edge_t end, unsigned rank, unsigned stride) {
  for (std::uint64_t e = std::uint64_t{begin} + rank; e < end; e += stride) {  // 64-bit: see launch.cuh
    if (load_dist(r.dist, v) < dv) return;
    relax_and_route(r, c, local, r.targets[e], dv + r.weights[e]);
  }
}

// A worker block's hubs set aside by expand(), in shared memory.
struct HubList {
  Hub* items;       // kHubs slots
  unsigned* count;  // may pass kHubs: a hub that did not fit was expanded by its warp
};

// One lane's item once claimed: expand it unless `claimed` is false.
struct Claimed {
  bool claimed = false;
  vertex_t v = 0;
  dist_t dv = 0;
  edge_t begin = 0, end = 0;
};

// claim() for one lane's item, counting the expansion in `work`.
__device__ Claimed claim_counted(const Run& r, vertex_t v, bool from_local, ChunkWork& work) {
  Claimed it;
  bool again = false;
  it.v = v;
  it.claimed = claim(r, v, &it.dv, &it.begin, &it.end, &again);
  if (it.claimed) {
    ++work.expansions;
    work.repeats += again ? 1 : 0;
    work.local += from_local ? 1 : 0;
    work.arcs += static_cast<unsigned>(it.end - it.begin);
  }
  return it;
}

// Expands every lane's claimed item of at most kBlockDegree arcs, in two
// tiers by out-degree, so that one item of many arcs does not serialise on
// one thread: a lane expands its own item of at most kWarpDegree arcs, and
// the whole warp, one after another, those of more. Called by the whole warp.
__device__ void expand_lane_items(const Run& r, const Chunk& c, const LocalList& local, const Claimed& it) {
  const cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
  if (it.claimed && it.end - it.begin <= kWarpDegree) {
    for (edge_t e = it.begin; e < it.end; ++e) relax_and_route(r, c, local, r.targets[e], it.dv + r.weights[e]);
  }
  unsigned warp_items = warp.ballot(it.claimed && it.end - it.begin > kWarpDegree);
  while (warp_items != 0) {
    const unsigned src = __ffs(warp_items) - 1;
    warp_items &= warp_items - 1;
    expand_arcs(r, c, local, warp.shfl(it.v, src), warp.shfl(it.dv, src), warp.shfl(it.begin, src),
                warp.shfl(it.end, src), warp.thread_rank(), 32);
  }
}

// A lane's claimed item of more than kBlockDegree arcs goes to the block's
// hub list, for the whole block (expand_hubs, after the caller's next
// barrier), if the list has room; else the lane's warp expands it.
__device__ void set_aside_if_hub(const HubList& hubs, Claimed& it) {
  if (!it.claimed || it.end - it.begin <= kBlockDegree) return;
  const unsigned slot = atomicAdd(hubs.count, 1u);
  if (slot < kHubs) {
    hubs.items[slot] = Hub{it.v, it.dv, it.begin, it.end};
    it.claimed = false;  // set aside: the block expands it
  }
}

// Expands a chunk's `count` items, item i given by item(i), in three tiers
// by out-degree: hubs are set aside for the whole block, the rest go to
// expand_lane_items(). No barrier, so that the block's warps need not wait
// for each other. Called by the whole block.
template <class Item>
__device__ void expand(const Run& r, const Chunk& c, const LocalList& local, const HubList& hubs, unsigned count,
                       Item item, ChunkWork& work) {
  for (unsigned first = 0; first < count; first += blockDim.x) {
    const unsigned i = first + threadIdx.x;
    Claimed it;
    if (i < count) it = claim_counted(r, item(i), false, work);
    set_aside_if_hub(hubs, it);
    expand_lane_items(r, c, local, it);
  }
}

// Expands the hubs the chunk's expand() set aside, each by the whole block.
// Called by the whole block, after a barrier that follows that expand(); when
// there were any, returns after a barrier, so that every warp starts on the
// block's list with the hubs' pushes in it. The list is emptied when the next
// chunk starts.
__device__ void expand_hubs(const Run& r, const Chunk& c, const LocalList& local, const HubList& hubs) {
  const unsigned n = min(*hubs.count, kHubs);
  if (n == 0) return;
  for (unsigned h = 0; h < n; ++h) {
    const Hub hub = hubs.items[h];
    expand_arcs(r, c, local, hub.v, hub.dv, hub.begin, hub.end, threadIdx.x, blockDim.x);
  }
  __syncthreads();
}

// Each warp of the block runs this: pops up to 32 items of the block's list
// at a time, from its nearest part that holds any, as soon as they are
// pushed, and expands them (pushing more), until every item kept in the list
// is expanded or published as a hub. No block barrier: a chain of
// improvements moves on as soon as one arc's atomic wins, not when the
// slowest thread of a round is done. A warp that finds the list empty stays
// while other warps still expand (it would be correct to leave, as the last
// warp drains its own pushes, but then a chain that fans out would be left to
// one warp). `expanded`: the block's count of slots whose item is expanded,
// with every push it made.
__device__ void expand_local(const Run& r, const Chunk& c, const LocalList& local, unsigned* expanded,
                             ChunkWork& work) {
  const cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
  const unsigned lane = warp.thread_rank();
  const auto read = [](unsigned* word) { return atomicAdd(word, 0u); };
  while (true) {
    unsigned first = 0, taken = 0;
    while (true) {
      // Lane p looks at part p; the warp takes from the nearest with items.
      unsigned from = 0, kept = 0;
      if (lane < kSubLists) {
        from = read(&local.popped[lane]);
        kept = min(read(&local.pushed[lane]), local.part);
      }
      const unsigned waiting = warp.ballot(lane < kSubLists && from < kept);
      if (waiting == 0) break;
      const unsigned part = __ffs(waiting) - 1;
      from = warp.shfl(from, part);
      kept = warp.shfl(kept, part);
      const unsigned count = min(kept - from, 32u);
      unsigned won = 0;
      if (lane == 0) won = atomicCAS(&local.popped[part], from, from + count) == from;
      if (warp.shfl(won, 0)) {
        first = part * local.part + from;
        taken = count;
        break;
      }
    }
    if (taken == 0) {
      // Finished when every kept item is expanded. `expanded` is read before
      // `pushed`: an item counted expanded had its pushes counted already.
      const unsigned done = read(expanded);
      __threadfence_block();
      const unsigned kept =
          cg::reduce(warp, lane < kSubLists ? min(read(&local.pushed[lane]), local.part) : 0u, cg::plus<unsigned>());
      if (done == kept) return;
      __nanosleep(32);
      continue;
    }
    Claimed it;
    if (lane < taken) {
      // The pusher reserved this slot and writes it next, waiting on nothing.
      vertex_t v;
      while ((v = read(&local.items[first + lane])) == kUnwritten) {
      }
      if (r.offsets[v + 1] - r.offsets[v] > kBlockDegree) {
        // A hub: published unclaimed, so that an idle block expands it now,
        // instead of this block once its list is drained (which cost R-MAT
        // work and time: the handout's numbers).
        publish(r, v, bucket_of(load_dist(r.dist, v), c.head_lo, c.delta, c.head, r.buckets_used));
      } else {
        it = claim_counted(r, v, true, work);
      }
    }
    expand_lane_items(r, c, local, it);
    warp.sync();
    if (lane == 0) {
      __threadfence_block();  // the warp's pushes, reserved in `pushed`, before its items count as expanded
      atomicAdd(expanded, taken);
    }
  }
}

// A worker block: waits for a chunk, expands it and the same-bucket
// improvements it leads to (up to local_items of them in its own list),
// publishes the rest, reports the chunk complete, and goes idle again; until
// told to leave.
__device__ __noinline__ void worker(const Run& r, unsigned id, WorkerStorage& storage) {
  const HubList hubs{storage.hubs, &storage.hub_count};
  for (unsigned i = threadIdx.x; i < kLocal; i += blockDim.x) storage.local[i] = kUnwritten;
  if (threadIdx.x == 0) storage.word = kIdle;  // no chunk finished yet (the poll compares with it)
  while (true) {
    if (threadIdx.x == 0) {
      // One thread polls, backing off, so that idle blocks do not flood the
      // memory system the busy ones need.
      unsigned long long word;
      unsigned ns = 32;
      while ((word = load_relaxed(&r.assignment[id])) == kIdle) {
        // After an error the manager may write kExit before this block, back
        // from its last chunk, writes its word back to kIdle: leave on the error too.
        if (stopped(r)) {
          word = kExit;
          break;
        }
        __nanosleep(ns);
        ns = min(2 * ns, 256u);
      }
      if (word == storage.word) {
        // The chunk just finished is still in the word: task 6 did not write
        // kIdle back, and expanding it again would count it complete twice.
        // No chunk word repeats in a run (its slots are handed out once), so
        // this is never a new chunk. Stop the run, unless it already stopped.
        atomicCAS(&r.control->error, unsigned{kNoError}, unsigned{kWordNotIdle});
        word = kExit;
      }
      cuda::atomic_thread_fence(cuda::memory_order_acquire, cuda::thread_scope_device);
      storage.word = word;
      for (unsigned part = 0; part < kSubLists; ++part) storage.pushed[part] = storage.popped[part] = 0;
      storage.full = 0;
      storage.expanded = 0;
      storage.hub_count = 0;
    }
    __syncthreads();
    const unsigned long long word = storage.word;
    if (word == kExit) break;
    const Assignment chunk = decode_assignment(word);
    const unsigned b = chunk.bucket;
    const unsigned page = page_of(r, b, chunk.start);  // a chunk never crosses a page
    const Control& control = *r.control;
    const Chunk c{load_relaxed(&control.head_lo), load_relaxed(&control.delta), load_relaxed(&control.head), b,
                  r.local_items > 0 ? b : kBuckets};
    const LocalList local{storage.local,
                          storage.pushed,
                          storage.popped,
                          &storage.full,
                          (r.local_items + kSubLists - 1) / kSubLists,
                          bucket_start(c, b),
                          max(dist_t{1}, c.delta / kSubLists)};
    const vertex_t* items = r.pool + std::uint64_t{page} * kPage + chunk.start % kPage;
    ChunkWork work{};
    expand(
        r, c, local, hubs, chunk.count, [&](unsigned i) { return __ldcg(&items[i]); }, work);
    __syncthreads();                 // the hubs set aside seen by every thread
    expand_hubs(r, c, local, hubs);  // their improvements join the list
    // Same-bucket improvements continue here, without a trip through the manager.
    expand_local(r, c, local, &storage.expanded, work);
    __syncthreads();  // every warp back: the list is drained, nothing pushes any more
    report_chunk_complete(r, id, storage, local, work, chunk, page);
  }
}

// The global timer in nanoseconds (the watchdog's clock).
__device__ unsigned long long now_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// The manager's warp: lane L keeps bucket L's ends in registers and owns
// idle bits 32L..32L+31 (kMaxWorkers workers in all). The functions below are
// the steps of its pass, in order; each is called by the whole warp.

// The manager's shared memory (block 0).
struct ManagerStorage {
  unsigned long long plan[kMaxWorkers];  // this pass: the assignment word for idle[j]
  unsigned idle[kMaxWorkers];            // this pass: the idle workers, lane L's after those of the lanes below
  unsigned held[kMaxWorkers];            // per worker: the items of its chunk in flight (0: none)
  unsigned assigned_bits[32];            // this pass: the workers given a chunk, as idle-map words
  unsigned free_top;                     // free pages: r.free_pages[0, free_top)
};

// Lane L's ends of bucket L, in slots, kept from pass to pass:
// freed <= read <= mapped.
struct LaneBucket {
  unsigned read;    // handed out (written to Bucket::read only at the end, for the host)
  unsigned freed;   // the pages below it are back in the pool
  unsigned mapped;  // the pages below it are mapped (the value of r.mapped[L])
};

// The watchdog's last sign of progress and when it changed.
struct Watchdog {
  unsigned long long mark;
  unsigned long long at;
};

// This pass's plan: storage.plan[j] goes to worker storage.idle[j], j < used.
struct Plan {
  unsigned used;       // idle workers given a chunk
  unsigned open_used;  // buckets from the head that had readable slots (for the trace)
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

// Lists the idle workers in storage.idle (lane L's: 32L + its set bits,
// after the lanes below, by a prefix sum) and clears this pass's assigned
// bits. Returns how many are idle, in every lane.
__device__ __forceinline__ unsigned list_idle_workers(ManagerStorage& storage, unsigned lane, unsigned idle_bits) {
  const unsigned mine = __popc(idle_bits);
  unsigned before = mine;
  for (unsigned d = 1; d < 32; d *= 2) {
    const unsigned x = __shfl_up_sync(0xFFFFFFFF, before, d);
    if (lane >= d) before += x;
  }
  const unsigned total = __shfl_sync(0xFFFFFFFF, before, 31);
  before -= mine;
  for (unsigned bits = idle_bits, k = before; bits != 0; bits &= bits - 1) {
    storage.idle[k++] = lane * 32 + __ffs(bits) - 1;
  }
  storage.assigned_bits[lane] = 0;
  return total;
}

// Plans chunks of bucket b's written slots, from `read` up to
// readable_end() (task 3), for the idle workers storage.idle[used,
// idle_total), advancing `used`: chunks of a power of two up to kBlock
// slots, sized to share the slots among those workers, and aligned, so that
// a chunk never crosses a page. Returns the bucket's new read end.
__device__ __forceinline__ unsigned plan_bucket(const Run& r, ManagerStorage& storage, unsigned lane, unsigned b,
                                                unsigned read, unsigned mapped_end, unsigned resv, unsigned idle_total,
                                                unsigned& used) {
  unsigned at = read;
  while (used < idle_total) {
    const unsigned end = readable_end(r, b, at, mapped_end, resv);
    if (end <= at) break;
    const unsigned left = idle_total - used;
    const unsigned share = (end - at + left - 1) / left;
    unsigned size = 1;
    while (size < share && size < kBlock) size *= 2;
    const unsigned aligned = at & ~(size - 1);
    const unsigned chunks = min(left, (end - aligned + size - 1) / size);
    for (unsigned j = lane; j < chunks; j += 32) {
      const unsigned chunk_start = max(at, aligned + j * size);
      const unsigned chunk_end = min(end, aligned + (j + 1) * size);
      const unsigned w = storage.idle[used + j];
      storage.plan[used + j] = encode_assignment(Assignment{b, chunk_start, chunk_end - chunk_start});
      storage.held[w] = chunk_end - chunk_start;
      atomicOr(&storage.assigned_bits[w / 32], 1u << (w % 32));
    }
    at = min(end, aligned + chunks * size);
    used += chunks;
  }
  return at;
}

// Shares the open buckets (the first r.max_open from the head) among the
// idle workers, the head first, and moves each bucket's read end (lane b's
// own.read) past what it planned.
__device__ __forceinline__ Plan plan_assignments(const Run& r, ManagerStorage& storage, unsigned lane, unsigned head,
                                                 unsigned idle_total, unsigned resv, LaneBucket& own) {
  Plan plan{0, 0};
  for (unsigned k = 0; k < r.max_open && plan.used < idle_total; ++k) {
    const unsigned b = (head + k) % kBuckets;
    const unsigned read = __shfl_sync(0xFFFFFFFF, own.read, b);
    const unsigned b_mapped = __shfl_sync(0xFFFFFFFF, own.mapped, b);
    const unsigned b_resv = __shfl_sync(0xFFFFFFFF, resv, b);
    const unsigned at = plan_bucket(r, storage, lane, b, read, b_mapped, b_resv, idle_total, plan.used);
    if (lane == b) own.read = at;
    if (at != read) plan.open_used = k + 1;
  }
  return plan;
}

// Hands the planned chunks out. The workers' idle bits are cleared before
// their words change, with a fence between: a worker sets its bit again
// only once it has finished the new chunk and written kIdle, so a set bit
// always means "idle, and my word is kIdle". Their items join `inflight`.
__device__ __forceinline__ void hand_out(const Run& r, const ManagerStorage& storage, unsigned lane, unsigned used,
                                         unsigned& inflight) {
  if (storage.assigned_bits[lane] != 0) atomicAnd(&r.idle_map[lane], ~storage.assigned_bits[lane]);
  __threadfence();
  for (unsigned j = lane; j < used; j += 32) {
    const unsigned w = storage.idle[j];
    store_relaxed(&r.assignment[w], storage.plan[j]);
    inflight += storage.held[w];
  }
}

// The dynamic delta's decision (task 5) on this pass's signal: how busy the
// workers are (`held_total` items), how much of the waiting work is in the
// last bucket, and how many expansions since the last decision were
// repeats. Lane 0 adds it to the trace. Returns the new delta in every lane.
__device__ __forceinline__ dist_t adapt_delta(const Run& r, const cg::thread_block_tile<32>& warp, unsigned lane,
                                              const QueuePosition& position, const PassCounts& n, unsigned read,
                                              unsigned held_total, unsigned open_used, unsigned long long pass,
                                              DeltaHistory& seen) {
  const unsigned last = (position.head + r.buckets_used - 1) % kBuckets;
  // The scan may hand out slots reserved after this pass loaded resv.
  const unsigned my_waiting = n.resv > read ? n.resv - read : 0;
  const unsigned waiting = warp_sum(warp, my_waiting);
  const unsigned last_waiting = __shfl_sync(0xFFFFFFFF, my_waiting, last);
  const unsigned long long expansions = load_relaxed(&r.work->expansions);
  const unsigned long long repeats = load_relaxed(&r.work->repeats);
  DeltaSignal signal;
  signal.delta = position.delta;
  signal.utilisation = held_total * r.average_degree / (static_cast<double>(r.workers) * kBlock);
  signal.tail_share = waiting == 0 ? 0.0 : static_cast<double>(last_waiting) / waiting;
  signal.repeat_share = expansions == seen.expansions ? 0.0
                                                      : static_cast<double>(repeats - seen.repeats) /
                                                            static_cast<double>(expansions - seen.expansions);
  seen.expansions = expansions;
  seen.repeats = repeats;
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
    idle_total = list_idle_workers(storage, lane, counts.idle_bits);
    __syncwarp();  // the idle list whole, and no bit assigned, before the plan
    const Plan plan = plan_assignments(r, storage, lane, position.head, idle_total, counts.resv, own);
    __syncwarp();  // the plan whole before it is handed out
    hand_out(r, storage, lane, plan.used, inflight);
    const unsigned held_total = warp_sum(warp, inflight);
    retire_empty_head_buckets(r, warp, lane, counts, own.read, held_total, plan.open_used, pass, position, seen);
    store_position(r, lane, position);
    quiet = is_quiet(r, idle_total, plan.used, counts.resv, own.read) ? quiet + 1 : 0;
    if (quiet >= 2) break;
  }
  finish(r, lane, own.read, position, pass, idle_total);
}

// One block's shared memory: its role's, so that a block reserves the larger
// of the two, not both.
union SharedStorage {
  ManagerStorage manager;
  WorkerStorage worker;
};

// One kernel, two roles. The manager and the worker are separate calls, so
// that neither's register needs are the other's, and the parameters are
// __grid_constant__, so that both read them in place rather than from a copy
// on the stack. The launch bounds cap the registers so that 5 worker blocks
// fit on an SM, the occupancy the prototype was measured at (compile with
// -Xptxas -v to see the registers, spills and shared memory it gets).
__global__ void __launch_bounds__(kBlock, 5) adds_kernel(const __grid_constant__ Run r) {
  __shared__ SharedStorage storage;
  if (blockIdx.x == 0) {
    if (threadIdx.x < 32) manager(r, storage.manager);
    return;
  }
  worker(r, blockIdx.x - 1, storage.worker);
}

// C x W / D, at least 1: lab 08's Near-Far rule (its task 1), written again
// here because one lab never links another lab's student code.
dist_t start_delta(const CsrGraph& g, double c) {
  if (g.num_edges() == 0) return 1;
  long double total = 0;
  for (const weight_t w : g.weights) total += w;
  const long double n = g.num_vertices();
  const long double m = g.num_edges();
  const long double width = static_cast<long double>(c) * total * n / (m * m);
  return width >= 0x1p62L ? dist_t{1} << 62 : std::max<dist_t>(1, static_cast<dist_t>(width));
}

// Live items, not all pushes, must fit: pages return to the pool as buckets drain.
unsigned pool_pages_for(const CsrGraph& g) {
  const std::uint64_t items = std::max<std::uint64_t>({4ull * g.num_vertices(), g.num_edges(), 1ull << 20});
  return static_cast<unsigned>(std::min<std::uint64_t>(items / kPage + (kAheadPages + 1) * kBuckets, 1u << 20));
}

// ------------------------------------- task 4's checkpoint (given code) --
//
// relax_and_route once per thread, on state set by the test, with stand-ins
// for bucket_of and publish (tasks 1 and 2): checkpoint_relax_and_route.

constexpr unsigned kMaxRelaxThreads = 1024;
constexpr unsigned kMaxRelaxVertices = 4096;

// The stand-ins: checkpoint_bucket for bucket_of, and a publish that records
// (w, b), the first kMaxRelaxThreads calls (each thread makes at most one).
struct RecordingRoute {
  vertex_t* published;
  unsigned* published_bucket;
  unsigned* count;
  __device__ unsigned bucket_of(dist_t offer, dist_t, dist_t, unsigned, unsigned) const {
    return checkpoint_bucket(offer);
  }
  __device__ void publish(const Run&, vertex_t w, unsigned b) const {
    const unsigned at = atomicAdd(count, 1u);
    if (at < kMaxRelaxThreads) {
      published[at] = w;
      published_bucket[at] = b;
    }
  }
};

struct RelaxArgs {
  unsigned count;
  unsigned local_bucket;
  unsigned local_items;
};

// One block: an empty list (parts of one distance each from the local
// bucket's first distance under the stand-in, 10 x local_bucket), one offer
// per thread, then the list's used slots and counters back to the host.
__global__ void __launch_bounds__(kMaxRelaxThreads)
    relax_checkpoint_kernel(const __grid_constant__ Run r, const __grid_constant__ RelaxArgs a, const vertex_t* targets,
                            const dist_t* offers, const __grid_constant__ RecordingRoute route, vertex_t* local_out,
                            unsigned* pushed_out) {
  __shared__ vertex_t items[kLocal];
  __shared__ unsigned pushed[kSubLists];
  __shared__ unsigned popped[kSubLists];
  __shared__ unsigned full;
  for (unsigned i = threadIdx.x; i < kLocal; i += blockDim.x) items[i] = kUnwritten;
  if (threadIdx.x < kSubLists) {
    pushed[threadIdx.x] = 0;
    popped[threadIdx.x] = 0;
  }
  if (threadIdx.x == 0) full = 0;
  __syncthreads();
  const unsigned part = (a.local_items + kSubLists - 1) / kSubLists;
  const dist_t lo = a.local_bucket < kBuckets ? dist_t{10} * a.local_bucket : 0;
  const LocalList local{items, pushed, popped, &full, part, lo, 1};
  const unsigned head = a.local_bucket < kBuckets ? a.local_bucket : 0;
  const Chunk c{lo, 10, head, head, a.local_bucket};
  if (threadIdx.x < a.count) relax_and_route(r, c, local, targets[threadIdx.x], offers[threadIdx.x], route);
  __syncthreads();
  for (unsigned i = threadIdx.x; i < kLocal; i += blockDim.x) local_out[i] = items[i];
  if (threadIdx.x < kSubLists) pushed_out[threadIdx.x] = min(pushed[threadIdx.x], part);
}

void validate_relax(const RelaxState& s) {
  using sssp::require_option;
  require_option(!s.dist.empty() && s.dist.size() <= kMaxRelaxVertices, "relax checkpoint: vertices", "1 to 4096",
                 s.dist.size());
  require_option(!s.targets.empty() && s.targets.size() <= kMaxRelaxThreads, "relax checkpoint: threads",
                 "1 to 1024 (one offer each)", s.targets.size());
  require_option(s.offers.size() == s.targets.size(), "relax checkpoint: offers", "one per thread", s.offers.size());
  for (const vertex_t w : s.targets) {
    require_option(w < s.dist.size(), "relax checkpoint: a target", "a vertex of dist", w);
  }
  for (const dist_t o : s.offers) require_option(o < sssp::kInfinity, "relax checkpoint: an offer", "finite", o);
  require_option(s.local_bucket <= kBuckets, "relax checkpoint: local bucket", "0 to 32 (32: none)", s.local_bucket);
  require_option(s.local_items <= kLocal, "relax checkpoint: local items", "0 to 4096", s.local_items);
}

}  // namespace

RelaxCheckpoint checkpoint_relax_and_route(const RelaxState& s) {
  validate_relax(s);
  const auto& gpu = sssp::cuda::query_device();
  if (!gpu.available) throw sssp::CudaError("the relax checkpoint needs a GPU: " + gpu.reason);
  const auto threads = static_cast<unsigned>(s.targets.size());
  DeviceBuffer<dist_t> d_dist(s.dist, "checkpoint distances");
  DeviceBuffer<vertex_t> d_targets(s.targets, "checkpoint targets");
  DeviceBuffer<dist_t> d_offers(s.offers, "checkpoint offers");
  DeviceBuffer<vertex_t> d_published(std::vector<vertex_t>(kMaxRelaxThreads, 0), "checkpoint published items");
  DeviceBuffer<unsigned> d_published_bucket(std::vector<unsigned>(kMaxRelaxThreads, 0), "checkpoint published buckets");
  DeviceBuffer<unsigned> d_count(std::vector<unsigned>{0}, "checkpoint publish count");
  DeviceBuffer<vertex_t> d_local(kLocal, "checkpoint local list");
  DeviceBuffer<unsigned> d_pushed(kSubLists, "checkpoint list counters");
  Run r{};
  r.dist = d_dist.data();
  r.buckets_used = kBuckets;
  r.local_items = s.local_items;
  const RelaxArgs a{threads, s.local_bucket, s.local_items};
  const RecordingRoute route{d_published.data(), d_published_bucket.data(), d_count.data()};

  const sssp::cuda::DeviceTodo todo = device_todo();
  todo.reset();
  relax_checkpoint_kernel<<<1, threads>>>(r, a, d_targets.data(), d_offers.data(), route, d_local.data(),
                                          d_pushed.data());
  SSSP_CUDA_CHECK_LAUNCH();
  SSSP_CUDA_CHECK(cudaDeviceSynchronize());
  todo.check();

  RelaxCheckpoint out;
  out.dist = d_dist.to_host();
  const std::vector<vertex_t> local = d_local.to_host();
  const std::vector<unsigned> used = d_pushed.to_host();
  const unsigned part = (s.local_items + kSubLists - 1) / kSubLists;
  for (unsigned p = 0; p < kSubLists; ++p) {
    for (unsigned i = 0; i < used[p]; ++i) out.kept.push_back(local[p * part + i]);
  }
  const unsigned count = std::min(d_count.to_host().front(), kMaxRelaxThreads);
  const std::vector<vertex_t> published = d_published.to_host();
  const std::vector<unsigned> buckets = d_published_bucket.to_host();
  out.published.assign(published.begin(), published.begin() + count);
  out.published_bucket.assign(buckets.begin(), buckets.begin() + count);
  return out;
}

void validate(const AddsOptions& o) {
  using sssp::require_option;
  require_option(o.c > 0.0 && std::isfinite(o.c), "ADDS: the constant C of the starting delta",
                 "a positive finite number", o.c);
  require_option(o.buckets >= 2 && o.buckets <= kBuckets, "ADDS: buckets", "2 to 32", o.buckets);
  require_option(o.max_open != 0 && o.max_open <= o.buckets, "ADDS: open buckets",
                 "1 to buckets (" + std::to_string(o.buckets) + ")", o.max_open);
  require_option(o.workers <= kMaxWorkers, "ADDS: worker blocks",
                 "0 (as many as fit) to " + std::to_string(kMaxWorkers), o.workers);
  require_option(o.local_items <= kLocal, "ADDS: local items",
                 "0 to " + std::to_string(kLocal) + " (a worker block's list)", o.local_items);
  require_option(o.delta <= (dist_t{1} << 62), "ADDS: delta",
                 "at most 2^62 (a wider bucket holds every distance anyway)", o.delta);
  require_option(o.pool_pages <= (1u << 20), "ADDS: pool pages", "at most 2^20 (16 GiB of slots)", o.pool_pages);
}

struct AddsSssp::Impl {
  AddsOptions options;
  vertex_t n;
  dist_t delta0;
  double average_degree;
  unsigned pages;
  unsigned grid;
  sssp::cuda::DeviceCsr graph;
  DeviceBuffer<dist_t> dist, expanded_at;
  DeviceBuffer<Bucket> buckets;
  DeviceBuffer<unsigned> mapped, ring, wcc, page_done, free_pages, idle_map, trace_count;
  DeviceBuffer<vertex_t> pool;
  DeviceBuffer<unsigned long long> assignment;
  DeviceBuffer<Control> control;
  DeviceBuffer<Work> work;
  DeviceBuffer<TraceEntry> trace;
  sssp::cuda::Stream stream;
  bool ran = false;

  Impl(const CsrGraph& g, const AddsOptions& o)
      : options(validated(o)),
        n(g.num_vertices()),
        delta0(o.delta != 0 ? o.delta : start_delta(g, o.c)),
        average_degree(g.num_vertices() == 0 ? 0.0 : static_cast<double>(g.num_edges()) / g.num_vertices()),
        pages(o.pool_pages != 0 ? o.pool_pages : pool_pages_for(g)),
        grid(launch_grid(options.workers)),
        graph((require_memory(g, pages, grid), g)),
        dist(n, "distances"),
        expanded_at(n, "expanded-at distances"),
        buckets(kBuckets, "buckets"),
        mapped(kBuckets, "mapped ends"),
        ring(std::uint64_t{kBuckets} * pages, "page rings"),
        wcc(std::uint64_t{pages} * kSegmentsPerPage, "write-completed counters"),
        page_done(pages, "page completions"),
        free_pages(pages, "free pages"),
        idle_map(kMaxWorkers / 32, "idle bitmap"),
        trace_count(1, "trace length"),
        pool(std::uint64_t{pages} * kPage, "page pool"),
        assignment(grid - 1, "assignment words"),
        control(1, "manager state"),
        work(1, "work counters"),
        trace(kTrace, "trace") {}

  static AddsOptions validated(const AddsOptions& o) {
    validate(o);
    return o;
  }

  static void require_memory(const CsrGraph& g, unsigned pages, unsigned grid) {
    using sssp::cuda::device_bytes;
    const std::uint64_t v = g.num_vertices();
    const std::uint64_t bytes = sssp::cuda::csr_device_bytes(g) + device_bytes<dist_t>(2 * v) +
                                device_bytes<vertex_t>(std::uint64_t{pages} * kPage) +
                                device_bytes<unsigned>(std::uint64_t{pages} * (kSegmentsPerPage + 2 + kBuckets)) +
                                device_bytes<unsigned long long>(grid) + device_bytes<TraceEntry>(kTrace);
    sssp::cuda::require_free_memory(
        bytes, "lab 09 ADDS on " + sssp::describe(g) + " with " + std::to_string(pages) + " queue pages");
  }

  // Every block must be resident at once: the manager and the workers wait
  // on each other, so a block that waits for a free SM would never start.
  // The cooperative launch refuses a grid larger than this. `workers`: the
  // option (0: as many as fit).
  static unsigned launch_grid(unsigned workers) {
    const auto& gpu = sssp::cuda::query_device();
    if (!gpu.available) throw sssp::CudaError("ADDS needs a GPU: " + gpu.reason);
    const unsigned resident = sssp::cuda::resident_grid(adds_kernel, kBlock);
    if (resident < 2) throw sssp::CudaError("ADDS needs room for a manager and a worker block at once");
    const unsigned most = std::min(resident, kMaxWorkers + 1);
    if (workers == 0) return most;
    if (workers > most - 1) {
      throw sssp::InputError("ADDS: " + std::to_string(workers) + " worker blocks asked for, but only " +
                             std::to_string(most - 1) + " fit on this GPU beside the manager");
    }
    return workers + 1;
  }

  // Empties the queue and puts the source in bucket 0, as if published: slot
  // 0 of the last page of the pool, which bucket 0's ring starts with.
  void reset(vertex_t source) {
    cudaStream_t st = stream.get();
    std::vector<dist_t> d(n, sssp::kInfinity);
    d[source] = 0;
    dist.upload(d, st);
    expanded_at.upload(std::vector<dist_t>(n, sssp::kInfinity), st);
    std::vector<Bucket> b(kBuckets, Bucket{0, 0, 0});
    b[0].resv = 1;
    buckets.upload(b, st);
    std::vector<unsigned> m(kBuckets, 0);
    m[0] = kPage;
    mapped.upload(m, st);
    ring.fill_bytes(0, st);
    const unsigned first_page = pages - 1;
    std::vector<unsigned> free_list(pages);
    for (unsigned p = 0; p < pages; ++p) free_list[p] = p;
    free_pages.upload(free_list, st);
    wcc.fill_bytes(0, st);
    page_done.fill_bytes(0, st);
    SSSP_CUDA_CHECK(cudaMemcpyAsync(ring.data(), &first_page, sizeof first_page, cudaMemcpyHostToDevice, st));
    SSSP_CUDA_CHECK(cudaMemcpyAsync(pool.data() + std::uint64_t{first_page} * kPage, &source, sizeof source,
                                    cudaMemcpyHostToDevice, st));
    const unsigned one = 1;
    SSSP_CUDA_CHECK(cudaMemcpyAsync(wcc.data() + std::uint64_t{first_page} * kSegmentsPerPage, &one, sizeof one,
                                    cudaMemcpyHostToDevice, st));
    std::vector<unsigned> idle(kMaxWorkers / 32, 0);
    for (unsigned w = 0; w + 1 < grid; ++w) idle[w / 32] |= 1u << (w % 32);
    idle_map.upload(idle, st);
    assignment.fill_bytes(0, st);
    control.upload(std::vector<Control>{Control{0, delta0, 0, kNoError, 0, 0, 0, 0}}, st);
    work.fill_bytes(0, st);
    trace_count.fill_bytes(0, st);
    // These host vectors die at the end of this function: the copies must be done.
    SSSP_CUDA_CHECK(cudaStreamSynchronize(st));
  }

  Run arguments() {
    Run r{};
    r.offsets = graph.offsets.data();
    r.targets = graph.targets.data();
    r.weights = graph.weights.data();
    r.dist = dist.data();
    r.expanded_at = expanded_at.data();
    r.buckets = buckets.data();
    r.mapped = mapped.data();
    r.ring = ring.data();
    r.pool = pool.data();
    r.wcc = wcc.data();
    r.page_done = page_done.data();
    r.free_pages = free_pages.data();
    r.pages = pages;
    r.free_top = pages - 1;  // the last page holds the source
    r.assignment = assignment.data();
    r.idle_map = idle_map.data();
    r.workers = grid - 1;
    r.control = control.data();
    r.work = work.data();
    r.trace = trace.data();
    r.trace_count = trace_count.data();
    r.buckets_used = options.buckets;
    r.max_open = options.max_open;
    r.local_items = options.local_items;
    r.dynamic_delta = options.dynamic_delta;
    r.bounds = bounds();
    r.average_degree = average_degree;
    r.watchdog_ns = std::uint64_t{options.watchdog_ms} * 1000000ull;
    return r;
  }

  DeltaBounds bounds() const {
    DeltaBounds b;
    b.min_delta = std::max<dist_t>(1, delta0 / kDynamicRange);
    constexpr dist_t kWidest = dist_t{1} << 62;
    b.max_delta = delta0 >= kWidest / kDynamicRange ? std::max(delta0, kWidest) : delta0 * kDynamicRange;
    return b;
  }

  // The queue as the manager left it, for an error message.
  std::string queue_report(const Control& c) {
    std::ostringstream out;
    out << "manager pass " << c.passes << ", head bucket " << c.head << " from distance " << c.head_lo << ", delta "
        << c.delta << ", " << (grid - 1 - c.idle_workers) << " of " << (grid - 1) << " workers busy";
    const std::vector<Bucket> b = buckets.to_host(stream.get());
    for (unsigned i = 0; i < kBuckets; ++i) {
      if (b[i].resv != 0 || b[i].cwc != 0) {
        out << "; bucket " << i << ": reserved " << b[i].resv << ", handed out " << b[i].read << ", complete "
            << b[i].cwc;
      }
    }
    return out.str();
  }
};

AddsSssp::AddsSssp(const CsrGraph& graph, AddsOptions options) : impl_(std::make_unique<Impl>(graph, options)) {}

AddsSssp::~AddsSssp() = default;

dist_t AddsSssp::delta() const { return impl_->delta0; }

DeltaBounds AddsSssp::delta_bounds() const { return impl_->bounds(); }

unsigned AddsSssp::workers() const { return impl_->grid - 1; }

std::vector<TraceEntry> AddsSssp::last_trace() const {
  Impl& s = *impl_;
  if (!s.ran) return {};
  const unsigned count = std::min(s.trace_count.to_host(s.stream.get()).front(), kTrace);
  std::vector<TraceEntry> trace = s.trace.to_host(s.stream.get());
  trace.resize(count);
  return trace;
}

AddsStats AddsSssp::last_stats() const {
  Impl& s = *impl_;
  AddsStats stats;
  if (!s.ran) return stats;
  const Control c = s.control.to_host(s.stream.get()).front();
  const Work w = s.work.to_host(s.stream.get()).front();
  stats.passes = c.passes;
  stats.head_switches = c.switches;
  stats.expansions = w.expansions;
  stats.repeats = w.repeats;
  stats.local_expansions = w.local;
  for (const Bucket& b : s.buckets.to_host(s.stream.get())) stats.published += b.resv;
  stats.final_delta = c.delta;
  return stats;
}

SsspResult AddsSssp::run(vertex_t source) {
  Impl& s = *impl_;
  sssp::require_valid_source(source, s.n);  // before reset() writes its distance
  s.reset(source);
  s.ran = true;
  cudaStream_t stream = s.stream.get();
  Run r = s.arguments();
  void* args[] = {&r};
  SsspResult result = sssp::cuda::timed_run<dist_t>(
      device_todo(), source, s.n,
      [&](Counters& work) -> DeviceBuffer<dist_t>& {
        SSSP_CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(adds_kernel), dim3(s.grid),
                                                    dim3(kBlock), args, 0, stream));
        SSSP_CUDA_CHECK_LAUNCH();
        ++work.kernel_launches;
        return s.dist;
      },
      stream);
  // An unfinished task, which also stops the manager, has thrown in timed_run: an error left is the run's own.
  const Control c = s.control.to_host(stream).front();
  if (c.error == kPoolExhausted) {
    throw sssp::AlgorithmError("ADDS: the queue's page pool (" + std::to_string(s.pages) + " pages of " +
                               std::to_string(kPage) + " slots) ran out; the run stopped instead of dropping work (" +
                               s.queue_report(c) + ")");
  }
  if (c.error == kStalled) {
    throw sssp::AlgorithmError(
        "ADDS watchdog: nothing was reserved, completed or handed out for " + std::to_string(c.stalled_ms) +
        " ms, so the manager stopped the run (" + s.queue_report(c) +
        "). A bucket whose reservations stay ahead of what is handed out holds a slot whose segment counter never "
        "reached it (publish: write, fence, then count), or the scan does not see a completed segment");
  }
  if (c.error == kCounterLimit) {
    throw sssp::AlgorithmError("ADDS: a bucket passed " + std::to_string(kMaxReservations) +
                               " reservations in one run, the limit of its 32-bit counters (" + s.queue_report(c) +
                               "); a smaller delta spreads the pushes over more buckets");
  }
  if (c.error == kWordNotIdle) {
    throw sssp::AlgorithmError(
        "ADDS: a worker block, polling for its next chunk, found the chunk it had just finished still in its "
        "assignment word, so the run stopped instead of expanding it again (" +
        s.queue_report(c) +
        "). Task 6 (report_chunk_complete) must write kIdle back to the block's word before it sets the block's "
        "idle bit: the manager writes a new chunk only into the word of a worker it saw idle");
  }
  if (c.error != kNoError) throw sssp::AlgorithmError("ADDS: the run stopped with error " + std::to_string(c.error));
  const Work w = s.work.to_host(stream).front();
  result.counters.iterations = c.passes;
  result.counters.vertices_processed = w.expansions;
  result.counters.edges_relaxed = w.arcs;
  result.counters.host_syncs = 1;  // the wait for the run's end
  return result;
}

}  // namespace lab09
