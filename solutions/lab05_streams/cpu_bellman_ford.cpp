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
  // BEGIN SOLUTION task 1: the CPU baselines: relax a band of columns, publish, exit early
  sssp::require_valid_source(source, n);
  s.dist.assign(n, sssp::kInfinity);
  s.next.assign(n, sssp::kInfinity);
  s.active.assign(n, 0);
  s.dist[source] = s.next[source] = 0;
  s.active[source] = 1;
  const bool naive = options.variant == Variant::kNaive;
  // |V| - 1 rounds at most (but at least one), or fewer if the options say so.
  const std::uint64_t max_rounds =
      std::min<std::uint64_t>(std::max(1u, n - 1), options.max_rounds == 0 ? UINT64_MAX : options.max_rounds);
  const unsigned hardware = std::max(1u, std::thread::hardware_concurrency());
  const unsigned threads = std::max(1u, std::min(options.threads == 0 ? hardware : options.threads, n));

  std::vector<BandWork> band_work(threads);
  bool stop = false;
  // Runs once per round, on one thread, after every band is published.
  auto end_of_round = [&]() noexcept {
    std::uint64_t lowered = 0;
    for (BandWork& b : band_work) {
      work.vertices_processed += b.rows_relaxed;
      lowered += b.lowered;
      b = BandWork{};
    }
    work.distance_updates += lowered;
    ++work.iterations;
    stop = work.iterations == max_rounds || (!naive && lowered == 0);
  };
  std::barrier relaxed(static_cast<std::ptrdiff_t>(threads));
  std::barrier published(static_cast<std::ptrdiff_t>(threads), end_of_round);

  auto band = [&](unsigned t) {
    const vertex_t first = static_cast<vertex_t>(static_cast<std::uint64_t>(n) * t / threads);
    const vertex_t end = static_cast<vertex_t>(static_cast<std::uint64_t>(n) * (t + 1) / threads);
    while (!stop) {
      // Relax: every row to relax, over this thread's columns only.
      for (vertex_t u = 0; u < n; ++u) {
        if (!naive && s.active[u] == 0) continue;
        if (t == 0) ++band_work[0].rows_relaxed;  // every band reads the row; count it once
        const dist_t du = s.dist[u];
        const weight_t* row = graph.row(u).data();
        for (vertex_t v = first; v < end; ++v) s.next[v] = std::min(s.next[v], offer(du, row[v]));
      }
      relaxed.arrive_and_wait();  // every thread has read dist[] of this round
      // Publish this band: the next round reads the new distances, and
      // relaxes the rows of the vertices that just got closer.
      for (vertex_t v = first; v < end; ++v) {
        const bool lowered = s.next[v] < s.dist[v];
        s.active[v] = lowered ? 1 : 0;
        if (lowered) {
          s.dist[v] = s.next[v];
          ++band_work[t].lowered;
        }
      }
      published.arrive_and_wait();  // end_of_round decides whether to go on
    }
  };
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t) pool.emplace_back(band, t);
  band(0);
  for (std::thread& thread : pool) thread.join();
  work.edges_relaxed = work.vertices_processed * n;
  // SKELETON
  // // TODO(task 1): reject a bad source first. On return s.dist holds the
  // // distances after the rounds lab05.hpp's Variant defines (at most the
  // // round limit of CpuOptions), computed by `threads` threads, each the only
  // // writer of its band of columns (the comment at the top of this file).
  // // Every round must read only the distances of the previous round, and
  // // active[] must say which rows the next round relaxes: argue where the
  // // threads must wait for each other, and who decides to stop. `work` as
  // // lab05.hpp defines the counters: a row read counts once, not per band.
  // SSSP_TODO(5, 1, "the CPU baselines: relax a band of columns, publish, exit early");
  // END SOLUTION
  if (counters != nullptr) *counters = work;
  return s.dist;
}

}  // namespace lab05
