// Lab 03 skeleton, generated from solutions/lab03_edge_parallel/edge_bfs.cu by common/tools/make_skeleton.py.
// This file is yours: replace each SSSP_TODO with your code.
// Lab 03, tasks 1-2: level-synchronous BFS with one thread per arc.
#include <cstdint>
#include <vector>

#include "lab03.hpp"
#include "sssp/cuda/device_graph.cuh"
#include "sssp/cuda/event_timer.cuh"
#include "sssp/cuda/host_flag.cuh"
#include "sssp/cuda/todo.cuh"

namespace lab03 {

using sssp::cuda::DeviceBuffer;

namespace {

SSSP_DEVICE_TODO_STATE();

__global__ void initialise_levels(vertex_t n, vertex_t source, level_t* level) {
  const vertex_t v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < n) level[v] = v == source ? 0 : sssp::kUnreached;
}

// One thread per arc tail -> head. An arc whose tail is on level `depth`
// gives an unreached head level depth + 1. Every arc gets a thread every
// level, whether its tail is in the frontier or not: perfect balance, at the
// price of E threads per level. Two arcs may reach one head at once and both
// write depth + 1: the same value, so the race is benign.
__global__ void expand_level_by_arcs(const vertex_t* __restrict__ tails, const vertex_t* __restrict__ heads,
                                     std::uint64_t num_arcs, level_t depth, level_t* __restrict__ level,
                                     unsigned* __restrict__ grew) {
  const std::uint64_t e = sssp::cuda::global_thread_index();
  if (e >= num_arcs) return;
  // TODO(task 1): if the tail of arc e is on level depth and its head is
  // unreached, give the head level depth + 1 and set *grew.
  SSSP_DEVICE_TODO(3, 1, "expand one level, one thread per arc (kernel)");
}

}  // namespace

struct EdgeBfs::Impl {
  sssp::cuda::DeviceCoo graph;
  Options options;
  DeviceBuffer<level_t> level;
  sssp::cuda::HostFlag grew;

  Impl(const CsrGraph& g, Options o)
      : graph(g, /*with_weights=*/false), options(o), level(g.num_vertices(), "levels") {
    sssp::cuda::require_block_size(options.block_size);
  }
};

EdgeBfs::EdgeBfs(const CsrGraph& graph, Options options) : impl_(std::make_unique<Impl>(graph, options)) {}

EdgeBfs::~EdgeBfs() = default;

std::vector<level_t> EdgeBfs::run(vertex_t source, Counters* counters, double* device_ms) {
  Impl& s = *impl_;
  // TODO(task 2): reject a source that is not a vertex
  SSSP_TODO(3, 2, "reject a source that is not a vertex");
  const unsigned block = s.options.block_size;
  Counters work;
  sssp::cuda::EventTimer timer;
  timer.start();
  initialise_levels<<<sssp::cuda::blocks_for(s.graph.num_vertices, block), block>>>(s.graph.num_vertices, source,
                                                                                    s.level.data());
  SSSP_CUDA_CHECK_LAUNCH();
  ++work.kernel_launches;
  // TODO(task 2): for depth = 0, 1, ...: clear s.grew, launch
  // expand_level_by_arcs with one thread per arc, and stop after the first
  // level whose s.grew.read() is false. Count iterations, kernel_launches and
  // host_syncs.
  SSSP_TODO(3, 2, "the host loop, one launch over every arc per level");
  timer.stop();
  const float ms = timer.elapsed_ms();
  SSSP_CHECK_DEVICE_TODO(3);
  if (counters != nullptr) *counters = work;
  if (device_ms != nullptr) *device_ms = ms;
  return s.level.to_host();
}

}  // namespace lab03
