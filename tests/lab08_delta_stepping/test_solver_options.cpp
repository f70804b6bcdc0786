// Lab 08's given code (not student tasks): the solvers' option checks, the
// rules' names and the checkpoints' input checks. Bad options and bad
// checkpoint inputs are refused before any GPU work, so these tests need no GPU.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "lab08.hpp"
#include "lab08_testing.hpp"
#include "sssp/errors.hpp"
#include "sssp/generators.hpp"
#include "sssp/weights.hpp"
#include "sssp_test.hpp"

namespace {

const sssp::CsrGraph& chain() {
  static const sssp::CsrGraph graph = sssp::to_csr(sssp::make_chain(10, sssp::WeightPolicy::unit()));
  return graph;
}

// `call` throws sssp::InputError whose message contains `names`.
void expect_input_error(const std::string& what, const std::string& names, const std::function<void()>& call) {
  try {
    call();
    FAIL() << what << " was accepted";
  } catch (const sssp::InputError& e) {
    EXPECT_NE(std::string(e.what()).find(names), std::string::npos)
        << what << ": the message must name " << names << ", it was: " << e.what();
  }
}

// Constructing `Solver` with `options` throws sssp::InputError whose message
// contains `names`.
template <typename Solver, typename Options>
void expect_refused(const Options& options, const std::string& names, const std::string& what) {
  expect_input_error(what, names, [&] { Solver solver(chain(), options); });
}

TEST(Lab08Options, DeltaSteppingRefusesBadBlockSizes) {
  lab08::DeltaSteppingOptions o;
  o.block_size = 0;
  expect_refused<lab08::DeltaSteppingSssp>(o, "block size", "Chen delta-stepping with block size 0");
  o.block_size = 1025;
  expect_refused<lab08::DeltaSteppingSssp>(o, "block size", "Chen delta-stepping with block size 1025");
}

TEST(Lab08Options, NearFarRefusesBadValues) {
  lab08::NearFarOptions o;
  o.block_size = 0;
  expect_refused<lab08::NearFarSssp>(o, "block size", "Near-Far with block size 0");
  o.block_size = 2048;
  expect_refused<lab08::NearFarSssp>(o, "block size", "Near-Far with block size 2048");
  o = {};
  for (const double c :
       {0.0, -1.0, std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
    o.c = c;
    expect_refused<lab08::NearFarSssp>(o, "C", "Near-Far with C = " + std::to_string(c));
  }
  // An explicit delta does not need C, but a bad C is still a bad option.
  o.delta = 5;
  o.c = -2.0;
  expect_refused<lab08::NearFarSssp>(o, "C", "Near-Far with delta = 5 and C = -2");
  o = {};
  o.rounds_per_check = 0;
  expect_refused<lab08::NearFarSssp>(o, "rounds per check", "Near-Far with rounds per check 0");
}

TEST(Lab08Options, RuleNames) {
  EXPECT_EQ(lab08::to_string(lab08::DeltaRule::kMedianWeight), "median-weight");
  EXPECT_EQ(lab08::to_string(lab08::DeltaRule::kTotalWeightPerVertex), "total-weight/n");
  EXPECT_EQ(lab08::to_string(lab08::DeltaRule::kMaxWeightPerMaxDegree), "max-weight/max-degree");
  EXPECT_EQ(lab08::to_string(lab08::DeltaRule::kNearFar), "near-far C*W/D");
}

TEST(Lab08Options, ChooseDeltaRefusesABadCForEveryRule) {
  for (const lab08::DeltaRule rule : {lab08::DeltaRule::kMedianWeight, lab08::DeltaRule::kTotalWeightPerVertex,
                                      lab08::DeltaRule::kMaxWeightPerMaxDegree, lab08::DeltaRule::kNearFar}) {
    for (const double c :
         {0.0, -0.5, std::numeric_limits<double>::quiet_NaN(), -std::numeric_limits<double>::infinity()}) {
      EXPECT_THROW((void)lab08::choose_delta(chain(), rule, c), sssp::InputError)
          << lab08::to_string(rule) << ", C = " << c;
    }
  }
}

// The checkpoints (checkpoints.cu) check their hand-made inputs before they
// touch the GPU: a wrong size or a vertex out of range is an InputError, never
// a kernel reading past an array.
TEST(Lab08Checkpoints, RefuseBadInputsBeforeAnyGpuWork) {
  using lab08::checkpoint_offer;
  using lab08::checkpoint_relax_requests;
  using lab08::checkpoint_split;
  const sssp::CsrGraph g = sssp::test::hand_graph(3, {{0, 1, 1}, {1, 2, 1}});
  const std::vector<sssp::dist_t> dist = {0, 5, sssp::kInfinity};
  const std::vector<lab08::bucket_t> bindex = {0, 1, lab08::kNoBucket};
  expect_input_error("relax: 2 distances for 3 vertices", "dist", [&] {
    (void)checkpoint_relax_requests(g, {0, 1}, bindex, {0}, 1, true);
  });
  expect_input_error("relax: 1 bucket index for 3 vertices", "bindex",
                     [&] { (void)checkpoint_relax_requests(g, dist, {0}, {0}, 1, true); });
  expect_input_error("relax: request 3 on 3 vertices", "not a vertex",
                     [&] { (void)checkpoint_relax_requests(g, dist, bindex, {3}, 1, true); });
  expect_input_error("relax: delta 0", "delta",
                     [&] { (void)checkpoint_relax_requests(g, dist, bindex, {0}, 0, true); });
  expect_input_error("offer: near item 0 twice", "twice", [&] { (void)checkpoint_offer(g, dist, {0, 0}, 10, {}); });
  expect_input_error("offer: near item 2 at infinity", "no distance",
                     [&] { (void)checkpoint_offer(g, dist, {2}, 10, {}); });
  expect_input_error("offer: vertex 5 already far on 3 vertices", "not a vertex",
                     [&] { (void)checkpoint_offer(g, dist, {0}, 10, {5}); });
  expect_input_error("split: far item 4 on 3 vertices", "not a vertex", [&] {
    (void)checkpoint_split(dist, {1, 4}, 0, 10);
  });
  expect_input_error("split: far item 1 twice", "twice", [&] { (void)checkpoint_split(dist, {1, 1}, 0, 10); });
  lab08::LoopState two_copies;
  two_copies.copies.resize(2);
  expect_input_error("next launch: 2 copies of the loop state", "copies",
                     [&] { (void)lab08::checkpoint_next_launch(two_copies, 1, 10, true, false); });
  lab08::LoopState state;
  state.copies.resize(lab08::kLoopCopies);
  expect_input_error("next launch: launch 0", "numbered from 1",
                     [&] { (void)lab08::checkpoint_next_launch(state, 0, 10, true, false); });
  expect_input_error("next launch: a near round and a split at once", "not both",
                     [&] { (void)lab08::checkpoint_next_launch(state, 1, 10, true, true); });
}

}  // namespace
