/// @file
/// @brief The graders' reference algorithms: short, obviously correct, and
/// independent of any student code.
#pragma once

#include <cstdint>
#include <vector>

#include "sssp/graph.hpp"

namespace sssp {

/// Single-source shortest path distances by Dijkstra's algorithm with
/// decrease-key on an ordered set (std::set), each unsettled vertex in it
/// once. O((V + E) log V).
/// Unreachable vertices get kInfinity. Throws InvalidSource on a bad source.
[[nodiscard]] std::vector<dist_t> reference_dijkstra(const CsrGraph& graph, vertex_t source);

/// BFS levels from `source` (weights ignored). Unreached vertices get
/// kUnreached. Throws InvalidSource on a bad source.
[[nodiscard]] std::vector<level_t> reference_bfs(const CsrGraph& graph, vertex_t source);

/// reference_dijkstra as a benchmark's yardstick.
struct ReferenceRun {
  std::vector<dist_t> dist;     ///< The distances every run must match.
  double cpu_ms = 0;            ///< The time it took on this CPU (steady clock), in milliseconds.
  std::uint64_t reachable = 0;  ///< Vertices at a finite distance: Dijkstra's work, each once.
  std::uint64_t arcs = 0;       ///< Arcs leaving them: what a run traverses, as the runner counts MTEPS.
};

/// reference_dijkstra from `source`, timed, with what it reached.
[[nodiscard]] ReferenceRun timed_reference_dijkstra(const CsrGraph& graph, vertex_t source);

}  // namespace sssp
