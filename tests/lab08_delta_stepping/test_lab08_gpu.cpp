// Lab 08 autograder, GPU part: Chen's delta-stepping (tasks 2 and 3, the
// DeltaStepping tests) and Near-Far (tasks 4 and 5, the NearFar tests). Every
// answer is checked against the CPU reference in common/. The graphs attack
// the correctness argument of the handout: zero-weight cycles, parallel arcs,
// a vertex lowered after it was taken from its bucket (or expanded), a vertex
// that gets a bad distance first and a better one while it waits far away,
// many offers to one vertex at once, and deltas from 1 (Dijkstra's order) to
// one bucket holding every distance (Bellman-Ford). With delta = 1 and weights
// >= 1 both solvers must do Dijkstra's work: each reachable vertex once.
// Every test needs a GPU and is skipped, with the reason, without one.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "lab08.hpp"
#include "lab08_testing.hpp"
#include "sssp/errors.hpp"
#include "sssp/generators.hpp"
#include "sssp/reference.hpp"
#include "sssp/weights.hpp"
#include "perf_test.hpp"
#include "sssp_test.hpp"

namespace {

using lab08::DeltaRule;
using lab08::DeltaSteppingOptions;
using lab08::DeltaSteppingSssp;
using lab08::NearFarOptions;
using lab08::NearFarSssp;
using sssp::CsrGraph;
using sssp::dist_t;
using sssp::vertex_t;
using sssp::weight_t;
using sssp::test::NamedGraph;
using Arcs = std::vector<std::tuple<vertex_t, vertex_t, weight_t>>;

// One bucket holds every distance of the course: delta-stepping becomes
// Bellman-Ford with a worklist, and must still be right.
constexpr dist_t kHugeDelta = sssp::kInfinity / 2;

constexpr const char* kChenHint =
    "Chen's delta-stepping: a light round takes out exactly the vertices whose BIndex is the current bucket "
    "(Req[ReqIndex[v]] = v, BIndex[v] = none, v joins S) and relaxes their light arcs (weight <= delta); once the "
    "bucket stays empty, S relaxes its heavy arcs; an offer that wins the atomicMin on dist[w] moves w to bucket "
    "offer / delta by atomicMin on BIndex[w]";

constexpr const char* kNearFarHint =
    "Near-Far: skip a near item whose distance is not below the distance it was last expanded at; offer dist + w "
    "along every arc with atomicMin; an improved head goes to the next near list if offer < threshold, else to the "
    "far pile (each at most once); a split drops far items whose distance fell below the old threshold, moves "
    "those below the new threshold to near and keeps the rest";

std::string delta_text(dist_t delta) {
  return delta == kHugeDelta ? "2^63 - 1 (one bucket holds everything)" : std::to_string(delta);
}

DeltaSteppingOptions chen(dist_t delta, unsigned block_size = 256, DeltaRule rule = DeltaRule::kMaxWeightPerMaxDegree) {
  DeltaSteppingOptions o;
  o.delta = delta;
  o.block_size = block_size;
  o.rule = rule;
  return o;
}

NearFarOptions near_far(dist_t delta, unsigned block_size = 256, unsigned rounds_per_check = 64, double c = 8.0) {
  NearFarOptions o;
  o.delta = delta;
  o.block_size = block_size;
  o.rounds_per_check = rounds_per_check;
  o.c = c;
  return o;
}

NearFarOptions near_far_c(double c) { return near_far(0, 256, 64, c); }

// The options and the width the solver chose, for every failure message.
std::string describe(const DeltaSteppingOptions& o, dist_t used) {
  return "Chen delta-stepping, " +
         (o.delta != 0
              ? "delta = " + delta_text(o.delta)
              : "delta by rule " + lab08::to_string(o.rule) + " (the solver chose " + std::to_string(used) + ")") +
         ", block size " + std::to_string(o.block_size);
}

std::string describe(const NearFarOptions& o, dist_t used) {
  return "Near-Far, " +
         (o.delta != 0 ? "delta = " + delta_text(o.delta)
                       : "delta = C x W / D with C = " + std::to_string(o.c) + " (the solver chose " +
                             std::to_string(used) + ")") +
         ", block size " + std::to_string(o.block_size) + ", rounds per check " + std::to_string(o.rounds_per_check);
}

template <typename Solver>
const char* hint_of() {
  return std::is_same_v<Solver, DeltaSteppingSssp> ? kChenHint : kNearFarHint;
}

NamedGraph named(std::string name, CsrGraph graph) { return {std::move(name), std::move(graph)}; }

// Runs `Solver` with `o` on each graph from `sources` sample sources (one
// upload per graph, so every run must reset the state of the previous one)
// and checks every answer. A nonzero o.delta must be the width used.
template <typename Solver, typename Options>
void expect_correct(const std::vector<const NamedGraph*>& graphs, const Options& o,
                    std::size_t sources = sssp::test::kSampleSources) {
  for (const NamedGraph* g : graphs) {
    if (g->graph.num_vertices() == 0) continue;
    Solver solver(g->graph, o);
    const std::string options = describe(o, solver.delta());
    if (o.delta != 0) {
      ASSERT_EQ(solver.delta(), o.delta) << g->name << ": delta() must return options.delta when it is not 0; "
                                         << options;
    }
    for (const vertex_t source : sssp::test::sample_sources(g->graph, sources)) {
      sssp::test::announce_run(*g, source, options);
      ASSERT_TRUE(sssp::test::matches_reference_sssp(*g, source, solver.run(source).values, hint_of<Solver>()))
          << options;
    }
  }
}

template <typename Solver, typename Options>
void expect_correct(const std::vector<NamedGraph>& graphs, const Options& o,
                    std::size_t sources = sssp::test::kSampleSources) {
  expect_correct<Solver>(sssp::test::pointers(graphs), o, sources);
}

// Vertices with a finite reference distance from `source`.
std::uint64_t reachable(const CsrGraph& g, vertex_t source) {
  const std::vector<dist_t> d = sssp::reference_dijkstra(g, source);
  return static_cast<std::uint64_t>(std::count_if(d.begin(), d.end(), [](dist_t x) { return x != sssp::kInfinity; }));
}

// ------------------------------------------------------------ the graphs --

// Delta 10: vertex 1 is taken out of bucket 0 (or expanded) at distance 9,
// then the path 0 -> 2 -> 3 -> 1 lowers it to 3, still in bucket 0: it must
// be taken (expanded) again, and its heavy arc 1 -> 5 (25) must use 3, not 9.
// Distances: 0, 3, 1, 2, 4, 28.
NamedGraph lowered_after_taken() {
  return named("vertex 1 taken at 9, then lowered to 3 in the same bucket (designed for delta = 10)",
               sssp::test::hand_graph(6, {{0, 1, 9}, {0, 2, 1}, {2, 3, 1}, {3, 1, 1}, {1, 4, 1}, {1, 5, 25}}));
}

// Lab 07's graph: 0 -> 9 weighs 100, the long cheap path 0 -> 1 -> ... -> 8
// -> 9 weighs 9 and overtakes it, and 9 has a tail of its own.
NamedGraph long_cheap_path() {
  Arcs arcs = {{0, 9, 100}, {9, 10, 1}, {10, 11, 1}};
  for (vertex_t v = 0; v < 8; ++v) arcs.emplace_back(v, v + 1, 1);
  arcs.emplace_back(8, 9, 1);
  return named("long cheap path 0 -> ... -> 8 -> 9 overtakes the arc 0 -> 9 (100)", sssp::test::hand_graph(12, arcs));
}

// With delta = 10, vertex 1 gets 100 (far), then 69 by 0 -> 2 -> 4 -> 1 (still
// far: a better distance for a vertex already in the far pile, or an earlier
// bucket by atomicMin on BIndex), then 55 by 0 -> 2 -> 3 -> 1, its final
// distance. Distances: 0, 55, 5, 35, 9, 56, 156.
NamedGraph far_vertex_improved() {
  return named("vertex 1 gets 100, then 69, then 55 while it waits far away (designed for delta = 10)",
               sssp::test::hand_graph(7, {{0, 1, 100},
                                          {0, 2, 5},
                                          {2, 3, 30},
                                          {3, 1, 20},
                                          {2, 4, 4},
                                          {4, 1, 60},
                                          {1, 5, 1},
                                          {5, 6, 100},
                                          {1, 6, 150}}));
}

// Delta 1: 0 -> 1 (10) reaches 1 first, but 0 -> 2 -> 5 -> 6 -> 1 is
// shorter (4), and 1 leads on to 3 and 4. Distances 0..6, all distinct, so
// with delta = 1 each vertex is expanded exactly once (7). Sending every
// improved vertex to the next near list expands 1 at 10 (and 3 at 11 and 4 at
// 12) before the short path arrives: 10 expansions.
NamedGraph threshold_graph() {
  return named(
      "0 -> 1 (10) is overtaken by 0 -> 2 -> 5 -> 6 -> 1 (4), and 1 -> 3 -> 4 follow",
      sssp::test::hand_graph(7, {{0, 1, 10}, {0, 2, 1}, {2, 5, 1}, {5, 6, 1}, {6, 1, 1}, {1, 3, 1}, {3, 4, 1}}));
}

// Delta 10, Chen's light rounds (bulk-synchronous: no round lowers a vertex
// it takes, so each round's requests are fixed) on 0 -> 1 (9), 0 -> 2 (1),
// 2 -> 3 (1), 3 -> 1 (1) and five heavy arcs 1 -> 4 .. 8 (20 each):
//   bucket 0, round 1: takes {0}, offers 0 -> 1, 0 -> 2 (2 light arcs): 1 = 9, 2 = 1
//             round 2: takes {1, 2}, offers 2 -> 3 (1; vertex 1 has no light arc): 3 = 2
//             round 3: takes {3}, offers 3 -> 1 (1): 1 = 3, back into bucket 0
//             round 4: takes {1} again (0 light arcs); round 5 takes nothing
//             heavy: S = {0, 1, 2, 3} offers 1 -> 4 .. 8 once, from 3 (5): 4 .. 8 = 23
//   bucket 2, round 1: takes {4 .. 8} (no arcs); round 2 takes nothing; no heavy arcs.
// iterations = 4 + 1 = 5 light rounds, vertices_processed = 1 + 2 + 1 + 1 + 5
// = 10, edges_relaxed = 2 + 1 + 1 + 0 + 5 = 9. Heavy arcs offered in the
// light rounds too make it 19 (5 in round 2, 5 in round 4); every arc in both
// phases 23 (2 + 6 + 1 + 5 light, 2 + 5 + 1 + 1 heavy); every arc in the
// light rounds and none in the heavy one 14 (vertex 1 is taken twice).
NamedGraph heavy_fan() {
  Arcs arcs = {{0, 1, 9}, {0, 2, 1}, {2, 3, 1}, {3, 1, 1}};
  for (vertex_t v = 4; v <= 8; ++v) arcs.emplace_back(1, v, 20);
  return named("vertex 1 taken at 9 and at 3 in bucket 0, with five heavy arcs 1 -> 4 .. 8 (20) (delta = 10)",
               sssp::test::hand_graph(9, arcs));
}

// Eight parallel arcs 0 -> 1, in CSR order weights 8, 7, .., 1 (below the
// threshold 10) or 19, 18, .., 12 (at or above it): one thread expanding 0
// lowers vertex 1 eight times in one launch. Lists have n = 2 slots.
NamedGraph parallel_offers(weight_t first) {
  Arcs arcs;
  for (weight_t w = first; w + 8 > first; --w) arcs.emplace_back(0, 1, w);
  return named("eight parallel arcs 0 -> 1 of weights " + std::to_string(first) + ", " + std::to_string(first - 1) +
                   ", .., " + std::to_string(first - 7) + " (delta = 10)",
               sssp::test::hand_graph(2, arcs));
}

std::vector<NamedGraph> zero_weight_cycles_and_parallel_arcs() {
  return {
      named("zero-weight cycle 0->1->2->0 with exits",
            sssp::test::hand_graph(5, {{0, 1, 0}, {1, 2, 0}, {2, 0, 0}, {2, 3, 5}, {1, 3, 7}, {3, 4, 0}, {4, 3, 0}})),
      named("parallel arcs of weights 9, 3, 7 and a self-loop",
            sssp::test::hand_graph(3, {{0, 1, 9}, {0, 1, 3}, {0, 1, 7}, {1, 1, 0}, {1, 2, 1}, {1, 2, 0}})),
      named("zero-weight arcs into a far vertex: 0->1 (50), 1->2 (0), 2->3 (0), 0->3 (60), 3->1 (0)",
            sssp::test::hand_graph(4, {{0, 1, 50}, {1, 2, 0}, {2, 3, 0}, {0, 3, 60}, {3, 1, 0}})),
  };
}

// Mid-size graphs of every shape for the sweeps (weights 1..50).
std::vector<NamedGraph> sweep_graphs() {
  const auto w = sssp::WeightPolicy::uniform(1, 50, 2);
  return {
      named("grid 37x41 (1517 vertices), weights 1..50", sssp::to_csr(sssp::make_grid(37, 41, w))),
      named("random 1025 vertices 6000 arcs, weights 1..50", sssp::to_csr(sssp::make_uniform_random(1025, 6000, w, 8))),
      named("rmat scale 11 edge factor 8, weights 1..50", sssp::to_csr(sssp::make_rmat(11, 8, w, 4))),
  };
}

// Graphs with weights >= 1 for the work tests (delta = 1: Dijkstra's work).
std::vector<NamedGraph> work_graphs() {
  const auto w = sssp::WeightPolicy::uniform(1, 100, 3);
  return {
      named("grid 40x40, weights 1..100", sssp::to_csr(sssp::make_grid(40, 40, w))),
      named("random 2000 vertices 10000 arcs, weights 1..100",
            sssp::to_csr(sssp::make_uniform_random(2000, 10000, w, 5))),
      named("rmat scale 10 edge factor 8, weights 1..100", sssp::to_csr(sssp::make_rmat(10, 8, w, 6))),
      named("chain of 300, weights 1..100", sssp::to_csr(sssp::make_chain(300, w))),
      threshold_graph(),
      far_vertex_improved(),
  };
}

// With delta = 1 and weights >= 1, each reachable vertex is taken from a
// bucket (Chen) or expanded (Near-Far) exactly once.
template <typename Solver, typename Options>
void expect_dijkstra_work(const std::vector<NamedGraph>& graphs, const Options& o, const char* what, const char* why) {
  for (const NamedGraph& g : graphs) {
    Solver solver(g.graph, o);
    for (const vertex_t source : sssp::test::sample_sources(g.graph, 2)) {
      sssp::test::announce_run(g, source, describe(o, solver.delta()));
      const sssp::SsspResult result = solver.run(source);
      ASSERT_TRUE(sssp::test::matches_reference_sssp(g, source, result.values, hint_of<Solver>()))
          << describe(o, solver.delta());
      const std::uint64_t expected = reachable(g.graph, source);
      EXPECT_EQ(result.counters.vertices_processed, expected)
          << g.name << ", source " << source << ", " << describe(o, solver.delta()) << ": counters.vertices_processed "
          << "is " << result.counters.vertices_processed << ", expected " << expected
          << " (the vertices reachable from the source: Dijkstra's work). With delta = 1 and integer weights >= 1 "
          << what << " exactly once, at its final distance.\nhint: " << why;
    }
  }
}

constexpr const char* kChenWorkHint =
    "a vertex taken more than once was put into a bucket below the one of its new distance (the bucket of an "
    "improved head w is offer / delta, not the tail's bucket), or stayed in its bucket when it was taken out "
    "(BIndex[v] = none), or was counted in a round that did not take it";
constexpr const char* kNearFarWorkHint =
    "a vertex expanded more than once was expanded before its distance was final: an improved head whose offer is "
    "not below the threshold must go to the far pile, a split moves to near only the far items below the new "
    "threshold, and a stale copy (distance not below the one it was last expanded at) is skipped and not counted";

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
  for (const dist_t delta : {dist_t{1}, kHugeDelta}) {
    expect_correct<DeltaSteppingSssp>(sssp::test::graphs_of_kind(NamedGraph::Kind::kCorner), chen(delta, 32));
  }
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
  for (const unsigned block : {32u, 96u, 1024u}) {
    expect_correct<DeltaSteppingSssp>(sssp::test::graphs_of_kind(NamedGraph::Kind::kGenerated), chen(5, block), 1);
    expect_correct<DeltaSteppingSssp>(sssp::test::graphs_of_kind(NamedGraph::Kind::kCorner), chen(50, block), 1);
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

// ============================================ checkpoints, one task each ==
//
// Given harness kernels (checkpoints.cu) run one task's device function, the
// one the solver calls, on a hand-made input; what it wrote comes back as
// data and is checked here. So each of tasks 2 to 5 earns these points even
// while the other task of its solver is unfinished.

constexpr const char* kTask2Hint =
    "task 2, take_from_bucket (chen_tasks.cuh): a vertex whose bindex is the current bucket is written to "
    "requests[req_index[v]], leaves its bucket (bindex[v] = kNoBucket), joins S (taken_stamp[v] = current + 1) and "
    "returns true; every other vertex is left alone and returns false";
constexpr const char* kTask3Hint =
    "task 3, relax_request (chen_tasks.cuh): with `light`, offer dist[v] + w along each arc of weight <= delta, "
    "else along each arc of weight > delta, and count exactly those arcs; an offer that lowers dist[w] "
    "(atomic_min_dist) moves w to bucket offer / delta (atomicMin on bindex[w], the offer's bucket, not v's)";
constexpr const char* kTask4Hint =
    "task 4, relax_and_route (near_far_tasks.cuh): an offer dv + w that lowers dist[w] queues w in the next near "
    "list if offer < threshold, unless this launch queued it already (atomicExch of the launch number into "
    "queued_by[w]), else in the far pile unless it is there already (atomicExch of 1 into in_far[w]); an offer that "
    "does not lower dist[w] queues nothing";
constexpr const char* kTask5Hint =
    "task 5, split_far_item (near_far_tasks.cuh): a far item at or above the new threshold stays far (appended to "
    "far_next, in_far = 1, its distance returned); below it, it leaves the pile (in_far = 0) and goes to near only "
    "if its distance is at or above the old threshold (below it, it was queued in a near list when it was lowered)";
constexpr const char* kTask6Hint =
    "task 6, leave_state_for_the_next_launch (near_far_tasks.cuh): launch L writes frontier copy (L + 1) % 3's "
    "threshold (the one it routed by) and split (one more after a split), leaves that copy's far_min and near count "
    "to the blocks still running, empties near count and far_min of copy (L + 2) % 3 and, after a split, the count "
    "of far pile (now.split + 2) % 3 (far piles go by split number, not launch number), counts the launch as a near "
    "round or a split, and sets done_launch at the first idle launch only";

std::string vertex_text(vertex_t v) { return v == lab08::kNoRequest ? "(nothing written)" : std::to_string(v); }

std::string bucket_text(lab08::bucket_t b) { return b == lab08::kNoBucket ? "kNoBucket" : std::to_string(b); }

std::string dist_text(dist_t d) { return d == sssp::kInfinity ? "infinity" : std::to_string(d); }

// Each entry of `got` equals `expected`, else the first that does not (with
// `text` writing a value) and `hint`.
template <typename T, typename Text>
void expect_each(const std::vector<T>& got, const std::vector<T>& expected, const std::string& what,
                 const std::string& input, const char* hint, Text text) {
  ASSERT_EQ(got.size(), expected.size()) << input << ": " << what << " has " << got.size() << " entries, expected "
                                         << expected.size();
  for (std::size_t v = 0; v < got.size(); ++v) {
    EXPECT_EQ(got[v], expected[v]) << input << ": " << what << "[" << v << "] is " << text(got[v]) << ", expected "
                                   << text(expected[v]) << " (the first wrong entry)\nhint: " << hint;
    if (got[v] != expected[v]) return;
  }
}

// `got` holds exactly the vertices of `expected`, each once, in any order.
void expect_same_set(const std::vector<vertex_t>& got, std::vector<vertex_t> expected, const std::string& what,
                     const std::string& input, const char* hint) {
  auto list = [](const std::vector<vertex_t>& items) {
    std::string out = "{";
    for (const vertex_t v : items) out += (out.size() > 1 ? ", " : "") + vertex_text(v);
    return out + "}";
  };
  std::vector<vertex_t> sorted = got;
  std::sort(sorted.begin(), sorted.end());
  std::sort(expected.begin(), expected.end());
  if (sorted == expected) return;
  std::string why;
  const auto twice = std::adjacent_find(sorted.begin(), sorted.end());
  if (twice != sorted.end()) {
    why = "vertex " + vertex_text(*twice) + " is there " +
          std::to_string(std::count(sorted.begin(), sorted.end(), *twice)) + " times, expected at most once";
  } else {
    for (const vertex_t v : expected) {
      if (!std::binary_search(sorted.begin(), sorted.end(), v)) {
        why = "vertex " + vertex_text(v) + " is missing";
        break;
      }
    }
    for (const vertex_t v : sorted) {
      if (why.empty() && !std::binary_search(expected.begin(), expected.end(), v)) {
        why = "vertex " + vertex_text(v) + " should not be there";
      }
    }
  }
  ADD_FAILURE() << input << ": " << what << " is " << list(got) << ", expected " << list(expected)
                << " in any order: " << why << "\nhint: " << hint;
}

// Task 2. Case 1: bindex {2, 0, 2, none, 1, 2, 3, 2}, current bucket 2:
// vertices 0, 2, 5 and 7 are in it, so ReqIndex (the exclusive scan of "in
// bucket 2") is {0, 1, 1, 2, 2, 2, 3, 3}: they fill slots 0 to 3 (here
// 0, 2, 5, 7 in order), slots 4 to 7 stay unwritten, 4 calls return true;
// bindex becomes {none, 0, none, none, 1, none, 3, none}, the stamps
// {3, 0, 3, 0, 0, 3, 0, 3} (current + 1 marks S). Case 2: bucket 5 holds
// nobody: nothing taken, nothing changed. Case 3: bucket indices past 2^32
// (a small delta): {2^33, 2^33 + 1, 2^33}, current 2^33 takes 0 and 2, stamps
// 2^33 + 1.
TEST(Checkpoint, RouteTakesTheCurrentBucketOnly) {
  SSSP_REQUIRE_GPU();
  using lab08::bucket_t;
  constexpr bucket_t kNone = lab08::kNoBucket;
  constexpr vertex_t kNo = lab08::kNoRequest;
  constexpr bucket_t kBig = bucket_t{1} << 33;
  struct Case {
    const char* input;
    std::vector<bucket_t> bindex;
    bucket_t current;
    std::vector<vertex_t> requests;  // in slot order, as the prefix sum places them
    unsigned taken;
    std::vector<bucket_t> bindex_after;
    std::vector<bucket_t> stamps;
  };
  const Case cases[] = {
      {"bindex {2, 0, 2, none, 1, 2, 3, 2}, current bucket 2",
       {2, 0, 2, kNone, 1, 2, 3, 2},
       2,
       {0, 2, 5, 7, kNo, kNo, kNo, kNo},
       4,
       {kNone, 0, kNone, kNone, 1, kNone, 3, kNone},
       {3, 0, 3, 0, 0, 3, 0, 3}},
      {"bindex {2, 0, 2, none, 1}, current bucket 5 (empty)",
       {2, 0, 2, kNone, 1},
       5,
       {kNo, kNo, kNo, kNo, kNo},
       0,
       {2, 0, 2, kNone, 1},
       {0, 0, 0, 0, 0}},
      {"bindex {2^33, 2^33 + 1, 2^33}, current bucket 2^33 (a small delta)",
       {kBig, kBig + 1, kBig},
       kBig,
       {0, 2, kNo},
       2,
       {kNone, kBig + 1, kNone},
       {kBig + 1, 0, kBig + 1}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.input);
    const lab08::TakeBucketCheckpoint got = lab08::checkpoint_take_bucket(c.bindex, c.current);
    EXPECT_EQ(got.taken, c.taken) << c.input << ": " << got.taken
                                  << " calls of take_from_bucket returned true, expected " << c.taken
                                  << "\nhint: " << kTask2Hint;
    ASSERT_EQ(got.requests.size(), c.requests.size()) << c.input << ": the request list has the wrong size";
    const std::vector<vertex_t> filled(got.requests.begin(), got.requests.begin() + c.taken);
    const std::vector<vertex_t> wanted(c.requests.begin(), c.requests.begin() + c.taken);
    expect_same_set(filled, wanted, "requests[0 .. " + std::to_string(c.taken) + ")", c.input, kTask2Hint);
    for (std::size_t slot = c.taken; slot < got.requests.size(); ++slot) {
      EXPECT_EQ(got.requests[slot], kNo) << c.input << ": requests[" << slot << "] is "
                                         << vertex_text(got.requests[slot]) << ", expected nothing written: only "
                                         << c.taken << " vertices are in the bucket\nhint: " << kTask2Hint;
      if (got.requests[slot] != kNo) break;
    }
    expect_each(got.bindex, c.bindex_after, "bindex after the launch", c.input, kTask2Hint, bucket_text);
    expect_each(got.taken_stamp, c.stamps, "taken_stamp (S) after the launch", c.input, kTask2Hint,
                [](bucket_t b) { return std::to_string(b); });
  }
}

// Task 3, delta 5. Arcs, in CSR order: 0 -> 1 (2), 0 -> 2 (7), 0 -> 3 (5),
// 0 -> 4 (6), 5 -> 1 (1), 5 -> 6 (9). Requests {0, 5}; before: dist
// {9, 20, inf, 14, 30, 13, inf}, bindex {none, 4, none, 2, 6, none, none}.
// Light (weight <= 5: 2, 5, 1): 3 arcs offered; 1 gets 11 (and 14, which
// loses either way), bucket 11 / 5 = 2 (not the tail's 9 / 5 = 1); 3 gets 14,
// not below 14: unchanged. Heavy (7, 6, 9): 3 arcs offered; 2 gets 16
// (bucket 3), 4 gets 15 (bucket 3), 6 gets 22 (bucket 4).
TEST(Checkpoint, RelaxOffersLightOrHeavyArcsOnly) {
  SSSP_REQUIRE_GPU();
  using lab08::bucket_t;
  constexpr bucket_t kNone = lab08::kNoBucket;
  constexpr dist_t kInf = sssp::kInfinity;
  const CsrGraph g = sssp::test::hand_graph(7, {{0, 1, 2}, {0, 2, 7}, {0, 3, 5}, {0, 4, 6}, {5, 1, 1}, {5, 6, 9}});
  const std::vector<dist_t> dist = {9, 20, kInf, 14, 30, 13, kInf};
  const std::vector<bucket_t> bindex = {kNone, 4, kNone, 2, 6, kNone, kNone};
  const std::vector<vertex_t> requests = {0, 5};
  struct Case {
    bool light;
    unsigned long long offered;
    std::vector<dist_t> dist;
    std::vector<bucket_t> bindex;
  };
  const Case cases[] = {
      {true, 3, {9, 11, kInf, 14, 30, 13, kInf}, {kNone, 2, kNone, 2, 6, kNone, kNone}},
      {false, 3, {9, 20, 16, 14, 15, 13, 22}, {kNone, 4, 3, 2, 3, kNone, 4}},
  };
  for (const Case& c : cases) {
    const std::string input =
        std::string("requests {0, 5}, delta 5, ") + (c.light ? "light" : "heavy") +
        " arcs; arcs 0 -> 1 (2), 0 -> 2 (7), 0 -> 3 (5), 0 -> 4 (6), 5 -> 1 (1), 5 -> 6 (9); dist {9, 20, inf, 14, "
        "30, 13, inf}, bindex {none, 4, none, 2, 6, none, none}";
    SCOPED_TRACE(input);
    const lab08::RelaxCheckpoint got = lab08::checkpoint_relax_requests(g, dist, bindex, requests, 5, c.light);
    EXPECT_EQ(got.offered, c.offered) << input << ": " << got.offered << " arcs offered, expected " << c.offered
                                      << (c.light ? " (weights 2, 5 and 1: weight <= delta is light)"
                                                  : " (weights 7, 6 and 9: weight > delta is heavy)")
                                      << "\nhint: " << kTask3Hint;
    expect_each(got.dist, c.dist, "dist after the launch", input, kTask3Hint, dist_text);
    expect_each(got.bindex, c.bindex, "bindex after the launch", input, kTask3Hint, bucket_text);
  }
}

// Task 4, threshold 20, near items 0 (dist 10) and 1 (dist 12), one thread
// each. 0 -> 2 (5): 15 lowers inf, below 20: near. 0 -> 3 (9): 19 lowers 25:
// near. 0 -> 4 (8): 18 does not lower 15: nothing. 0 -> 5 (10): 20, not
// below 20: far. 1 -> 6 (3): 15 lowers 18: near. 1 -> 7 (30): 42: far.
// Near {2, 3, 6}, far {5, 7}; dist {10, 12, 15, 19, 15, 20, 15, 42}.
TEST(Checkpoint, OfferRoutesByTheThreshold) {
  SSSP_REQUIRE_GPU();
  constexpr dist_t kInf = sssp::kInfinity;
  const CsrGraph g = sssp::test::hand_graph(8, {{0, 2, 5}, {0, 3, 9}, {0, 4, 8}, {0, 5, 10}, {1, 6, 3}, {1, 7, 30}});
  const std::string input =
      "threshold 20, near items {0, 1}, arcs 0 -> 2 (5), 0 -> 3 (9), 0 -> 4 (8), 0 -> 5 (10), 1 -> 6 (3), 1 -> 7 "
      "(30), dist {10, 12, inf, 25, 15, inf, 18, inf}";
  const lab08::OfferCheckpoint got = lab08::checkpoint_offer(g, {10, 12, kInf, 25, 15, kInf, 18, kInf}, {0, 1}, 20, {});
  EXPECT_FALSE(got.overflow) << input << ": a list overflowed\nhint: " << kTask4Hint;
  expect_each(got.dist, {10, 12, 15, 19, 15, 20, 15, 42}, "dist after the round", input, kTask4Hint, dist_text);
  expect_same_set(got.near, {2, 3, 6}, "the next near list", input, kTask4Hint);
  expect_same_set(got.far, {5, 7}, "the far pile (what the round appended)", input, kTask4Hint);
}

// Task 4, threshold 10, near item 0 (dist 0), one thread taking its arcs in
// order: eight arcs to 1 (8, 7, ..., 1) lower it eight times below the
// threshold, eight arcs to 2 (19, 18, ..., 12) lower it eight times above
// it, and 0 -> 3 (15) lowers 3 (40), which is in the far pile already.
// Near {1} once, far {2} once (3 is not appended again); dist {0, 1, 12, 15}.
TEST(Checkpoint, OfferQueuesEachHeadOncePerList) {
  SSSP_REQUIRE_GPU();
  constexpr dist_t kInf = sssp::kInfinity;
  Arcs arcs;
  for (weight_t w = 8; w >= 1; --w) arcs.emplace_back(0, 1, w);
  for (weight_t w = 19; w >= 12; --w) arcs.emplace_back(0, 2, w);
  arcs.emplace_back(0, 3, 15);
  const CsrGraph g = sssp::test::hand_graph(4, arcs);
  const std::string input =
      "threshold 10, near item 0 (dist 0) with arcs 0 -> 1 weighing 8, 7, ..., 1, then 0 -> 2 weighing 19, 18, ..., "
      "12, then 0 -> 3 (15); dist {0, inf, inf, 40}, 3 already in the far pile";
  const lab08::OfferCheckpoint got = lab08::checkpoint_offer(g, {0, kInf, kInf, 40}, {0}, 10, {3});
  EXPECT_FALSE(got.overflow) << input << ": a list overflowed\nhint: " << kTask4Hint;
  expect_each(got.dist, {0, 1, 12, 15}, "dist after the round", input, kTask4Hint, dist_text);
  expect_same_set(got.near, {1}, "the next near list (vertex 1 is lowered 8 times in this launch)", input, kTask4Hint);
  expect_same_set(got.far, {2},
                  "the far pile (what the round appended: 2 is lowered 8 times, 3 was in the pile already)", input,
                  kTask4Hint);
}

// Task 5, the threshold moves from 20 to 30; far items 1 to 6 with distances
// 25, 15, 30, 45, 20, 29. 1 (25), 5 (20: at the old threshold) and 6 (29)
// go to near; 2 (15, below the old threshold) is dropped; 3 (30: at the new
// threshold) and 4 (45) stay far. Far marks after: only 3 and 4; the
// smallest distance that stays far: 30.
TEST(Checkpoint, SplitSendsEachVertexToOneSideOnce) {
  SSSP_REQUIRE_GPU();
  const std::vector<dist_t> dist = {0, 25, 15, 30, 45, 20, 29, sssp::kInfinity};
  const std::string input = "threshold 20 -> 30, far items {1, 2, 3, 4, 5, 6}, dist {0, 25, 15, 30, 45, 20, 29, inf}";
  const lab08::SplitCheckpoint got = lab08::checkpoint_split(dist, {1, 2, 3, 4, 5, 6}, 20, 30);
  expect_same_set(got.near, {1, 5, 6}, "the near list the split wrote", input, kTask5Hint);
  expect_same_set(got.far, {3, 4}, "the far pile the split kept", input, kTask5Hint);
  expect_each(got.in_far, {0, 0, 0, 1, 1, 0, 0, 0}, "in_far after the split", input, kTask5Hint,
              [](unsigned m) { return std::to_string(m); });
  EXPECT_EQ(got.far_min, dist_t{30}) << input << ": the smallest distance split_far_item returned is "
                                     << dist_text(got.far_min)
                                     << ", expected 30 (it returns the distance of an item that stays far, "
                                        "else infinity)\nhint: "
                                     << kTask5Hint;
}

// Every field of a task 6 checkpoint's loop state against what the contract
// leaves; a failure names the launch, the copy and the field, and what it was
// before the call.
void expect_loop_state(const lab08::LoopState& got, const lab08::LoopState& before, const lab08::LoopState& expected,
                       const std::string& input) {
  ASSERT_EQ(got.copies.size(), expected.copies.size()) << input << ": the loop state came back with the wrong number "
                                                       << "of copies\nhint: " << kTask6Hint;
  const auto field = [&](const char* name, unsigned c, auto got_value, auto before_value, auto expected_value) {
    EXPECT_EQ(got_value, expected_value) << input << ": " << name << " of copy " << c << " is " << got_value
                                         << ", expected " << expected_value
                                         << (expected_value == before_value ? " (left as it was)" : "")
                                         << "; before the call: " << before_value << "\nhint: " << kTask6Hint;
  };
  for (unsigned c = 0; c < got.copies.size(); ++c) {
    const lab08::LoopCopy& g = got.copies[c];
    const lab08::LoopCopy& b = before.copies[c];
    const lab08::LoopCopy& e = expected.copies[c];
    field("frontier.threshold", c, dist_text(g.threshold), dist_text(b.threshold), dist_text(e.threshold));
    field("frontier.far_min", c, dist_text(g.far_min), dist_text(b.far_min), dist_text(e.far_min));
    field("frontier.split", c, g.split, b.split, e.split);
    field("the near list's count", c, g.near_count, b.near_count, e.near_count);
    field("the far pile's count", c, g.far_count, b.far_count, e.far_count);
  }
  const auto stat = [&](const char* name, auto got_value, auto before_value, auto expected_value) {
    EXPECT_EQ(got_value, expected_value) << input << ": stats." << name << " is " << got_value << ", expected "
                                         << expected_value << "; before the call: " << before_value
                                         << "\nhint: " << kTask6Hint;
  };
  stat("near_rounds", got.near_rounds, before.near_rounds, expected.near_rounds);
  stat("splits", got.splits, before.splits, expected.splits);
  stat("done_launch", got.done_launch, before.done_launch, expected.done_launch);
}

// A loop state in the middle of a run (copy c: threshold, far_min, split,
// near count, far count), every value distinct so that a write to the wrong
// copy or field shows: 5 near rounds and 4 splits so far.
constexpr const char* kMidRunState =
    "copies (threshold, far_min, split, near count, far count) {(100, 101, 4, 10, 11), (200, 201, 5, 20, 21), (300, "
    "301, 6, 30, 31)}, 5 near rounds and 4 splits so far";
lab08::LoopState mid_run_state() {
  lab08::LoopState s;
  s.copies = {{100, 101, 4, 10, 11}, {200, 201, 5, 20, 21}, {300, 301, 6, 30, 31}};
  s.near_rounds = 5;
  s.splits = 4;
  return s;
}

// `s` as every launch leaves it, whatever kind it is: copy `next` holds
// `threshold` and `split`, and copy `emptied`'s near count and far_min are
// empty (the tests name both copies by hand).
lab08::LoopState with_next_copy(lab08::LoopState s, unsigned next, dist_t threshold, unsigned split, unsigned emptied) {
  s.copies[next].threshold = threshold;
  s.copies[next].split = split;
  s.copies[emptied].near_count = 0;
  s.copies[emptied].far_min = sssp::kInfinity;
  return s;
}

// Task 6 on mid_run_state(). A near round, launch 4 (its own state is copy
// 1: threshold 200, split 5): copy 2 gets threshold 200 and split 5, its
// far_min (301) and near count (30) are the blocks' and stay; copy 0's near
// count and far_min are emptied (0, inf); no far count changes; near_rounds
// 5 -> 6. A split, launch 5 (own state copy 2: split 6) to threshold 450:
// copy 0 gets threshold 450 and split 7; copy 1's near count and far_min are
// emptied; far pile (6 + 2) % 3 = 2's count is emptied (by split number: the
// launch number would say copy 1); splits 4 -> 5.
TEST(Checkpoint, NextLaunchAfterANearRoundOrASplit) {
  SSSP_REQUIRE_GPU();
  const lab08::LoopState before = mid_run_state();

  lab08::LoopState near_round = with_next_copy(before, 2, 200, 5, 0);
  near_round.near_rounds = 6;
  const std::string near_input = "launch 4, a near round under threshold 200; " + std::string(kMidRunState);
  expect_loop_state(lab08::checkpoint_next_launch(before, 4, 200, true, false), before, near_round, near_input);

  lab08::LoopState split = with_next_copy(before, 0, 450, 7, 1);
  split.copies[2].far_count = 0;
  split.splits = 5;
  const std::string split_input = "launch 5, a split to threshold 450; " + std::string(kMidRunState);
  expect_loop_state(lab08::checkpoint_next_launch(before, 5, 450, false, true), before, split, split_input);
}

// Task 6 on mid_run_state(), idle launches. Launch 6 (own state copy 0:
// threshold 100, split 4) finds both lists empty: copy 1 gets threshold 100
// and split 4, copy 2's near count and far_min are emptied, nothing is
// counted, and done_launch 0 -> 6: the host ends the run. Launch 7, idle
// too, with done_launch already 6: done_launch stays 6 (copy 2 gets copy 1's
// threshold and split, copy 0 is emptied).
TEST(Checkpoint, FirstIdleLaunchEndsTheRun) {
  SSSP_REQUIRE_GPU();
  const lab08::LoopState before = mid_run_state();
  lab08::LoopState first = with_next_copy(before, 1, 100, 4, 2);
  first.done_launch = 6;
  expect_loop_state(lab08::checkpoint_next_launch(before, 6, 100, false, false), before, first,
                    "launch 6, idle (both lists empty), done_launch 0; " + std::string(kMidRunState));

  lab08::LoopState ended = before;
  ended.done_launch = 6;
  const lab08::LoopState second = with_next_copy(ended, 2, 200, 5, 0);
  expect_loop_state(lab08::checkpoint_next_launch(ended, 7, 200, false, false), ended, second,
                    "launch 7, idle, done_launch already 6; " + std::string(kMidRunState));
}

// The performance item (rubric "perf", docs/design/perf-grading.md): the
// solver timed from this process on the graphs tests/grade.py names, against
// the reference timed the same way; without them, a smoke run of the timed path.
TEST(Perf, NearFar) {
  SSSP_REQUIRE_GPU();
  sssp::test::time_solver_on_perf_graphs("NearFar", [](const NamedGraph& g) -> sssp::test::PerfSolve {
    auto solver = std::make_shared<NearFarSssp>(g.graph);
    return [solver](vertex_t source) { return solver->run(source).values; };
  });
}

TEST(Perf, ChenDeltaStepping) {
  SSSP_REQUIRE_GPU();
  sssp::test::time_solver_on_perf_graphs("ChenDeltaStepping", [](const NamedGraph& g) -> sssp::test::PerfSolve {
    auto solver = std::make_shared<DeltaSteppingSssp>(g.graph);
    return [solver](vertex_t source) { return solver->run(source).values; };
  });
}

}  // namespace
