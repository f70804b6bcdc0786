// Lab 06 autograder, host half: the ELL builder (task 1). No GPU needed, so
// these run everywhere, CI included. The GPU half is test_lab06.cpp.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "lab06.hpp"
#include "sssp/errors.hpp"
#include "sssp/generators.hpp"
#include "sssp/weights.hpp"
#include "sssp_test.hpp"

namespace {

using lab06::EllMatrix;
using lab06::kPadding;
using lab06::kPaddingWeight;
using sssp::CsrGraph;
using sssp::edge_t;
using sssp::vertex_t;
using sssp::weight_t;
using sssp::test::NamedGraph;

constexpr const char* kEllHint =
    "task 1: width = the largest in-degree (row length of the incoming CSR); slot k of row i lives at "
    "k * rows + i (column-major); row i's in-arcs fill its slots 0 .. in-degree - 1 in CSR order, and every "
    "later slot holds column kPadding and weight kPaddingWeight";

std::string slot_text(vertex_t col, weight_t w) {
  if (col == kPadding) return "padding (column kPadding, weight " + std::to_string(w) + ")";
  return "column " + std::to_string(col) + ", weight " + std::to_string(w);
}

// Checks every slot of `ell` against the incoming CSR `in` it was built from.
::testing::AssertionResult laid_out_right(const std::string& graph, const CsrGraph& in, const EllMatrix& ell) {
  edge_t width = 0;
  for (vertex_t i = 0; i < in.num_vertices(); ++i) width = std::max(width, in.out_degree(i));
  auto fail = [&]() {
    return ::testing::AssertionFailure() << "graph " << graph << " (" << in.num_vertices() << " rows, "
                                         << in.num_edges() << " arcs): ";
  };
  if (ell.rows != in.num_vertices()) return fail() << "rows = " << ell.rows << ", expected one per vertex";
  if (ell.width != width) {
    return fail() << "width = " << ell.width << ", expected " << width
                  << " (the largest in-degree)\n  hint: " << kEllHint;
  }
  if (ell.arcs != in.num_edges()) return fail() << "arcs = " << ell.arcs << ", expected " << in.num_edges();
  const std::uint64_t slots = std::uint64_t{ell.rows} * ell.width;
  if (ell.cols.size() != slots || ell.weights.size() != slots) {
    return fail() << "cols has " << ell.cols.size() << " and weights " << ell.weights.size()
                  << " entries, expected rows * width = " << slots << "\n  hint: " << kEllHint;
  }
  for (vertex_t i = 0; i < ell.rows; ++i) {
    for (edge_t k = 0; k < ell.width; ++k) {
      const std::uint64_t at = std::uint64_t{k} * ell.rows + i;
      const bool real = k < in.out_degree(i);
      const vertex_t want_col = real ? in.targets[in.offsets[i] + k] : kPadding;
      const weight_t want_w = real ? in.weights[in.offsets[i] + k] : kPaddingWeight;
      if (ell.cols[at] != want_col || ell.weights[at] != want_w) {
        return fail() << "row " << i << " (in-degree " << in.out_degree(i) << "), slot " << k << " at position " << at
                      << " = k * rows + i: expected " << slot_text(want_col, want_w) << ", got "
                      << slot_text(ell.cols[at], ell.weights[at]) << "\n  hint: " << kEllHint;
      }
    }
  }
  return ::testing::AssertionSuccess();
}

// Chen's Figure 1 matrix as a graph: row i lists the in-arcs of vertex i
// (datasets/tiny/chen_csr_matrix.gr). Its diagonal entries are self-loops.
CsrGraph chen_example() {
  return sssp::test::hand_graph(4, {{0, 0, 1}, {2, 0, 2}, {1, 2, 3}, {2, 2, 4}, {3, 2, 5}, {0, 3, 6}, {3, 3, 7}});
}

TEST(EllFormat, ChenExampleLayout) {
  const CsrGraph in = lab06::incoming_csr(chen_example());
  ASSERT_EQ(in.offsets, (std::vector<edge_t>{0, 2, 2, 5, 7})) << "the incoming CSR's row pointer (given code)";
  const EllMatrix ell = lab06::build_ell(in);
  constexpr vertex_t P = kPadding;
  constexpr weight_t W = kPaddingWeight;
  // Rows 0..3 have 2, 0, 3 and 2 in-arcs: width 3, 12 slots; column k of
  // the matrix is stored as positions 4k .. 4k + 3.
  const std::vector<vertex_t> cols = {0, P, 1, 0, /**/ 2, P, 2, 3, /**/ P, P, 3, P};
  const std::vector<weight_t> weights = {1, W, 3, 6, /**/ 2, W, 4, 7, /**/ W, W, 5, W};
  EXPECT_EQ(ell.rows, 4u);
  EXPECT_EQ(ell.width, 3u) << "the width is the longest row: vertex 2 has 3 in-arcs\n  hint: " << kEllHint;
  EXPECT_EQ(ell.arcs, 7u);
  EXPECT_EQ(ell.cols, cols) << "expected the columns of slot 0 of rows 0..3, then slot 1, then slot 2\n  hint: "
                            << kEllHint;
  EXPECT_EQ(ell.weights, weights) << "weights are laid out like the columns\n  hint: " << kEllHint;
  EXPECT_TRUE(laid_out_right("Chen's Figure 1 matrix", in, ell));
}

TEST(EllFormat, EveryRowPaddedColumnMajor) {
  std::vector<NamedGraph> extra;
  const auto w = sssp::WeightPolicy::uniform(1, 1000, 4);
  extra.push_back({"rmat scale 11 edge factor 8", sssp::to_csr(sssp::make_rmat(11, 8, w, 7))});
  extra.push_back({"grid 20x17", sssp::to_csr(sssp::make_grid(20, 17, w))});
  std::vector<const NamedGraph*> graphs = sssp::test::pointers(extra);
  for (const NamedGraph& g : sssp::test::standard_graphs()) graphs.push_back(&g);
  for (const NamedGraph* g : graphs) {
    const CsrGraph in = lab06::incoming_csr(g->graph);
    ASSERT_TRUE(laid_out_right(g->name, in, lab06::build_ell(in)));
  }
}

TEST(EllFormat, EmptyRowsAndNoArcs) {
  {
    // A chain 0 -> ... -> 99 and 30 isolated vertices: rows 0 and 100..129
    // have no in-arcs and are all padding.
    sssp::EdgeList e = sssp::make_chain(100, sssp::WeightPolicy::uniform(1, 9, 2));
    e.num_vertices = 130;
    const CsrGraph in = lab06::incoming_csr(sssp::to_csr(e));
    const EllMatrix ell = lab06::build_ell(in);
    ASSERT_TRUE(laid_out_right("chain of 100 plus 30 isolated vertices", in, ell));
    EXPECT_EQ(ell.cols[0], kPadding) << "row 0 (the chain's start) has no in-arcs: its only slot is padding";
  }
  {
    sssp::EdgeList e;
    e.num_vertices = 40;
    const CsrGraph in = lab06::incoming_csr(sssp::to_csr(e));
    const EllMatrix ell = lab06::build_ell(in);
    ASSERT_TRUE(laid_out_right("40 vertices, no arcs", in, ell));
    EXPECT_EQ(ell.width, 0u) << "no arcs: every row is empty, the width is 0 and there are no slots";
  }
  {
    sssp::EdgeList e;
    e.num_vertices = 0;
    const CsrGraph in = lab06::incoming_csr(sssp::to_csr(e));
    ASSERT_TRUE(laid_out_right("the empty graph", in, lab06::build_ell(in)));
  }
}

TEST(EllFormat, RefusesHubRows) {
  // One sink with 20000 in-arcs among 20002 vertices: every row would be
  // padded to 20000 slots, 400 million in all.
  const NamedGraph hub = sssp::test::fan_in_graph(20000);
  const CsrGraph in = lab06::incoming_csr(hub.graph);
  try {
    (void)lab06::build_ell(in);
    ADD_FAILURE() << "build_ell of " << hub.name << " must throw sssp::InputError: width 20000 times 20002 rows "
                  << "is about 4e8 slots, far above default_ell_slot_limit(" << in.num_edges()
                  << ") = " << lab06::default_ell_slot_limit(in.num_edges()) << "\n  hint: " << kEllHint;
  } catch (const sssp::InputError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("20000"), std::string::npos)
        << "the message should name the width (20000), so the user sees why: " << message;
  }
  // The limit is inclusive: a star of 300 needs 300 * 299 slots.
  const CsrGraph star = lab06::incoming_csr(sssp::to_csr(sssp::make_star(300, sssp::WeightPolicy::unit())));
  EXPECT_NO_THROW((void)lab06::build_ell(star, 300u * 299u)) << "rows * width equal to the limit is allowed";
  EXPECT_THROW((void)lab06::build_ell(star, 300u * 299u - 1), sssp::InputError)
      << "rows * width one above the limit must be refused";
}

}  // namespace
