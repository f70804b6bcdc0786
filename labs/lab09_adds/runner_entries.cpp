// Lab 09's algorithms in the runner (common/runner/registry.hpp).
#include <string>

#include "lab09.hpp"
#include "registry.hpp"

namespace sssp::runner {

namespace {

// The option starts at 1: 0 would mean "pick it by the rule", as leaving
// --delta out already does. lab09::validate checks the rest.
lab09::AddsOptions tuned(lab09::AddsOptions o, const Tuning& t) {
  o.delta = t.value_or("--delta", o.delta);
  return o;
}

Algorithm adds(std::string name, std::string summary, bool dynamic_delta) {
  lab09::AddsOptions defaults;
  defaults.dynamic_delta = dynamic_delta;
  return gpu_solver<lab09::AddsSssp>(std::move(name), std::move(summary), defaults, {"--delta"}, tuned, lab09::validate);
}

}  // namespace

void register_lab09_adds(Registry& registry) {
  registry.option("lab09", {"--delta", "N", "the bucket width (default: each solver's rule)", 1, ~std::uint64_t{0}});
  registry.add(adds("lab09/adds",
                    "ADDS: one persistent launch, manager warp and worker blocks, 32-bucket queue, static delta",
                    false));
  registry.add(adds("lab09/adds-dynamic", "lab09/adds with the manager moving delta (task 5's controller)", true));
}

}  // namespace sssp::runner
