// Lab 09 autograder, GPU part: what the solver tests share (the Adds tests
// of test_lab09_solver.cpp and test_lab09_large.cpp): the options they run
// with, how a run is described, and the check of every answer against the
// CPU reference.
#pragma once

#include <cstdint>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "lab09.hpp"
#include "sssp/generators.hpp"
#include "sssp_test.hpp"

namespace lab09::test {

using sssp::test::NamedGraph;
/// A hand-made graph's arcs: (from, to, weight).
using Arcs = std::vector<std::tuple<vertex_t, vertex_t, sssp::weight_t>>;

/// A delta for which one bucket holds every distance of the course.
inline constexpr dist_t kHugeDelta = dist_t{1} << 62;

/// What a wrong answer of the solver points to: the protocol, task by task.
extern const char* const kHint;

/// The options `o` of a run, in words; `used` is the delta the solver chose.
[[nodiscard]] std::string describe(const AddsOptions& o, dist_t used);

/// AddsOptions with these settings, the others the defaults.
[[nodiscard]] AddsOptions options(dist_t delta, unsigned max_open = 2, unsigned local_items = 4096,
                                  bool dynamic = false, unsigned buckets = kBuckets, unsigned workers = 0);

/// Runs ADDS with `o` on each graph from `sources` sample sources (one
/// solver per graph, so every run must reset the state of the previous one)
/// and checks every answer.
void expect_correct(const std::vector<const NamedGraph*>& graphs, const AddsOptions& o,
                    std::size_t sources = sssp::test::kSampleSources);
/// The same, for graphs held by value.
void expect_correct(const std::vector<NamedGraph>& graphs, const AddsOptions& o,
                    std::size_t sources = sssp::test::kSampleSources);

/// A graph with a name that says what it attacks.
[[nodiscard]] NamedGraph named(std::string name, CsrGraph graph);
/// A generated graph, as a CSR, with its name.
[[nodiscard]] NamedGraph generated(std::string name, const sssp::EdgeList& edges);
/// Copies of the catalogue's generated graphs.
[[nodiscard]] std::vector<NamedGraph> generated_graphs();

/// Vertices with a finite reference distance from `source`, and the arcs leaving them.
[[nodiscard]] std::pair<std::uint64_t, std::uint64_t> reached(const CsrGraph& g, vertex_t source);

}  // namespace lab09::test
