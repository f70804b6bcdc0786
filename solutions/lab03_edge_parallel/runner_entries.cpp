// Lab 03's algorithms in the runner (common/runner/registry.hpp).
#include "lab03.hpp"
#include "registry.hpp"
#include "sssp/cuda/block_size.hpp"

namespace sssp::runner {

namespace {

void validate(const lab03::Options& o) { cuda::require_block_size(o.block_size); }

}  // namespace

void register_lab03_edge_parallel(Registry& registry) {
  registry.option("lab03", block_size_option());
  registry.add(gpu_solver<lab03::EdgeBfs>("lab03/edge-bfs", "edge-parallel BFS: one thread per arc per level",
                                          lab03::Options{}, {"--block-size"}, tuned_launch, validate));
  registry.add(gpu_solver<lab03::EdgeDijkstra>(
      "lab03/edge-dijkstra", "edge-based Dijkstra: settle every vertex at the minimum, relax arc-parallel",
      lab03::Options{}, {"--block-size"}, tuned_launch, validate));
}

}  // namespace sssp::runner
