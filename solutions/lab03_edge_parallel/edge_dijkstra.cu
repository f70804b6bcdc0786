// Lab 03, tasks 3-6: edge-based Dijkstra. Each round finds the smallest
// tentative distance among unsettled vertices, settles every vertex at it, and
// relaxes their out-arcs with one thread per arc.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>

#include "lab03.hpp"
#include "sssp/cuda/device_graph.cuh"
#include "sssp/cuda/host_flag.cuh"
#include "sssp/cuda/timed_run.cuh"
#include "sssp/errors.hpp"

namespace lab03 {

using sssp::Counters;
using sssp::weight_t;
using sssp::cuda::DeviceBuffer;
namespace cg = cooperative_groups;

namespace {

SSSP_DEVICE_TODO_STATE(3);

/// settled_round[v] of a vertex not settled yet.
constexpr std::uint32_t kNotSettled = std::numeric_limits<std::uint32_t>::max();

__global__ void initialise(vertex_t n, vertex_t source, dist_t* dist, std::uint32_t* settled_round, dist_t* round_min) {
  if (sssp::cuda::global_thread_index() == 0) *round_min = sssp::kInfinity;
  for (std::uint64_t v = sssp::cuda::global_thread_index(); v < n; v += sssp::cuda::grid_stride()) {
    dist[v] = v == source ? 0 : sssp::kInfinity;
    settled_round[v] = kNotSettled;
  }
}

// Figure 3's first parallel loop: the smallest tentative distance among
// unsettled vertices, into *round_min (which the previous round reset to
// infinity). Settled vertices and unreached ones offer infinity. Task 3
// includes the grid-stride loop, because its reduction follows the loop.
__global__ void find_round_minimum(vertex_t n, const dist_t* __restrict__ dist,
                                   const std::uint32_t* __restrict__ settled_round, dist_t* round_min) {
  // BEGIN SOLUTION task 3: the smallest tentative distance of an unsettled vertex (kernel)
  // Each thread folds its own vertices first; one with none offers infinity.
  dist_t mine = sssp::kInfinity;
  for (std::uint64_t v = sssp::cuda::global_thread_index(); v < n; v += sssp::cuda::grid_stride()) {
    if (settled_round[v] == kNotSettled && dist[v] < mine) mine = dist[v];
  }
  // One atomic per warp, not per vertex: the warp agrees on its minimum by
  // shuffles first. coalesced_threads() names exactly the lanes present: it
  // covers a last warp only partly inside the block (block sizes that are not
  // multiples of 32), and lanes that leave the loop apart and have not
  // reconverged (each such group lowers *round_min on its own, still right).
  const cg::coalesced_group warp = cg::coalesced_threads();
  const dist_t warp_min = cg::reduce(warp, mine, cg::less<dist_t>());
  // Reading first skips the atomic for most warps: few hold a new minimum.
  if (warp.thread_rank() == 0 && warp_min < *round_min) sssp::cuda::atomic_min_dist(round_min, warp_min);
  // SKELETON
  // // TODO(task 3): after every thread of the launch has returned, *round_min
  // // is the smallest dist[v] over the unsettled vertices v < n (kNotSettled),
  // // or stays infinite if there is none, for any grid and block size (the
  // // grid-stride loop over the vertices is yours: see sssp/cuda/launch.cuh).
  // // Correct first, then fast: how few atomics can a launch issue, and which
  // // threads are sure to be present when they combine their values?
  // SSSP_DEVICE_TODO(3, 3, "the smallest tentative distance of an unsettled vertex (kernel)");
  // END SOLUTION
}

// Settles every unsettled vertex whose distance is the round's minimum: no
// later round can lower it, since every unsettled distance is at least
// `minimum` and weights are not negative. Recording the round, not just
// "settled", lets the relax kernel pick exactly this round's vertices.
__global__ void settle_round_minimum(vertex_t n, const dist_t* __restrict__ dist,
                                     std::uint32_t* __restrict__ settled_round, std::uint32_t round, dist_t minimum,
                                     dist_t* round_min) {
  // The next round's find_round_minimum starts from infinity. Nothing reads
  // *round_min in this kernel or the next (the host passed `minimum` by
  // value), so one thread resets it here instead of a separate memset.
  if (sssp::cuda::global_thread_index() == 0) *round_min = sssp::kInfinity;
  for (std::uint64_t v = sssp::cuda::global_thread_index(); v < n; v += sssp::cuda::grid_stride()) {
    // BEGIN SOLUTION task 4: settle every vertex at the round's minimum (kernel)
    if (settled_round[v] == kNotSettled && dist[v] == minimum) settled_round[v] = round;
    // SKELETON
    // // TODO(task 4): on return v is settled in `round` if it was unsettled at
    // // the round's minimum (argue why its distance is final), and nothing else
    // // of v has changed.
    // SSSP_DEVICE_TODO(3, 4, "settle every vertex at the round's minimum (kernel)");
    // END SOLUTION
  }
}

// Figure 4, one thread per arc: an arc whose tail was settled this round
// offers minimum + w to its head. Many arcs may offer to one head at once,
// hence atomicMin. A settled head never changes: its distance is at most
// `minimum`, so the offer loses.
__global__ void relax_settled_arcs(const vertex_t* __restrict__ tails, const vertex_t* __restrict__ heads,
                                   const weight_t* __restrict__ weights, std::uint64_t num_arcs,
                                   const std::uint32_t* __restrict__ settled_round, std::uint32_t round, dist_t minimum,
                                   dist_t* __restrict__ dist) {
  for (std::uint64_t e = sssp::cuda::global_thread_index(); e < num_arcs; e += sssp::cuda::grid_stride()) {
    // BEGIN SOLUTION task 5: relax the out-arcs of this round's vertices, one thread per arc (kernel)
    if (settled_round[tails[e]] != round) continue;
    const vertex_t head = heads[e];
    const dist_t candidate = minimum + weights[e];  // the tail's distance is the round's minimum
    if (candidate < dist[head]) sssp::cuda::atomic_min_dist(&dist[head], candidate);
    // SKELETON
    // // TODO(task 5): on return, if the tail of arc e was settled in this round,
    // // dist of its head is at most the tail's distance plus the arc's weight,
    // // however many arcs offer to that head at once; arcs of other tails change
    // // nothing. Which value is the tail's distance, without reading it?
    // SSSP_DEVICE_TODO(3, 5, "relax the out-arcs of this round's vertices, one thread per arc (kernel)");
    // END SOLUTION
  }
}

}  // namespace

void validate(const Options& options) { sssp::cuda::require_block_size(options.block_size); }

struct EdgeDijkstra::Impl {
  Options options;
  sssp::cuda::DeviceCoo graph;
  DeviceBuffer<dist_t> dist;
  DeviceBuffer<std::uint32_t> settled_round;
  sssp::cuda::DeviceWord<dist_t> round_min;
  /// Round minimums read in this run (read_round_minimum).
  std::uint64_t minimum_reads = 0;

  Impl(const CsrGraph& g, Options o)
      : options((validate(o), o)),
        graph((require_memory(g), g)),
        dist(g.num_vertices(), "distances"),
        settled_round(g.num_vertices(), "settled rounds") {}

  static void require_memory(const CsrGraph& g) {
    const std::uint64_t n = g.num_vertices();
    sssp::cuda::require_free_memory(sssp::cuda::coo_device_bytes(g) + sssp::cuda::device_bytes<dist_t>(n) +
                                        sssp::cuda::device_bytes<std::uint32_t>(n),
                                    "lab 03 edge-parallel Dijkstra on " + sssp::describe(g));
  }

  /// Waits for find_round_minimum and returns the round's minimum. A right
  /// loop reads it at most n + 1 times (every round settles a vertex, then
  /// the minimum is infinite), so a further read means a round settled
  /// nothing and the loop would never end: it names an unfinished kernel, if
  /// one ran, else throws sssp::AlgorithmError.
  dist_t read_round_minimum() {
    const dist_t minimum = round_min.read();
    if (++minimum_reads > std::uint64_t{graph.num_vertices} + 1) {
      device_todo().check();
      throw sssp::AlgorithmError("edge-based Dijkstra: round " + std::to_string(minimum_reads - 1) + " on a graph of " +
                                 std::to_string(graph.num_vertices) +
                                 " vertices, and every right round settles one: a round settled nothing (does "
                                 "find_round_minimum skip settled vertices, and does settle_round_minimum "
                                 "settle every unsettled vertex at the minimum?)");
    }
    return minimum;
  }
};

EdgeDijkstra::EdgeDijkstra(const CsrGraph& graph, Options options) : impl_(std::make_unique<Impl>(graph, options)) {}

EdgeDijkstra::~EdgeDijkstra() = default;

SsspResult EdgeDijkstra::run(vertex_t source) {
  Impl& s = *impl_;
  const vertex_t n = s.graph.num_vertices;
  const unsigned block = s.options.block_size;
  const unsigned vertex_blocks = sssp::cuda::grid_for(n, block);
  const unsigned arc_blocks = sssp::cuda::grid_for(s.graph.num_edges, block);
  SsspResult result =
      sssp::cuda::timed_run<dist_t>(device_todo(), source, n, [&](Counters& work) -> DeviceBuffer<dist_t>& {
        initialise<<<vertex_blocks, block>>>(n, source, s.dist.data(), s.settled_round.data(), s.round_min.device());
        SSSP_CUDA_CHECK_LAUNCH();
        ++work.kernel_launches;
        s.minimum_reads = 0;
        // BEGIN SOLUTION task 6: the host loop, one round per distinct settled distance
        // The host needs each round's minimum to know when to stop (infinity: the
        // rest is unreachable), and passes it to the next two kernels by value.
        for (std::uint32_t round = 0;; ++round) {
          find_round_minimum<<<vertex_blocks, block>>>(n, s.dist.data(), s.settled_round.data(), s.round_min.device());
          SSSP_CUDA_CHECK_LAUNCH();
          ++work.kernel_launches;
          ++work.host_syncs;
          const dist_t minimum = s.read_round_minimum();
          if (minimum == sssp::kInfinity) break;
          ++work.iterations;
          settle_round_minimum<<<vertex_blocks, block>>>(n, s.dist.data(), s.settled_round.data(), round, minimum,
                                                         s.round_min.device());
          SSSP_CUDA_CHECK_LAUNCH();
          relax_settled_arcs<<<arc_blocks, block>>>(s.graph.tails.data(), s.graph.heads.data(), s.graph.weights.data(),
                                                    s.graph.num_edges, s.settled_round.data(), round, minimum,
                                                    s.dist.data());
          SSSP_CUDA_CHECK_LAUNCH();
          work.kernel_launches += 2;
        }
        // SKELETON
        // // TODO(task 6): on return s.dist holds the distances: rounds run, each
        // // settling the unsettled vertices at its minimum and relaxing their
        // // arcs, until the minimum read back (s.read_round_minimum(), the only
        // // way to read it) is infinite. Counters as lab03.hpp defines them (an
        // // iteration is a round that settled something); every launch checked.
        // SSSP_TODO(3, 6, "the host loop, one round per distinct settled distance");
        // END SOLUTION
        return s.dist;
      });
  // Every reached vertex was settled before the minimum became infinite.
  result.counters.vertices_processed = static_cast<std::uint64_t>(
      std::count_if(result.values.begin(), result.values.end(), [](dist_t d) { return d != sssp::kInfinity; }));
  return result;
}

}  // namespace lab03
