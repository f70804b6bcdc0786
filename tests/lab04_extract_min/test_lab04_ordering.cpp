// Lab 04 autograder, memory order: task 5's last-block ticket. No run can be
// counted on to show a ticket drawn without ordering (an H100 passed every
// GPU test with a relaxed one), so this test reads the PTX of the ordering
// probe (ordering_probe.cu) that the build compiled from your argmin.cuh
// beside your worker. No GPU needed: graded on every machine.
#include <map>
#include <string>

#include "ptx_order.hpp"
#include "sssp_test.hpp"

namespace {

namespace ptx = sssp::test::ptx;
using Kind = ptx::Access::Kind;

// The probe's parameters (ordering_probe.cu).
const std::map<int, std::string> kGridArgmin = {{0, "keys"}, {2, "block_results"}, {3, "blocks_done"}, {4, "out"}};

constexpr const char* kTicketHint =
    "the block that draws the last ticket reads every other block's candidate: each block's store of its "
    "candidate must be visible before its ticket is (release), and the last block's reads must come after its "
    "ticket (acquire). A relaxed atomicAdd still hands out distinct tickets but orders nothing else, so the last "
    "block may read a stale slot. Draw the ticket with acquire-release order at device scope "
    "(sssp/cuda/atomics.cuh), or put fences of device scope on both sides of it.";

TEST(Ordering, TicketReleasesTheBlocksCandidate) {
  ptx::Kernel k;
  ASSERT_TRUE(ptx::load_probe("lab04_order_grid_argmin", kGridArgmin, SSSP_ORDERING_PTX_DEFAULT, &k));
  SSSP_EXPECT_ORDERED(ptx::ordered_before(
      k, "grid_argmin (task 5)", {Kind::kStore, "block_results", true, "the store of this block's candidate"},
      {Kind::kStore, "blocks_done", true, "the ticket (the add to blocks_done)"}, kTicketHint));
}

TEST(Ordering, TicketAcquiresTheOtherBlocksCandidates) {
  ptx::Kernel k;
  ASSERT_TRUE(ptx::load_probe("lab04_order_grid_argmin", kGridArgmin, SSSP_ORDERING_PTX_DEFAULT, &k));
  SSSP_EXPECT_ORDERED(ptx::ordered_before(
      k, "grid_argmin (task 5)", {Kind::kRmw, "blocks_done", false, "the ticket (the add to blocks_done)"},
      {Kind::kLoad, "block_results", false, "the last block's loads of the candidates"}, kTicketHint));
}

}  // namespace
