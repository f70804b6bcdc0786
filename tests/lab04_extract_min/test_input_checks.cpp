// Lab 04's given input checks (not a student task, so a project test, not a
// graded one): options and arrays the constructors must refuse.
#include <vector>

#include "lab04.hpp"
#include "sssp/errors.hpp"
#include "sssp/generators.hpp"
#include "sssp/weights.hpp"
#include "sssp_test.hpp"

namespace {

TEST(Lab04InputChecks, ConstructorsRejectBadOptionsAndEmptyInput) {
  SSSP_REQUIRE_GPU();
  const sssp::CsrGraph chain = sssp::to_csr(sssp::make_chain(10, sssp::WeightPolicy::unit()));
  EXPECT_THROW(lab04::ExtractMinDijkstra(chain, lab04::DijkstraOptions{100, 1}), sssp::InputError)
      << "block size 100 is not a power of two";
  EXPECT_THROW(lab04::ExtractMinDijkstra(chain, lab04::DijkstraOptions{256, 0}), sssp::InputError)
      << "rounds_per_check 0 would never look at the result";
  EXPECT_THROW(lab04::ArgMinReduction(std::vector<sssp::dist_t>{}), sssp::InputError) << "the arg-min of nothing";
  EXPECT_THROW(lab04::ArgMinReduction(std::vector<sssp::dist_t>{1}, lab04::ReduceOptions{16}), sssp::InputError)
      << "block_argmin needs whole warps";
}

}  // namespace
