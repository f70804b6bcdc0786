#include "lab05_fixtures.hpp"

#include <algorithm>

namespace lab05::test {

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
  const std::uint64_t n = graph.num_vertices();
  const std::uint64_t limit = std::max<std::uint64_t>(1, n - 1);
  const std::vector<std::uint64_t> lowered = sssp::test::lowered_per_synchronous_round(graph, source);
  ExpectedWork work;
  // Rounds past convergence lower nothing, so every lowering happens within the limit.
  for (const std::uint64_t count : lowered) work.lowered += count;
  if (variant == Variant::kNaive) {
    work.rounds = limit;
    work.rows_relaxed = limit * n;
  } else {
    // Round 1 relaxes the source's row, round r the rows lowered in round r - 1.
    work.rounds = std::min<std::uint64_t>(lowered.size(), limit);
    work.rows_relaxed = 1;
    for (std::uint64_t r = 0; r + 1 < work.rounds; ++r) work.rows_relaxed += lowered[r];
  }
  return work;
}

::testing::AssertionResult did_expected_work(const NamedGraph& g, vertex_t source, Variant variant, const Counters& got,
                                             std::string_view hint) {
  const ExpectedWork want = expected_work(g.graph, source, variant);
  const vertex_t n = g.graph.num_vertices();
  auto fail = [&](const char* counter, std::uint64_t expected, std::uint64_t actual) {
    return ::testing::AssertionFailure() << "graph '" << g.name << "' (" << n << " vertices), source " << source << ", "
                                         << variant_name(variant) << " version: " << counter << " expected " << expected
                                         << ", got " << actual << "\n  hint: " << hint;
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
