// Lab 01 skeleton, generated from solutions/lab01_serial/dijkstra.cpp by common/tools/make_skeleton.py.
// This file is yours: replace each SSSP_TODO with your code.
// Lab 01, tasks 1 and 2: a binary heap, and Dijkstra's algorithm on it.
#include <stdexcept>
#include <utility>

#include "lab01.hpp"
#include "sssp/todo.hpp"

namespace lab01 {

namespace {
// Strict order of heap entries: by key, ties by vertex id.
bool before(const MinHeap::Entry& a, const MinHeap::Entry& b) {
  return a.key < b.key || (a.key == b.key && a.vertex < b.vertex);
}
}  // namespace

void MinHeap::push(dist_t key, vertex_t vertex) {
  // TODO(task 1): MinHeap::push (append, then sift up)
  SSSP_TODO(1, 1, "MinHeap::push (append, then sift up)");
}

MinHeap::Entry MinHeap::pop() {
  // TODO(task 1): MinHeap::pop (take the root, move the last entry there, sift down)
  SSSP_TODO(1, 1, "MinHeap::pop (take the root, move the last entry there, sift down)");
}

std::vector<dist_t> dijkstra(const CsrGraph& graph, vertex_t source, Counters* counters) {
  // TODO(task 2): Dijkstra with lazy deletion
  SSSP_TODO(1, 2, "Dijkstra with lazy deletion");
}

}  // namespace lab01
