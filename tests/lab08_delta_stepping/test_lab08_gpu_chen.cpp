// Lab 08 autograder, GPU part: Chen's delta-stepping (tasks 2, 3 and 7, the
// DeltaStepping tests). Every answer is checked against the CPU reference in
// common/. The graphs attack the correctness argument of the handout:
// zero-weight cycles, parallel arcs, a vertex lowered after it was taken
// from its bucket, a vertex that gets a bad distance first and a better one
// while it waits in a later bucket, many offers to one vertex at once, and
// deltas from 1 (Dijkstra's order) to one bucket holding every distance
// (Bellman-Ford). With delta = 1 and weights >= 1 the solver must do
// Dijkstra's work: each reachable vertex once. Every test needs a GPU and is
// skipped, with the reason, without one.
#include <cstdint>
#include <string>
#include <vector>

#include "sssp/generators.hpp"
#include "sssp/weights.hpp"

#include "lab08.hpp"
#include "lab08_gpu_test.hpp"
#include "sssp_test.hpp"

namespace {

using namespace lab08::test;  // the helpers every GPU test file shares

// ======================================= Chen's delta-stepping, tasks 2-3 ==

TEST(DeltaStepping, TinyHandCheckedGraphs) {
  SSSP_REQUIRE_GPU();
  for (const dist_t delta : {dist_t{1}, dist_t{3}, kHugeDelta}) {
    expect_correct<DeltaSteppingSssp>(sssp::test::graphs_of_kind(NamedGraph::Kind::kTiny), chen(delta));
  }
}

TEST(DeltaStepping, GeneratorFamilies) {
  SSSP_REQUIRE_GPU();
  for (const dist_t delta : {dist_t{1}, dist_t{20}, kHugeDelta}) {
    expect_correct<DeltaSteppingSssp>(sssp::test::graphs_of_kind(NamedGraph::Kind::kGenerated), chen(delta));
  }
}

TEST(DeltaStepping, CornerCases) {
  SSSP_REQUIRE_GPU();
  const std::vector<NamedGraph> graphs = chen_corner_graphs();
  for (const dist_t delta : {dist_t{1}, kHugeDelta}) expect_correct<DeltaSteppingSssp>(graphs, chen(delta, 32));
}

TEST(DeltaStepping, DeltaFromOneToHuge) {
  SSSP_REQUIRE_GPU();
  for (const dist_t delta : {dist_t{1}, dist_t{2}, dist_t{7}, dist_t{50}, dist_t{1000}, kHugeDelta}) {
    expect_correct<DeltaSteppingSssp>(sweep_graphs(), chen(delta), 2);
  }
}

// delta = 0 picks the width by the rule: delta() must be choose_delta's.
TEST(DeltaStepping, EveryRule) {
  SSSP_REQUIRE_GPU();
  const std::vector<NamedGraph> graphs = sweep_graphs();
  for (const DeltaRule rule : {DeltaRule::kMedianWeight, DeltaRule::kTotalWeightPerVertex,
                               DeltaRule::kMaxWeightPerMaxDegree, DeltaRule::kNearFar}) {
    for (const NamedGraph& g : graphs) {
      const DeltaSteppingSssp solver(g.graph, chen(0, 256, rule));
      EXPECT_EQ(solver.delta(), lab08::choose_delta(g.graph, rule, 1.0))
          << g.name << ": with options.delta = 0 the solver must use choose_delta(graph, " << lab08::to_string(rule)
          << ") (C = 1 for the Near-Far rule)";
    }
    expect_correct<DeltaSteppingSssp>(graphs, chen(0, 256, rule), 2);
  }
}

TEST(DeltaStepping, ZeroWeightCyclesAndParallelArcs) {
  SSSP_REQUIRE_GPU();
  for (const dist_t delta : {dist_t{1}, dist_t{2}, dist_t{5}, dist_t{55}, kHugeDelta}) {
    expect_correct<DeltaSteppingSssp>(zero_weight_cycles_and_parallel_arcs(), chen(delta));
  }
}

// Taken at 9, lowered to 3 in the same bucket: a light round must take it
// again, and the heavy round must relax 1 -> 5 from 3.
TEST(DeltaStepping, LoweredAfterItWasTakenFromItsBucket) {
  SSSP_REQUIRE_GPU();
  const std::vector<NamedGraph> graphs = {lowered_after_taken(), long_cheap_path()};
  for (const dist_t delta : {dist_t{10}, dist_t{4}, dist_t{1}, dist_t{200}}) {
    expect_correct<DeltaSteppingSssp>(graphs, chen(delta));
  }
}

// Vertex 1 sits in bucket 10, then 6, then 5: only atomicMin on BIndex keeps
// the bucket of its current distance.
TEST(DeltaStepping, MovedToAnEarlierBucket) {
  SSSP_REQUIRE_GPU();
  const std::vector<NamedGraph> graphs = {far_vertex_improved()};
  for (const dist_t delta : {dist_t{10}, dist_t{1}, dist_t{25}, kHugeDelta}) {
    expect_correct<DeltaSteppingSssp>(graphs, chen(delta));
  }
}

TEST(DeltaStepping, ManyConcurrentOffersToOneVertex) {
  SSSP_REQUIRE_GPU();
  const NamedGraph g = sssp::test::fan_in_graph();
  for (const dist_t delta : {dist_t{0}, dist_t{50}}) {
    const DeltaSteppingOptions o = chen(delta);
    DeltaSteppingSssp solver(g.graph, o);
    for (int repeat = 0; repeat < 5; ++repeat) {
      sssp::test::announce_run(g, 0, describe(o, solver.delta()));
      ASSERT_TRUE(sssp::test::matches_reference_sssp(
          g, 0, solver.run(0).values,
          "20000 requests offer a distance to one vertex in the same round: only atomicMin on dist keeps the "
          "smallest, and only atomicMin on BIndex keeps that offer's bucket"))
          << describe(o, solver.delta()) << ", repeat " << repeat + 1 << " of 5";
    }
  }
}

// One source per graph: a block-size bug does not depend on the source, and
// each of Chen's runs costs a host read per light round.
TEST(DeltaStepping, EveryBlockSize) {
  SSSP_REQUIRE_GPU();
  const std::vector<NamedGraph> corner = chen_corner_graphs();
  for (const unsigned block : {32u, 96u, 1024u}) {
    expect_correct<DeltaSteppingSssp>(sssp::test::graphs_of_kind(NamedGraph::Kind::kGenerated), chen(5, block), 1);
    expect_correct<DeltaSteppingSssp>(corner, chen(50, block), 1);
  }
}

TEST(DeltaStepping, DijkstraWorkWithDeltaOne) {
  SSSP_REQUIRE_GPU();
  expect_dijkstra_work<DeltaSteppingSssp>(work_graphs(), chen(1),
                                          "Chen's delta-stepping takes each of them out of a bucket", kChenWorkHint);
}

// Relaxing every arc in both phases keeps the distances right: only the
// count of arcs offered shows it (the graph's comment has the arithmetic).
TEST(DeltaStepping, HeavyArcsOfferedOncePerBucket) {
  SSSP_REQUIRE_GPU();
  const NamedGraph g = heavy_fan();
  for (const unsigned block : {256u, 32u}) {
    const DeltaSteppingOptions o = chen(10, block);
    DeltaSteppingSssp solver(g.graph, o);
    for (int run = 0; run < 2; ++run) {
      sssp::test::announce_run(g, 0, describe(o, solver.delta()));
      const sssp::SsspResult result = solver.run(0);
      ASSERT_TRUE(sssp::test::matches_reference_sssp(g, 0, result.values, kChenHint)) << describe(o, solver.delta());
      const std::string where =
          g.name + ", source 0, " + describe(o, solver.delta()) + ", run " + std::to_string(run + 1) + " of 2: ";
      const std::uint64_t got = result.counters.edges_relaxed;
      const char* what = got == 19   ? " 19 is what offering heavy arcs in the light rounds too gives."
                         : got == 23 ? " 23 is what relaxing every arc in both phases gives."
                         : got == 14 ? " 14 is what relaxing every arc in the light rounds and none after gives: "
                                       "vertex 1 is taken twice, so its heavy arcs go out twice."
                                     : "";
      EXPECT_EQ(got, 9u) << where << "counters.edges_relaxed is " << got
                         << ", expected 9: 4 light arcs in bucket 0's light rounds (0 -> 1, 0 -> 2, 2 -> 3, 3 -> 1; "
                            "vertex 1 has none) and vertex 1's 5 heavy arcs once, after the bucket stays empty."
                         << what
                         << "\nhint: heavy arcs must be relaxed once per bucket, after its light rounds: a light "
                            "round offers only arcs of weight <= delta, and the heavy round only those above it";
      EXPECT_EQ(result.counters.iterations, 5u)
          << where << "counters.iterations is " << result.counters.iterations
          << ", expected 5 light rounds: 4 in bucket 0 ({0}, {1, 2}, {3}, {1}) and 1 in bucket 2 ({4 .. 8}).\nhint: "
          << kChenHint;
      EXPECT_EQ(result.counters.vertices_processed, 10u)
          << where << "counters.vertices_processed is " << result.counters.vertices_processed
          << ", expected 10 vertices taken out of a bucket (1 + 2 + 1 + 1 in bucket 0, 5 in bucket 2).\nhint: "
          << kChenHint;
    }
  }
}

// Hubs: a vertex whose arcs are most of a request list's. Stars from the
// hub (every leaf in one round) and into it, an R-MAT graph with a skewed
// degree, and a hub whose arcs are half light and half heavy.
TEST(DeltaStepping, SkewedDegreeGraphs) {
  SSSP_REQUIRE_GPU();
  const auto w = sssp::WeightPolicy::uniform(1, 50, 7);
  Arcs split_hub;
  for (vertex_t v = 1; v < 3000; ++v) split_hub.emplace_back(0, v, v % 2 == 0 ? 3 : 40);
  for (vertex_t v = 1; v + 1 < 3000; ++v) split_hub.emplace_back(v, v + 1, 1);
  const std::vector<NamedGraph> graphs = {
      named("star of 5000 vertices from the hub 0, weights 1..50", sssp::to_csr(sssp::make_star(5000, w))),
      named("rmat scale 12 edge factor 16, weights 1..50", sssp::to_csr(sssp::make_rmat(12, 16, w, 9))),
      named("hub 0 with 2999 arcs, light (3) to even and heavy (40) to odd vertices, and a chain 1 -> 2 -> .. (1)",
            sssp::test::hand_graph(3000, split_hub)),
  };
  for (const dist_t delta : {dist_t{1}, dist_t{10}, kHugeDelta}) {
    for (const unsigned block : {32u, 256u}) expect_correct<DeltaSteppingSssp>(graphs, chen(delta, block), 2);
  }
}

TEST(DeltaStepping, RoadNetworkNewYork) {
  SSSP_REQUIRE_GPU();
  SSSP_REQUIRE_DATASET(path, "USA-road-NY.pace.gr.gz");
  const NamedGraph g = sssp::test::read_dataset(path, "USA-road-NY");
  const DeltaSteppingOptions o;  // Chen's rule: the largest weight over the largest out-degree
  DeltaSteppingSssp solver(g.graph, o);
  for (const vertex_t source : {vertex_t{0}, g.graph.num_vertices() / 2}) {
    sssp::test::announce_run(g, source, describe(o, solver.delta()));
    ASSERT_TRUE(sssp::test::matches_reference_sssp(g, source, solver.run(source).values, kChenHint))
        << describe(o, solver.delta());
  }
}

TEST(DeltaStepping, PowerLawSlashdot) {
  SSSP_REQUIRE_GPU();
  SSSP_REQUIRE_DATASET(path, "soc-Slashdot0902.txt.gz");
  const NamedGraph g = sssp::test::read_dataset(path, "soc-Slashdot0902");
  // Chen's rule gives 1 on a graph with hubs; total / n gives wide buckets,
  // where light rounds put many vertices back into the current bucket.
  const DeltaSteppingOptions o = chen(0, 256, DeltaRule::kTotalWeightPerVertex);
  DeltaSteppingSssp solver(g.graph, o);
  for (int run = 0; run < 2; ++run) {
    sssp::test::announce_run(g, 0, describe(o, solver.delta()));
    ASSERT_TRUE(sssp::test::matches_reference_sssp(g, 0, solver.run(0).values, kChenHint))
        << describe(o, solver.delta()) << ", run " << run + 1;
  }
}

TEST(DeltaStepping, HiddenGraphs) {
  SSSP_REQUIRE_GPU();
  std::string why_not;
  const auto graphs = sssp::test::hidden_graphs(&why_not);
  if (graphs.empty()) GTEST_SKIP() << why_not;
  expect_correct<DeltaSteppingSssp>(graphs, chen(0));
  expect_correct<DeltaSteppingSssp>(graphs, chen(0, 256, DeltaRule::kMedianWeight));
}

}  // namespace
