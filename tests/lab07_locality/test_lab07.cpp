// Lab 07 autograder: locality-based relaxation on the GPU. Every answer is
// checked against the CPU reference in common/; the graphs attack the
// correctness argument of the handout (zero-weight cycles, parallel arcs, a
// vertex lowered after its flag was consumed, k beyond the diameter, vertex
// counts that are not a multiple of the vertices per thread). Every test
// needs a GPU and is skipped, with the reason, without one.
#include <cstdint>
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

// ------------------------------------------------- task 1 alone: one wave --
//
// lab07::run_one_wave runs task 1's relax_wave in one GPU thread and nothing
// else (tasks 2-4 are not needed), so these tests grade task 1 alone. With
// one thread a wave is exact: it tries each vertex's arcs in CSR order and
// finishes the arcs of a vertex it went on to before the next arc below it.

constexpr const char* kWaveHint =
    "task 1 (relax_wave in wave.cuh): the wave from u tries u's arcs in CSR order; an offer "
    "frame.dist + w that improves dist[v] (read, then atomic_min_dist) goes on from v (a pushed Frame) "
    "when v is less than k arcs from u, and flags v in next_flags (and sets work.flagged) when v is k "
    "arcs from u; an offer that does not improve moves on to the next arc. work.expanded counts u and "
    "every push, work.arcs every arc tried";

constexpr sssp::dist_t kInf = sssp::kInfinity;

std::string show(sssp::dist_t d) { return d == kInf ? std::string("infinity") : std::to_string(d); }

// One wave and everything it must leave behind.
struct WaveCase {
  std::string graph;  // how the graph is described in failure messages
  CsrGraph csr;
  std::vector<sssp::dist_t> dist;  // before the wave
  vertex_t start = 0;
  unsigned depth = 1;
  std::vector<sssp::dist_t> want_dist;  // after the wave
  std::vector<vertex_t> want_flags;     // the vertices flagged, every other flag clear
  unsigned long long want_expanded = 0;
  unsigned long long want_arcs = 0;
};

void expect_wave(const WaveCase& c) {
  const std::string where =
      "graph " + c.graph + ", one wave from vertex " + std::to_string(c.start) + " with k = " + std::to_string(c.depth);
  const lab07::WaveResult got = lab07::run_one_wave(c.csr, c.dist, c.start, c.depth);
  const std::size_t n = c.want_dist.size();
  ASSERT_EQ(got.dist.size(), n) << where << ": the distances of every vertex must come back";
  ASSERT_EQ(got.next_flags.size(), n) << where << ": one next flag per vertex must come back";
  for (vertex_t v = 0; v < n; ++v) {
    if (got.dist[v] != c.want_dist[v]) {
      ADD_FAILURE() << where << ": first wrong distance at vertex " << v << ": expected " << show(c.want_dist[v])
                    << ", got " << show(got.dist[v]) << " (before the wave: " << show(c.dist[v])
                    << ")\nhint: " << kWaveHint;
      break;
    }
  }
  std::vector<std::uint8_t> want_flags(n, 0);
  for (const vertex_t v : c.want_flags) want_flags[v] = 1;
  for (vertex_t v = 0; v < n; ++v) {
    if ((got.next_flags[v] != 0) != (want_flags[v] != 0)) {
      ADD_FAILURE() << where << ": first wrong next flag at vertex " << v << ": expected "
                    << (want_flags[v] != 0 ? "flagged (improved k arcs from the start)" : "not flagged") << ", got "
                    << (got.next_flags[v] != 0 ? "flagged" : "not flagged") << "\nhint: " << kWaveHint;
      break;
    }
  }
  EXPECT_EQ(got.flagged, !c.want_flags.empty())
      << where << ": work.flagged must say whether the wave flagged any vertex\nhint: " << kWaveHint;
  EXPECT_EQ(got.expanded, c.want_expanded)
      << where << ": vertices expanded (the start and every vertex the wave went on from)\nhint: " << kWaveHint;
  EXPECT_EQ(got.arcs, c.want_arcs) << where << ": arcs tried (every arc, improving or not)\nhint: " << kWaveHint;
}

// Graph A, arcs in CSR order:
//   0 -> 1 (2), 0 -> 2 (5), 0 -> 3 (1)
//   1 -> 4 (3), 1 -> 2 (1)
//   2 -> 5 (1)
//   3 -> 2 (10)
//   4 -> 6 (1)
// Before the wave: dist = [0, inf, inf, 1, inf, inf, inf] (vertex 3 already at 1).
CsrGraph graph_a() {
  return sssp::test::hand_graph(
      7, {{0, 1, 2}, {0, 2, 5}, {0, 3, 1}, {1, 4, 3}, {1, 2, 1}, {2, 5, 1}, {3, 2, 10}, {4, 6, 1}});
}
const std::vector<sssp::dist_t> kGraphABefore = {0, kInf, kInf, 1, kInf, kInf, kInf};
const std::string kGraphAName =
    "A (7 vertices: 0->1 2, 0->2 5, 0->3 1, 1->4 3, 1->2 1, 2->5 1, 3->2 10, 4->6 1; dist[3] = 1 before)";

// k = 2 from 0 (depth 0):
//   0->1: 2 < inf, dist[1] = 2, depth 1 < k: go on from 1.
//     1->4: 5 < inf, dist[4] = 5, depth 2 = k: flag 4.
//     1->2: 3 < inf, dist[2] = 3, depth 2 = k: flag 2.
//   0->2: 5 >= 3, no improvement (1 was finished first: depth-first).
//   0->3: 1 >= 1, no improvement: the wave does not go on from 3 (3->2 untried).
// dist = [0, 2, 3, 1, 5, inf, inf], flags {2, 4}, expanded 2 (0 and 1), arcs 5.
// k = 3 from 0:
//   0->1: dist[1] = 2, go on from 1.
//     1->4: dist[4] = 5, depth 2 < 3: go on from 4.
//       4->6: dist[6] = 6, depth 3: flag 6.
//     1->2: dist[2] = 3, go on from 2.
//       2->5: dist[5] = 4, depth 3: flag 5.
//   0->2: 5 >= 3; 0->3: 1 >= 1.
// dist = [0, 2, 3, 1, 5, 4, 6], flags {5, 6}, expanded 4 (0, 1, 4, 2), arcs 7.
TEST(Wave, OneWaveFromOneVertexOnAHandMadeGraph) {
  SSSP_REQUIRE_GPU();
  expect_wave({kGraphAName, graph_a(), kGraphABefore, 0, 2, {0, 2, 3, 1, 5, kInf, kInf}, {2, 4}, 2, 5});
  expect_wave({kGraphAName, graph_a(), kGraphABefore, 0, 3, {0, 2, 3, 1, 5, 4, 6}, {5, 6}, 4, 7});
  // From vertex 1 at distance 2 (an earlier launch flagged it), k = 2:
  //   1->4: dist[4] = 5, go on from 4.
  //     4->6: dist[6] = 6, depth 2: flag 6.
  //   1->2: dist[2] = 3, go on from 2.
  //     2->5: dist[5] = 4, depth 2: flag 5.
  // dist = [0, 2, 3, 1, 5, 4, 6], flags {5, 6}, expanded 3 (1, 4, 2), arcs 4.
  expect_wave({kGraphAName + " with dist[1] = 2 before",
               graph_a(),
               {0, 2, kInf, 1, kInf, kInf, kInf},
               1,
               2,
               {0, 2, 3, 1, 5, 4, 6},
               {5, 6},
               3,
               4});
}

// k = 1 from 0 on graph A: every improved head is 1 arc away, so it is
// flagged, never gone on from.
//   0->1: dist[1] = 2, flag 1.   0->2: dist[2] = 5, flag 2.   0->3: 1 >= 1.
// dist = [0, 2, 5, 1, inf, inf, inf], flags {1, 2}, expanded 1, arcs 3.
// A wave from vertex 5 (no out-arcs) at distance 7: expanded 1, arcs 0,
// nothing flagged, nothing changed.
TEST(Wave, DepthOneFlagsEveryImprovedHead) {
  SSSP_REQUIRE_GPU();
  expect_wave({kGraphAName, graph_a(), kGraphABefore, 0, 1, {0, 2, 5, 1, kInf, kInf, kInf}, {1, 2}, 1, 3});
  expect_wave({kGraphAName + " with dist[5] = 7 before",
               graph_a(),
               {0, kInf, kInf, 1, kInf, 7, kInf},
               5,
               1,
               {0, kInf, kInf, 1, kInf, 7, kInf},
               {},
               1,
               0});
}

// Graph B, a zero-weight cycle 0 -> 1 -> 2 -> 0 with exits:
//   0 -> 1 (0);  1 -> 2 (0), 1 -> 3 (4);  2 -> 0 (0), 2 -> 3 (1);  3 -> 4 (0)
// Before: dist = [0, inf, inf, inf, 10] (vertex 4 at 10 from elsewhere).
// k = 3 from 0:
//   0->1: 0 < inf, dist[1] = 0, go on from 1.
//     1->2: 0 < inf, dist[2] = 0, go on from 2.
//       2->0: 0 >= 0: the cycle does not improve 0, no going round it.
//       2->3: 1 < inf, dist[3] = 1, depth 3: flag 3.
//     1->3: 4 >= 1.
// dist = [0, 0, 0, 1, 10], flags {3}, expanded 3, arcs 5. Vertex 4 could be
// lowered to 1, but that improvement is 4 arcs deep: it is left to the next
// launch (from the flag of 3), and dist[4] stays 10.
//
// Graph C, a vertex flagged deep and then improved nearer the start:
//   0 -> 1 (1), 0 -> 2 (1);  1 -> 2 (5);  2 -> 3 (1)
// k = 2 from 0, dist = [0, inf, inf, inf] before:
//   0->1: dist[1] = 1, go on from 1.
//     1->2: 6 < inf, dist[2] = 6, depth 2: flag 2.
//   0->2: 1 < 6, dist[2] = 1, depth 1: go on from 2 (its flag stays set).
//     2->3: dist[3] = 2, depth 2: flag 3.
// dist = [0, 1, 1, 2], flags {2, 3}, expanded 3 (0, 1, 2), arcs 4.
TEST(Wave, ZeroWeightCycleAndAVertexImprovedTwice) {
  SSSP_REQUIRE_GPU();
  const CsrGraph b = sssp::test::hand_graph(5, {{0, 1, 0}, {1, 2, 0}, {1, 3, 4}, {2, 0, 0}, {2, 3, 1}, {3, 4, 0}});
  expect_wave({"B (zero-weight cycle 0->1->2->0 with exits 1->3 4, 2->3 1, 3->4 0; dist[4] = 10 before)",
               b,
               {0, kInf, kInf, kInf, 10},
               0,
               3,
               {0, 0, 0, 1, 10},
               {3},
               3,
               5});
  const CsrGraph c = sssp::test::hand_graph(4, {{0, 1, 1}, {0, 2, 1}, {1, 2, 5}, {2, 3, 1}});
  expect_wave({"C (0->1 1, 0->2 1, 1->2 5, 2->3 1)", c, {0, kInf, kInf, kInf}, 0, 2, {0, 1, 1, 2}, {2, 3}, 3, 4});
}

// ------------------------------------------- task 2 alone: one launch --
//
// lab07::run_one_flag_launch runs task 2's start_waves over a hand-made flag
// array, as the solver's kernel does, with a given stand-in for the wave
// (task 1 is not needed): the "wave" from u records which thread started it
// and returns expanded 1, arcs u + 1, flagged iff u % 3 == 2. Thread t owns
// vertices t*P .. t*P + P - 1, so each flagged vertex v must be started once,
// by thread v / P, every flag read must be cleared, and the totals add up.

constexpr const char* kFlagHint =
    "task 2 (start_waves in locality_sssp.cu): thread t reads the flags of vertices t*P .. t*P + P - 1 "
    "as one Word, owned[t] (byte j, (word >> 8j) & 0xFF, is vertex t*P + j); when any is set it clears "
    "the word (owned[t] = 0) and calls wave(t*P + j) once for each flagged j, adding up the work the "
    "waves return (expanded, arcs; flagged if any wave flagged)";

void expect_flag_launch(vertex_t n, const std::vector<vertex_t>& flagged, unsigned vpt, unsigned block) {
  const std::size_t padded = (std::size_t{n} + 3) / 4 * 4;
  std::vector<std::uint8_t> flags(padded, 0);
  std::string listed;
  unsigned long long want_arcs = 0;
  bool want_flagged = false;
  for (const vertex_t v : flagged) {
    flags[v] = 1;
    listed += (listed.empty() ? "" : ", ") + std::to_string(v);
    want_arcs += v + 1ull;
    want_flagged = want_flagged || v % 3 == 2;
  }
  const std::string where = "one launch over a flag array of " + std::to_string(n) + " vertices with flags at {" +
                            listed + "}, " + std::to_string(vpt) + " vertices per thread, blocks of " +
                            std::to_string(block) + " threads";
  const lab07::FlagLaunchResult got = lab07::run_one_flag_launch(flags, n, vpt, block);
  ASSERT_EQ(got.flags.size(), padded) << where;
  ASSERT_EQ(got.started_by.size(), padded) << where;
  ASSERT_EQ(got.starts.size(), padded) << where;
  for (vertex_t v = 0; v < padded; ++v) {
    const unsigned want = flags[v];
    if (got.starts[v] != want) {
      ADD_FAILURE() << where << ": first wrong vertex " << v << ": expected " << want
                    << " wave(s) started from it, got " << got.starts[v] << "\nhint: " << kFlagHint;
      break;
    }
    if (want == 1 && got.started_by[v] != v / vpt) {
      ADD_FAILURE() << where << ": first wrong vertex " << v << ": expected its wave started by thread " << v / vpt
                    << ", got thread " << got.started_by[v] << "\nhint: " << kFlagHint;
      break;
    }
  }
  for (vertex_t v = 0; v < padded; ++v) {
    if (got.flags[v] != 0) {
      ADD_FAILURE() << where << ": first wrong vertex " << v << ": expected its flag cleared after the launch, got "
                    << int{got.flags[v]} << " (" << (flags[v] != 0 ? "flagged before" : "not flagged before")
                    << ")\nhint: " << kFlagHint;
      break;
    }
  }
  EXPECT_EQ(got.expanded, flagged.size())
      << where << ": vertices expanded, added up (the stand-in's waves expand 1 each)\nhint: " << kFlagHint;
  EXPECT_EQ(got.arcs, want_arcs) << where
                                 << ": arcs, added up (the stand-in's wave from u tries u + 1)\nhint: " << kFlagHint;
  EXPECT_EQ(got.flagged, want_flagged)
      << where << ": flagged must be set iff any wave flagged (the stand-in's wave from u flags iff u % 3 == 2)"
      << "\nhint: " << kFlagHint;
}

// Vertices 0, 3, 4, 5 and 9 of 10 flagged: with P = 1 threads 0, 3, 4, 5, 9
// start them; with P = 2 threads 0, 1, 2, 2, 4; with P = 4 threads 0, 0, 1,
// 1, 2. Then 7 vertices with P = 4 (the last word half padding) and 1023
// with P = 4 over 4 blocks of 64 threads.
TEST(FlagWords, EachFlaggedVertexStartedOnceByItsThread) {
  SSSP_REQUIRE_GPU();
  for (const unsigned vpt : {1u, 2u, 4u}) expect_flag_launch(10, {0, 3, 4, 5, 9}, vpt, 32);
  expect_flag_launch(7, {1, 6}, 4, 32);
  std::vector<vertex_t> every_seventh;
  for (vertex_t v = 3; v < 1023; v += 7) every_seventh.push_back(v);
  for (const unsigned vpt : {1u, 2u, 4u}) expect_flag_launch(1023, every_seventh, vpt, 64);
}

// Vertices 2 and 3 of 8 with P = 4: thread 0 starts 2 (whose stand-in wave
// flags) and then 3 (whose does not): the thread flagged; expanded 2, arcs
// 3 + 4 = 7. Vertices 3 and 4 with P = 2 (threads 1 and 2): neither flags,
// expanded 2, arcs 4 + 5 = 9. No flag at all: nothing started, all zero.
TEST(FlagWords, WorkAddedUpAndFlaggedIfAnyWaveFlagged) {
  SSSP_REQUIRE_GPU();
  expect_flag_launch(8, {2, 3}, 4, 32);
  expect_flag_launch(8, {3, 4}, 2, 32);
  expect_flag_launch(8, {}, 4, 32);
}

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
// depth k and flags nothing. Every vertex is expanded once, every arc tried
// once. The counts are checked only with the distances of the same run right.
TEST(LocalitySssp, CountersOnAChain) {
  SSSP_REQUIRE_GPU();
  const NamedGraph chain{"chain of 300", sssp::to_csr(sssp::make_chain(300, sssp::WeightPolicy::uniform(1, 9, 1)))};
  lab07::Options o = options(4, 2);
  o.blind_launches = 0;
  lab07::LocalitySssp solver(chain.graph, o);
  const sssp::SsspResult result = solver.run(0);
  ASSERT_TRUE(sssp::test::matches_reference_sssp(chain, 0, result.values, kHint)) << describe(o);
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
  const NamedGraph doubled{"chain of 300 with every arc doubled backwards", sssp::test::hand_graph(300, arcs)};
  lab07::LocalitySssp both_ways(doubled.graph, o);
  const sssp::SsspResult back_result = both_ways.run(0);
  ASSERT_TRUE(sssp::test::matches_reference_sssp(doubled, 0, back_result.values, kHint)) << describe(o);
  const Counters& back = back_result.counters;
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
  ASSERT_TRUE(sssp::test::matches_reference_sssp(chain, 0, solver.run(0).values, kHint))
      << "the first run, which teaches the solver N";
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
