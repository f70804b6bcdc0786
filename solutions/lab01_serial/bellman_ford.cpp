// Lab 01, tasks 3 and 4: Bellman-Ford in rounds with early exit, and its
// queue-based variant.
#include <algorithm>
#include <deque>

#include "lab01.hpp"
#include "sssp/todo.hpp"

namespace lab01 {

std::vector<dist_t> bellman_ford(const CsrGraph& graph, vertex_t source, Counters* counters) {
  // BEGIN SOLUTION task 3: Bellman-Ford in rounds with early exit
  sssp::require_valid_source(graph, source);
  Counters work;
  const vertex_t n = graph.num_vertices();
  std::vector<dist_t> dist(n, sssp::kInfinity);
  dist[source] = 0;
  // With non-negative weights some shortest path to every vertex has at most
  // n - 1 arcs, so n - 1 rounds always suffice; most graphs need far fewer.
  const std::uint64_t max_rounds = std::max<std::uint64_t>(1, n - 1);
  for (std::uint64_t round = 0; round < max_rounds; ++round) {
    ++work.iterations;
    bool changed = false;
    for (vertex_t u = 0; u < n; ++u) {
      if (dist[u] == sssp::kInfinity) continue;  // nothing to propagate yet
      for (sssp::edge_t e = graph.offsets[u]; e < graph.offsets[u + 1]; ++e) {
        ++work.edges_relaxed;
        const dist_t candidate = dist[u] + graph.weights[e];
        if (candidate < dist[graph.targets[e]]) {
          dist[graph.targets[e]] = candidate;
          ++work.distance_updates;
          changed = true;
        }
      }
    }
    if (!changed) break;  // early exit: a round without change is a fixed point
  }
  if (counters != nullptr) *counters = work;
  return dist;
  // END SOLUTION
}

std::vector<dist_t> bellman_ford_queue(const CsrGraph& graph, vertex_t source, Counters* counters) {
  // BEGIN SOLUTION task 4: queue-based Bellman-Ford
  sssp::require_valid_source(graph, source);
  Counters work;
  const vertex_t n = graph.num_vertices();
  std::vector<dist_t> dist(n, sssp::kInfinity);
  std::vector<bool> queued(n, false);
  std::deque<vertex_t> queue{source};
  dist[source] = 0;
  queued[source] = true;
  while (!queue.empty()) {
    const vertex_t u = queue.front();
    queue.pop_front();
    queued[u] = false;  // u may be queued again if its distance drops later
    ++work.vertices_processed;
    for (sssp::edge_t e = graph.offsets[u]; e < graph.offsets[u + 1]; ++e) {
      ++work.edges_relaxed;
      const vertex_t v = graph.targets[e];
      const dist_t candidate = dist[u] + graph.weights[e];
      if (candidate < dist[v]) {
        dist[v] = candidate;
        ++work.distance_updates;
        if (!queued[v]) {
          queued[v] = true;
          queue.push_back(v);
        }
      }
    }
  }
  if (counters != nullptr) *counters = work;
  return dist;
  // END SOLUTION
}

}  // namespace lab01
