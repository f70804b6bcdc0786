// Lab 09's checkpoints (given code, not a task): harness kernels that run
// task 6's report_chunk_complete, task 7's retire_empty_head_buckets, task
// 8's hand_out_chunks or task 9's measure_delta_signal, the functions of
// chunk_tasks.cuh, hand_out.cuh and delta_signal.cuh that the solver runs,
// on state set by hand, with no graph, no queue traffic and no other task,
// and return what they wrote for the graded tests to check
// (lab09_testing.hpp: checkpoint_chunk_end, checkpoint_retire_head,
// checkpoint_hand_out and checkpoint_delta_signal). What those functions
// call of other tasks is a stand-in here: adapt_delta, which task 7 calls
// and which in the solver asks tasks 9 and 5, records each call and returns
// the delta the test scripted, so that task 7 is graded without them;
// scan_readable_end, which task 8 calls and which in the solver is task 3's
// readable_end, returns the readable end the test set, so that task 8 is
// graded without task 3.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "chunk_tasks.cuh"
#include "delta_signal.cuh"
#include "hand_out.cuh"
#include "lab09_testing.hpp"
#include "queue.cuh"
#include "sssp/cuda/check.cuh"
#include "sssp/cuda/device.hpp"
#include "sssp/cuda/device_buffer.cuh"
#include "sssp/errors.hpp"

namespace lab09 {
namespace {

using sssp::cuda::DeviceBuffer;

static_assert(kIdle == kIdleWord && kUnwritten == kUnwrittenSlot && kLocal == kLocalSlots,
              "lab09_testing.hpp's names for the kernel's constants");

constexpr unsigned kMaxWorkerIds = 1024;  // the manager's idle bitmap: 32 words of 32 bits
constexpr unsigned kMaxPages = 64;
constexpr unsigned kMaxDecisions = 64;

// ------------------------------------------------------------ task 6 --

// The chunk that ends and the block's list counters (ChunkEndState's).
struct ChunkEndArgs {
  unsigned id;
  Assignment chunk;
  unsigned page;
  unsigned pushed[kSubLists];
};

// One worker block: its list and counters as a drained chunk leaves them,
// then report_chunk_complete, then the list back to the host. Launch
// bounds: blocks of up to 1024 threads must get their registers.
__global__ void __launch_bounds__(1024)
    chunk_end_kernel(const __grid_constant__ Run r, const __grid_constant__ ChunkEndArgs a, vertex_t* local_out) {
  __shared__ WorkerStorage storage;
  const unsigned part = (r.local_items + kSubLists - 1) / kSubLists;
  for (unsigned i = threadIdx.x; i < kLocal; i += blockDim.x) storage.local[i] = i;
  if (threadIdx.x < kSubLists) {
    storage.pushed[threadIdx.x] = a.pushed[threadIdx.x];
    storage.popped[threadIdx.x] = min(a.pushed[threadIdx.x], part);
  }
  if (threadIdx.x == 0) {
    storage.word = encode_assignment(a.chunk);
    storage.full = 0;
    storage.expanded = 0;
    for (unsigned p = 0; p < kSubLists; ++p) storage.expanded += min(a.pushed[p], part);
    storage.hub_count = 0;
  }
  __syncthreads();
  const LocalList local{storage.local, storage.pushed, storage.popped, &storage.full, part, 0, 1};
  const unsigned t = threadIdx.x;
  const ChunkWork work{1, t % 2, t % 3 == 0 ? 1u : 0u, t + 1};
  report_chunk_complete(r, a.id, storage, local, work, a.chunk, a.page);
  __syncthreads();
  for (unsigned i = threadIdx.x; i < kLocal; i += blockDim.x) local_out[i] = storage.local[i];
}

void validate_chunk_end(const ChunkEndState& s) {
  using sssp::require_option;
  require_option(s.threads % 32 == 0 && s.threads >= 32 && s.threads <= 1024, "chunk-end checkpoint: threads",
                 "a multiple of 32 from 32 to 1024", s.threads);
  require_option(s.local_items <= kLocal, "chunk-end checkpoint: local items", "0 to 4096", s.local_items);
  require_option(s.pushed.size() == kSubLists, "chunk-end checkpoint: pushed", "32 entries (one per part)",
                 s.pushed.size());
  require_option(s.workers >= 1 && s.workers <= kMaxWorkerIds, "chunk-end checkpoint: workers", "1 to 1024", s.workers);
  require_option(s.id < s.workers, "chunk-end checkpoint: worker id",
                 "below workers (" + std::to_string(s.workers) + ")", s.id);
  require_option(s.bucket < kBuckets, "chunk-end checkpoint: the chunk's bucket", "below 32", s.bucket);
  require_option(s.count >= 1 && s.count <= kBlock, "chunk-end checkpoint: the chunk's slots", "1 to 256", s.count);
  require_option(s.cwc.size() == kBuckets, "chunk-end checkpoint: cwc", "32 entries (one per bucket)", s.cwc.size());
  require_option(!s.page_done.empty() && s.page_done.size() <= kMaxPages, "chunk-end checkpoint: page_done",
                 "1 to 64 entries (one per page)", s.page_done.size());
  require_option(s.page < s.page_done.size(), "chunk-end checkpoint: the chunk's page",
                 "below the pages (" + std::to_string(s.page_done.size()) + ")", s.page);
  require_option(s.idle_map.size() == kMaxWorkerIds / 32, "chunk-end checkpoint: idle_map", "32 words",
                 s.idle_map.size());
  for (unsigned w = 0; w < kMaxWorkerIds; ++w) {
    const bool idle = (s.idle_map[w / 32] >> (w % 32)) & 1u;
    require_option(!idle || (w < s.workers && w != s.id), "chunk-end checkpoint: idle bit of worker",
                   "set only for another worker below workers (this block's bit is clear while it has a chunk)", w);
  }
}

// ------------------------------------------------------------ task 7 --

// One pass's counters and the position (HeadState's).
struct HeadArgs {
  unsigned resv[kBuckets];
  unsigned read[kBuckets];
  unsigned cwc[kBuckets];
  QueuePosition position;
};

struct HeadCall {
  unsigned lanes;
  QueuePosition position;  // lane 0's
};

// The stand-in adapt_delta's record and script. Device globals: the
// function's parameters are the solver's, and none of them carries the harness.
__device__ HeadCall head_calls[kMaxDecisions];
__device__ unsigned head_calls_by_lane[32];
__device__ dist_t head_script[kMaxDecisions];
__device__ unsigned head_script_length;

// The solver decides from this pass's signal (task 5); here each lane
// counts its own calls, so that a call made by part of the warp shows.
__device__ __forceinline__ dist_t adapt_delta(const Run&, const cg::thread_block_tile<32>&, unsigned lane,
                                              const QueuePosition& position, const PassCounts&, unsigned, unsigned,
                                              unsigned, unsigned long long, DeltaHistory&) {
  const unsigned k = head_calls_by_lane[lane]++;
  if (k >= kMaxDecisions) return position.delta;
  atomicOr(&head_calls[k].lanes, 1u << lane);
  if (lane == 0) head_calls[k].position = position;
  return k < head_script_length ? head_script[k] : position.delta;
}

// The manager's warp: lane L holds bucket L's counters; every lane's
// position comes back.
__global__ void retire_head_kernel(const __grid_constant__ Run r, const __grid_constant__ HeadArgs a,
                                   QueuePosition* out) {
  const cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
  const unsigned lane = warp.thread_rank();
  const PassCounts n{0, a.cwc[lane], a.resv[lane]};
  QueuePosition position = a.position;
  DeltaHistory seen{0, 0};
  retire_empty_head_buckets(r, warp, lane, n, a.read[lane], 0, 1, 1, position, seen);
  out[lane] = position;
}

void validate_head(const HeadState& s) {
  using sssp::require_option;
  require_option(s.resv.size() == kBuckets, "head checkpoint: resv", "32 entries (one per bucket)", s.resv.size());
  require_option(s.read.size() == kBuckets, "head checkpoint: read", "32 entries (one per bucket)", s.read.size());
  require_option(s.cwc.size() == kBuckets, "head checkpoint: cwc", "32 entries (one per bucket)", s.cwc.size());
  for (unsigned b = 0; b < kBuckets; ++b) {
    require_option(s.cwc[b] <= s.read[b], "head checkpoint: cwc of bucket " + std::to_string(b),
                   "at most its read (" + std::to_string(s.read[b]) + "): only slots handed out complete", s.cwc[b]);
  }
  require_option(s.head < kBuckets, "head checkpoint: head", "below 32", s.head);
  require_option(s.delta >= 1, "head checkpoint: delta", "at least 1", s.delta);
  require_option(s.decisions.size() <= kMaxDecisions, "head checkpoint: decisions", "at most 64 entries",
                 s.decisions.size());
  for (const dist_t d : s.decisions) require_option(d >= 1, "head checkpoint: a scripted decision", "at least 1", d);
}

// ------------------------------------------------------------ task 8 --

// The buckets' ends before the hand-out (HandOutState's).
struct HandOutArgs {
  unsigned head;
  unsigned read[kBuckets];
  unsigned mapped[kBuckets];
  unsigned resv[kBuckets];
};

// What one lane of the manager's warp holds after the hand-out.
struct HandOutLane {
  Plan plan;
  LaneBucket own;
  unsigned inflight;
};

// The stand-in scan's view of the buckets, and its record of the calls.
// Device globals, as for adapt_delta above: the function's parameters are
// the solver's.
struct ScanRecord {
  unsigned long long scans;
  unsigned long long partial;
  unsigned long long wrong;
  unsigned wrong_bucket, wrong_mapped, wrong_resv;
};
__device__ unsigned scan_readable[kBuckets];
__device__ unsigned scan_mapped[kBuckets];
__device__ unsigned scan_resv[kBuckets];
__device__ ScanRecord scan_record;

// The solver scans the segments' counters (task 3); here bucket b is
// written up to the end the test set, and a call sees at most 32 segments
// past its start's segment, as readable_end does, so that a hand-out that
// wants more must call again from the end it got. Maybe unused: task 8's
// stub calls no scan.
[[maybe_unused]] __device__ __forceinline__ unsigned scan_readable_end(const Run&, unsigned b, unsigned read,
                                                                       unsigned mapped_end, unsigned resv) {
  const unsigned active = __activemask();
  if (threadIdx.x % 32 == static_cast<unsigned>(__ffs(active) - 1)) {
    atomicAdd(&scan_record.scans, 1ull);
    if (active != 0xFFFFFFFFu) atomicAdd(&scan_record.partial, 1ull);
    if (b >= kBuckets || mapped_end != scan_mapped[b] || resv != scan_resv[b]) {
      if (atomicAdd(&scan_record.wrong, 1ull) == 0) {
        scan_record.wrong_bucket = b;
        scan_record.wrong_mapped = mapped_end;
        scan_record.wrong_resv = resv;
      }
    }
  }
  if (b >= kBuckets) return read;
  const unsigned reach = (read / kSegment + 32) * kSegment;
  return max(read, min(scan_readable[b], reach));
}

// The manager's warp: lane L holds bucket L's ends and idle bits 32L to
// 32L + 31; the scratch holds what a last pass might have left there.
__global__ void hand_out_kernel(const __grid_constant__ Run r, const __grid_constant__ HandOutArgs a,
                                const unsigned* held_in, HandOutLane* out, unsigned* held_out) {
  __shared__ ManagerStorage storage;
  const unsigned lane = threadIdx.x % 32;
  for (unsigned w = lane; w < kMaxWorkers; w += 32) {
    storage.held[w] = held_in[w];
    storage.plan[w] = ~0ull;
    storage.idle[w] = ~0u;
  }
  storage.assigned_bits[lane] = ~0u;
  if (lane == 0) storage.free_top = 0;
  __syncwarp();
  const unsigned idle_bits = load_relaxed(&r.idle_map[lane]);
  LaneBucket own{a.read[lane], a.read[lane] / kPage * kPage, a.mapped[lane]};
  unsigned inflight = 0;
  const Plan plan = hand_out_chunks(r, storage, lane, a.head, idle_bits, a.resv[lane], own, inflight);
  __syncwarp();
  out[lane] = HandOutLane{plan, own, inflight};
  for (unsigned w = lane; w < kMaxWorkers; w += 32) held_out[w] = storage.held[w];
}

void validate_hand_out(const HandOutState& s) {
  using sssp::require_option;
  require_option(s.workers >= 1 && s.workers <= kMaxWorkerIds, "hand-out checkpoint: workers", "1 to 1024", s.workers);
  require_option(s.idle_map.size() == kMaxWorkerIds / 32, "hand-out checkpoint: idle_map", "32 words",
                 s.idle_map.size());
  for (unsigned w = s.workers; w < kMaxWorkerIds; ++w) {
    require_option(((s.idle_map[w / 32] >> (w % 32)) & 1u) == 0, "hand-out checkpoint: idle bit of worker",
                   "set only below workers (" + std::to_string(s.workers) + ")", w);
  }
  require_option(s.head < kBuckets, "hand-out checkpoint: head", "below 32", s.head);
  require_option(s.max_open >= 1 && s.max_open <= kBuckets, "hand-out checkpoint: max_open", "1 to 32", s.max_open);
  require_option(s.read.size() == kBuckets, "hand-out checkpoint: read", "32 entries (one per bucket)", s.read.size());
  require_option(s.readable.size() == kBuckets, "hand-out checkpoint: readable", "32 entries (one per bucket)",
                 s.readable.size());
  require_option(s.resv.size() == kBuckets, "hand-out checkpoint: resv", "32 entries (one per bucket)", s.resv.size());
  require_option(s.mapped.size() == kBuckets, "hand-out checkpoint: mapped", "32 entries (one per bucket)",
                 s.mapped.size());
  for (unsigned b = 0; b < kBuckets; ++b) {
    const std::string bucket = " of bucket " + std::to_string(b);
    require_option(s.readable[b] >= s.read[b], "hand-out checkpoint: readable" + bucket,
                   "at least its read (" + std::to_string(s.read[b]) + ")", s.readable[b]);
    require_option(s.resv[b] >= s.readable[b], "hand-out checkpoint: resv" + bucket,
                   "at least its readable end (" + std::to_string(s.readable[b]) + "): only reserved slots are written",
                   s.resv[b]);
    require_option(s.mapped[b] % kPage == 0 && s.mapped[b] >= s.readable[b], "hand-out checkpoint: mapped" + bucket,
                   "a multiple of 4096, at least its readable end (" + std::to_string(s.readable[b]) + ")",
                   s.mapped[b]);
  }
}

// ------------------------------------------------------------ task 9 --

// One pass's counters and the position (SignalState's).
struct SignalArgs {
  unsigned resv[kBuckets];
  unsigned read[kBuckets];
  QueuePosition position;
  unsigned held_total;
  DeltaHistory seen;
};

// What one lane of the manager's warp measured.
struct SignalLane {
  DeltaSignal first;
  DeltaSignal second;
  DeltaHistory seen;
};

// The manager's warp at two decisions: the second's Run points at the
// second counters, and its history is what the first left.
__global__ void delta_signal_kernel(const __grid_constant__ Run r, const __grid_constant__ SignalArgs a,
                                    SignalLane* out) {
  const cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
  const unsigned lane = warp.thread_rank();
  DeltaHistory seen = a.seen;
  const DeltaSignal first =
      measure_delta_signal(r, warp, lane, a.position, a.resv[lane], a.read[lane], a.held_total, seen);
  Run later = r;
  later.work = r.work + 1;
  const DeltaSignal second =
      measure_delta_signal(later, warp, lane, a.position, a.resv[lane], a.read[lane], a.held_total, seen);
  out[lane] = SignalLane{first, second, seen};
}

void validate_signal(const SignalState& s) {
  using sssp::require_option;
  require_option(s.resv.size() == kBuckets, "signal checkpoint: resv", "32 entries (one per bucket)", s.resv.size());
  require_option(s.read.size() == kBuckets, "signal checkpoint: read", "32 entries (one per bucket)", s.read.size());
  require_option(s.head < kBuckets, "signal checkpoint: head", "below 32", s.head);
  require_option(s.buckets_used >= 2 && s.buckets_used <= kBuckets, "signal checkpoint: buckets_used", "2 to 32",
                 s.buckets_used);
  require_option(s.delta >= 1, "signal checkpoint: delta", "at least 1", s.delta);
  require_option(s.workers >= 1 && s.workers <= kMaxWorkers, "signal checkpoint: workers", "1 to 1024", s.workers);
  require_option(std::isfinite(s.average_degree) && s.average_degree >= 0, "signal checkpoint: average_degree",
                 "finite and at least 0", s.average_degree);
  require_option(s.expansions.size() == 2, "signal checkpoint: expansions", "2 entries (one per decision)",
                 s.expansions.size());
  require_option(s.repeats.size() == 2, "signal checkpoint: repeats", "2 entries (one per decision)", s.repeats.size());
  require_option(s.seen_expansions <= s.expansions[0] && s.expansions[0] <= s.expansions[1],
                 "signal checkpoint: expansions", "never below the count before", s.expansions[1]);
  require_option(s.seen_repeats <= s.repeats[0] && s.repeats[0] <= s.repeats[1], "signal checkpoint: repeats",
                 "never below the count before", s.repeats[1]);
}

void require_gpu(const char* what) {
  const auto& gpu = sssp::cuda::query_device();
  if (!gpu.available) throw sssp::CudaError(std::string(what) + " needs a GPU: " + gpu.reason);
}

}  // namespace

ChunkEndCheckpoint checkpoint_chunk_end(const ChunkEndState& s) {
  validate_chunk_end(s);
  require_gpu("the chunk-end checkpoint");
  const Assignment chunk{s.bucket, s.start, s.count};
  std::vector<unsigned long long> words(s.workers);
  for (unsigned w = 0; w < s.workers; ++w) {
    const bool idle = (s.idle_map[w / 32] >> (w % 32)) & 1u;
    words[w] = w == s.id ? encode_assignment(chunk) : idle ? kIdle : encode_assignment(Assignment{w % kBuckets, w, 1});
  }
  std::vector<Bucket> buckets(kBuckets);
  for (unsigned b = 0; b < kBuckets; ++b) buckets[b] = Bucket{s.cwc[b], s.cwc[b], s.cwc[b]};
  DeviceBuffer<Bucket> d_buckets(buckets, "checkpoint buckets");
  DeviceBuffer<unsigned> d_page_done(s.page_done, "checkpoint page completions");
  DeviceBuffer<unsigned> d_idle_map(s.idle_map, "checkpoint idle bitmap");
  DeviceBuffer<unsigned long long> d_words(words, "checkpoint assignment words");
  DeviceBuffer<Control> d_control(std::vector<Control>{Control{0, 1, 0, kNoError, 0, 0, 0, 0}}, "checkpoint control");
  DeviceBuffer<Work> d_work(std::vector<Work>{Work{0, 0, 0, 0}}, "checkpoint work counters");
  DeviceBuffer<vertex_t> d_local(kLocal, "checkpoint local list");

  Run r{};
  r.buckets = d_buckets.data();
  r.page_done = d_page_done.data();
  r.pages = static_cast<unsigned>(s.page_done.size());
  r.assignment = d_words.data();
  r.idle_map = d_idle_map.data();
  r.workers = s.workers;
  r.control = d_control.data();
  r.work = d_work.data();
  r.buckets_used = kBuckets;
  r.max_open = 1;
  r.local_items = s.local_items;
  ChunkEndArgs a{};
  a.id = s.id;
  a.chunk = chunk;
  a.page = s.page;
  std::copy(s.pushed.begin(), s.pushed.end(), a.pushed);

  const sssp::cuda::DeviceTodo todo = device_todo();
  todo.reset();
  chunk_end_kernel<<<1, s.threads>>>(r, a, d_local.data());
  SSSP_CUDA_CHECK_LAUNCH();
  SSSP_CUDA_CHECK(cudaDeviceSynchronize());
  todo.check();

  ChunkEndCheckpoint out;
  out.local = d_local.to_host();
  for (const Bucket& b : d_buckets.to_host()) out.cwc.push_back(b.cwc);
  out.page_done = d_page_done.to_host();
  out.idle_map = d_idle_map.to_host();
  out.words_before = words;
  out.words = d_words.to_host();
  const Work w = d_work.to_host().front();
  out.expansions = w.expansions;
  out.repeats = w.repeats;
  out.local_expansions = w.local;
  out.arcs = w.arcs;
  return out;
}

HeadCheckpoint checkpoint_retire_head(const HeadState& s) {
  validate_head(s);
  require_gpu("the head checkpoint");
  HeadArgs a{};
  std::copy(s.resv.begin(), s.resv.end(), a.resv);
  std::copy(s.read.begin(), s.read.end(), a.read);
  std::copy(s.cwc.begin(), s.cwc.end(), a.cwc);
  a.position = QueuePosition{s.head, s.head_lo, s.delta, s.switches};
  std::vector<dist_t> script(kMaxDecisions, 1);
  std::copy(s.decisions.begin(), s.decisions.end(), script.begin());
  const auto length = static_cast<unsigned>(s.decisions.size());
  const std::vector<HeadCall> no_calls(kMaxDecisions, HeadCall{0, QueuePosition{0, 0, 0, 0}});
  const std::vector<unsigned> no_lane_calls(32, 0);
  SSSP_CUDA_CHECK(cudaMemcpyToSymbol(head_calls, no_calls.data(), sizeof(HeadCall) * kMaxDecisions));
  SSSP_CUDA_CHECK(cudaMemcpyToSymbol(head_calls_by_lane, no_lane_calls.data(), sizeof(unsigned) * 32));
  SSSP_CUDA_CHECK(cudaMemcpyToSymbol(head_script, script.data(), sizeof(dist_t) * kMaxDecisions));
  SSSP_CUDA_CHECK(cudaMemcpyToSymbol(head_script_length, &length, sizeof length));
  DeviceBuffer<Control> d_control(std::vector<Control>{Control{s.head_lo, s.delta, s.head, kNoError, 0, 0, 0, 0}},
                                  "checkpoint control");
  DeviceBuffer<QueuePosition> d_out(32, "checkpoint positions");

  Run r{};
  r.control = d_control.data();
  r.workers = 1;
  r.buckets_used = kBuckets;
  r.max_open = 1;
  r.dynamic_delta = s.dynamic_delta;

  const sssp::cuda::DeviceTodo todo = device_todo();
  todo.reset();
  retire_head_kernel<<<1, 32>>>(r, a, d_out.data());
  SSSP_CUDA_CHECK_LAUNCH();
  SSSP_CUDA_CHECK(cudaDeviceSynchronize());
  todo.check();

  HeadCheckpoint out;
  for (const QueuePosition& p : d_out.to_host()) {
    out.head.push_back(p.head);
    out.head_lo.push_back(p.head_lo);
    out.delta.push_back(p.delta);
    out.switches.push_back(p.switches);
  }
  std::vector<HeadCall> calls(kMaxDecisions);
  SSSP_CUDA_CHECK(cudaMemcpyFromSymbol(calls.data(), head_calls, sizeof(HeadCall) * kMaxDecisions));
  for (const HeadCall& c : calls) {
    if (c.lanes == 0) break;
    out.decisions.push_back(
        HeadDecision{c.lanes, c.position.head, c.position.head_lo, c.position.delta, c.position.switches});
  }
  return out;
}

HandOutCheckpoint checkpoint_hand_out(const HandOutState& s) {
  validate_hand_out(s);
  require_gpu("the hand-out checkpoint");
  std::vector<unsigned long long> words(kMaxWorkerIds, kIdle);
  std::vector<unsigned> held(kMaxWorkerIds, 0);
  for (unsigned w = 0; w < s.workers; ++w) {
    if ((s.idle_map[w / 32] >> (w % 32)) & 1u) continue;
    words[w] = encode_assignment(Assignment{w % kBuckets, 8 * w, 5});
    held[w] = 5;
  }
  HandOutArgs a{};
  a.head = s.head;
  std::copy(s.read.begin(), s.read.end(), a.read);
  std::copy(s.mapped.begin(), s.mapped.end(), a.mapped);
  std::copy(s.resv.begin(), s.resv.end(), a.resv);
  const ScanRecord no_scans{0, 0, 0, kBuckets, 0, 0};
  SSSP_CUDA_CHECK(cudaMemcpyToSymbol(scan_readable, s.readable.data(), sizeof(unsigned) * kBuckets));
  SSSP_CUDA_CHECK(cudaMemcpyToSymbol(scan_mapped, s.mapped.data(), sizeof(unsigned) * kBuckets));
  SSSP_CUDA_CHECK(cudaMemcpyToSymbol(scan_resv, s.resv.data(), sizeof(unsigned) * kBuckets));
  SSSP_CUDA_CHECK(cudaMemcpyToSymbol(scan_record, &no_scans, sizeof no_scans));
  DeviceBuffer<unsigned> d_idle_map(s.idle_map, "checkpoint idle bitmap");
  DeviceBuffer<unsigned long long> d_words(words, "checkpoint assignment words");
  DeviceBuffer<unsigned> d_held(held, "checkpoint held counts");
  DeviceBuffer<unsigned> d_held_out(kMaxWorkerIds, "checkpoint held counts after");
  DeviceBuffer<HandOutLane> d_out(32, "checkpoint manager lanes");
  DeviceBuffer<Control> d_control(std::vector<Control>{Control{0, 1, s.head, kNoError, 0, 0, 0, 0}},
                                  "checkpoint control");

  Run r{};
  r.idle_map = d_idle_map.data();
  r.assignment = d_words.data();
  r.workers = s.workers;
  r.control = d_control.data();
  r.buckets_used = kBuckets;
  r.max_open = s.max_open;

  const sssp::cuda::DeviceTodo todo = device_todo();
  todo.reset();
  hand_out_kernel<<<1, 32>>>(r, a, d_held.data(), d_out.data(), d_held_out.data());
  SSSP_CUDA_CHECK_LAUNCH();
  SSSP_CUDA_CHECK(cudaDeviceSynchronize());
  todo.check();

  HandOutCheckpoint out;
  for (const HandOutLane& l : d_out.to_host()) {
    out.plan_idle.push_back(l.plan.idle);
    out.plan_used.push_back(l.plan.used);
    out.plan_open_used.push_back(l.plan.open_used);
    out.read.push_back(l.own.read);
    out.freed.push_back(l.own.freed);
    out.mapped.push_back(l.own.mapped);
    out.inflight += l.inflight;
  }
  out.idle_map = d_idle_map.to_host();
  out.words_before.assign(words.begin(), words.begin() + s.workers);
  const std::vector<unsigned long long> after = d_words.to_host();
  out.words.assign(after.begin(), after.begin() + s.workers);
  out.held_before.assign(held.begin(), held.begin() + s.workers);
  const std::vector<unsigned> held_after = d_held_out.to_host();
  out.held.assign(held_after.begin(), held_after.begin() + s.workers);
  ScanRecord record{};
  SSSP_CUDA_CHECK(cudaMemcpyFromSymbol(&record, scan_record, sizeof record));
  out.scans = record.scans;
  out.partial_scans = record.partial;
  out.scans_with_wrong_bounds = record.wrong;
  out.wrong_bucket = record.wrong_bucket;
  out.wrong_mapped = record.wrong_mapped;
  out.wrong_resv = record.wrong_resv;
  return out;
}

SignalCheckpoint checkpoint_delta_signal(const SignalState& s) {
  validate_signal(s);
  require_gpu("the delta signal checkpoint");
  SignalArgs a{};
  std::copy(s.resv.begin(), s.resv.end(), a.resv);
  std::copy(s.read.begin(), s.read.end(), a.read);
  a.position = QueuePosition{s.head, 0, s.delta, 0};
  a.held_total = s.held_total;
  a.seen = DeltaHistory{s.seen_expansions, s.seen_repeats};
  std::vector<Work> work(2);
  for (unsigned k = 0; k < 2; ++k) work[k] = Work{s.expansions[k], s.repeats[k], 0, 0};
  DeviceBuffer<Work> d_work(work, "checkpoint work counters");
  DeviceBuffer<Control> d_control(std::vector<Control>{Control{0, s.delta, s.head, kNoError, 0, 0, 0, 0}},
                                  "checkpoint control");
  DeviceBuffer<SignalLane> d_out(32, "checkpoint signals");

  Run r{};
  r.work = d_work.data();
  r.control = d_control.data();
  r.workers = s.workers;
  r.buckets_used = s.buckets_used;
  r.max_open = 1;
  r.dynamic_delta = true;
  r.average_degree = s.average_degree;

  const sssp::cuda::DeviceTodo todo = device_todo();
  todo.reset();
  delta_signal_kernel<<<1, 32>>>(r, a, d_out.data());
  SSSP_CUDA_CHECK_LAUNCH();
  SSSP_CUDA_CHECK(cudaDeviceSynchronize());
  todo.check();

  SignalCheckpoint out;
  for (const SignalLane& l : d_out.to_host()) {
    out.first.push_back(l.first);
    out.second.push_back(l.second);
    out.seen_expansions.push_back(l.seen.expansions);
    out.seen_repeats.push_back(l.seen.repeats);
  }
  return out;
}

}  // namespace lab09
