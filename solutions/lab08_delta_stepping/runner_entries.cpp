// Lab 08's algorithms in the runner (common/runner/registry.hpp).
#include <string>

#include "lab08.hpp"
#include "registry.hpp"

namespace sssp::runner {

void register_lab08_delta_stepping(Registry& registry) {
  registry.option("lab08", block_size_option());
  registry.option("lab08", rounds_per_check_option());
  registry.option("lab08", delta_option());
  registry.add(gpu_solver<lab08::DeltaSteppingSssp>(
      "lab08/delta-stepping",
      "Chen's delta-stepping: bucket indices, prefix-sum requests, delta = max weight / max out-degree",
      lab08::DeltaSteppingOptions{}, {"--block-size", "--delta"}, tuned_launch, lab08::validate));
  registry.add(gpu_solver<lab08::NearFarSssp>(
      "lab08/near-far", "Near-Far: near list and far pile, delta = 64 x avg weight / avg degree, GPU-driven",
      lab08::NearFarOptions{}, {"--block-size", "--rounds-per-check", "--delta"}, tuned_launch, lab08::validate));
}

}  // namespace sssp::runner
