// The graders' reference: textbook algorithms on standard containers, kept
// short so that their correctness is evident by reading.
#include "sssp/reference.hpp"

#include <chrono>
#include <deque>
#include <functional>
#include <queue>
#include <utility>

namespace sssp {

std::vector<dist_t> reference_dijkstra(const CsrGraph& graph, vertex_t source) {
  require_valid_source(graph, source);
  std::vector<dist_t> dist(graph.num_vertices(), kInfinity);
  using Entry = std::pair<dist_t, vertex_t>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> queue;
  dist[source] = 0;
  queue.emplace(0, source);
  while (!queue.empty()) {
    const auto [d, u] = queue.top();
    queue.pop();
    if (d != dist[u]) continue;  // stale entry: u was settled with a smaller distance
    const auto targets = graph.neighbors(u);
    const auto weights = graph.neighbor_weights(u);
    for (std::size_t i = 0; i < targets.size(); ++i) {
      const dist_t candidate = d + weights[i];  // cannot overflow: see dist_t
      if (candidate < dist[targets[i]]) {
        dist[targets[i]] = candidate;
        queue.emplace(candidate, targets[i]);
      }
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
