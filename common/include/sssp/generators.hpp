/// @file
/// @brief Deterministic graph generators: the same arguments and seed give the
/// same graph on every machine.
///
/// Each family stresses something different: grids are road-like (low degree,
/// high diameter, many BFS levels), RMAT is power-law (a few huge hubs,
/// small diameter), complete graphs are dense (lab 05).
#pragma once

#include <cstdint>
#include <string>

#include "sssp/graph.hpp"
#include "sssp/weights.hpp"

namespace sssp {

/// rows x cols 4-neighbour grid, an arc each way between neighbours. Vertex
/// (r, c) is r * cols + c. Road-like: degree <= 4, diameter rows + cols - 2.
[[nodiscard]] EdgeList make_grid(vertex_t rows, vertex_t cols, const WeightPolicy& weights);

/// `num_edges` arcs with endpoints drawn uniformly (Erdos-Renyi G(n, m) style,
/// self-loops and parallel arcs possible, as in real data).
[[nodiscard]] EdgeList make_uniform_random(vertex_t num_vertices, std::uint64_t num_edges, const WeightPolicy& weights,
                                           std::uint64_t seed);

/// Parameters of the recursive-matrix (R-MAT / Kronecker) generator.
struct RmatParams {
  double a = 0.57;  ///< Probability of the top-left quadrant (Graph500).
  double b = 0.19;  ///< Top-right (Graph500).
  double c = 0.19;  ///< Bottom-left (Graph500); d = 1 - a - b - c.
};

/// 2^scale vertices and edge_factor * 2^scale arcs by R-MAT (Chakrabarti,
/// Zhan, Faloutsos 2004) with Graph500 parameters by default. Vertex ids are
/// scrambled by a seeded bijection so that hubs are not all at low ids.
[[nodiscard]] EdgeList make_rmat(unsigned scale, unsigned edge_factor, const WeightPolicy& weights, std::uint64_t seed,
                                 RmatParams params = {});

/// Directed path 0 -> 1 -> ... -> n-1: the worst case for level-synchronous
/// algorithms (n - 1 levels).
[[nodiscard]] EdgeList make_chain(vertex_t num_vertices, const WeightPolicy& weights);

/// Star with centre 0: an arc 0 -> i and i -> 0 for every leaf i. One vertex
/// of degree n - 1: the load-imbalance and atomic-contention stress case.
[[nodiscard]] EdgeList make_star(vertex_t num_vertices, const WeightPolicy& weights);

/// Complete directed graph without self-loops: n (n - 1) arcs (lab 05's dense case).
[[nodiscard]] EdgeList make_complete(vertex_t num_vertices, const WeightPolicy& weights);

/// Builds a graph from a spec string, the runner's `--gen` argument:
///   grid:ROWSxCOLS, random:N:M, rmat:SCALE[:EDGEFACTOR], chain:N, star:N, complete:N.
/// Throws InputError on a malformed spec or a size beyond the limits: more
/// than kDefaultMaxVertices vertices (the readers' cap), or an estimated
/// footprint (the edge list and its CSR) larger than the machine's physical
/// memory. Both are checked before anything is allocated, by the make_
/// functions above too.
[[nodiscard]] EdgeList generate(const std::string& spec, const WeightPolicy& weights, std::uint64_t seed);

}  // namespace sssp
