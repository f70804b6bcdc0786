// The given option check of lab 06's solver (not a student task, so not
// graded): block sizes a format cannot use and a host loop that never looks.
#include <gtest/gtest.h>

#include "lab06.hpp"
#include "sssp/errors.hpp"
#include "sssp/generators.hpp"
#include "sssp/weights.hpp"
#include "sssp_test.hpp"

namespace {

using lab06::Format;
using lab06::SpmvBellmanFord;
using lab06::SpmvOptions;

TEST(SpmvBellmanFord, RefusesBadOptions) {
  SSSP_REQUIRE_GPU();
  const sssp::CsrGraph chain = sssp::to_csr(sssp::make_chain(10, sssp::WeightPolicy::unit()));
  EXPECT_THROW(SpmvBellmanFord(chain, Format::kCsrVector, SpmvOptions{100, 8}), sssp::InputError)
      << "CSR vector with blocks of 100 threads: a warp per row needs a multiple of 32";
  EXPECT_THROW(SpmvBellmanFord(chain, Format::kCsrScalar, SpmvOptions{2048, 8}), sssp::InputError)
      << "2048 threads per block is beyond the hardware's 1024";
  EXPECT_THROW(SpmvBellmanFord(chain, Format::kEll, SpmvOptions{256, 0}), sssp::InputError)
      << "rounds_per_check 0 would never look at the change word";
}

}  // namespace
