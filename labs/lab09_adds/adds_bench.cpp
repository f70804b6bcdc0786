// Lab 09 benchmark, in the shape of the ADDS paper's evaluation: Dijkstra on
// the CPU for the distances and the work to compare with, then ADDS with
// (a) the reference's defaults, (b) a static delta = C x W / D for
// C = 2^2 .. 2^9, (c) the paper's ablations: a dynamic delta, 2 buckets
// instead of 32, one open bucket, no local list. Each row gives the delta
// at the start and at the end, the median time, MTEPS, the items expanded and
// that work relative to Dijkstra's (each reachable vertex once), the share of
// expansions that were repeats and that came from a block's local list, the
// manager's passes and its head-bucket switches.
//
//   adds-bench [--graph FILE | --gen SPEC] [--weights LO:HI[:SEED]] [--source V]
//              [--repeats R] [--c C] [--open K] [--local-items L]
//              [--trace FILE.csv]
//
// --c sets the defaults of the rows other than (b); --open (open buckets)
// and --local-items set those of every row but the ablation that changes them.
// --trace writes the dynamic-delta row's manager trace (one line per delta
// decision: pass, delta before and after, the signal, items held, buckets
// open), for plotting how the manager thinks (the paper's Figs. 11 to 15).
// Every answer is checked against the reference Dijkstra; a mismatch exits 1.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <fstream>
#include <string>
#include <vector>

#include "lab09.hpp"
#include "sssp/bench_args.hpp"
#include "sssp/bench_report.hpp"
#include "sssp/cuda/device.hpp"
#include "sssp/errors.hpp"
#include "sssp/reference.hpp"

namespace {

using sssp::CsrGraph;
using sssp::dist_t;
using sssp::vertex_t;

struct Measured {
  double median_ms = 0;
  lab09::AddsStats stats;  // of the last timed run
  dist_t start_delta = 0;
  bool correct = true;
};

// One warm-up run, then `repeats` timed runs (CUDA events, the solver's own).
Measured measure(const CsrGraph& g, vertex_t source, const std::vector<dist_t>& expected,
                 const lab09::AddsOptions& options, unsigned repeats) {
  lab09::AddsSssp solver(g, options);
  Measured m;
  m.start_delta = solver.delta();
  m.median_ms = sssp::bench::measure(1, repeats, [&] {
    const sssp::SsspResult result = solver.run(source);
    m.correct = m.correct && result.values == expected;
    return result.device_ms;
  });
  m.stats = solver.last_stats();
  return m;
}

const std::vector<std::string> kColumns = {"setting", "delta start", "delta end",       "median ms",
                                           "MTEPS",   "expanded",    "work / Dijkstra", "repeats %",
                                           "local %", "passes",      "head switches",   "verified"};

double share(unsigned long long part, unsigned long long whole) {
  return whole == 0 ? 0.0 : static_cast<double>(part) / static_cast<double>(whole);
}

void add_row(sssp::bench::Report& report, const std::string& setting, const Measured& m, std::uint64_t arcs,
             std::uint64_t reachable) {
  const double mteps = m.median_ms > 0 ? static_cast<double>(arcs) / (m.median_ms * 1e3) : 0.0;
  const lab09::AddsStats& s = m.stats;
  report.row({setting,
              m.start_delta,
              s.final_delta,
              {m.median_ms, 3},
              {mteps, 1},
              s.expansions,
              {share(s.expansions, reachable), 2},
              {100 * share(s.repeats, s.expansions), 0},
              {100 * share(s.local_expansions, s.expansions), 0},
              s.passes,
              s.head_switches,
              m.correct ? "yes" : "WRONG"});
}

std::string describe(const lab09::AddsOptions& o) {
  char text[160];
  std::snprintf(text, sizeof text, "C = %g, %u buckets, %u open, %u local items, %s delta", o.c, o.buckets, o.max_open,
                o.local_items, o.dynamic_delta ? "dynamic" : "static");
  return text;
}

// One more run with `options`, and its manager trace as CSV (named in the report's JSON).
void write_trace(const CsrGraph& g, vertex_t source, const lab09::AddsOptions& options, const std::string& file,
                 sssp::bench::Report& report) {
  lab09::AddsSssp solver(g, options);
  (void)solver.run(source);
  std::ofstream out(file);
  if (!out) throw sssp::InputError("--trace: cannot write " + file);
  out << "pass,delta_before,delta_after,utilisation,tail_share,repeat_share,items_held,buckets_open\n";
  for (const lab09::TraceEntry& e : solver.last_trace()) {
    out << e.pass << ',' << e.signal.delta << ',' << e.delta << ',' << e.signal.utilisation << ','
        << e.signal.tail_share << ',' << e.signal.repeat_share << ',' << e.items_held << ',' << e.buckets_open << '\n';
  }
  if (!out) throw sssp::InputError("--trace: writing " + file + " failed");
  std::printf("\n(the dynamic row's trace, %zu decisions, is in %s)\n", solver.last_trace().size(), file.c_str());
  report.fact("trace", file);
}

int run(int argc, char** argv) {
  sssp::bench::BenchArgs args;
  args.repeats = 5;
  lab09::AddsOptions defaults;
  std::string trace_file;
  sssp::cli::Parser parser("adds-bench [options]",
                           "Lab 09: ADDS with its defaults, a static delta = C x W / D against C, and the\n"
                           "paper's ablations; every answer checked against Dijkstra.");
  sssp::bench::add_shared_options(parser, args);
  parser.section("adds-bench:");
  parser.option(
      "--c", "C", "C of the static delta of the rows other than the C sweep, 1 to 1048576",
      [&](const std::string& v) { defaults.c = static_cast<double>(sssp::cli::parse_count("--c", v, 1, 1u << 20)); });
  parser.count("--open", "K", "open buckets of every row but the ablation, 1 to " + std::to_string(lab09::kBuckets),
               defaults.max_open, 1, lab09::kBuckets);
  parser.count("--local-items", "L", "a block's local list of every row but the ablation, 0 to 4096",
               defaults.local_items, 0, 4096);
  parser.text("--trace", "FILE.csv", "write the dynamic-delta row's manager trace", trace_file);
  sssp::bench::Report report("adds-bench");
  report.add_option(parser);
  if (!parser.parse(argc, argv, std::cout)) return 0;
  if (parser.given("--block-size")) {
    throw sssp::InputError("--block-size: ADDS's worker blocks are always 256 threads (one item per thread)");
  }
  const CsrGraph g = sssp::bench::load_graph(args);
  const auto& gpu = sssp::cuda::require_device();

  const sssp::ReferenceRun dijkstra = sssp::timed_reference_dijkstra(g, args.source);
  const std::vector<dist_t>& expected = dijkstra.dist;
  const std::uint64_t reachable = dijkstra.reachable;
  const std::uint64_t arcs = dijkstra.arcs;
  std::printf("GPU: %s\ngraph: %s, source %u, weights %s\n", gpu.summary().c_str(), sssp::describe(g).c_str(),
              args.source, args.weights.to_string().c_str());
  std::printf("Dijkstra (CPU reference, ordered set): %.3f ms, %llu reachable vertices, %llu arcs leaving them\n",
              dijkstra.cpu_ms, static_cast<unsigned long long>(reachable), static_cast<unsigned long long>(arcs));
  std::printf(
      "median of %u runs after 1 warm-up (CUDA events, the one launch); work / Dijkstra = items expanded / "
      "reachable vertices; repeats and local: shares of the expansions\n",
      args.repeats);
  {
    lab09::AddsSssp probe(g, defaults);
    std::printf("launch: 1 manager block + %u worker blocks of 256 threads\n", probe.workers());
  }

  bool all_correct = true;
  auto row = [&](const std::string& label, const lab09::AddsOptions& o) {
    const Measured m = measure(g, args.source, expected, o, args.repeats);
    all_correct = all_correct && m.correct;
    add_row(report, label, m, arcs, reachable);
  };

  report.fact("graph", g.name);
  std::printf("\n(a) the defaults, (c) the ablations: each changes one thing\n\n");
  report.table("defaults_and_ablations", kColumns);
  row("defaults: " + describe(defaults), defaults);
  lab09::AddsOptions dynamic = defaults;
  dynamic.dynamic_delta = true;
  row("dynamic delta", dynamic);
  lab09::AddsOptions two = defaults;
  two.buckets = 2;
  two.max_open = std::min(two.max_open, 2u);
  row("2 buckets (Near-Far's split)", two);
  lab09::AddsOptions one_open = defaults;
  one_open.max_open = 1;
  row("1 open bucket", one_open);
  lab09::AddsOptions no_local = defaults;
  no_local.local_items = 0;
  row("no local list", no_local);

  std::printf("\n(b) static delta = C x W / D\n\n");
  report.table("static_delta", kColumns);
  for (unsigned c = 4; c <= 512; c *= 2) {
    lab09::AddsOptions o = defaults;
    o.c = c;
    row("C = " + std::to_string(c), o);
  }
  // After the tables, so its line does not split one.
  if (!trace_file.empty()) write_trace(g, args.source, dynamic, trace_file, report);
  return report.finish(all_correct, "a run differs from the reference Dijkstra");
}

}  // namespace

int main(int argc, char** argv) { return sssp::guarded_main("adds-bench", run, argc, argv); }
