// The runner's algorithm table. Each lab adds its entries here; the same file
// is compiled against the student's code (sssp) and the reference (sssp-ref).
#include "algorithms.hpp"

#include "lab01.hpp"

namespace sssp::runner {

namespace {

// Wraps a CPU SSSP function `f(graph, source, counters)`.
template <typename F>
Algorithm cpu_sssp(std::string name, std::string summary, F f) {
  return {std::move(name), std::move(summary), false, false, [f](const CsrGraph& graph) -> PreparedRun {
            return [f, &graph](vertex_t source) {
              RunOutput out;
              out.dist = f(graph, source, &out.counters);
              return out;
            };
          }};
}

// Wraps a CPU BFS function `f(graph, source, counters)`.
template <typename F>
Algorithm cpu_bfs(std::string name, std::string summary, F f) {
  return {std::move(name), std::move(summary), false, true, [f](const CsrGraph& graph) -> PreparedRun {
            return [f, &graph](vertex_t source) {
              RunOutput out;
              out.levels = f(graph, source, &out.counters);
              return out;
            };
          }};
}

}  // namespace

const std::vector<Algorithm>& algorithms() {
  static const std::vector<Algorithm> table = {
      cpu_sssp("lab01/dijkstra", "serial Dijkstra, binary heap with lazy deletion", lab01::dijkstra),
      cpu_sssp("lab01/bellman-ford", "serial Bellman-Ford in rounds with early exit", lab01::bellman_ford),
      cpu_sssp("lab01/bellman-ford-queue", "serial queue-based Bellman-Ford (FIFO, no duplicates)",
               lab01::bellman_ford_queue),
      cpu_bfs("lab01/bfs", "serial level-synchronous BFS", lab01::bfs),
  };
  return table;
}

}  // namespace sssp::runner
