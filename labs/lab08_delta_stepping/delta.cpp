// Lab 08 skeleton, generated from solutions/lab08_delta_stepping/delta.cpp by common/tools/make_skeleton.py.
// This file is yours: replace each SSSP_TODO with your code.
// Lab 08, task 1: choosing delta. Plain C++ that runs without a GPU: the
// three rules of Chen's section 5.6 and Near-Far's static C x W / D.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "lab08.hpp"
#include "sssp/errors.hpp"
#include "sssp/todo.hpp"

namespace lab08 {

using sssp::edge_t;

std::string to_string(DeltaRule rule) {
  switch (rule) {
    case DeltaRule::kMedianWeight: return "median-weight";
    case DeltaRule::kTotalWeightPerVertex: return "total-weight/n";
    case DeltaRule::kMaxWeightPerMaxDegree: return "max-weight/max-degree";
    case DeltaRule::kNearFar: return "near-far C*W/D";
  }
  return "unknown rule";
}

dist_t choose_delta(const CsrGraph& graph, DeltaRule rule, double c) {
  sssp::require_option(c > 0.0 && std::isfinite(c), "the constant C of the Near-Far delta", "a positive finite number",
                       c);
  dist_t delta = 1;
  // TODO(task 1): compute delta for `rule` (see DeltaRule and the handout):
  // the lower median weight, the weight total / n, the largest weight / the
  // largest out-degree, or C * (total / m) / (m / n). A graph without arcs
  // gets 1.
  SSSP_TODO(8, 1, "the four delta rules");
  return std::max<dist_t>(delta, 1);
}

}  // namespace lab08
