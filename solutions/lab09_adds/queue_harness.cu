// Lab 09's queue harness (given code, not a task): drives publish (task 2)
// and readable_end (task 3), the functions of queue.cuh that the solver
// runs, with no graph, no manager and no task 4 (with kPublishOnly, task 2's
// checkpoint, publish alone: no scan), and returns what it saw as
// data for the graded tests to check (lab09_testing.hpp, run_queue_harness).
//
// Its queue: each bucket is mapped, before the launch, to a few pages of
// the pool in reverse order (so that page_of matters), up to `capacity`
// slots, every item the writers can publish there and a page more: publish
// never waits for a page. One launch has a supervisor warp (block 0) and writer
// blocks. The supervisor is the reader (it scans each bucket with
// readable_end, reads the items up to the end it got and records them) and
// the watchdog: at the time limit it stops the run (Control::error), so that
// a publish waiting on its page gives up, and it leaves. Nothing here waits
// without a deadline, except on the student's own loops.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "lab09_testing.hpp"
#include "queue.cuh"
#include "sssp/cuda/check.cuh"
#include "sssp/cuda/device.hpp"
#include "sssp/cuda/device_buffer.cuh"
#include "sssp/errors.hpp"

namespace lab09 {
namespace {

using sssp::cuda::DeviceBuffer;

constexpr unsigned kWriterBlock = 256;
constexpr unsigned kMaxScanRecords = 1u << 16;

// What the harness's kernel needs beside the queue.
struct Harness {
  unsigned writer_blocks;
  unsigned rounds;
  unsigned buckets;
  unsigned seed;
  unsigned jitter_ns;
  unsigned capacity;
  bool writers;                   // writer blocks run in this launch
  bool reader;                    // block 0 scans and reads (else it only watches)
  unsigned start_read;            // the reader's first slot, in every bucket
  unsigned expected[kBuckets];    // items each bucket will hold once every writer is done
  unsigned mapped_end[kBuckets];  // what the reader passes readable_end
  unsigned long long timeout_ns;
  unsigned* writers_done;  // writer warps finished
  unsigned* read_items;    // buckets x capacity
  unsigned* read_end;      // per bucket
  unsigned* scan_records;  // 4 per record: bucket, from, end, resv
  unsigned* scan_record_count;
  unsigned long long* scans;
  unsigned* timed_out;
};

__device__ unsigned long long harness_now_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// A writer thread: in each round, after a jitter, publishes its item to the
// bucket harness_bucket() picks (or nothing), with the other threads of its
// warp that publish in that round, to whichever buckets.
__device__ void writer(const Run& r, const Harness& h, unsigned thread) {
  for (unsigned k = 0; k < h.rounds; ++k) {
    if (h.jitter_ns != 0) __nanosleep(harness_bucket(h.seed + 7, thread / 32, k, 1u << 16) % h.jitter_ns);
    if (stopped(r)) break;
    const unsigned b = harness_bucket(h.seed, thread, k, h.buckets);
    if (b < kBuckets) publish(r, thread * h.rounds + k, b);
  }
  __syncwarp();
  if (threadIdx.x % 32 == 0) atomicAdd(h.writers_done, 1u);
}

// The supervisor warp, reading: scans the buckets in turn from h.start_read,
// reads each bucket's items up to the end readable_end gives and records
// them, until every bucket is read to its expected count (with writers), or
// a round over the buckets moved nothing once the writers are done, or the
// time limit. Then, or at once when it only watches, stops the run.
__device__ void reader(const Run& r, const Harness& h) {
  const unsigned lane = threadIdx.x % 32;
  const unsigned long long deadline = harness_now_ns() + h.timeout_ns;
  const unsigned writer_warps = h.writers ? h.writer_blocks * (kWriterBlock / 32) : 0;
  unsigned read[kBuckets];
  for (unsigned b = 0; b < kBuckets; ++b) read[b] = h.start_read;
  bool timed_out = false;
  // Every decision is the warp's (lane 0's loads, or a vote), so that its
  // lanes never part: readable_end is called by the whole warp, as in the manager.
  while (h.reader) {
    const bool writers_done = __shfl_sync(0xFFFFFFFF, !h.writers || load_acquire(h.writers_done) == writer_warps, 0);
    bool moved = false, all_read = true;
    for (unsigned b = 0; b < h.buckets; ++b) {
      const unsigned resv = __shfl_sync(0xFFFFFFFF, load_relaxed(&r.buckets[b].resv), 0);
      // The contract gives every lane the same end; lane 0's is the one used.
      const unsigned end = __shfl_sync(0xFFFFFFFF, readable_end(r, b, read[b], h.mapped_end[b], resv), 0);
      if (lane == 0) atomicAdd(h.scans, 1ull);
      if (end != read[b] && lane == 0) {
        const unsigned at = atomicAdd(h.scan_record_count, 1u);
        if (at < kMaxScanRecords) {
          h.scan_records[4 * at] = b;
          h.scan_records[4 * at + 1] = read[b];
          h.scan_records[4 * at + 2] = end;
          h.scan_records[4 * at + 3] = resv;
        }
      }
      if (end > read[b]) {
        // The end gave these slots as written: read them now, as a worker would.
        for (unsigned s = read[b] + lane; s < min(end, h.capacity); s += 32) {
          const unsigned page = page_of(r, b, s);
          h.read_items[std::uint64_t{b} * h.capacity + s] = __ldcg(&r.pool[std::uint64_t{page} * kPage + s % kPage]);
        }
        read[b] = end;
        moved = true;
      }
      if (read[b] < h.expected[b]) all_read = false;
    }
    __syncwarp();
    if (__any_sync(0xFFFFFFFF, load_relaxed(&sssp_device_todo_task) != 0)) break;  // a skeleton's task ran
    if (h.writers && writers_done && all_read) break;
    if (writers_done && !moved) break;
    if (__any_sync(0xFFFFFFFF, harness_now_ns() > deadline)) {
      timed_out = true;
      break;
    }
  }
  if (lane < h.buckets) h.read_end[lane] = read[lane];
  if (h.writers) {
    // The watchdog: wait for the writers, until the time limit, then stop
    // the run, so that a publish still waiting on its page gives up.
    while (load_acquire(h.writers_done) != writer_warps && harness_now_ns() <= deadline) __nanosleep(1000);
    if (lane == 0 && load_acquire(h.writers_done) != writer_warps) timed_out = true;
  }
  if (lane == 0) {
    store_relaxed(&r.control->error, unsigned{kStalled});
    if (timed_out) *h.timed_out = 1;
  }
}

__global__ void queue_harness_kernel(const __grid_constant__ Run r, const __grid_constant__ Harness h) {
  if (blockIdx.x == 0) {
    if (threadIdx.x < 32) reader(r, h);
    return;
  }
  writer(r, h, (blockIdx.x - 1) * kWriterBlock + threadIdx.x);
}

// The items each bucket holds once every writer is done.
std::vector<unsigned> expected_counts(const QueueHarnessOptions& o) {
  std::vector<unsigned> count(kBuckets, 0);
  const unsigned threads = o.writer_blocks * kWriterBlock;
  for (unsigned t = 0; t < threads; ++t) {
    for (unsigned k = 0; k < o.rounds; ++k) {
      const unsigned b = harness_bucket(o.seed, t, k, o.buckets);
      if (b < kBuckets) ++count[b];
    }
  }
  return count;
}

void validate_harness(const QueueHarnessOptions& o) {
  using sssp::require_option;
  const bool states = o.scenario == QueueScenario::kScanStates;
  require_option(o.scenario == QueueScenario::kPublishThenScan ||
                     o.scenario == QueueScenario::kScanRacesWithPublishers || states ||
                     o.scenario == QueueScenario::kPublishOnly,
                 "queue harness: scenario", "0 to 3", static_cast<unsigned>(o.scenario));
  if (states) {
    require_option(o.mapped_end % kPage == 0 && o.mapped_end <= 64 * kPage, "queue harness: mapped end",
                   "a multiple of 4096 up to 64 pages", o.mapped_end);
    require_option(o.resv <= 64 * kPage, "queue harness: reservations", "at most 64 pages", o.resv);
    require_option(o.read <= o.resv && o.read <= o.mapped_end, "queue harness: read",
                   "at most the reservations and the mapped end", o.read);
    require_option(o.segment_counts.size() <= o.mapped_end / kSegment, "queue harness: segment counts",
                   "one per segment below the mapped end at most", o.segment_counts.size());
  } else {
    require_option(o.writer_blocks >= 1 && o.writer_blocks <= 256, "queue harness: writer blocks", "1 to 256",
                   o.writer_blocks);
    require_option(o.rounds >= 1 && o.rounds <= 64, "queue harness: rounds", "1 to 64", o.rounds);
    require_option(o.buckets >= 1 && o.buckets <= kBuckets, "queue harness: buckets", "1 to 32", o.buckets);
    require_option(o.jitter_ns <= 100000, "queue harness: jitter", "0 to 100000 ns", o.jitter_ns);
  }
  require_option(o.timeout_ms >= 1 && o.timeout_ms <= 60000, "queue harness: time limit", "1 to 60000 ms",
                 o.timeout_ms);
}

}  // namespace

QueueTrace run_queue_harness(const QueueHarnessOptions& o) {
  validate_harness(o);
  const auto& gpu = sssp::cuda::query_device();
  if (!gpu.available) throw sssp::CudaError("the queue harness needs a GPU: " + gpu.reason);
  const bool states = o.scenario == QueueScenario::kScanStates;
  const unsigned buckets = states ? 1 : o.buckets;
  const std::vector<unsigned> expected = states ? std::vector<unsigned>(kBuckets, 0) : expected_counts(o);
  const unsigned most = states ? std::max(o.resv, o.mapped_end) : *std::max_element(expected.begin(), expected.end());
  // A page to spare: a publish that takes a slot past its group's reservation still finds it mapped.
  const unsigned bucket_pages = most / kPage + 2;
  const unsigned capacity = bucket_pages * kPage;
  const unsigned pages = buckets * bucket_pages + 1;  // the last: a page of full counters no bucket owns
  const unsigned trap = pages - 1;

  // Each bucket's pages, in reverse order; with kScanStates, the slots past
  // the mapped end are the trap page's, whose counters all say "full".
  std::vector<unsigned> ring(std::uint64_t{kBuckets} * pages, trap);
  std::vector<unsigned> mapped(kBuckets, 0);
  for (unsigned b = 0; b < buckets; ++b) {
    mapped[b] = states ? o.mapped_end : capacity;
    for (unsigned i = 0; i < bucket_pages; ++i) {
      if (i * kPage < mapped[b]) ring[std::uint64_t{b} * pages + i] = b * bucket_pages + (bucket_pages - 1 - i);
    }
  }
  std::vector<unsigned> wcc(std::uint64_t{pages} * kSegmentsPerPage, 0);
  std::vector<unsigned> pool(std::uint64_t{pages} * kPage, kQueueSlotEmpty);
  for (unsigned s = 0; s < kSegmentsPerPage; ++s) wcc[std::uint64_t{trap} * kSegmentsPerPage + s] = kSegment;
  std::vector<Bucket> bucket_counters(kBuckets, Bucket{0, 0, 0});
  if (states) {
    bucket_counters[0].resv = o.resv;
    for (unsigned s = 0; s < std::min(o.resv, o.mapped_end); ++s) {
      pool[std::uint64_t{ring[s / kPage]} * kPage + s % kPage] = s;
    }
    for (unsigned seg = 0; seg < o.segment_counts.size(); ++seg) {
      const unsigned slot = seg * kSegment;
      wcc[std::uint64_t{ring[slot / kPage]} * kSegmentsPerPage + (slot % kPage) / kSegment] = o.segment_counts[seg];
    }
  }

  DeviceBuffer<Bucket> d_buckets(bucket_counters, "harness buckets");
  DeviceBuffer<unsigned> d_mapped(mapped, "harness mapped ends");
  DeviceBuffer<unsigned> d_ring(ring, "harness page rings");
  DeviceBuffer<vertex_t> d_pool(pool, "harness page pool");
  DeviceBuffer<unsigned> d_wcc(wcc, "harness write-completed counters");
  DeviceBuffer<Control> d_control(std::vector<Control>{Control{0, 1, 0, kNoError, 0, 0, 0, 0}}, "harness control");
  DeviceBuffer<unsigned> d_read_items(std::vector<unsigned>(std::uint64_t{buckets} * capacity, kQueueSlotNotRead),
                                      "harness items read");
  DeviceBuffer<unsigned> d_read_end(std::vector<unsigned>(kBuckets, 0), "harness read ends");
  DeviceBuffer<unsigned> d_records(std::uint64_t{4} * kMaxScanRecords, "harness scan records");
  DeviceBuffer<unsigned> d_small(std::vector<unsigned>{0, 0, 0},
                                 "harness counters");  // writers done, records, timed out
  DeviceBuffer<unsigned long long> d_scans(std::vector<unsigned long long>{0}, "harness scans");

  Run r{};
  r.buckets = d_buckets.data();
  r.mapped = d_mapped.data();
  r.ring = d_ring.data();
  r.pool = d_pool.data();
  r.wcc = d_wcc.data();
  r.pages = pages;
  r.control = d_control.data();

  Harness h{};
  h.writer_blocks = states ? 0 : o.writer_blocks;
  h.rounds = o.rounds;
  h.buckets = buckets;
  h.seed = o.seed;
  h.jitter_ns = o.jitter_ns;
  h.capacity = capacity;
  h.start_read = states ? o.read : 0;
  for (unsigned b = 0; b < kBuckets; ++b) {
    h.expected[b] = expected[b];
    h.mapped_end[b] = mapped[b];
  }
  h.timeout_ns = std::uint64_t{o.timeout_ms} * 1000000ull;
  h.writers_done = d_small.data();
  h.scan_record_count = d_small.data() + 1;
  h.timed_out = d_small.data() + 2;
  h.read_items = d_read_items.data();
  h.read_end = d_read_end.data();
  h.scan_records = d_records.data();
  h.scans = d_scans.data();

  const sssp::cuda::DeviceTodo todo = device_todo();
  todo.reset();
  if (o.scenario == QueueScenario::kPublishOnly) {
    // Task 2 alone: every writer, block 0 only watches, and no scan.
    h.writers = true;
    h.reader = false;
    queue_harness_kernel<<<1 + h.writer_blocks, kWriterBlock>>>(r, h);
  } else if (o.scenario == QueueScenario::kPublishThenScan) {
    // Every writer first (block 0 only watches), then the reader alone.
    h.writers = true;
    h.reader = false;
    queue_harness_kernel<<<1 + h.writer_blocks, kWriterBlock>>>(r, h);
    SSSP_CUDA_CHECK_LAUNCH();
    SSSP_CUDA_CHECK(cudaDeviceSynchronize());
    const unsigned ok = kNoError;
    SSSP_CUDA_CHECK(cudaMemcpy(&d_control.data()->error, &ok, sizeof ok, cudaMemcpyHostToDevice));
    h.writers = false;
    h.reader = true;
    queue_harness_kernel<<<1, 32>>>(r, h);
  } else {
    h.writers = !states;
    h.reader = true;
    queue_harness_kernel<<<1 + h.writer_blocks, states ? 32 : kWriterBlock>>>(r, h);
  }
  SSSP_CUDA_CHECK_LAUNCH();
  SSSP_CUDA_CHECK(cudaDeviceSynchronize());
  todo.check();

  QueueTrace t;
  t.capacity = capacity;
  const std::vector<Bucket> final_buckets = d_buckets.to_host();
  const std::vector<vertex_t> final_pool = d_pool.to_host();
  const std::vector<unsigned> final_wcc = d_wcc.to_host();
  const std::vector<unsigned> read_end = d_read_end.to_host();
  const std::vector<unsigned> small = d_small.to_host();
  t.read_items = d_read_items.to_host();
  t.scans = d_scans.to_host().front();
  t.timed_out = small[2] != 0;
  for (unsigned b = 0; b < buckets; ++b) {
    t.resv.push_back(final_buckets[b].resv);
    t.read_end.push_back(read_end[b]);
    for (unsigned s = 0; s < capacity; ++s) {
      const unsigned page = ring[std::uint64_t{b} * pages + s / kPage];
      t.slots.push_back(final_pool[std::uint64_t{page} * kPage + s % kPage]);
      if (s % kSegment == 0)
        t.counts.push_back(final_wcc[std::uint64_t{page} * kSegmentsPerPage + (s % kPage) / kSegment]);
    }
  }
  const std::vector<unsigned> records = d_records.to_host();
  const unsigned kept = std::min(small[1], kMaxScanRecords);
  for (unsigned i = 0; i < kept; ++i) {
    t.scan_bucket.push_back(records[4 * i]);
    t.scan_from.push_back(records[4 * i + 1]);
    t.scan_end.push_back(records[4 * i + 2]);
    t.scan_resv.push_back(records[4 * i + 3]);
  }
  return t;
}

}  // namespace lab09
