// Lab 01's algorithms in the runner (common/runner/registry.hpp).
#include "lab01.hpp"
#include "registry.hpp"

namespace sssp::runner {

void register_lab01_serial(Registry& registry) {
  registry.add(cpu_algorithm("lab01/dijkstra", "serial Dijkstra, binary heap with lazy deletion", lab01::dijkstra));
  registry.add(
      cpu_algorithm("lab01/bellman-ford", "serial Bellman-Ford in rounds with early exit", lab01::bellman_ford));
  registry.add(cpu_algorithm("lab01/bellman-ford-queue", "serial queue-based Bellman-Ford (FIFO, no duplicates)",
                             lab01::bellman_ford_queue));
  registry.add(cpu_algorithm("lab01/bfs", "serial level-synchronous BFS", lab01::bfs));
}

}  // namespace sssp::runner
