// Lab 09 skeleton, generated from solutions/lab09_adds/chunk_tasks.cuh by common/tools/make_skeleton.py.
// This file is yours: replace each SSSP_TODO with your code.
// Lab 09, tasks 6 and 7: the two ends of a chunk. A worker block reports
// its chunk complete and goes idle (task 6); the manager retires the head
// bucket once every chunk of it is complete (task 7). Here with the state
// they work on: the assignment word, the block's shared memory and the
// manager's view of the queue. adds.cu (the solver) and checkpoints.cu (the
// graded harness that runs each of these functions alone, on hand-set state)
// include this file, so both run the same code; each gets its own copy (an
// anonymous namespace), as with queue.cuh.
#pragma once

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include "lab09.hpp"
#include "queue.cuh"
#include "sssp/cuda/atomics.cuh"
#include "sssp/cuda/todo.cuh"

namespace lab09 {
namespace {

constexpr unsigned kBlock = 256;    // a worker block: one item per thread at a time
constexpr unsigned kLocal = 4096;   // a worker's list of same-bucket improvements, per chunk
constexpr unsigned kSubLists = 32;  // the list's parts, by distance, nearest first (one per lane)
constexpr unsigned kHubs = 32;      // hubs one expand() sets aside for the block; more go to their warps
constexpr unsigned kSwitchesPerDecision = 8;
constexpr unsigned long long kIdle = 0;  // assignment word: nothing to do
constexpr unsigned long long kExit = 2;  // assignment word: leave (an even value, never a chunk)

// A chunk of a bucket, as one 64-bit assignment word: the manager writes it
// with one store and a worker reads it with one load. Bit 0 is set, so that
// no chunk reads as kIdle or kExit.
struct Assignment {
  unsigned bucket;  // below kBuckets: bits 1 to 7
  unsigned start;   // the chunk's first slot in the bucket: bits 32 to 63
  unsigned count;   // its slots, at most kBlock: bits 8 to 31
};
static_assert(kBuckets <= 128 && (kBuckets & (kBuckets - 1)) == 0 && kBlock < (1u << 24),
              "a chunk's bucket (masked with kBuckets - 1) and count fit their bits");

// The word for chunk `a`.
__host__ __device__ constexpr unsigned long long encode_assignment(const Assignment& a) {
  return (static_cast<unsigned long long>(a.start) << 32) | (static_cast<unsigned long long>(a.count) << 8) |
         (a.bucket << 1) | 1ull;
}

// The chunk of a word that is neither kIdle nor kExit.
__host__ __device__ constexpr Assignment decode_assignment(unsigned long long word) {
  return Assignment{static_cast<unsigned>(word >> 1) & (kBuckets - 1), static_cast<unsigned>(word >> 32),
                    static_cast<unsigned>(word >> 8) & 0xFFFFFF};
}

// A thread's share of Work within one chunk: 32 bits are plenty there, and
// registers are what decide how many worker blocks fit on an SM.
struct ChunkWork {
  unsigned expansions;
  unsigned repeats;
  unsigned local;
  unsigned arcs;
};

// A worker block's list of same-bucket improvements, in shared memory: its
// warps push and pop at the same time. The chunk's bucket is cut into
// kSubLists equal ranges of distance, each with its own part of the slots, and
// warps pop from the nearest part that holds items: an item improved again
// while it waits is then more often expanded once, at the better distance,
// rather than twice. A
// slot is used once per chunk, so a popped slot is never overwritten while
// its reader waits for it.
constexpr vertex_t kUnwritten = 0xFFFFFFFFu;  // a slot reserved but not yet written
struct LocalList {
  vertex_t* items;   // kSubLists parts of `part` slots each, kUnwritten until written
  unsigned* pushed;  // per part: slots reserved (may pass `part`: those items went elsewhere)
  unsigned* popped;  // per part: slots taken by a warp
  unsigned* full;    // bit p: part p was found full
  unsigned part;     // slots per part this chunk: local_items / kSubLists, rounded up
  dist_t lo;         // the chunk bucket's first distance
  dist_t width;      // distances per part (the last part also takes every offer past it)
};

// An item of more than kBlockDegree arcs, set aside for the whole block.
struct Hub {
  vertex_t v;
  dist_t dv;
  edge_t begin, end;
};

// Adds a block's per-thread counters into `total`, one atomic per counter per warp.
__device__ void add_work(Work* total, const ChunkWork& mine) {
  const cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
  const auto sum = [&](unsigned x) {
    return static_cast<unsigned long long>(cg::reduce(warp, x, cg::plus<unsigned>()));
  };
  const unsigned long long expansions = sum(mine.expansions);
  const unsigned long long repeats = sum(mine.repeats);
  const unsigned long long local = sum(mine.local);
  const unsigned long long arcs = sum(mine.arcs);
  if (warp.thread_rank() == 0 && expansions != 0) {
    atomicAdd(&total->expansions, expansions);
    atomicAdd(&total->repeats, repeats);
    atomicAdd(&total->local, local);
    atomicAdd(&total->arcs, arcs);
  }
}

// A worker block's shared memory.
struct WorkerStorage {
  vertex_t local[kLocal];                         // LocalList::items
  Hub hubs[kHubs];                                // HubList::items
  unsigned long long word;                        // this chunk's assignment word, as thread 0 read it (kIdle: none yet)
  unsigned pushed[kSubLists], popped[kSubLists];  // LocalList::pushed and popped
  unsigned full;                                  // LocalList::full
  unsigned expanded;                              // expand_local's count of expanded slots
  unsigned hub_count;                             // HubList::count
};

// Task 6: the worker's completion protocol. Called by the whole block once
// chunk `chunk` of bucket chunk.bucket (its slots in pool page `page`) is
// expanded: after the barrier that follows expand_local, so every warp is
// back, the block's list is drained and nothing of this chunk pushes any
// more. `work` is this thread's share of the chunk's counters. Thread 0 polls
// the block's assignment word again right after the call.
//
// The contract. On return the chunk counts as complete, and this block is
// idle and ready for a new one:
//  - the local list's slots this chunk used (min(pushed[p], local.part) in
//    part p) are kUnwritten again, for the next chunk's pops, and the
//    block's counters are added to r.work (add_work);
//  - bucket chunk.bucket's cwc and the page's page_done have each grown by
//    chunk.count, once, and only once every push any thread of this block
//    made for this chunk (each reserved in some bucket's resv) is visible to
//    whoever sees the new cwc: no item is lost when the manager takes
//    read == resv == cwc for an empty head bucket (task 7), and the page
//    goes back to the pool only once nobody reads it (page_done);
//  - the block's assignment word is kIdle, and only then is its idle bit set
//    in r.idle_map: a set bit tells the manager "idle, my word is kIdle",
//    and the manager writes a new chunk only into the word of a worker whose
//    bit it saw;
//  - thread 0 no longer reads the finished chunk in its word (kIdle, or
//    already the manager's next word): the given poll stops the run with an
//    error naming this task if it meets the finished chunk again.
// Nobody waits here for anything but the block's own barrier.
//
// Be ready to argue: which fence makes the pushes of the block's other warps
// (not only thread 0's) visible before cwc, and what carries them to the
// thread that fences? What could a manager that saw cwc == resv before one of
// those pushes do to the answer? Why must the word be kIdle before the
// manager can see the bit, and what would a late kIdle store erase? Why may
// the list's slots be reset only after every warp is back, and what keeps
// thread 0 from zeroing `pushed` for the next chunk while another thread
// still reads it here? (The handout's "A chunk's end (task 6)".)
__device__ __forceinline__ void report_chunk_complete(const Run& r, unsigned id, WorkerStorage& storage,
                                                      const LocalList& local, const ChunkWork& work,
                                                      const Assignment& chunk, unsigned page) {
  // TODO(task 6): meet the contract above, and be ready to argue it (the
  // questions above). Given: add_work, store_relaxed, the LocalList's
  // counters in `storage`. Add no barrier or fence the argument does not
  // need: this runs once per chunk, on the path of every chunk.
  SSSP_DEVICE_TODO(9, 6, "the worker's completion protocol");
}

// What one pass loads of the workers' counters, lane L's.
struct PassCounts {
  unsigned idle_bits;  // bit i: worker 32L + i is idle, its word kIdle
  unsigned cwc;        // bucket L's completed slots, loaded before resv
  unsigned resv;       // bucket L's reserved slots
};

// Where the queue stands, the same in every lane (the workers read it from
// Control).
struct QueuePosition {
  unsigned head;                // the head bucket
  dist_t head_lo;               // its first distance
  dist_t delta;                 // every bucket's width
  unsigned long long switches;  // head switches so far
};

// Work's counters at the delta controller's last decision.
struct DeltaHistory {
  unsigned long long expansions;
  unsigned long long repeats;
};

// The dynamic delta's decision (task 5), given code: declared here and
// defined by the file that includes this one. The solver's (manager.cuh,
// in adds.cu's translation unit) measures this pass's signal, asks next_delta and adds the decision to the trace; the
// checkpoints' (checkpoints.cu) records the call and returns a delta of its
// own, so that task 7 is graded without task 5. Returns the new delta in
// every lane.
__device__ __forceinline__ dist_t adapt_delta(const Run& r, const cg::thread_block_tile<32>& warp, unsigned lane,
                                              const QueuePosition& position, const PassCounts& n, unsigned read,
                                              unsigned held_total, unsigned open_used, unsigned long long pass,
                                              DeltaHistory& seen);

// Task 7: the retirement of the head bucket. Called by the manager's whole
// warp once a pass, after hand_out; lane L holds bucket L's counters of this
// pass (n.cwc, loaded before n.resv, and read, its handed-out end after this
// pass's plan). Every lane holds the same `position`.
//
// The contract. On return, in every lane alike: while the head bucket is
// empty and some bucket is not, the head has moved on to the next bucket,
// head_lo by one delta (the emptied bucket becomes the last, delta further
// out than the one before it), and position.switches has counted the move.
// A bucket is empty when read == resv == cwc in this pass's counters: every
// slot reserved in it handed out, and every one of those expanded. With
// every bucket empty the head stays where it is: the queue holds nothing,
// and the run is about to end (is_quiet). With r.dynamic_delta, every
// kSwitchesPerDecision-th switch (counted over the run) decides delta again,
// adapt_delta (task 5 inside), from that switch on; without it delta never
// moves. Never more than one full turn of the queue in one pass, and wait
// for nothing: the manager must never block.
//
// Be ready to argue: why is read == resv not enough to retire the head, and
// why must cwc be loaded before resv (load_counts) for a chunk of the head
// still in flight to keep it? What may such a chunk push, and where would it
// go once the head had moved on? Retiring too early, or a worker's stale view
// of the head, costs order (work expanded at too large a distance, then again)
// but never an answer: why? And what happens to the run if the head waits at
// a bucket that will never be handed anything? (The handout's "Retiring the
// head (task 7)".)
__device__ __forceinline__ void retire_empty_head_buckets(const Run& r, const cg::thread_block_tile<32>& warp,
                                                          unsigned lane, const PassCounts& n, unsigned read,
                                                          unsigned held_total, unsigned open_used,
                                                          unsigned long long pass, QueuePosition& position,
                                                          DeltaHistory& seen) {
  // TODO(task 7): meet the contract above with one warp vote (every lane
  // must take the same decisions), and be ready to argue it (the questions
  // above). Given: adapt_delta (call it from the whole warp), kBuckets,
  // kSwitchesPerDecision.
  SSSP_DEVICE_TODO(9, 7, "the retirement of the head bucket");
}

}  // namespace
}  // namespace lab09
