// Tests of the graders' reference Dijkstra and BFS against hand-computed
// answers and against an independent naive Bellman-Ford.
#include <gtest/gtest.h>

#include <tuple>
#include <vector>

#include "sssp/errors.hpp"
#include "sssp/generators.hpp"
#include "sssp/reference.hpp"
#include "sssp_test.hpp"

namespace sssp {
namespace {

constexpr dist_t kInf = kInfinity;
constexpr level_t kUnr = kUnreached;

using test::hand_graph;

// CLRS figure 24.6 (s, t, x, y, z = 0..4) plus vertex 5, which only points in.
CsrGraph clrs() {
  return hand_graph(6, {{0, 1, 10},
                        {0, 3, 5},
                        {1, 2, 1},
                        {1, 3, 2},
                        {3, 1, 3},
                        {3, 2, 9},
                        {3, 4, 2},
                        {2, 4, 4},
                        {4, 2, 6},
                        {4, 0, 7},
                        {5, 0, 1}});
}

// Textbook Bellman-Ford over all arcs, independent of the code under test.
std::vector<dist_t> bellman_ford(const CsrGraph& g, vertex_t source) {
  std::vector<dist_t> d(g.num_vertices(), kInf);
  d[source] = 0;
  for (vertex_t round = 0; round < g.num_vertices(); ++round) {
    bool changed = false;
    for (vertex_t u = 0; u < g.num_vertices(); ++u) {
      if (d[u] == kInf) continue;
      for (edge_t i = 0; i < g.out_degree(u); ++i) {
        const vertex_t v = g.neighbors(u)[i];
        if (d[u] + g.neighbor_weights(u)[i] < d[v]) {
          d[v] = d[u] + g.neighbor_weights(u)[i];
          changed = true;
        }
      }
    }
    if (!changed) break;
  }
  return d;
}

std::vector<vertex_t> sources_of(const CsrGraph& g) {
  const vertex_t n = g.num_vertices();
  return {0, n / 3, n / 2, n - 1};
}

TEST(ReferenceDijkstra, ClrsExample) {
  const CsrGraph g = clrs();
  EXPECT_EQ(reference_dijkstra(g, 0), (std::vector<dist_t>{0, 8, 9, 5, 7, kInf}));
  EXPECT_EQ(reference_dijkstra(g, 3), (std::vector<dist_t>{9, 3, 4, 0, 2, kInf}));
  EXPECT_EQ(reference_dijkstra(g, 5), (std::vector<dist_t>{1, 9, 10, 6, 8, 0}));
}

TEST(ReferenceBfs, ClrsExample) {
  const CsrGraph g = clrs();
  EXPECT_EQ(reference_bfs(g, 0), (std::vector<level_t>{0, 1, 2, 1, 2, kUnr}));
  EXPECT_EQ(reference_bfs(g, 5), (std::vector<level_t>{1, 2, 3, 2, 3, 0}));
}

TEST(ReferenceDijkstra, ZeroWeights) {
  const CsrGraph g = hand_graph(5, {{0, 1, 0}, {1, 2, 0}, {0, 2, 5}, {2, 3, 0}, {3, 4, 7}, {4, 4, 0}});
  EXPECT_EQ(reference_dijkstra(g, 0), (std::vector<dist_t>{0, 0, 0, 0, 7}));
  EXPECT_EQ(reference_bfs(g, 0), (std::vector<level_t>{0, 1, 1, 2, 3}));
}

TEST(ReferenceDijkstra, SelfLoopsAndParallelArcs) {
  const CsrGraph g =
      hand_graph(3, {{0, 0, 0}, {0, 1, 9}, {0, 1, 4}, {0, 1, 7}, {1, 1, 1}, {1, 2, 3}, {1, 2, 2}, {2, 0, 1}});
  EXPECT_EQ(reference_dijkstra(g, 0), (std::vector<dist_t>{0, 4, 6}));
  EXPECT_EQ(reference_dijkstra(g, 2), (std::vector<dist_t>{1, 5, 0}));
  EXPECT_EQ(reference_bfs(g, 0), (std::vector<level_t>{0, 1, 2}));
}

TEST(ReferenceDijkstra, SingleVertexAndIsolatedSource) {
  const CsrGraph one = hand_graph(1, {});
  EXPECT_EQ(reference_dijkstra(one, 0), (std::vector<dist_t>{0}));
  EXPECT_EQ(reference_bfs(one, 0), (std::vector<level_t>{0}));
  const CsrGraph loop = hand_graph(1, {{0, 0, 5}});
  EXPECT_EQ(reference_dijkstra(loop, 0), (std::vector<dist_t>{0}));
  const CsrGraph isolated = hand_graph(3, {{1, 2, 1}, {2, 0, 1}});
  EXPECT_EQ(reference_dijkstra(isolated, 0), (std::vector<dist_t>{0, kInf, kInf}));
  EXPECT_EQ(reference_bfs(isolated, 0), (std::vector<level_t>{0, kUnr, kUnr}));
}

TEST(ReferenceDijkstra, MaximumWeightsOnALongChainNeedAll64Bits) {
  constexpr weight_t kMax = 4294967295U;
  const CsrGraph g = to_csr(make_chain(100000, WeightPolicy::uniform(kMax, kMax, 1)));
  const std::vector<dist_t> d = reference_dijkstra(g, 0);
  ASSERT_EQ(d.size(), 100000U);
  for (vertex_t v = 0; v < 100000; ++v) ASSERT_EQ(d[v], dist_t{v} * kMax) << "vertex " << v;
  EXPECT_EQ(d.back(), 429492434532705ULL);  // 99999 * 4294967295
  EXPECT_EQ(reference_bfs(g, 0).back(), 99999U);
  // From the middle, the earlier half is unreachable.
  const std::vector<dist_t> mid = reference_dijkstra(g, 50000);
  EXPECT_EQ(mid[49999], kInf);
  EXPECT_EQ(mid[99999], dist_t{49999} * kMax);
}

TEST(ReferenceDijkstra, InvalidSourceThrows) {
  const CsrGraph g = clrs();
  EXPECT_THROW((void)reference_dijkstra(g, 6), InvalidSource);
  EXPECT_THROW((void)reference_bfs(g, 6), InvalidSource);
  EXPECT_THROW((void)reference_dijkstra(g, 4000000000U), InvalidSource);
  EXPECT_THROW((void)reference_dijkstra(hand_graph(0, {}), 0), InvalidSource);
  EXPECT_THROW((void)reference_bfs(hand_graph(0, {}), 0), InvalidSource);
}

TEST(ReferenceCrossCheck, UnitWeightDijkstraEqualsBfsLevels) {
  for (const std::uint64_t seed : {1ULL, 2ULL, 3ULL}) {
    for (const EdgeList& e :
         {make_uniform_random(400, 900, WeightPolicy::unit(), seed), make_rmat(9, 4, WeightPolicy::unit(), seed)}) {
      const CsrGraph g = to_csr(e);
      for (const vertex_t s : sources_of(g)) {
        const std::vector<dist_t> d = reference_dijkstra(g, s);
        const std::vector<level_t> level = reference_bfs(g, s);
        for (vertex_t v = 0; v < g.num_vertices(); ++v) {
          const dist_t as_distance = level[v] == kUnr ? kInf : level[v];
          ASSERT_EQ(d[v], as_distance) << e.name << ", source " << s << ", vertex " << v;
        }
      }
    }
  }
}

TEST(ReferenceCrossCheck, DijkstraEqualsNaiveBellmanFord) {
  const std::vector<EdgeList> graphs = {
      make_uniform_random(200, 1000, WeightPolicy::uniform(0, 20, 1), 4),
      make_uniform_random(300, 600, WeightPolicy::uniform(1, 1000000, 2), 5),  // sparse: some unreachable
      make_rmat(8, 8, WeightPolicy::uniform(1, 100, 3), 6),
      make_grid(10, 12, WeightPolicy::uniform(1, 9, 4)),
      make_grid(6, 6, WeightPolicy::uniform(0, 1, 5)),
      make_complete(20, WeightPolicy::uniform(1, 50, 6)),
      make_star(50, WeightPolicy::uniform(1, 10, 7)),
      make_uniform_random(100, 500, WeightPolicy::uniform(4294967000U, 4294967295U, 8), 9)};
  for (const EdgeList& e : graphs) {
    const CsrGraph g = to_csr(e);
    for (const vertex_t s : sources_of(g)) {
      EXPECT_EQ(reference_dijkstra(g, s), bellman_ford(g, s)) << e.name << ", source " << s;
    }
  }
}

}  // namespace
}  // namespace sssp
