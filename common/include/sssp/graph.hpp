/// @file
/// @brief Graph containers: the edge list (COO) that readers and generators
/// produce, and the compressed sparse row (CSR) form every algorithm reads.
///
/// Both are directed. An undirected input becomes two arcs per edge when it
/// is read. Self-loops and parallel arcs are kept as given: real data has
/// them (soc-Slashdot0902 has 78,303 self-loops) and kernels must cope.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "sssp/types.hpp"

namespace sssp {

/// A directed multigraph as parallel arrays of arcs (coordinate format).
///
/// Arc `i` goes from `src[i]` to `dst[i]` with weight `weight[i]`. The three
/// arrays always have the same length. This struct-of-arrays layout is what
/// a thread-per-edge kernel wants: neighbouring threads read neighbouring words.
struct EdgeList {
  vertex_t num_vertices = 0;     ///< Vertices are 0 .. num_vertices - 1.
  std::vector<vertex_t> src;     ///< Tail of each arc.
  std::vector<vertex_t> dst;     ///< Head of each arc.
  std::vector<weight_t> weight;  ///< Weight of each arc.
  std::string name;              ///< Human-readable origin, used in messages.

  /// Number of arcs.
  [[nodiscard]] edge_t num_edges() const { return static_cast<edge_t>(src.size()); }

  /// Appends the arc u -> v with weight w. Does not check the ids.
  void add_arc(vertex_t u, vertex_t v, weight_t w) {
    src.push_back(u);
    dst.push_back(v);
    weight.push_back(w);
  }

  /// Throws InputError unless the arrays have one length, every id is below
  /// num_vertices, and the arc count fits edge_t.
  void validate() const;
};

/// A directed multigraph in compressed sparse row form.
///
/// The out-arcs of vertex `u` are positions `offsets[u] .. offsets[u+1]-1` of
/// `targets` and `weights`, in the order they appeared in the edge list
/// (the conversion is a stable counting sort, so results are reproducible).
struct CsrGraph {
  std::vector<edge_t> offsets;    ///< num_vertices + 1 entries; offsets[0] == 0.
  std::vector<vertex_t> targets;  ///< Head of each arc, grouped by tail.
  std::vector<weight_t> weights;  ///< Weight of each arc, parallel to targets.
  std::string name;               ///< Human-readable origin, used in messages.

  /// Number of vertices.
  [[nodiscard]] vertex_t num_vertices() const {
    return offsets.empty() ? 0 : static_cast<vertex_t>(offsets.size() - 1);
  }
  /// Number of arcs.
  [[nodiscard]] edge_t num_edges() const { return static_cast<edge_t>(targets.size()); }
  /// Number of out-arcs of u.
  [[nodiscard]] edge_t out_degree(vertex_t u) const { return offsets[u + 1] - offsets[u]; }
  /// Heads of the out-arcs of u.
  [[nodiscard]] std::span<const vertex_t> neighbors(vertex_t u) const {
    return {targets.data() + offsets[u], out_degree(u)};
  }
  /// Weights of the out-arcs of u, parallel to neighbors(u).
  [[nodiscard]] std::span<const weight_t> neighbor_weights(vertex_t u) const {
    return {weights.data() + offsets[u], out_degree(u)};
  }
  /// True when `v` is a vertex of this graph.
  [[nodiscard]] bool contains(std::uint64_t v) const { return v < num_vertices(); }

  /// Throws InputError unless the offsets are monotone from 0 to num_edges,
  /// the arrays agree in length, and every target is a vertex.
  void validate() const;
};

/// Builds the CSR of `edges` (out-arcs). O(V + E), stable.
[[nodiscard]] CsrGraph to_csr(const EdgeList& edges);

/// Builds the CSR of the reverse graph: the out-arcs of `v` in the result are
/// the in-arcs of `v` in `graph` (their `targets` are the tails). Pull-style
/// kernels, such as the min-plus SpMV of lab 06, read this form.
[[nodiscard]] CsrGraph transpose(const CsrGraph& graph);

/// Converts back to an edge list, arcs in CSR order.
[[nodiscard]] EdgeList to_edge_list(const CsrGraph& graph);

/// Throws InvalidSource unless `source` is a vertex of `graph`.
void require_valid_source(const CsrGraph& graph, std::uint64_t source);

/// Throws InvalidSource unless `source` < `num_vertices`: for solvers that
/// keep only the vertex count of the graph they were given (a GPU copy, a matrix).
void require_valid_source(std::uint64_t source, std::uint64_t num_vertices);

/// One-line summary: "name: V vertices, E arcs, max out-degree D".
[[nodiscard]] std::string describe(const CsrGraph& graph);

}  // namespace sssp
