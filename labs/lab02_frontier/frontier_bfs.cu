// Lab 02 skeleton, generated from solutions/lab02_frontier/frontier_bfs.cu by common/tools/make_skeleton.py.
// This file is yours: replace each SSSP_TODO with your code.
// Lab 02, task 4: level-synchronous frontier BFS.
#include <cstdint>
#include <string>

#include "lab02.hpp"
#include "sssp/cuda/device_graph.cuh"
#include "sssp/cuda/host_flag.cuh"
#include "sssp/cuda/kernels.cuh"
#include "sssp/cuda/timed_run.cuh"

namespace lab02 {

using sssp::Counters;
using sssp::edge_t;
using sssp::cuda::DeviceBuffer;

namespace {

SSSP_DEVICE_TODO_STATE(2);

// One thread per vertex; the vertices of level `depth` are the frontier. A
// neighbour seen for the first time gets depth + 1. Two threads may both see
// it unreached and both write depth + 1: the same value, so the race is benign.
__global__ void expand_level(const edge_t* __restrict__ offsets, const vertex_t* __restrict__ targets, vertex_t n,
                             level_t depth, level_t* __restrict__ level, unsigned* __restrict__ grew) {
  for (std::uint64_t u = sssp::cuda::global_thread_index(); u < n; u += sssp::cuda::grid_stride()) {
    if (level[u] != depth) continue;
    // TODO(task 4): u is on level `depth`. On return every out-neighbour of u
    // has a level of at most depth + 1, no vertex that already had a level
    // has a new one, and *grew is set if any vertex got its first level.
    // Argue whether two threads reaching one vertex at once need an atomic.
    SSSP_DEVICE_TODO(2, 4, "expand one BFS level (kernel)");
  }
}

}  // namespace

struct FrontierBfs::Impl {
  Options options;
  sssp::cuda::DeviceCsr graph;
  DeviceBuffer<level_t> level;
  sssp::cuda::HostFlag grew;

  Impl(const CsrGraph& g, Options o)
      : options((validate(o), o)), graph((require_memory(g), g)), level(g.num_vertices(), "levels") {}

  static void require_memory(const CsrGraph& g) {
    sssp::cuda::require_free_memory(
        sssp::cuda::csr_device_bytes(g) + sssp::cuda::device_bytes<level_t>(g.num_vertices()),
        "lab 02 frontier BFS on " + sssp::describe(g));
  }
};

FrontierBfs::FrontierBfs(const CsrGraph& graph, Options options) : impl_(std::make_unique<Impl>(graph, options)) {}

FrontierBfs::~FrontierBfs() = default;

BfsResult FrontierBfs::run(vertex_t source) {
  Impl& s = *impl_;
  const vertex_t n = s.graph.num_vertices;
  const unsigned block = s.options.block_size;
  const unsigned grid = sssp::cuda::grid_for(n, block);
  return sssp::cuda::timed_run<level_t>(device_todo(), source, n, [&](Counters& work) -> DeviceBuffer<level_t>& {
    sssp::cuda::launch_initialise_levels(s.level, source, block);
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
    return s.level;
  });
}

}  // namespace lab02
