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
