// Lab 09 autograder, GPU part: task 9's checkpoint. lab09::checkpoint_delta_signal
// (given code in checkpoints.cu) runs the student's measure_delta_signal on
// one manager warp whose buckets, position and work counters are set here,
// at two decisions in a row, and returns what every lane measured; the
// checks of the contract's clauses are here, each against a count made
// over the same state by plain loops. Every test needs a GPU and is
// skipped, with the reason, without one.
#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "lab09.hpp"
#include "lab09_testing.hpp"
#include "sssp_test.hpp"

namespace {

using lab09::DeltaSignal;
using lab09::dist_t;
using lab09::kBuckets;
using lab09::SignalCheckpoint;
using lab09::SignalState;

constexpr double kBlockThreads = 256;  // a worker block's threads

constexpr const char* kSignalHint =
    "hint: task 9 (measure_delta_signal in delta_signal.cuh): read the contract above the function, clause by "
    "clause, and the handout's \"The dynamic delta's measurement (task 9)\"";

struct SignalCase {
  SignalState state;
  std::string what;
};

SignalState signal_state(unsigned head, unsigned buckets_used) {
  SignalState s;
  s.resv.assign(kBuckets, 0);
  s.read.assign(kBuckets, 0);
  s.head = head;
  s.buckets_used = buckets_used;
  s.delta = 1000;
  s.held_total = 512;
  s.workers = 4;
  s.average_degree = 2.5;
  s.expansions = {0, 0};
  s.repeats = {0, 0};
  return s;
}

// Bucket b holds `waiting` items not yet handed out, `read` handed out.
void wait_in(SignalState& s, unsigned b, unsigned read, unsigned waiting) {
  s.read[b] = read;
  s.resv[b] = read + waiting;
}

std::string describe(const SignalState& s, const std::string& what) {
  std::ostringstream text;
  text << what << " [head " << s.head << ", " << s.buckets_used << " buckets in use, delta " << s.delta << ", "
       << s.held_total << " items held, " << s.workers << " workers, average degree " << s.average_degree
       << "; buckets (resv, read) not both 0:";
  for (unsigned b = 0; b < kBuckets; ++b) {
    if (s.resv[b] != 0 || s.read[b] != 0) text << " " << b << ": (" << s.resv[b] << ", " << s.read[b] << ")";
  }
  text << "; seen (expansions, repeats) (" << s.seen_expansions << ", " << s.seen_repeats << "), counters at the "
       << "first decision (" << s.expansions[0] << ", " << s.repeats[0] << "), at the second (" << s.expansions[1]
       << ", " << s.repeats[1] << ")]";
  return text.str();
}

std::string signal_text(const DeltaSignal& g) {
  std::ostringstream text;
  text << "{delta " << g.delta << ", utilisation " << g.utilisation << ", tail share " << g.tail_share
       << ", repeat share " << g.repeat_share << "}";
  return text.str();
}

bool same(const DeltaSignal& a, const DeltaSignal& b) {
  return a.delta == b.delta && a.utilisation == b.utilisation && a.tail_share == b.tail_share &&
         a.repeat_share == b.repeat_share;
}

// To six significant digits: a share or a load computed in float decides
// delta as well as one in double.
bool about_equal(double got, double expected) {
  return std::fabs(got - expected) <= 1e-6 * std::max(std::fabs(expected), 1e-3);
}

// The checkpoint's answer has 32 lanes, and every lane agrees with lane 0:
// the manager's warp decides one delta. Adds a failure and returns false
// otherwise.
bool one_answer(const SignalCheckpoint& got, const std::string& input) {
  if (got.first.size() != 32 || got.second.size() != 32 || got.seen_expansions.size() != 32 ||
      got.seen_repeats.size() != 32) {
    ADD_FAILURE() << input << ": the checkpoint returned " << got.first.size() << " lanes, expected 32";
    return false;
  }
  for (unsigned lane = 1; lane < 32; ++lane) {
    const bool agree = same(got.first[lane], got.first[0]) && same(got.second[lane], got.second[0]) &&
                       got.seen_expansions[lane] == got.seen_expansions[0] &&
                       got.seen_repeats[lane] == got.seen_repeats[0];
    if (agree) continue;
    ADD_FAILURE() << input << ": lane " << lane << " measured " << signal_text(got.first[lane]) << " then "
                  << signal_text(got.second[lane]) << " and left seen (" << got.seen_expansions[lane] << ", "
                  << got.seen_repeats[lane] << "); lane 0 measured " << signal_text(got.first[0]) << " then "
                  << signal_text(got.second[0]) << " and left (" << got.seen_expansions[0] << ", "
                  << got.seen_repeats[0] << "). Every lane must return the same signal and history: each lane "
                  << "asks next_delta, and lanes that disagree move delta apart\n"
                  << kSignalHint;
    return false;
  }
  return true;
}

// Items waiting in bucket b: reserved, not yet handed out.
double waiting(const SignalState& s, unsigned b) { return s.resv[b] > s.read[b] ? s.resv[b] - s.read[b] : 0; }

double expected_tail_share(const SignalState& s) {
  double all = 0;
  for (unsigned b = 0; b < kBuckets; ++b) all += waiting(s, b);
  return all == 0 ? 0 : waiting(s, (s.head + s.buckets_used - 1) % kBuckets) / all;
}

double expected_repeat_share(unsigned long long expanded, unsigned long long repeated) {
  return expanded == 0 ? 0 : std::min(1.0, static_cast<double>(repeated) / static_cast<double>(expanded));
}

TEST(Checkpoint, SignalMeasuresTheWorkersLoad) {
  SSSP_REQUIRE_GPU();
  std::vector<SignalCase> cases;
  auto add = [&](unsigned held, unsigned workers, double degree, dist_t delta, const std::string& what) {
    SignalState s = signal_state(0, 32);
    s.held_total = held;
    s.workers = workers;
    s.average_degree = degree;
    s.delta = delta;
    cases.push_back({s, what});
  };
  add(2560, 10, 2.5, 1000, "10 worker blocks holding 2560 items of 2.5 arcs");
  add(1, 1, 3.7, 7, "one worker block holding one item");
  add(4000000, 1024, 16, 1, "1024 worker blocks holding 4 million items of 16 arcs");
  add(0, 4, 2.5, dist_t{1} << 60, "nothing held, delta 2^60");
  for (const SignalCase& c : cases) {
    const SignalState& s = c.state;
    const std::string input = describe(s, c.what);
    SCOPED_TRACE(input);
    const SignalCheckpoint got = lab09::checkpoint_delta_signal(s);
    if (!one_answer(got, input)) continue;
    const double utilisation = s.held_total * s.average_degree / (s.workers * kBlockThreads);
    for (const DeltaSignal& g : {got.first[0], got.second[0]}) {
      EXPECT_EQ(g.delta, s.delta) << input << ": the signal's delta is " << g.delta << ", expected " << s.delta
                                  << " (the delta the decision starts from: position.delta)\n"
                                  << kSignalHint;
      EXPECT_TRUE(about_equal(g.utilisation, utilisation))
          << input << ": utilisation " << g.utilisation << ", expected " << utilisation << " (" << s.held_total
          << " items x " << s.average_degree << " arcs over " << s.workers << " blocks x 256 threads: the arcs in "
          << "flight per worker thread)\n"
          << kSignalHint;
    }
  }
}

TEST(Checkpoint, SignalMeasuresTheTailOfTheQueue) {
  SSSP_REQUIRE_GPU();
  std::vector<SignalCase> cases;
  {
    SignalState s = signal_state(0, 32);
    wait_in(s, 0, 4096, 100);
    wait_in(s, 31, 0, 300);
    cases.push_back({s, "32 buckets from bucket 0: the last is bucket 31"});
  }
  {
    SignalState s = signal_state(30, 8);
    wait_in(s, 30, 9000, 50);
    wait_in(s, 31, 200, 50);
    wait_in(s, 5, 0, 100);
    wait_in(s, 2, 70, 0);
    cases.push_back({s, "8 buckets from bucket 30: the last is bucket 5, past the end of the ring"});
  }
  {
    SignalState s = signal_state(5, 2);
    wait_in(s, 5, 10, 10);
    wait_in(s, 6, 40, 0);
    cases.push_back({s, "2 buckets from bucket 5: everything waits in the head"});
  }
  {
    SignalState s = signal_state(12, 32);
    for (unsigned b = 0; b < kBuckets; ++b) wait_in(s, b, 4096 * b + 17, 0);
    cases.push_back({s, "every slot reserved is handed out: nothing waits"});
  }
  {
    SignalState s = signal_state(3, 4);
    wait_in(s, 3, 300, 0);
    s.read[3] = s.resv[3] + 40;
    wait_in(s, 4, 0, 20);
    wait_in(s, 6, 0, 20);
    cases.push_back({s, "the hand-out went 40 slots past bucket 3's resv (a scan after load_counts)"});
  }
  {
    SignalState s = signal_state(3, 4);
    wait_in(s, 4, 0, 30);
    wait_in(s, 6, 100, 0);
    s.read[6] = s.resv[6] + 40;
    cases.push_back({s, "the hand-out went 40 slots past the last bucket's resv"});
  }
  for (const SignalCase& c : cases) {
    const SignalState& s = c.state;
    const std::string input = describe(s, c.what);
    SCOPED_TRACE(input);
    const SignalCheckpoint got = lab09::checkpoint_delta_signal(s);
    if (!one_answer(got, input)) continue;
    const double share = expected_tail_share(s);
    const unsigned last = (s.head + s.buckets_used - 1) % kBuckets;
    EXPECT_TRUE(about_equal(got.first[0].tail_share, share))
        << input << ": tail share " << got.first[0].tail_share << ", expected " << share << " (bucket " << last
        << ", the last of " << s.buckets_used << " from the head, holds " << waiting(s, last) << " waiting items; "
        << "a bucket whose read is at or past its resv holds none)\n"
        << kSignalHint;
  }
}

TEST(Checkpoint, SignalCountsRepeatsSinceTheLastDecision) {
  SSSP_REQUIRE_GPU();
  std::vector<SignalCase> cases;
  auto add = [&](unsigned long long seen_e, unsigned long long seen_r, unsigned long long e0, unsigned long long r0,
                 unsigned long long e1, unsigned long long r1, const std::string& what) {
    SignalState s = signal_state(0, 32);
    s.seen_expansions = seen_e;
    s.seen_repeats = seen_r;
    s.expansions = {e0, e1};
    s.repeats = {r0, r1};
    cases.push_back({s, what});
  };
  add(0, 0, 1000, 250, 1600, 550, "the first decision of a run, then 600 expansions more, 300 of them repeats");
  add(0, 0, 800, 200, 800, 200, "nothing expanded between the two decisions");
  add(0, 0, 0, 0, 0, 0, "nothing expanded at all");
  add(1000000000000, 400000000000, 1000000001000, 400000000100, 1000000004000, 400000001100,
      "a history from a long run");
  add(500, 100, 510, 130, 600, 130, "more repeats than expansions seen since the last decision");
  add(500, 100, 500, 105, 520, 110, "repeats seen without their expansions, which come by the second decision");
  for (const SignalCase& c : cases) {
    const SignalState& s = c.state;
    const std::string input = describe(s, c.what);
    SCOPED_TRACE(input);
    const SignalCheckpoint got = lab09::checkpoint_delta_signal(s);
    if (!one_answer(got, input)) continue;
    const double first = expected_repeat_share(s.expansions[0] - s.seen_expansions, s.repeats[0] - s.seen_repeats);
    const double second = expected_repeat_share(s.expansions[1] - s.expansions[0], s.repeats[1] - s.repeats[0]);
    EXPECT_TRUE(about_equal(got.first[0].repeat_share, first))
        << input << ": the first decision's repeat share is " << got.first[0].repeat_share << ", expected " << first
        << " (of the expansions since the last decision, the share that were repeats: at most 1, 0 without any)\n"
        << kSignalHint;
    EXPECT_TRUE(about_equal(got.second[0].repeat_share, second))
        << input << ": the second decision's repeat share is " << got.second[0].repeat_share << ", expected " << second
        << " (measured from the counters the first decision saw)\n"
        << kSignalHint;
    EXPECT_TRUE(got.seen_expansions[0] == s.expansions[1] && got.seen_repeats[0] == s.repeats[1])
        << input << ": after the second decision seen is (" << got.seen_expansions[0] << ", " << got.seen_repeats[0]
        << "), expected (" << s.expansions[1] << ", " << s.repeats[1]
        << "): the counters it measured from, for the next decision\n"
        << kSignalHint;
  }
}

}  // namespace
