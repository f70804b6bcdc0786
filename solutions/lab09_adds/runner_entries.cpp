// Lab 09's algorithms in the runner (common/runner/registry.hpp).
#include <string>

#include "lab09.hpp"
#include "registry.hpp"
#include "sssp/errors.hpp"

namespace sssp::runner {

namespace {

lab09::AddsOptions tuned(lab09::AddsOptions o, const Tuning& t) {
  o.delta = t.value_or("--delta", o.delta);
  return o;
}

// AddsSssp's constructor's check of delta (adds.cu). The option starts at 1:
// 0 would mean "pick it by the rule", as leaving --delta out already does.
void validate(const lab09::AddsOptions& o) {
  if (o.delta > (dist_t{1} << 62)) {
    throw InputError("ADDS: delta must be at most 2^62 (a wider bucket holds every distance anyway), got " +
                     std::to_string(o.delta));
  }
}

Algorithm adds(std::string name, std::string summary, bool dynamic_delta) {
  lab09::AddsOptions defaults;
  defaults.dynamic_delta = dynamic_delta;
  return gpu_solver<lab09::AddsSssp>(std::move(name), std::move(summary), defaults, {"--delta"}, tuned, validate);
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
