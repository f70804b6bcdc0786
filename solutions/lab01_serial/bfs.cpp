// Lab 01, task 5: breadth-first search, level by level.
#include <vector>

#include "lab01.hpp"
#include "sssp/todo.hpp"

namespace lab01 {

std::vector<level_t> bfs(const CsrGraph& graph, vertex_t source, Counters* counters) {
  // BEGIN SOLUTION task 5: level-synchronous BFS
  sssp::require_valid_source(graph, source);
  Counters work;
  std::vector<level_t> level(graph.num_vertices(), sssp::kUnreached);
  // Two explicit frontiers instead of one queue: the same level-by-level
  // structure the GPU BFS of labs 02 and 03 uses, one kernel launch per level.
  std::vector<vertex_t> frontier{source};
  std::vector<vertex_t> next;
  level[source] = 0;
  for (level_t depth = 0; !frontier.empty(); ++depth) {
    ++work.iterations;
    next.clear();
    for (const vertex_t u : frontier) {
      ++work.vertices_processed;
      for (const vertex_t v : graph.neighbors(u)) {
        ++work.edges_relaxed;
        if (level[v] == sssp::kUnreached) {
          level[v] = depth + 1;
          next.push_back(v);
        }
      }
    }
    frontier.swap(next);
  }
  if (counters != nullptr) *counters = work;
  return level;
  // END SOLUTION
}

}  // namespace lab01
