// Tests of the deterministic generators and of generate()'s spec parsing.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "sssp/errors.hpp"
#include "sssp/generators.hpp"

namespace sssp {
namespace {

using Pair = std::pair<vertex_t, vertex_t>;

std::set<Pair> arc_set(const EdgeList& e) {
  std::set<Pair> arcs;
  for (std::size_t i = 0; i < e.src.size(); ++i) arcs.emplace(e.src[i], e.dst[i]);
  return arcs;
}

void expect_same_graph(const EdgeList& a, const EdgeList& b) {
  EXPECT_EQ(a.num_vertices, b.num_vertices);
  EXPECT_EQ(a.src, b.src);
  EXPECT_EQ(a.dst, b.dst);
  EXPECT_EQ(a.weight, b.weight);
}

bool same_arcs(const EdgeList& a, const EdgeList& b) {
  return a.src == b.src && a.dst == b.dst && a.weight == b.weight;
}

// Out-degree plus in-degree of every vertex.
std::vector<std::uint64_t> total_degrees(const EdgeList& e) {
  std::vector<std::uint64_t> degree(e.num_vertices, 0);
  for (std::size_t i = 0; i < e.src.size(); ++i) {
    ++degree[e.src[i]];
    ++degree[e.dst[i]];
  }
  return degree;
}

vertex_t max_degree_vertex(const EdgeList& e) {
  const auto degree = total_degrees(e);
  return static_cast<vertex_t>(std::max_element(degree.begin(), degree.end()) - degree.begin());
}

// Both arcs of each undirected pair exist, with one weight. Returns the number of pairs.
std::size_t expect_symmetric_pairs(const EdgeList& e) {
  std::map<Pair, std::vector<weight_t>> by_edge;
  for (std::size_t i = 0; i < e.src.size(); ++i) {
    by_edge[{std::min(e.src[i], e.dst[i]), std::max(e.src[i], e.dst[i])}].push_back(e.weight[i]);
  }
  for (const auto& [edge, weights] : by_edge) {
    EXPECT_EQ(weights.size(), 2U) << "edge {" << edge.first << ", " << edge.second << "}";
    if (weights.size() == 2) {
      EXPECT_EQ(weights[0], weights[1]) << "edge {" << edge.first << ", " << edge.second << "}";
    }
  }
  return by_edge.size();
}

const WeightPolicy kWeights = WeightPolicy::uniform(1, 100, 7);

TEST(GeneratorsGrid, TwoByThreeExactArcs) {
  const EdgeList e = make_grid(2, 3, WeightPolicy::unit());
  // 0 1 2
  // 3 4 5
  const std::set<Pair> expected = {{0, 1}, {1, 0}, {1, 2}, {2, 1}, {3, 4}, {4, 3}, {4, 5},
                                   {5, 4}, {0, 3}, {3, 0}, {1, 4}, {4, 1}, {2, 5}, {5, 2}};
  EXPECT_EQ(e.num_vertices, 6U);
  EXPECT_EQ(e.num_edges(), 14U);
  EXPECT_EQ(arc_set(e), expected);
  EXPECT_NO_THROW(e.validate());
}

TEST(GeneratorsGrid, ArcCountFormula) {
  for (const auto& [r, c] : std::vector<Pair>{{1, 1}, {1, 5}, {7, 1}, {2, 2}, {13, 11}, {40, 3}}) {
    const EdgeList e = make_grid(r, c, kWeights);
    EXPECT_EQ(e.num_vertices, r * c);
    EXPECT_EQ(e.num_edges(), 2 * (r * (c - 1) + c * (r - 1))) << r << "x" << c;
    EXPECT_EQ(arc_set(e).size(), e.num_edges()) << "no parallel arcs";
    EXPECT_NO_THROW(e.validate());
  }
  EXPECT_EQ(make_grid(0, 5, kWeights).num_vertices, 0U);
  EXPECT_EQ(make_grid(0, 5, kWeights).num_edges(), 0U);
}

TEST(GeneratorsGrid, NeighboursAreAdjacentCells) {
  const vertex_t cols = 11;
  const EdgeList e = make_grid(13, cols, kWeights);
  for (std::size_t i = 0; i < e.src.size(); ++i) {
    const vertex_t u = e.src[i];
    const vertex_t v = e.dst[i];
    const vertex_t dr = u / cols > v / cols ? u / cols - v / cols : v / cols - u / cols;
    const vertex_t dc = u % cols > v % cols ? u % cols - v % cols : v % cols - u % cols;
    EXPECT_EQ(dr + dc, 1U) << u << " -> " << v;
  }
  for (const std::uint64_t d : total_degrees(e)) EXPECT_LE(d, 8U);  // <= 4 out + 4 in
}

TEST(GeneratorsGrid, BothDirectionsShareOneWeightInRange) {
  const auto weights = WeightPolicy::uniform(10, 1000, 5);
  const EdgeList e = make_grid(9, 7, weights);
  EXPECT_EQ(expect_symmetric_pairs(e), e.num_edges() / 2);
  // Undirected edge k has weight_of(k): the weights are those values, each twice.
  std::vector<weight_t> expected;
  for (std::uint64_t k = 0; k < e.num_edges() / 2; ++k) {
    expected.push_back(weights.weight_of(k));
    expected.push_back(weights.weight_of(k));
  }
  std::vector<weight_t> got = e.weight;
  std::sort(expected.begin(), expected.end());
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, expected);
  EXPECT_GE(*std::min_element(got.begin(), got.end()), 10U);
  EXPECT_LE(*std::max_element(got.begin(), got.end()), 1000U);
  EXPECT_GT(std::set<weight_t>(got.begin(), got.end()).size(), 10U) << "weights should vary";
}

TEST(GeneratorsGrid, RejectsTooManyVertices) {
  EXPECT_THROW((void)make_grid(100000, 100000, kWeights), InputError);
  EXPECT_THROW((void)make_grid(kMaxVertices, 2, kWeights), InputError);
}

TEST(GeneratorsGrid, NameDescribesGraphAndWeights) {
  EXPECT_EQ(make_grid(13, 11, kWeights).name, "grid 13x11 (uniform:1:100:7)");
  EXPECT_EQ(make_grid(2, 2, WeightPolicy::unit()).name, "grid 2x2 (unit)");
}

TEST(GeneratorsChain, ExactArcsAndWeights) {
  const EdgeList e = make_chain(5, kWeights);
  EXPECT_EQ(e.num_vertices, 5U);
  EXPECT_EQ(e.src, (std::vector<vertex_t>{0, 1, 2, 3}));
  EXPECT_EQ(e.dst, (std::vector<vertex_t>{1, 2, 3, 4}));
  for (std::uint64_t i = 0; i < 4; ++i) EXPECT_EQ(e.weight[i], kWeights.weight_of(i));
  EXPECT_NE(e.name.find("chain 5"), std::string::npos) << e.name;
  EXPECT_EQ(make_chain(1, kWeights).num_edges(), 0U);
  EXPECT_EQ(make_chain(1, kWeights).num_vertices, 1U);
  EXPECT_EQ(make_chain(0, kWeights).num_vertices, 0U);
}

TEST(GeneratorsStar, ExactArcsAndSharedWeights) {
  const EdgeList e = make_star(5, kWeights);
  EXPECT_EQ(e.num_vertices, 5U);
  EXPECT_EQ(e.num_edges(), 8U);
  EXPECT_EQ(arc_set(e), (std::set<Pair>{{0, 1}, {1, 0}, {0, 2}, {2, 0}, {0, 3}, {3, 0}, {0, 4}, {4, 0}}));
  EXPECT_EQ(expect_symmetric_pairs(e), 4U);
  const auto degree = total_degrees(e);
  EXPECT_EQ(degree[0], 8U);
  for (vertex_t leaf = 1; leaf < 5; ++leaf) EXPECT_EQ(degree[leaf], 2U);
  EXPECT_EQ(make_star(1, kWeights).num_edges(), 0U);
  EXPECT_EQ(make_star(2, kWeights).num_edges(), 2U);
  EXPECT_THROW((void)make_star(kMaxVertices, kWeights), InputError);  // 2 (n - 1) > kMaxEdges
}

TEST(GeneratorsComplete, CountsAndNoSelfLoops) {
  for (const vertex_t n : {0U, 1U, 2U, 6U, 24U}) {
    const EdgeList e = make_complete(n, kWeights);
    EXPECT_EQ(e.num_vertices, n);
    EXPECT_EQ(e.num_edges(), n == 0 ? 0 : n * (n - 1));
    const std::set<Pair> arcs = arc_set(e);
    EXPECT_EQ(arcs.size(), e.num_edges()) << "each ordered pair exactly once";
    for (const auto& [u, v] : arcs) EXPECT_NE(u, v) << "self-loop at " << u;
    for (std::size_t i = 0; i < e.weight.size(); ++i) EXPECT_EQ(e.weight[i], kWeights.weight_of(i));
  }
}

TEST(GeneratorsComplete, RejectsTooManyArcsBeforeAllocating) {
  // 65537 * 65536 = 4295032832 > kMaxEdges = 4294967295.
  EXPECT_THROW((void)make_complete(65537, kWeights), InputError);
  EXPECT_THROW((void)make_complete(kMaxVertices, kWeights), InputError);
}

TEST(GeneratorsRandom, EndpointsInRangeAndWeightsByIndex) {
  const auto weights = WeightPolicy::uniform(3, 9, 1);
  const EdgeList e = make_uniform_random(50, 2000, weights, 4);
  EXPECT_EQ(e.num_vertices, 50U);
  EXPECT_EQ(e.num_edges(), 2000U);
  EXPECT_NO_THROW(e.validate());
  for (std::size_t i = 0; i < e.weight.size(); ++i) EXPECT_EQ(e.weight[i], weights.weight_of(i));
  // 4000 uniform endpoints over 50 vertices: every vertex is hit, none hugely often.
  const auto degree = total_degrees(e);
  EXPECT_GT(*std::min_element(degree.begin(), degree.end()), 20U);
  EXPECT_LT(*std::max_element(degree.begin(), degree.end()), 160U);
}

TEST(GeneratorsRandom, EdgeCases) {
  EXPECT_EQ(make_uniform_random(7, 0, kWeights, 1).num_edges(), 0U);
  EXPECT_EQ(make_uniform_random(0, 0, kWeights, 1).num_vertices, 0U);
  const EdgeList one = make_uniform_random(1, 10, kWeights, 1);
  for (std::size_t i = 0; i < one.src.size(); ++i) EXPECT_EQ(Pair(one.src[i], one.dst[i]), Pair(0, 0));
  EXPECT_THROW((void)make_uniform_random(0, 1, kWeights, 1), InputError);
  EXPECT_THROW((void)make_uniform_random(10, kMaxEdges + 1, kWeights, 1), InputError);
}

TEST(GeneratorsDeterminism, SameSeedSameGraph) {
  expect_same_graph(make_uniform_random(300, 1500, kWeights, 3), make_uniform_random(300, 1500, kWeights, 3));
  expect_same_graph(make_rmat(9, 8, kWeights, 5), make_rmat(9, 8, kWeights, 5));
  expect_same_graph(make_grid(13, 11, kWeights), make_grid(13, 11, kWeights));
  expect_same_graph(make_complete(9, kWeights), make_complete(9, kWeights));
}

TEST(GeneratorsDeterminism, DifferentSeedDifferentGraph) {
  EXPECT_FALSE(same_arcs(make_uniform_random(300, 1500, kWeights, 3), make_uniform_random(300, 1500, kWeights, 4)));
  EXPECT_FALSE(same_arcs(make_rmat(9, 8, kWeights, 5), make_rmat(9, 8, kWeights, 6)));
  // The weight seed changes the weights, not the topology.
  const EdgeList a = make_grid(5, 5, WeightPolicy::uniform(1, 1000, 1));
  const EdgeList b = make_grid(5, 5, WeightPolicy::uniform(1, 1000, 2));
  EXPECT_EQ(a.src, b.src);
  EXPECT_EQ(a.dst, b.dst);
  EXPECT_NE(a.weight, b.weight);
}

TEST(GeneratorsDeterminism, PinnedValues) {
  // The same graph on every platform: these arcs follow from splitmix64 alone
  // (checked against an independent Python model of the stream). If they
  // change, every recorded result of the course changes with them.
  const EdgeList e = make_uniform_random(1000, 4, WeightPolicy::unit(), 42);
  EXPECT_EQ(e.src, (std::vector<vertex_t>{465, 588, 64, 691}));
  EXPECT_EQ(e.dst, (std::vector<vertex_t>{115, 215, 692, 901}));
  const EdgeList r = make_rmat(3, 1, WeightPolicy::unit(), 1);
  EXPECT_EQ(r.src, (std::vector<vertex_t>{7, 1, 1, 0, 7, 1, 1, 2}));
  EXPECT_EQ(r.dst, (std::vector<vertex_t>{1, 6, 0, 0, 2, 1, 4, 2}));
}

TEST(GeneratorsRmat, SizesAndValidity) {
  const EdgeList e = make_rmat(9, 8, kWeights, 5);
  EXPECT_EQ(e.num_vertices, 512U);
  EXPECT_EQ(e.num_edges(), 4096U);
  EXPECT_NO_THROW(e.validate());
  for (std::size_t i = 0; i < e.weight.size(); ++i) EXPECT_EQ(e.weight[i], kWeights.weight_of(i));
  const EdgeList tiny = make_rmat(0, 3, kWeights, 5);
  EXPECT_EQ(tiny.num_vertices, 1U);
  EXPECT_EQ(tiny.num_edges(), 3U);
  EXPECT_NE(e.name.find("rmat scale 9"), std::string::npos) << e.name;
  EXPECT_NE(e.name.find("uniform:1:100:7"), std::string::npos) << e.name;
}

TEST(GeneratorsRmat, DegreesAreSkewed) {
  const EdgeList e = make_rmat(14, 16, WeightPolicy::unit(), 1);
  EXPECT_EQ(e.num_vertices, 16384U);
  EXPECT_EQ(e.num_edges(), 16U * 16384U);
  const auto degree = total_degrees(e);
  const double average = 2.0 * e.num_edges() / e.num_vertices;
  const auto max_degree = *std::max_element(degree.begin(), degree.end());
  EXPECT_GT(static_cast<double>(max_degree), 10 * average)
      << "R-MAT should have hubs: max degree " << max_degree << ", average " << average;
  const auto isolated = std::count(degree.begin(), degree.end(), 0U);
  EXPECT_GT(isolated, 0) << "power-law graphs leave many vertices without arcs";
}

TEST(GeneratorsRmat, HubIsScrambledAwayFromVertexZero) {
  std::set<vertex_t> hubs;
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    hubs.insert(max_degree_vertex(make_rmat(10, 16, WeightPolicy::unit(), seed)));
  }
  EXPECT_GT(hubs.size(), 1U) << "the hub should move with the seed";
  EXPECT_FALSE(hubs.size() == 1 && *hubs.begin() == 0) << "hub always at vertex 0: not scrambled";
}

TEST(GeneratorsRmat, ParametersSteerTheQuadrants) {
  // a = 1: every arc descends into the top-left quadrant, i.e. the same self-loop.
  const EdgeList all_a = make_rmat(6, 4, kWeights, 3, {1.0, 0.0, 0.0});
  ASSERT_EQ(all_a.num_edges(), 256U);
  for (std::size_t i = 0; i < all_a.src.size(); ++i) {
    EXPECT_EQ(all_a.src[i], all_a.src[0]);
    EXPECT_EQ(all_a.dst[i], all_a.src[0]);
  }
  // d = 0 with a + b + c == 1 is accepted.
  EXPECT_NO_THROW((void)make_rmat(5, 2, kWeights, 3, {0.25, 0.25, 0.5}));
  EXPECT_NO_THROW((void)make_rmat(5, 2, kWeights, 3, {0.5, 0.3, 0.2}));
}

TEST(GeneratorsRmat, RejectsBadParameters) {
  EXPECT_THROW((void)make_rmat(5, 2, kWeights, 1, {-0.1, 0.5, 0.5}), InputError);
  EXPECT_THROW((void)make_rmat(5, 2, kWeights, 1, {0.5, -0.1, 0.1}), InputError);
  EXPECT_THROW((void)make_rmat(5, 2, kWeights, 1, {0.5, 0.1, -0.1}), InputError);
  EXPECT_THROW((void)make_rmat(5, 2, kWeights, 1, {0.6, 0.3, 0.3}), InputError);
  EXPECT_THROW((void)make_rmat(5, 2, kWeights, 1, {std::nan(""), 0.1, 0.1}), InputError);
  EXPECT_THROW((void)make_rmat(31, 1, kWeights, 1), InputError);
  EXPECT_THROW((void)make_rmat(64, 1, kWeights, 1), InputError);
  // 4 * 2^30 = 2^32 arcs > kMaxEdges: rejected before anything is allocated.
  EXPECT_THROW((void)make_rmat(30, 4, kWeights, 1), InputError);
  EXPECT_THROW((void)make_rmat(20, std::numeric_limits<unsigned>::max(), kWeights, 1), InputError);
  try {
    (void)make_rmat(5, 2, kWeights, 1, {0.6, 0.3, 0.3});
    FAIL() << "accepted a + b + c = 1.2";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("a + b + c <= 1"), std::string::npos) << e.what();
  }
}

TEST(GeneratorSpec, EveryFamilyMatchesItsFunction) {
  const std::uint64_t seed = 9;
  expect_same_graph(generate("grid:2x3", kWeights, seed), make_grid(2, 3, kWeights));
  expect_same_graph(generate("grid:13x11", kWeights, seed), make_grid(13, 11, kWeights));
  expect_same_graph(generate("random:50:200", kWeights, seed), make_uniform_random(50, 200, kWeights, seed));
  expect_same_graph(generate("random:50:0", kWeights, seed), make_uniform_random(50, 0, kWeights, seed));
  expect_same_graph(generate("rmat:6", kWeights, seed), make_rmat(6, 16, kWeights, seed));
  expect_same_graph(generate("rmat:6:4", kWeights, seed), make_rmat(6, 4, kWeights, seed));
  expect_same_graph(generate("rmat:0:1", kWeights, seed), make_rmat(0, 1, kWeights, seed));
  expect_same_graph(generate("chain:10", kWeights, seed), make_chain(10, kWeights));
  expect_same_graph(generate("star:10", kWeights, seed), make_star(10, kWeights));
  expect_same_graph(generate("complete:5", kWeights, seed), make_complete(5, kWeights));
  EXPECT_EQ(generate("grid:13x11", kWeights, seed).name, "grid 13x11 (uniform:1:100:7)");
  EXPECT_EQ(generate("rmat:6", kWeights, seed).num_edges(), 16U * 64U) << "default edge factor 16";
}

TEST(GeneratorSpec, SeedOnlyMattersForRandomFamilies) {
  EXPECT_FALSE(same_arcs(generate("random:50:200", kWeights, 1), generate("random:50:200", kWeights, 2)));
  EXPECT_FALSE(same_arcs(generate("rmat:8", kWeights, 1), generate("rmat:8", kWeights, 2)));
  expect_same_graph(generate("grid:4x4", kWeights, 1), generate("grid:4x4", kWeights, 2));
}

TEST(GeneratorSpec, MalformedSpecsThrowInputErrorQuotingTheSpec) {
  const std::vector<std::string> bad = {"",
                                        ":",
                                        "grid",
                                        "grid:",
                                        "grid:3",
                                        "grid:3x",
                                        "grid:x3",
                                        "grid:0x5",
                                        "grid:5x0",
                                        "grid:3x4x5",
                                        "grid:3x4:1",
                                        "grid:-3x4",
                                        "grid:+3x4",
                                        "grid:3X4",
                                        "grid: 3x4",
                                        "grid:3x4 ",
                                        "grid:3.5x4",
                                        "grid:100000x100000",
                                        "grid:4294967296x1",
                                        "grid:99999999999999999999x1",
                                        "random",
                                        "random:10",
                                        "random:10:",
                                        "random::5",
                                        "random:0:5",
                                        "random:10:5:1",
                                        "random:10:4294967296",
                                        "random:a:b",
                                        "random:10:-1",
                                        "rmat",
                                        "rmat:",
                                        "rmat:31",
                                        "rmat:64",
                                        "rmat:-1",
                                        "rmat:10:0",
                                        "rmat:30:4",
                                        "rmat:10:16:1",
                                        "rmat:1.5",
                                        "rmat:10:",
                                        "rmat:10:4294967296",
                                        "chain",
                                        "chain:0",
                                        "chain:",
                                        "chain:5:5",
                                        "chain:99999999999",
                                        "chain:abc",
                                        "chain:5x",
                                        "star:0",
                                        "star:4294967295",
                                        "star:",
                                        "star:1:2",
                                        "complete:0",
                                        "complete:65537",
                                        "complete:5:1",
                                        "complete:",
                                        "torus:5",
                                        "GRID:3x4",
                                        "grid3x4",
                                        "Chain:5",
                                        " chain:5"};
  for (const std::string& spec : bad) {
    try {
      (void)generate(spec, kWeights, 1);
      ADD_FAILURE() << "spec '" << spec << "' was accepted";
    } catch (const InputError& e) {
      const std::string message = e.what();
      EXPECT_NE(message.find("'" + spec + "'"), std::string::npos)
          << "message should quote the spec '" << spec << "': " << message;
      EXPECT_NE(message.find("grid:ROWSxCOLS"), std::string::npos)
          << "message should show the valid forms: " << message;
    } catch (const std::exception& e) {
      ADD_FAILURE() << "spec '" << spec << "' threw a non-InputError: " << e.what();
    }
  }
}

TEST(GeneratorSpec, LimitErrorsExplainTheLimit) {
  try {
    (void)generate("grid:100000x100000", kWeights, 1);
    FAIL() << "accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("10000000000 vertices"), std::string::npos) << e.what();
  }
  try {
    (void)generate("torus:5", kWeights, 1);
    FAIL() << "accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("unknown generator family 'torus'"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace sssp
