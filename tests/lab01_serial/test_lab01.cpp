// Lab 01 autograder: serial Dijkstra (binary heap), Bellman-Ford (rounds and
// queue) and BFS. Every answer is checked against the reference in common/,
// which shares no code with the student's.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "lab01.hpp"
#include "sssp/errors.hpp"
#include "sssp/generators.hpp"
#include "sssp/io.hpp"
#include "sssp/reference.hpp"
#include "sssp/weights.hpp"
#include "sssp_test.hpp"

namespace {

using sssp::Counters;
using sssp::CsrGraph;
using sssp::dist_t;
using sssp::vertex_t;
using sssp::test::NamedGraph;

// ---------------------------------------------------------------- task 1 --

using Entry = lab01::MinHeap::Entry;

// The heap's order: by key, ties by the smaller vertex id.
bool comes_before(const Entry& a, const Entry& b) { return a.key < b.key || (a.key == b.key && a.vertex < b.vertex); }

bool same_entry(const Entry& a, const Entry& b) { return a.key == b.key && a.vertex == b.vertex; }

std::string show(const Entry& e) {
  return "(key " + std::to_string(e.key) + ", vertex " + std::to_string(e.vertex) + ")";
}

// The slots that `before` and `now` both have and that differ, plus any slot
// only `now` has (a push's new one): what one push or pop changed. The slot a
// pop frees is not counted (its entry moved to the root).
std::vector<std::size_t> changed_slots(const std::vector<Entry>& before, const std::vector<Entry>& now) {
  std::vector<std::size_t> changed;
  for (std::size_t i = 0; i < now.size(); ++i) {
    if (i >= before.size() || !same_entry(before[i], now[i])) changed.push_back(i);
  }
  return changed;
}

// Checks, after `step`, what makes the array a binary heap rather than any
// structure that pops in order: it holds exactly `model` (the entries pushed
// and not yet popped), in heap order (no slot comes before its parent
// (i - 1) / 2), and the step changed only slots on one path from the root:
// sifting up or down moves entries along one such path, which is what makes
// push and pop O(log n). A sorted array has heap order, but an insert or
// removal shifts every slot after it; a linear scan's array has neither.
::testing::AssertionResult is_binary_heap(const lab01::MinHeap& heap, std::vector<Entry> model,
                                          const std::vector<Entry>& before, const std::string& step) {
  const std::vector<Entry>& a = heap.entries();
  if (heap.size() != a.size() || a.size() != model.size()) {
    return ::testing::AssertionFailure() << step << ": size() is " << heap.size() << " and entries() holds " << a.size()
                                         << ", expected " << model.size() << " entries";
  }
  std::vector<Entry> held = a;
  std::sort(held.begin(), held.end(), comes_before);
  std::sort(model.begin(), model.end(), comes_before);
  for (std::size_t i = 0; i < held.size(); ++i) {
    if (!same_entry(held[i], model[i])) {
      return ::testing::AssertionFailure() << step << ": the array holds other entries than were pushed and not yet "
                                           << "popped: " << show(held[i]) << " where " << show(model[i])
                                           << " was expected in sorted order\nhint: every push adds one entry and "
                                              "every pop removes exactly the one it returns";
    }
  }
  for (std::size_t i = 1; i < a.size(); ++i) {
    const std::size_t parent = (i - 1) / 2;
    if (comes_before(a[i], a[parent])) {
      return ::testing::AssertionFailure()
             << step << ": heap order broken: slot " << i << " holds " << show(a[i]) << ", which comes before "
             << show(a[parent]) << " in its parent slot " << parent << "\nhint: entries() is the heap's array in "
             << "level order; push appends and sifts up, pop moves the last entry to the root and sifts down, so "
                "every entry stays no smaller than its parent";
    }
  }
  const std::vector<std::size_t> changed = changed_slots(before, a);
  for (const std::size_t slot : changed) {
    std::size_t up = changed.back();  // the deepest slot: every other must be one of its ancestors
    while (up > slot) up = (up - 1) / 2;
    if (up != slot) {
      const std::size_t listed = std::min<std::size_t>(changed.size(), 12);
      std::string slots;
      for (std::size_t i = 0; i < listed; ++i) slots += (i == 0 ? "" : ", ") + std::to_string(changed[i]);
      if (changed.size() > listed) slots += ", ... (" + std::to_string(changed.size()) + " in all)";
      return ::testing::AssertionFailure()
             << step << ": it changed slots " << slots << " of the array (" << before.size() << " entries before, "
             << a.size() << " after), but slot " << slot << " is not on the path from the root to slot "
             << changed.back()
             << "\nhint: a binary heap's push and pop change only the slots of one "
                "root-to-leaf path (the sift), O(log n) of them; keeping the array sorted or "
                "scanning it for the smallest is not a heap";
    }
  }
  return ::testing::AssertionSuccess();
}

TEST(Heap, PopsInKeyOrder) {
  lab01::MinHeap heap;
  std::vector<Entry> model;  // the entries pushed and not yet popped
  for (vertex_t i = 0; i < 1000; ++i) {
    const dist_t key = sssp::splitmix64(i) % 500;  // many equal keys
    const std::vector<Entry> before = heap.entries();
    heap.push(key, i);
    model.push_back({key, i});
    ASSERT_TRUE(is_binary_heap(heap, model, before, "push number " + std::to_string(i) + " " + show(model.back())));
  }
  std::sort(model.begin(), model.end(), [](const Entry& a, const Entry& b) { return comes_before(b, a); });
  for (std::size_t i = 0; !model.empty(); ++i) {  // model.back() is the smallest
    const std::vector<Entry> before = heap.entries();
    const auto entry = heap.pop();
    ASSERT_TRUE(same_entry(entry, model.back()))
        << "pop number " << i << " returned " << show(entry) << ", expected " << show(model.back()) << "\n"
        << "hint: after moving the last entry to the root, sift it down by swapping with the "
           "SMALLER child; compare (key, vertex) pairs so ties go to the smaller vertex id";
    model.pop_back();
    ASSERT_TRUE(is_binary_heap(heap, model, before, "pop number " + std::to_string(i)));
  }
  EXPECT_TRUE(heap.empty());
}

TEST(Heap, InterleavedPushAndPop) {
  lab01::MinHeap heap;
  std::vector<Entry> model;  // kept sorted descending; back() is the min
  const auto descending = [](const Entry& a, const Entry& b) { return comes_before(b, a); };
  for (vertex_t step = 0; step < 3000; ++step) {
    const std::uint64_t r = sssp::splitmix64(step + 77);
    const std::vector<Entry> before = heap.entries();
    if (r % 3 != 0 || model.empty()) {
      const dist_t key = r % 1000;
      heap.push(key, step);
      model.push_back({key, step});
      std::sort(model.begin(), model.end(), descending);
      ASSERT_TRUE(is_binary_heap(heap, model, before,
                                 "step " + std::to_string(step) + ", a push of " + show(Entry{key, step})));
    } else {
      const auto entry = heap.pop();
      ASSERT_TRUE(same_entry(entry, model.back()))
          << "at step " << step << " pop returned " << show(entry) << ", expected " << show(model.back())
          << "\nhint: push must sift the new entry up while it is "
             "smaller than its parent (slot (i - 1) / 2)";
      model.pop_back();
      ASSERT_TRUE(is_binary_heap(heap, model, before, "step " + std::to_string(step) + ", a pop"));
    }
  }
  EXPECT_EQ(heap.size(), model.size());
}

TEST(Heap, PopOnEmptyHeapThrows) {
  lab01::MinHeap heap;
  EXPECT_THROW((void)heap.pop(), std::out_of_range)
      << "pop() on an empty heap must throw std::out_of_range, not read past the array";
  heap.push(5, 1);
  EXPECT_EQ(heap.pop().vertex, 1u);
  EXPECT_THROW((void)heap.pop(), std::out_of_range);
}

// ------------------------------------------------------------ tasks 2-4 --

constexpr const char* kBadSourceHint =
    "a source that is not a vertex must throw sssp::InvalidSource: call "
    "sssp::require_valid_source(graph, source) first, before dist[source] is written";

constexpr const char* kDijkstraHint =
    "pop the smallest entry; skip it if its key is not dist[u] (a stale entry); relax each arc "
    "with dist[u] + w in 64 bits and push every vertex whose distance dropped";
constexpr const char* kBellmanFordHint =
    "every round relaxes all out-arcs of every reached vertex; stop after a round with no "
    "change, but never before the distances stop changing";
constexpr const char* kQueueHint =
    "when dist[v] drops, put v in the queue unless it is already there; a vertex can enter "
    "the queue many times, and must be expanded each time";

// The three SSSP algorithms of the lab share their correctness tests.
struct SsspAlgorithm {
  std::string name;
  std::function<std::vector<dist_t>(const CsrGraph&, vertex_t, Counters*)> run;
  std::string hint;
};

// Lets GoogleTest print the parameter by name instead of as raw bytes.
void PrintTo(const SsspAlgorithm& algorithm, std::ostream* out) { *out << algorithm.name; }

std::string algorithm_name(const ::testing::TestParamInfo<SsspAlgorithm>& info) { return info.param.name; }

class Sssp : public ::testing::TestWithParam<SsspAlgorithm> {
 protected:
  void expect_correct_on(const std::vector<const NamedGraph*>& graphs) {
    for (const NamedGraph* g : graphs) {
      for (const vertex_t source : sssp::test::sample_sources(g->graph)) {
        sssp::test::announce_run(*g, source);
        const auto dist = GetParam().run(g->graph, source, nullptr);
        ASSERT_TRUE(sssp::test::matches_reference_sssp(*g, source, dist, GetParam().hint));
      }
    }
  }
};

TEST_P(Sssp, TinyHandCheckedGraphs) { expect_correct_on(sssp::test::graphs_of_kind(NamedGraph::Kind::kTiny)); }

TEST_P(Sssp, GeneratorFamilies) { expect_correct_on(sssp::test::graphs_of_kind(NamedGraph::Kind::kGenerated)); }

TEST_P(Sssp, CornerCases) { expect_correct_on(sssp::test::graphs_of_kind(NamedGraph::Kind::kCorner)); }

TEST_P(Sssp, RejectsBadSource) {
  const NamedGraph& g = *sssp::test::graphs_of_kind(NamedGraph::Kind::kGenerated).front();
  for (const std::uint64_t bad : {std::uint64_t{g.graph.num_vertices()}, std::uint64_t{4294967295u}}) {
    // A missing check writes out of bounds and may crash the test program
    // before it can report, so the hint goes out before the call too.
    sssp::test::announce_run(g, static_cast<vertex_t>(bad), kBadSourceHint);
    EXPECT_THROW((void)GetParam().run(g.graph, static_cast<vertex_t>(bad), nullptr), sssp::InvalidSource)
        << GetParam().name << " with source " << bad << " on a graph of " << g.graph.num_vertices()
        << " vertices: " << kBadSourceHint;
  }
  const CsrGraph empty = sssp::to_csr(sssp::EdgeList{});
  sssp::test::announce_step(std::string("the graph with no vertices, source 0: ") + kBadSourceHint);
  EXPECT_THROW((void)GetParam().run(empty, 0, nullptr), sssp::InvalidSource)
      << "source 0 of a graph with no vertices is not a vertex";
}

TEST_P(Sssp, RoadNetworkNewYork) {
  SSSP_REQUIRE_DATASET(path, "USA-road-NY.pace.gr.gz");
  sssp::ReadOptions options;
  options.weights = sssp::WeightPolicy::uniform(1, 1000, 1);
  const NamedGraph g{"USA-road-NY (weights 1..1000, seed 1)", sssp::to_csr(sssp::read_graph(path, options))};
  const vertex_t source = 0;
  sssp::test::announce_run(g, source);
  const auto dist = GetParam().run(g.graph, source, nullptr);
  ASSERT_TRUE(sssp::test::matches_reference_sssp(g, source, dist, GetParam().hint));
}

TEST_P(Sssp, HiddenGraphs) {
  std::string why_not;
  const auto graphs = sssp::test::hidden_graphs(&why_not);
  if (graphs.empty()) GTEST_SKIP() << why_not;
  for (const NamedGraph& g : graphs) {
    for (const vertex_t source : sssp::test::sample_sources(g.graph)) {
      sssp::test::announce_run(g, source);
      ASSERT_TRUE(
          sssp::test::matches_reference_sssp(g, source, GetParam().run(g.graph, source, nullptr), GetParam().hint));
    }
  }
}

const SsspAlgorithm kAlgorithms[] = {
    {"Dijkstra", lab01::dijkstra, kDijkstraHint},
    {"BellmanFord", lab01::bellman_ford, kBellmanFordHint},
    {"BellmanFordQueue", lab01::bellman_ford_queue, kQueueHint},
};
INSTANTIATE_TEST_SUITE_P(Lab01, Sssp, ::testing::ValuesIn(kAlgorithms), algorithm_name);

// The work counters make the algorithms' differences visible; these tests pin
// the ones whose value is determined by the specification. Counters are worth
// something only with the right answer, so each test checks the distances of
// the same call first: returning the counters of a right run with wrong
// distances passes none of them.

// Dijkstra from vertex 0 of every non-empty standard graph, with its answer,
// its counters and what a correct run settles: the reachable vertices, and
// the arcs leaving them (each examined once, when its tail is settled).
struct CountedRun {
  const NamedGraph* graph = nullptr;
  std::vector<dist_t> dist;
  Counters counters;
  std::uint64_t reachable = 0;
  std::uint64_t arcs_out_of_reachable = 0;
};

std::vector<CountedRun> dijkstra_from_vertex_0() {
  std::vector<CountedRun> runs;
  for (const NamedGraph& g : sssp::test::standard_graphs()) {
    if (g.graph.num_vertices() == 0) continue;
    CountedRun run;
    run.graph = &g;
    sssp::test::announce_run(g, 0);
    run.dist = lab01::dijkstra(g.graph, 0, &run.counters);
    const auto reference = sssp::reference_dijkstra(g.graph, 0);
    for (vertex_t v = 0; v < g.graph.num_vertices(); ++v) {
      if (reference[v] == sssp::kInfinity) continue;
      ++run.reachable;
      run.arcs_out_of_reachable += g.graph.offsets[v + 1] - g.graph.offsets[v];
    }
    runs.push_back(run);
  }
  return runs;
}

TEST(Dijkstra, SettlesEachReachableVertexOnce) {
  for (const CountedRun& run : dijkstra_from_vertex_0()) {
    ASSERT_TRUE(sssp::test::matches_reference_sssp(*run.graph, 0, run.dist, kDijkstraHint));
    ASSERT_EQ(run.counters.vertices_processed, run.reachable)
        << "graph '" << run.graph->name << "', source 0: Counters::vertices_processed must count "
        << "settled vertices, each exactly once (" << run.reachable << " are reachable)\n"
        << "hint: with lazy deletion, a popped entry whose key differs from dist[u] is stale and "
           "must be skipped before u's arcs are relaxed again";
    ASSERT_GE(run.counters.iterations, run.counters.vertices_processed)
        << "graph '" << run.graph->name << "': iterations counts every pop, stale ones included";
  }
}

TEST(Dijkstra, CountsEveryArcExamined) {
  for (const CountedRun& run : dijkstra_from_vertex_0()) {
    ASSERT_TRUE(sssp::test::matches_reference_sssp(*run.graph, 0, run.dist, kDijkstraHint));
    ASSERT_EQ(run.counters.edges_relaxed, run.arcs_out_of_reachable)
        << "graph '" << run.graph->name << "', source 0: Counters::edges_relaxed must count every "
        << "arc examined, whether or not it lowers a distance: each out-arc of each settled "
        << "vertex once, " << run.arcs_out_of_reachable << " in all; got " << run.counters.edges_relaxed
        << "\nhint: count an arc when you look at it, before comparing d + w with dist[v]; a "
           "stale pop examines no arcs";
  }
}

// The hint for a wrong round count depends on which way it is wrong.
std::string round_count_hint(std::uint64_t expected, std::uint64_t got) {
  if (got < expected) {
    return "hint: too few rounds: a round visits u = 0, 1, ..., |V| - 1 in increasing order and "
           "relaxes each out-arc in CSR order, updating dist[] in place; stop only after a round "
           "in which no distance changed";
  }
  return "hint: too many rounds: stop after the first round in which no distance changed, and "
         "never run more than max(1, |V| - 1) rounds";
}

TEST(BellmanFord, EarlyExitRoundCounts) {
  const auto w = sssp::WeightPolicy::uniform(1, 9, 4);
  // Arcs 0->1->...->49 in CSR order: one in-place round settles the whole
  // chain, a second round sees no change and stops.
  const NamedGraph forward{"chain 0 -> 1 -> ... -> 49", sssp::to_csr(sssp::make_chain(50, w))};
  Counters counters;
  sssp::test::announce_run(forward, 0);
  ASSERT_TRUE(sssp::test::matches_reference_sssp(forward, 0, lab01::bellman_ford(forward.graph, 0, &counters),
                                                 kBellmanFordHint));
  EXPECT_EQ(counters.iterations, 2u)
      << "chain 0 -> 1 -> ... -> 49, source 0: expected 2 rounds (one settles everything in place, "
         "one confirms nothing changes), got "
      << counters.iterations << "\n"
      << round_count_hint(2, counters.iterations);
  // Reversed chain from 49 down to 0: a round in vertex order moves the
  // frontier by one vertex only, so all 49 = |V| - 1 rounds are needed.
  sssp::EdgeList reversed;
  reversed.num_vertices = 50;
  for (vertex_t v = 49; v > 0; --v) reversed.add_arc(v, v - 1, 3);
  const NamedGraph backward{"chain 49 -> 48 -> ... -> 0", sssp::to_csr(reversed)};
  sssp::test::announce_run(backward, 49);
  ASSERT_TRUE(sssp::test::matches_reference_sssp(backward, 49, lab01::bellman_ford(backward.graph, 49, &counters),
                                                 kBellmanFordHint));
  EXPECT_EQ(counters.iterations, 49u)
      << "chain 49 -> 48 -> ... -> 0, source 49: expected |V| - 1 = 49 rounds (each round moves "
         "the distances one vertex down the chain), got "
      << counters.iterations << "\n"
      << round_count_hint(49, counters.iterations);
  sssp::EdgeList single;
  single.num_vertices = 1;
  const NamedGraph one{"a single vertex", sssp::to_csr(single)};
  sssp::test::announce_run(one, 0);
  ASSERT_TRUE(
      sssp::test::matches_reference_sssp(one, 0, lab01::bellman_ford(one.graph, 0, &counters), kBellmanFordHint));
  EXPECT_EQ(counters.iterations, 1u) << "a single vertex takes one round (that changes nothing), got "
                                     << counters.iterations << "\n"
                                     << round_count_hint(1, counters.iterations);
}

TEST(BellmanFordQueue, ChainExpandsEachVertexOnce) {
  const NamedGraph chain{"chain of 100", sssp::to_csr(sssp::make_chain(100, sssp::WeightPolicy::unit()))};
  Counters counters;
  sssp::test::announce_run(chain, 0);
  ASSERT_TRUE(
      sssp::test::matches_reference_sssp(chain, 0, lab01::bellman_ford_queue(chain.graph, 0, &counters), kQueueHint));
  EXPECT_EQ(counters.vertices_processed, 100u)
      << "chain of 100, source 0: each vertex enters the queue once, expected 100 dequeues, got "
      << counters.vertices_processed;
  EXPECT_EQ(counters.edges_relaxed, 99u) << "each of the 99 arcs is examined once";
}

TEST(BellmanFordQueue, WaitingVertexIsNotQueuedAgain) {
  // 0 -> m (weight 1) for m = 1..100, then m -> 101 with weights falling as m
  // grows: expanding 2, 3, ..., 100 in queue order lowers the sink's distance
  // each time while the sink already waits in the queue.
  constexpr vertex_t kMiddle = 100;
  constexpr vertex_t kSink = kMiddle + 1;
  sssp::EdgeList e;
  e.num_vertices = kMiddle + 2;
  for (vertex_t m = 1; m <= kMiddle; ++m) e.add_arc(0, m, 1);
  for (vertex_t m = 1; m <= kMiddle; ++m) e.add_arc(m, kSink, 1000 - m);
  const NamedGraph g{"0 -> 1..100 -> 101, each later path to 101 shorter", sssp::to_csr(e)};
  Counters counters;
  sssp::test::announce_run(g, 0);
  ASSERT_TRUE(sssp::test::matches_reference_sssp(g, 0, lab01::bellman_ford_queue(g.graph, 0, &counters), kQueueHint));
  EXPECT_EQ(counters.vertices_processed, kMiddle + 2)
      << "graph '" << g.name << "', source 0: the distance of 101 drops 100 times while it waits "
      << "in the queue, so it is dequeued once: expected " << kMiddle + 2 << " dequeues, got "
      << counters.vertices_processed
      << "\nhint: keep a flag per vertex, set while it is in the queue; when dist[v] drops, "
         "enqueue v only if its flag is clear";
}

// --------------------------------------------------------------- task 5 --

class Bfs : public ::testing::Test {
 protected:
  static constexpr const char* kHint =
      "visit vertices level by level; give v the level of u plus one the first time an arc "
      "u -> v reaches it, and never change it afterwards";
  static void expect_correct_on(const std::vector<const NamedGraph*>& graphs) {
    for (const NamedGraph* g : graphs) {
      for (const vertex_t source : sssp::test::sample_sources(g->graph)) {
        sssp::test::announce_run(*g, source);
        const auto level = lab01::bfs(g->graph, source, nullptr);
        ASSERT_TRUE(sssp::test::matches_reference_bfs(*g, source, level, kHint));
      }
    }
  }
};

TEST_F(Bfs, TinyHandCheckedGraphs) { expect_correct_on(sssp::test::graphs_of_kind(NamedGraph::Kind::kTiny)); }

TEST_F(Bfs, GeneratorFamilies) { expect_correct_on(sssp::test::graphs_of_kind(NamedGraph::Kind::kGenerated)); }

TEST_F(Bfs, CornerCases) { expect_correct_on(sssp::test::graphs_of_kind(NamedGraph::Kind::kCorner)); }

TEST_F(Bfs, RejectsBadSource) {
  const NamedGraph chain{"chain of 10", sssp::to_csr(sssp::make_chain(10, sssp::WeightPolicy::unit()))};
  sssp::test::announce_run(chain, 10, kBadSourceHint);
  EXPECT_THROW((void)lab01::bfs(chain.graph, 10, nullptr), sssp::InvalidSource)
      << "source 10 on a graph of 10 vertices: " << kBadSourceHint;
}

TEST_F(Bfs, LevelsExpandedOnGrid) {
  const NamedGraph grid{"grid 20x30", sssp::to_csr(sssp::make_grid(20, 30, sssp::WeightPolicy::unit()))};
  Counters counters;
  sssp::test::announce_run(grid, 0);
  ASSERT_TRUE(sssp::test::matches_reference_bfs(grid, 0, lab01::bfs(grid.graph, 0, &counters), kHint));
  EXPECT_EQ(counters.iterations, 20u + 30u - 1u)
      << "grid 20x30 from corner 0: levels 0..48 are expanded, expected 49 iterations, got " << counters.iterations;
  EXPECT_EQ(counters.vertices_processed, 600u) << "every one of the 600 vertices is dequeued once";
}

TEST_F(Bfs, RoadNetworkNewYork) {
  SSSP_REQUIRE_DATASET(path, "USA-road-NY.pace.gr.gz");
  const NamedGraph g{"USA-road-NY", sssp::to_csr(sssp::read_graph(path))};
  sssp::test::announce_run(g, 0);
  const auto level = lab01::bfs(g.graph, 0, nullptr);
  ASSERT_TRUE(sssp::test::matches_reference_bfs(g, 0, level, kHint));
}

TEST_F(Bfs, HiddenGraphs) {
  std::string why_not;
  const auto graphs = sssp::test::hidden_graphs(&why_not);
  if (graphs.empty()) GTEST_SKIP() << why_not;
  for (const NamedGraph& g : graphs) {
    for (const vertex_t source : sssp::test::sample_sources(g.graph)) {
      sssp::test::announce_run(g, source);
      ASSERT_TRUE(sssp::test::matches_reference_bfs(g, source, lab01::bfs(g.graph, source, nullptr), kHint));
    }
  }
}

}  // namespace
