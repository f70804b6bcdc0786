// Lab 08 autograder, GPU part: the checkpoints, one task each (the
// Checkpoint tests). Every test needs a GPU and is skipped, with the reason,
// without one.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "lab08.hpp"
#include "lab08_gpu_test.hpp"
#include "lab08_testing.hpp"
#include "sssp_test.hpp"

namespace {

using namespace lab08::test;  // the helpers every GPU test file shares

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
    "task 3, offer_arc (chen_tasks.cuh): with `light`, offer dist[v] + w along an arc of weight <= delta, "
    "else along an arc of weight > delta, and return 1 for exactly those arcs (0 and no change for the others); an offer that lowers dist[w] "
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

constexpr const char* kTask7Hint =
    "task 7, offer_share (chen_tasks.cuh): req_size numbers the requests' arcs 0 .. req_size[count] - 1 in request "
    "order (request i owns req_size[i] .. req_size[i + 1] - 1); the threads together must call offer(v, e) once "
    "per arc e of each request v and for no other arc, naming e's own tail v, with no thread above "
    "ceil(req_size[count] / threads) calls; requests without arcs own nothing, and the call returns the sum of "
    "what its offers returned";

constexpr const char* kTask8Hint =
    "task 8, decide_step (near_far_tasks.cuh): launch L reads frontier copy L % 3 (now), near list copy L and far "
    "pile copy now.split (each count at most the capacity); it is a near round if that near list has items, else a "
    "split if that far pile has, else idle; it appends to near list copy L + 1 and far pile copy now.split, a split "
    "keeps far items in far pile copy now.split + 1 (far piles go by split number), and after a split the "
    "threshold is the smallest now.threshold + k x delta (k >= 1) above now.far_min when far_min is finite and at "
    "least now.threshold (else k = 1), kInfinity if that would pass it; otherwise it stays";

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

// Task 7 on `g` for `requests` with `threads` threads: each arc of a request
// offered once, by a call naming its tail, no other arc offered, no thread
// above ceil(total / threads) calls, and each call returning its count.
void expect_even_share(const CsrGraph& g, const std::vector<vertex_t>& requests, std::uint64_t threads,
                       const std::string& input) {
  SCOPED_TRACE(input);
  const lab08::ShareCheckpoint got = lab08::checkpoint_offer_share(g, requests, threads);
  std::vector<bool> requested(g.num_vertices(), false);
  std::uint64_t total = 0;
  for (const vertex_t v : requests) {
    requested[v] = true;
    total += g.out_degree(v);
  }
  EXPECT_EQ(got.beyond_the_arcs, 0u) << input << ": " << got.beyond_the_arcs << " calls named an arc index past the "
                                     << g.num_edges() << " arcs of the graph\nhint: " << kTask7Hint;
  for (vertex_t v = 0; v < g.num_vertices(); ++v) {
    for (sssp::edge_t e = g.offsets[v]; e < g.offsets[v + 1]; ++e) {
      const unsigned expected = requested[v] ? 1 : 0;
      if (got.calls[e] != expected) {
        ADD_FAILURE() << input << ": arc " << e << " (" << v << " -> " << g.targets[e] << ") was offered "
                      << got.calls[e] << " times, expected " << expected
                      << (requested[v] ? " (its tail is a request: once)" : " (its tail is not a request: never)")
                      << " (the first wrong arc)\nhint: " << kTask7Hint;
        return;
      }
      if (got.tail_wrong[e] != 0) {
        ADD_FAILURE() << input << ": arc " << e << " (" << v << " -> " << g.targets[e] << ") was offered by a call "
                      << "naming another vertex as its tail\nhint: " << kTask7Hint;
        return;
      }
    }
  }
  const std::uint64_t share = (total + threads - 1) / threads;
  for (std::uint64_t t = 0; t < threads; ++t) {
    if (got.per_thread[t] > share) {
      ADD_FAILURE() << input << ": thread " << t << " made " << got.per_thread[t] << " calls, more than its share "
                    << "ceil(" << total << " arcs / " << threads << " threads) = " << share
                    << " (the first such thread): the arcs are not shared evenly\nhint: " << kTask7Hint;
      return;
    }
    if (got.returned[t] != got.per_thread[t]) {
      ADD_FAILURE() << input << ": thread " << t << "'s call returned " << got.returned[t] << ", but its offers "
                    << "returned 1 each, " << got.per_thread[t]
                    << " in all (the first such thread)\nhint: " << kTask7Hint;
      return;
    }
  }
}

// Task 7. A hub, vertex 0, with 40 arcs (to 1 .. 40); 1 has 1 arc, 2 has 3,
// the others none. Requests holding only the hub, the hub among vertices of
// degree 0, 1 and 3 (44 arcs over 5 threads: at most 9 each), requests
// without arcs first and last, more threads than arcs (at most 1 each), and
// no requests at all (no call).
TEST(Checkpoint, ShareOffersEachArcOnceEvenly) {
  SSSP_REQUIRE_GPU();
  Arcs arcs;
  for (vertex_t v = 1; v <= 40; ++v) arcs.emplace_back(0, v, v);
  arcs.emplace_back(1, 2, 1);
  for (vertex_t v = 3; v <= 5; ++v) arcs.emplace_back(2, v, 2);
  const CsrGraph g = sssp::test::hand_graph(41, arcs);
  const std::string graph = "; vertex 0 has 40 arcs, 1 has 1, 2 has 3, 3 .. 40 none";
  expect_even_share(g, {0}, 8, "requests {0}, 8 threads" + graph);
  expect_even_share(g, {3, 1, 0, 2}, 5, "requests {3, 1, 0, 2}, 5 threads" + graph);
  expect_even_share(g, {7, 2, 8, 1, 9}, 3, "requests {7, 2, 8, 1, 9}, 3 threads" + graph);
  expect_even_share(g, {2, 1, 0}, 1, "requests {2, 1, 0}, 1 thread" + graph);
  expect_even_share(g, {3, 2, 1}, 64, "requests {3, 2, 1}, 64 threads" + graph);
  expect_even_share(g, {}, 4, "no requests, 4 threads" + graph);
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

// Every field of a task 8 checkpoint against what the contract gives.
void expect_step(const lab08::StepCheckpoint& got, const lab08::StepCheckpoint& expected, const std::string& input) {
  const auto kind = [](const lab08::StepCheckpoint& s) {
    return std::string(s.near_round && s.split ? "both a near round and a split"
                       : s.near_round          ? "a near round"
                       : s.split               ? "a split"
                                               : "idle");
  };
  EXPECT_EQ(kind(got), kind(expected)) << input << ": the launch is " << kind(got) << ", expected " << kind(expected)
                                       << "\nhint: " << kTask8Hint;
  const auto field = [&](const char* name, auto got_value, auto expected_value) {
    EXPECT_EQ(got_value, expected_value) << input << ": " << name << " is " << got_value << ", expected "
                                         << expected_value << "\nhint: " << kTask8Hint;
  };
  field("the near list's item count (near_in_count)", got.near_items, expected.near_items);
  field("the far pile's item count (far_in_count)", got.far_items, expected.far_items);
  field("the copy of the near list it reads (near_in; -1: none)", got.near_in, expected.near_in);
  field("the copy of the near list it appends to (launch.near_out)", got.near_out, expected.near_out);
  field("the copy of that list's count (launch.near_out_count)", got.near_out_count, expected.near_out_count);
  field("the copy of the far pile it reads (far_in)", got.far_in, expected.far_in);
  field("the copy of the far pile near rounds append to (launch.far_now)", got.far_now, expected.far_now);
  field("the copy of that pile's count (launch.far_now_count)", got.far_now_count, expected.far_now_count);
  field("the copy of the far pile a split keeps items in (launch.far_next)", got.far_next, expected.far_next);
  field("the copy of that pile's count (launch.far_next_count)", got.far_next_count, expected.far_next_count);
  field("launch.number", got.number, expected.number);
  field("launch.threshold", dist_text(got.threshold), dist_text(expected.threshold));
}

// What launch `number` of mid_run_state()-like states must decide: near list
// copy number, far pile copy `split` (its own state's), `kind` 'n' (near
// round), 's' (split) or 'i' (idle).
lab08::StepCheckpoint step_of(unsigned number, unsigned split, char kind, unsigned near_items, unsigned far_items,
                              dist_t threshold) {
  lab08::StepCheckpoint s;
  s.near_round = kind == 'n';
  s.split = kind == 's';
  s.near_items = near_items;
  s.far_items = far_items;
  s.near_in = static_cast<int>(number % 3);
  s.near_out = s.near_out_count = static_cast<int>((number + 1) % 3);
  s.far_in = s.far_now = s.far_now_count = static_cast<int>(split % 3);
  s.far_next = s.far_next_count = static_cast<int>((split + 1) % 3);
  s.number = number;
  s.threshold = threshold;
  return s;
}

// Task 8 on mid_run_state(), lists of 64 slots, delta 50. Launch 4 (own
// state copy 1: threshold 200, split 5) finds 20 items in near list 1: a near
// round under 200, appending to near list 2 and far pile 5 % 3 = 2 (31
// items), a split would keep far items in pile 0. Launch 6 (own copy 0:
// threshold 100, far_min 101, split 4) with near list 0 empty: a split of far
// pile 1 (21 items), threshold 150. The same with far pile 1 empty too: idle,
// threshold 100. Launch 4 with 100 items counted in near list 1: only its 64
// slots are items. Launch 5 (own copy 2: split 6) reads far pile 0, not 5 % 3.
TEST(Checkpoint, StepReadsAndAppendsToTheRightCopies) {
  SSSP_REQUIRE_GPU();
  const lab08::LoopState state = mid_run_state();
  const std::string state_text = std::string(kMidRunState) + ", lists of 64 slots, delta 50";
  expect_step(lab08::checkpoint_decide_step(state, 4, 50, 64), step_of(4, 5, 'n', 20, 31, 200),
              "launch 4 (near list 1 holds 20 items); " + state_text);

  lab08::LoopState near_empty = state;
  near_empty.copies[0].near_count = 0;
  expect_step(lab08::checkpoint_decide_step(near_empty, 6, 50, 64), step_of(6, 4, 's', 0, 21, 150),
              "launch 6, near list 0 empty; " + state_text + ", then near count of copy 0 set to 0");

  lab08::LoopState both_empty = near_empty;
  both_empty.copies[1].far_count = 0;
  expect_step(lab08::checkpoint_decide_step(both_empty, 6, 50, 64), step_of(6, 4, 'i', 0, 0, 100),
              "launch 6, near list 0 and far pile 1 empty; " + state_text +
                  ", then near count of copy 0 and far count of copy 1 set to 0");

  lab08::LoopState overflowed = state;
  overflowed.copies[1].near_count = 100;
  expect_step(lab08::checkpoint_decide_step(overflowed, 4, 50, 64), step_of(4, 5, 'n', 64, 31, 200),
              "launch 4, near list 1 counted 100 appends into its 64 slots; " + state_text);

  expect_step(lab08::checkpoint_decide_step(state, 5, 50, 64), step_of(5, 6, 'n', 30, 11, 300),
              "launch 5 (own state copy 2, split 6: far pile 0); " + state_text);
}

// Task 8, splits from threshold 100 with delta 50 (launch 6, own copy 0,
// split 4, near list 0 empty, far pile 1 not): far_min 101 (in the next
// bucket) gives 150; 345 gives 350 (four empty buckets skipped); exactly 300
// gives 350 (the threshold must pass it); infinity (no split measured it)
// and 90 (below the threshold, stale) give 150; a threshold 10 below
// kInfinity saturates at kInfinity.
TEST(Checkpoint, SplitThresholdJumpsOverEmptyBuckets) {
  SSSP_REQUIRE_GPU();
  constexpr dist_t kInf = sssp::kInfinity;
  struct Case {
    dist_t threshold;
    dist_t far_min;
    dist_t expected;
  };
  const Case cases[] = {{100, 101, 150},  {100, 345, 350}, {100, 300, 350},
                        {100, kInf, 150}, {100, 90, 150},  {kInf - 10, kInf, kInf}};
  for (const Case& c : cases) {
    lab08::LoopState state = mid_run_state();
    state.copies[0].near_count = 0;
    state.copies[0].threshold = c.threshold;
    state.copies[0].far_min = c.far_min;
    const std::string input =
        "launch 6, a split (near list 0 empty, far pile 1 holds 21 items), delta 50, "
        "threshold " +
        dist_text(c.threshold) + ", far_min " + dist_text(c.far_min);
    const lab08::StepCheckpoint got = lab08::checkpoint_decide_step(state, 6, 50, 64);
    EXPECT_TRUE(got.split && !got.near_round) << input << ": the launch must be a split\nhint: " << kTask8Hint;
    EXPECT_EQ(got.threshold, c.expected) << input << ": launch.threshold is " << dist_text(got.threshold)
                                         << ", expected " << dist_text(c.expected) << "\nhint: " << kTask8Hint;
  }
}

}  // namespace
