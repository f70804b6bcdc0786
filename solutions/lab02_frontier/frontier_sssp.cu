// Lab 02, tasks 1-3: the Harish-Narayanan frontier SSSP. Two kernels per
// iteration, a mask of frontier vertices, and a host loop on a flag.
#include <cstdint>
#include <string>

#include "lab02.hpp"
#include "sssp/cuda/device_graph.cuh"
#include "sssp/cuda/host_flag.cuh"
#include "sssp/cuda/timed_run.cuh"

namespace lab02 {

using sssp::Counters;
using sssp::edge_t;
using sssp::weight_t;
using sssp::cuda::DeviceBuffer;

namespace {

SSSP_DEVICE_TODO_STATE(2);

// Every vertex unreached, not in the frontier; the source at 0 and in it.
__global__ void initialise(vertex_t n, vertex_t source, dist_t* cost, dist_t* updating_cost, std::uint8_t* mask) {
  for (std::uint64_t v = sssp::cuda::global_thread_index(); v < n; v += sssp::cuda::grid_stride()) {
    const bool is_source = v == source;
    cost[v] = is_source ? 0 : sssp::kInfinity;
    updating_cost[v] = cost[v];
    mask[v] = is_source;
  }
}

// Algorithm 4: each frontier vertex u leaves the frontier and offers
// cost[u] + w to each out-neighbour's updating cost. Several frontier vertices
// can offer to one neighbour at once, hence atomicMin. Only updating_cost is
// written, and only cost is read, so no thread sees a half-finished round.
__global__ void relax_frontier(const edge_t* __restrict__ offsets, const vertex_t* __restrict__ targets,
                               const weight_t* __restrict__ weights, vertex_t n, std::uint8_t* __restrict__ mask,
                               const dist_t* __restrict__ cost, dist_t* __restrict__ updating_cost) {
  for (std::uint64_t u = sssp::cuda::global_thread_index(); u < n; u += sssp::cuda::grid_stride()) {
    if (!mask[u]) continue;
    // BEGIN SOLUTION task 1: relax the out-arcs of a frontier vertex (kernel 1)
    mask[u] = 0;
    const dist_t du = cost[u];  // finite: only reached vertices enter the frontier
    const edge_t end = offsets[u + 1];
    for (edge_t e = offsets[u]; e < end; ++e) {
      const dist_t candidate = du + weights[e];
      // Reading first skips most atomics: on road graphs the offer usually loses.
      if (candidate < updating_cost[targets[e]]) {
        sssp::cuda::atomic_min_dist(&updating_cost[targets[e]], candidate);
      }
    }
    // SKELETON
    // // TODO(task 1): u is in the frontier. On return u is out of it, and for
    // // every out-arc u -> v of weight w, updating_cost[v] <= cost[u] + w,
    // // however many other frontier vertices offer to v in this launch (argue
    // // why no offer can be lost). Touch no arc of another vertex, and read
    // // nothing past the arrays.
    // SSSP_DEVICE_TODO(2, 1, "relax the out-arcs of a frontier vertex (kernel 1)");
    // END SOLUTION
  }
}

// Algorithm 5: a vertex whose updating cost beat its cost takes it, joins the
// next frontier and raises the flag. updating_cost never exceeds cost (it
// starts equal and only atomicMin lowers it), so after the commit the two are
// equal again without a second write.
__global__ void commit_updates(vertex_t n, dist_t* __restrict__ cost, dist_t* __restrict__ updating_cost,
                               std::uint8_t* __restrict__ mask, unsigned* __restrict__ changed) {
  for (std::uint64_t v = sssp::cuda::global_thread_index(); v < n; v += sssp::cuda::grid_stride()) {
    // BEGIN SOLUTION task 2: commit improved distances and build the next frontier (kernel 2)
    const dist_t offered = updating_cost[v];
    if (offered < cost[v]) {
      cost[v] = offered;
      mask[v] = 1;
      *changed = 1;  // every writer stores the same value: no atomic needed
    }
    // SKELETON
    // // TODO(task 2): on return cost[v] is the smaller of cost[v] and
    // // updating_cost[v], v is in the next frontier exactly when its cost
    // // dropped, and *changed is set if it did (it is never cleared here).
    // // Argue whether the flag needs an atomic.
    // SSSP_DEVICE_TODO(2, 2, "commit improved distances and build the next frontier (kernel 2)");
    // END SOLUTION
  }
}

}  // namespace

void validate(const Options& options) { sssp::cuda::require_block_size(options.block_size); }

struct FrontierSssp::Impl {
  Options options;
  sssp::cuda::DeviceCsr graph;
  DeviceBuffer<dist_t> cost;
  DeviceBuffer<dist_t> updating_cost;
  DeviceBuffer<std::uint8_t> mask;
  sssp::cuda::HostFlag changed;

  Impl(const CsrGraph& g, Options o)
      : options((validate(o), o)),
        graph((require_memory(g), g)),
        cost(g.num_vertices(), "cost"),
        updating_cost(g.num_vertices(), "updating cost"),
        mask(g.num_vertices(), "frontier mask") {}

  static void require_memory(const CsrGraph& g) {
    const std::uint64_t n = g.num_vertices();
    sssp::cuda::require_free_memory(sssp::cuda::csr_device_bytes(g) + sssp::cuda::device_bytes<dist_t>(2 * n) +
                                        sssp::cuda::device_bytes<std::uint8_t>(n),
                                    "lab 02 frontier SSSP on " + sssp::describe(g));
  }
};

FrontierSssp::FrontierSssp(const CsrGraph& graph, Options options) : impl_(std::make_unique<Impl>(graph, options)) {}

FrontierSssp::~FrontierSssp() = default;

SsspResult FrontierSssp::run(vertex_t source) {
  Impl& s = *impl_;
  const vertex_t n = s.graph.num_vertices;
  const unsigned block = s.options.block_size;
  const unsigned grid = sssp::cuda::grid_for(n, block);
  return sssp::cuda::timed_run<dist_t>(device_todo(), source, n, [&](Counters& work) -> DeviceBuffer<dist_t>& {
    initialise<<<grid, block>>>(n, source, s.cost.data(), s.updating_cost.data(), s.mask.data());
    SSSP_CUDA_CHECK_LAUNCH();
    ++work.kernel_launches;
    // BEGIN SOLUTION task 3: the host loop (Algorithm 3)
    // Each iteration: clear the flag, relax the frontier, commit, and read the
    // flag back. The read is the host round trip that lab 07 learns to avoid.
    do {
      ++work.iterations;
      s.changed.clear();
      relax_frontier<<<grid, block>>>(s.graph.offsets.data(), s.graph.targets.data(), s.graph.weights.data(), n,
                                      s.mask.data(), s.cost.data(), s.updating_cost.data());
      SSSP_CUDA_CHECK_LAUNCH();
      commit_updates<<<grid, block>>>(n, s.cost.data(), s.updating_cost.data(), s.mask.data(), s.changed.device());
      SSSP_CUDA_CHECK_LAUNCH();
      work.kernel_launches += 2;
      ++work.host_syncs;
    } while (s.changed.read());
    // SKELETON
    // // TODO(task 3): Algorithm 3. On return s.cost holds the distances: the
    // // loop ends after the first iteration that lowers no distance, and no
    // // earlier (argue why that iteration proves nothing more will change).
    // // Counters as lab02.hpp defines them; every launch checked.
    // SSSP_TODO(2, 3, "the host loop (Algorithm 3)");
    // END SOLUTION
    return s.cost;
  });
}

}  // namespace lab02
