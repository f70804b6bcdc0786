// Lab 01's API across the worker boundary (tests/grader/runtime/rpc/api.hpp): the
// worker serves the student's functions; the graded tests call them here.
#include "lab01.hpp"
#include "rpc/api.hpp"

namespace lab01 {

/// A heap entry crosses as its two fields.
inline auto rpc_fields(MinHeap::Entry& e) { return std::tie(e.key, e.vertex); }

/// The heap's state lives in the test's MinHeap (so that the header's inline
/// size(), empty() and entries() see it); push and pop run in the worker on a
/// copy of the entries, which comes back.
struct MinHeapAccess {
  static std::vector<MinHeap::Entry>& entries(MinHeap& heap) { return heap.entries_; }

  static std::vector<MinHeap::Entry> push(std::vector<MinHeap::Entry> entries, dist_t key, vertex_t vertex) {
    MinHeap heap;
    heap.entries_ = std::move(entries);
    heap.push(key, vertex);
    return std::move(heap.entries_);
  }
  static std::pair<MinHeap::Entry, std::vector<MinHeap::Entry>> pop(std::vector<MinHeap::Entry> entries) {
    MinHeap heap;
    heap.entries_ = std::move(entries);
    const MinHeap::Entry top = heap.pop();
    return {top, std::move(heap.entries_)};
  }
};

}  // namespace lab01

#if SSSP_RPC_WORKER

void sssp::rpc::register_lab(Registry& registry) {
  registry.function("lab01::MinHeap::push", &lab01::MinHeapAccess::push);
  registry.function("lab01::MinHeap::pop", &lab01::MinHeapAccess::pop);
  registry.function("lab01::dijkstra", &lab01::dijkstra);
  registry.function("lab01::bellman_ford", &lab01::bellman_ford);
  registry.function("lab01::bellman_ford_queue", &lab01::bellman_ford_queue);
  registry.function("lab01::bfs", &lab01::bfs);
}

#else

namespace lab01 {

void MinHeap::push(dist_t key, vertex_t vertex) {
  entries_ = sssp::rpc::call(&MinHeapAccess::push, "lab01::MinHeap::push", entries_, key, vertex);
}

MinHeap::Entry MinHeap::pop() {
  auto [top, rest] = sssp::rpc::call(&MinHeapAccess::pop, "lab01::MinHeap::pop", entries_);
  entries_ = std::move(rest);
  return top;
}

std::vector<dist_t> dijkstra(const CsrGraph& graph, vertex_t source, Counters* counters) {
  return sssp::rpc::call(&dijkstra, "lab01::dijkstra", graph, source, counters);
}

std::vector<dist_t> bellman_ford(const CsrGraph& graph, vertex_t source, Counters* counters) {
  return sssp::rpc::call(&bellman_ford, "lab01::bellman_ford", graph, source, counters);
}

std::vector<dist_t> bellman_ford_queue(const CsrGraph& graph, vertex_t source, Counters* counters) {
  return sssp::rpc::call(&bellman_ford_queue, "lab01::bellman_ford_queue", graph, source, counters);
}

std::vector<level_t> bfs(const CsrGraph& graph, vertex_t source, Counters* counters) {
  return sssp::rpc::call(&bfs, "lab01::bfs", graph, source, counters);
}

}  // namespace lab01

#endif
