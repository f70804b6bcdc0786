// Lab 08 autograder, GPU part: Near-Far (tasks 4 to 6 and 8, the NearFar
// tests). Every answer is checked against the CPU reference in common/, on the graphs
// of the handout's correctness argument (lab08_gpu_test.hpp): a vertex
// expanded and then lowered below the same threshold, one improved while it
// waits in the far pile, many offers to one vertex at once, a vertex lowered
// many times in one launch. Every test needs a GPU and is skipped, with the
// reason, without one.
#include <cstdint>
#include <string>
#include <vector>

#include "lab08.hpp"
#include "lab08_gpu_test.hpp"
#include "sssp/errors.hpp"
#include "sssp_test.hpp"

namespace {

using namespace lab08::test;  // the helpers every GPU test file shares

// =========================================================== Near-Far, 4-5 ==

TEST(NearFar, TinyHandCheckedGraphs) {
  SSSP_REQUIRE_GPU();
  for (const dist_t delta : {dist_t{1}, dist_t{3}, kHugeDelta}) {
    expect_correct<NearFarSssp>(sssp::test::graphs_of_kind(NamedGraph::Kind::kTiny), near_far(delta));
  }
}

TEST(NearFar, GeneratorFamilies) {
  SSSP_REQUIRE_GPU();
  for (const dist_t delta : {dist_t{1}, dist_t{20}, kHugeDelta}) {
    expect_correct<NearFarSssp>(sssp::test::graphs_of_kind(NamedGraph::Kind::kGenerated), near_far(delta));
  }
}

TEST(NearFar, CornerCases) {
  SSSP_REQUIRE_GPU();
  for (const dist_t delta : {dist_t{1}, kHugeDelta}) {
    expect_correct<NearFarSssp>(sssp::test::graphs_of_kind(NamedGraph::Kind::kCorner), near_far(delta, 32));
  }
}

TEST(NearFar, DeltaFromOneToHuge) {
  SSSP_REQUIRE_GPU();
  for (const dist_t delta : {dist_t{1}, dist_t{2}, dist_t{7}, dist_t{50}, dist_t{1000}, kHugeDelta}) {
    expect_correct<NearFarSssp>(sweep_graphs(), near_far(delta), 2);
  }
}

// delta = 0 picks C x W / D: delta() must be choose_delta's for that C.
TEST(NearFar, EveryC) {
  SSSP_REQUIRE_GPU();
  const std::vector<NamedGraph> graphs = sweep_graphs();
  for (const double c : {0.25, 0.5, 2.0, 8.0, 256.0}) {
    for (const NamedGraph& g : graphs) {
      const NearFarSssp solver(g.graph, near_far_c(c));
      EXPECT_EQ(solver.delta(), lab08::choose_delta(g.graph, DeltaRule::kNearFar, c))
          << g.name << ": with options.delta = 0 the solver must use choose_delta(graph, near-far, C = " << c << ")";
    }
    expect_correct<NearFarSssp>(graphs, near_far_c(c), 2);
  }
}

TEST(NearFar, ZeroWeightCyclesAndParallelArcs) {
  SSSP_REQUIRE_GPU();
  for (const dist_t delta : {dist_t{1}, dist_t{2}, dist_t{5}, dist_t{55}, kHugeDelta}) {
    expect_correct<NearFarSssp>(zero_weight_cycles_and_parallel_arcs(), near_far(delta));
  }
}

// Expanded at 9, lowered to 3 below the same threshold: it must be expanded
// again (its copy is not stale: 3 is below 9).
TEST(NearFar, LoweredAfterItWasExpanded) {
  SSSP_REQUIRE_GPU();
  const std::vector<NamedGraph> graphs = {lowered_after_taken(), long_cheap_path()};
  for (const dist_t delta : {dist_t{10}, dist_t{4}, dist_t{1}, dist_t{200}}) {
    expect_correct<NearFarSssp>(graphs, near_far(delta));
  }
}

// Vertex 1 goes far at 100, is improved to 69 and to 55 while it is there,
// and its stale copies must not win over the better distance.
TEST(NearFar, FarVertexImprovedWhileFar) {
  SSSP_REQUIRE_GPU();
  const std::vector<NamedGraph> graphs = {far_vertex_improved()};
  for (const dist_t delta : {dist_t{10}, dist_t{1}, dist_t{25}, kHugeDelta}) {
    expect_correct<NearFarSssp>(graphs, near_far(delta));
  }
}

TEST(NearFar, ManyConcurrentOffersToOneVertex) {
  SSSP_REQUIRE_GPU();
  const NamedGraph g = sssp::test::fan_in_graph();
  for (const dist_t delta : {dist_t{0}, dist_t{50}}) {
    const NearFarOptions o = near_far(delta);
    NearFarSssp solver(g.graph, o);
    for (int repeat = 0; repeat < 5; ++repeat) {
      sssp::test::announce_run(g, 0, describe(o, solver.delta()));
      ASSERT_TRUE(sssp::test::matches_reference_sssp(
          g, 0, solver.run(0).values,
          "20000 near items offer a distance to one vertex in the same round: only atomicMin keeps the smallest, "
          "and the vertex must be queued (near or far) once, by a thread whose offer won"))
          << describe(o, solver.delta()) << ", repeat " << repeat + 1 << " of 5";
    }
  }
}

TEST(NearFar, EveryBlockSize) {
  SSSP_REQUIRE_GPU();
  for (const unsigned block : {32u, 96u, 1024u}) {
    expect_correct<NearFarSssp>(sssp::test::graphs_of_kind(NamedGraph::Kind::kGenerated), near_far(5, block));
    expect_correct<NearFarSssp>(sssp::test::graphs_of_kind(NamedGraph::Kind::kCorner), near_far(1, block));
  }
}

// The host looks after every launch, or after 1000 of them (most idle after
// the end, which must change nothing).
TEST(NearFar, RoundsPerCheck) {
  SSSP_REQUIRE_GPU();
  for (const unsigned rounds : {1u, 1000u}) {
    expect_correct<NearFarSssp>(sssp::test::graphs_of_kind(NamedGraph::Kind::kGenerated), near_far(5, 256, rounds));
    expect_correct<NearFarSssp>(std::vector<NamedGraph>{threshold_graph(), far_vertex_improved()},
                                near_far(1, 256, rounds));
  }
}

TEST(NearFar, DijkstraWorkWithDeltaOne) {
  SSSP_REQUIRE_GPU();
  expect_dijkstra_work<NearFarSssp>(work_graphs(), near_far(1), "Near-Far expands each of them", kNearFarWorkHint);
}

// Ignoring the threshold gives the right distances with more work: only the
// exact count shows it.
TEST(NearFar, ThresholdSendsImprovedVerticesFar) {
  SSSP_REQUIRE_GPU();
  const NamedGraph g = threshold_graph();
  const NearFarOptions o = near_far(1);
  NearFarSssp solver(g.graph, o);
  sssp::test::announce_run(g, 0, describe(o, solver.delta()));
  const sssp::SsspResult result = solver.run(0);
  ASSERT_TRUE(sssp::test::matches_reference_sssp(g, 0, result.values, kNearFarHint)) << describe(o, solver.delta());
  const std::uint64_t got = result.counters.vertices_processed;
  EXPECT_EQ(got, 7u) << g.name << ", source 0, " << describe(o, solver.delta()) << ": " << got
                     << " near items expanded, expected 7 (each vertex once, at its final distance 0..6, as Dijkstra "
                        "does). "
                     << (got == 10 ? "10 is what sending every improved vertex to the next near list gives: 1 is "
                                     "expanded at 10, and 3 and 4 after it, before 0 -> 2 -> 5 -> 6 -> 1 lowers it "
                                     "to 4. "
                                   : "")
                     << "An improved vertex whose offer is not below the threshold must go to the far pile, and a "
                        "split moves it to near only when the threshold passes its distance.";
  EXPECT_GE(solver.last_splits(), 6u) << g.name
                                      << ": 7 distinct distances 0..6 with delta = 1 need at least 6 "
                                         "splits (the threshold advances past one distance at a time); got "
                                      << solver.last_splits();
}

// A vertex lowered many times in one launch enters the next near list (or
// the far pile) once: the lists have n slots and only deduplication keeps
// them within it. Stale copies are skipped when popped, so the distances and
// the work count barely show a missing stamp; the overflow always does. One
// lane per item: one thread takes 0's eight arcs in turn, so vertex 1 is
// lowered exactly eight times (with 32 lanes the count is up to the atomics).
// Delta 10: below the threshold, launch 1 expands 0 (8 arcs) and queues 1 at
// 1 in near, launch 2 expands it: 2 near rounds, 2 items, 8 arcs. At or above
// it, launch 1 puts 1 in the far pile at 12, launch 2 splits (threshold 20:
// 1 moves to near), launch 3 expands it: 3 launches that work, 2 items, 8 arcs.
TEST(NearFar, EachListHoldsAVertexOnce) {
  SSSP_REQUIRE_GPU();
  struct Case {
    NamedGraph graph;
    dist_t distance;  // of vertex 1
    std::uint64_t iterations;
    const char* list;
  };
  const Case cases[] = {
      {parallel_offers(8), 1, 2, "the next near list (a stamp, queued_by[w] = the launch number, by atomicExch)"},
      {parallel_offers(19), 12, 3, "the far pile (a mark, in_far[w] = 1, by atomicExch)"},
  };
  for (const Case& c : cases) {
    for (const unsigned lanes : {1u, 32u}) {
      NearFarOptions o = near_far(10);
      o.lanes_per_item = lanes;
      const NamedGraph& g = c.graph;
      NearFarSssp solver(g.graph, o);
      const std::string where =
          g.name + ", source 0, " + describe(o, solver.delta()) + ", " + std::to_string(lanes) + " lane(s) per item: ";
      sssp::test::announce_run(g, 0, describe(o, solver.delta()));
      sssp::SsspResult result;
      try {
        result = solver.run(0);
      } catch (const sssp::AlgorithmError& e) {
        FAIL() << where << "run() threw \"" << e.what() << "\". Vertex 1 is lowered 8 times in launch 1, and each "
               << "time it goes to " << c.list << " unless it is there already; the lists have n = 2 slots."
               << "\nhint: an improved vertex enters the next near list at most once per launch and the far pile "
                  "at most once, however many offers lower it";
      }
      ASSERT_TRUE(sssp::test::matches_reference_sssp(g, 0, result.values, kNearFarHint)) << where;
      EXPECT_EQ(result.values.at(1), c.distance) << where << "vertex 1";
      EXPECT_EQ(result.counters.vertices_processed, 2u)
          << where << "counters.vertices_processed is " << result.counters.vertices_processed
          << ", expected 2 near items expanded (0, then 1 once at its final distance " << c.distance
          << ").\nhint: vertex 1 must be queued once, in " << c.list << "; a stale copy is skipped and not counted";
      EXPECT_EQ(result.counters.edges_relaxed, 8u)
          << where << "counters.edges_relaxed is " << result.counters.edges_relaxed
          << ", expected 8 (the arcs of the 2 items expanded: 0 has 8, 1 has none)";
      EXPECT_EQ(result.counters.iterations, c.iterations)
          << where << "counters.iterations is " << result.counters.iterations << ", expected " << c.iterations
          << " (near rounds plus splits)";
    }
  }
}

TEST(NearFar, RoadNetworkNewYork) {
  SSSP_REQUIRE_GPU();
  SSSP_REQUIRE_DATASET(path, "USA-road-NY.pace.gr.gz");
  const NamedGraph g = sssp::test::read_dataset(path, "USA-road-NY");
  const NearFarOptions o;
  NearFarSssp solver(g.graph, o);
  for (const vertex_t source : {vertex_t{0}, g.graph.num_vertices() / 2}) {
    sssp::test::announce_run(g, source, describe(o, solver.delta()));
    ASSERT_TRUE(sssp::test::matches_reference_sssp(g, source, solver.run(source).values, kNearFarHint))
        << describe(o, solver.delta());
  }
}

// The ADDS paper's point: Near-Far with a good delta does little more work
// than Dijkstra on road graphs (the target: at most 3x).
TEST(NearFar, RoadNetworkNewYorkWorkWithinThreeTimesDijkstra) {
  SSSP_REQUIRE_GPU();
  SSSP_REQUIRE_DATASET(path, "USA-road-NY.pace.gr.gz");
  const NamedGraph g = sssp::test::read_dataset(path, "USA-road-NY");
  const NearFarOptions o;
  NearFarSssp solver(g.graph, o);
  sssp::test::announce_run(g, 0, describe(o, solver.delta()));
  const sssp::SsspResult result = solver.run(0);
  ASSERT_TRUE(sssp::test::matches_reference_sssp(g, 0, result.values, kNearFarHint)) << describe(o, solver.delta());
  const std::uint64_t dijkstra = reachable(g.graph, 0);
  EXPECT_LE(result.counters.vertices_processed, 3 * dijkstra)
      << g.name << ", source 0, " << describe(o, solver.delta()) << ": " << result.counters.vertices_processed
      << " near items expanded, more than 3 x the " << dijkstra
      << " reachable vertices Dijkstra expands.\nhint: " << kNearFarWorkHint;
}

TEST(NearFar, PowerLawSlashdot) {
  SSSP_REQUIRE_GPU();
  SSSP_REQUIRE_DATASET(path, "soc-Slashdot0902.txt.gz");
  const NamedGraph g = sssp::test::read_dataset(path, "soc-Slashdot0902");
  for (const NearFarOptions& o : {near_far(0), near_far(1)}) {
    NearFarSssp solver(g.graph, o);
    for (int run = 0; run < 2; ++run) {
      sssp::test::announce_run(g, 0, describe(o, solver.delta()));
      ASSERT_TRUE(sssp::test::matches_reference_sssp(g, 0, solver.run(0).values, kNearFarHint))
          << describe(o, solver.delta()) << ", run " << run + 1;
    }
  }
}

TEST(NearFar, HiddenGraphs) {
  SSSP_REQUIRE_GPU();
  std::string why_not;
  const auto graphs = sssp::test::hidden_graphs(&why_not);
  if (graphs.empty()) GTEST_SKIP() << why_not;
  expect_correct<NearFarSssp>(graphs, near_far(0));
  expect_correct<NearFarSssp>(graphs, near_far_c(0.25));
}

}  // namespace
