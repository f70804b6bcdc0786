/// @file
/// @brief What every test in the course uses: graphs with names, checks whose
/// failure messages teach, the data directory, and the GPU skip.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "sssp/graph.hpp"
#include "sssp/types.hpp"

namespace sssp::test {

/// A graph and the name a failure message calls it by.
struct NamedGraph {
  /// Which part of the catalogue a graph belongs to (tests group by it).
  enum class Kind {
    kTiny,       ///< Hand-checked graphs from datasets/tiny.
    kGenerated,  ///< One of each generator family.
    kCorner,     ///< Corner cases: one vertex, unreachable parts, zero weights, huge weights...
  };
  std::string name;           ///< e.g. "grid 12x9, weights uniform:1:100:3".
  CsrGraph graph;             ///< The graph.
  Kind kind = Kind::kCorner;  ///< Catalogue group.
};

/// The graphs of standard_graphs() of one kind.
[[nodiscard]] std::vector<const NamedGraph*> graphs_of_kind(NamedGraph::Kind kind);

/// Builds a graph of `n` vertices from hand-written arcs (tail, head, weight),
/// for small tests whose answers are worked out by hand.
[[nodiscard]] CsrGraph hand_graph(vertex_t n, const std::vector<std::tuple<vertex_t, vertex_t, weight_t>>& arcs);

/// Checks that `got` holds the shortest-path distances from `source`: the
/// certificate (verify_sssp) decides, and only for an answer it refuses does
/// the reference Dijkstra run, so that the message names the graph, the
/// source, the first wrong vertex with expected and actual distance, how many
/// are wrong, what the certificate check found, and `hint`.
[[nodiscard]] ::testing::AssertionResult matches_reference_sssp(const NamedGraph& g, vertex_t source,
                                                                std::span<const dist_t> got, std::string_view hint);

/// Checks `got` against the reference BFS (one pass, as cheap as its certificate), with the same message.
[[nodiscard]] ::testing::AssertionResult matches_reference_bfs(const NamedGraph& g, vertex_t source,
                                                               std::span<const level_t> got, std::string_view hint);

/// The graded catalogue of small graphs, one of each kind a lab must handle:
/// the tiny hand-checked graphs of datasets/tiny, every generator family, and
/// the corner cases (one vertex, unreachable parts, zero weights, self-loops,
/// parallel arcs, a source with no out-arcs, weights near 2^32).
[[nodiscard]] const std::vector<NamedGraph>& standard_graphs();

/// How many sources the tests run per graph unless they say otherwise.
inline constexpr std::size_t kSampleSources = 3;

/// `count` sources worth testing on `g`, evenly spaced from 0 to the last
/// vertex (just 0 when count is 1).
[[nodiscard]] std::vector<vertex_t> sample_sources(const CsrGraph& g, std::size_t count = kSampleSources);

/// The graph directory: the SSSP_DATA_DIR environment variable if set, else
/// the SSSP_DATA_DIR the build was configured with.
[[nodiscard]] std::string data_dir();

/// Full path of `file` in the data directory, or nullopt (and `why_not` says
/// why: no directory configured, or the file is missing).
[[nodiscard]] std::optional<std::string> dataset_path(const std::string& file, std::string* why_not);

/// The graphs in the directory named by SSSP_HIDDEN_GRAPHS (the instructor's
/// hidden test set), as read_hidden_graphs() reads them. Empty when the
/// variable is unset; `why_not` then gives the skip reason.
[[nodiscard]] std::vector<NamedGraph> hidden_graphs(std::string* why_not);

/// Every file of `dir`, in name order, read as a graph with weights uniform
/// 1..1000 (seed 1) where the file has none. Throws sssp::InputError naming
/// the problem when `dir` is not a directory, holds no file, or holds a file
/// that is not a graph: tests/grade.py checks an instructor's directory with
/// it (check-hidden-graphs) before any student's code runs on it.
[[nodiscard]] std::vector<NamedGraph> read_hidden_graphs(const std::string& dir);

/// Reads a graph of the data directory with weights uniform 1..1000 (seed 1)
/// where the file has none, named after `name`.
[[nodiscard]] NamedGraph read_dataset(const std::string& path, const std::string& name);

/// Pointers to each graph of `graphs`, the form the expect_* helpers take.
[[nodiscard]] std::vector<const NamedGraph*> pointers(const std::vector<NamedGraph>& graphs);

/// Bellman-Ford in synchronous (Jacobi) rounds, as labs 05 and 06 define a
/// round: round r reads only the distances left by round r - 1, so after it
/// every distance is the shortest over paths of at most r arcs. Returns how
/// many distances each round lowered, up to and including the first round
/// that lowers none (the round that proves convergence): its size is the
/// number of rounds an early-exit loop runs.
[[nodiscard]] std::vector<std::uint64_t> lowered_per_synchronous_round(const CsrGraph& g, vertex_t source);

/// Vertex 0 reaches `middle` vertices in one step, and every one of them has
/// an arc to one sink, with distinct weights: in a parallel relaxation
/// `middle` threads offer a distance to the sink at once, and only a true
/// atomic minimum keeps the smallest.
[[nodiscard]] NamedGraph fan_in_graph(vertex_t middle = 20000);

/// One source vertex 0 with `arcs` parallel arcs to vertex 1, of distinct
/// weights: relaxing vertex 0 edge-parallel makes `arcs` threads offer to one
/// vertex at once.
[[nodiscard]] NamedGraph parallel_arcs_graph(edge_t arcs = 20000);

/// Prints "[   STEP   ] <what>" to stdout, flushed. A crash or a timeout ends
/// the test program before GoogleTest reports anything, so tests announce
/// each run of student code and tests/grade.py names the last step announced.
void announce_step(std::string_view what);

/// announce_step() for running student code on `g` from `source`, with an
/// optional note (e.g. the hint for a crash this run may cause).
void announce_run(const NamedGraph& g, vertex_t source, std::string_view note = {});

/// Runs `Solver` (a GPU lab class: constructed from a graph and options, with
/// run(source) returning an sssp::SsspResult) on every non-empty graph from
/// sample_sources() (`sources_per_graph` of them), one upload per graph, and
/// asserts each answer matches the reference Dijkstra.
template <typename Solver, typename Options>
void expect_sssp_on(const std::vector<const NamedGraph*>& graphs, std::string_view hint, Options options,
                    std::size_t sources_per_graph = kSampleSources) {
  for (const NamedGraph* g : graphs) {
    if (g->graph.num_vertices() == 0) continue;
    Solver solver(g->graph, options);  // one upload, several sources: the state must reset
    for (const vertex_t source : sample_sources(g->graph, sources_per_graph)) {
      announce_run(*g, source);
      ASSERT_TRUE(matches_reference_sssp(*g, source, solver.run(source).values, hint))
          << "block size " << options.block_size;
    }
  }
}

/// expect_sssp_on() for BFS solvers, against the reference BFS.
template <typename Solver, typename Options>
void expect_bfs_on(const std::vector<const NamedGraph*>& graphs, std::string_view hint, Options options) {
  for (const NamedGraph* g : graphs) {
    if (g->graph.num_vertices() == 0) continue;
    Solver solver(g->graph, options);
    for (const vertex_t source : sample_sources(g->graph)) {
      announce_run(*g, source);
      ASSERT_TRUE(matches_reference_bfs(*g, source, solver.run(source).values, hint))
          << "block size " << options.block_size;
    }
  }
}

/// Path of a file shipped in the repository's datasets/ folder.
[[nodiscard]] std::string shipped_dataset(const std::string& relative);

/// Empty when a GPU can run this build's kernels; otherwise the reason.
[[nodiscard]] std::string gpu_unavailable_reason();

/// Makes gpu_unavailable_reason() check only that a usable GPU is present,
/// without creating a CUDA context here: for an isolated test program, whose
/// worker runs every kernel (default_worker.cpp calls it as it starts).
void gpu_kernels_run_in_the_worker();

}  // namespace sssp::test

// The skip reasons below begin with the prefixes tests/grade.py accepts: a
// graded test that skips for any other reason is graded as failed.

/// Skips the current test, with the reason, when no usable GPU is present.
/// GPU tests start with this: without a GPU they are reported SKIPPED, never passed.
#define SSSP_REQUIRE_GPU()                                                                                \
  do {                                                                                                    \
    if (const std::string sssp_reason_ = ::sssp::test::gpu_unavailable_reason(); !sssp_reason_.empty()) { \
      GTEST_SKIP() << "GPU test skipped: " << sssp_reason_;                                               \
    }                                                                                                     \
  } while (0)

/// Skips the current test when dataset `file` is not in SSSP_DATA_DIR, and
/// otherwise stores its path in `var`.
#define SSSP_REQUIRE_DATASET(var, file)                                     \
  std::string var;                                                          \
  do {                                                                      \
    std::string sssp_why_;                                                  \
    auto sssp_path_ = ::sssp::test::dataset_path((file), &sssp_why_);       \
    if (!sssp_path_) GTEST_SKIP() << "dataset test skipped: " << sssp_why_; \
    var = *sssp_path_;                                                      \
  } while (0)
