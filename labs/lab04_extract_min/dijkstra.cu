// Lab 04 skeleton, generated from solutions/lab04_extract_min/dijkstra.cu by common/tools/make_skeleton.py.
// This file is yours: replace each SSSP_TODO with your code.
// Lab 04, tasks 6-7: Chen's Algorithm 1. Each round extracts the unsettled
// vertex of smallest tentative distance with the stage-5 arg-min, settles it,
// and relaxes its out-arcs in parallel.
#include <algorithm>
#include <cstdint>
#include <string>

#include "lab04.hpp"
#include "sssp/cuda/device_graph.cuh"
#include "sssp/cuda/host_flag.cuh"
#include "sssp/cuda/timed_run.cuh"
#include "sssp/errors.hpp"

// This file's device-TODO word, defined before argmin.cuh, whose stubs write it too.
SSSP_DEVICE_TODO_STATE_IN(4, {4, "argmin.cuh"}, {5, "argmin.cuh"});

#include "argmin.cuh"

namespace lab04 {

using sssp::edge_t;
using sssp::weight_t;
using sssp::cuda::DeviceBuffer;

namespace {

/// What the host reads back every few rounds.
struct RoundState {
  ArgMin extracted;           ///< The last round's arg-min; key kInfinity once nothing is left.
  std::uint32_t settled = 0;  ///< Vertices extracted so far.
};

// tentative[v] is the ExtractMin key: v's distance while v is in Q (Chen's
// queue), infinity once it is settled (and while it is unreached). dist[v]
// is written once, when v is settled.
__global__ void initialise(vertex_t n, vertex_t source, dist_t* tentative, dist_t* dist, RoundState* state) {
  if (sssp::cuda::global_thread_index() == 0) *state = RoundState{};
  for (std::uint64_t v = sssp::cuda::global_thread_index(); v < n; v += sssp::cuda::grid_stride()) {
    tentative[v] = v == source ? 0 : sssp::kInfinity;
    dist[v] = sssp::kInfinity;
  }
}

// Algorithm 1 (b), ExtractMin: the stage-5 arg-min over tentative. The last
// block settles the winner: its distance is final, and taking it out of Q
// is setting its key to infinity. An infinite winner means Q holds only
// unreachable vertices: the round records it and settles nothing.
__global__ void extract_min(dist_t* tentative, vertex_t n, ArgMin* block_results, unsigned* blocks_done, dist_t* dist,
                            RoundState* state) {
  // Writing a key in the launch that reads the keys is safe: every block's
  // reads happen before its ticket, and the last block writes after drawing.
  lab04::device::grid_argmin(tentative, n, block_results, blocks_done, [=](const ArgMin& found) {
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
  // TODO(task 6): after the launch, for every out-arc u -> v of weight w
  // whose head is unsettled, tentative[v] <= u.key + w, whatever the grid
  // size and however many arcs reach v; a settled head keeps its infinite
  // key. Each arc is handled once, by the threads of the whole grid.
  SSSP_DEVICE_TODO(4, 6, "relax the out-arcs of the extracted vertex in parallel (kernel)");
}

}  // namespace

void validate(const DijkstraOptions& o) {
  device::require_reduction_block_size(o.block_size);
  sssp::require_option(o.rounds_per_check != 0, "rounds per check", "at least 1", o.rounds_per_check);
}

struct ExtractMinDijkstra::Impl {
  DijkstraOptions options;
  sssp::cuda::DeviceCsr graph;
  DeviceBuffer<dist_t> tentative;
  DeviceBuffer<dist_t> dist;
  DeviceBuffer<ArgMin> block_results;
  DeviceBuffer<unsigned> blocks_done;
  sssp::cuda::DeviceWord<RoundState> state;
  unsigned extract_blocks = 1;
  unsigned relax_blocks = 1;

  Impl(const CsrGraph& g, DijkstraOptions o)
      : options((validate(o), o)),
        graph((require_memory(g), g)),
        tentative(g.num_vertices(), "tentative distances"),
        dist(g.num_vertices(), "distances") {
    extract_blocks = std::min(sssp::cuda::resident_grid(extract_min, options.block_size),
                              sssp::cuda::grid_for(g.num_vertices(), options.block_size));
    block_results = DeviceBuffer<ArgMin>(extract_blocks, "block candidates");
    blocks_done = DeviceBuffer<unsigned>(1, "block counter");
    blocks_done.fill_bytes(0);
    // Enough threads for the largest out-degree, so a hub's arcs are relaxed
    // in one sweep; most rounds use only the first few threads.
    edge_t max_degree = 0;
    for (vertex_t u = 0; u < g.num_vertices(); ++u) max_degree = std::max(max_degree, g.out_degree(u));
    relax_blocks = std::min(sssp::cuda::resident_grid(relax_extracted, options.block_size),
                            sssp::cuda::grid_for(max_degree, options.block_size));
    SSSP_CUDA_CHECK(cudaStreamSynchronize(nullptr));
  }

  static void require_memory(const CsrGraph& g) {
    sssp::cuda::require_free_memory(
        sssp::cuda::csr_device_bytes(g) + sssp::cuda::device_bytes<dist_t>(2 * std::uint64_t{g.num_vertices()}),
        "lab 04 ExtractMin Dijkstra on " + sssp::describe(g));
  }

  // One round of Algorithm 1: ExtractMin, then Relax.
  void launch_round(Counters& work) {
    // A vertex comes out of Q once, so a right host loop ends within
    // num_vertices + rounds_per_check rounds. A Relax that lets a settled
    // vertex back into Q, or a loop that does not stop at the first infinite
    // minimum, never ends: say so at twice that bound (slack for a loop that
    // looks a little late) instead of running until a timeout. An unfinished
    // kernel is reported first: it may be the reason.
    const std::uint64_t most_rounds = 2 * (std::uint64_t{graph.num_vertices} + options.rounds_per_check);
    if (work.iterations >= most_rounds) {
      device_todo().check();
      throw sssp::AlgorithmError("ExtractMin Dijkstra: " + std::to_string(most_rounds) + " rounds on a graph of " +
                                 std::to_string(graph.num_vertices) + " vertices, where a right loop needs at most " +
                                 std::to_string(most_rounds / 2) +
                                 ": either a settled vertex came out of Q again "
                                 "(does Relax skip settled heads?) or the host loop does not stop at the first "
                                 "infinite minimum");
    }
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

SsspResult ExtractMinDijkstra::run(vertex_t source) {
  Impl& s = *impl_;
  const vertex_t n = s.graph.num_vertices;
  const unsigned block = s.options.block_size;
  return sssp::cuda::timed_run<dist_t>(device_todo(), source, n, [&](Counters& work) -> DeviceBuffer<dist_t>& {
    initialise<<<sssp::cuda::grid_for(n, block), block>>>(n, source, s.tentative.data(), s.dist.data(),
                                                          s.state.device());
    SSSP_CUDA_CHECK_LAUNCH();
    ++work.kernel_launches;
    RoundState state;
    // TODO(task 7): on return `state` is the round state read back last, and
    // its extracted key is infinite: the host looks only once every
    // s.options.rounds_per_check rounds (s.launch_round, which counts the
    // launches and iterations) and stops at the first look that finds Q
    // empty of reachable vertices. Count host_syncs.
    SSSP_TODO(4, 7, "the host loop, looking at the result every few rounds");
    work.vertices_processed = state.settled;
    return s.dist;
  });
}

}  // namespace lab04
