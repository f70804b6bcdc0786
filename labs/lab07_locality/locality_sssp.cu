// Lab 07 skeleton, generated from solutions/lab07_locality/locality_sssp.cu by common/tools/make_skeleton.py.
// This file is yours: replace each SSSP_TODO with your code.
// Lab 07: locality-based relaxation (Safari and Ebnenasir, TTCS 2017,
// Algorithms 6-9), and CUDA Graphs as the step past the paper.
//
// Lab 02 moves a wave of relaxation one arc per launch, with two kernels and
// a host round trip each time: on a road graph, thousands of launches whose
// fixed cost dwarfs their work. Here a flagged vertex u starts a depth-first
// wave that follows improving arcs up to k deep, so one launch moves the wave
// k arcs; vertices reached at depth k are flagged for the next launch. Three
// more choices cut the fixed cost per launch:
//  - each thread owns 1, 2 or 4 consecutive vertices and reads their flags
//    as one 1-, 2- or 4-byte word, so the scan of the flag array (the part
//    of every launch that does not shrink with the frontier) costs fewer loads;
//  - two flag arrays alternate by launch parity: a launch reads and clears one
//    and sets the other, so no thread clears a flag that another thread of
//    the same launch has just set;
//  - one kernel per launch, N of them queued blind, and then a loop that reads
//    one word per look: the index of the last launch that flagged anything.
//    How many launches go before each look is the launch policy's choice
//    (task 5, launch_policy.hpp), learned while the solver runs.
// With Options::tune, k and the vertices per thread are chosen per run too,
// by the configuration tuner (task 6, launch_policy.hpp), from the measured
// times of earlier runs.
//
// Why it is correct, whatever the interleaving, k and vertices per thread:
// every distance is only ever lowered by atomicMin to the length of a real
// path (a wave's offers are sums along the arcs it walked), and the thread
// whose atomicMin lowered dist[v] to c takes over v: below depth k it relaxes
// v's out-arcs with c itself, at depth k it flags v, and v's owner relaxes
// them in the next launch with dist[v] <= c. So after a launch that flagged
// nothing, every arc (v, w) satisfies dist[w] <= dist[v] + w(v, w): the
// Bellman-Ford fixpoint, whose only solution by real path lengths is the
// shortest distances. A vertex lowered after its flag was consumed is covered
// too: the lowering thread, not the flag, carries the obligation.

#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "lab07.hpp"
#include "sssp/cuda/block_work.cuh"
#include "sssp/cuda/device.hpp"
#include "sssp/cuda/device_graph.cuh"
#include "sssp/cuda/host_flag.cuh"
#include "sssp/cuda/stream.cuh"
#include "sssp/cuda/timed_run.cuh"
#include "wave.cuh"  // task 1, relax_wave, and this file's device-TODO word

namespace lab07 {

using sssp::Counters;
using sssp::edge_t;
using sssp::weight_t;
using sssp::cuda::BlockWork;
using sssp::cuda::DeviceBuffer;

namespace {

// The flags of kVerticesPerThread consecutive vertices, read as one word.
template <unsigned kVerticesPerThread>
struct FlagWord;
template <>
struct FlagWord<1> {
  using type = std::uint8_t;
};
template <>
struct FlagWord<2> {
  using type = std::uint16_t;
};
template <>
struct FlagWord<4> {
  using type = std::uint32_t;
};

// Task 2's part of a launch for one thread's vertices t*P .. t*P + P - 1:
// their flags are one Word of `flags`. wave(u) runs the wave from vertex u
// and returns its work: relax_wave in the solver's kernel, a stand-in that
// only records the call in task 2's checkpoint (so task 2 is graded alone).
template <unsigned kVerticesPerThread, typename Wave>
__device__ WaveWork start_waves(std::uint8_t* flags, std::uint64_t t, const Wave& wave) {
  using Word = typename FlagWord<kVerticesPerThread>::type;
  Word* owned = reinterpret_cast<Word*>(flags);
  WaveWork total;
  // TODO(task 2): on return, every flagged vertex among this thread's
  // kVerticesPerThread vertices has had exactly one wave (wave(v)), its flag
  // is cleared, total holds the sum of the waves' work and says flagged if
  // any of them flagged; one memory access reads the thread's flags. Argue:
  // why can clearing them never erase a flag that a wave of this launch
  // sets, and what would go wrong with one flag array instead of two?
  SSSP_DEVICE_TODO_RETURN(7, 2, "each thread clears its vertices' flags and starts their waves", total);
  return total;
}

// Algorithms 8 and 9 in one kernel: each thread owns kVerticesPerThread
// consecutive vertices, clears their flags in `flags` and starts a wave from
// each flagged one; waves flag into `next_flags`. The flag arrays are padded
// to whole words, and padding flags are never set.
//
// The work totals and the launch word are written once per block, not once
// per thread: thousands of threads updating one address would serialise at
// L2 and cost more than the waves themselves on a road graph. Each block adds
// its totals to a slot of its own (the grid is the same for every launch of a
// run), summed on the host after the run.
template <unsigned kVerticesPerThread>
__global__ void relax_flagged(const edge_t* __restrict__ offsets, const vertex_t* __restrict__ targets,
                              const weight_t* __restrict__ weights, vertex_t n, dist_t* dist, std::uint8_t* flags,
                              std::uint8_t* __restrict__ next_flags, unsigned depth, unsigned launch,
                              unsigned* last_flagging_launch, BlockWork* block_work) {
  __shared__ unsigned long long expanded;
  __shared__ unsigned long long arcs;
  __shared__ bool flagged;
  if (threadIdx.x == 0) {
    expanded = 0;
    arcs = 0;
    flagged = false;
  }
  __syncthreads();
  const std::uint64_t owners = (std::uint64_t{n} + kVerticesPerThread - 1) / kVerticesPerThread;
  for (std::uint64_t t = sssp::cuda::global_thread_index(); t < owners; t += sssp::cuda::grid_stride()) {
    const WaveWork work = start_waves<kVerticesPerThread>(
        flags, t, [&](vertex_t u) { return relax_wave(offsets, targets, weights, dist, u, depth, next_flags); });
    if (work.expanded != 0) {
      atomicAdd(&expanded, work.expanded);
      atomicAdd(&arcs, work.arcs);
    }
    if (work.flagged) flagged = true;  // every writer stores the same value
  }
  __syncthreads();
  if (threadIdx.x == 0 && expanded != 0) {
    sssp::cuda::add_block_work(block_work, expanded, arcs);
    if (flagged) *last_flagging_launch = launch;
  }
}

// Every distance infinite but the source's, only the source flagged (array 0),
// array 1 clear, the launch word and the blocks' work zero.
__global__ void initialise(std::uint64_t padded, vertex_t source, vertex_t n, dist_t* dist, std::uint8_t* flags0,
                           std::uint8_t* flags1, unsigned* last_flagging_launch, BlockWork* block_work,
                           unsigned blocks) {
  for (std::uint64_t v = sssp::cuda::global_thread_index(); v < padded; v += sssp::cuda::grid_stride()) {
    if (v < n) dist[v] = v == source ? 0 : sssp::kInfinity;
    flags0[v] = v == source;
    flags1[v] = 0;
    if (v < blocks) block_work[v] = BlockWork{};
  }
  if (sssp::cuda::global_thread_index() == 0) *last_flagging_launch = 0;
}

// Task 1's checkpoint: one thread runs one wave from `start` and writes its
// work to work[0..2] (expanded, arcs, flagged).
__global__ void one_wave(const edge_t* __restrict__ offsets, const vertex_t* __restrict__ targets,
                         const weight_t* __restrict__ weights, dist_t* dist, vertex_t start, unsigned depth,
                         std::uint8_t* __restrict__ next_flags, unsigned long long* work) {
  if (blockIdx.x != 0 || threadIdx.x != 0) return;
  const WaveWork wave = relax_wave(offsets, targets, weights, dist, start, depth, next_flags);
  work[0] = wave.expanded;
  work[1] = wave.arcs;
  work[2] = wave.flagged ? 1 : 0;
}

// Task 2's checkpoint: one launch of task 2 over `flags`, as relax_flagged
// runs it, with a stand-in for the wave: the wave "from u" records that
// thread t started it and returns the work run_one_flag_launch promises.
// work[0..2]: expanded, arcs, flagged, added over the threads.
template <unsigned kVerticesPerThread>
__global__ void one_flag_launch(vertex_t n, std::uint8_t* flags, unsigned* started_by, unsigned* starts,
                                unsigned long long* work) {
  const std::uint64_t owners = (std::uint64_t{n} + kVerticesPerThread - 1) / kVerticesPerThread;
  for (std::uint64_t t = sssp::cuda::global_thread_index(); t < owners; t += sssp::cuda::grid_stride()) {
    const WaveWork total = start_waves<kVerticesPerThread>(flags, t, [&](vertex_t u) {
      atomicAdd(&starts[u], 1u);
      started_by[u] = static_cast<unsigned>(t);
      WaveWork stand_in;
      stand_in.expanded = 1;
      stand_in.arcs = std::uint64_t{u} + 1;
      stand_in.flagged = u % 3 == 2;
      return stand_in;
    });
    atomicAdd(&work[0], total.expanded);
    atomicAdd(&work[1], total.arcs);
    if (total.flagged) atomicOr(&work[2], 1ull);
  }
}

/// Copies the three totals a checkpoint kernel added up in `work` (vertices
/// expanded, arcs tried, flagged or not) into a checkpoint's result.
template <class CheckpointResult>
void take_work_counts(const DeviceBuffer<unsigned long long>& work, CheckpointResult& result) {
  const std::vector<unsigned long long> counts = work.to_host();
  result.expanded = counts[0];
  result.arcs = counts[1];
  result.flagged = counts[2] != 0;
}

// The blind launches' CUDA Graph: the executable graph of the last build and
// the launches it queues, replayed while the count asked for stays the same.
struct BlindGraph {
  cudaGraphExec_t exec = nullptr;
  unsigned launches = 0;

  BlindGraph() = default;
  BlindGraph(const BlindGraph&) = delete;
  BlindGraph& operator=(const BlindGraph&) = delete;
  ~BlindGraph() { reset(); }
  // Forgets the graph: its kernels carry one configuration (k, the vertices
  // per thread and the grid), so a run with another one must capture anew.
  void reset() {
    if (exec != nullptr) cudaGraphExecDestroy(exec);
    exec = nullptr;
    launches = 0;
  }
};

// Task 4: enqueues launches 1..count on `stream` as one CUDA Graph, captured
// once per count. launch_relax(launch, counters) enqueues relaxation launch
// number `launch` on `stream` and counts it: the solver's launch_relax, or
// the checkpoint's stand-in, which only logs the launch number.
template <class LaunchRelax>
void launch_blind_graph(BlindGraph& graph, cudaStream_t stream, unsigned count, Counters& work,
                        const LaunchRelax& launch_relax) {
  // TODO(task 4): on return, launches 1 .. count of launch_relax are queued
  // on `stream` as one CUDA Graph (graph.exec), built again only when count
  // differs from the last build (graph.launches), and `work` counts them as
  // if they were launched one by one. Every CUDA call checked; read the
  // handout's warnings on what may and may not happen during a capture.
  SSSP_TODO(7, 4, "the blind launches as one CUDA Graph");
}

// Task 3: drives one run's relaxation launches to a launch that flags
// nothing (Algorithm 6) and returns the last launch that flagged anything.
// It is generic over what it drives, so that its checkpoint can drive
// stand-ins (run_launch_driver); the solver's `Launches` is SolverLaunches:
//   l.first_batch()             launches to queue before the first look
//   l.next_batch(Look)          launches to queue before the next look, >= 1
//   l.cuda_graph()              whether the first batch goes as one CUDA Graph
//   l.launch(i, work)           queues relaxation launch i (from 1), counted in work
//   l.launch_graph(count, work) queues launches 1..count as one graph (task 4)
//   l.look()                    waits for the queued launches and returns the
//                               last one that flagged (the launch word)
template <class Launches>
unsigned drive_launches(Launches& l, Counters& work) {
  unsigned last_flagging = 0;
  // TODO(task 3): on return, the relaxation has run to a launch that
  // flagged nothing: first l.first_batch() launches (at least one;
  // numbered from 1; as one graph when l.cuda_graph()) with no look
  // between them; then a look (l.look(), a host sync counted in work)
  // after each batch, and, each time the latest launch flagged something,
  // a batch of l.next_batch(...) more launches. Returns the last launch that
  // flagged. Argue: why is a launch that flags nothing enough to stop, and
  // what does a look cost?
  SSSP_TODO(7, 3, "blind launches, then a look after each batch until a launch flags nothing");
  return last_flagging;
}

// Task 4's checkpoint: the stand-in launch_relax's kernel, which logs its launch number.
__global__ void log_launch(unsigned launch, unsigned* log, unsigned* logged, unsigned capacity) {
  const unsigned slot = atomicAdd(logged, 1u);
  if (slot < capacity) log[slot] = launch;
}

// Task 3's checkpoint: the driver's stand-ins, scripted by a DriverScript.
struct ScriptedLaunches {
  struct Runaway {};
  const DriverScript& script;
  DriverTrace& trace;
  unsigned queued = 0;
  unsigned last_flagging = 0;  // the largest launch number queued below script.needed
  std::size_t answers = 0;

  [[nodiscard]] unsigned first_batch() const { return script.first_batch; }
  [[nodiscard]] unsigned next_batch(const Look& look) {
    trace.asked_queued.push_back(look.queued);
    trace.asked_last.push_back(look.last_flagging);
    if (script.batches.empty()) return 1;
    return script.batches[std::min(answers++, script.batches.size() - 1)];
  }
  [[nodiscard]] bool cuda_graph() const { return script.cuda_graph; }
  void launch(unsigned i, Counters& work) {
    if (trace.launches.size() > std::uint64_t{script.needed} + 2ull * kMaxBatch) throw Runaway{};
    trace.launches.push_back(i);
    ++queued;
    if (i < script.needed) last_flagging = std::max(last_flagging, i);
    ++work.kernel_launches;
    ++work.iterations;
  }
  void launch_graph(unsigned count, Counters& work) {
    ++trace.graph_calls;
    trace.graph_count = count;
    for (unsigned i = 1; i <= count; ++i) launch(i, work);
  }
  [[nodiscard]] unsigned look() {
    if (trace.look_after.size() >= 100000) throw Runaway{};
    trace.look_after.push_back(queued);
    return last_flagging;
  }
};

// Task 5's checkpoint: runs the policy's decisions as task 3's driver would.
void simulate_run(LaunchPolicy& policy, unsigned needed, unsigned run, PolicyTrace& trace) {
  const auto in_range = [](unsigned batch, unsigned lowest) { return std::clamp(batch, lowest, kMaxBatch); };
  const unsigned first = policy.first_batch();
  trace.first.push_back(first);
  std::uint64_t queued = std::max(in_range(first, 0), 1u);
  unsigned looks = 0;
  while (true) {
    ++looks;
    const std::uint64_t last_flagging = std::min<std::uint64_t>(queued, needed - 1);
    if (last_flagging < queued || looks >= 100000) break;
    const unsigned batch = policy.next_batch(Look{static_cast<unsigned>(queued), static_cast<unsigned>(queued)});
    trace.batches.push_back(batch);
    trace.batch_run.push_back(run);
    queued += in_range(batch, 1);
  }
  const unsigned queued32 = static_cast<unsigned>(std::min<std::uint64_t>(queued, ~0u));
  trace.queued.push_back(queued32);
  trace.looks.push_back(looks);
  policy.finished(needed, queued32);
}

// Task 6's checkpoint: the cost table a script gives for run `run`.
const std::vector<double>& costs_of_run(const TunerScript& script, unsigned run) {
  return run >= script.change_at ? script.later_costs : script.costs;
}

}  // namespace

void validate(const Options& options) {
  sssp::cuda::require_block_size(options.block_size);
  sssp::require_option(options.depth != 0 && options.depth <= kMaxDepth, "depth k", "1.." + std::to_string(kMaxDepth),
                       options.depth);
  const unsigned vpt = options.vertices_per_thread;
  sssp::require_option(vpt == 1 || vpt == 2 || vpt == 4, "vertices per thread", "1, 2 or 4", vpt);
}

WaveResult run_one_wave(const CsrGraph& graph, const std::vector<dist_t>& dist, vertex_t start, unsigned depth) {
  sssp::require_valid_source(graph, start);
  const vertex_t n = graph.num_vertices();
  sssp::require_option(dist.size() == n, "distances", "one per vertex (" + std::to_string(n) + ")", dist.size());
  sssp::require_option(depth != 0 && depth <= kMaxDepth, "depth k", "1.." + std::to_string(kMaxDepth), depth);
  if (dist[start] == sssp::kInfinity) {
    throw sssp::InputError("the wave's start, vertex " + std::to_string(start) + ", must have a finite distance");
  }
  const sssp::cuda::DeviceCsr device_graph(graph);
  DeviceBuffer<dist_t> device_dist(std::span<const dist_t>(dist), "distances");
  DeviceBuffer<std::uint8_t> next_flags(n, "next flags");
  next_flags.fill_bytes(0);
  DeviceBuffer<unsigned long long> work(3, "wave work");
  work.fill_bytes(0);
  const sssp::cuda::DeviceTodo todo = device_todo();
  todo.reset();
  one_wave<<<1, 1>>>(device_graph.offsets.data(), device_graph.targets.data(), device_graph.weights.data(),
                     device_dist.data(), start, depth, next_flags.data(), work.data());
  SSSP_CUDA_CHECK_LAUNCH();
  todo.check();  // after the wave: sssp::NotImplemented while relax_wave is the skeleton's stub
  WaveResult result;
  result.dist = device_dist.to_host();
  result.next_flags = next_flags.to_host();
  take_work_counts(work, result);
  return result;
}

FlagLaunchResult run_one_flag_launch(const std::vector<std::uint8_t>& flags, vertex_t vertices,
                                     unsigned vertices_per_thread, unsigned block_size) {
  sssp::cuda::require_block_size(block_size);
  const unsigned vpt = vertices_per_thread;
  sssp::require_option(vpt == 1 || vpt == 2 || vpt == 4, "vertices per thread", "1, 2 or 4", vpt);
  sssp::require_option(vertices != 0, "vertices", "at least 1", vertices);
  const std::uint64_t padded = (std::uint64_t{vertices} + 3) / 4 * 4;
  sssp::require_option(flags.size() == padded, "flag array length",
                       "the vertices rounded up to whole 4-byte words (" + std::to_string(padded) + ")", flags.size());
  for (std::uint64_t v = vertices; v < padded; ++v) {
    if (flags[v] != 0) throw sssp::InputError("padding flag " + std::to_string(v) + " must be 0");
  }
  DeviceBuffer<std::uint8_t> device_flags(std::span<const std::uint8_t>(flags), "flags");
  DeviceBuffer<unsigned> started_by(padded, "started by");
  started_by.fill_bytes(0xFF);  // kNoThread
  DeviceBuffer<unsigned> starts(padded, "starts");
  starts.fill_bytes(0);
  DeviceBuffer<unsigned long long> work(3, "launch work");
  work.fill_bytes(0);
  const std::uint64_t owners = (std::uint64_t{vertices} + vpt - 1) / vpt;
  const unsigned grid = sssp::cuda::grid_for(owners, block_size);
  const sssp::cuda::DeviceTodo todo = device_todo();
  todo.reset();
  const auto launch = [&](auto kernel) {
    kernel<<<grid, block_size>>>(vertices, device_flags.data(), started_by.data(), starts.data(), work.data());
  };
  if (vpt == 1) launch(one_flag_launch<1>);
  if (vpt == 2) launch(one_flag_launch<2>);
  if (vpt == 4) launch(one_flag_launch<4>);
  SSSP_CUDA_CHECK_LAUNCH();
  todo.check();  // after the launch: sssp::NotImplemented while start_waves is the skeleton's stub
  FlagLaunchResult result;
  result.flags = device_flags.to_host();
  result.started_by = started_by.to_host();
  result.starts = starts.to_host();
  take_work_counts(work, result);
  return result;
}

DriverTrace run_launch_driver(const DriverScript& script) {
  sssp::require_option(script.needed != 0 && script.needed <= 100000, "needed", "1..100000", script.needed);
  sssp::require_option(script.first_batch <= kMaxBatch, "first batch", "0..kMaxBatch", script.first_batch);
  sssp::require_option(script.batches.size() <= 64, "batches", "at most 64", script.batches.size());
  for (const unsigned batch : script.batches) {
    sssp::require_option(batch != 0 && batch <= kMaxBatch, "batch", "1..kMaxBatch", batch);
  }
  DriverTrace trace;
  ScriptedLaunches launches{script, trace};
  Counters work;
  try {
    trace.returned = drive_launches(launches, work);
  } catch (const ScriptedLaunches::Runaway&) {
    trace.runaway = true;
  }
  trace.iterations = work.iterations;
  trace.kernel_launches = work.kernel_launches;
  trace.host_syncs = work.host_syncs;
  return trace;
}

GraphTrace run_blind_graph(const std::vector<unsigned>& counts) {
  sssp::require_option(!counts.empty() && counts.size() <= 16, "counts", "1 to 16 of them", counts.size());
  for (const unsigned count : counts) sssp::require_option(count != 0 && count <= 1024, "count", "1..1024", count);
  constexpr unsigned kCapacity = 4096;  // more than any call queues: a task 4 that queues too many is still seen
  sssp::cuda::Stream stream;
  BlindGraph graph;
  DeviceBuffer<unsigned> log(kCapacity, "launch log");
  DeviceBuffer<unsigned> logged(1, "launches logged");
  GraphTrace trace;
  for (const unsigned count : counts) {
    SSSP_CUDA_CHECK(cudaDeviceSynchronize());
    logged.fill_bytes(0);
    SSSP_CUDA_CHECK(cudaDeviceSynchronize());
    unsigned calls = 0;
    unsigned captured_calls = 0;
    const auto stand_in = [&](unsigned launch, Counters& captured) {
      ++calls;
      cudaStreamCaptureStatus capturing = cudaStreamCaptureStatusNone;
      SSSP_CUDA_CHECK(cudaStreamIsCapturing(stream.get(), &capturing));
      if (capturing == cudaStreamCaptureStatusActive) ++captured_calls;
      log_launch<<<1, 1, 0, stream.get()>>>(launch, log.data(), logged.data(), kCapacity);
      SSSP_CUDA_CHECK(cudaPeekAtLastError());
      ++captured.kernel_launches;
      ++captured.iterations;
    };
    Counters work;
    launch_blind_graph(graph, stream.get(), count, work, stand_in);
    SSSP_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
    const unsigned ran = std::min(logged.to_host()[0], kCapacity);
    const std::vector<unsigned> numbers = log.to_host();
    trace.launch_numbers.insert(trace.launch_numbers.end(), numbers.begin(), numbers.begin() + ran);
    trace.launch_counts.push_back(ran);
    trace.relax_calls.push_back(calls);
    trace.captured_calls.push_back(captured_calls);
    trace.kernel_launches.push_back(static_cast<unsigned>(work.kernel_launches));
    trace.iterations.push_back(static_cast<unsigned>(work.iterations));
    trace.graph_launches.push_back(graph.launches);
    trace.has_graph.push_back(graph.exec != nullptr ? 1 : 0);
  }
  return trace;
}

PolicyTrace simulate_policy(const std::vector<unsigned>& needed) {
  sssp::require_option(needed.size() <= 1000, "runs", "at most 1000", needed.size());
  for (const unsigned n : needed) sssp::require_option(n != 0 && n <= 10000000, "needed", "1..10^7", n);
  LaunchPolicy policy;
  PolicyTrace trace;
  for (unsigned run = 0; run < needed.size(); ++run) simulate_run(policy, needed[run], run, trace);
  return trace;
}

TunerTrace simulate_tuner(const TunerScript& script) {
  if (!valid_config(script.start)) {
    throw sssp::InputError(
        "start must be a valid configuration (valid_config), got k = " + std::to_string(script.start.depth) + " with " +
        std::to_string(script.start.vertices_per_thread) + " vertices per thread");
  }
  sssp::require_option(script.runs != 0 && script.runs <= 1000, "runs", "1..1000", script.runs);
  sssp::require_option(script.outlier_factor >= 1 && script.outlier_factor <= 4, "outlier factor", "1..4",
                       script.outlier_factor);
  for (const auto* table : {&script.costs, &script.later_costs}) {
    if (table == &script.later_costs && script.change_at >= script.runs) continue;
    sssp::require_option(table->size() == kConfigs, "cost table", "kConfigs (" + std::to_string(kConfigs) + ") entries",
                         table->size());
    for (const double cost : *table) sssp::require_option(cost > 0, "cost", "positive", cost);
  }
  std::vector<bool> outlier(script.runs, false);
  for (const unsigned run : script.outliers) {
    sssp::require_option(run < script.runs, "outlier run", "below runs (" + std::to_string(script.runs) + ")", run);
    outlier[run] = true;
  }
  ConfigTuner tuner(script.start);
  TunerTrace trace;
  for (unsigned run = 0; run < script.runs; ++run) {
    const Config asked = tuner.next();
    trace.depth.push_back(asked.depth);
    trace.vertices_per_thread.push_back(asked.vertices_per_thread);
    const Config used = valid_config(asked) ? asked : script.start;
    const double ms = costs_of_run(script, run)[config_index(used)] * (outlier[run] ? script.outlier_factor : 1.0);
    trace.measured.push_back(ms);
    tuner.measured(used, ms);
  }
  return trace;
}

struct LocalitySssp::Impl {
  Options options;
  vertex_t n;
  std::uint64_t padded;  // flag array length: n rounded up to whole 4-byte words
  sssp::cuda::DeviceCsr graph;
  DeviceBuffer<dist_t> dist;
  DeviceBuffer<std::uint8_t> flags[2];
  Config config;                             // this run's k and vertices per thread
  unsigned grid;                             // blocks of every relaxation launch of this run
  unsigned slots;                            // blocks of the largest grid a run may use
  sssp::cuda::BlockWorkCounters block_work;  // one slot per block of that grid (the unused ones stay 0)
  // The index of the last launch that set a flag (launches count from 1).
  sssp::cuda::DeviceWord<unsigned> last_flagging_launch;
  sssp::cuda::Stream stream;  // a CUDA Graph is captured from a non-default stream
  LaunchPolicy policy;        // task 5: N and the batches, when options.blind_launches is kLearnBlindLaunches
  ConfigTuner tuner;          // task 6: k and the vertices per thread, when options.tune
  BlindGraph blind_graph;     // task 4: the blind launches, when options.cuda_graph

  Impl(const CsrGraph& g, Options o)
      : options((validate(o), o)),
        n(g.num_vertices()),
        padded((std::uint64_t{n} + 3) / 4 * 4),
        graph((require_memory(g, padded), g)),
        dist(n, "distances"),
        flags{DeviceBuffer<std::uint8_t>(padded, "flags 0"), DeviceBuffer<std::uint8_t>(padded, "flags 1")},
        config{options.depth, options.vertices_per_thread},
        grid(grid_of(config.vertices_per_thread)),
        slots(options.tune ? grid_of(1) : grid),  // a tuned run may use 1 vertex per thread, the largest grid
        block_work(slots),
        tuner(config) {}

  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;
  ~Impl() = default;

  static void require_memory(const CsrGraph& g, std::uint64_t padded) {
    const std::uint64_t bytes = sssp::cuda::csr_device_bytes(g) + sssp::cuda::device_bytes<dist_t>(g.num_vertices()) +
                                sssp::cuda::device_bytes<std::uint8_t>(2 * padded);
    sssp::cuda::require_free_memory(bytes, "lab 07 on " + sssp::describe(g));
  }

  // The blocks that give each of the n vertices an owner at `vpt` vertices per thread.
  [[nodiscard]] unsigned grid_of(unsigned vpt) const {
    return sssp::cuda::grid_for((std::uint64_t{n} + vpt - 1) / vpt, options.block_size);
  }

  // The configuration of the next run: the options', or the tuner's, checked against its contract.
  [[nodiscard]] Config next_config() const {
    if (!options.tune) return config;
    const Config next = tuner.next();
    if (!valid_config(next)) {
      throw sssp::InputError("task 6: ConfigTuner::next returned k = " + std::to_string(next.depth) + " and " +
                             std::to_string(next.vertices_per_thread) + " vertices per thread; its contract allows k " +
                             "1 to kMaxDepth (" + std::to_string(kMaxDepth) + ") and 1, 2 or 4 vertices per thread");
    }
    return next;
  }

  // Makes `next` this run's configuration: the grid follows the vertices per
  // thread, and a CUDA Graph of another configuration is captured anew.
  void use(Config next) {
    if (next == config) return;
    config = next;
    grid = grid_of(config.vertices_per_thread);
    blind_graph.reset();
  }

  [[nodiscard]] bool learning() const { return options.blind_launches == kLearnBlindLaunches; }

  // N: the fixed one, or the policy's, checked against its contract.
  [[nodiscard]] unsigned blind_launches() const {
    if (!learning()) return options.blind_launches;
    return policy_answer(policy.first_batch(), 0, "first_batch");
  }

  // The batch after a look that found the latest launch flagged: one launch
  // with a fixed N (the paper's Algorithm 6), else the policy's.
  [[nodiscard]] unsigned next_batch(const Look& look) {
    if (!learning()) return 1;
    return policy_answer(policy.next_batch(look), 1, "next_batch");
  }

  static unsigned policy_answer(unsigned answer, unsigned lowest, const char* what) {
    if (answer < lowest || answer > kMaxBatch) {
      throw sssp::InputError(std::string("task 5: LaunchPolicy::") + what + " returned " + std::to_string(answer) +
                             "; its contract allows " + std::to_string(lowest) + " to kMaxBatch (" +
                             std::to_string(kMaxBatch) + ")");
    }
    return answer;
  }

  // Enqueues relaxation launch number `launch` (from 1): odd launches read
  // flags 0 and set flags 1, even launches the other way round.
  void launch_relax(unsigned launch, Counters& work) {
    const unsigned block = options.block_size;
    const unsigned vpt = config.vertices_per_thread;
    std::uint8_t* in = flags[(launch - 1) % 2].data();
    std::uint8_t* out = flags[launch % 2].data();
    const auto launch_with = [&](auto kernel) {
      kernel<<<grid, block, 0, stream.get()>>>(graph.offsets.data(), graph.targets.data(), graph.weights.data(), n,
                                               dist.data(), in, out, config.depth, launch,
                                               last_flagging_launch.device(), block_work.device());
    };
    if (vpt == 1) launch_with(relax_flagged<1>);
    if (vpt == 2) launch_with(relax_flagged<2>);
    if (vpt == 4) launch_with(relax_flagged<4>);
    SSSP_CUDA_CHECK_LAUNCH();
    ++work.kernel_launches;
    ++work.iterations;
  }
};

LocalitySssp::LocalitySssp(const CsrGraph& graph, Options options) : impl_(std::make_unique<Impl>(graph, options)) {}

LocalitySssp::~LocalitySssp() = default;

unsigned LocalitySssp::next_blind_launches() const { return impl_->blind_launches(); }

Config LocalitySssp::next_config() const { return impl_->next_config(); }

SsspResult LocalitySssp::run(vertex_t source) {
  Impl& s = *impl_;
  // What task 3's driver drives in the solver: the real launches, graph and look.
  struct SolverLaunches {
    Impl& s;
    [[nodiscard]] unsigned first_batch() const { return s.blind_launches(); }
    [[nodiscard]] unsigned next_batch(const Look& look) { return s.next_batch(look); }
    [[nodiscard]] bool cuda_graph() const { return s.options.cuda_graph; }
    void launch(unsigned i, Counters& work) { s.launch_relax(i, work); }
    void launch_graph(unsigned count, Counters& work) {
      launch_blind_graph(s.blind_graph, s.stream.get(), count, work,
                         [this](unsigned i, Counters& captured) { s.launch_relax(i, captured); });
    }
    [[nodiscard]] unsigned look() { return s.last_flagging_launch.read(s.stream.get()); }
  };
  if (s.options.tune) s.use(s.next_config());
  cudaStream_t stream = s.stream.get();
  unsigned needed = 0;  // launches this run needed: the last that flagged anything, plus the one that found quiet
  unsigned queued = 0;  // launches this run queued: needed or more
  SsspResult result = sssp::cuda::timed_run<dist_t>(
      device_todo(), source, s.n,
      [&](Counters& work) -> DeviceBuffer<dist_t>& {
        initialise<<<sssp::cuda::grid_for(s.padded, s.options.block_size), s.options.block_size, 0, stream>>>(
            s.padded, source, s.n, s.dist.data(), s.flags[0].data(), s.flags[1].data(), s.last_flagging_launch.device(),
            s.block_work.device(), s.slots);
        SSSP_CUDA_CHECK_LAUNCH();
        ++work.kernel_launches;
        SolverLaunches launches{s};
        needed = drive_launches(launches, work) + 1;
        queued = static_cast<unsigned>(work.iterations);
        return s.dist;
      },
      stream);
  s.block_work.add_to(result.counters, stream);  // after the timed part, like the distances
  // The paper fixes N offline from pre-runs; the policy learns it from every run.
  if (s.learning()) s.policy.finished(needed, queued);
  // The tuner learns from the time of the whole run, launches and looks
  // included: that is what it minimises.
  if (s.options.tune) s.tuner.measured(s.config, result.device_ms);
  return result;
}

}  // namespace lab07
