// Tests of the graph containers: CSR conversion, transpose, validation.
#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "sssp/errors.hpp"
#include "sssp/generators.hpp"
#include "sssp/graph.hpp"

namespace sssp {
namespace {

// 4 vertices; arcs listed out of tail order, with a parallel pair 0 -> 1
// (weights 1 then 3) and a self-loop at 3.
EdgeList hand_example() {
  EdgeList e;
  e.name = "hand";
  e.num_vertices = 4;
  e.add_arc(2, 0, 5);
  e.add_arc(0, 1, 1);
  e.add_arc(0, 2, 7);
  e.add_arc(2, 3, 2);
  e.add_arc(0, 1, 3);
  e.add_arc(3, 3, 4);
  return e;
}

using Arc = std::tuple<vertex_t, vertex_t, weight_t>;

// The out-arcs of each vertex as a sorted list: CSR equality up to arc order.
std::vector<std::vector<std::pair<vertex_t, weight_t>>> per_vertex_multiset(const CsrGraph& g) {
  std::vector<std::vector<std::pair<vertex_t, weight_t>>> out(g.num_vertices());
  for (vertex_t u = 0; u < g.num_vertices(); ++u) {
    for (edge_t i = 0; i < g.out_degree(u); ++i) {
      out[u].emplace_back(g.neighbors(u)[i], g.neighbor_weights(u)[i]);
    }
    std::sort(out[u].begin(), out[u].end());
  }
  return out;
}

std::vector<Arc> sorted_arcs(const EdgeList& e) {
  std::vector<Arc> arcs;
  for (std::size_t i = 0; i < e.src.size(); ++i) arcs.emplace_back(e.src[i], e.dst[i], e.weight[i]);
  std::sort(arcs.begin(), arcs.end());
  return arcs;
}

template <typename F>
std::string input_error_of(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no InputError thrown";
  return {};
}

TEST(GraphCsr, HandExampleExact) {
  const CsrGraph g = to_csr(hand_example());
  EXPECT_EQ(g.name, "hand");
  EXPECT_EQ(g.num_vertices(), 4U);
  EXPECT_EQ(g.num_edges(), 6U);
  EXPECT_EQ(g.offsets, (std::vector<edge_t>{0, 3, 3, 5, 6}));
  // Stable: the arcs of 0 keep their input order, so the parallel 0 -> 1 arcs
  // appear with weight 1 before weight 3.
  EXPECT_EQ(g.targets, (std::vector<vertex_t>{1, 2, 1, 0, 3, 3}));
  EXPECT_EQ(g.weights, (std::vector<weight_t>{1, 7, 3, 5, 2, 4}));
  EXPECT_EQ(g.out_degree(0), 3U);
  EXPECT_EQ(g.out_degree(1), 0U);
  EXPECT_TRUE(g.neighbors(1).empty());
  EXPECT_EQ(std::vector<vertex_t>(g.neighbors(2).begin(), g.neighbors(2).end()), (std::vector<vertex_t>{0, 3}));
  EXPECT_EQ(std::vector<weight_t>(g.neighbor_weights(2).begin(), g.neighbor_weights(2).end()),
            (std::vector<weight_t>{5, 2}));
  EXPECT_TRUE(g.contains(3));
  EXPECT_FALSE(g.contains(4));
  EXPECT_FALSE(g.contains(1ULL << 40));
  EXPECT_NO_THROW(g.validate());
}

TEST(GraphCsr, EmptyAndIsolated) {
  EdgeList none;
  none.name = "empty";
  const CsrGraph g0 = to_csr(none);
  EXPECT_EQ(g0.offsets, (std::vector<edge_t>{0}));
  EXPECT_EQ(g0.num_vertices(), 0U);
  EXPECT_EQ(g0.num_edges(), 0U);
  EXPECT_NO_THROW(g0.validate());
  EXPECT_EQ(CsrGraph{}.num_vertices(), 0U);

  EdgeList isolated;
  isolated.num_vertices = 3;
  const CsrGraph g3 = to_csr(isolated);
  EXPECT_EQ(g3.offsets, (std::vector<edge_t>{0, 0, 0, 0}));
}

TEST(GraphTranspose, HandExampleInArcsExact) {
  const CsrGraph t = transpose(to_csr(hand_example()));
  // In-arcs of v, ordered by the CSR order of their tails.
  EXPECT_EQ(t.offsets, (std::vector<edge_t>{0, 1, 3, 4, 6}));
  EXPECT_EQ(t.targets, (std::vector<vertex_t>{2, 0, 0, 0, 2, 3}));
  EXPECT_EQ(t.weights, (std::vector<weight_t>{5, 1, 3, 7, 2, 4}));
  EXPECT_NE(t.name.find("hand"), std::string::npos);
  EXPECT_NO_THROW(t.validate());
}

TEST(GraphTranspose, TwiceGivesTheOriginal) {
  const auto w = WeightPolicy::uniform(1, 50, 2);
  for (const EdgeList& e :
       {hand_example(), make_uniform_random(200, 1500, w, 8), make_rmat(8, 8, w, 3), make_grid(7, 5, w)}) {
    const CsrGraph g = to_csr(e);
    const CsrGraph tt = transpose(transpose(g));
    EXPECT_EQ(tt.offsets, g.offsets) << e.name;
    EXPECT_EQ(per_vertex_multiset(tt), per_vertex_multiset(g)) << e.name;
  }
}

TEST(GraphTranspose, InDegreesBecomeOutDegrees) {
  const EdgeList e = make_uniform_random(100, 700, WeightPolicy::unit(), 5);
  const CsrGraph t = transpose(to_csr(e));
  std::vector<edge_t> in_degree(e.num_vertices, 0);
  for (const vertex_t v : e.dst) ++in_degree[v];
  for (vertex_t v = 0; v < e.num_vertices; ++v) EXPECT_EQ(t.out_degree(v), in_degree[v]);
}

TEST(GraphEdgeList, RoundTrip) {
  const EdgeList e = hand_example();
  const CsrGraph g = to_csr(e);
  const EdgeList back = to_edge_list(g);
  EXPECT_EQ(back.num_vertices, 4U);
  EXPECT_EQ(back.name, "hand");
  EXPECT_EQ(back.src, (std::vector<vertex_t>{0, 0, 0, 2, 2, 3}));  // CSR order
  EXPECT_EQ(back.dst, g.targets);
  EXPECT_EQ(back.weight, g.weights);
  EXPECT_EQ(sorted_arcs(back), sorted_arcs(e));
  const CsrGraph again = to_csr(back);
  EXPECT_EQ(again.offsets, g.offsets);
  EXPECT_EQ(again.targets, g.targets);
  EXPECT_EQ(again.weights, g.weights);
}

TEST(GraphValidate, EdgeListCatchesBadIdsAndLengths) {
  EXPECT_NO_THROW(hand_example().validate());

  EdgeList bad_dst = hand_example();
  bad_dst.dst[4] = 4;
  const std::string message = input_error_of([&] { bad_dst.validate(); });
  EXPECT_NE(message.find("hand"), std::string::npos) << message;
  EXPECT_NE(message.find("arc 4"), std::string::npos) << message;
  EXPECT_THROW((void)to_csr(bad_dst), InputError) << "to_csr must validate";

  EdgeList bad_src = hand_example();
  bad_src.src[0] = 100;
  EXPECT_THROW(bad_src.validate(), InputError);

  EdgeList short_weights = hand_example();
  short_weights.weight.pop_back();
  EXPECT_NE(input_error_of([&] { short_weights.validate(); }).find("differ in length"), std::string::npos);

  EdgeList short_dst = hand_example();
  short_dst.dst.pop_back();
  EXPECT_THROW(short_dst.validate(), InputError);

  EdgeList no_vertices;
  no_vertices.add_arc(0, 0, 1);
  EXPECT_THROW(no_vertices.validate(), InputError);
}

TEST(GraphValidate, CsrCatchesBadOffsetsAndTargets) {
  const CsrGraph good = to_csr(hand_example());

  CsrGraph empty_offsets = good;
  empty_offsets.offsets.clear();
  EXPECT_THROW(empty_offsets.validate(), InputError);

  CsrGraph nonzero_start = good;
  nonzero_start.offsets[0] = 1;
  EXPECT_THROW(nonzero_start.validate(), InputError);

  CsrGraph decreasing = good;
  decreasing.offsets = {0, 4, 3, 5, 6};
  EXPECT_NE(input_error_of([&] { decreasing.validate(); }).find("decrease at vertex 1"), std::string::npos);

  CsrGraph wrong_end = good;
  wrong_end.offsets.back() = 5;
  EXPECT_THROW(wrong_end.validate(), InputError);

  CsrGraph short_weights = good;
  short_weights.weights.pop_back();
  EXPECT_THROW(short_weights.validate(), InputError);

  CsrGraph bad_target = good;
  bad_target.targets[2] = 4;
  EXPECT_NE(input_error_of([&] { bad_target.validate(); }).find("target 2"), std::string::npos);
}

TEST(GraphSource, RequireValidSourceNamesIdAndRange) {
  const CsrGraph g = to_csr(hand_example());
  EXPECT_NO_THROW(require_valid_source(g, 0));
  EXPECT_NO_THROW(require_valid_source(g, 3));
  try {
    require_valid_source(g, 4);
    FAIL() << "source 4 accepted";
  } catch (const InvalidSource& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("4"), std::string::npos) << message;
    EXPECT_NE(message.find("0..3"), std::string::npos) << message;
  }
  EXPECT_THROW(require_valid_source(g, 1ULL << 40), InvalidSource);
  EXPECT_THROW(require_valid_source(g, 1ULL << 40), std::out_of_range);  // its base class
  try {
    require_valid_source(to_csr(EdgeList{}), 0);
    FAIL() << "source 0 of an empty graph accepted";
  } catch (const InvalidSource& e) {
    EXPECT_NE(std::string(e.what()).find("empty"), std::string::npos) << e.what();
  }
}

TEST(GraphDescribe, OneLineSummary) {
  EXPECT_EQ(describe(to_csr(hand_example())), "hand: 4 vertices, 6 arcs, max out-degree 3");
  EdgeList none;
  none.name = "nothing";
  EXPECT_EQ(describe(to_csr(none)), "nothing: 0 vertices, 0 arcs, max out-degree 0");
  EXPECT_EQ(describe(to_csr(make_star(10, WeightPolicy::unit()))),
            "star 10 (unit): 10 vertices, 18 arcs, max out-degree 9");
}

}  // namespace
}  // namespace sssp
