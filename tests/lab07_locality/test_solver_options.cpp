// Lab 07's given checks (not student tasks): options, the checkpoints'
// arguments and GPU memory. Bad values are refused before any GPU work, so
// the option and argument tests need no GPU.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "lab07.hpp"
#include "sssp/cuda/device.hpp"
#include "sssp/errors.hpp"
#include "sssp/generators.hpp"
#include "sssp/weights.hpp"
#include "sssp_test.hpp"

namespace {

void expect_refused(lab07::Options options, const std::string& names) {
  try {
    lab07::validate(options);
    FAIL() << "options with a bad " << names << " were accepted";
  } catch (const sssp::InputError& e) {
    EXPECT_NE(std::string(e.what()).find(names), std::string::npos) << e.what();
  }
}

TEST(Lab07Options, BadValuesAreNamed) {
  lab07::Options o;
  EXPECT_NO_THROW(lab07::validate(o));
  o.depth = 0;
  expect_refused(o, "depth");
  o.depth = lab07::kMaxDepth + 1;
  expect_refused(o, "depth");
  o = {};
  o.vertices_per_thread = 3;
  expect_refused(o, "vertices per thread");
  o.vertices_per_thread = 0;
  expect_refused(o, "vertices per thread");
  o = {};
  o.block_size = 0;
  expect_refused(o, "block size");
  o.block_size = 2048;
  expect_refused(o, "block size");
}

TEST(Lab07Options, BadOptionsAreRefusedBeforeTheUpload) {
  lab07::Options o;
  o.depth = 99;
  const sssp::CsrGraph chain = sssp::to_csr(sssp::make_chain(10, sssp::WeightPolicy::unit()));
  EXPECT_THROW(lab07::LocalitySssp(chain, o), sssp::InputError);
}

// The checkpoints' given argument checks (run_one_wave, run_one_flag_launch)
// come before any GPU work, so they need no GPU either.
template <typename Call>
void expect_refused_call(const Call& call, const std::string& names) {
  try {
    (void)call();
    FAIL() << "a bad " << names << " was accepted";
  } catch (const sssp::InputError& e) {
    EXPECT_NE(std::string(e.what()).find(names), std::string::npos) << e.what();
  }
}

TEST(Lab07Checkpoints, BadArgumentsAreNamed) {
  const sssp::CsrGraph chain = sssp::to_csr(sssp::make_chain(4, sssp::WeightPolicy::unit()));
  const std::vector<sssp::dist_t> dist = {0, sssp::kInfinity, sssp::kInfinity, sssp::kInfinity};
  expect_refused_call([&] { return lab07::run_one_wave(chain, {0, 1}, 0, 2); }, "distances");
  expect_refused_call([&] { return lab07::run_one_wave(chain, dist, 0, 0); }, "depth");
  expect_refused_call([&] { return lab07::run_one_wave(chain, dist, 0, lab07::kMaxDepth + 1); }, "depth");
  expect_refused_call([&] { return lab07::run_one_wave(chain, dist, 1, 2); }, "finite distance");
  EXPECT_THROW((void)lab07::run_one_wave(chain, dist, 4, 2), sssp::InvalidSource);
  const std::vector<std::uint8_t> flags(8, 0);
  expect_refused_call([&] { return lab07::run_one_flag_launch(flags, 7, 3, 32); }, "vertices per thread");
  expect_refused_call([&] { return lab07::run_one_flag_launch(flags, 7, 4, 0); }, "block size");
  expect_refused_call([&] { return lab07::run_one_flag_launch(flags, 9, 4, 32); }, "flag array length");
  expect_refused_call([&] { return lab07::run_one_flag_launch({}, 0, 4, 32); }, "vertices");
  std::vector<std::uint8_t> padding_set(8, 0);
  padding_set[7] = 1;
  expect_refused_call([&] { return lab07::run_one_flag_launch(padding_set, 7, 4, 32); }, "padding flag 7");
}

// Tasks 3 to 5's checkpoints (run_launch_driver, run_blind_graph,
// simulate_policy) check their arguments before any task or GPU work too.
TEST(Lab07Checkpoints, DriverGraphAndPolicyRefuseBadArguments) {
  expect_refused_call([] { return lab07::run_launch_driver({0, 0, {}, false}); }, "needed");
  expect_refused_call([] { return lab07::run_launch_driver({100001, 0, {}, false}); }, "needed");
  expect_refused_call([] { return lab07::run_launch_driver({5, lab07::kMaxBatch + 1, {}, false}); }, "first batch");
  expect_refused_call([] { return lab07::run_launch_driver({5, 0, {1, 0}, false}); }, "batch");
  expect_refused_call([] { return lab07::run_launch_driver({5, 0, std::vector<unsigned>(65, 1), false}); }, "batches");
  expect_refused_call([] { return lab07::run_blind_graph({}); }, "counts");
  expect_refused_call([] { return lab07::run_blind_graph(std::vector<unsigned>(17, 1)); }, "counts");
  expect_refused_call([] { return lab07::run_blind_graph({5, 0}); }, "count");
  expect_refused_call([] { return lab07::run_blind_graph({1025}); }, "count");
  expect_refused_call([] { return lab07::simulate_policy({3, 0}); }, "needed");
  expect_refused_call([] { return lab07::simulate_policy({10000001}); }, "needed");
  expect_refused_call([] { return lab07::simulate_policy(std::vector<unsigned>(1001, 1)); }, "runs");
}

TEST(Lab07Memory, TooLargeForTheGpuSaysBytesNeededAndFree) {
  SSSP_REQUIRE_GPU();
  const std::size_t total = sssp::cuda::query_device().global_memory;
  try {
    sssp::cuda::require_free_memory(total + 1, "a test graph");
    FAIL() << "more bytes than the GPU has were accepted";
  } catch (const sssp::CudaError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("a test graph needs " + std::to_string(total + 1) + " bytes"), std::string::npos) << message;
    EXPECT_NE(message.find("are free"), std::string::npos) << message;
  }
}

}  // namespace
