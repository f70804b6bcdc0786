// Lab 07's given checks (not student tasks): options and GPU memory. Bad
// values are refused before any GPU work, so the option tests need no GPU.
#include <gtest/gtest.h>

#include <string>

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
