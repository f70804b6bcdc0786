// Lab 05 test fixtures: the course's graphs as adjacency matrices, and an
// independent round-by-round Bellman-Ford that says how many rounds (and
// how much work) each version must take.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "lab05.hpp"
#include "sssp_test.hpp"

namespace lab05::test {

using sssp::test::NamedGraph;

/// A graph of the catalogue that fits lab 05's matrix: an arc weighing
/// kNoEdge (only the "weights near 2^32" chain has them) is made one lighter,
/// and the name says so.
[[nodiscard]] NamedGraph fit_for_matrix(const NamedGraph& g);

/// fit_for_matrix() of each standard graph of `kind` with at most
/// `max_vertices` vertices (a naive CPU run costs |V|^3).
[[nodiscard]] std::vector<NamedGraph> matrix_graphs(NamedGraph::Kind kind, vertex_t max_vertices);

/// What a version of lab 05 must report for a run.
struct ExpectedWork {
  std::uint64_t rounds = 0;        ///< Counters::iterations.
  std::uint64_t rows_relaxed = 0;  ///< Counters::vertices_processed.
  std::uint64_t lowered = 0;       ///< Counters::distance_updates.
};

/// Synchronous rounds on the CSR, as the handout defines them: round r reads
/// the distances after round r - 1. Naive: max(1, |V| - 1) rounds, every row;
/// work-efficient: the rows lowered by the previous round (round 1: the
/// source), until a round lowers nothing (that round counts).
[[nodiscard]] ExpectedWork expected_work(const CsrGraph& graph, vertex_t source, Variant variant);

/// Checks the counters against expected_work(); the message says which one is off.
[[nodiscard]] ::testing::AssertionResult did_expected_work(const NamedGraph& g, vertex_t source, Variant variant,
                                                           const Counters& got, std::string_view hint);

}  // namespace lab05::test

namespace lab05 {
/// Lets GoogleTest print a Variant parameter.
inline void PrintTo(Variant variant, std::ostream* out) { *out << variant_name(variant); }
}  // namespace lab05
