// The performance item's timed path (tests/support/perf_test.hpp) on the CPU,
// with solvers whose answers are known: a right one records its repeats and
// its setup (construction and warm-ups, work that must not hide from the
// clock), a wrong one fails with the teaching message and a repeat marked
// wrong, and settings the grader could only pass by mistake are refused by name.
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <sstream>
#include <string>
#include <thread>

#include "perf_test.hpp"
#include "sssp/errors.hpp"
#include "sssp/reference.hpp"

namespace {

/// Sets the item's environment for one test and clears it afterwards.
class PerfPath : public ::testing::Test {
 protected:
  void SetUp() override {
    ::setenv("SSSP_PERF_GRAPHS", "grid:12x9;rmat:8", 1);
    ::setenv("SSSP_PERF_WARMUP", "1", 1);
    ::setenv("SSSP_PERF_REPEATS", "3", 1);
    ::setenv("SSSP_PERF_SEED", "12345", 1);
  }
  void TearDown() override {
    for (const char* name : {"SSSP_PERF_GRAPHS", "SSSP_PERF_SOLVER_GRAPHS", "SSSP_PERF_WARMUP", "SSSP_PERF_REPEATS",
                             "SSSP_PERF_SEED", "SSSP_PERF_CALL_COST"}) {
      ::unsetenv(name);
    }
  }
};

sssp::test::PerfSolve reference_solver(const sssp::test::NamedGraph& g) {
  return [&graph = g.graph](sssp::vertex_t source) { return sssp::reference_dijkstra(graph, source); };
}

TEST_F(PerfPath, SettingsComeFromTheGradersEnvironment) {
  const sssp::test::PerfSettings settings = sssp::test::perf_settings();
  EXPECT_EQ(settings.graphs, (std::vector<std::string>{"grid:12x9", "rmat:8"}));
  EXPECT_EQ(settings.warmup, 1);
  EXPECT_EQ(settings.repeats, 3);
}

TEST_F(PerfPath, MalformedSettingsAreRefusedByName) {
  ::setenv("SSSP_PERF_REPEATS", "three", 1);
  EXPECT_THROW((void)sssp::test::perf_settings(), sssp::InputError);
  ::setenv("SSSP_PERF_REPEATS", "0", 1);
  EXPECT_THROW((void)sssp::test::perf_settings(), sssp::InputError);
  ::setenv("SSSP_PERF_REPEATS", "3", 1);
  ::setenv("SSSP_PERF_SEED", "-7", 1);
  EXPECT_THROW(sssp::test::time_solver_on_perf_graphs("Reference", reference_solver), sssp::InputError);
}

TEST_F(PerfPath, ASolverNamedInSolverGraphsIsTimedOnItsGraphsOnly) {
  ::setenv("SSSP_PERF_SOLVER_GRAPHS", "Chen=1;Other=0,1", 1);
  const sssp::test::PerfSettings settings = sssp::test::perf_settings();
  EXPECT_FALSE(settings.times("Chen", 0));
  EXPECT_TRUE(settings.times("Chen", 1));
  EXPECT_TRUE(settings.times("Other", 0) && settings.times("Other", 1));
  EXPECT_TRUE(settings.times("Unnamed", 0) && settings.times("Unnamed", 1)) << "a solver not named: every graph";
  std::vector<sssp::vertex_t> sizes;
  sssp::test::time_solver_on_perf_graphs("Chen", [&sizes](const sssp::test::NamedGraph& g) {
    sizes.push_back(g.graph.num_vertices());
    return reference_solver(g);
  });
  EXPECT_EQ(sizes, (std::vector<sssp::vertex_t>{256})) << "Chen is timed on rmat:8 (256 vertices) alone";
}

TEST_F(PerfPath, MalformedSolverGraphsAreRefusedByName) {
  for (const char* bad : {"Chen", "=1", "Chen=", "Chen=2", "Chen=x", "Chen=1;Chen=0", "Chen=-1"}) {
    ::setenv("SSSP_PERF_SOLVER_GRAPHS", bad, 1);
    EXPECT_THROW((void)sssp::test::perf_settings(), sssp::InputError) << bad;
  }
}

TEST_F(PerfPath, ARightSolverIsTimedWithoutFailure) {
  int calls = 0;
  sssp::test::time_solver_on_perf_graphs("Reference", [&calls](const sssp::test::NamedGraph& g) {
    return [&calls, &graph = g.graph](sssp::vertex_t source) {
      ++calls;
      return sssp::reference_dijkstra(graph, source);
    };
  });
  EXPECT_EQ(calls, 2 * (1 + 3)) << "each graph: the warm-up and the timed repeats";
}

TEST_F(PerfPath, TheWorkBeforeTheTimedSolvesIsRecordedAsSetup) {
  // A solver that precomputes in its constructor (40 ms here) and in its
  // first call (30 ms, the warm-up): both show in the record's setup.
  ::setenv("SSSP_PERF_GRAPHS", "grid:12x9", 1);
  sssp::test::time_solver_on_perf_graphs("Precomputing", [](const sssp::test::NamedGraph& g) {
    std::this_thread::sleep_for(std::chrono::milliseconds(40));
    return [&graph = g.graph, first = true](sssp::vertex_t source) mutable {
      if (first) std::this_thread::sleep_for(std::chrono::milliseconds(30));
      first = false;
      return sssp::reference_dijkstra(graph, source);
    };
  });
  const ::testing::TestResult& result = *::testing::UnitTest::GetInstance()->current_test_info()->result();
  ASSERT_EQ(result.test_property_count(), 1);
  const std::string record = result.GetTestProperty(0).value();
  ASSERT_TRUE(record.starts_with("grid:12x9 | setup ")) << record;
  double construct_ms = 0, warmup_ms = 0;
  ASSERT_EQ(std::sscanf(record.c_str(), "grid:12x9 | setup %lf/%lf | ", &construct_ms, &warmup_ms), 2) << record;
  EXPECT_GE(construct_ms, 40.0) << record;
  EXPECT_GE(warmup_ms, 30.0) << record;
  const std::string timed = record.substr(record.rfind(" | ") + 3);
  EXPECT_EQ(std::count(timed.begin(), timed.end(), '/'), 2 * 3) << "three timed repeats: " << record;
}

/// A call-cost solver as default_worker.cpp installs one: the same answers' size, no solve (3 ms a call).
sssp::test::PerfSolve sleeping_null_solver(const sssp::test::NamedGraph& g) {
  return [n = g.graph.num_vertices()](sssp::vertex_t) {
    std::this_thread::sleep_for(std::chrono::milliseconds(3));
    return std::vector<sssp::dist_t>(n, 0);
  };
}

/// The record's text after its last " | call" (empty when it has none).
std::string call_field(const std::string& record) {
  const std::size_t at = record.find(" | call");
  return at == std::string::npos ? "" : record.substr(at + 3);
}

TEST_F(PerfPath, TheCallsCostIsTimedOnlyWhenAskedAndAfterTheTimedSolves) {
  ::setenv("SSSP_PERF_GRAPHS", "grid:12x9", 1);
  sssp::test::set_call_cost_solver(&sleeping_null_solver);
  const ::testing::TestResult& result = *::testing::UnitTest::GetInstance()->current_test_info()->result();
  sssp::test::time_solver_on_perf_graphs("NotAsked", reference_solver);
  EXPECT_EQ(call_field(result.GetTestProperty(0).value()), "") << "the student's runs time no null solver";
  ::setenv("SSSP_PERF_CALL_COST", "1", 1);
  sssp::test::time_solver_on_perf_graphs("Asked", reference_solver);
  sssp::test::set_call_cost_solver(nullptr);
  const std::string record = result.GetTestProperty(1).value();
  const std::string calls = call_field(record);
  ASSERT_TRUE(calls.starts_with("call ")) << record;
  std::istringstream words(calls.substr(5));
  std::vector<double> ms{std::istream_iterator<double>(words), std::istream_iterator<double>()};
  ASSERT_EQ(ms.size(), 3U) << "one per timed repeat (the warm-up untimed): " << record;
  for (const double m : ms) EXPECT_GE(m, 3.0) << record;
  EXPECT_LT(record.find(" | call"), record.size()) << record;
  EXPECT_EQ(record.rfind("/1"), record.find(" | call") - 2) << "the solves come first, all right: " << record;
  ::setenv("SSSP_PERF_CALL_COST", "yes", 1);
  EXPECT_THROW((void)sssp::test::perf_settings(), sssp::InputError);
}

TEST_F(PerfPath, AWrongAnswerFailsWithTheTeachingMessage) {
  const auto wrong = [](const sssp::test::NamedGraph& g) -> sssp::test::PerfSolve {
    return [&graph = g.graph](sssp::vertex_t source) {
      std::vector<sssp::dist_t> d = sssp::reference_dijkstra(graph, source);
      d[(source + 1) % d.size()] += 1;  // one vertex off by one
      return d;
    };
  };
  ::setenv("SSSP_PERF_GRAPHS", "grid:12x9", 1);  // one graph: one failure, on its first run
  EXPECT_NONFATAL_FAILURE(sssp::test::time_solver_on_perf_graphs("Wrong", wrong), "performance run 1 of Wrong");
  EXPECT_NONFATAL_FAILURE(sssp::test::time_solver_on_perf_graphs("Wrong", wrong), "graph 'grid:12x9");
  EXPECT_NONFATAL_FAILURE(sssp::test::time_solver_on_perf_graphs("Wrong", wrong), "first wrong vertex");
}

}  // namespace
