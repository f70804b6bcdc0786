// Lab 04's algorithm in the runner (common/runner/registry.hpp).
#include <string>

#include "lab04.hpp"
#include "registry.hpp"

namespace sssp::runner {

void register_lab04_extract_min(Registry& registry) {
  registry.option("lab04", block_size_option());
  registry.option("lab04", rounds_per_check_option());
  registry.add(gpu_solver<lab04::ExtractMinDijkstra>(
      "lab04/extract-min-dijkstra", "Dijkstra with a reduction ExtractMin: one vertex per round, O(V^2/t)",
      lab04::DijkstraOptions{}, {"--block-size", "--rounds-per-check"}, tuned_launch, lab04::validate));
}

}  // namespace sssp::runner
