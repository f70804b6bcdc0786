// Lab 01 skeleton, generated from solutions/lab01_serial/bfs.cpp by common/tools/make_skeleton.py.
// This file is yours: replace each SSSP_TODO with your code.
// Lab 01, task 5: breadth-first search, level by level.
#include <vector>

#include "lab01.hpp"
#include "sssp/todo.hpp"

namespace lab01 {

std::vector<level_t> bfs(const CsrGraph& graph, vertex_t source, Counters* counters) {
  // TODO(task 5): level-synchronous BFS
  SSSP_TODO(1, 5, "level-synchronous BFS");
}

}  // namespace lab01
