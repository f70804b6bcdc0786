#include "lab05_fixtures.hpp"

#include <algorithm>

namespace lab05::test {

using sssp::edge_t;

NamedGraph fit_for_matrix(const NamedGraph& g) {
  NamedGraph fitted = g;
  bool lowered = false;
  for (weight_t& w : fitted.graph.weights) {
    if (w == kNoEdge) {
      w = kNoEdge - 1;
      lowered = true;
    }
  }
  if (lowered) fitted.name += " (weights 2^32-1 made 2^32-2: 2^32-1 is lab 05's no-arc marker)";
  return fitted;
}

std::vector<NamedGraph> matrix_graphs(NamedGraph::Kind kind, vertex_t max_vertices) {
  std::vector<NamedGraph> out;
  for (const NamedGraph* g : sssp::test::graphs_of_kind(kind)) {
    if (g->graph.num_vertices() > 0 && g->graph.num_vertices() <= max_vertices) out.push_back(fit_for_matrix(*g));
  }
  return out;
}

ExpectedWork expected_work(const CsrGraph& graph, vertex_t source, Variant variant) {
  const vertex_t n = graph.num_vertices();
  const std::uint64_t limit = std::max<std::uint64_t>(1, n - 1);
  std::vector<dist_t> dist(n, sssp::kInfinity);
  std::vector<bool> active(n, false);
  dist[source] = 0;
  active[source] = true;
  ExpectedWork work;
  while (work.rounds < limit) {
    std::vector<dist_t> next = dist;
    for (vertex_t u = 0; u < n; ++u) {
      if (variant == Variant::kWorkEfficient && !active[u]) continue;
      ++work.rows_relaxed;
      if (dist[u] == sssp::kInfinity) continue;
      for (edge_t e = graph.offsets[u]; e < graph.offsets[u + 1]; ++e) {
        next[graph.targets[e]] = std::min(next[graph.targets[e]], dist[u] + graph.weights[e]);
      }
    }
    std::uint64_t lowered = 0;
    for (vertex_t v = 0; v < n; ++v) {
      active[v] = next[v] < dist[v];
      lowered += active[v] ? 1 : 0;
    }
    dist = std::move(next);
    work.lowered += lowered;
    ++work.rounds;
    if (variant == Variant::kWorkEfficient && lowered == 0) break;
  }
  return work;
}

::testing::AssertionResult did_expected_work(const NamedGraph& g, vertex_t source, Variant variant,
                                             const Counters& got, std::string_view hint) {
  const ExpectedWork want = expected_work(g.graph, source, variant);
  const vertex_t n = g.graph.num_vertices();
  auto fail = [&](const char* counter, std::uint64_t expected, std::uint64_t actual) {
    return ::testing::AssertionFailure()
           << "graph '" << g.name << "' (" << n << " vertices), source " << source << ", "
           << variant_name(variant) << " version: " << counter << " expected " << expected << ", got " << actual
           << "\n  hint: " << hint;
  };
  if (got.iterations != want.rounds) return fail("rounds (iterations)", want.rounds, got.iterations);
  if (got.vertices_processed != want.rows_relaxed) {
    return fail("rows relaxed (vertices_processed)", want.rows_relaxed, got.vertices_processed);
  }
  if (got.edges_relaxed != want.rows_relaxed * n) {
    return fail("matrix entries read (edges_relaxed = rows relaxed x |V|)", want.rows_relaxed * n, got.edges_relaxed);
  }
  if (got.distance_updates != want.lowered) {
    return fail("distances lowered (distance_updates)", want.lowered, got.distance_updates);
  }
  return ::testing::AssertionSuccess();
}

}  // namespace lab05::test
