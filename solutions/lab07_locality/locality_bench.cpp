// Lab 07 benchmark, in the shape of Safari and Ebnenasir's Fig. 4 and their
// launch-count argument: every k from 1 to --max-depth against 1, 2 and 4
// vertices per thread, then, at the best of those, three ways to launch:
// a look after every launch (N = 0), N learned blind launches, and the blind
// launches as one CUDA Graph. Each row gives the median time, the launches,
// the host round trips and the vertices the waves expanded.
//
//   locality-bench [--graph FILE | --gen SPEC] [--weights LO:HI[:SEED]] [--source V]
//                  [--repeats R] [--max-depth K] [--block-size B]
//
// Every answer is checked against the reference Dijkstra; a mismatch exits 1.
// Compare with lab 02 on the same graph with sssp-ref (.ci/bench.py does).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "lab07.hpp"
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
  double median_ms = 0;
  sssp::Counters counters;  // of the last timed run
  bool correct = true;
};

// One warm-up run (it also teaches the solver N), then `repeats` timed runs.
Measured measure(const CsrGraph& g, vertex_t source, const std::vector<dist_t>& expected, lab07::Options options,
                 unsigned repeats) {
  lab07::LocalitySssp solver(g, options);
  Measured m;
  m.median_ms = sssp::bench::measure(1, repeats, [&] {
    const sssp::SsspResult result = solver.run(source);
    m.correct = m.correct && result.values == expected;
    m.counters = result.counters;
    return result.device_ms;
  });
  return m;
}

const std::vector<std::string> kColumns = {"launch mode", "k",     "v/t",      "median ms",
                                           "launches",    "syncs", "expanded", "verified"};

void add_row(sssp::bench::Report& report, const char* label, const lab07::Options& o, const Measured& m) {
  report.row({label,
              o.depth,
              o.vertices_per_thread,
              {m.median_ms, 3},
              m.counters.iterations,
              m.counters.host_syncs,
              m.counters.vertices_processed,
              m.correct ? "yes" : "WRONG"});
}

int run(int argc, char** argv) {
  sssp::bench::BenchArgs args;
  args.repeats = 7;
  unsigned max_depth = 5;
  sssp::cli::Parser parser("locality-bench [options]",
                           "Lab 07: every k against 1, 2 and 4 vertices per thread, then three ways to launch\n"
                           "at the best of them; every answer checked against Dijkstra.");
  sssp::bench::add_shared_options(parser, args);
  parser.section("locality-bench:");
  parser.count("--max-depth", "K", "the largest k tried, 1 to " + std::to_string(lab07::kMaxDepth) + " (default 5)",
               max_depth, 1, lab07::kMaxDepth);
  sssp::bench::Report report("locality-bench");
  report.add_option(parser);
  if (!parser.parse(argc, argv, std::cout)) return 0;
  const CsrGraph g = sssp::bench::load_graph(args);
  const unsigned source = args.source;
  const unsigned repeats = args.repeats;
  const unsigned block_size = args.block_size;
  const sssp::WeightPolicy& weights = args.weights;
  const auto& gpu = sssp::cuda::require_device();
  const std::vector<dist_t> expected = sssp::reference_dijkstra(g, source);
  std::printf("GPU: %s\ngraph: %s, source %u, weights %s\nmedian of %u runs after 1 warm-up (CUDA events)\n\n",
              gpu.summary().c_str(), sssp::describe(g).c_str(), source, weights.to_string().c_str(), repeats);
  report.fact("graph", g.name);
  report.table("sweep", kColumns);
  bool all_correct = true;
  lab07::Options best;
  double best_ms = 0;
  for (unsigned depth = 1; depth <= max_depth; ++depth) {
    for (const unsigned vpt : {1u, 2u, 4u}) {
      lab07::Options o;
      o.block_size = block_size;
      o.depth = depth;
      o.vertices_per_thread = vpt;
      const Measured m = measure(g, source, expected, o, repeats);
      all_correct = all_correct && m.correct;
      add_row(report, "blind, learned N", o, m);
      if (best_ms == 0 || m.median_ms < best_ms) {
        best = o;
        best_ms = m.median_ms;
      }
    }
  }
  std::printf("\nbest k = %u, %u vertices per thread; launch modes there:\n\n", best.depth, best.vertices_per_thread);
  report.table("launch_modes", kColumns);
  lab07::Options look_every = best;
  look_every.blind_launches = 0;
  lab07::Options graph = best;
  graph.cuda_graph = true;
  const std::pair<const char*, lab07::Options> modes[] = {
      {"look after every launch", look_every}, {"blind, learned N", best}, {"blind as a CUDA Graph", graph}};
  for (const auto& [label, o] : modes) {
    const Measured m = measure(g, source, expected, o, repeats);
    all_correct = all_correct && m.correct;
    add_row(report, label, o, m);
  }
  return report.finish(all_correct, "a run differs from the reference Dijkstra");
}

}  // namespace

int main(int argc, char** argv) { return sssp::guarded_main("locality-bench", run, argc, argv); }
