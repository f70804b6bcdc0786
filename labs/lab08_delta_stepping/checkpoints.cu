// Lab 08's checkpoints (given code): harness kernels that run one task's
// device function, the one the solver calls (chen_tasks.cuh,
// near_far_tasks.cuh), on a hand-made input and hand back what it wrote. The
// rest of the solver's work around the task is done here by given code: the
// prefix sum of task 2 on the host, the expansion order of task 4 (one
// thread per near item, its arcs in order, like lanes_per_item = 1), the far
// minimum of task 5, the launch around task 6. So a task earns its
// Checkpoint tests even while the other tasks of its solver are unfinished.
// Contracts: lab08_testing.hpp.
#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "lab08_testing.hpp"
#include "sssp/cuda/device_buffer.cuh"
#include "sssp/cuda/device_graph.cuh"
#include "sssp/cuda/launch.cuh"
#include "sssp/cuda/todo.cuh"
#include "sssp/errors.hpp"

namespace lab08 {
namespace {
// Before the task files: their stubs record an unfinished task here.
SSSP_DEVICE_TODO_STATE_IN(8, {2, "chen_tasks.cuh"}, {3, "chen_tasks.cuh"}, {4, "near_far_tasks.cuh"},
                          {5, "near_far_tasks.cuh"}, {6, "near_far_tasks.cuh"}, {7, "chen_tasks.cuh"},
                          {8, "near_far_tasks.cuh"});
}  // namespace
}  // namespace lab08

#include "chen_tasks.cuh"
#include "near_far_tasks.cuh"

namespace lab08 {

using sssp::cuda::DeviceBuffer;

namespace {

constexpr unsigned kBlock = 256;

// Task 2 for every vertex; counts the calls that took their vertex.
__global__ void take_every_vertex(vertex_t n, bucket_t* bindex, bucket_t* taken_stamp, const vertex_t* req_index,
                                  vertex_t* requests, bucket_t current, unsigned* taken) {
  for (std::uint64_t v = sssp::cuda::global_thread_index(); v < n; v += sssp::cuda::grid_stride()) {
    if (take_from_bucket(bindex, taken_stamp, req_index, requests, current, static_cast<vertex_t>(v))) {
      atomicAdd(taken, 1u);
    }
  }
}

// Task 3 along every arc of every request, one thread per request taking
// its arcs in order; sums what the calls offered.
__global__ void relax_every_request(const edge_t* offsets, const vertex_t* targets, const weight_t* weights,
                                    dist_t* dist, bucket_t* bindex, dist_t delta, bool light, const vertex_t* requests,
                                    vertex_t count, unsigned long long* offered) {
  for (std::uint64_t i = sssp::cuda::global_thread_index(); i < count; i += sssp::cuda::grid_stride()) {
    const vertex_t v = requests[i];
    unsigned long long mine = 0;
    for (edge_t e = offsets[v]; e < offsets[v + 1]; ++e) {
      mine += offer_arc(targets, weights, dist, bindex, delta, light, v, e);
    }
    if (mine != 0) atomicAdd(offered, mine);
  }
}

// Task 7 by exactly `threads` threads, with a stand-in for task 3 that only
// records each call: calls[e] counts the calls for arc e, tail_wrong[e] those
// that named a vertex other than e's tail, per_thread[t] thread t's calls,
// returned[t] what its task 7 call returned (the stand-in returns 1).
__global__ void share_every_arc(const edge_t* offsets, const vertex_t* requests, const edge_t* req_size, unsigned count,
                                std::uint64_t threads, edge_t m, unsigned* calls, unsigned* tail_wrong,
                                unsigned long long* per_thread, unsigned long long* returned) {
  const std::uint64_t t = sssp::cuda::global_thread_index();
  if (t >= threads) return;
  unsigned long long mine = 0;
  returned[t] = offer_share(offsets, requests, req_size, count, t, threads, [&](vertex_t v, edge_t e) -> unsigned {
    ++mine;
    if (e >= m) {
      atomicAdd(&tail_wrong[m], 1u);  // the slot past the arcs: an arc that does not exist
      return 1;
    }
    atomicAdd(&calls[e], 1u);
    if (e < offsets[v] || e >= offsets[v + 1]) atomicAdd(&tail_wrong[e], 1u);
    return 1;
  });
  per_thread[t] = mine;
}

// Task 4 along every arc of every near item, one thread per item, at the
// distance the item had before the round.
__global__ void offer_along_every_arc(const edge_t* offsets, const vertex_t* targets, const weight_t* weights,
                                      dist_t* dist, Lists lists, Launch launch, const vertex_t* near,
                                      const dist_t* near_dist, vertex_t count) {
  for (std::uint64_t i = sssp::cuda::global_thread_index(); i < count; i += sssp::cuda::grid_stride()) {
    const vertex_t v = near[i];
    for (std::uint64_t e = offsets[v]; e < offsets[v + 1]; ++e) {
      relax_and_route(targets, weights, dist, lists, launch, near_dist[i], e);
    }
  }
}

// Task 5 for every far item; the smallest distance that stays far.
__global__ void split_every_item(const dist_t* dist, Lists lists, Launch launch, dist_t old_threshold,
                                 const vertex_t* far, vertex_t count, unsigned long long* far_min) {
  for (std::uint64_t i = sssp::cuda::global_thread_index(); i < count; i += sssp::cuda::grid_stride()) {
    const dist_t stays = split_far_item(dist, lists, launch, old_threshold, far[i]);
    if (stays != sssp::kInfinity) atomicMin(far_min, static_cast<unsigned long long>(stays));
  }
}

// Task 6 once, by one thread as in the step kernel (thread 0 of block 0),
// for launch `number`, whose own state is frontier copy number.
__global__ void leave_state_once(Lists lists, unsigned number, dist_t threshold, bool near_round, bool split) {
  if (sssp::cuda::global_thread_index() != 0) return;
  const Frontier now = lists.frontier[number % kCopies];
  leave_state_for_the_next_launch(lists, number, now, threshold, near_round, split);
}

// What task 8 decided, with each list and count named by its copy (-1: a
// pointer to none of them).
struct StepReport {
  int near_in, near_out, near_out_count, far_in, far_now, far_now_count, far_next, far_next_count;
  unsigned near_in_count, far_in_count, number;
  bool near_round, split;
  dist_t threshold;
};

__device__ int copy_of(const vertex_t* list, const vertex_t* base, vertex_t capacity) {
  for (unsigned c = 0; c < kCopies; ++c) {
    if (list == base + std::uint64_t{c} * capacity) return static_cast<int>(c);
  }
  return -1;
}

__device__ int copy_of(const unsigned* count, const unsigned* base) {
  for (unsigned c = 0; c < kCopies; ++c) {
    if (count == base + c) return static_cast<int>(c);
  }
  return -1;
}

// Task 8 once, by one thread, for launch `number`.
__global__ void decide_once(Lists lists, unsigned number, dist_t delta, StepReport* report) {
  if (sssp::cuda::global_thread_index() != 0) return;
  const Step s = decide_step(lists, number, delta);
  const Launch& l = s.launch;
  *report = StepReport{copy_of(s.near_in, lists.near, lists.capacity),
                       copy_of(l.near_out, lists.near, lists.capacity),
                       copy_of(l.near_out_count, lists.near_count),
                       copy_of(s.far_in, lists.far, lists.capacity),
                       copy_of(l.far_now, lists.far, lists.capacity),
                       copy_of(l.far_now_count, lists.far_count),
                       copy_of(l.far_next, lists.far, lists.capacity),
                       copy_of(l.far_next_count, lists.far_count),
                       s.near_in_count,
                       s.far_in_count,
                       l.number,
                       s.near_round,
                       s.split,
                       l.threshold};
}

template <typename T>
DeviceBuffer<T> upload(const std::vector<T>& host, const char* what) {
  if (host.empty()) return DeviceBuffer<T>(1, what);  // a valid pointer the kernel never reads
  return DeviceBuffer<T>(std::span<const T>(host), what);
}

void require_size(std::size_t size, std::size_t n, const std::string& what) {
  if (size != n) {
    throw sssp::InputError("checkpoint: " + what + " has " + std::to_string(size) + " entries, the graph " +
                           std::to_string(n) + " vertices");
  }
}

// Every vertex below n and, when `distinct`, none twice.
void require_vertices(const std::vector<vertex_t>& items, vertex_t n, bool distinct, const std::string& what) {
  std::vector<bool> seen(n, false);
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (items[i] >= n) {
      throw sssp::InputError("checkpoint: " + what + "[" + std::to_string(i) + "] = " + std::to_string(items[i]) +
                             " is not a vertex of a graph of " + std::to_string(n));
    }
    if (distinct && seen[items[i]]) {
      throw sssp::InputError("checkpoint: " + what + " holds vertex " + std::to_string(items[i]) + " twice");
    }
    seen[items[i]] = true;
  }
}

// Launches `kernel` over `items` threads after clearing the task word, then
// throws sssp::NotImplemented if a stub ran.
template <typename Kernel, typename... Args>
void run_harness(std::uint64_t items, Kernel kernel, Args... args) {
  device_todo().reset();
  kernel<<<sssp::cuda::grid_for(items, kBlock), kBlock>>>(args...);
  SSSP_CUDA_CHECK_LAUNCH();
  SSSP_CUDA_CHECK(cudaDeviceSynchronize());
  device_todo().check();
}

// The lists of a checkpoint: `slots` per list, the stats' overflow word,
// clear near stamps and the far marks given.
struct HarnessLists {
  DeviceBuffer<vertex_t> near_out;
  DeviceBuffer<vertex_t> far_out;
  DeviceBuffer<unsigned> counts;  // near_out's, far_out's
  DeviceBuffer<RunStats> stats;
  DeviceBuffer<unsigned> queued_by;
  DeviceBuffer<unsigned> in_far;

  HarnessLists(vertex_t n, vertex_t slots, const std::vector<unsigned>& far_marks)
      : near_out(slots, "checkpoint near list"),
        far_out(slots, "checkpoint far pile"),
        counts(2, "checkpoint counts"),
        stats(1, "checkpoint stats"),
        queued_by(std::max<vertex_t>(n, 1), "checkpoint near stamps"),
        in_far(upload(far_marks, "checkpoint far marks")) {
    near_out.fill_bytes(0xFF);
    far_out.fill_bytes(0xFF);
    counts.fill_bytes(0);
    stats.fill_bytes(0);
    queued_by.fill_bytes(0);
  }

  [[nodiscard]] Lists lists(vertex_t slots) {
    Lists l{};
    l.stats = stats.data();
    l.queued_by = queued_by.data();
    l.in_far = in_far.data();
    l.capacity = slots;
    return l;
  }

  // Launch 1 under `threshold`: appends to near_out, and to far_out both as
  // the far pile of a near round and as the pile a split keeps.
  [[nodiscard]] Launch launch(dist_t threshold) {
    return Launch{
        1,        near_out.data(), counts.data(), far_out.data(), counts.data() + 1, far_out.data(), counts.data() + 1,
        threshold};
  }

  // A list as written: its first min(count, slots) slots.
  static std::vector<vertex_t> written(const DeviceBuffer<vertex_t>& list, unsigned count) {
    std::vector<vertex_t> items = list.to_host();
    items.resize(std::min<std::size_t>(count, items.size()));
    return items;
  }
};

// A LoopState on the device as the solver keeps it: a Frontier per copy, the
// near counts then the far counts, the run's statistics, and for each copy a
// near list and a far pile of `capacity` slots. Refuses a state with other
// than kCopies copies.
struct LoopOnDevice {
  LoopOnDevice(const LoopState& state, vertex_t slots_per_list)
      : frontier(upload(frontiers_of(state), "checkpoint loop states")),
        counts(upload(counts_of(state), "checkpoint list counts")),
        stats(upload(std::vector<RunStats>{RunStats{state.near_rounds, state.splits, state.done_launch, 0}},
                     "checkpoint run statistics")),
        slots(2 * kCopies * std::uint64_t{slots_per_list}, "checkpoint lists"),
        marks(2, "checkpoint stamps and marks"),
        expanded(1, "checkpoint expanded distances"),
        capacity(slots_per_list) {}

  /// The kernels' view of it.
  Lists lists() {
    Lists view{};
    view.near = slots.data();
    view.far = slots.data() + kCopies * std::uint64_t{capacity};
    view.near_count = counts.data();
    view.far_count = counts.data() + kCopies;
    view.frontier = frontier.data();
    view.stats = stats.data();
    view.queued_by = marks.data();
    view.in_far = marks.data() + 1;
    view.expanded_at = expanded.data();
    view.capacity = capacity;
    return view;
  }

  static std::vector<Frontier> frontiers_of(const LoopState& state) {
    if (state.copies.size() != kCopies) {
      throw sssp::InputError("checkpoint: the loop state has " + std::to_string(state.copies.size()) +
                             " copies, Near-Far keeps " + std::to_string(kCopies));
    }
    std::vector<Frontier> frontier;
    for (const LoopCopy& copy : state.copies) frontier.push_back(Frontier{copy.threshold, copy.far_min, copy.split});
    return frontier;
  }

  static std::vector<unsigned> counts_of(const LoopState& state) {
    std::vector<unsigned> counts(2 * kCopies);  // near counts, then far counts, as the solver keeps them
    for (unsigned c = 0; c < kCopies; ++c) {
      counts[c] = state.copies[c].near_count;
      counts[kCopies + c] = state.copies[c].far_count;
    }
    return counts;
  }

  DeviceBuffer<Frontier> frontier;
  DeviceBuffer<unsigned> counts;
  DeviceBuffer<RunStats> stats;
  DeviceBuffer<vertex_t> slots;
  DeviceBuffer<unsigned> marks;
  DeviceBuffer<dist_t> expanded;
  vertex_t capacity;
};

}  // namespace

TakeBucketCheckpoint checkpoint_take_bucket(const std::vector<bucket_t>& bindex, bucket_t current) {
  if (bindex.size() > sssp::kMaxVertices)
    throw sssp::InputError("checkpoint: bindex has more entries than vertices fit");
  const auto n = static_cast<vertex_t>(bindex.size());
  // ReqIndex: the exclusive prefix sum of "in the current bucket", as the solver's CUB scan computes it.
  std::vector<vertex_t> req_index(n);
  vertex_t in_bucket = 0;
  for (vertex_t v = 0; v < n; ++v) {
    req_index[v] = in_bucket;
    if (bindex[v] == current) ++in_bucket;
  }
  DeviceBuffer<bucket_t> d_bindex = upload(bindex, "checkpoint bindex");
  DeviceBuffer<bucket_t> d_stamp(std::max<vertex_t>(n, 1), "checkpoint S stamps");
  d_stamp.fill_bytes(0);
  DeviceBuffer<vertex_t> d_req_index = upload(req_index, "checkpoint request indices");
  DeviceBuffer<vertex_t> d_requests(std::max<vertex_t>(n, 1), "checkpoint requests");
  d_requests.fill_bytes(0xFF);  // kNoRequest
  DeviceBuffer<unsigned> d_taken(1, "checkpoint taken");
  d_taken.fill_bytes(0);
  run_harness(n, take_every_vertex, n, d_bindex.data(), d_stamp.data(), d_req_index.data(), d_requests.data(), current,
              d_taken.data());
  TakeBucketCheckpoint out;
  out.requests = d_requests.to_host();
  out.taken = d_taken.to_host().front();
  out.bindex = d_bindex.to_host();
  out.taken_stamp = d_stamp.to_host();
  out.requests.resize(n);
  out.bindex.resize(n);
  out.taken_stamp.resize(n);
  return out;
}

RelaxCheckpoint checkpoint_relax_requests(const CsrGraph& graph, const std::vector<dist_t>& dist,
                                          const std::vector<bucket_t>& bindex, const std::vector<vertex_t>& requests,
                                          dist_t delta, bool light) {
  const vertex_t n = graph.num_vertices();
  require_size(dist.size(), n, "dist");
  require_size(bindex.size(), n, "bindex");
  require_vertices(requests, n, false, "requests");
  if (delta == 0) throw sssp::InputError("checkpoint: delta must be at least 1");
  const sssp::cuda::DeviceCsr d_graph(graph);
  DeviceBuffer<dist_t> d_dist = upload(dist, "checkpoint distances");
  DeviceBuffer<bucket_t> d_bindex = upload(bindex, "checkpoint bindex");
  DeviceBuffer<vertex_t> d_requests = upload(requests, "checkpoint requests");
  DeviceBuffer<unsigned long long> d_offered(1, "checkpoint arcs offered");
  d_offered.fill_bytes(0);
  run_harness(requests.size(), relax_every_request, d_graph.offsets.data(), d_graph.targets.data(),
              d_graph.weights.data(), d_dist.data(), d_bindex.data(), delta, light, d_requests.data(),
              static_cast<vertex_t>(requests.size()), d_offered.data());
  RelaxCheckpoint out;
  out.dist = d_dist.to_host();
  out.bindex = d_bindex.to_host();
  out.offered = d_offered.to_host().front();
  out.dist.resize(n);
  out.bindex.resize(n);
  return out;
}

ShareCheckpoint checkpoint_offer_share(const CsrGraph& graph, const std::vector<vertex_t>& requests,
                                       std::uint64_t threads) {
  const vertex_t n = graph.num_vertices();
  require_vertices(requests, n, true, "requests");
  if (threads == 0 || threads > (std::uint64_t{1} << 20)) {
    throw sssp::InputError("checkpoint: threads must be 1 to 2^20, got " + std::to_string(threads));
  }
  // reqSize: the exclusive prefix sum of the requests' out-degrees, as the solver's CUB scan computes it.
  std::vector<edge_t> req_size(requests.size() + 1, 0);
  for (std::size_t i = 0; i < requests.size(); ++i) req_size[i + 1] = req_size[i] + graph.out_degree(requests[i]);
  const edge_t m = graph.num_edges();
  const sssp::cuda::DeviceCsr d_graph(graph);
  DeviceBuffer<vertex_t> d_requests = upload(requests, "checkpoint requests");
  DeviceBuffer<edge_t> d_req_size = upload(req_size, "checkpoint request sizes");
  DeviceBuffer<unsigned> d_calls(static_cast<std::size_t>(m) + 1, "checkpoint calls per arc");
  DeviceBuffer<unsigned> d_wrong(static_cast<std::size_t>(m) + 1, "checkpoint calls naming another tail");
  DeviceBuffer<unsigned long long> d_per_thread(threads, "checkpoint calls per thread");
  DeviceBuffer<unsigned long long> d_returned(threads, "checkpoint returns per thread");
  d_calls.fill_bytes(0);
  d_wrong.fill_bytes(0);
  d_per_thread.fill_bytes(0);
  d_returned.fill_bytes(0);
  run_harness(threads, share_every_arc, d_graph.offsets.data(), d_requests.data(), d_req_size.data(),
              static_cast<unsigned>(requests.size()), threads, m, d_calls.data(), d_wrong.data(), d_per_thread.data(),
              d_returned.data());
  ShareCheckpoint out;
  out.calls = d_calls.to_host();
  out.tail_wrong = d_wrong.to_host();
  out.calls.resize(m);
  out.beyond_the_arcs = out.tail_wrong.at(m);
  out.tail_wrong.resize(m);
  out.per_thread = d_per_thread.to_host();
  out.returned = d_returned.to_host();
  out.per_thread.resize(threads);
  out.returned.resize(threads);
  return out;
}

OfferCheckpoint checkpoint_offer(const CsrGraph& graph, const std::vector<dist_t>& dist,
                                 const std::vector<vertex_t>& near, dist_t threshold,
                                 const std::vector<vertex_t>& already_far) {
  const vertex_t n = graph.num_vertices();
  require_size(dist.size(), n, "dist");
  require_vertices(near, n, true, "near");
  require_vertices(already_far, n, true, "already_far");
  std::vector<dist_t> near_dist;  // each item's distance before the round: its dv
  for (const vertex_t v : near) {
    if (dist[v] == sssp::kInfinity) {
      throw sssp::InputError("checkpoint: near item " + std::to_string(v) + " has no distance (infinity)");
    }
    near_dist.push_back(dist[v]);
  }
  std::vector<unsigned> far_marks(std::max<vertex_t>(n, 1), 0);
  for (const vertex_t v : already_far) far_marks[v] = 1;
  // Room for every offer of the round and then some: a vertex queued twice shows as twice, not as an overflow.
  const auto slots = static_cast<vertex_t>(std::uint64_t{graph.num_edges()} + n + 1);
  HarnessLists h(n, slots, far_marks);
  const sssp::cuda::DeviceCsr d_graph(graph);
  DeviceBuffer<dist_t> d_dist = upload(dist, "checkpoint distances");
  DeviceBuffer<vertex_t> d_near = upload(near, "checkpoint near items");
  DeviceBuffer<dist_t> d_near_dist = upload(near_dist, "checkpoint near distances");
  run_harness(near.size(), offer_along_every_arc, d_graph.offsets.data(), d_graph.targets.data(),
              d_graph.weights.data(), d_dist.data(), h.lists(slots), h.launch(threshold), d_near.data(),
              d_near_dist.data(), static_cast<vertex_t>(near.size()));
  const std::vector<unsigned> counts = h.counts.to_host();
  OfferCheckpoint out;
  out.dist = d_dist.to_host();
  out.dist.resize(n);
  out.near = HarnessLists::written(h.near_out, counts[0]);
  out.far = HarnessLists::written(h.far_out, counts[1]);
  out.overflow = h.stats.to_host().front().overflow != 0;
  return out;
}

SplitCheckpoint checkpoint_split(const std::vector<dist_t>& dist, const std::vector<vertex_t>& far,
                                 dist_t old_threshold, dist_t threshold) {
  if (dist.size() > sssp::kMaxVertices) throw sssp::InputError("checkpoint: dist has more entries than vertices fit");
  const auto n = static_cast<vertex_t>(dist.size());
  require_vertices(far, n, true, "far");
  std::vector<unsigned> far_marks(std::max<vertex_t>(n, 1), 0);
  for (const vertex_t v : far) far_marks[v] = 1;
  const vertex_t slots = std::max<vertex_t>(n, 1);
  HarnessLists h(n, slots, far_marks);
  DeviceBuffer<dist_t> d_dist = upload(dist, "checkpoint distances");
  DeviceBuffer<vertex_t> d_far = upload(far, "checkpoint far items");
  DeviceBuffer<unsigned long long> d_far_min(1, "checkpoint far minimum");
  d_far_min.fill_bytes(0xFF);  // kInfinity
  run_harness(far.size(), split_every_item, d_dist.data(), h.lists(slots), h.launch(threshold), old_threshold,
              d_far.data(), static_cast<vertex_t>(far.size()), d_far_min.data());
  const std::vector<unsigned> counts = h.counts.to_host();
  SplitCheckpoint out;
  out.near = HarnessLists::written(h.near_out, counts[0]);
  out.far = HarnessLists::written(h.far_out, counts[1]);
  out.in_far = h.in_far.to_host();
  out.in_far.resize(n);
  out.far_min = d_far_min.to_host().front();
  return out;
}

LoopState checkpoint_next_launch(const LoopState& before, unsigned number, dist_t threshold, bool near_round,
                                 bool split) {
  if (number == 0) throw sssp::InputError("checkpoint: launches are numbered from 1");
  if (near_round && split) throw sssp::InputError("checkpoint: a launch is a near round or a split, not both");
  // One slot per list: a task 6 that touches the lists themselves writes
  // somewhere harmless, and the test sees only what it must.
  LoopOnDevice loop(before, 1);
  run_harness(1, leave_state_once, loop.lists(), number, threshold, near_round, split);
  const std::vector<Frontier> frontier_after = loop.frontier.to_host();
  const std::vector<unsigned> counts_after = loop.counts.to_host();
  const RunStats stats_after = loop.stats.to_host().front();
  LoopState out;
  for (unsigned c = 0; c < kCopies; ++c) {
    out.copies.push_back(LoopCopy{frontier_after[c].threshold, frontier_after[c].far_min, frontier_after[c].split,
                                  counts_after[c], counts_after[kCopies + c]});
  }
  out.near_rounds = stats_after.near_rounds;
  out.splits = stats_after.splits;
  out.done_launch = stats_after.done_launch;
  return out;
}

StepCheckpoint checkpoint_decide_step(const LoopState& state, unsigned number, dist_t delta, vertex_t capacity) {
  if (number == 0) throw sssp::InputError("checkpoint: launches are numbered from 1");
  if (delta == 0) throw sssp::InputError("checkpoint: delta must be at least 1");
  if (capacity == 0 || capacity > (vertex_t{1} << 20)) {
    throw sssp::InputError("checkpoint: capacity must be 1 to 2^20, got " + std::to_string(capacity));
  }
  LoopOnDevice loop(state, capacity);
  DeviceBuffer<StepReport> d_report(1, "checkpoint step");
  d_report.fill_bytes(0);
  run_harness(1, decide_once, loop.lists(), number, delta, d_report.data());
  const StepReport r = d_report.to_host().front();
  StepCheckpoint out;
  out.near_round = r.near_round;
  out.split = r.split;
  out.near_items = r.near_in_count;
  out.far_items = r.far_in_count;
  out.near_in = r.near_in;
  out.near_out = r.near_out;
  out.near_out_count = r.near_out_count;
  out.far_in = r.far_in;
  out.far_now = r.far_now;
  out.far_now_count = r.far_now_count;
  out.far_next = r.far_next;
  out.far_next_count = r.far_next_count;
  out.number = r.number;
  out.threshold = r.threshold;
  return out;
}

}  // namespace lab08
