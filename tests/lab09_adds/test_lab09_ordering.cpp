// Lab 09 autograder, memory order: what no run can be counted on to show.
// Each test reads the PTX of the ordering probe (ordering_probe.cu) that the
// build compiled from your queue.cuh and chunk_tasks.cuh beside your worker,
// and checks that a fence, an acquire or a release orders each access the
// protocol depends on before the one that publishes it (or after the one
// that reads a publication). No GPU needed: graded on every machine.
#include <map>
#include <string>

#include "ptx_order.hpp"
#include "sssp_test.hpp"

namespace {

namespace ptx = sssp::test::ptx;
using Kind = ptx::Access::Kind;

// The probe's kernels and the arrays their parameters are (ordering_probe.cu).
const std::map<int, std::string> kPublish = {{1, "pool"},   {2, "wcc"},  {3, "buckets"},
                                             {4, "mapped"}, {5, "ring"}, {6, "control"}};
const std::map<int, std::string> kScan = {{1, "wcc"}, {2, "buckets"}, {3, "ring"}, {4, "out"}};
const std::map<int, std::string> kChunkEnd = {
    {1, "buckets"}, {2, "page_done"}, {3, "assignment"}, {4, "idle_map"}, {5, "work"}};
const std::map<int, std::string> kHandOut = {{1, "idle_map"}, {2, "assignment"}};

constexpr const char* kWhy =
    " On a GPU, accesses to different addresses may become visible to another SM in another order than the one "
    "that made them: only a fence of device scope, or an acquire or release access, orders them (the handout's "
    "\"Why the fences are where they are\").";

// The probe kernel `name`, its parameters named by `params`.
::testing::AssertionResult probe(const char* name, const std::map<int, std::string>& params, ptx::Kernel* out) {
  return ptx::load_probe(name, params, SSSP_ORDERING_PTX_DEFAULT, out);
}

TEST(Ordering, PublishUsesAPageOnlyAfterItsMappingIsVisible) {
  ptx::Kernel k;
  ASSERT_TRUE(probe("lab09_order_publish", kPublish, &k));
  SSSP_EXPECT_ORDERED(ptx::ordered_before(
      k, "publish (task 2)", {Kind::kLoad, "mapped", false, "the load of mapped[b]"},
      {Kind::kLoad, "ring", false, "the load of the slot's page (page_of, the ring entry)"},
      std::string("the manager writes a page's ring entry and then releases mapped[b]: a publisher that sees the new "
                  "mapped[b] must also see that ring entry, so its load of mapped[b] must acquire (load_acquire), "
                  "or a fence must follow it. Otherwise page_of may read the ring entry of the page's last owner, "
                  "and the item lands in another bucket's page.") +
          kWhy));
}

TEST(Ordering, PublishCountsTheItemOnlyAfterStoringIt) {
  ptx::Kernel k;
  ASSERT_TRUE(probe("lab09_order_publish", kPublish, &k));
  SSSP_EXPECT_ORDERED(ptx::ordered_before(
      k, "publish (task 2)", {Kind::kStore, "pool", true, "the store of the item (into the pool)"},
      {Kind::kStore, "wcc", true, "the count of the slot (its segment's wcc)"},
      std::string("the manager hands a slot out once its wcc says it is written, and a worker then reads the item: "
                  "if the count can be seen before the item, the worker reads the slot's old id, and w is never "
                  "expanded. Something must order the item's store before the count's add.") +
          kWhy));
}

TEST(Ordering, ScanOrdersTheCountsBeforeTheHandOut) {
  ptx::Kernel k;
  ASSERT_TRUE(probe("lab09_order_scan", kScan, &k));
  SSSP_EXPECT_ORDERED(ptx::ordered_before(
      k, "readable_end (task 3)", {Kind::kLoad, "wcc", false, "a load of a segment's wcc"},
      {Kind::kStore, "out", true,
       "the manager's next write (the probe stores your end where the manager writes "
       "the assignment words)"},
      std::string("the counts you read say the items are written; the assignment word the manager writes next lets "
                  "a worker read them. Unless your loads of the counts acquire, or a fence follows them before "
                  "readable_end returns, the worker's reads are not ordered after the writers' stores that those "
                  "counts published.") +
          kWhy));
}

TEST(Ordering, ScanRereadsTheReservationsAfterTheCounts) {
  ptx::Kernel k;
  ASSERT_TRUE(probe("lab09_order_scan", kScan, &k));
  SSSP_EXPECT_ORDERED(ptx::ordered_before(
      k, "readable_end (task 3)", {Kind::kLoad, "wcc", false, "a load of a segment's wcc"},
      {Kind::kLoad, "buckets", false, "a load of the bucket's reservations (buckets[b].resv)"},
      std::string("a partial segment can be handed out only if no slot reserved in it is missing from its count: "
                  "compare the count with reservations loaded after it (the resv passed in was loaded before the "
                  "scan, and a writer may reserve a slot between that load and yours), with the two loads ordered: "
                  "the count's load acquires, or a fence lies between them.") +
          kWhy));
}

TEST(Ordering, ChunkEndCountsTheChunkOnlyAfterTheBlocksPushes) {
  ptx::Kernel k;
  ASSERT_TRUE(probe("lab09_order_chunk_end", kChunkEnd, &k));
  const std::string hint =
      std::string(
          "every push of this chunk, by any thread of the block, must be visible before cwc (the manager "
          "retires a bucket when read == resv == cwc, and an item pushed but not yet visible would be "
          "lost) and before page_done (the page goes back to the pool). The block's barrier brings the "
          "other warps' pushes to the thread that counts; a fence of device scope after it, or a release "
          "add, makes them visible to every SM first.") +
      kWhy;
  const ptx::Match barrier{Kind::kBarrier, "", false, "the block's barrier (__syncthreads)"};
  SSSP_EXPECT_ORDERED(ptx::ordered_before(k, "report_chunk_complete (task 6)", barrier,
                                          {Kind::kStore, "buckets", true, "the add to the bucket's cwc"}, hint));
  SSSP_EXPECT_ORDERED(ptx::ordered_before(k, "report_chunk_complete (task 6)", barrier,
                                          {Kind::kStore, "page_done", true, "the add to the page's page_done"}, hint));
}

TEST(Ordering, ChunkEndSetsTheIdleBitOnlyAfterTheWordIsIdle) {
  ptx::Kernel k;
  ASSERT_TRUE(probe("lab09_order_chunk_end", kChunkEnd, &k));
  SSSP_EXPECT_ORDERED(ptx::ordered_before(
      k, "report_chunk_complete (task 6)", {Kind::kStore, "assignment", true, "the store of kIdle into the word"},
      {Kind::kStore, "idle_map", true, "the setting of the block's idle bit"},
      std::string("a set idle bit tells the manager that the word is kIdle, and the manager then writes the next "
                  "chunk into it: if the bit can be seen first, the late kIdle store erases that chunk, and its "
                  "items are never expanded.") +
          kWhy));
}

TEST(Ordering, HandOutClearsTheIdleBitsBeforeTheWords) {
  ptx::Kernel k;
  ASSERT_TRUE(probe("lab09_order_hand_out", kHandOut, &k));
  SSSP_EXPECT_ORDERED(ptx::ordered_before(
      k, "hand_out_chunks (task 8)", {Kind::kStore, "idle_map", true, "the clearing of a worker's idle bit"},
      {Kind::kStore, "assignment", true, "the store of a chunk into a worker's word"},
      std::string("a worker given a chunk expands it and sets its idle bit again; if the manager's clear of the old "
                  "bit can be seen after the new word, the worker's set can come first and the late clear erase it: "
                  "the worker then sits idle with its bit clear, never handed anything again, and what it held is "
                  "never taken back. Clear the bits of the workers you give a chunk, then order the clears before "
                  "the words.") +
          kWhy));
}

}  // namespace
