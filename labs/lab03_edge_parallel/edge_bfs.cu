// Lab 03 skeleton, generated from solutions/lab03_edge_parallel/edge_bfs.cu by common/tools/make_skeleton.py.
// This file is yours: replace each SSSP_TODO with your code.
// Lab 03, tasks 1-2: level-synchronous BFS with one thread per arc.
#include <cstdint>
#include <string>

#include "lab03.hpp"
#include "sssp/cuda/device_graph.cuh"
#include "sssp/cuda/host_flag.cuh"
#include "sssp/cuda/kernels.cuh"
#include "sssp/cuda/timed_run.cuh"

namespace lab03 {

using sssp::Counters;
using sssp::cuda::DeviceBuffer;

namespace {

SSSP_DEVICE_TODO_STATE(3);

// One thread per arc tail -> head (a capped grid strides over the rest). An
// arc whose tail is on level `depth` gives an unreached head level depth + 1.
// Every arc is visited every level, whether its tail is in the frontier or
// not: perfect balance, at the price of E arc visits per level. Two arcs may
// reach one head at once and both write depth + 1: the same value, so the
// race is benign.
__global__ void expand_level_by_arcs(const vertex_t* __restrict__ tails, const vertex_t* __restrict__ heads,
                                     std::uint64_t num_arcs, level_t depth, level_t* __restrict__ level,
                                     unsigned* __restrict__ grew) {
  for (std::uint64_t e = sssp::cuda::global_thread_index(); e < num_arcs; e += sssp::cuda::grid_stride()) {
    // TODO(task 1): on return, if the tail of arc e is on level `depth`, its
    // head has a level of at most depth + 1; no vertex that had a level has a
    // new one; *grew is set if the head got its first level. An arc whose
    // tail is elsewhere changes nothing. Keep the reads of a warp few: what
    // must an arc read before it knows whether it matters?
    SSSP_DEVICE_TODO(3, 1, "expand one level, one thread per arc (kernel)");
  }
}

}  // namespace

struct EdgeBfs::Impl {
  Options options;
  sssp::cuda::DeviceCoo graph;
  DeviceBuffer<level_t> level;
  sssp::cuda::HostFlag grew;

  Impl(const CsrGraph& g, Options o)
      : options((validate(o), o)),
        graph((require_memory(g), g), /*with_weights=*/false),
        level(g.num_vertices(), "levels") {}

  static void require_memory(const CsrGraph& g) {
    sssp::cuda::require_free_memory(
        sssp::cuda::coo_device_bytes(g, /*with_weights=*/false) + sssp::cuda::device_bytes<level_t>(g.num_vertices()),
        "lab 03 edge-parallel BFS on " + sssp::describe(g));
  }
};

EdgeBfs::EdgeBfs(const CsrGraph& graph, Options options) : impl_(std::make_unique<Impl>(graph, options)) {}

EdgeBfs::~EdgeBfs() = default;

BfsResult EdgeBfs::run(vertex_t source) {
  Impl& s = *impl_;
  const vertex_t n = s.graph.num_vertices;
  const unsigned block = s.options.block_size;
  return sssp::cuda::timed_run<level_t>(device_todo(), source, n, [&](Counters& work) -> DeviceBuffer<level_t>& {
    sssp::cuda::launch_initialise_levels(s.level, source, block);
    ++work.kernel_launches;
    // TODO(task 2): on return s.level holds every vertex's level: levels are
    // expanded in order from 0, one launch over every arc each (the launch
    // policy of sssp/cuda/launch.cuh), until the first level that reaches no
    // new vertex, which is expanded too. Counters as lab03.hpp defines them;
    // every launch checked.
    SSSP_TODO(3, 2, "the host loop, one launch over every arc per level");
    return s.level;
  });
}

}  // namespace lab03
