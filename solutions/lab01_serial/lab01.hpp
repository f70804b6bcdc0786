/// @file
/// @brief Lab 01 — serial baselines: Dijkstra with a binary heap, Bellman-Ford
/// (round-based with early exit, and queue-based), and BFS.
///
/// These are the yardsticks every GPU lab is measured against, so they must be
/// both correct and honest about the work they do (see sssp::Counters).
#pragma once

#include <cstddef>
#include <vector>

#include "sssp/counters.hpp"
#include "sssp/graph.hpp"
#include "sssp/types.hpp"

/// Lab 01: serial shortest paths and BFS.
namespace lab01 {

using sssp::Counters;
using sssp::CsrGraph;
using sssp::dist_t;
using sssp::level_t;
using sssp::vertex_t;

/// Lets the grader carry a MinHeap's entries to the worker process that runs
/// push() and pop() and back (tests/lab01_serial/binding.cpp).
struct MinHeapAccess;

/// A binary min-heap of (key, vertex) entries stored in an array
/// (children of slot i are 2i+1 and 2i+2).
///
/// Ties between equal keys are broken by the smaller vertex id, so every
/// implementation pops entries in one well-defined order.
class MinHeap {
 public:
  /// One heap entry.
  struct Entry {
    dist_t key;       ///< Priority: the tentative distance.
    vertex_t vertex;  ///< The vertex it belongs to.
  };

  /// True when the heap holds no entry.
  [[nodiscard]] bool empty() const { return entries_.empty(); }
  /// Number of entries.
  [[nodiscard]] std::size_t size() const { return entries_.size(); }
  /// The heap's array in level order (slot 0 is the root): no entry comes
  /// before the one in its parent slot. The tests inspect it after every
  /// push() and pop().
  [[nodiscard]] const std::vector<Entry>& entries() const { return entries_; }

  /// Task 1a: inserts an entry in O(log n).
  void push(dist_t key, vertex_t vertex);

  /// Task 1b: removes and returns the entry with the smallest (key, vertex)
  /// in O(log n). Throws std::out_of_range when the heap is empty.
  Entry pop();

 private:
  friend struct MinHeapAccess;  // the grader moves a heap's entries to the process that runs push and pop
  std::vector<Entry> entries_;
};

/// Task 2: single-source shortest paths by Dijkstra's algorithm with
/// MinHeap and lazy deletion: a vertex may sit in the heap several times,
/// and entries whose key is no longer its distance are skipped when popped.
///
/// @param graph   the graph (weights are non-negative by construction)
/// @param source  the source vertex; throws sssp::InvalidSource if it is not a vertex
/// @param counters if not null, receives: iterations = heap pops (stale ones included),
///        vertices_processed = vertices settled (each exactly once),
///        edges_relaxed = arcs examined, distance_updates = distances lowered
/// @return distance of every vertex from source; sssp::kInfinity if unreachable
[[nodiscard]] std::vector<dist_t> dijkstra(const CsrGraph& graph, vertex_t source, Counters* counters = nullptr);

/// Task 3: Bellman-Ford in rounds. Each round relaxes every arc of every
/// reached vertex, in CSR order, updating distances in place. Stops after the
/// first round that changes nothing, or after max(1, |V| - 1) rounds.
///
/// @param counters if not null: iterations = rounds run, edges_relaxed = arcs
///        examined, distance_updates = distances lowered
/// @return as dijkstra()
[[nodiscard]] std::vector<dist_t> bellman_ford(const CsrGraph& graph, vertex_t source, Counters* counters = nullptr);

/// Task 4: queue-based Bellman-Ford (Bellman-Ford-Moore, "SPFA"): a FIFO
/// queue holds the vertices whose distance dropped since they were last
/// expanded; a vertex already waiting in the queue is not added twice.
///
/// @param counters if not null: vertices_processed = vertices taken from the
///        queue, edges_relaxed = arcs examined, distance_updates = distances lowered
/// @return as dijkstra()
[[nodiscard]] std::vector<dist_t> bellman_ford_queue(const CsrGraph& graph, vertex_t source,
                                                     Counters* counters = nullptr);

/// Task 5: breadth-first search; weights are ignored.
///
/// @param counters if not null: iterations = levels expanded,
///        vertices_processed = vertices dequeued, edges_relaxed = arcs examined
/// @return the level (arcs on a shortest unweighted path) of every vertex;
///         sssp::kUnreached if unreachable
[[nodiscard]] std::vector<level_t> bfs(const CsrGraph& graph, vertex_t source, Counters* counters = nullptr);

}  // namespace lab01
