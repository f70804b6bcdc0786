// Lab 02's algorithms in the runner (common/runner/registry.hpp).
#include "lab02.hpp"
#include "registry.hpp"

namespace sssp::runner {

void register_lab02_frontier(Registry& registry) {
  registry.option("lab02", block_size_option());
  registry.add(gpu_solver<lab02::FrontierSssp>("lab02/frontier-sssp",
                                               "Harish-Narayanan frontier SSSP: two kernels, host flag loop",
                                               lab02::Options{}, {"--block-size"}, tuned_launch, lab02::validate));
  registry.add(gpu_solver<lab02::FrontierBfs>("lab02/frontier-bfs",
                                              "frontier BFS: one kernel per level, host flag loop", lab02::Options{},
                                              {"--block-size"}, tuned_launch, lab02::validate));
}

}  // namespace sssp::runner
