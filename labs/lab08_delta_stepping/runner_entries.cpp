// Lab 08's algorithms in the runner (common/runner/registry.hpp).
#include <string>

#include "lab08.hpp"
#include "registry.hpp"
#include "sssp/cuda/block_size.hpp"
#include "sssp/errors.hpp"

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

// The constructors' checks (delta_stepping.cu, near_far.cu) on what the
// command line sets, so that the runner refuses a bad value before it loads
// the graph.
void validate_delta_stepping(const lab08::DeltaSteppingOptions& o) { cuda::require_block_size(o.block_size); }

void validate_near_far(const lab08::NearFarOptions& o) {
  cuda::require_block_size(o.block_size);
  if (o.rounds_per_check == 0) throw InputError("rounds per check must be at least 1, got 0");
  if (o.block_size % o.lanes_per_item != 0) {
    throw InputError("lanes per item must be a power of two up to 32 that divides the block size " +
                     std::to_string(o.block_size) + ", got " + std::to_string(o.lanes_per_item));
  }
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
      validate_delta_stepping));
  registry.add(gpu_solver<lab08::NearFarSssp>(
      "lab08/near-far", "Near-Far: near list and far pile, delta = 64 x avg weight / avg degree, GPU-driven",
      lab08::NearFarOptions{}, {"--block-size", "--rounds-per-check", "--delta"}, tuned<lab08::NearFarOptions>,
      validate_near_far));
}

}  // namespace sssp::runner
