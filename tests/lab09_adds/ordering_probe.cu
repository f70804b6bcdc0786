// Lab 09's ordering probe (tests/support/ptx_order.hpp): one kernel per
// function whose memory order the graded Ordering tests read from its PTX,
// built beside each worker from the worker's own queue.cuh, chunk_tasks.cuh
// and hand_out.cuh.
// Every array a function touches comes in as a parameter of its own, so each
// access in the PTX can be told by the array it is to: the tests name the
// parameters by position (kPublish, kScan, kChunkEnd and kHandOut in test_lab09_ordering.cpp
// list the same order). Never launched: only compiled.
#include "chunk_tasks.cuh"
#include "hand_out.cuh"
#include "queue.cuh"

namespace lab09 {
namespace {

// chunk_tasks.cuh declares the dynamic delta's decision for the file that
// includes it to define; the probe needs none.
[[maybe_unused]] __device__ __forceinline__ dist_t adapt_delta(const Run&, const cg::thread_block_tile<32>&, unsigned,
                                                               const QueuePosition& position, const PassCounts&,
                                                               unsigned, unsigned, unsigned, unsigned long long,
                                                               DeltaHistory&) {
  return position.delta;
}

// hand_out.cuh declares task 8's scan for the file that includes it to
// define: here it reads no memory, so that every access of the probe's
// hand-out kernel is task 8's own.
[[maybe_unused]] __device__ __forceinline__ unsigned scan_readable_end(const Run&, unsigned, unsigned read,
                                                                       unsigned mapped_end, unsigned resv) {
  return max(read, min(mapped_end, resv));
}

}  // namespace

/// publish (task 2): parameters 1 pool, 2 wcc, 3 buckets, 4 mapped, 5 ring, 6 control.
extern "C" __global__ void lab09_order_publish(Run base, vertex_t* pool, unsigned* wcc, Bucket* buckets,
                                               unsigned* mapped, unsigned* ring, Control* control, vertex_t w,
                                               unsigned b) {
  Run r = base;
  r.pool = pool;
  r.wcc = wcc;
  r.buckets = buckets;
  r.mapped = mapped;
  r.ring = ring;
  r.control = control;
  publish(r, w, b);
}

/// readable_end (task 3): parameters 1 wcc, 2 buckets, 3 ring, 4 out (where the probe stores the end, standing
/// for the manager's next writes: the assignment words).
extern "C" __global__ void lab09_order_scan(Run base, unsigned* wcc, Bucket* buckets, unsigned* ring, unsigned* out,
                                            unsigned b, unsigned read, unsigned mapped_end, unsigned resv) {
  Run r = base;
  r.wcc = wcc;
  r.buckets = buckets;
  r.ring = ring;
  const unsigned end = readable_end(r, b, read, mapped_end, resv);
  if (threadIdx.x == 0) *out = end;
}

/// report_chunk_complete (task 6): parameters 1 buckets, 2 page_done, 3 assignment, 4 idle_map, 5 work.
extern "C" __global__ void lab09_order_chunk_end(Run base, Bucket* buckets, unsigned* page_done,
                                                 unsigned long long* assignment, unsigned* idle_map, Work* work,
                                                 unsigned id, Assignment chunk, unsigned page, unsigned part) {
  __shared__ WorkerStorage storage;
  Run r = base;
  r.buckets = buckets;
  r.page_done = page_done;
  r.assignment = assignment;
  r.idle_map = idle_map;
  r.work = work;
  const LocalList local{storage.local, storage.pushed, storage.popped, &storage.full, part, 0, 1};
  const ChunkWork mine{threadIdx.x, 0, 0, 0};
  report_chunk_complete(r, id, storage, local, mine, chunk, page);
}

/// hand_out_chunks (task 8): parameters 1 idle_map, 2 assignment.
extern "C" __global__ void lab09_order_hand_out(Run base, unsigned* idle_map, unsigned long long* assignment,
                                                unsigned head, unsigned idle_bits, unsigned resv, unsigned read,
                                                unsigned mapped, unsigned* out) {
  __shared__ ManagerStorage storage;
  Run r = base;
  r.idle_map = idle_map;
  r.assignment = assignment;
  const unsigned lane = threadIdx.x % 32;
  LaneBucket own{read, read, mapped};
  unsigned inflight = 0;
  const Plan plan = hand_out_chunks(r, storage, lane, head, idle_bits, resv, own, inflight);
  out[lane] = plan.used + own.read + inflight;
}

}  // namespace lab09
