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
  // BEGIN SOLUTION task 1: MinHeap::push (append, then sift up)
  // Append at the end, then move the entry up while it beats its parent.
  std::size_t slot = entries_.size();
  entries_.push_back({key, vertex});
  while (slot > 0) {
    const std::size_t parent = (slot - 1) / 2;
    if (!before(entries_[slot], entries_[parent])) break;
    std::swap(entries_[slot], entries_[parent]);
    slot = parent;
  }
  // END SOLUTION
}

MinHeap::Entry MinHeap::pop() {
  // BEGIN SOLUTION task 1: MinHeap::pop (take the root, move the last entry there, sift down)
  if (entries_.empty()) throw std::out_of_range("MinHeap::pop on an empty heap");
  const Entry top = entries_.front();
  entries_.front() = entries_.back();
  entries_.pop_back();
  // Sift the moved entry down, swapping with the smaller child while it is larger.
  const std::size_t n = entries_.size();
  std::size_t slot = 0;
  while (true) {
    const std::size_t left = 2 * slot + 1;
    if (left >= n) break;
    const std::size_t right = left + 1;
    const std::size_t child = (right < n && before(entries_[right], entries_[left])) ? right : left;
    if (!before(entries_[child], entries_[slot])) break;
    std::swap(entries_[child], entries_[slot]);
    slot = child;
  }
  return top;
  // END SOLUTION
}

std::vector<dist_t> dijkstra(const CsrGraph& graph, vertex_t source, Counters* counters) {
  // BEGIN SOLUTION task 2: Dijkstra with lazy deletion
  sssp::require_valid_source(graph, source);
  Counters work;
  std::vector<dist_t> dist(graph.num_vertices(), sssp::kInfinity);
  MinHeap heap;
  dist[source] = 0;
  heap.push(0, source);
  while (!heap.empty()) {
    const auto [d, u] = heap.pop();
    ++work.iterations;
    // Lazy deletion: a vertex is pushed again whenever its distance drops, so
    // older entries for it are stale. The first pop of u carries dist[u].
    if (d != dist[u]) continue;
    ++work.vertices_processed;
    const auto targets = graph.neighbors(u);
    const auto weights = graph.neighbor_weights(u);
    for (std::size_t i = 0; i < targets.size(); ++i) {
      ++work.edges_relaxed;
      const dist_t candidate = d + weights[i];  // finite d: cannot overflow (see sssp::dist_t)
      if (candidate < dist[targets[i]]) {
        dist[targets[i]] = candidate;
        ++work.distance_updates;
        heap.push(candidate, targets[i]);
      }
    }
  }
  if (counters != nullptr) *counters = work;
  return dist;
  // END SOLUTION
}

}  // namespace lab01
