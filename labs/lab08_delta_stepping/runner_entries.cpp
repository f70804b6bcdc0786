// Lab 08's algorithms in the runner (common/runner/registry.hpp).
#include <string>

#include "lab08.hpp"
#include "registry.hpp"

namespace sssp::runner {

namespace {

template <typename Options>
Options tuned(Options o, const Tuning& t) {
  o.block_size = t.value_or("--block-size", o.block_size);
  o.delta = t.value_or("--delta", o.delta);
  if constexpr (requires { o.rounds_per_check; }) {
    o.rounds_per_check = t.value_or("--rounds-per-check", o.rounds_per_check);
  }
  return o;
}

}  // namespace

void register_lab08_delta_stepping(Registry& registry) {
  registry.option("lab08", block_size_option());
  registry.option("lab08", {"--rounds-per-check", "N", "rounds launched between two looks at the result", 0, ~0u});
  registry.option("lab08", {"--delta", "N", "the bucket width (default: each solver's rule)", 1, ~std::uint64_t{0}});
  registry.add(gpu_solver<lab08::DeltaSteppingSssp>(
      "lab08/delta-stepping",
      "Chen's delta-stepping: bucket indices, prefix-sum requests, delta = max weight / max out-degree",
      lab08::DeltaSteppingOptions{}, {"--block-size", "--delta"}, tuned<lab08::DeltaSteppingOptions>,
      lab08::validate));
  registry.add(gpu_solver<lab08::NearFarSssp>(
      "lab08/near-far", "Near-Far: near list and far pile, delta = 64 x avg weight / avg degree, GPU-driven",
      lab08::NearFarOptions{}, {"--block-size", "--rounds-per-check", "--delta"}, tuned<lab08::NearFarOptions>,
      lab08::validate));
}

}  // namespace sssp::runner
