// Lab 08 benchmark, in the shape of the ADDS paper's Fig. 4 (time and work
// against C): Dijkstra on the CPU for the distances and the work to compare
// with, then (a) Chen's delta-stepping with each rule for delta, and (b)
// Near-Far with delta = C x W / D for C = 2^-2 .. 2^8, and with delta = 1.
// Each row gives delta, the median time, MTEPS, the vertices processed and
// that work relative to Dijkstra's (each reachable vertex once), the
// iterations, the launches and the host round trips.
//
//   delta-bench [--graph FILE | --gen SPEC] [--weights LO:HI[:SEED]] [--source V]
//               [--repeats R] [--block-size B] [--lanes L]
//
// --lanes sets Near-Far's threads per near item (a power of two up to 32
// that divides the block size; default 32, a warp).
//
// Every answer is checked against the reference Dijkstra; a mismatch exits 1.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "lab08.hpp"
#include "sssp/bench_args.hpp"
#include "sssp/bench_report.hpp"
#include "sssp/cuda/device.hpp"
#include "sssp/errors.hpp"
#include "sssp/reference.hpp"
#include "sssp/weights.hpp"

namespace {

using sssp::CsrGraph;
using sssp::dist_t;
using sssp::vertex_t;

struct Measured {
  dist_t delta = 0;
  double median_ms = 0;
  sssp::Counters counters;  // of the last timed run
  bool correct = true;
};

// One warm-up run, then `repeats` timed runs (CUDA events, the solver's own).
template <typename Solver, typename Options>
Measured measure(const CsrGraph& g, vertex_t source, const std::vector<dist_t>& expected, const Options& options,
                 unsigned repeats) {
  Solver solver(g, options);
  Measured m;
  m.delta = solver.delta();
  m.median_ms = sssp::bench::measure(1, repeats, [&] {
    const sssp::SsspResult result = solver.run(source);
    m.correct = m.correct && result.values == expected;
    m.counters = result.counters;
    return result.device_ms;
  });
  return m;
}

const std::vector<std::string> kColumns = {
    "solver",          "delta from", "delta",    "median ms", "MTEPS",   "vertices processed",
    "work / Dijkstra", "iterations", "launches", "syncs",     "verified"};

// `arcs`: the arcs leaving reached vertices; `reachable`: Dijkstra's work.
void add_row(sssp::bench::Report& report, const char* solver, const std::string& setting, const Measured& m,
             std::uint64_t arcs, std::uint64_t reachable) {
  const double mteps = m.median_ms > 0 ? static_cast<double>(arcs) / (m.median_ms * 1e3) : 0.0;
  const double work =
      reachable > 0 ? static_cast<double>(m.counters.vertices_processed) / static_cast<double>(reachable) : 0.0;
  report.row({solver,
              setting,
              m.delta,
              {m.median_ms, 3},
              {mteps, 1},
              m.counters.vertices_processed,
              {work, 2},
              m.counters.iterations,
              m.counters.kernel_launches,
              m.counters.host_syncs,
              m.correct ? "yes" : "WRONG"});
}

std::string c_text(double c) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "C = %g", c);
  return buf;
}

int run(int argc, char** argv) {
  sssp::bench::BenchArgs args;
  args.repeats = 5;
  unsigned lanes = lab08::NearFarOptions{}.lanes_per_item;
  sssp::cli::Parser parser("delta-bench [options]",
                           "Lab 08: delta-stepping with each rule for delta and Near-Far against C, beside\n"
                           "Dijkstra's work; every answer checked against Dijkstra.");
  sssp::bench::add_shared_options(parser, args);
  parser.section("delta-bench:");
  parser.count("--lanes", "L",
               "Near-Far's threads per near item: a power of two up to 32 that divides the block\nsize (default " +
                   std::to_string(lanes) + ")",
               lanes, 1, 32);
  sssp::bench::Report report("delta-bench");
  report.add_option(parser);
  if (!parser.parse(argc, argv, std::cout)) return 0;
  const CsrGraph g = sssp::bench::load_graph(args);
  const unsigned source = args.source;
  const unsigned repeats = args.repeats;
  const unsigned block_size = args.block_size;
  const sssp::WeightPolicy& weights = args.weights;
  const auto& gpu = sssp::cuda::require_device();

  // Dijkstra (the graders' CPU reference; lab 01 is not linked here): the
  // distances every run must match, and the work to compare with.
  const sssp::ReferenceRun dijkstra = sssp::timed_reference_dijkstra(g, source);
  const std::vector<dist_t>& expected = dijkstra.dist;
  const std::uint64_t reachable = dijkstra.reachable;
  const std::uint64_t arcs = dijkstra.arcs;
  std::printf("GPU: %s\ngraph: %s, source %u, weights %s\n", gpu.summary().c_str(), sssp::describe(g).c_str(), source,
              weights.to_string().c_str());
  std::printf("Dijkstra (CPU reference, ordered set): %.3f ms, %llu reachable vertices, %llu arcs leaving them\n",
              dijkstra.cpu_ms, static_cast<unsigned long long>(reachable), static_cast<unsigned long long>(arcs));
  std::printf(
      "median of %u runs after 1 warm-up (CUDA events); MTEPS = arcs leaving reached vertices / time; "
      "work / Dijkstra = vertices processed / reachable vertices\n\n",
      repeats);

  bool all_correct = true;
  std::printf(
      "Chen's delta-stepping, delta by rule (vertices processed: taken out of a bucket; iterations: light "
      "rounds)\n\n");
  report.fact("graph", g.name);
  report.table("chen", kColumns);
  for (const lab08::DeltaRule rule : {lab08::DeltaRule::kMedianWeight, lab08::DeltaRule::kTotalWeightPerVertex,
                                      lab08::DeltaRule::kMaxWeightPerMaxDegree, lab08::DeltaRule::kNearFar}) {
    lab08::DeltaSteppingOptions o;
    o.block_size = block_size;
    o.rule = rule;
    const Measured m = measure<lab08::DeltaSteppingSssp>(g, source, expected, o, repeats);
    all_correct = all_correct && m.correct;
    add_row(report, "Chen", lab08::to_string(rule) + (rule == lab08::DeltaRule::kNearFar ? " (C = 1)" : ""), m, arcs,
            reachable);
  }

  std::printf(
      "\nNear-Far, delta = C x W / D and delta = 1 (vertices processed: near items expanded; iterations: "
      "near rounds and far splits)\n\n");
  report.table("near_far", kColumns);
  for (int power = -2; power <= 8; ++power) {
    lab08::NearFarOptions o;
    o.block_size = block_size;
    o.lanes_per_item = lanes;
    o.c = power >= 0 ? static_cast<double>(1u << power) : 1.0 / static_cast<double>(1u << -power);
    const Measured m = measure<lab08::NearFarSssp>(g, source, expected, o, repeats);
    all_correct = all_correct && m.correct;
    add_row(report, "Near-Far", c_text(o.c), m, arcs, reachable);
  }
  lab08::NearFarOptions one;
  one.block_size = block_size;
  one.lanes_per_item = lanes;
  one.delta = 1;
  const Measured m = measure<lab08::NearFarSssp>(g, source, expected, one, repeats);
  all_correct = all_correct && m.correct;
  add_row(report, "Near-Far", "delta = 1", m, arcs, reachable);
  return report.finish(all_correct, "a run differs from the reference Dijkstra");
}

}  // namespace

int main(int argc, char** argv) { return sssp::guarded_main("delta-bench", run, argc, argv); }
