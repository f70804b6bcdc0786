// How the runner measures an algorithm from one source (measure.hpp).
#include "measure.hpp"

#include <chrono>
#include <cstdio>
#include <utility>

#include "sssp/bench_args.hpp"
#include "sssp/cuda/device.hpp"
#include "sssp/verify.hpp"

namespace sssp::runner {

namespace {

// Arcs leaving reached vertices: the edges the run had to look at.
template <typename Value>
std::uint64_t reached_arcs(const CsrGraph& g, const std::vector<Value>& value, Value unreached) {
  std::uint64_t arcs = 0;
  for (vertex_t v = 0; v < g.num_vertices() && v < value.size(); ++v) {
    if (value[v] != unreached) arcs += g.out_degree(v);
  }
  return arcs;
}

}  // namespace

Measurement measure(const Algorithm& a, const PreparedRun& run, const CsrGraph& g, vertex_t source,
                    const Repetitions& o, RunOutput* answer) {
  Measurement m;
  m.algorithm = &a;
  m.source = source;
  cuda::reset_peak_memory();
  RunOutput out;
  for (unsigned i = 0; i < o.warmup + o.reps; ++i) {
    const auto start = std::chrono::steady_clock::now();
    out = run(source);
    const auto stop = std::chrono::steady_clock::now();
    const double host_ms = std::chrono::duration<double, std::milli>(stop - start).count();
    const double ms = out.device_ms >= 0 ? out.device_ms : host_ms;
    if (i >= o.warmup) {
      m.times_ms.push_back(ms);
      m.counters_per_run.push_back(out.counters);
    }
    if (o.progress) {
      std::fprintf(stderr, "  %s source %u: %s %u/%u: %.3f ms\n", a.name.c_str(), source,
                   i < o.warmup ? "warm-up" : "rep", i < o.warmup ? i + 1 : i - o.warmup + 1,
                   i < o.warmup ? o.warmup : o.reps, ms);
    }
  }
  m.counters = out.counters;
  m.median_ms = bench::median(m.times_ms);
  m.peak_device_bytes = cuda::memory_stats().peak_bytes;
  m.edges_traversed = a.bfs ? reached_arcs(g, out.levels, kUnreached) : reached_arcs(g, out.dist, kInfinity);
  m.mteps = m.median_ms > 0 ? static_cast<double>(m.edges_traversed) / (m.median_ms * 1e3) : 0.0;
  if (o.verify) {
    const Verdict v = a.bfs ? verify_bfs(g, source, out.levels) : verify_sssp(g, source, out.dist);
    m.checked = true;
    m.verified = v.ok;
    m.verdict = v.ok ? "correct" : v.message;
  }
  if (answer != nullptr) *answer = std::move(out);
  return m;
}

}  // namespace sssp::runner
