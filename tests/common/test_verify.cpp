// Tests of the certificate checks (verify_sssp, verify_bfs) and of the
// comparisons against a reference.
#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "sssp/generators.hpp"
#include "sssp/reference.hpp"
#include "sssp/verify.hpp"
#include "sssp_test.hpp"

namespace sssp {
namespace {

constexpr dist_t kInf = kInfinity;
constexpr level_t kUnr = kUnreached;

using test::hand_graph;

// 0 -> 1 (5), 1 -> 2 (3), 0 -> 2 (10); 3 and 4 are unreachable, 4 -> 3 (10).
// Distances from 0: {0, 5, 8, inf, inf}; levels {0, 1, 1, unreached, unreached}.
CsrGraph hand() { return hand_graph(5, {{0, 1, 5}, {1, 2, 3}, {0, 2, 10}, {4, 3, 10}}); }

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::vector<EdgeList> generated_graphs() {
  return {make_grid(13, 11, WeightPolicy::uniform(1, 100, 7)),
          make_grid(6, 6, WeightPolicy::uniform(0, 0, 1)),
          make_uniform_random(300, 1500, WeightPolicy::uniform(1, 100, 7), 3),
          make_uniform_random(200, 900, WeightPolicy::uniform(0, 3, 11), 12),
          make_uniform_random(300, 400, WeightPolicy::unit(), 4),  // sparse: unreachable parts
          make_rmat(9, 8, WeightPolicy::uniform(1, 100, 7), 5),
          make_chain(257, WeightPolicy::uniform(4294967000U, 4294967295U, 9)),
          make_star(300, WeightPolicy::uniform(1, 100, 7)),
          make_complete(24, WeightPolicy::uniform(1, 100, 7))};
}

TEST(VerifySssp, AcceptsReferenceAnswers) {
  EXPECT_TRUE(verify_sssp(hand(), 0, std::vector<dist_t>{0, 5, 8, kInf, kInf}));
  EXPECT_TRUE(verify_sssp(hand(), 4, reference_dijkstra(hand(), 4)));
  for (const EdgeList& e : generated_graphs()) {
    const CsrGraph g = to_csr(e);
    for (const vertex_t s : {vertex_t{0}, g.num_vertices() / 2, g.num_vertices() - 1}) {
      const Verdict v = verify_sssp(g, s, reference_dijkstra(g, s));
      EXPECT_TRUE(v.ok) << e.name << ", source " << s << ": " << v.message;
      EXPECT_EQ(v.failures, 0U);
      EXPECT_TRUE(v.message.empty());
    }
  }
}

TEST(VerifySssp, RejectsWrongSize) {
  const Verdict v = verify_sssp(hand(), 0, std::vector<dist_t>{0, 5, 8, kInf});
  EXPECT_FALSE(v);
  EXPECT_TRUE(contains(v.message, "4 entries")) << v.message;
  EXPECT_TRUE(contains(v.message, "5 vertices")) << v.message;
}

TEST(VerifySssp, RejectsNonZeroSource) {
  const Verdict v = verify_sssp(hand(), 0, std::vector<dist_t>{1, 5, 8, kInf, kInf});
  EXPECT_FALSE(v);
  EXPECT_EQ(v.vertex, 0U);
  EXPECT_TRUE(contains(v.message, "distance 1, expected 0")) << v.message;
  const Verdict unreached = verify_sssp(hand(), 0, std::vector<dist_t>{kInf, 5, 8, kInf, kInf});
  EXPECT_FALSE(unreached);
  EXPECT_TRUE(contains(unreached.message, "distance inf")) << unreached.message;
}

TEST(VerifySssp, RejectsSourceOutOfRange) {
  const Verdict v = verify_sssp(hand(), 5, std::vector<dist_t>{0, 5, 8, kInf, kInf});
  EXPECT_FALSE(v);
  EXPECT_EQ(v.vertex, 5U);
  EXPECT_TRUE(contains(v.message, "not a vertex")) << v.message;
}

TEST(VerifySssp, RejectsTooLargeDistanceWithTheArc) {
  const Verdict v = verify_sssp(hand(), 0, std::vector<dist_t>{0, 5, 9, kInf, kInf});
  EXPECT_FALSE(v);
  EXPECT_EQ(v.vertex, 2U);
  EXPECT_EQ(v.failures, 1U);
  EXPECT_TRUE(contains(v.message, "vertex 2 has distance 9")) << v.message;
  EXPECT_TRUE(contains(v.message, "1 -> 2 (weight 3)")) << v.message;
  EXPECT_TRUE(contains(v.message, "gives it 8")) << v.message;
  EXPECT_TRUE(contains(v.message, "too large")) << v.message;
}

TEST(VerifySssp, RejectsReachableVertexLeftAtInfinity) {
  const Verdict v = verify_sssp(hand(), 0, std::vector<dist_t>{0, 5, kInf, kInf, kInf});
  EXPECT_FALSE(v);
  EXPECT_EQ(v.vertex, 2U);
  EXPECT_TRUE(contains(v.message, "distance inf")) << v.message;
  EXPECT_TRUE(contains(v.message, "unreached")) << v.message;
}

TEST(VerifySssp, RejectsTooSmallDistance) {
  const Verdict v = verify_sssp(hand(), 0, std::vector<dist_t>{0, 5, 7, kInf, kInf});
  EXPECT_FALSE(v);
  EXPECT_EQ(v.vertex, 2U);
  EXPECT_EQ(v.failures, 1U);
  EXPECT_TRUE(contains(v.message, "vertex 2 has distance 7")) << v.message;
  EXPECT_TRUE(contains(v.message, "too small")) << v.message;
}

TEST(VerifySssp, RejectsFiniteDistanceOfUnreachableVertices) {
  // 4 -> 3 is tight (10 + 10 == 20), but no tight chain starts at the source.
  const Verdict v = verify_sssp(hand(), 0, std::vector<dist_t>{0, 5, 8, 20, 10});
  EXPECT_FALSE(v);
  EXPECT_EQ(v.vertex, 3U);
  EXPECT_EQ(v.failures, 2U);
}

TEST(VerifySssp, ReportsFirstOffendingVertexAndCount) {
  const CsrGraph g = to_csr(make_chain(6, WeightPolicy::unit()));
  const Verdict v = verify_sssp(g, 0, std::vector<dist_t>{0, 1, 5, 3, 9, 5});
  EXPECT_FALSE(v);
  EXPECT_EQ(v.vertex, 2U);
  EXPECT_EQ(v.failures, 2U);  // 2 and 4 are too large
}

TEST(VerifySssp, RejectsZeroWeightCycleAtTooSmallDistance) {
  // a = 1 and b = 2 are joined by zero-weight arcs both ways and reachable only
  // through the heavy arc 0 -> 1. At an equal too-small distance each has a
  // "tight" in-arc from the other, so a plain tightness check would pass.
  const CsrGraph g = hand_graph(3, {{0, 1, 100}, {1, 2, 0}, {2, 1, 0}});
  EXPECT_TRUE(verify_sssp(g, 0, std::vector<dist_t>{0, 100, 100}));
  const Verdict v = verify_sssp(g, 0, std::vector<dist_t>{0, 50, 50});
  EXPECT_FALSE(v);
  EXPECT_EQ(v.vertex, 1U);
  EXPECT_EQ(v.failures, 2U);
  EXPECT_TRUE(contains(v.message, "too small")) << v.message;
  const Verdict zero = verify_sssp(g, 0, std::vector<dist_t>{0, 0, 0});
  EXPECT_FALSE(zero);
  EXPECT_EQ(zero.vertex, 1U);
  // The same cycle with no way in: any finite distance is wrong.
  const CsrGraph island = hand_graph(3, {{1, 2, 0}, {2, 1, 0}});
  EXPECT_FALSE(verify_sssp(island, 0, std::vector<dist_t>{0, 7, 7}));
  EXPECT_TRUE(verify_sssp(island, 0, std::vector<dist_t>{0, kInf, kInf}));
}

TEST(VerifySssp, GarbageNearTwoToTheSixtyFourDoesNotWrap) {
  // 0 -> 1 (5), 2 -> 1 (10); 2 is unreachable. Unchecked, 2^64 - 8 + 10 would
  // wrap to 2 and blame vertex 1; the garbage is at vertex 2.
  const CsrGraph g = hand_graph(3, {{0, 1, 5}, {2, 1, 10}});
  const Verdict v = verify_sssp(g, 0, std::vector<dist_t>{0, 5, kInf - 7});
  EXPECT_FALSE(v);
  EXPECT_EQ(v.vertex, 2U);
  EXPECT_TRUE(contains(v.message, "18446744073709551608")) << v.message;
  const Verdict big = verify_sssp(g, 0, std::vector<dist_t>{0, kInf - 1, kInf});
  EXPECT_FALSE(big);
  EXPECT_EQ(big.vertex, 1U);
  EXPECT_TRUE(contains(big.message, "too large")) << big.message;
}

TEST(VerifySssp, EverySinglePerturbationIsCaught) {
  const CsrGraph g = to_csr(make_grid(8, 9, WeightPolicy::uniform(0, 9, 3)));
  const std::vector<dist_t> good = reference_dijkstra(g, 0);
  for (vertex_t v = 1; v < g.num_vertices(); v += 5) {
    std::vector<dist_t> d = good;
    ++d[v];
    EXPECT_FALSE(verify_sssp(g, 0, d)) << "d[" << v << "] + 1 accepted";
    if (good[v] > 0) {
      d[v] = good[v] - 1;
      EXPECT_FALSE(verify_sssp(g, 0, d)) << "d[" << v << "] - 1 accepted";
    }
  }
}

// matches_reference_sssp lets the certificate decide and runs the reference
// only to explain a refusal: it must accept exactly the reference's answer.
// Every generated graph (zero weights, unreachable parts and weights near
// 2^32 among them), every tenth source, and answers off by one, at infinity,
// lowered to 0 or swapped between two vertices.
TEST(MatchesReferenceSssp, AcceptsExactlyTheReferencesAnswer) {
  for (const EdgeList& edges : generated_graphs()) {
    const test::NamedGraph g{edges.name, to_csr(edges), test::NamedGraph::Kind::kGenerated};
    const vertex_t n = g.graph.num_vertices();
    for (vertex_t source = 0; source < n; source += 10) {
      const std::vector<dist_t> good = reference_dijkstra(g.graph, source);
      EXPECT_TRUE(test::matches_reference_sssp(g, source, good, "")) << g.name << ", source " << source;
      const vertex_t v = (source * 7 + 3) % n, w = (source * 13 + 5) % n;
      std::vector<std::vector<dist_t>> wrong;
      for (const dist_t value : {good[v] + 1, good[v] - 1, kInf, dist_t{0}}) {
        wrong.push_back(good);
        wrong.back()[v] = value;
      }
      wrong.push_back(good);
      std::swap(wrong.back()[v], wrong.back()[w]);
      wrong.push_back(std::vector<dist_t>(good.begin(), good.end() - 1));
      for (const std::vector<dist_t>& answer : wrong) {
        if (answer == good) continue;  // a change that changes nothing (v == w, or d[v] already 0 or inf)
        const ::testing::AssertionResult verdict = test::matches_reference_sssp(g, source, answer, "");
        EXPECT_FALSE(verdict) << g.name << ", source " << source << ": a wrong answer accepted";
        if (answer.size() == good.size()) {
          EXPECT_TRUE(contains(verdict.message(), "first wrong vertex")) << verdict.message();
        }
      }
    }
  }
}

TEST(VerifyBfs, AcceptsReferenceAnswers) {
  EXPECT_TRUE(verify_bfs(hand(), 0, std::vector<level_t>{0, 1, 1, kUnr, kUnr}));
  for (const EdgeList& e : generated_graphs()) {
    const CsrGraph g = to_csr(e);
    for (const vertex_t s : {vertex_t{0}, g.num_vertices() / 2, g.num_vertices() - 1}) {
      const Verdict v = verify_bfs(g, s, reference_bfs(g, s));
      EXPECT_TRUE(v.ok) << e.name << ", source " << s << ": " << v.message;
    }
  }
}

TEST(VerifyBfs, RejectsEachKindOfError) {
  const CsrGraph g = hand();
  const Verdict size = verify_bfs(g, 0, std::vector<level_t>{0, 1, 1});
  EXPECT_FALSE(size);
  EXPECT_TRUE(contains(size.message, "3 entries")) << size.message;

  const Verdict source = verify_bfs(g, 0, std::vector<level_t>{2, 1, 1, kUnr, kUnr});
  EXPECT_FALSE(source);
  EXPECT_EQ(source.vertex, 0U);

  const Verdict large = verify_bfs(g, 0, std::vector<level_t>{0, 1, 2, kUnr, kUnr});
  EXPECT_FALSE(large);
  EXPECT_EQ(large.vertex, 2U);
  EXPECT_TRUE(contains(large.message, "0 -> 2")) << large.message;
  EXPECT_TRUE(contains(large.message, "too large")) << large.message;

  const Verdict unreached = verify_bfs(g, 0, std::vector<level_t>{0, 1, kUnr, kUnr, kUnr});
  EXPECT_FALSE(unreached);
  EXPECT_EQ(unreached.vertex, 2U);
  EXPECT_TRUE(contains(unreached.message, "inf")) << unreached.message;

  const Verdict small = verify_bfs(g, 0, std::vector<level_t>{0, 1, 0, kUnr, kUnr});
  EXPECT_FALSE(small);
  EXPECT_EQ(small.vertex, 2U);
  EXPECT_TRUE(contains(small.message, "too small")) << small.message;
}

TEST(VerifyBfs, GarbageJustBelowUnreachedIsCaught) {
  // A level of 2^32 - 2 is finite garbage, not "unreached"; relaxing 4 -> 3
  // from it must not overflow. 3 and 4 are unreachable, so both levels are wrong.
  const Verdict v = verify_bfs(hand(), 0, std::vector<level_t>{0, 1, 1, 5, kUnr - 1});
  EXPECT_FALSE(v);
  EXPECT_EQ(v.vertex, 3U);
  EXPECT_EQ(v.failures, 2U);
  const CsrGraph g = hand_graph(3, {{0, 1, 1}, {2, 1, 1}});
  const Verdict wrapped = verify_bfs(g, 0, std::vector<level_t>{0, 1, kUnr - 1});
  EXPECT_FALSE(wrapped);
  EXPECT_EQ(wrapped.vertex, 2U) << wrapped.message;
}

TEST(CompareDistances, ReportsFirstMismatchAndCount) {
  const std::vector<dist_t> expected{0, 5, kInf, 7};
  EXPECT_TRUE(compare_distances(expected, expected));
  EXPECT_TRUE(compare_distances(expected, expected).message.empty());
  const Verdict v = compare_distances(expected, std::vector<dist_t>{0, 6, 3, kInf});
  EXPECT_FALSE(v);
  EXPECT_EQ(v.vertex, 1U);
  EXPECT_EQ(v.failures, 3U);
  EXPECT_TRUE(contains(v.message, "vertex 1: expected 5, got 6")) << v.message;
  EXPECT_TRUE(contains(v.message, "3 of 4")) << v.message;
  const Verdict inf = compare_distances(expected, std::vector<dist_t>{0, 5, 4, 7});
  EXPECT_EQ(inf.vertex, 2U);
  EXPECT_EQ(inf.failures, 1U);
  EXPECT_TRUE(contains(inf.message, "expected inf, got 4")) << inf.message;
  const Verdict got_inf = compare_distances(expected, std::vector<dist_t>{0, 5, kInf, kInf});
  EXPECT_TRUE(contains(got_inf.message, "expected 7, got inf")) << got_inf.message;
  const Verdict size = compare_distances(expected, std::vector<dist_t>{0, 5});
  EXPECT_FALSE(size);
  EXPECT_TRUE(contains(size.message, "2 entries, expected 4")) << size.message;
}

TEST(CompareLevels, ReportsFirstMismatchAndCount) {
  const std::vector<level_t> expected{0, 1, kUnr, 2};
  EXPECT_TRUE(compare_levels(expected, expected));
  const Verdict v = compare_levels(expected, std::vector<level_t>{0, 1, 3, 1});
  EXPECT_FALSE(v);
  EXPECT_EQ(v.vertex, 2U);
  EXPECT_EQ(v.failures, 2U);
  EXPECT_TRUE(contains(v.message, "vertex 2: expected inf, got 3")) << v.message;
  EXPECT_TRUE(contains(v.message, "2 of 4")) << v.message;
  EXPECT_FALSE(compare_levels(expected, std::vector<level_t>{0, 1, kUnr, 2, 0}));
}

TEST(CompareFormat, FormatDistance) {
  EXPECT_EQ(format_distance(0), "0");
  EXPECT_EQ(format_distance(123), "123");
  EXPECT_EQ(format_distance(kInf), "inf");
  EXPECT_EQ(format_distance(kInf - 1), "18446744073709551614");
}

}  // namespace
}  // namespace sssp
