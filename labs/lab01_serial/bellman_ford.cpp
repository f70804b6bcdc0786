// Lab 01 skeleton, generated from solutions/lab01_serial/bellman_ford.cpp by common/tools/make_skeleton.py.
// This file is yours: replace each SSSP_TODO with your code.
// Lab 01, tasks 3 and 4: Bellman-Ford in rounds with early exit, and its
// queue-based variant.
#include <algorithm>
#include <deque>

#include "lab01.hpp"
#include "sssp/todo.hpp"

namespace lab01 {

std::vector<dist_t> bellman_ford(const CsrGraph& graph, vertex_t source, Counters* counters) {
  // TODO(task 3): Bellman-Ford in rounds with early exit
  SSSP_TODO(1, 3, "Bellman-Ford in rounds with early exit");
}

std::vector<dist_t> bellman_ford_queue(const CsrGraph& graph, vertex_t source, Counters* counters) {
  // TODO(task 4): queue-based Bellman-Ford
  SSSP_TODO(1, 4, "queue-based Bellman-Ford");
}

}  // namespace lab01
