// Lab 09 autograder, GPU part: the solver tests' shared helpers (lab09_gpu_test.hpp).
#include "lab09_gpu_test.hpp"

#include <sstream>

#include "sssp/reference.hpp"

namespace lab09::test {

const char* const kHint =
    "ADDS: a worker skips an item already expanded at its current distance, offers dist + w along every arc with "
    "atomicMin, and an offer that wins must be expanded later: kept in the block's local list (same bucket, room "
    "left) or published into bucket_of(offer) (reserve with atomicAdd on resv, write, __threadfence, then add 1 "
    "to the segment's wcc). The manager may hand out only slots it knows are written: full segments (wcc == 32), "
    "or a partial one whose wcc matches resv reloaded after it";

std::string describe(const AddsOptions& o, dist_t used) {
  std::ostringstream text;
  text << "ADDS, delta ";
  if (o.delta == 0) {
    text << "C x W / D with C = " << o.c << " (the solver chose " << used << ")";
  } else if (o.delta == kHugeDelta) {
    text << "2^62 (one bucket holds everything)";
  } else {
    text << o.delta;
  }
  text << ", " << o.buckets << " buckets, " << o.max_open << " open, " << o.local_items << " local items, "
       << (o.dynamic_delta ? "dynamic" : "static") << " delta";
  if (o.workers != 0) text << ", " << o.workers << (o.workers == 1 ? " worker block" : " worker blocks");
  return text.str();
}

AddsOptions options(dist_t delta, unsigned max_open, unsigned local_items, bool dynamic, unsigned buckets,
                    unsigned workers) {
  AddsOptions o;
  o.delta = delta;
  o.max_open = max_open;
  o.local_items = local_items;
  o.dynamic_delta = dynamic;
  o.buckets = buckets;
  o.workers = workers;
  return o;
}

// Runs ADDS with `o` on each graph from `sources` sample sources (one solver
// per graph, so every run must reset the state of the previous one) and
// checks every answer.
void expect_correct(const std::vector<const NamedGraph*>& graphs, const AddsOptions& o, std::size_t sources) {
  for (const NamedGraph* g : graphs) {
    if (g->graph.num_vertices() == 0) continue;
    AddsSssp solver(g->graph, o);
    const std::string text = describe(o, solver.delta());
    for (const vertex_t source : sssp::test::sample_sources(g->graph, sources)) {
      sssp::test::announce_run(*g, source, text);
      ASSERT_TRUE(sssp::test::matches_reference_sssp(*g, source, solver.run(source).values, kHint)) << text;
    }
  }
}

void expect_correct(const std::vector<NamedGraph>& graphs, const AddsOptions& o, std::size_t sources) {
  expect_correct(sssp::test::pointers(graphs), o, sources);
}

NamedGraph named(std::string name, CsrGraph graph) { return {std::move(name), std::move(graph)}; }

std::vector<NamedGraph> generated_graphs() {
  std::vector<NamedGraph> graphs;
  for (const NamedGraph* g : sssp::test::graphs_of_kind(NamedGraph::Kind::kGenerated)) graphs.push_back(*g);
  return graphs;
}

NamedGraph generated(std::string name, const sssp::EdgeList& edges) {
  return named(std::move(name), sssp::to_csr(edges));
}

// Vertices with a finite reference distance from `source`, and the arcs leaving them.
std::pair<std::uint64_t, std::uint64_t> reached(const CsrGraph& g, vertex_t source) {
  const std::vector<dist_t> d = sssp::reference_dijkstra(g, source);
  std::uint64_t vertices = 0, arcs = 0;
  for (vertex_t v = 0; v < g.num_vertices(); ++v) {
    if (d[v] != sssp::kInfinity) {
      ++vertices;
      arcs += g.out_degree(v);
    }
  }
  return {vertices, arcs};
}

}  // namespace lab09::test
