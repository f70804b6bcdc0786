// Lab 09's given code (not student tasks): the option checks of the solver
// and of the queue harness. Bad options are refused before any GPU work, so
// these tests need no GPU, but one: how many worker blocks fit is a question
// for the GPU.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "lab09.hpp"
#include "lab09_testing.hpp"
#include "sssp/errors.hpp"
#include "sssp/generators.hpp"
#include "sssp/weights.hpp"
#include "sssp_test.hpp"

namespace {

const sssp::CsrGraph& chain() {
  static const sssp::CsrGraph graph = sssp::to_csr(sssp::make_chain(10, sssp::WeightPolicy::unit()));
  return graph;
}

// Constructing the solver with `options` throws sssp::InputError whose
// message contains `names`.
void expect_refused(const lab09::AddsOptions& options, const std::string& names, const std::string& what) {
  try {
    lab09::AddsSssp solver(chain(), options);
    FAIL() << what << " was accepted";
  } catch (const sssp::InputError& e) {
    EXPECT_NE(std::string(e.what()).find(names), std::string::npos)
        << what << ": the message must name " << names << ", it was: " << e.what();
  }
}

TEST(Lab09Options, RefusesABadC) {
  lab09::AddsOptions o;
  for (const double c :
       {0.0, -1.0, std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
    o.c = c;
    expect_refused(o, "constant C", "ADDS with C = " + std::to_string(c));
  }
}

TEST(Lab09Options, RefusesBadBucketCounts) {
  lab09::AddsOptions o;
  for (const unsigned buckets : {0u, 1u, 33u, 1000u}) {
    o.buckets = buckets;
    o.max_open = 1;
    expect_refused(o, "buckets must be 2 to 32, got " + std::to_string(buckets),
                   "ADDS with " + std::to_string(buckets) + " buckets");
  }
}

TEST(Lab09Options, RefusesBadOpenBuckets) {
  lab09::AddsOptions o;
  o.max_open = 0;
  expect_refused(o, "open buckets", "ADDS with 0 open buckets");
  o.buckets = 4;
  o.max_open = 5;
  expect_refused(o, "open buckets must be 1 to buckets (4), got 5", "ADDS with 5 open of 4 buckets");
}

TEST(Lab09Options, RefusesAHugeDeltaAndPool) {
  lab09::AddsOptions o;
  o.delta = (sssp::dist_t{1} << 62) + 1;
  expect_refused(o, "delta must be at most 2^62", "ADDS with delta 2^62 + 1");
  o = {};
  o.pool_pages = (1u << 20) + 1;
  expect_refused(o, "pool pages", "ADDS with 2^20 + 1 pool pages");
}

TEST(Lab09Options, RefusesALocalListOrWorkerCountTooLarge) {
  lab09::AddsOptions o;
  o.local_items = 4097;
  expect_refused(o, "local items must be 0 to 4096", "ADDS with a local list of 4097");
  o = {};
  o.workers = 1025;
  expect_refused(o, "worker blocks must be 0 (as many as fit) to 1024, got 1025", "ADDS with 1025 worker blocks");
}

// Every block of the persistent launch must be resident at once, so more
// worker blocks than fit beside the manager are refused by name, not launched
// (a cooperative launch would fail with a CUDA error, a plain one would hang).
// 1024 is more than an H100 holds (5 blocks on each of 132 SMs); a GPU that
// holds them all must solve the chain instead.
TEST(Lab09Options, RefusesMoreWorkerBlocksThanFitOnTheGpu) {
  SSSP_REQUIRE_GPU();
  lab09::AddsOptions o;
  o.workers = 1024;
  try {
    lab09::AddsSssp solver(chain(), o);
    const std::vector<sssp::dist_t> got = solver.run(0).values;
    for (sssp::vertex_t v = 0; v < chain().num_vertices(); ++v) {
      ASSERT_EQ(got.at(v), sssp::dist_t{v}) << "1024 worker blocks fit on this GPU, but the unit chain of 10 from "
                                            << "source 0 came out wrong at vertex " << v;
    }
  } catch (const sssp::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("1024 worker blocks asked for, but only"), std::string::npos)
        << "the message must say how many worker blocks were asked for and how many fit, it was: " << e.what();
  }
}

// The queue harness (given code) refuses options out of range before any GPU
// work, naming the option: a grader's typo never reaches the student's code.
TEST(Lab09Options, QueueHarnessRefusesBadOptions) {
  const auto expect_harness_refused = [](const lab09::QueueHarnessOptions& o, const std::string& names) {
    try {
      (void)lab09::run_queue_harness(o);
      FAIL() << "the queue harness accepted options with a bad " << names;
    } catch (const sssp::InputError& e) {
      EXPECT_NE(std::string(e.what()).find(names), std::string::npos)
          << "the message must name " << names << ", it was: " << e.what();
    }
  };
  lab09::QueueHarnessOptions o;
  o.writer_blocks = 0;
  expect_harness_refused(o, "writer blocks");
  o = {};
  o.rounds = 65;
  expect_harness_refused(o, "rounds");
  o = {};
  o.buckets = 33;
  expect_harness_refused(o, "buckets");
  o = {};
  o.timeout_ms = 0;
  expect_harness_refused(o, "time limit");
  o = {};
  o.scenario = lab09::QueueScenario::kScanStates;
  o.mapped_end = 100;
  expect_harness_refused(o, "mapped end");
  o.mapped_end = 4096;
  o.resv = 10;
  o.read = 11;
  expect_harness_refused(o, "read");
  o.read = 0;
  o.segment_counts.assign(129, 32);
  expect_harness_refused(o, "segment counts");
}

// The checkpoints of tasks 6, 7 and 8 (given code) refuse a state out of range
// before any GPU work, naming the field: a bad test input never reaches the
// student's code, nor a GPU as garbage.
TEST(Lab09Options, CheckpointsRefuseBadStates) {
  const auto expect_state_refused = [](const auto& call, const std::string& names, const std::string& what) {
    try {
      call();
      FAIL() << what << " was accepted";
    } catch (const sssp::InputError& e) {
      EXPECT_NE(std::string(e.what()).find(names), std::string::npos)
          << what << ": the message must name " << names << ", it was: " << e.what();
    }
  };
  lab09::ChunkEndState chunk;
  chunk.pushed.assign(32, 0);
  chunk.cwc.assign(lab09::kBuckets, 0);
  chunk.page_done.assign(1, 0);
  chunk.idle_map.assign(32, 0);
  const auto end_chunk = [](const lab09::ChunkEndState& s) { return [s] { (void)lab09::checkpoint_chunk_end(s); }; };
  lab09::ChunkEndState bad = chunk;
  bad.threads = 100;
  expect_state_refused(end_chunk(bad), "threads", "a block of 100 threads");
  bad = chunk;
  bad.pushed.resize(31);
  expect_state_refused(end_chunk(bad), "pushed", "31 parts");
  bad = chunk;
  bad.workers = 4;
  bad.id = 4;
  expect_state_refused(end_chunk(bad), "worker id", "worker 4 of 4");
  bad = chunk;
  bad.page = 1;
  expect_state_refused(end_chunk(bad), "page", "page 1 of 1");
  bad = chunk;
  bad.idle_map[0] = 1;
  expect_state_refused(end_chunk(bad), "idle bit", "the block's own idle bit set while it has a chunk");

  lab09::HeadState head;
  head.resv.assign(lab09::kBuckets, 0);
  head.read.assign(lab09::kBuckets, 0);
  head.cwc.assign(lab09::kBuckets, 0);
  const auto retire = [](const lab09::HeadState& s) { return [s] { (void)lab09::checkpoint_retire_head(s); }; };
  lab09::HeadState bad_head = head;
  bad_head.head = lab09::kBuckets;
  expect_state_refused(retire(bad_head), "head", "head bucket 32");
  bad_head = head;
  bad_head.delta = 0;
  expect_state_refused(retire(bad_head), "delta", "delta 0");
  bad_head = head;
  bad_head.cwc[3] = 1;
  expect_state_refused(retire(bad_head), "cwc of bucket 3", "more slots expanded than handed out");
  bad_head = head;
  bad_head.decisions.assign(65, 1);
  expect_state_refused(retire(bad_head), "decisions", "65 scripted decisions");

  lab09::HandOutState hand;
  hand.workers = 4;
  hand.idle_map.assign(32, 0);
  hand.read.assign(lab09::kBuckets, 0);
  hand.readable.assign(lab09::kBuckets, 0);
  hand.resv.assign(lab09::kBuckets, 0);
  hand.mapped.assign(lab09::kBuckets, 0);
  const auto hand_out = [](const lab09::HandOutState& s) { return [s] { (void)lab09::checkpoint_hand_out(s); }; };
  lab09::HandOutState bad_hand = hand;
  bad_hand.idle_map[0] = 1u << 4;
  expect_state_refused(hand_out(bad_hand), "idle bit", "worker 4 of 4 idle");
  bad_hand = hand;
  bad_hand.max_open = 0;
  expect_state_refused(hand_out(bad_hand), "max_open", "max_open 0");
  bad_hand = hand;
  bad_hand.readable[2] = 10;
  bad_hand.resv[2] = 10;
  expect_state_refused(hand_out(bad_hand), "mapped of bucket 2", "readable slots past the mapped end");
  bad_hand = hand;
  bad_hand.read[5] = 3;
  expect_state_refused(hand_out(bad_hand), "readable of bucket 5", "a readable end below read");

  lab09::SignalState signal;
  signal.resv.assign(lab09::kBuckets, 0);
  signal.read.assign(lab09::kBuckets, 0);
  signal.expansions = {10, 20};
  signal.repeats = {1, 2};
  const auto measure = [](const lab09::SignalState& s) { return [s] { (void)lab09::checkpoint_delta_signal(s); }; };
  lab09::SignalState bad_signal = signal;
  bad_signal.read.resize(31);
  expect_state_refused(measure(bad_signal), "read", "31 read ends");
  bad_signal = signal;
  bad_signal.buckets_used = 1;
  expect_state_refused(measure(bad_signal), "buckets_used", "one bucket in use");
  bad_signal = signal;
  bad_signal.workers = 0;
  expect_state_refused(measure(bad_signal), "workers", "no worker block");
  bad_signal = signal;
  bad_signal.average_degree = std::nan("");
  expect_state_refused(measure(bad_signal), "average_degree", "an average degree that is not a number");
  bad_signal = signal;
  bad_signal.repeats = {2, 1};
  expect_state_refused(measure(bad_signal), "repeats", "a repeat count that went down");
  bad_signal = signal;
  bad_signal.expansions = {10};
  expect_state_refused(measure(bad_signal), "expansions", "counters for one decision only");
}

}  // namespace
