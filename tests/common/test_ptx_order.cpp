// Tests of the graded ordering checks' PTX reader (tests/support/ptx_order.hpp)
// on hand-written kernels: what counts as ordered, on which paths, and which
// array an access is to. A check that passed a missing fence would grade a
// wrong lab 04 or 09 right; one that failed a correct fence, a right one wrong.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "ptx_order.hpp"

namespace {

namespace ptx = sssp::test::ptx;
using Kind = ptx::Access::Kind;

const ptx::Match kItem{Kind::kStore, "pool", true, "the item"};
const ptx::Match kCount{Kind::kStore, "count", true, "the count"};
const ptx::Match kCountLoad{Kind::kLoad, "count", false, "the count's load"};
const ptx::Match kOut{Kind::kStore, "out", true, "the result"};

// A kernel k(pool, count, out) whose body is `body`, parsed with its parameters named.
ptx::Kernel kernel(const std::string& body) {
  const std::string text =
      ".visible .entry k(\n .param .u64 k_param_0,\n .param .u64 k_param_1,\n"
      " .param .u64 k_param_2\n)\n{\n .reg .b64 %rd<20>;\n"
      " ld.param.u64 %rd1, [k_param_0];\n ld.param.u64 %rd2, [k_param_1];\n"
      " ld.param.u64 %rd3, [k_param_2];\n cvta.to.global.u64 %rd4, %rd1;\n"
      " cvta.to.global.u64 %rd5, %rd2;\n" +
      body + "\n ret;\n}\n";
  auto k = ptx::parse_kernel(text, "k", {{0, "pool"}, {1, "count"}, {2, "out"}});
  EXPECT_TRUE(k.has_value());
  return k.value_or(ptx::Kernel{});
}

TEST(PtxOrder, AFenceBetweenOrdersTheStoreBeforeTheCount) {
  EXPECT_TRUE(ptx::ordered_before(kernel(" st.global.u32 [%rd4], 1;\n membar.gl;\n red.global.add.u32 [%rd5], 1;"), "f",
                                  kItem, kCount, "h"));
  EXPECT_TRUE(ptx::ordered_before(
      kernel(" st.global.u32 [%rd4], 1;\n fence.acq_rel.gpu;\n atom.global.add.u32 %r1, [%rd5], 1;"), "f", kItem,
      kCount, "h"));
}

TEST(PtxOrder, NoFenceOrABlockScopeFenceOrdersNothing) {
  const auto bare =
      ptx::ordered_before(kernel(" st.global.u32 [%rd4], 1;\n red.global.add.u32 [%rd5], 1;"), "f", kItem, kCount, "h");
  EXPECT_FALSE(bare);
  EXPECT_NE(std::string(bare.message()).find("nothing orders the item"), std::string::npos) << bare.message();
  const auto block = ptx::ordered_before(
      kernel(" st.global.u32 [%rd4], 1;\n membar.cta;\n red.global.add.u32 [%rd5], 1;"), "f", kItem, kCount, "h");
  EXPECT_FALSE(block);
  EXPECT_NE(std::string(block.message()).find("block scope"), std::string::npos) << block.message();
}

TEST(PtxOrder, ReleaseAndAcquireOrderTheirOwnPairs) {
  EXPECT_TRUE(ptx::ordered_before(kernel(" st.global.u32 [%rd4], 1;\n red.release.gpu.global.add.u32 [%rd5], 1;"), "f",
                                  kItem, kCount, "h"));
  EXPECT_TRUE(ptx::ordered_before(kernel(" ld.acquire.gpu.u32 %r1, [%rd5];\n st.global.u32 [%rd3], %r1;"), "f",
                                  kCountLoad, kOut, "h"));
  // A release at block scope, or an acquire on the wrong side, orders nothing here.
  EXPECT_FALSE(ptx::ordered_before(kernel(" st.global.u32 [%rd4], 1;\n red.release.cta.global.add.u32 [%rd5], 1;"), "f",
                                   kItem, kCount, "h"));
  EXPECT_FALSE(ptx::ordered_before(kernel(" st.global.u32 [%rd4], 1;\n ld.acquire.gpu.u32 %r1, [%rd5];"), "f", kItem,
                                   {Kind::kLoad, "count", false, "the load"}, "h"));
}

TEST(PtxOrder, EveryPathMustPassAFence) {
  // The fence is on one branch only: the other path reaches the count bare.
  const std::string one_branch =
      " st.global.u32 [%rd4], 1;\n @%p1 bra $L__BB0_2;\n membar.gl;\n$L__BB0_2:\n red.global.add.u32 [%rd5], 1;";
  EXPECT_FALSE(ptx::ordered_before(kernel(one_branch), "f", kItem, kCount, "h"));
  const std::string both_branches =
      " st.global.u32 [%rd4], 1;\n @%p1 bra $L__BB0_2;\n membar.gl;\n bra.uni $L__BB0_3;\n$L__BB0_2:\n membar.gl;\n"
      "$L__BB0_3:\n red.global.add.u32 [%rd5], 1;";
  EXPECT_TRUE(ptx::ordered_before(kernel(both_branches), "f", kItem, kCount, "h"));
  // A path that skips the count does not need a fence.
  EXPECT_TRUE(ptx::ordered_before(
      kernel(" st.global.u32 [%rd4], 1;\n @%p1 bra $L__BB0_2;\n membar.gl;\n red.global.add.u32 [%rd5], 1;\n"
             "$L__BB0_2:"),
      "f", kItem, kCount, "h"));
}

TEST(PtxOrder, MissingOrMisplacedAccessesAreNamed) {
  const auto none = ptx::ordered_before(kernel(" membar.gl;\n red.global.add.u32 [%rd5], 1;"), "f", kItem, kCount, "h");
  EXPECT_NE(std::string(none.message()).find("did not find the item"), std::string::npos) << none.message();
  const auto early =
      ptx::ordered_before(kernel(" red.global.add.u32 [%rd5], 1;\n st.global.u32 [%rd4], 1;"), "f", kItem, kCount, "h");
  EXPECT_NE(std::string(early.message()).find("does not come after"), std::string::npos) << early.message();
  const auto call = ptx::ordered_before(
      kernel(" st.global.u32 [%rd4], 1;\n membar.gl;\n call.uni helper, (%rd5);\n red.global.add.u32 [%rd5], 1;"), "f",
      kItem, kCount, "h");
  EXPECT_NE(std::string(call.message()).find("not inlined"), std::string::npos) << call.message();
}

TEST(PtxOrder, AnAccessIsToTheArrayItsAddressIsComputedFrom) {
  // The item's address adds an offset loaded from `count` to `pool`: it is an
  // access to pool only (a loaded value is data, not an address base).
  const ptx::Kernel k = kernel(
      " ld.global.u32 %r1, [%rd5];\n mul.wide.u32 %rd6, %r1, 4;\n add.s64 %rd7, %rd4, %rd6;\n"
      " st.global.u32 [%rd7], 1;\n membar.gl;\n red.global.add.u32 [%rd5], 1;");
  ASSERT_FALSE(k.accesses.empty());
  bool found = false;
  for (const ptx::Access& a : k.accesses) {
    if (a.kind != Kind::kStore) continue;
    found = true;
    EXPECT_EQ(a.on, (std::set<std::string>{"pool"})) << a.text;
  }
  EXPECT_TRUE(found);
  EXPECT_TRUE(ptx::ordered_before(k, "f", kItem, kCount, "h"));
}

TEST(PtxOrder, TheFileIsReadAsUntrustedData) {
  const auto dir = std::filesystem::temp_directory_path() / ("sssp-ptx-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "probe.ptx") << ".visible .entry k()\n{\n ret;\n}\n";
  std::filesystem::create_symlink(dir / "probe.ptx", dir / "link.ptx");
  EXPECT_NO_THROW((void)ptx::read_ptx_file((dir / "probe.ptx").string()));
  EXPECT_THROW((void)ptx::read_ptx_file((dir / "link.ptx").string()), std::runtime_error);
  EXPECT_THROW((void)ptx::read_ptx_file(dir.string()), std::runtime_error);
  std::filesystem::remove_all(dir);
}

}  // namespace
