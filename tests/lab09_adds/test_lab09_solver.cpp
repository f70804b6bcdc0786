// Lab 09 autograder, GPU part: ADDS (tasks 2 to 7 in the kernel) on small
// graphs made to attack the protocol and the correctness argument of the
// handout: zero-weight cycles, parallel arcs, a vertex lowered after it was
// expanded, offers clipped to the last bucket (delta 1 with weights up to
// 1000), many offers to one vertex at once, 40 hubs improved at once, and
// every setting of the manager (open buckets, buckets in use, local list
// size, static and dynamic delta). Every answer is checked against the CPU
// reference in common/. A run that stalls is stopped by the manager's
// watchdog and reported with the queue's state, and every test runs under
// the grader's timeout. The large graphs are in test_lab09_large.cpp, the
// queue harness in test_lab09_queue_harness.cpp, the checkpoints in
// test_lab09_checkpoints.cpp. Every test needs a GPU and is skipped, with the
// reason, without one.
#include <string>
#include <vector>

#include "lab09.hpp"
#include "lab09_gpu_test.hpp"
#include "sssp_test.hpp"

namespace {

using lab09::AddsOptions;
using lab09::AddsSssp;
using lab09::test::Arcs;
using lab09::test::describe;
using lab09::test::expect_correct;
using lab09::test::generated;
using lab09::test::generated_graphs;
using lab09::test::kHint;
using lab09::test::kHugeDelta;
using lab09::test::named;
using lab09::test::options;
using sssp::dist_t;
using sssp::vertex_t;
using sssp::weight_t;
using sssp::test::NamedGraph;

// ------------------------------------------------------------ the graphs --

// Delta 10: vertex 1 is expanded at distance 9, then the path 0 -> 2 -> 3 ->
// 1 lowers it to 3, in the same bucket: it must be expanded again, and its
// arc 1 -> 5 (25) must use 3, not 9. Distances: 0, 3, 1, 2, 4, 28.
NamedGraph lowered_after_expanded() {
  return named("vertex 1 expanded at 9, then lowered to 3 in the same bucket (designed for delta = 10)",
               sssp::test::hand_graph(6, Arcs{{0, 1, 9}, {0, 2, 1}, {2, 3, 1}, {3, 1, 1}, {1, 4, 1}, {1, 5, 25}}));
}

// Zero-weight cycles (0 -> 1 -> 2 -> 0 and 3 <-> 4) and parallel arcs
// 0 -> 3 (7 and 4). Distances: 0, 0, 0, 4, 4, 7.
NamedGraph zero_cycles_and_parallel_arcs() {
  return named("zero-weight cycles 0-1-2-0 and 3-4-3, parallel arcs 0->3 of 7 and 4",
               sssp::test::hand_graph(6, Arcs{{0, 1, 0},
                                              {1, 2, 0},
                                              {2, 0, 0},
                                              {2, 3, 5},
                                              {0, 3, 7},
                                              {0, 3, 4},
                                              {3, 4, 0},
                                              {4, 3, 0},
                                              {4, 5, 3},
                                              {3, 5, 10}}));
}

// A vertex first reached far away (clipped to the last bucket at distance
// 1000) and then, while it waits there, lowered to 3 by a path of 3 arcs:
// the better copy must win. Distances: 0, 3, 1, 2, 4.
NamedGraph improved_while_clipped() {
  return named("vertex 1 reached at 1000 (clipped to the last bucket), then lowered to 3",
               sssp::test::hand_graph(5, Arcs{{0, 1, 1000}, {0, 2, 1}, {2, 3, 1}, {3, 1, 1}, {1, 4, 1}}));
}

// 40 hubs of 1,100 arcs each (more than a warp expands; the whole block
// does), which the source's one expansion improves together. A block's list
// publishes the hubs it meets, so with one worker block they all come back
// to it in one chunk, while its hub list holds 32: 8 go to their warps.
// Every hub has leaves of its own, so a hub set aside and never expanded, or
// lost when the list is full, leaves its 1,100 leaves unreached. Small
// enough for the sanitizers.
NamedGraph more_hubs_than_the_list_holds() {
  constexpr vertex_t kHubCount = 40;
  constexpr vertex_t kLeavesPerHub = 1100;
  Arcs arcs;
  for (vertex_t h = 0; h < kHubCount; ++h) {
    const vertex_t hub = 1 + h;
    arcs.emplace_back(0, hub, h + 1);
    for (vertex_t j = 0; j < kLeavesPerHub; ++j) {
      const vertex_t leaf = 1 + kHubCount + h * kLeavesPerHub + j;
      arcs.emplace_back(hub, leaf, 1 + (h * 7919u + j * 104729u) % 1000);
    }
  }
  return named("40 hubs of 1,100 arcs, all improved by the source at once, each with leaves of its own",
               sssp::test::hand_graph(1 + kHubCount + kHubCount * kLeavesPerHub, arcs));
}

// ---------------------------------------------------------------- tests --

TEST(Adds, TinyHandCheckedGraphs) {
  SSSP_REQUIRE_GPU();
  for (const dist_t delta : {dist_t{1}, dist_t{3}, dist_t{0}, kHugeDelta}) {
    expect_correct(sssp::test::graphs_of_kind(NamedGraph::Kind::kTiny), options(delta));
  }
}

TEST(Adds, GeneratorFamilies) {
  SSSP_REQUIRE_GPU();
  expect_correct(sssp::test::graphs_of_kind(NamedGraph::Kind::kGenerated), AddsOptions{});
}

TEST(Adds, CornerCases) {
  SSSP_REQUIRE_GPU();
  expect_correct(sssp::test::graphs_of_kind(NamedGraph::Kind::kCorner), AddsOptions{});
  expect_correct(sssp::test::graphs_of_kind(NamedGraph::Kind::kCorner), options(1, 1, 0));
}

TEST(Adds, ZeroWeightCyclesAndParallelArcs) {
  SSSP_REQUIRE_GPU();
  const NamedGraph g = zero_cycles_and_parallel_arcs();
  for (const dist_t delta : {dist_t{1}, dist_t{4}, kHugeDelta}) expect_correct({&g}, options(delta), 6);
}

TEST(Adds, LoweredAfterItWasExpanded) {
  SSSP_REQUIRE_GPU();
  const NamedGraph g = lowered_after_expanded();
  for (const unsigned local_items : {0u, 4096u}) expect_correct({&g}, options(10, 2, local_items), 1);
}

TEST(Adds, ImprovedWhileClippedToTheLastBucket) {
  SSSP_REQUIRE_GPU();
  const NamedGraph g = improved_while_clipped();
  for (const unsigned buckets : {2u, 32u}) expect_correct({&g}, options(1, 1, 0, false, buckets), 1);
}

// Delta 1 (every distance its own bucket, most offers clipped), a small
// delta, the rule's, and one bucket for everything (a worklist Bellman-Ford).
TEST(Adds, DeltaFromOneToHuge) {
  SSSP_REQUIRE_GPU();
  const auto graphs = generated_graphs();
  for (const dist_t delta : {dist_t{1}, dist_t{37}, dist_t{0}, kHugeDelta}) expect_correct(graphs, options(delta), 2);
}

// The manager's every setting: one open bucket or many, 2 buckets (Near-Far's
// split) or 32, no local list (every improvement through the queue), a list
// of one item or 64 (most improvements overflow it and are published), or the
// largest; one worker block (it takes every chunk), two, or as many as fit.
TEST(Adds, EveryManagerSetting) {
  SSSP_REQUIRE_GPU();
  const auto graphs = generated_graphs();
  constexpr unsigned kAll = lab09::kBuckets;
  for (const AddsOptions& o : {options(0, 1, 0), options(0, 2, 0), options(0, 4, 1), options(0, 32, 64),
                               options(0, 2, 64, false, 2), options(0, 1, 4096, false, 2), options(0, 2, 4096),
                               options(0, 2, 4096, false, kAll, 1), options(0, 2, 64, false, kAll, 2)}) {
    expect_correct(graphs, o, 2);
  }
}

// 1024 parallel arcs 0 -> 1, expanded by one warp, 32 arcs a step. Every
// step's offers are all below the last step's, so every lane of a step
// stores at once; the smallest offer of the last step sits in lane 0
// (`smallest_first`) or lane 31. Stores of one warp instruction to one
// address keep one lane's value, by a rule of the hardware, not the
// smallest: without a true atomic minimum one of the two graphs ends wrong.
NamedGraph one_warp_offers(bool smallest_first) {
  Arcs arcs;
  for (vertex_t i = 0; i < 1024; ++i) {
    const weight_t lane = i % 32;
    arcs.emplace_back(0, 1, 1000000 - 1000 * (i / 32) + (smallest_first ? lane : 31 - lane));
  }
  return named(std::string("1024 parallel arcs 0 -> 1, 32 offers per warp step, decreasing step by step, the "
                           "smallest of each step in lane ") +
                   (smallest_first ? "0" : "31"),
               sssp::test::hand_graph(2, arcs));
}

// Thousands of offers to one vertex at once: only a true atomic minimum
// keeps the smallest. Besides the two graphs above: the fan-in (20,000
// middle vertices, one sink) and 20,000 parallel arcs in random order, where
// a lost update shows only in some runs, so every graph runs 32 times.
TEST(Adds, ManyConcurrentOffersToOneVertex) {
  SSSP_REQUIRE_GPU();
  const NamedGraph lane0 = one_warp_offers(true);
  const NamedGraph lane31 = one_warp_offers(false);
  const NamedGraph fan_in = sssp::test::fan_in_graph(20000);
  const NamedGraph parallel = sssp::test::parallel_arcs_graph(20000);
  for (const NamedGraph* g : {&lane0, &lane31, &parallel, &fan_in}) {
    for (const AddsOptions& o : {AddsOptions{}, options(kHugeDelta, 1, 0)}) {
      AddsSssp solver(g->graph, o);
      for (int run = 1; run <= 32; ++run) {
        sssp::test::announce_run(*g, 0, "run " + std::to_string(run) + " of 32");
        ASSERT_TRUE(sssp::test::matches_reference_sssp(*g, 0, solver.run(0).values, kHint))
            << describe(o, solver.delta()) << ", run " << run << " of 32";
      }
    }
  }
}

// Hubs claimed together, more than the block's hub list holds: one worker
// block, so that they come to it in one chunk, with a local list (the hubs go
// through it) and without; then as many workers as fit (a chunk each).
TEST(Adds, MoreHubsThanABlockSetsAside) {
  SSSP_REQUIRE_GPU();
  const NamedGraph g = more_hubs_than_the_list_holds();
  for (const unsigned local_items : {4096u, 0u}) {
    expect_correct({&g}, options(kHugeDelta, 2, local_items, false, lab09::kBuckets, 1), 1);
  }
  expect_correct({&g}, options(kHugeDelta), 1);
}

// Running out of queue pages stops the run with an error that says so; it

}  // namespace
