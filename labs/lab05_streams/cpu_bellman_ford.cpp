// Lab 05 skeleton, generated from solutions/lab05_streams/cpu_bellman_ford.cpp by common/tools/make_skeleton.py.
// This file is yours: replace each SSSP_TODO with your code.
// Lab 05, task 1: the multithreaded CPU baselines, naive and work-efficient.
//
// Each thread owns a band of columns (heads v). In a round it walks the rows
// to relax and, for each, reads only its band of that row: a contiguous run
// of weights, the access pattern a CPU cache and prefetcher like best. No
// two threads write the same distance, so the round needs no atomics, only a
// barrier before the distances of the round are published.
#include <algorithm>
#include <barrier>
#include <cstdint>
#include <string_view>
#include <thread>
#include <vector>

#include "lab05.hpp"
#include "sssp/todo.hpp"

namespace lab05 {

namespace {

/// What one thread did in one round; padded to a cache line so that the
/// threads' counts do not share one.
struct alignas(64) BandWork {
  std::uint64_t rows_relaxed = 0;
  std::uint64_t lowered = 0;
};

/// The state every thread of a run shares.
struct Round {
  vertex_t n = 0;
  std::vector<dist_t> dist;          // distances after the last round: what this round reads
  std::vector<dist_t> next;          // this round's offers; next[v] <= dist[v] at all times
  std::vector<std::uint8_t> active;  // 1 if dist[v] was lowered by the last round (round 1: the source)
};

// What arc u -> v offers v: infinite without an arc or while u is unreached
// (the naive version reads those rows too), else a finite distance plus a
// 32-bit weight, which cannot overflow.
inline dist_t offer(dist_t du, weight_t w) { return w == kNoEdge || du == sssp::kInfinity ? sssp::kInfinity : du + w; }

}  // namespace

std::vector<dist_t> cpu_bellman_ford(const DenseGraph& graph, vertex_t source, CpuOptions options, Counters* counters) {
  const vertex_t n = graph.num_vertices();
  Counters work;
  Round s;
  s.n = n;
  // TODO(task 1): reject a bad source (sssp::require_valid_source). Then rounds,
  // as the handout's pseudocode: each of `threads` threads owns a band of
  // columns; in a round it reads dist[u] + w(u, v) for every row u to
  // relax (naive: every row; work-efficient: rows with active[u]) over
  // its band into next[] (use offer()), waits at a barrier, publishes next[] -> dist[]
  // for its band (setting active[]), waits again. Stop after |V| - 1
  // rounds, max_rounds, or (work-efficient) a round that lowered nothing.
  // Fill work: iterations, vertices_processed, edges_relaxed, distance_updates.
  SSSP_TODO(5, 1, "the CPU baselines: relax a band of columns, publish, exit early");
  if (counters != nullptr) *counters = work;
  return s.dist;
}

}  // namespace lab05
