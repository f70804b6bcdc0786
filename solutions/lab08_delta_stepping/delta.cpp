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
  // BEGIN SOLUTION task 1: the four delta rules
  const std::uint64_t m = graph.num_edges();
  const std::uint64_t n = graph.num_vertices();
  if (m == 0) return 1;  // no arc to measure: any width works
  long double total = 0;
  for (const sssp::weight_t w : graph.weights) total += w;
  switch (rule) {
    case DeltaRule::kMedianWeight: {
      std::vector<sssp::weight_t> sorted(graph.weights.begin(), graph.weights.end());
      const auto middle = sorted.begin() + static_cast<std::ptrdiff_t>((m - 1) / 2);  // the lower middle
      std::nth_element(sorted.begin(), middle, sorted.end());
      delta = *middle;
      break;
    }
    case DeltaRule::kTotalWeightPerVertex: delta = static_cast<dist_t>(total / static_cast<long double>(n)); break;
    case DeltaRule::kMaxWeightPerMaxDegree: {
      edge_t max_degree = 0;
      for (vertex_t u = 0; u < n; ++u) max_degree = std::max(max_degree, graph.out_degree(u));
      delta = *std::max_element(graph.weights.begin(), graph.weights.end()) / max_degree;
      break;
    }
    case DeltaRule::kNearFar: {
      // W / D = (total / m) / (m / n); long double keeps total * n exact enough.
      const long double width = static_cast<long double>(c) * total * static_cast<long double>(n) /
                                (static_cast<long double>(m) * static_cast<long double>(m));
      // Beyond 2^62 every distance of the course fits one bucket anyway.
      delta = width >= 0x1p62L ? dist_t{1} << 62 : static_cast<dist_t>(width);
      break;
    }
  }
  // SKELETON
  // // TODO(task 1): compute delta for `rule` (see DeltaRule and the handout):
  // // the lower median weight, the weight total / n, the largest weight / the
  // // largest out-degree, or C * (total / m) / (m / n). A graph without arcs
  // // gets 1.
  // SSSP_TODO(8, 1, "the four delta rules");
  // END SOLUTION
  return std::max<dist_t>(delta, 1);
}

}  // namespace lab08
