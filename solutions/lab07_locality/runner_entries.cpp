// Lab 07's algorithms in the runner (common/runner/registry.hpp).
#include "lab07.hpp"
#include "registry.hpp"

namespace sssp::runner {

namespace {

lab07::Options tuned(lab07::Options o, const Tuning& t) {
  o.block_size = t.value_or("--block-size", o.block_size);
  o.depth = t.value_or("--depth", o.depth);
  o.vertices_per_thread = t.value_or("--vertices-per-thread", o.vertices_per_thread);
  return o;
}

// The defaults (k = 2, one vertex per thread: the best on road graphs on an
// H100), N learned from the warm-up runs; optionally the blind launches as a
// CUDA Graph.
lab07::Options locality(bool cuda_graph) {
  lab07::Options o;
  o.cuda_graph = cuda_graph;
  return o;
}

}  // namespace

void register_lab07_locality(Registry& registry) {
  registry.option("lab07", block_size_option());
  registry.option("lab07", {"--depth", "K", "k, the arcs a wave may go from its start", 0, ~0u});
  registry.option("lab07", {"--vertices-per-thread", "P", "vertices each thread owns", 0, ~0u});
  const std::vector<std::string> options = {"--block-size", "--depth", "--vertices-per-thread"};
  registry.add(gpu_solver<lab07::LocalitySssp>(
      "lab07/locality", "locality-based relaxation: k = 2 waves, 1 vertex per thread, learned blind launches",
      locality(false), options, tuned, lab07::validate));
  registry.add(gpu_solver<lab07::LocalitySssp>("lab07/locality-graph",
                                               "lab07/locality with the blind launches as one CUDA Graph",
                                               locality(true), options, tuned, lab07::validate));
}

}  // namespace sssp::runner
