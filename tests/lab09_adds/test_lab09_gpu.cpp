// Lab 09 autograder, GPU part: ADDS (tasks 2 to 5 in the kernel). Every
// answer is checked against the CPU reference in common/. The graphs attack
// the protocol and the correctness argument of the handout: zero-weight
// cycles, parallel arcs, a vertex lowered after it was expanded, offers
// clipped to the last bucket (delta 1 with weights up to 1000), many offers
// to one vertex at once, a 60,000-way star, a 150,000-long chain, power-law
// hubs, 40 hubs improved at once, and every setting of the manager (open
// buckets, buckets in use, local list size, static and dynamic delta). A run
// that stalls is stopped by the manager's watchdog and reported with the
// queue's state, and every test runs under the grader's timeout. Every test needs a GPU and is skipped, with the
// reason, without one.
#include <algorithm>
#include <cstdint>
#include <sstream>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "lab09.hpp"
#include "sssp/errors.hpp"
#include "sssp/generators.hpp"
#include "sssp/reference.hpp"
#include "sssp/weights.hpp"
#include "perf_test.hpp"
#include "sssp_test.hpp"

namespace {

using lab09::AddsOptions;
using lab09::AddsSssp;
using sssp::CsrGraph;
using sssp::dist_t;
using sssp::vertex_t;
using sssp::weight_t;
using sssp::test::NamedGraph;
using Arcs = std::vector<std::tuple<vertex_t, vertex_t, weight_t>>;

// One bucket holds every distance of the course.
constexpr dist_t kHugeDelta = dist_t{1} << 62;

constexpr const char* kHint =
    "ADDS: a worker skips an item already expanded at its current distance, offers dist + w along every arc with "
    "atomicMin, and an offer that wins must be expanded later: kept in the block's local list (same bucket, room "
    "left) or published into bucket_of(offer) (reserve with atomicAdd on resv, write, __threadfence, then add 1 "
    "to the segment's wcc). The manager may hand out only slots it knows are written: full segments (wcc == 32), "
    "or a partial one whose wcc matches resv reloaded after it";

std::string describe(const AddsOptions& o, dist_t used) {
  std::ostringstream text;
  text << "ADDS, delta ";
  if (o.delta == 0) {
    text << "C x W / D with C = " << o.c << " (the solver chose " << used << ")";
  } else if (o.delta == kHugeDelta) {
    text << "2^62 (one bucket holds everything)";
  } else {
    text << o.delta;
  }
  text << ", " << o.buckets << " buckets, " << o.max_open << " open, " << o.local_items << " local items, "
       << (o.dynamic_delta ? "dynamic" : "static") << " delta";
  if (o.workers != 0) text << ", " << o.workers << (o.workers == 1 ? " worker block" : " worker blocks");
  return text.str();
}

AddsOptions options(dist_t delta, unsigned max_open = 2, unsigned local_items = 4096, bool dynamic = false,
                    unsigned buckets = lab09::kBuckets, unsigned workers = 0) {
  AddsOptions o;
  o.delta = delta;
  o.max_open = max_open;
  o.local_items = local_items;
  o.dynamic_delta = dynamic;
  o.buckets = buckets;
  o.workers = workers;
  return o;
}

// Runs ADDS with `o` on each graph from `sources` sample sources (one solver
// per graph, so every run must reset the state of the previous one) and
// checks every answer.
void expect_correct(const std::vector<const NamedGraph*>& graphs, const AddsOptions& o,
                    std::size_t sources = sssp::test::kSampleSources) {
  for (const NamedGraph* g : graphs) {
    if (g->graph.num_vertices() == 0) continue;
    AddsSssp solver(g->graph, o);
    const std::string text = describe(o, solver.delta());
    for (const vertex_t source : sssp::test::sample_sources(g->graph, sources)) {
      sssp::test::announce_run(*g, source, text);
      ASSERT_TRUE(sssp::test::matches_reference_sssp(*g, source, solver.run(source).values, kHint)) << text;
    }
  }
}

void expect_correct(const std::vector<NamedGraph>& graphs, const AddsOptions& o,
                    std::size_t sources = sssp::test::kSampleSources) {
  expect_correct(sssp::test::pointers(graphs), o, sources);
}

NamedGraph named(std::string name, CsrGraph graph) { return {std::move(name), std::move(graph)}; }

std::vector<NamedGraph> generated_graphs() {
  std::vector<NamedGraph> graphs;
  for (const NamedGraph* g : sssp::test::graphs_of_kind(NamedGraph::Kind::kGenerated)) graphs.push_back(*g);
  return graphs;
}

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

NamedGraph generated(std::string name, const sssp::EdgeList& edges) {
  return named(std::move(name), sssp::to_csr(edges));
}

// Vertices with a finite reference distance from `source`, and the arcs leaving them.
std::pair<std::uint64_t, std::uint64_t> reached(const CsrGraph& g, vertex_t source) {
  const std::vector<dist_t> d = sssp::reference_dijkstra(g, source);
  std::uint64_t vertices = 0, arcs = 0;
  for (vertex_t v = 0; v < g.num_vertices(); ++v) {
    if (d[v] != sssp::kInfinity) {
      ++vertices;
      arcs += g.out_degree(v);
    }
  }
  return {vertices, arcs};
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

// The graphs that must never hang.
TEST(Adds, StarWith60000WayInDegree) {
  SSSP_REQUIRE_GPU();
  const NamedGraph star = generated("star of 60,000 (arcs out of and into the centre)",
                                    sssp::make_star(60000, sssp::WeightPolicy::uniform(1, 1000, 3)));
  expect_correct({&star}, AddsOptions{}, 2);
}

TEST(Adds, ChainOf150000) {
  SSSP_REQUIRE_GPU();
  const NamedGraph chain =
      generated("chain of 150,000", sssp::make_chain(150000, sssp::WeightPolicy::uniform(1, 1000, 4)));
  expect_correct({&chain}, AddsOptions{}, 1);
}

TEST(Adds, RmatScale16NeverHangs) {
  SSSP_REQUIRE_GPU();
  const NamedGraph rmat =
      generated("R-MAT scale 16, edge factor 16", sssp::make_rmat(16, 16, sssp::WeightPolicy::uniform(1, 1000, 5), 5));
  expect_correct({&rmat}, AddsOptions{}, 2);
  expect_correct({&rmat}, options(0, 2, 32, true), 1);
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
// never drops work silently. The star's centre publishes 60,000 leaves at
// once: more than 70 pages of 4096 slots, with 64 mapped ahead.
TEST(Adds, PoolExhaustionIsAnError) {
  SSSP_REQUIRE_GPU();
  const NamedGraph star = generated("star of 60,000", sssp::make_star(60000, sssp::WeightPolicy::uniform(1, 1000, 3)));
  AddsOptions o;
  o.pool_pages = 70;
  o.local_items = 0;
  AddsSssp solver(star.graph, o);
  sssp::test::announce_run(star, 0, "70 pool pages: must stop with an error");
  try {
    (void)solver.run(0);
    FAIL() << star.name << ", " << describe(o, solver.delta())
           << ", 70 pool pages: the run returned, but the 60,000 leaves cannot fit. hint: when the free-page stack "
              "is empty the manager must stop the run with the pool error, and run() must throw it";
  } catch (const sssp::AlgorithmError& e) {
    EXPECT_NE(std::string(e.what()).find("pool"), std::string::npos) << "the error must name the pool: " << e.what();
  }
  // A run that fits the same small pool gets the right answer: one bucket
  // for every distance touches one bucket, so it needs 66 pages of the 70.
  const NamedGraph small = generated("chain of 1000", sssp::make_chain(1000, sssp::WeightPolicy::uniform(1, 10, 1)));
  o.delta = kHugeDelta;
  AddsSssp fits(small.graph, o);
  ASSERT_TRUE(sssp::test::matches_reference_sssp(small, 0, fits.run(0).values, kHint))
      << "70 pool pages, " << describe(o, fits.delta());
}

// With a dynamic delta the manager decides every few head switches, and
// each decision must be next_delta (task 5) of what it measured.
TEST(Adds, DynamicDeltaFollowsNextDelta) {
  SSSP_REQUIRE_GPU();
  const NamedGraph grid = generated("grid 300x300", sssp::make_grid(300, 300, sssp::WeightPolicy::uniform(1, 1000, 5)));
  AddsOptions o = options(0, 2, 8, true);
  o.c = 8;  // delta about 1000 against distances up to about 150,000: over 100 head switches
  AddsSssp solver(grid.graph, o);
  sssp::test::announce_run(grid, 0, describe(o, solver.delta()));
  ASSERT_TRUE(sssp::test::matches_reference_sssp(grid, 0, solver.run(0).values, kHint)) << describe(o, solver.delta());
  const std::vector<lab09::TraceEntry> trace = solver.last_trace();
  ASSERT_FALSE(trace.empty()) << grid.name
                              << ": a run of hundreds of head switches made no delta decision. hint: "
                                 "with dynamic_delta the manager decides every 8 switches";
  const lab09::DeltaBounds bounds = solver.delta_bounds();
  dist_t delta = solver.delta();
  for (std::size_t i = 0; i < trace.size(); ++i) {
    const lab09::TraceEntry& e = trace[i];
    ASSERT_EQ(e.signal.delta, delta) << "decision " << i << ": the manager decided from another delta than the last "
                                     << "decision left";
    ASSERT_EQ(e.delta, lab09::next_delta(e.signal, bounds))
        << "decision " << i << " (manager pass " << e.pass << "): utilisation " << e.signal.utilisation
        << ", tail share " << e.signal.tail_share << ", repeat share " << e.signal.repeat_share
        << ": the kernel's delta differs from next_delta of the same signal";
    ASSERT_GE(e.delta, bounds.min_delta);
    ASSERT_LE(e.delta, bounds.max_delta);
    delta = e.delta;
  }
  EXPECT_EQ(solver.last_stats().final_delta, delta) << "the run ended with another delta than its last decision";
}

// Counters the handout's tables use: every reachable vertex is expanded at
// least once, with all its arcs; the stats agree with the counters.
TEST(Adds, CountersAreHonest) {
  SSSP_REQUIRE_GPU();
  const NamedGraph grid = generated("grid 200x200", sssp::make_grid(200, 200, sssp::WeightPolicy::uniform(1, 100, 2)));
  AddsSssp solver(grid.graph, AddsOptions{});
  const sssp::SsspResult result = solver.run(0);
  ASSERT_TRUE(sssp::test::matches_reference_sssp(grid, 0, result.values, kHint));
  const auto [vertices, arcs] = reached(grid.graph, 0);
  const lab09::AddsStats stats = solver.last_stats();
  EXPECT_GE(result.counters.vertices_processed, vertices) << "fewer expansions than reachable vertices";
  EXPECT_GE(result.counters.edges_relaxed, arcs) << "fewer arcs relaxed than arcs leave the reachable vertices";
  EXPECT_EQ(result.counters.kernel_launches, 1u);
  EXPECT_EQ(stats.expansions, result.counters.vertices_processed);
  EXPECT_LE(stats.repeats, stats.expansions);
  EXPECT_LE(stats.local_expansions, stats.expansions);
  EXPECT_GE(stats.published, 1u) << "the source is published";
  EXPECT_GE(stats.expansions - stats.repeats, vertices) << "every reachable vertex has a first expansion";
}

TEST(Adds, RoadNetworkNewYork) {
  SSSP_REQUIRE_GPU();
  SSSP_REQUIRE_DATASET(path, "USA-road-NY.pace.gr.gz");
  const NamedGraph g = sssp::test::read_dataset(path, "USA-road-NY");
  for (const AddsOptions& o : {AddsOptions{}, options(0, 2, 32, true)}) {
    AddsSssp solver(g.graph, o);
    for (const vertex_t source : {vertex_t{0}, g.graph.num_vertices() / 2}) {
      sssp::test::announce_run(g, source, describe(o, solver.delta()));
      ASSERT_TRUE(sssp::test::matches_reference_sssp(g, source, solver.run(source).values, kHint))
          << describe(o, solver.delta());
    }
  }
}

// The local list is where ADDS saves its work. On road-NY at the defaults the
// reference takes 97% of its expansions from a block's own list and does
// 1.7-1.9x Dijkstra's expansions; with every improvement published instead,
// 0% and 3.8x (docs/results/lab09.md and lab09-adds-bench.md, H100). The
// bounds leave the asynchrony a wide margin on both sides.
TEST(Adds, RoadNetworkNewYorkExpandsLocallyWithinThreeTimesDijkstra) {
  SSSP_REQUIRE_GPU();
  SSSP_REQUIRE_DATASET(path, "USA-road-NY.pace.gr.gz");
  const NamedGraph g = sssp::test::read_dataset(path, "USA-road-NY");
  const AddsOptions o{};
  AddsSssp solver(g.graph, o);
  for (const vertex_t source : {vertex_t{0}, g.graph.num_vertices() / 2}) {
    sssp::test::announce_run(g, source, describe(o, solver.delta()));
    ASSERT_TRUE(sssp::test::matches_reference_sssp(g, source, solver.run(source).values, kHint))
        << describe(o, solver.delta());
    const auto [vertices, arcs] = reached(g.graph, source);
    const lab09::AddsStats stats = solver.last_stats();
    const std::string where = g.name + ", source " + std::to_string(source) + ", " + describe(o, solver.delta()) + ": ";
    EXPECT_GE(2 * stats.local_expansions, stats.expansions)
        << where << stats.local_expansions << " of " << stats.expansions
        << " expansions came from a block's local list, expected at least half (the reference: 97%)\nhint: "
           "relax_and_route (task 4) keeps an improvement of the chunk's local bucket in the block's list "
           "(keep_local) and publishes it only when the list is full: publishing everything is correct, but "
           "every such item waits for the manager and is expanded again more often";
    EXPECT_LE(stats.expansions, 3 * vertices)
        << where << stats.expansions << " items expanded for " << vertices << " reachable vertices ("
        << static_cast<double>(stats.expansions) / static_cast<double>(vertices)
        << "x Dijkstra's expansions), expected at most 3x (the reference: 1.7-1.9x; with no local list 3.8x)"
        << "\nhint: a vertex improved by its own block is expanded there, nearest first, before the queue sees "
           "it: check that relax_and_route keeps what keep_local takes, and publishes nothing else";
  }
}

TEST(Adds, PowerLawSlashdot) {
  SSSP_REQUIRE_GPU();
  SSSP_REQUIRE_DATASET(path, "soc-Slashdot0902.txt.gz");
  const NamedGraph g = sssp::test::read_dataset(path, "soc-Slashdot0902");
  AddsSssp solver(g.graph, AddsOptions{});
  for (int run = 0; run < 2; ++run) {
    sssp::test::announce_run(g, 0, describe(AddsOptions{}, solver.delta()));
    ASSERT_TRUE(sssp::test::matches_reference_sssp(g, 0, solver.run(0).values, kHint))
        << describe(AddsOptions{}, solver.delta()) << ", run " << run + 1;
  }
}

TEST(Adds, HiddenGraphs) {
  SSSP_REQUIRE_GPU();
  std::string why_not;
  const auto graphs = sssp::test::hidden_graphs(&why_not);
  if (graphs.empty()) GTEST_SKIP() << why_not;
  expect_correct(graphs, AddsOptions{});
  expect_correct(graphs, options(1, 1, 0));
}

// ------------------------------------------------- the queue harness --
//
// Tasks 2 and 3 alone, with no graph and no task 4: lab09::run_queue_harness
// (given code in queue_harness.cu) drives the student's publish and
// readable_end on a queue of its own and returns what it saw; the checks
// below are the queue's invariants, decided here, in the test's process.

using lab09::QueueHarnessOptions;
using lab09::QueueScenario;
using lab09::QueueTrace;

constexpr unsigned kSegmentSlots = 32;

constexpr const char* kPublishHint =
    "hint: task 2 (publish in queue.cuh): the lanes of a warp that publish to one bucket reserve together (one "
    "atomicAdd of the group's size on resv, each lane base + its rank in that group), write the item (__stcg), "
    "__threadfence, and only then add 1 to the slot's segment wcc";
constexpr const char* kScanHint =
    "hint: task 3 (readable_end in queue.cuh): hand out the run of full segments (wcc == 32) from read's segment "
    "up to the first that is not full, never past it; that segment only if its wcc, loaded first, and resv, "
    "reloaded after a __threadfence, say every slot reserved in it is counted (start + wcc == resv); never a wcc "
    "at or past mapped_end";

std::string scenario_text(const QueueHarnessOptions& o) {
  std::ostringstream text;
  text << (o.scenario == QueueScenario::kPublishThenScan ? "publish, then scan" : "scan while publishing") << " ("
       << o.writer_blocks << " writer blocks of 256 threads, " << o.rounds << " rounds, " << o.buckets
       << (o.buckets == 1 ? " bucket" : " buckets") << ", seed " << o.seed << ", jitter " << o.jitter_ns << " ns)";
  return text.str();
}

std::string item_text(unsigned item) {
  if (item == lab09::kQueueSlotEmpty) return "nothing (the slot was never written)";
  if (item == lab09::kQueueSlotNotRead) return "nothing (not read)";
  return "item " + std::to_string(item);
}

// The first broken invariant of a run with writers, or "".
std::string queue_problem(const QueueHarnessOptions& o, const QueueTrace& t) {
  std::ostringstream out;
  const std::string where = scenario_text(o) + ": ";
  // What was published, bucket by bucket: harness_bucket() decides it.
  std::vector<std::vector<unsigned>> pushed(o.buckets);
  std::vector<unsigned> bucket_of_item(std::size_t{o.writer_blocks} * 256 * o.rounds, lab09::kBuckets);
  for (unsigned thread = 0; thread < o.writer_blocks * 256; ++thread) {
    for (unsigned k = 0; k < o.rounds; ++k) {
      const unsigned b = lab09::harness_bucket(o.seed, thread, k, o.buckets);
      if (b < lab09::kBuckets) {
        pushed[b].push_back(thread * o.rounds + k);
        bucket_of_item[thread * o.rounds + k] = b;
      }
    }
  }
  if (t.resv.size() != o.buckets || t.read_end.size() != o.buckets ||
      t.slots.size() != std::size_t{o.buckets} * t.capacity || t.read_items.size() != t.slots.size() ||
      t.counts.size() != t.slots.size() / kSegmentSlots) {
    return where + "the harness returned a trace of the wrong shape";
  }
  for (unsigned b = 0; b < o.buckets; ++b) {
    const unsigned resv = t.resv[b];
    if (resv != pushed[b].size()) {
      out << where << "bucket " << b << ": " << pushed[b].size() << " items were published into it, but its resv is "
          << resv << " (expected " << pushed[b].size() << ", got " << resv
          << "): every publisher reserves exactly one slot, with an atomic\n"
          << kPublishHint;
      return out.str();
    }
    // Each slot holds an item of this bucket, each item in one slot.
    std::vector<unsigned> slot_of(bucket_of_item.size(), lab09::kQueueSlotEmpty);
    for (unsigned s = 0; s < resv; ++s) {
      const unsigned item = t.slots[std::size_t{b} * t.capacity + s];
      if (item == lab09::kQueueSlotEmpty) {
        out << where << "bucket " << b << ", slot " << s << " (segment " << s / kSegmentSlots
            << "): reserved but never written (expected an item, got nothing); so some item was written into a slot "
               "another publisher had\n"
            << kPublishHint;
        return out.str();
      }
      if (item >= bucket_of_item.size() || bucket_of_item[item] != b) {
        out << where << "bucket " << b << ", slot " << s << ": holds " << item_text(item) << ", which was "
            << (item >= bucket_of_item.size() || bucket_of_item[item] == lab09::kBuckets
                    ? std::string("never published")
                    : "published into bucket " + std::to_string(bucket_of_item[item]))
            << " (expected an item published into bucket " << b << ")\n"
            << kPublishHint;
        return out.str();
      }
      if (slot_of[item] != lab09::kQueueSlotEmpty) {
        out << where << "bucket " << b << ": item " << item << " is in slot " << slot_of[item] << " and in slot " << s
            << " (expected once)\n"
            << kPublishHint;
        return out.str();
      }
      slot_of[item] = s;
    }
    for (const unsigned item : pushed[b]) {
      if (slot_of[item] == lab09::kQueueSlotEmpty) {
        out << where << "bucket " << b << ": item " << item << " was published but is in no slot of [0, " << resv
            << ") (lost: written into a slot another publisher also wrote)\n"
            << kPublishHint;
        return out.str();
      }
    }
    // Every segment counts exactly the slots reserved (and written) in it.
    for (unsigned seg = 0; seg < t.capacity / kSegmentSlots; ++seg) {
      const unsigned start = seg * kSegmentSlots;
      const unsigned expected = resv <= start ? 0 : std::min(kSegmentSlots, resv - start);
      const unsigned got = t.counts[std::size_t{b} * (t.capacity / kSegmentSlots) + seg];
      if (got != expected) {
        out << where << "bucket " << b << ", segment " << seg << " (slots " << start << " to "
            << start + kSegmentSlots - 1 << "): its wcc is " << got << ", but " << expected
            << " of its slots were reserved and written (expected " << expected << ", got " << got
            << "): each published slot is counted once, in the segment of its own slot and page\n"
            << kPublishHint;
        return out.str();
      }
    }
    // The reader: every slot it read holds what it read, and it read them all.
    for (unsigned s = 0; s < t.capacity; ++s) {
      const unsigned got = t.read_items[std::size_t{b} * t.capacity + s];
      const unsigned final_item = t.slots[std::size_t{b} * t.capacity + s];
      if (got != lab09::kQueueSlotNotRead && got != final_item) {
        out << where << "bucket " << b << ", slot " << s << " (segment " << s / kSegmentSlots
            << "): the reader was handed it and read " << item_text(got) << ", but the item published there is "
            << final_item << " (expected " << item_text(final_item) << ", got " << item_text(got)
            << "): it was handed out before its item was written, so a worker would expand a wrong vertex\n"
            << kScanHint << "\n"
            << kPublishHint;
        return out.str();
      }
    }
    if (t.read_end[b] != resv) {
      const unsigned at = t.read_end[b];
      const unsigned seg = at / kSegmentSlots;
      const unsigned count = seg < t.capacity / kSegmentSlots ? t.counts[std::size_t{b} * (t.capacity / 32) + seg] : 0;
      out << where << "bucket " << b << ": every writer is done and all " << resv
          << " reserved slots are written and counted, but the scan stopped at slot " << at << " (expected " << resv
          << ", got " << at << "; segment " << seg << " counts " << count
          << "): readable_end must reach every written slot, in calls of up to 32 segments, a partial last "
             "segment included"
          << (t.timed_out ? " (the harness's time limit stopped it)" : "") << "\n"
          << kScanHint;
      return out.str();
    }
  }
  // The ends: never back, never past what is reserved.
  for (std::size_t i = 0; i < t.scan_end.size(); ++i) {
    const unsigned b = t.scan_bucket[i];
    if (b >= o.buckets) return where + "the harness recorded a scan of a bucket it does not use";
    if (t.scan_end[i] < t.scan_from[i]) {
      out << where << "bucket " << b << ": readable_end(read = " << t.scan_from[i] << ") returned " << t.scan_end[i]
          << " (expected at least " << t.scan_from[i] << ", got " << t.scan_end[i]
          << "): the readable end never goes back\n"
          << kScanHint;
      return out.str();
    }
    if (t.scan_end[i] > t.resv[b]) {
      out << where << "bucket " << b << ": readable_end(read = " << t.scan_from[i] << ") returned " << t.scan_end[i]
          << ", past every slot ever reserved (expected at most " << t.resv[b] << ", got " << t.scan_end[i] << ")\n"
          << kScanHint;
      return out.str();
    }
  }
  return "";
}

QueueHarnessOptions writers(QueueScenario scenario, unsigned blocks, unsigned rounds, unsigned buckets, unsigned seed,
                            unsigned jitter_ns = 0) {
  QueueHarnessOptions o;
  o.scenario = scenario;
  o.writer_blocks = blocks;
  o.rounds = rounds;
  o.buckets = buckets;
  o.seed = seed;
  o.jitter_ns = jitter_ns;
  o.timeout_ms = 5000;
  return o;
}

void expect_queue_holds(const QueueHarnessOptions& o) {
  SCOPED_TRACE(scenario_text(o));
  const QueueTrace t = lab09::run_queue_harness(o);
  const std::string problem = queue_problem(o, t);
  if (!problem.empty()) ADD_FAILURE() << problem;
}

// A state of bucket 0 as if publishers were part way, for readable_end alone.
struct ScanState {
  const char* name;
  unsigned read;
  unsigned resv;
  unsigned mapped_end;
  std::vector<unsigned> counts;  // wcc of segments 0, 1, ...
};

std::string counts_text(const std::vector<unsigned>& counts) {
  std::ostringstream text;
  text << "[";
  for (std::size_t i = 0; i < counts.size() && i < 8; ++i) text << (i ? ", " : "") << counts[i];
  if (counts.size() > 8) text << ", ... (" << counts.size() << " segments)";
  text << "]";
  return text.str();
}

// How far [read, end) may reach: the segments from read's on that count
// every slot reserved in them, below the mapped end.
unsigned readable_limit(const ScanState& s) {
  unsigned end = s.read;
  for (unsigned seg = s.read / kSegmentSlots;; ++seg) {
    const unsigned start = seg * kSegmentSlots;
    if (start >= std::min(s.resv, s.mapped_end)) break;
    const unsigned reserved = std::min(kSegmentSlots, s.resv - start);
    const unsigned count = seg < s.counts.size() ? s.counts[seg] : 0;
    if (count != reserved) break;
    end = std::max(end, start + reserved);
  }
  return end;
}

std::string scan_problem(const ScanState& s, const QueueTrace& t) {
  std::ostringstream out;
  const unsigned limit = readable_limit(s);
  out << "state \"" << s.name << "\" (read " << s.read << ", resv " << s.resv << ", mapped end " << s.mapped_end
      << ", wcc of segments 0 on " << counts_text(s.counts) << "): ";
  const std::string where = out.str();
  out.str("");
  const auto segment_text = [&](unsigned slot) {
    const unsigned seg = slot / kSegmentSlots;
    const unsigned start = seg * kSegmentSlots;
    std::ostringstream text;
    if (slot >= s.mapped_end) {
      text << "slot " << slot << " is past the mapped end " << s.mapped_end
           << " (its ring entry is another page, whose counters must not be read)";
    } else {
      const unsigned reserved = s.resv <= start ? 0 : std::min(kSegmentSlots, s.resv - start);
      text << "slot " << slot << " is in segment " << seg << ", which counts "
           << (seg < s.counts.size() ? s.counts[seg] : 0) << " of its " << reserved
           << " reserved slots (which are written is unknown, so none of it is readable)";
    }
    return text.str();
  };
  for (std::size_t i = 0; i < t.scan_end.size(); ++i) {
    if (t.scan_end[i] < t.scan_from[i]) {
      out << where << "readable_end(read = " << t.scan_from[i] << ") returned " << t.scan_end[i]
          << " (expected at least " << t.scan_from[i] << "): the end never goes back\n"
          << kScanHint;
      return out.str();
    }
    if (t.scan_end[i] > limit) {
      out << where << "readable_end(read = " << t.scan_from[i] << ") returned " << t.scan_end[i]
          << ", but slots are readable only up to " << limit << " (expected at most " << limit << ", got "
          << t.scan_end[i] << "): " << segment_text(limit) << "\n"
          << kScanHint;
      return out.str();
    }
  }
  if (t.read_end.size() != 1) return where + "the harness returned a trace of the wrong shape";
  if (t.read_end[0] != limit) {
    out << where << "calling readable_end again from each end it returned, the scan stopped at " << t.read_end[0]
        << ", but every slot up to " << limit << " is written and counted (expected " << limit << ", got "
        << t.read_end[0] << "): a scan that stops short leaves work the run never hands out"
        << (t.timed_out ? " (the harness's time limit stopped it)" : "") << "\n"
        << kScanHint;
    return out.str();
  }
  return "";
}

std::vector<unsigned> full_segments(unsigned n) { return std::vector<unsigned>(n, kSegmentSlots); }

std::vector<unsigned> with(std::vector<unsigned> counts, unsigned segment, unsigned count) {
  counts.at(segment) = count;
  return counts;
}

// Many warps, some lanes idle in each round, publishing at once into the few
// pages of one, two or every bucket (lanes of one warp to different
// buckets): every item in a slot of its own, every segment counted right,
// and, once the writers are done, the scan reaches every slot.
TEST(QueueHarness, ManyWarpsPublishIntoFewPages) {
  SSSP_REQUIRE_GPU();
  expect_queue_holds(writers(QueueScenario::kPublishThenScan, 32, 2, 1, 1));
  expect_queue_holds(writers(QueueScenario::kPublishThenScan, 64, 4, 2, 2));
  expect_queue_holds(writers(QueueScenario::kPublishThenScan, 16, 8, lab09::kBuckets, 3));
}

// readable_end alone, on states of a bucket as publishers leave it part
// way: segments completed out of order (a full one after one that is not),
// a partial last segment whose count is short of its reservations or not,
// a read end inside a segment, more than 32 segments to go, reservations past
// the mapped end. The scan, called again from each end it returns, must stop
// exactly where the written slots end.
TEST(QueueHarness, SegmentsCompleteOutOfOrder) {
  SSSP_REQUIRE_GPU();
  const std::vector<ScanState> states = {
      {"a full segment after one that is not", 0, 160, 4096, {32, 20, 32, 32, 32}},
      {"an empty segment between full ones", 0, 96, 4096, {32, 0, 32}},
      {"nothing counted yet", 0, 64, 4096, {0, 32}},
      {"a partial last segment, one reserved slot not counted", 0, 100, 4096, {32, 32, 32, 3}},
      {"a partial last segment, every reserved slot counted", 0, 100, 4096, {32, 32, 32, 4}},
      {"read inside a full segment", 40, 100, 4096, {32, 32, 32, 4}},
      {"read inside the partial last segment", 98, 100, 4096, {32, 32, 32, 4}},
      {"read at the end already", 100, 100, 4096, {32, 32, 32, 4}},
      {"94 segments written: more than one scan's 32", 0, 3000, 4096, with(full_segments(94), 93, 24)},
      {"70 full, then one short, then full again", 0, 3000, 4096, with(with(full_segments(94), 93, 24), 70, 31)},
      {"across a page boundary", 4000, 4096 + 70, 8192, with(full_segments(131), 130, 6)},
      {"reservations past the mapped end", 0, 4096 + 100, 4096, full_segments(128)},
      {"reservations past the mapped end, read near it", 4090, 4096 + 100, 4096, full_segments(128)},
  };
  for (const ScanState& s : states) {
    QueueHarnessOptions o;
    o.scenario = QueueScenario::kScanStates;
    o.read = s.read;
    o.resv = s.resv;
    o.mapped_end = s.mapped_end;
    o.segment_counts = s.counts;
    o.timeout_ms = 2000;
    const QueueTrace t = lab09::run_queue_harness(o);
    const std::string problem = scan_problem(s, t);
    if (!problem.empty()) ADD_FAILURE() << problem;
  }
}

// A reader that scans and reads while the writers publish, as the manager
// does: with jitter, segments fill out of order and the reader keeps
// meeting the bucket's partial last segment. Every item it is handed must be
// the one published there, every end must be at least the one before, and
// once the writers are done it must have read every item.
TEST(QueueHarness, ScanRacesWithPublishers) {
  SSSP_REQUIRE_GPU();
  for (unsigned seed = 1; seed <= 3; ++seed) {
    expect_queue_holds(writers(QueueScenario::kScanRacesWithPublishers, 32, 24, 3, 10 + seed, 20000));
  }
  expect_queue_holds(writers(QueueScenario::kScanRacesWithPublishers, 64, 16, 1, 20, 2000));
  expect_queue_holds(writers(QueueScenario::kScanRacesWithPublishers, 128, 8, 2, 21, 0));
}

// The performance item (rubric "perf", docs/design/perf-grading.md): the
// solver timed from this process on the graphs tests/grade.py names, against
// the reference timed the same way; without them, a smoke run of the timed path.
TEST(Perf, Adds) {
  SSSP_REQUIRE_GPU();
  sssp::test::time_solver_on_perf_graphs("Adds", [](const NamedGraph& g) -> sssp::test::PerfSolve {
    auto solver = std::make_shared<AddsSssp>(g.graph);
    return [solver](vertex_t source) { return solver->run(source).values; };
  });
}

}  // namespace
