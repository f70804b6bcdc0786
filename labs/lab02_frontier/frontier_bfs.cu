// Lab 02 skeleton, generated from solutions/lab02_frontier/frontier_bfs.cu by common/tools/make_skeleton.py.
// This file is yours: replace each SSSP_TODO with your code.
// Lab 02, task 4: level-synchronous frontier BFS.
#include <vector>

#include "lab02.hpp"
#include "sssp/cuda/device_graph.cuh"
#include "sssp/cuda/event_timer.cuh"
#include "sssp/cuda/host_flag.cuh"
#include "sssp/cuda/todo.cuh"

namespace lab02 {

using sssp::edge_t;
using sssp::cuda::DeviceBuffer;

namespace {

SSSP_DEVICE_TODO_STATE();

__global__ void initialise_levels(vertex_t n, vertex_t source, level_t* level) {
  const vertex_t v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < n) level[v] = v == source ? 0 : sssp::kUnreached;
}

// One thread per vertex; the vertices of level `depth` are the frontier. A
// neighbour seen for the first time gets depth + 1. Two threads may both see
// it unreached and both write depth + 1: the same value, so the race is benign.
__global__ void expand_level(const edge_t* __restrict__ offsets, const vertex_t* __restrict__ targets,
                             vertex_t n, level_t depth, level_t* __restrict__ level,
                             unsigned* __restrict__ grew) {
  const vertex_t u = blockIdx.x * blockDim.x + threadIdx.x;
  if (u >= n || level[u] != depth) return;
  // TODO(task 4): give every unreached out-neighbour of u the level
  // depth + 1 and set *grew.
  SSSP_DEVICE_TODO(2, 4, "expand one BFS level (kernel)");
}

}  // namespace

struct FrontierBfs::Impl {
  sssp::cuda::DeviceCsr graph;
  Options options;
  DeviceBuffer<level_t> level;
  sssp::cuda::HostFlag grew;

  Impl(const CsrGraph& g, Options o) : graph(g), options(o), level(g.num_vertices(), "levels") {
    sssp::cuda::require_block_size(options.block_size);
  }
};

FrontierBfs::FrontierBfs(const CsrGraph& graph, Options options) : impl_(std::make_unique<Impl>(graph, options)) {}

FrontierBfs::~FrontierBfs() = default;

std::vector<level_t> FrontierBfs::run(vertex_t source, Counters* counters, double* device_ms) {
  Impl& s = *impl_;
  // TODO(task 4): reject a source that is not a vertex
  SSSP_TODO(2, 4, "reject a source that is not a vertex");
  const vertex_t n = s.graph.num_vertices;
  const unsigned block = s.options.block_size;
  const unsigned grid = sssp::cuda::blocks_for(n, block);
  Counters work;
  sssp::cuda::EventTimer timer;
  timer.start();
  initialise_levels<<<grid, block>>>(n, source, s.level.data());
  SSSP_CUDA_CHECK_LAUNCH();
  ++work.kernel_launches;
  // One launch per level; the host learns from the flag whether the level
  // added any vertex, so a graph of hop diameter D costs D + 1 round trips.
  for (level_t depth = 0;; ++depth) {
    ++work.iterations;
    s.grew.clear();
    expand_level<<<grid, block>>>(s.graph.offsets.data(), s.graph.targets.data(), n, depth, s.level.data(),
                                  s.grew.device());
    SSSP_CUDA_CHECK_LAUNCH();
    ++work.kernel_launches;
    ++work.host_syncs;
    if (!s.grew.read()) break;
  }
  timer.stop();
  const float ms = timer.elapsed_ms();
  SSSP_CHECK_DEVICE_TODO(2);
  if (counters != nullptr) *counters = work;
  if (device_ms != nullptr) *device_ms = ms;
  return s.level.to_host();
}

}  // namespace lab02
