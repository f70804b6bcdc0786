// The given code of lab 05 (not a student task, so not graded): DenseGraph's
// no-arc marker, bad input, reproducible random graphs; the GPU solver's
// check of its options.
#include <gtest/gtest.h>

#include "lab05.hpp"
#include "sssp/errors.hpp"
#include "sssp_test.hpp"

namespace {

using lab05::DenseGraph;
using lab05::kNoEdge;

TEST(DenseGraph, KeepsTheLightestParallelArcAndMarksMissingArcs) {
  const auto csr = sssp::test::hand_graph(3, {{0, 1, 7}, {0, 1, 3}, {0, 1, 9}, {1, 1, 0}, {2, 0, 0}});
  const DenseGraph dense = DenseGraph::from_csr(csr);
  EXPECT_EQ(dense.weight(0, 1), 3u);
  EXPECT_EQ(dense.weight(1, 1), 0u) << "a zero weight is an arc, not 'no arc'";
  EXPECT_EQ(dense.weight(2, 0), 0u);
  EXPECT_EQ(dense.weight(0, 2), kNoEdge);
  EXPECT_EQ(dense.weight(1, 0), kNoEdge);
  EXPECT_EQ(dense.to_csr().num_edges(), 3u);
}

TEST(DenseGraph, RefusesTheMarkerAsAWeightAndBadIds) {
  EXPECT_THROW((void)DenseGraph::from_csr(sssp::test::hand_graph(2, {{0, 1, kNoEdge}})), sssp::InputError);
  DenseGraph dense(4);
  EXPECT_THROW(dense.set_weight(0, 1, kNoEdge), sssp::InputError);
  EXPECT_THROW(dense.set_weight(4, 0, 1), sssp::InputError);
  EXPECT_THROW(dense.remove_arc(0, 9), sssp::InputError);
  dense.set_weight(0, 1, kNoEdge - 1);
  EXPECT_EQ(dense.weight(0, 1), kNoEdge - 1);
  dense.remove_arc(0, 1);
  EXPECT_EQ(dense.weight(0, 1), kNoEdge);
}

TEST(DenseGraph, RefusesHugeSizes) {
  EXPECT_THROW(DenseGraph(lab05::kMaxDenseVertices + 1), sssp::InputError);
  EXPECT_THROW((void)DenseGraph::random_complete(10, 1, 0), sssp::InputError);
  EXPECT_THROW((void)DenseGraph::random_complete(10, 1, kNoEdge), sssp::InputError);
}

TEST(DenseGraph, RandomCompleteIsReproducibleAndComplete) {
  const DenseGraph a = DenseGraph::random_complete(300, 5, 1000);
  const DenseGraph b = DenseGraph::random_complete(300, 5, 1000);
  const DenseGraph c = DenseGraph::random_complete(300, 6, 1000);
  int differences = 0;
  for (sssp::vertex_t u = 0; u < 300; ++u) {
    for (sssp::vertex_t v = 0; v < 300; ++v) {
      ASSERT_EQ(a.weight(u, v), b.weight(u, v));
      differences += a.weight(u, v) != c.weight(u, v) ? 1 : 0;
      if (u == v) {
        ASSERT_EQ(a.weight(u, v), kNoEdge) << "no self-loops";
      } else {
        ASSERT_GE(a.weight(u, v), 1u);
        ASSERT_LE(a.weight(u, v), 1000u);
      }
    }
  }
  EXPECT_GT(differences, 80000) << "another seed gives another graph";
  EXPECT_EQ(a.to_csr().num_edges(), 300u * 299u);
}

TEST(DenseGraph, MovesWithoutCopying) {
  DenseGraph a = DenseGraph::random_complete(50, 1);
  const sssp::weight_t* data = a.data();
  DenseGraph b = std::move(a);
  EXPECT_EQ(b.data(), data);
  EXPECT_EQ(b.num_vertices(), 50u);
  EXPECT_EQ(b.bytes(), 50u * 50u * sizeof(sssp::weight_t));
}

TEST(DenseBellmanFord, RefusesBadStreamCounts) {
  SSSP_REQUIRE_GPU();
  const DenseGraph dense = DenseGraph::from_csr(sssp::test::hand_graph(3, {{0, 1, 4}}));
  for (const unsigned streams : {0u, lab05::kMaxStreams + 1}) {
    EXPECT_THROW(lab05::DenseBellmanFord(dense, lab05::GpuOptions{lab05::Variant::kWorkEfficient, streams, 0}),
                 sssp::InputError)
        << streams << " streams";
  }
}

}  // namespace
