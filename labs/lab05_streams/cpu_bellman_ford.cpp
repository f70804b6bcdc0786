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
  // TODO(task 1): reject a bad source first. On return s.dist holds the
  // distances after the rounds lab05.hpp's Variant defines (at most the
  // round limit of CpuOptions), computed by `threads` threads, each the only
  // writer of its band of columns (the comment at the top of this file).
  // Every round must read only the distances of the previous round, and
  // active[] must say which rows the next round relaxes: argue where the
  // threads must wait for each other, and who decides to stop. `work` as
  // lab05.hpp defines the counters: a row read counts once, not per band.
  SSSP_TODO(5, 1, "the CPU baselines: relax a band of columns, publish, exit early");
  if (counters != nullptr) *counters = work;
  return s.dist;
}

}  // namespace lab05
