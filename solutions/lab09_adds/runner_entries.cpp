// Lab 09's algorithms in the runner (common/runner/registry.hpp).
#include <string>

#include "lab09.hpp"
#include "registry.hpp"

namespace sssp::runner {

namespace {

Algorithm adds(std::string name, std::string summary, bool dynamic_delta) {
  lab09::AddsOptions defaults;
  defaults.dynamic_delta = dynamic_delta;
  return gpu_solver<lab09::AddsSssp>(std::move(name), std::move(summary), defaults, {"--delta"}, tuned_launch,
                                     lab09::validate);
}

}  // namespace

void register_lab09_adds(Registry& registry) {
  registry.option("lab09", delta_option());
  registry.add(adds("lab09/adds",
                    "ADDS: one persistent launch, manager warp and worker blocks, 32-bucket queue, static delta",
                    false));
  registry.add(adds("lab09/adds-dynamic", "lab09/adds with the manager moving delta (task 5's controller)", true));
}

}  // namespace sssp::runner
