/// @file
/// @brief Checking an answer: against a reference, or by a certificate that
/// needs no reference at all.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "sssp/graph.hpp"

namespace sssp {

/// Outcome of a check. On failure, `vertex` is the first offending vertex
/// and `message` says what is wrong with the evidence (values, the arc).
struct Verdict {
  bool ok = true;              ///< True when the answer passed.
  vertex_t vertex = 0;         ///< First offending vertex when !ok.
  std::uint64_t failures = 0;  ///< How many vertices (or arcs) are wrong.
  std::string message;         ///< Explanation when !ok; empty otherwise.
  /// True when the answer passed, so a Verdict can be tested like a bool.
  explicit operator bool() const { return ok; }
};

/// Certifies SSSP distances without a reference. `dist` is correct if and
/// only if all of these hold:
///  1. dist has one entry per vertex and dist[source] == 0;
///  2. no arc (u, v, w) has dist[u] finite and dist[v] > dist[u] + w
///     (so every vertex with a reached in-neighbour is reached);
///  3. every reached v != source has a tight in-arc: dist[v] == dist[u] + w
///     for some arc (u, v, w) with dist[u] finite.
/// 2 says no distance is too large; 3 with 1 (weights are non-negative)
/// says each finite distance is the length of a real path, so none is too small.
/// Runs in O(V + E).
[[nodiscard]] Verdict verify_sssp(const CsrGraph& graph, vertex_t source, std::span<const dist_t> dist);

/// Certifies BFS levels the same way, with every arc counting 1.
[[nodiscard]] Verdict verify_bfs(const CsrGraph& graph, vertex_t source, std::span<const level_t> level);

/// Compares distances with expected ones; reports the first mismatch, its
/// expected and actual value, and the number of mismatching vertices.
[[nodiscard]] Verdict compare_distances(std::span<const dist_t> expected, std::span<const dist_t> actual);

/// Same as compare_distances() for BFS levels.
[[nodiscard]] Verdict compare_levels(std::span<const level_t> expected, std::span<const level_t> actual);

/// Formats a distance for people: the number, or "inf" for kInfinity.
[[nodiscard]] std::string format_distance(dist_t d);

}  // namespace sssp
