// Lab 08 autograder, the part without a GPU: task 1, choose_delta. Each rule
// on small hand-made graphs whose answers are worked out in the comments, the
// rounding down and the clamp to 1, weights whose sum needs 64 bits, and
// generated graphs against an independent computation in this file.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <tuple>
#include <vector>

#include "lab08.hpp"
#include "sssp/errors.hpp"
#include "sssp/generators.hpp"
#include "sssp/weights.hpp"
#include "sssp_test.hpp"

namespace {

using lab08::DeltaRule;
using sssp::CsrGraph;
using sssp::dist_t;
using sssp::vertex_t;
using sssp::weight_t;
using sssp::test::NamedGraph;
using Arcs = std::vector<std::tuple<vertex_t, vertex_t, weight_t>>;

// What each rule computes, for the failure messages.
std::string hint(DeltaRule rule) {
  switch (rule) {
    case DeltaRule::kMedianWeight:
      return "the median weight: sort a copy of all m weights (or std::nth_element) and take element (m - 1) / 2, "
             "the lower middle when m is even (not the mean of the two middles); the arcs are not sorted by weight";
    case DeltaRule::kTotalWeightPerVertex:
      return "the sum of all arc weights (in 64 bits: weights near 2^32 overflow 32) divided by n, the number of "
             "vertices (not m, the number of arcs), rounded down";
    case DeltaRule::kMaxWeightPerMaxDegree:
      return "the largest weight of any arc divided by the largest out-degree of any vertex (they may belong to "
             "different vertices; not the average degree m / n), rounded down";
    case DeltaRule::kNearFar:
      return "C x W / D with W = total weight / m (the average weight) and D = m / n (the average out-degree), "
             "that is C x total x n / m^2, in floating point (so that C = 0.5 and an average degree below 1 "
             "work) and rounded down only at the end";
  }
  return {};
}

std::string arcs_text(const CsrGraph& g) {
  std::string text;
  for (vertex_t u = 0; u < g.num_vertices(); ++u) {
    for (sssp::edge_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e) {
      text += (text.empty() ? "" : ", ") + std::to_string(u) + "->" + std::to_string(g.targets[e]) + " (" +
              std::to_string(g.weights[e]) + ")";
    }
  }
  return text.empty() ? "no arcs" : text;
}

NamedGraph hand(std::string name, vertex_t n, const Arcs& arcs) {
  return {std::move(name), sssp::test::hand_graph(n, arcs)};
}

// choose_delta(g, rule, c) must be `expected`; `why` is the hand computation.
void expect_delta(const NamedGraph& g, DeltaRule rule, double c, dist_t expected, const std::string& why) {
  const dist_t got = lab08::choose_delta(g.graph, rule, c);
  EXPECT_EQ(got, expected) << "choose_delta on " << g.name << " (" << g.graph.num_vertices() << " vertices; arcs "
                           << arcs_text(g.graph) << ") with rule " << lab08::to_string(rule)
                           << (rule == DeltaRule::kNearFar ? ", C = " + std::to_string(c) : std::string())
                           << ": expected " << expected << " (" << why << "), got " << got << "\nhint: " << hint(rule);
}

// n = 4, m = 5, weights in CSR order 5, 1, 9, 3, 7 (sorted 1 3 5 7 9),
// total 25, out-degrees 3, 1, 1, 0.
NamedGraph odd_count() { return hand("odd count: 5 arcs", 4, {{0, 1, 5}, {0, 2, 1}, {0, 3, 9}, {1, 2, 3}, {2, 3, 7}}); }

// n = 3, m = 4, weights in CSR order 4, 10, 2, 8 (sorted 2 4 8 10), total 24,
// out-degrees 2, 1, 1.
NamedGraph even_count() { return hand("even count: 4 arcs", 3, {{0, 1, 4}, {0, 2, 10}, {1, 2, 2}, {2, 0, 8}}); }

// The heaviest arc (100) leaves vertex 4, of out-degree 1; vertex 0 has the
// largest out-degree (4) and light arcs. n = 5, m = 5, total 108.
NamedGraph heavy_arc_elsewhere() {
  return hand("heaviest arc on a vertex of degree 1", 5, {{0, 1, 2}, {0, 2, 2}, {0, 3, 2}, {0, 4, 2}, {4, 0, 100}});
}

// ----------------------------------------------------------- the rules --

TEST(ChooseDelta, MedianOfAnOddCount) {
  expect_delta(odd_count(), DeltaRule::kMedianWeight, 1.0, 5, "sorted weights 1 3 5 7 9: the middle one");
  expect_delta(hand("three arcs 0->1 (10), 0->2 (1), 0->3 (1)", 4, {{0, 1, 10}, {0, 2, 1}, {0, 3, 1}}),
               DeltaRule::kMedianWeight, 1.0, 1, "sorted weights 1 1 10: the middle one");
  expect_delta(hand("one arc of weight 42", 2, {{0, 1, 42}}), DeltaRule::kMedianWeight, 1.0, 42, "the only weight");
}

TEST(ChooseDelta, MedianOfAnEvenCountIsTheLowerMiddle) {
  expect_delta(even_count(), DeltaRule::kMedianWeight, 1.0, 4,
               "sorted weights 2 4 8 10: the lower middle, 4 (not 8, the upper one, nor their mean 6)");
  expect_delta(hand("two arcs of weights 9 and 3", 3, {{0, 1, 9}, {1, 2, 3}}), DeltaRule::kMedianWeight, 1.0, 3,
               "sorted weights 3 9: the lower middle");
}

TEST(ChooseDelta, TotalWeightPerVertex) {
  expect_delta(odd_count(), DeltaRule::kTotalWeightPerVertex, 1.0, 6,
               "total 25 over n = 4 vertices is 6.25, rounded down (25 / m = 5 would divide by the arcs)");
  expect_delta(even_count(), DeltaRule::kTotalWeightPerVertex, 1.0, 8, "total 24 over n = 3 vertices");
  expect_delta(heavy_arc_elsewhere(), DeltaRule::kTotalWeightPerVertex, 1.0, 21,
               "total 108 over n = 5 vertices is 21.6, rounded down");
}

TEST(ChooseDelta, MaxWeightPerMaxDegree) {
  expect_delta(odd_count(), DeltaRule::kMaxWeightPerMaxDegree, 1.0, 3,
               "largest weight 9 over largest out-degree 3 (vertex 0)");
  expect_delta(even_count(), DeltaRule::kMaxWeightPerMaxDegree, 1.0, 5,
               "largest weight 10 over largest out-degree 2 (vertex 0)");
  expect_delta(heavy_arc_elsewhere(), DeltaRule::kMaxWeightPerMaxDegree, 1.0, 25,
               "largest weight 100 (leaving vertex 4) over largest out-degree 4 (vertex 0); the average "
               "degree m / n = 1 would give 100");
  expect_delta(hand("star 0->1 (10), 0->2 (1), 0->3 (1)", 4, {{0, 1, 10}, {0, 2, 1}, {0, 3, 1}}),
               DeltaRule::kMaxWeightPerMaxDegree, 1.0, 3, "10 / 3 = 3.33, rounded down");
}

TEST(ChooseDelta, NearFarScalesWithC) {
  // odd count: W = 25 / 5 = 5, D = 5 / 4 = 1.25, W / D = 4.
  expect_delta(odd_count(), DeltaRule::kNearFar, 1.0, 4, "W = 25 / 5 = 5, D = 5 / 4 = 1.25, 1 x 5 / 1.25 = 4");
  expect_delta(odd_count(), DeltaRule::kNearFar, 8.0, 32, "8 x 5 / 1.25 = 32");
  expect_delta(odd_count(), DeltaRule::kNearFar, 0.5, 2, "0.5 x 5 / 1.25 = 2");
  // even count: W = 24 / 4 = 6, D = 4 / 3, W / D = 4.5: rounded down at the end.
  expect_delta(even_count(), DeltaRule::kNearFar, 1.0, 4,
               "W = 24 / 4 = 6, D = 4 / 3, 1 x 6 / (4/3) = 4.5, rounded down (integer W / D would give 6)");
  expect_delta(even_count(), DeltaRule::kNearFar, 8.0, 36, "8 x 4.5 = 36 (rounding 4.5 first would give 32)");
  expect_delta(even_count(), DeltaRule::kNearFar, 0.5, 2, "0.5 x 4.5 = 2.25, rounded down");
  // star: W = 12 / 3 = 4, D = 3 / 4 = 0.75 (below 1), W / D = 5.33.
  const NamedGraph star = hand("star 0->1 (10), 0->2 (1), 0->3 (1)", 4, {{0, 1, 10}, {0, 2, 1}, {0, 3, 1}});
  expect_delta(star, DeltaRule::kNearFar, 1.0, 5, "W = 12 / 3 = 4, D = 3 / 4 = 0.75, 4 / 0.75 = 5.33");
  expect_delta(star, DeltaRule::kNearFar, 8.0, 42, "8 x 5.33 = 42.67, rounded down");
  expect_delta(star, DeltaRule::kNearFar, 0.5, 2, "0.5 x 5.33 = 2.67, rounded down");
  // A bad C is refused, whatever the graph (the check is given code, the
  // values above are the task).
  for (const double bad : {0.0, -1.0, std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(),
                           -std::numeric_limits<double>::infinity()}) {
    try {
      const dist_t got = lab08::choose_delta(odd_count().graph, DeltaRule::kNearFar, bad);
      ADD_FAILURE() << "choose_delta with C = " << bad << " returned " << got
                    << " instead of throwing sssp::InputError: C must be a positive finite number";
    } catch (const sssp::InputError& e) {
      EXPECT_NE(std::string(e.what()).find('C'), std::string::npos)
          << "the error for C = " << bad << " must name C: " << e.what();
    }
  }
}

TEST(ChooseDelta, AtLeastOne) {
  const NamedGraph zero = hand("zero-weight cycle 0->1->2->0", 3, {{0, 1, 0}, {1, 2, 0}, {2, 0, 0}});
  const NamedGraph no_arcs = hand("5 vertices, no arcs", 5, {});
  const NamedGraph empty = hand("empty graph (0 vertices)", 0, {});
  for (const DeltaRule rule : {DeltaRule::kMedianWeight, DeltaRule::kTotalWeightPerVertex,
                               DeltaRule::kMaxWeightPerMaxDegree, DeltaRule::kNearFar}) {
    expect_delta(zero, rule, 1.0, 1, "every weight is 0, so the rule gives 0: a bucket needs width at least 1");
    expect_delta(no_arcs, rule, 8.0, 1,
                 "no arcs to measure: 1 (and no division by m = 0 or by a largest out-degree of 0)");
    expect_delta(empty, rule, 1.0, 1, "no vertices and no arcs: 1");
  }
  // Rules that give a positive value below 1 round down to 0 and then clamp.
  const NamedGraph sparse = hand("10 vertices, one arc 0->1 (3)", 10, {{0, 1, 3}});
  expect_delta(sparse, DeltaRule::kTotalWeightPerVertex, 1.0, 1, "total 3 over 10 vertices is 0.3: at least 1");
  expect_delta(sparse, DeltaRule::kMedianWeight, 1.0, 3, "one weight, 3");
  expect_delta(sparse, DeltaRule::kNearFar, 1.0, 30, "W = 3, D = 1 / 10: 3 / 0.1 = 30");
  const NamedGraph parallel = hand("4 parallel arcs 0->1 of weight 1", 2, {{0, 1, 1}, {0, 1, 1}, {0, 1, 1}, {0, 1, 1}});
  expect_delta(parallel, DeltaRule::kMaxWeightPerMaxDegree, 1.0, 1, "1 / 4 = 0.25: at least 1");
  expect_delta(parallel, DeltaRule::kNearFar, 1.0, 1, "W = 1, D = 4 / 2 = 2: 0.5, at least 1");
  expect_delta(parallel, DeltaRule::kTotalWeightPerVertex, 1.0, 2, "total 4 over 2 vertices");
  expect_delta(hand("weights 0, 0, 0, 5", 4, {{0, 1, 0}, {1, 2, 0}, {2, 3, 0}, {3, 0, 5}}), DeltaRule::kMedianWeight,
               1.0, 1, "sorted 0 0 0 5: the lower middle is 0, so 1");
}

TEST(ChooseDelta, WeightsNearTwoToThe32) {
  // Every weight is 2^32 - 1 = 4294967295: three parallel arcs 0 -> 1 and one
  // back. total = 4 x (2^32 - 1) = 17179869180 needs more than 32 bits.
  const weight_t big = 4294967295u;
  const NamedGraph g =
      hand("weights 2^32 - 1: 0->1 three times, 1->0", 2, {{0, 1, big}, {0, 1, big}, {0, 1, big}, {1, 0, big}});
  expect_delta(g, DeltaRule::kMedianWeight, 1.0, 4294967295ull, "every weight is 2^32 - 1");
  expect_delta(g, DeltaRule::kTotalWeightPerVertex, 1.0, 8589934590ull,
               "total 17179869180 over 2 vertices (a 32-bit sum wraps to 4294967292)");
  expect_delta(g, DeltaRule::kMaxWeightPerMaxDegree, 1.0, 1431655765ull, "(2^32 - 1) / 3");
  expect_delta(g, DeltaRule::kNearFar, 1.0, 2147483647ull, "total x n / m^2 = 17179869180 x 2 / 16 = 2147483647.5");
  expect_delta(g, DeltaRule::kNearFar, 8.0, 17179869180ull, "8 x 2147483647.5");
}

// The rules computed here independently, in exact integer arithmetic, on
// generated graphs (C a power of two: C x total x n / m^2 is a fraction of
// integers).
dist_t expected_delta(const CsrGraph& g, DeltaRule rule, unsigned c_times_4) {
  const std::uint64_t m = g.num_edges();
  const std::uint64_t n = g.num_vertices();
  if (m == 0) return 1;
  std::uint64_t total = 0;
  for (const weight_t w : g.weights) total += w;
  dist_t delta = 0;
  switch (rule) {
    case DeltaRule::kMedianWeight: {
      std::vector<weight_t> sorted(g.weights.begin(), g.weights.end());
      std::sort(sorted.begin(), sorted.end());
      delta = sorted[(m - 1) / 2];
      break;
    }
    case DeltaRule::kTotalWeightPerVertex: delta = total / n; break;
    case DeltaRule::kMaxWeightPerMaxDegree: {
      std::uint64_t max_degree = 0;
      for (vertex_t u = 0; u < n; ++u) max_degree = std::max<std::uint64_t>(max_degree, g.out_degree(u));
      delta = *std::max_element(g.weights.begin(), g.weights.end()) / max_degree;
      break;
    }
    case DeltaRule::kNearFar:
      // Exact in 64 bits on the small graphs of this file (total x n x 1024 < 2^50).
      delta = (total * n * c_times_4) / (m * m * 4);
      break;
  }
  return std::max<dist_t>(delta, 1);
}

TEST(ChooseDelta, GeneratedGraphs) {
  const std::vector<NamedGraph> graphs = {
      {"grid 37x41, weights 1..1000", sssp::to_csr(sssp::make_grid(37, 41, sssp::WeightPolicy::uniform(1, 1000, 2)))},
      {"uniform random 1025 vertices 6000 arcs, weights 0..50",
       sssp::to_csr(sssp::make_uniform_random(1025, 6000, sssp::WeightPolicy::uniform(0, 50, 3), 8))},
      {"rmat scale 11 edge factor 8, weights 1..1000",
       sssp::to_csr(sssp::make_rmat(11, 8, sssp::WeightPolicy::uniform(1, 1000, 4), 4))},
      {"star of 300, weights 1..100", sssp::to_csr(sssp::make_star(300, sssp::WeightPolicy::uniform(1, 100, 5)))},
  };
  for (const NamedGraph& g : graphs) {
    for (const DeltaRule rule :
         {DeltaRule::kMedianWeight, DeltaRule::kTotalWeightPerVertex, DeltaRule::kMaxWeightPerMaxDegree}) {
      expect_delta(g, rule, 1.0, expected_delta(g.graph, rule, 4), "computed by the test in exact arithmetic");
    }
    for (const unsigned c_times_4 : {1u, 4u, 32u, 1024u}) {  // C = 0.25, 1, 8, 256
      expect_delta(g, DeltaRule::kNearFar, c_times_4 / 4.0, expected_delta(g.graph, DeltaRule::kNearFar, c_times_4),
                   "computed by the test in exact arithmetic");
    }
  }
}

}  // namespace
