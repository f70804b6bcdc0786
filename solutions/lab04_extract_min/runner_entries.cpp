// Lab 04's algorithm in the runner (common/runner/registry.hpp).
#include <string>

#include "lab04.hpp"
#include "registry.hpp"

namespace sssp::runner {

namespace {

lab04::DijkstraOptions tuned(lab04::DijkstraOptions o, const Tuning& t) {
  o.block_size = t.value_or("--block-size", o.block_size);
  o.rounds_per_check = t.value_or("--rounds-per-check", o.rounds_per_check);
  return o;
}

}  // namespace

void register_lab04_extract_min(Registry& registry) {
  registry.option("lab04", block_size_option());
  registry.option("lab04", {"--rounds-per-check", "N", "rounds launched between two looks at the result", 0, ~0u});
  registry.add(gpu_solver<lab04::ExtractMinDijkstra>(
      "lab04/extract-min-dijkstra", "Dijkstra with a reduction ExtractMin: one vertex per round, O(V^2/t)",
      lab04::DijkstraOptions{}, {"--block-size", "--rounds-per-check"}, tuned, lab04::validate));
}

}  // namespace sssp::runner
