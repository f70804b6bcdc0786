// Lab 04 skeleton, generated from solutions/lab04_extract_min/dijkstra.cu by common/tools/make_skeleton.py.
// This file is yours: replace each SSSP_TODO with your code.
// Lab 04, tasks 6-7: Chen's Algorithm 1. Each round extracts the unsettled
// vertex of smallest tentative distance with the stage-5 arg-min, settles it,
// and relaxes its out-arcs in parallel.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "argmin.cuh"
#include "lab04.hpp"
#include "sssp/cuda/device_graph.cuh"
#include "sssp/cuda/event_timer.cuh"
#include "sssp/cuda/host_flag.cuh"
#include "sssp/errors.hpp"

namespace lab04 {

using sssp::edge_t;
using sssp::weight_t;
using sssp::cuda::DeviceBuffer;

namespace {

/// What the host reads back every few rounds.
struct RoundState {
  ArgMin extracted;     ///< The last round's arg-min; key kInfinity once nothing is left.
  std::uint32_t settled = 0;  ///< Vertices extracted so far.
};

// tentative[v] is the ExtractMin key: v's distance while v is in Q (Chen's
// queue), infinity once it is settled (and while it is unreached). dist[v]
// is written once, when v is settled.
__global__ void initialise(vertex_t n, vertex_t source, dist_t* tentative, dist_t* dist, RoundState* state) {
  const vertex_t v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v == 0) *state = RoundState{};
  if (v >= n) return;
  tentative[v] = v == source ? 0 : sssp::kInfinity;
  dist[v] = sssp::kInfinity;
}

// Algorithm 1 (b), ExtractMin: the stage-5 arg-min over tentative. The last
// block settles the winner: its distance is final, and taking it out of Q
// is setting its key to infinity. An infinite winner means Q holds only
// unreachable vertices: the round records it and settles nothing.
__global__ void extract_min(dist_t* tentative, vertex_t n, ArgMin* block_results, unsigned* blocks_done,
                            dist_t* dist, RoundState* state) {
  // Every block has read its keys before the last block writes one.
  lab04::device::grid_argmin(tentative, n, block_results, blocks_done,
                             [=](const ArgMin& found) {
                               state->extracted = found;
                               if (found.key == sssp::kInfinity) return;
                               dist[found.index] = found.key;
                               tentative[found.index] = sssp::kInfinity;
                               ++state->settled;
                             });
}

// Algorithm 1 (c), Relax: the threads of the grid share the out-arcs of the
// vertex just extracted. A settled head is skipped: its key must stay
// infinite, or it would come out of Q a second time.
__global__ void relax_extracted(const edge_t* __restrict__ offsets, const vertex_t* __restrict__ targets,
                                const weight_t* __restrict__ weights, const dist_t* __restrict__ dist,
                                dist_t* __restrict__ tentative, const RoundState* __restrict__ state) {
  const ArgMin u = state->extracted;
  if (u.key == sssp::kInfinity) return;  // nothing left to extract: a no-op round
  // TODO(task 6): the threads of the grid share arcs offsets[u.index] ..
  // offsets[u.index + 1] - 1 (grid-stride). For each arc to an unsettled
  // head v (dist[v] still infinite) offer u.key + w to tentative[v] with
  // sssp::cuda::atomic_min_dist.
  SSSP_DEVICE_TODO(4, 6, "relax the out-arcs of the extracted vertex in parallel (kernel)");
}

}  // namespace

struct ExtractMinDijkstra::Impl {
  sssp::cuda::DeviceCsr graph;
  DijkstraOptions options;
  DeviceBuffer<dist_t> tentative;
  DeviceBuffer<dist_t> dist;
  DeviceBuffer<ArgMin> block_results;
  DeviceBuffer<unsigned> blocks_done;
  sssp::cuda::DeviceWord<RoundState> state;
  unsigned extract_blocks = 1;
  unsigned relax_blocks = 1;

  Impl(const CsrGraph& g, DijkstraOptions o)
      : graph(g), options(o), tentative(g.num_vertices(), "tentative distances"), dist(g.num_vertices(), "distances") {
    device::require_reduction_block_size(options.block_size);
    if (options.rounds_per_check == 0) throw sssp::InputError("rounds_per_check must be at least 1");
    extract_blocks = std::min(device::one_wave_of_blocks(extract_min, options.block_size),
                              sssp::cuda::blocks_for(g.num_vertices(), options.block_size));
    block_results = DeviceBuffer<ArgMin>(extract_blocks, "block candidates");
    blocks_done = DeviceBuffer<unsigned>(1, "block counter");
    blocks_done.fill_bytes(0);
    // Enough threads for the largest out-degree, so a hub's arcs are relaxed
    // in one sweep; most rounds use only the first few threads.
    edge_t max_degree = 0;
    for (vertex_t u = 0; u < g.num_vertices(); ++u) max_degree = std::max(max_degree, g.out_degree(u));
    relax_blocks = std::min(device::one_wave_of_blocks(relax_extracted, options.block_size),
                            sssp::cuda::blocks_for(max_degree, options.block_size));
    SSSP_CUDA_CHECK(cudaStreamSynchronize(nullptr));
  }

  // One round of Algorithm 1: ExtractMin, then Relax.
  void launch_round(Counters& work) {
    const unsigned block = options.block_size;
    extract_min<<<extract_blocks, block>>>(tentative.data(), graph.num_vertices, block_results.data(),
                                           blocks_done.data(), dist.data(), state.device());
    SSSP_CUDA_CHECK_LAUNCH();
    relax_extracted<<<relax_blocks, block>>>(graph.offsets.data(), graph.targets.data(), graph.weights.data(),
                                             dist.data(), tentative.data(), state.device());
    SSSP_CUDA_CHECK_LAUNCH();
    work.kernel_launches += 2;
    ++work.iterations;
  }
};

ExtractMinDijkstra::ExtractMinDijkstra(const CsrGraph& graph, DijkstraOptions options)
    : impl_(std::make_unique<Impl>(graph, options)) {}

ExtractMinDijkstra::~ExtractMinDijkstra() = default;

std::vector<dist_t> ExtractMinDijkstra::run(vertex_t source, Counters* counters, double* device_ms) {
  Impl& s = *impl_;
  // TODO(task 7): reject a source that is not a vertex
  SSSP_TODO(4, 7, "reject a source that is not a vertex");
  const vertex_t n = s.graph.num_vertices;
  const unsigned block = s.options.block_size;
  Counters work;
  sssp::cuda::EventTimer timer;
  timer.start();
  initialise<<<sssp::cuda::blocks_for(n, block), block>>>(n, source, s.tentative.data(), s.dist.data(),
                                                          s.state.device());
  SSSP_CUDA_CHECK_LAUNCH();
  ++work.kernel_launches;
  RoundState state;
  // TODO(task 7): repeat: s.launch_round(work) rounds_per_check times, then
  // state = s.state.read(); stop once state.extracted.key is infinite.
  // Count host_syncs (launch_round counts launches and iterations).
  SSSP_TODO(4, 7, "the host loop, looking at the result every few rounds");
  timer.stop();
  const float ms = timer.elapsed_ms();
  SSSP_CHECK_DEVICE_TODO(4);
  work.vertices_processed = state.settled;
  if (counters != nullptr) *counters = work;
  if (device_ms != nullptr) *device_ms = ms;
  return s.dist.to_host();
}

}  // namespace lab04
