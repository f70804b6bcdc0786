// Lab 04's algorithm in the runner (common/runner/registry.hpp).
#include <string>

#include "lab04.hpp"
#include "registry.hpp"
#include "sssp/errors.hpp"

namespace sssp::runner {

namespace {

lab04::DijkstraOptions tuned(lab04::DijkstraOptions o, const Tuning& t) {
  o.block_size = t.value_or("--block-size", o.block_size);
  o.rounds_per_check = t.value_or("--rounds-per-check", o.rounds_per_check);
  return o;
}

// ExtractMinDijkstra's constructor's checks (dijkstra.cu, with argmin.cuh's
// require_reduction_block_size, which a .cpp file cannot include), so that
// the runner refuses a bad value before it loads the graph.
void validate(const lab04::DijkstraOptions& o) {
  const unsigned b = o.block_size;
  if (b < 32 || b > 1024 || (b & (b - 1)) != 0) {
    throw InputError("the arg-min reduction needs a block size that is a power of two from 32 to 1024, got " +
                     std::to_string(b));
  }
  if (o.rounds_per_check == 0) throw InputError("rounds_per_check must be at least 1");
}

}  // namespace

void register_lab04_extract_min(Registry& registry) {
  registry.option("lab04", block_size_option());
  registry.option("lab04", {"--rounds-per-check", "N", "rounds launched between two looks at the result", 0, ~0u});
  registry.add(gpu_solver<lab04::ExtractMinDijkstra>(
      "lab04/extract-min-dijkstra", "Dijkstra with a reduction ExtractMin: one vertex per round, O(V^2/t)",
      lab04::DijkstraOptions{}, {"--block-size", "--rounds-per-check"}, tuned, validate));
}

}  // namespace sssp::runner
