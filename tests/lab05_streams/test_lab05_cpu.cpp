// Lab 05 autograder, CPU part (task 1): the multithreaded naive and
// work-efficient baselines. These run without a GPU.
#include <string>
#include <vector>

#include "lab05.hpp"
#include "lab05_fixtures.hpp"
#include "sssp/errors.hpp"
#include "sssp_test.hpp"

namespace {

using lab05::CpuOptions;
using lab05::DenseGraph;
using lab05::Variant;
using lab05::test::NamedGraph;
using sssp::Counters;
using sssp::vertex_t;

constexpr const char* kHint =
    "task 1: each thread owns a band of columns; a round reads dist[] and offers into next[] (naive: every row, "
    "work-efficient: rows with active[u]), then a barrier, then each band publishes next[] into dist[] and "
    "active[], then a barrier";

// Naive CPU runs cost |V|^3: they get the smaller graphs.
vertex_t size_limit(Variant variant) { return variant == Variant::kNaive ? 600 : 5000; }

class CpuBaseline : public ::testing::TestWithParam<Variant> {
 protected:
  void expect_right_on(const std::vector<NamedGraph>& graphs, unsigned threads = 0) {
    ASSERT_FALSE(graphs.empty());
    for (const NamedGraph& g : graphs) {
      const DenseGraph dense = DenseGraph::from_csr(g.graph);
      for (const vertex_t source : sssp::test::sample_sources(g.graph)) {
        const auto dist = lab05::cpu_bellman_ford(dense, source, CpuOptions{GetParam(), threads, 0});
        ASSERT_TRUE(sssp::test::matches_reference_sssp(g, source, dist, kHint))
            << lab05::variant_name(GetParam()) << " version, " << threads << " threads (0: all)";
      }
    }
  }
};

TEST_P(CpuBaseline, TinyHandCheckedGraphs) {
  expect_right_on(lab05::test::matrix_graphs(NamedGraph::Kind::kTiny, size_limit(GetParam())));
}

TEST_P(CpuBaseline, GeneratorFamilies) {
  expect_right_on(lab05::test::matrix_graphs(NamedGraph::Kind::kGenerated, size_limit(GetParam())));
}

TEST_P(CpuBaseline, CornerCases) {
  expect_right_on(lab05::test::matrix_graphs(NamedGraph::Kind::kCorner, size_limit(GetParam())));
}

// Bands of unequal width, more threads than some graphs have columns.
TEST_P(CpuBaseline, ThreadCounts) {
  const auto graphs = lab05::test::matrix_graphs(NamedGraph::Kind::kGenerated, 300);
  for (const unsigned threads : {1u, 2u, 3u, 7u, 64u}) expect_right_on(graphs, threads);
}

// The number of rounds, rows relaxed and distances lowered follow from the
// definition of a round; a version that reads distances of the same round,
// exits early in the naive version, or forgets to clear active[] is off.
// The counts are checked only with the distances of the same run right.
TEST_P(CpuBaseline, RoundCountsAndWork) {
  auto graphs = lab05::test::matrix_graphs(NamedGraph::Kind::kGenerated, size_limit(GetParam()));
  for (const NamedGraph& g : lab05::test::matrix_graphs(NamedGraph::Kind::kCorner, 300)) graphs.push_back(g);
  for (const NamedGraph& g : graphs) {
    const DenseGraph dense = DenseGraph::from_csr(g.graph);
    for (const vertex_t source : sssp::test::sample_sources(g.graph)) {
      Counters work;
      const auto dist = lab05::cpu_bellman_ford(dense, source, CpuOptions{GetParam(), 3, 0}, &work);
      ASSERT_TRUE(sssp::test::matches_reference_sssp(g, source, dist, kHint))
          << lab05::variant_name(GetParam()) << " version, 3 threads";
      ASSERT_TRUE(lab05::test::did_expected_work(g, source, GetParam(), work, kHint));
    }
  }
}

TEST_P(CpuBaseline, RandomCompleteGraph) {
  const vertex_t n = GetParam() == Variant::kNaive ? 250 : 1500;
  const DenseGraph dense = DenseGraph::random_complete(n, 7);
  const NamedGraph g{dense.name(), dense.to_csr(), NamedGraph::Kind::kGenerated};
  for (const vertex_t source : {vertex_t{0}, n / 2, n - 1}) {
    Counters work;
    const auto dist = lab05::cpu_bellman_ford(dense, source, CpuOptions{GetParam(), 0, 0}, &work);
    ASSERT_TRUE(sssp::test::matches_reference_sssp(g, source, dist, kHint));
    ASSERT_TRUE(lab05::test::did_expected_work(g, source, GetParam(), work, kHint));
  }
}

TEST_P(CpuBaseline, RejectsBadSource) {
  const DenseGraph dense = DenseGraph::from_csr(sssp::test::hand_graph(3, {{0, 1, 4}, {1, 2, 5}}));
  EXPECT_THROW((void)lab05::cpu_bellman_ford(dense, 3, CpuOptions{GetParam(), 0, 0}), sssp::InvalidSource)
      << "source 3 of a 3-vertex graph must be refused with sssp::InvalidSource (task 1)";
  EXPECT_THROW((void)lab05::cpu_bellman_ford(dense, 4000000000u, CpuOptions{GetParam(), 0, 0}), sssp::InvalidSource);
}

INSTANTIATE_TEST_SUITE_P(Lab05, CpuBaseline, ::testing::Values(Variant::kNaive, Variant::kWorkEfficient),
                         [](const ::testing::TestParamInfo<Variant>& param) {
                           return std::string(param.param == Variant::kNaive ? "Naive" : "WorkEfficient");
                         });

// A chain needs every one of its |V| - 1 rounds in both versions: the
// limit, not a round without change, ends the run. From the chain's end the
// work-efficient version stops after one round.
TEST(CpuBaselineLimits, ChainNeedsEveryRound) {
  const NamedGraph chain{"chain 0 -> 1 -> ... -> 5, unit weights",
                         sssp::test::hand_graph(6, {{0, 1, 1}, {1, 2, 1}, {2, 3, 1}, {3, 4, 1}, {4, 5, 1}}),
                         NamedGraph::Kind::kTiny};
  const DenseGraph dense = DenseGraph::from_csr(chain.graph);
  for (const Variant variant : {Variant::kNaive, Variant::kWorkEfficient}) {
    Counters work;
    const auto dist = lab05::cpu_bellman_ford(dense, 0, CpuOptions{variant, 2, 0}, &work);
    ASSERT_TRUE(sssp::test::matches_reference_sssp(chain, 0, dist, kHint))
        << lab05::variant_name(variant) << " version";
    EXPECT_EQ(work.iterations, 5u) << lab05::variant_name(variant)
                                   << ": a 6-vertex chain takes exactly 5 rounds (the limit, |V| - 1): " << kHint;
  }
  Counters work;
  const auto dist = lab05::cpu_bellman_ford(dense, 5, CpuOptions{Variant::kWorkEfficient, 2, 0}, &work);
  ASSERT_TRUE(sssp::test::matches_reference_sssp(chain, 5, dist, kHint)) << "work-efficient version";
  EXPECT_EQ(work.iterations, 1u) << "from the chain's last vertex (no out-arcs) round 1 lowers nothing: one "
                                    "round, then the work-efficient version stops";
}

}  // namespace
