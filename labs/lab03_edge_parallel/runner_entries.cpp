// Lab 03's algorithms in the runner (common/runner/registry.hpp).
#include "lab03.hpp"
#include "registry.hpp"

namespace sssp::runner {

void register_lab03_edge_parallel(Registry& registry) {
  registry.option("lab03", block_size_option());
  registry.add(gpu_solver<lab03::EdgeBfs>("lab03/edge-bfs", "edge-parallel BFS: one thread per arc per level",
                                          lab03::Options{}, {"--block-size"}, tuned_launch, lab03::validate));
  registry.add(gpu_solver<lab03::EdgeDijkstra>(
      "lab03/edge-dijkstra", "edge-based Dijkstra: settle every vertex at the minimum, relax arc-parallel",
      lab03::Options{}, {"--block-size"}, tuned_launch, lab03::validate));
}

}  // namespace sssp::runner
