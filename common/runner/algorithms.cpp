// The runner's algorithm table. Each lab adds its entries here; the same file
// is compiled against the student's code (sssp) and the reference (sssp-ref).
#include "algorithms.hpp"

#include <memory>
#include <type_traits>
#include <utility>

#include "lab01.hpp"
#include "sssp/cuda/device.hpp"
#if SSSP_HAVE_CUDA
#include "lab02.hpp"
#include "lab03.hpp"
#include "lab04.hpp"
#endif

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

#if SSSP_HAVE_CUDA
// Wraps a GPU solver class: its constructor uploads the graph (untimed), and
// run(source, counters, device_ms) reports its own CUDA-event time.
template <typename Solver>
Algorithm gpu(std::string name, std::string summary) {
  using Output = decltype(std::declval<Solver&>().run(vertex_t{}));
  constexpr bool kBfs = std::is_same_v<Output, std::vector<level_t>>;
  return {std::move(name), std::move(summary), true, kBfs, [](const CsrGraph& graph) -> PreparedRun {
            auto solver = std::make_shared<Solver>(graph);
            return [solver](vertex_t source) {
              RunOutput out;
              if constexpr (kBfs) {
                out.levels = solver->run(source, &out.counters, &out.device_ms);
              } else {
                out.dist = solver->run(source, &out.counters, &out.device_ms);
              }
              return out;
            };
          }};
}
#endif

}  // namespace

const std::vector<Algorithm>& algorithms() {
  static const std::vector<Algorithm> table = {
      cpu_sssp("lab01/dijkstra", "serial Dijkstra, binary heap with lazy deletion", lab01::dijkstra),
      cpu_sssp("lab01/bellman-ford", "serial Bellman-Ford in rounds with early exit", lab01::bellman_ford),
      cpu_sssp("lab01/bellman-ford-queue", "serial queue-based Bellman-Ford (FIFO, no duplicates)",
               lab01::bellman_ford_queue),
      cpu_bfs("lab01/bfs", "serial level-synchronous BFS", lab01::bfs),
#if SSSP_HAVE_CUDA
      gpu<lab02::FrontierSssp>("lab02/frontier-sssp", "Harish-Narayanan frontier SSSP: two kernels, host flag loop"),
      gpu<lab02::FrontierBfs>("lab02/frontier-bfs", "frontier BFS: one kernel per level, host flag loop"),
      gpu<lab03::EdgeBfs>("lab03/edge-bfs", "edge-parallel BFS: one thread per arc per level"),
      gpu<lab03::EdgeDijkstra>("lab03/edge-dijkstra",
                               "edge-based Dijkstra: settle every vertex at the minimum, relax arc-parallel"),
      gpu<lab04::ExtractMinDijkstra>("lab04/extract-min-dijkstra",
                                     "Dijkstra with a reduction ExtractMin: one vertex per round, O(V^2/t)"),
#endif
  };
  return table;
}

}  // namespace sssp::runner
