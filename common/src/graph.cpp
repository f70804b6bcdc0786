#include "sssp/graph.hpp"

#include <algorithm>
#include <string>

#include "sssp/errors.hpp"

namespace sssp {

void EdgeList::validate() const {
  if (dst.size() != src.size() || weight.size() != src.size()) {
    throw InputError(name + ": edge arrays differ in length (src " + std::to_string(src.size()) + ", dst " +
                     std::to_string(dst.size()) + ", weight " + std::to_string(weight.size()) + ")");
  }
  if (src.size() > kMaxEdges) {
    throw InputError(name + ": " + std::to_string(src.size()) + " arcs exceed the limit of " +
                     std::to_string(kMaxEdges));
  }
  for (std::size_t i = 0; i < src.size(); ++i) {
    if (src[i] >= num_vertices || dst[i] >= num_vertices) {
      throw InputError(name + ": arc " + std::to_string(i) + " (" + std::to_string(src[i]) + " -> " +
                       std::to_string(dst[i]) + ") names a vertex outside 0.." + std::to_string(num_vertices) + "-1");
    }
  }
}

void CsrGraph::validate() const {
  if (offsets.empty()) throw InputError(name + ": CSR offsets are empty (need num_vertices + 1)");
  if (offsets.front() != 0) throw InputError(name + ": CSR offsets[0] is not 0");
  if (offsets.back() != targets.size() || weights.size() != targets.size()) {
    throw InputError(name + ": CSR arrays disagree: offsets end at " + std::to_string(offsets.back()) + ", " +
                     std::to_string(targets.size()) + " targets, " + std::to_string(weights.size()) + " weights");
  }
  for (std::size_t u = 0; u + 1 < offsets.size(); ++u) {
    if (offsets[u] > offsets[u + 1]) {
      throw InputError(name + ": CSR offsets decrease at vertex " + std::to_string(u));
    }
  }
  const vertex_t n = num_vertices();
  for (std::size_t i = 0; i < targets.size(); ++i) {
    if (targets[i] >= n) {
      throw InputError(name + ": CSR target " + std::to_string(i) + " is " + std::to_string(targets[i]) +
                       ", not a vertex");
    }
  }
}

namespace {

// Counting sort of arcs by `key`: stable, so arcs of one vertex keep their input order.
CsrGraph bucket_arcs(vertex_t num_vertices, const std::vector<vertex_t>& key, const std::vector<vertex_t>& other,
                     const std::vector<weight_t>& weight, std::string name) {
  CsrGraph g;
  g.name = std::move(name);
  g.offsets.assign(std::size_t{num_vertices} + 1, 0);
  for (const vertex_t k : key) ++g.offsets[k + 1];
  for (std::size_t u = 0; u < num_vertices; ++u) g.offsets[u + 1] += g.offsets[u];
  g.targets.resize(key.size());
  g.weights.resize(key.size());
  std::vector<edge_t> cursor(g.offsets.begin(), g.offsets.end() - 1);
  for (std::size_t i = 0; i < key.size(); ++i) {
    const edge_t slot = cursor[key[i]]++;
    g.targets[slot] = other[i];
    g.weights[slot] = weight[i];
  }
  return g;
}

}  // namespace

CsrGraph to_csr(const EdgeList& edges) {
  edges.validate();
  return bucket_arcs(edges.num_vertices, edges.src, edges.dst, edges.weight, edges.name);
}

EdgeList to_edge_list(const CsrGraph& graph) {
  EdgeList e;
  e.name = graph.name;
  e.num_vertices = graph.num_vertices();
  e.src.reserve(graph.num_edges());
  for (vertex_t u = 0; u < graph.num_vertices(); ++u) {
    e.src.insert(e.src.end(), graph.out_degree(u), u);
  }
  e.dst = graph.targets;
  e.weight = graph.weights;
  return e;
}

CsrGraph transpose(const CsrGraph& graph) {
  const EdgeList e = to_edge_list(graph);
  return bucket_arcs(e.num_vertices, e.dst, e.src, e.weight, graph.name + " (transposed)");
}

void require_valid_source(const CsrGraph& graph, std::uint64_t source) {
  require_valid_source(source, graph.num_vertices());
}

void require_valid_source(std::uint64_t source, std::uint64_t num_vertices) {
  if (source >= num_vertices) throw InvalidSource(source, num_vertices);
}

std::string describe(const CsrGraph& graph) {
  edge_t max_degree = 0;
  for (vertex_t u = 0; u < graph.num_vertices(); ++u) {
    max_degree = std::max(max_degree, graph.out_degree(u));
  }
  return graph.name + ": " + std::to_string(graph.num_vertices()) + " vertices, " + std::to_string(graph.num_edges()) +
         " arcs, max out-degree " + std::to_string(max_degree);
}

}  // namespace sssp
