/// @file
/// @brief Fundamental scalar types and sentinels shared by every lab.
///
/// These choices are the course's conventions; every graph, kernel and
/// grader uses them, so a student never has to guess a width.
#pragma once

#include <cstdint>
#include <limits>

namespace sssp {

/// Vertex identifier: dense, zero-based, 32 bits (the largest DIMACS road
/// graph, USA, has 24 million vertices).
using vertex_t = std::uint32_t;

/// Index into the edge arrays of a graph. 32 bits keeps CSR offsets half the
/// size of 64-bit ones on the GPU; readers reject graphs with more arcs.
using edge_t = std::uint32_t;

/// Arc weight: an unsigned 32-bit integer, so weights are never negative.
using weight_t = std::uint32_t;

/// Shortest-path distance.
///
/// 64 bits make overflow impossible by construction: a simple path has at
/// most 2^32 - 2 arcs of weight at most 2^32 - 1, so every finite distance is
/// below (2^32 - 1)^2 < 2^64 - 1 = kInfinity. Relaxation code may therefore
/// compute `d[u] + w` without a check whenever `d[u]` is finite.
using dist_t = std::uint64_t;

/// Distance of a vertex that is not reachable from the source. It compares
/// greater than every finite distance, which is what `atomicMin` needs.
inline constexpr dist_t kInfinity = std::numeric_limits<dist_t>::max();

/// BFS level (number of arcs on a shortest unweighted path).
using level_t = std::uint32_t;

/// Level of a vertex that BFS did not reach.
inline constexpr level_t kUnreached = std::numeric_limits<level_t>::max();

/// Largest number of vertices a graph may have: one id is left free so that
/// `num_vertices` itself always fits in a vertex_t.
inline constexpr std::uint64_t kMaxVertices = std::numeric_limits<vertex_t>::max();

/// Largest number of arcs a graph may have (CSR offsets are edge_t).
inline constexpr std::uint64_t kMaxEdges = std::numeric_limits<edge_t>::max();

}  // namespace sssp
