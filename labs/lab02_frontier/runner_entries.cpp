// Lab 02's algorithms in the runner (common/runner/registry.hpp).
#include "lab02.hpp"
#include "registry.hpp"
#include "sssp/cuda/block_size.hpp"

namespace sssp::runner {

namespace {

void validate(const lab02::Options& o) { cuda::require_block_size(o.block_size); }

}  // namespace

void register_lab02_frontier(Registry& registry) {
  registry.option("lab02", block_size_option());
  registry.add(gpu_solver<lab02::FrontierSssp>("lab02/frontier-sssp",
                                               "Harish-Narayanan frontier SSSP: two kernels, host flag loop",
                                               lab02::Options{}, {"--block-size"}, tuned_launch, validate));
  registry.add(gpu_solver<lab02::FrontierBfs>("lab02/frontier-bfs",
                                              "frontier BFS: one kernel per level, host flag loop", lab02::Options{},
                                              {"--block-size"}, tuned_launch, validate));
}

}  // namespace sssp::runner
