// Lab 09 skeleton, generated from solutions/lab09_adds/hand_out.cuh by common/tools/make_skeleton.py.
// This file is yours: replace each SSSP_TODO with your code.
// Lab 09, task 8: the manager's hand-out of chunks. Once a pass, the
// manager's warp gives the idle workers chunks of the published items of the
// open buckets, through their assignment words. Here with the manager's
// state it works on. adds.cu (the solver, through manager.cuh), checkpoints.cu
// (the graded harness that runs hand_out_chunks alone, on hand-set state)
// and the ordering probe include this file, so all of them run the same code;
// each gets its own copy (an anonymous namespace), as with queue.cuh.
#pragma once

#include <cooperative_groups.h>

#include "chunk_tasks.cuh"
#include "lab09.hpp"
#include "queue.cuh"
#include "sssp/cuda/atomics.cuh"
#include "sssp/cuda/todo.cuh"

namespace lab09 {
namespace {

constexpr unsigned kMaxWorkers = 1024;  // the manager's idle bitmap: 32 lanes x 32 bits

// The manager's shared memory (block 0). `held` and `free_top` are the given
// code's; `plan`, `idle` and `assigned_bits` are task 8's scratch, yours to
// use as your design needs (they keep whatever the last pass left there).
struct ManagerStorage {
  unsigned long long plan[kMaxWorkers];  // task 8's scratch (the reference: the word for idle[j])
  unsigned idle[kMaxWorkers];            // task 8's scratch (the reference: this pass's idle workers, listed)
  unsigned held[kMaxWorkers];            // per worker: the items of its chunk in flight (0: none)
  unsigned assigned_bits[32];  // task 8's scratch (the reference: the workers given a chunk, as idle-map words)
  unsigned free_top;           // free pages: r.free_pages[0, free_top)
};

// Lane L's ends of bucket L, in slots, kept from pass to pass:
// freed <= read <= mapped.
struct LaneBucket {
  unsigned read;    // handed out (written to Bucket::read only at the end, for the host)
  unsigned freed;   // the pages below it are back in the pool
  unsigned mapped;  // the pages below it are mapped (the value of r.mapped[L])
};

// What one pass handed out, the same in every lane.
struct Plan {
  unsigned idle;       // idle workers at the start of the hand-out
  unsigned used;       // of those, the workers given a chunk
  unsigned open_used;  // 1 + the last k (from the head) of a bucket that handed out a slot; 0: none (for the trace)
};

// How far bucket b can be handed out from slot `read`: task 3's
// readable_end in the solver (manager.cuh defines it so), a stand-in in the
// checkpoint. Declared here and defined by the file that includes this one,
// as adapt_delta is. Called by the whole warp, with bucket b's mapped end
// and this pass's reservations; returns the same end in every lane, read <=
// end <= mapped_end, and looks at most 32 segments (1024 slots) past `read`:
// an end short of the bucket's written slots may grow when called again
// from it.
__device__ __forceinline__ unsigned scan_readable_end(const Run& r, unsigned b, unsigned read, unsigned mapped_end,
                                                      unsigned resv);

// Task 8: the manager's hand-out of chunks. Called by the manager's whole
// warp once a pass, after the pages are mapped and before the head is
// retired (task 7). Lane L holds bucket L: own.read (its slots handed out
// so far), own.mapped (its mapped end) and `resv` (its reservations, loaded
// this pass), and `idle_bits`, bit i of which says that worker 32L + i is
// idle, its word kIdle and storage.held of it 0. `head` is the head bucket,
// the same in every lane. The buckets open to the hand-out are the first
// r.max_open from the head: (head + k) % kBuckets, k < r.max_open.
//
// The contract. On return:
//  - only readable slots: every slot handed out from bucket b lies below an
//    end that scan_readable_end returned for b in this call, and b is open;
//  - every slot once: the slots handed out from bucket b are exactly those
//    from its old read end up to its new one, lane b's own.read, each in one
//    chunk (none twice, none skipped; read only grows, so none twice over
//    passes either); own.freed and own.mapped are as they were;
//  - a chunk is one assignment word, encode_assignment(bucket, start,
//    count), of 1 to kBlock slots in one pool page (a worker reads it from
//    one page); only idle workers get a word, at most one each, and no other
//    word changes;
//  - the head first: a bucket hands out a slot only if every open bucket
//    before it (from the head) is handed out to its readable end;
//  - no idle worker left idle while work is readable: every idle worker has
//    a chunk, or every open bucket is handed out to its readable end (a scan
//    from its new read end would return that same end);
//  - the books: storage.held[w] is the slot count of worker w's new chunk
//    (take_back_idle_workers subtracts it when w comes back idle), and the
//    warp's sum of `inflight` has grown by the slots handed out; the Plan,
//    the same in every lane, says how many workers were idle, how many got a
//    chunk, and how far from the head the hand-out reached;
//  - the order a worker relies on: a worker given a chunk has its idle bit
//    cleared in r.idle_map, and the clear is visible to every SM before its
//    new word can be seen; the word is written with one 64-bit store. (The
//    worker sets its bit again only once the new chunk is complete and its
//    word kIdle again; the scan, task 3, already ordered the counts that
//    said the slots are written before your writes.)
// Wait for nothing: the manager must never block.
//
// Be ready to argue: what could a worker that still saw its old idle bit
// after its new word do to the manager's next pass, and what would it
// erase? How do you size the chunks, and what does it cost if they are too
// small, too large, or cross a page? Why hand out the head's slots first,
// and what does handing out a later bucket cost? (The handout's "Handing out
// chunks (task 8)".)
__device__ __forceinline__ Plan hand_out_chunks(const Run& r, ManagerStorage& storage, unsigned lane, unsigned head,
                                                unsigned idle_bits, unsigned resv, LaneBucket& own,
                                                unsigned& inflight) {
  // TODO(task 8): meet the contract above, and be ready to argue it (the
  // questions above). Design it: which bucket, what chunk sizes, which
  // lane writes which word. Given: scan_readable_end (call it from the
  // whole warp), encode_assignment, kBlock, kPage, storage's scratch, the
  // warp's intrinsics (__shfl_sync, __shfl_up_sync, __ballot_sync, __popc,
  // __ffs) and sssp/cuda/atomics.cuh. Helper functions of your own go
  // above this one. This runs once a pass, on the manager's critical path.
  SSSP_DEVICE_TODO_RETURN(9, 8, "the manager's hand-out of chunks", (Plan{0, 0, 0}));
}

}  // namespace
}  // namespace lab09
