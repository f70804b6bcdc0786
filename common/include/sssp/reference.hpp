/// @file
/// @brief The graders' reference algorithms: short, obviously correct, and
/// independent of any student code.
#pragma once

#include <vector>

#include "sssp/graph.hpp"

namespace sssp {

/// Single-source shortest path distances by Dijkstra's algorithm with
/// std::priority_queue and lazy deletion. O((V + E) log E).
/// Unreachable vertices get kInfinity. Throws InvalidSource on a bad source.
[[nodiscard]] std::vector<dist_t> reference_dijkstra(const CsrGraph& graph, vertex_t source);

/// BFS levels from `source` (weights ignored). Unreached vertices get
/// kUnreached. Throws InvalidSource on a bad source.
[[nodiscard]] std::vector<level_t> reference_bfs(const CsrGraph& graph, vertex_t source);

}  // namespace sssp
