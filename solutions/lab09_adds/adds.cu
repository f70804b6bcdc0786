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
// idle workers through one assignment word per worker (task 8, in hand_out.cuh). A worker expands its
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
//
// The files: this one holds the workers (task 4 among them) and the kernel;
// manager.cuh the manager warp (hand_out.cuh its hand-out, task 8);
// relax_checkpoint.cuh task 4's checkpoint and solver.cuh the host side
// (AddsSssp: the buffers, the launch, the stats), both given code, included
// at the end of this file, as all four are one translation unit: their
// types and functions are each file's own (anonymous namespaces, as with
// queue.cuh), the kernel needs both roles, and the checkpoint runs this
// file's relax_and_route.
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
#include "manager.cuh"
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

constexpr unsigned kWarpDegree = 32;     // items of higher out-degree are expanded by a whole warp
constexpr unsigned kBlockDegree = 1024;  // and of higher still, by the whole block

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
// task 4's checkpoint (checkpoint_relax_and_route, relax_checkpoint.cuh)
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
  // BEGIN SOLUTION task 4: a worker relaxes an arc and routes the improved vertex
  // Straight to the atomic: a plain load first would skip the losing
  // offers' atomics but add a round trip to the winners' path (measured
  // slower on the roads).
  if (offer >= sssp::cuda::atomic_min_dist(&r.dist[w], offer)) return;
  const unsigned b = route.bucket_of(offer, c.head_lo, c.delta, c.head, r.buckets_used);
  if (b == c.local_bucket && keep_local(local, w, offer)) return;
  route.publish(r, w, b);
  // SKELETON
  // // TODO(task 4): meet the contract above, and be ready to argue it: how
  // // you know this offer won (sssp::cuda::atomic_min_dist returns the old
  // // distance), why no winner's w is left unexpanded, what keep_local's
  // // false means, and why routing by a stale view of the queue costs order,
  // // never answers. Given: route.bucket_of (task 1), keep_local,
  // // route.publish (task 2).
  // SSSP_DEVICE_TODO(9, 4, "a worker relaxes an arc and routes the improved vertex");
  // END SOLUTION
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

}  // namespace

}  // namespace lab09

// Task 4's checkpoint (given code, see the file list at the top).
#include "relax_checkpoint.cuh"

// The host side: AddsSssp (see the file list at the top).
#include "solver.cuh"
