// Lab 07 autograder: locality-based relaxation on the GPU. Every answer is
// checked against the CPU reference in common/; the graphs attack the
// correctness argument of the handout (zero-weight cycles, parallel arcs, a
// vertex lowered after its flag was consumed, k beyond the diameter, vertex
// counts that are not a multiple of the vertices per thread). Every test
// needs a GPU and is skipped, with the reason, without one.
#include <memory>
#include <string>
#include <vector>

#include "lab07.hpp"
#include "sssp/generators.hpp"
#include "sssp/weights.hpp"
#include "perf_test.hpp"
#include "sssp_test.hpp"

namespace {

using sssp::Counters;
using sssp::CsrGraph;
using sssp::vertex_t;
using sssp::test::NamedGraph;

constexpr const char* kHint =
    "a wave offers frame.dist + w along each arc with atomicMin, goes deeper only from a vertex it "
    "improved, and flags (in the other flag array) the improved vertices at depth k; each thread clears "
    "the flags it reads; the host stops only after a launch that flagged nothing";

std::string describe(const lab07::Options& o) {
  return "k = " + std::to_string(o.depth) + ", " + std::to_string(o.vertices_per_thread) +
         " vertices per thread, block size " + std::to_string(o.block_size) + ", blind launches " +
         (o.blind_launches == lab07::kLearnBlindLaunches ? std::string("learned") : std::to_string(o.blind_launches)) +
         (o.cuda_graph ? ", CUDA Graph" : "");
}

lab07::Options options(unsigned depth, unsigned vpt, unsigned block = 256) {
  lab07::Options o;
  o.depth = depth;
  o.vertices_per_thread = vpt;
  o.block_size = block;
  return o;
}

// Each graph from a few sources, twice from the first: the second run uses
// the N the first one taught the solver, so blind launches are exercised.
void expect_correct(const std::vector<const NamedGraph*>& graphs, const lab07::Options& o) {
  for (const NamedGraph* g : graphs) {
    if (g->graph.num_vertices() == 0) continue;
    lab07::LocalitySssp solver(g->graph, o);
    std::vector<vertex_t> sources = sssp::test::sample_sources(g->graph);
    sources.push_back(sources.front());
    for (const vertex_t source : sources) {
      ASSERT_TRUE(sssp::test::matches_reference_sssp(*g, source, solver.run(source).values, kHint)) << describe(o);
    }
  }
}

NamedGraph named(std::string name, CsrGraph graph) { return {std::move(name), std::move(graph)}; }

// ------------------------------------------------------------ tasks 1-3 --

TEST(LocalitySssp, TinyHandCheckedGraphs) {
  SSSP_REQUIRE_GPU();
  for (const unsigned depth : {1u, 4u}) {
    for (const unsigned vpt : {1u, 2u, 4u}) {
      expect_correct(sssp::test::graphs_of_kind(NamedGraph::Kind::kTiny), options(depth, vpt));
    }
  }
}

TEST(LocalitySssp, GeneratorFamilies) {
  SSSP_REQUIRE_GPU();
  expect_correct(sssp::test::graphs_of_kind(NamedGraph::Kind::kGenerated), options(4, 2));
  expect_correct(sssp::test::graphs_of_kind(NamedGraph::Kind::kGenerated), options(3, 4, 96));
}

TEST(LocalitySssp, CornerCases) {
  SSSP_REQUIRE_GPU();
  expect_correct(sssp::test::graphs_of_kind(NamedGraph::Kind::kCorner), options(4, 2));
  expect_correct(sssp::test::graphs_of_kind(NamedGraph::Kind::kCorner), options(1, 1, 32));
}

TEST(LocalitySssp, EveryDepthAndVerticesPerThread) {
  SSSP_REQUIRE_GPU();
  const auto w = sssp::WeightPolicy::uniform(1, 50, 2);
  const std::vector<NamedGraph> graphs = {
      named("grid 37x41 (1517 vertices)", sssp::to_csr(sssp::make_grid(37, 41, w))),
      named("random 1025 vertices", sssp::to_csr(sssp::make_uniform_random(1025, 6000, w, 8))),
      named("rmat scale 11", sssp::to_csr(sssp::make_rmat(11, 8, w, 4))),
  };
  for (unsigned depth = 1; depth <= lab07::kMaxDepth; ++depth) {
    for (const unsigned vpt : {1u, 2u, 4u}) {
      expect_correct(sssp::test::pointers(graphs), options(depth, vpt, depth % 2 == 0 ? 100 : 1024));
    }
  }
}

TEST(LocalitySssp, ZeroWeightCyclesAndParallelArcs) {
  SSSP_REQUIRE_GPU();
  const std::vector<NamedGraph> graphs = {
      named("zero-weight cycle 0->1->2->0 with exits",
            sssp::test::hand_graph(5, {{0, 1, 0}, {1, 2, 0}, {2, 0, 0}, {2, 3, 5}, {1, 3, 7}, {3, 4, 0}, {4, 3, 0}})),
      named("parallel arcs of weights 9, 3, 7 and a self-loop",
            sssp::test::hand_graph(3, {{0, 1, 9}, {0, 1, 3}, {0, 1, 7}, {1, 1, 0}, {1, 2, 1}, {1, 2, 0}})),
  };
  for (const unsigned depth : {1u, 2u, 5u}) {
    for (const unsigned vpt : {1u, 4u}) expect_correct(sssp::test::pointers(graphs), options(depth, vpt));
  }
}

// Vertex 9 is flagged early at a high distance (0 -> 9 weighs 100) and its
// flag is consumed; only later does the cheap path 0 -> 1 -> ... -> 8 -> 9
// lower it. The thread that lowers it must carry its out-arcs on.
TEST(LocalitySssp, LoweredAfterItsFlagWasConsumed) {
  SSSP_REQUIRE_GPU();
  std::vector<std::tuple<vertex_t, vertex_t, sssp::weight_t>> arcs = {{0, 9, 100}, {9, 10, 1}, {10, 11, 1}};
  for (vertex_t v = 0; v < 8; ++v) arcs.emplace_back(v, v + 1, 1);
  arcs.emplace_back(8, 9, 1);
  const std::vector<NamedGraph> graphs = {
      named("long cheap path overtakes a flagged vertex", sssp::test::hand_graph(12, arcs))};
  for (unsigned depth = 1; depth <= 5; ++depth) {
    for (const unsigned vpt : {1u, 2u, 4u}) expect_correct(sssp::test::pointers(graphs), options(depth, vpt));
  }
}

TEST(LocalitySssp, DepthLargerThanTheDiameter) {
  SSSP_REQUIRE_GPU();
  const std::vector<NamedGraph> graphs = {
      named("chain of 5", sssp::to_csr(sssp::make_chain(5, sssp::WeightPolicy::uniform(1, 9, 3)))),
      named("star of 50", sssp::to_csr(sssp::make_star(50, sssp::WeightPolicy::uniform(1, 9, 3)))),
  };
  expect_correct(sssp::test::pointers(graphs), options(lab07::kMaxDepth, 2));
}

TEST(LocalitySssp, VertexCountsNotAMultipleOfVerticesPerThread) {
  SSSP_REQUIRE_GPU();
  std::vector<NamedGraph> graphs;
  for (const vertex_t n : {1u, 2u, 3u, 5u, 6u, 7u, 9u, 1023u}) {
    graphs.push_back(
        named("random " + std::to_string(n) + " vertices",
              sssp::to_csr(sssp::make_uniform_random(n, 4 * n, sssp::WeightPolicy::uniform(1, 20, n), n))));
  }
  for (const unsigned vpt : {2u, 4u}) expect_correct(sssp::test::pointers(graphs), options(2, vpt));
}

TEST(LocalitySssp, ManyConcurrentRelaxationsOfOneVertex) {
  SSSP_REQUIRE_GPU();
  const NamedGraph g = sssp::test::fan_in_graph();
  for (const unsigned vpt : {1u, 4u}) {
    lab07::LocalitySssp solver(g.graph, options(2, vpt));
    for (int repeat = 0; repeat < 5; ++repeat) {
      ASSERT_TRUE(sssp::test::matches_reference_sssp(g, 0, solver.run(0).values,
                                                     "20000 waves offer to one vertex at once: only atomicMin "
                                                     "keeps the smallest offer"))
          << vpt << " vertices per thread";
    }
  }
}

// A directed chain of 300 from vertex 0 with k = 4: launch j starts its wave
// at vertex 4(j - 1) and flags vertex 4j; launch 75 reaches vertex 299 below
// depth k and flags nothing. Every vertex is expanded once, every arc tried once.
TEST(LocalitySssp, CountersOnAChain) {
  SSSP_REQUIRE_GPU();
  const CsrGraph chain = sssp::to_csr(sssp::make_chain(300, sssp::WeightPolicy::uniform(1, 9, 1)));
  lab07::Options o = options(4, 2);
  o.blind_launches = 0;
  lab07::LocalitySssp solver(chain, o);
  const sssp::SsspResult result = solver.run(0);
  const Counters& c = result.counters;
  EXPECT_EQ(c.iterations, 75u) << "expected 75 relaxation launches (300 vertices, 4 per launch), got " << c.iterations
                               << "; " << describe(o);
  EXPECT_EQ(c.kernel_launches, 76u) << "one initialisation launch and 75 relaxation launches";
  EXPECT_EQ(c.host_syncs, 75u) << "with N = 0 the host reads the launch word after every launch";
  EXPECT_EQ(c.vertices_processed, 300u) << "each vertex is expanded by exactly one wave: a wave goes on only "
                                           "from a vertex it improved, and a flag is cleared once read";
  EXPECT_EQ(c.edges_relaxed, 299u) << "each of the 299 arcs is tried once";
  EXPECT_GT(result.device_ms, 0.0) << "device_ms must report the CUDA-event time of the run";

  // The same chain with every arc doubled backwards: the backward arcs never
  // improve, so a wave must try them and turn back, not go on.
  std::vector<std::tuple<vertex_t, vertex_t, sssp::weight_t>> arcs;
  for (vertex_t v = 0; v + 1 < 300; ++v) {
    arcs.emplace_back(v, v + 1, 1 + v % 9);
    arcs.emplace_back(v + 1, v, 1 + v % 9);
  }
  lab07::LocalitySssp both_ways(sssp::test::hand_graph(300, arcs), o);
  const Counters back = both_ways.run(0).counters;
  EXPECT_EQ(back.iterations, 75u) << "chain with backward arcs: still 75 launches";
  EXPECT_EQ(back.vertices_processed, 300u)
      << "chain with backward arcs: a wave must not go on from a vertex it did not improve";
  EXPECT_EQ(back.edges_relaxed, 598u) << "chain with backward arcs: every vertex's arcs are tried once";
}

TEST(LocalitySssp, BlindLaunchesLearnNAndSaveRoundTrips) {
  SSSP_REQUIRE_GPU();
  const NamedGraph chain{"chain of 300", sssp::to_csr(sssp::make_chain(300, sssp::WeightPolicy::uniform(1, 9, 1)))};
  lab07::LocalitySssp solver(chain.graph, options(4, 1));
  EXPECT_EQ(solver.next_blind_launches(), 0u) << "before the first run there is nothing to learn from";
  (void)solver.run(0);
  EXPECT_EQ(solver.next_blind_launches(), 75u) << "the first run needed 75 launches";
  const sssp::SsspResult second = solver.run(0);
  ASSERT_TRUE(sssp::test::matches_reference_sssp(chain, 0, second.values, kHint));
  EXPECT_EQ(second.counters.iterations, 75u);
  EXPECT_EQ(second.counters.host_syncs, 1u) << "75 blind launches, then one look that finds launch 75 quiet";
}

TEST(LocalitySssp, RoadNetworkNewYork) {
  SSSP_REQUIRE_GPU();
  SSSP_REQUIRE_DATASET(path, "USA-road-NY.pace.gr.gz");
  const NamedGraph g = sssp::test::read_dataset(path, "USA-road-NY");
  lab07::LocalitySssp solver(g.graph);
  for (int run = 0; run < 2; ++run) {  // the second run is blind
    ASSERT_TRUE(sssp::test::matches_reference_sssp(g, 0, solver.run(0).values, kHint));
  }
}

TEST(LocalitySssp, PowerLawSlashdot) {
  SSSP_REQUIRE_GPU();
  SSSP_REQUIRE_DATASET(path, "soc-Slashdot0902.txt.gz");
  const NamedGraph g = sssp::test::read_dataset(path, "soc-Slashdot0902");
  lab07::LocalitySssp solver(g.graph, options(2, 4));
  for (int run = 0; run < 2; ++run) {
    ASSERT_TRUE(sssp::test::matches_reference_sssp(g, 0, solver.run(0).values, kHint));
  }
}

TEST(LocalitySssp, HiddenGraphs) {
  SSSP_REQUIRE_GPU();
  std::string why_not;
  const auto graphs = sssp::test::hidden_graphs(&why_not);
  if (graphs.empty()) GTEST_SKIP() << why_not;
  expect_correct(sssp::test::pointers(graphs), options(4, 2));
}

// --------------------------------------------------------------- task 4 --

TEST(LocalityGraph, CudaGraphGivesTheSameAnswers) {
  SSSP_REQUIRE_GPU();
  lab07::Options o = options(3, 2);
  o.cuda_graph = true;
  expect_correct(sssp::test::graphs_of_kind(NamedGraph::Kind::kGenerated), o);
  o.blind_launches = 40;  // fixed N, more than some graphs need and fewer than others
  expect_correct(sssp::test::graphs_of_kind(NamedGraph::Kind::kGenerated), o);
}

TEST(LocalityGraph, OneSubmissionForTheBlindLaunches) {
  SSSP_REQUIRE_GPU();
  const NamedGraph chain{"chain of 300", sssp::to_csr(sssp::make_chain(300, sssp::WeightPolicy::uniform(1, 9, 1)))};
  lab07::Options o = options(4, 2);
  o.cuda_graph = true;
  o.blind_launches = 75;
  lab07::LocalitySssp solver(chain.graph, o);
  for (int run = 0; run < 3; ++run) {  // the graph is captured once and replayed
    const sssp::SsspResult result = solver.run(0);
    ASSERT_TRUE(sssp::test::matches_reference_sssp(chain, 0, result.values, kHint)) << "run " << run;
    EXPECT_EQ(result.counters.iterations, 75u) << "run " << run;
    EXPECT_EQ(result.counters.kernel_launches, 76u) << "the graph's 75 kernels and the initialisation";
    EXPECT_EQ(result.counters.host_syncs, 1u) << "run " << run;
  }
}

// The performance item (rubric "perf", docs/design/perf-grading.md): the
// solver timed from this process on the graphs tests/grade.py names, against
// the reference timed the same way; without them, a smoke run of the timed path.
TEST(Perf, LocalitySssp) {
  SSSP_REQUIRE_GPU();
  sssp::test::time_solver_on_perf_graphs("LocalitySssp", [](const NamedGraph& g) -> sssp::test::PerfSolve {
    auto solver = std::make_shared<lab07::LocalitySssp>(g.graph);
    return [solver](vertex_t source) { return solver->run(source).values; };
  });
}

}  // namespace
