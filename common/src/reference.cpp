// The graders' reference: textbook algorithms on standard containers, kept
// short so that their correctness is evident by reading.
#include "sssp/reference.hpp"

#include <chrono>
#include <deque>
#include <set>
#include <utility>

namespace sssp {

// Dijkstra with decrease-key on an ordered set: the set holds each labelled,
// unsettled vertex once, at its current distance, so the first element is
// always the next vertex to settle. (Lab 01 asks for the other design, a heap
// with lazy deletion; the oracle is deliberately not that code.)
std::vector<dist_t> reference_dijkstra(const CsrGraph& graph, vertex_t source) {
  require_valid_source(graph, source);
  std::vector<dist_t> dist(graph.num_vertices(), kInfinity);
  std::set<std::pair<dist_t, vertex_t>> unsettled{{0, source}};
  dist[source] = 0;
  while (!unsettled.empty()) {
    const vertex_t u = unsettled.begin()->second;
    unsettled.erase(unsettled.begin());
    const auto targets = graph.neighbors(u);
    const auto weights = graph.neighbor_weights(u);
    for (std::size_t i = 0; i < targets.size(); ++i) {
      const vertex_t v = targets[i];
      const dist_t candidate = dist[u] + weights[i];  // cannot overflow: see dist_t
      if (candidate >= dist[v]) continue;
      if (dist[v] != kInfinity) unsettled.erase({dist[v], v});  // decrease-key: out at the old distance...
      dist[v] = candidate;
      unsettled.emplace(candidate, v);  // ...and in at the new one
    }
  }
  return dist;
}

std::vector<level_t> reference_bfs(const CsrGraph& graph, vertex_t source) {
  require_valid_source(graph, source);
  std::vector<level_t> level(graph.num_vertices(), kUnreached);
  std::deque<vertex_t> queue{source};
  level[source] = 0;
  while (!queue.empty()) {
    const vertex_t u = queue.front();
    queue.pop_front();
    for (const vertex_t v : graph.neighbors(u)) {
      if (level[v] == kUnreached) {
        level[v] = level[u] + 1;
        queue.push_back(v);
      }
    }
  }
  return level;
}

ReferenceRun timed_reference_dijkstra(const CsrGraph& graph, vertex_t source) {
  ReferenceRun run;
  const auto start = std::chrono::steady_clock::now();
  run.dist = reference_dijkstra(graph, source);
  run.cpu_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  for (vertex_t v = 0; v < graph.num_vertices(); ++v) {
    if (run.dist[v] != kInfinity) {
      ++run.reachable;
      run.arcs += graph.out_degree(v);
    }
  }
  return run;
}

}  // namespace sssp
