// Lab 06 benchmark, in the shape of Chen's Table 5: every format on every
// graph given, with the time of a whole SSSP, the rounds, MTEPS, and the
// bandwidth of one sweep against a device-to-device copy of similar size
// measured in the same run.
//
//   spmv-bench [--graph FILE]... [--gen SPEC]... [--weights LO:HI[:SEED]]
//              [--repeats R] [--block-size B] [--sweeps-only]
//
// A sweep is timed twice: warm (10 back-to-back sweeps per sample, as in a
// run, finding in L2 what the previous sweep left) and cold (one sweep per
// sample after evicting L2). The copy is timed the same two ways, on half as
// many bytes as the CSR sweep must move (a copy reads and writes each byte).
// --sweeps-only skips the whole-SSSP timings (one verified run per format).
//
// Unweighted files and generators get weights uniform 1..1000 by seed 1
// unless --weights says otherwise. The source is vertex 0, or the vertex of
// largest out-degree when vertex 0 has no out-arcs (scrambled RMAT ids).
// Every answer is checked against the reference Dijkstra; a mismatch exits 1.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "lab06.hpp"
#include "sssp/bench_args.hpp"
#include "sssp/bench_report.hpp"
#include "sssp/cuda/device.hpp"
#include "sssp/errors.hpp"
#include "sssp/generators.hpp"
#include "sssp/io.hpp"
#include "sssp/reference.hpp"
#include "sssp/weights.hpp"

namespace {

using lab06::Format;
using sssp::CsrGraph;
using sssp::dist_t;
using sssp::vertex_t;

struct Input {
  std::string label;
  bool generated = false;
  std::string spec;  // file path or generator spec
};

struct FormatResult {
  bool refused = false;
  std::string why;
  double sssp_ms = 0;  // median whole-SSSP time
  double mteps = 0;    // reached arcs per microsecond
  std::uint64_t iterations = 0;
  double warm_ms = 0;       // median sweep, back to back
  double cold_ms = 0;       // median sweep, L2 evicted first
  std::uint64_t bytes = 0;  // what a sweep must move
};

std::string stem(const std::string& path) {
  std::string name = path.substr(path.find_last_of('/') + 1);
  for (const char* suffix : {".gz", ".gr", ".pace", ".txt", ".mtx"}) {
    const std::string s = suffix;
    while (name.size() > s.size() && name.compare(name.size() - s.size(), s.size(), s) == 0) {
      name.erase(name.size() - s.size());
    }
  }
  return name;
}

vertex_t pick_source(const CsrGraph& g) {
  if (g.out_degree(0) > 0) return 0;
  vertex_t best = 0;
  for (vertex_t v = 1; v < g.num_vertices(); ++v) {
    if (g.out_degree(v) > g.out_degree(best)) best = v;
  }
  return best;
}

int run(int argc, char** argv) {
  std::vector<Input> inputs;
  sssp::WeightPolicy weights = sssp::WeightPolicy::uniform(1, 1000, 1);
  unsigned repeats = 11;
  unsigned block_size = 256;
  bool sweeps_only = false;
  // Several graphs in one table: --graph and --gen repeat, in the order given.
  sssp::cli::Parser parser("spmv-bench [options]",
                           "Lab 06, in the shape of Chen's Table 5: every format on every graph given, the\n"
                           "time of a whole SSSP and the bandwidth of one sweep; every answer checked.");
  parser.option(
      "--graph", "FILE", "a graph file (repeatable)",
      [&](const std::string& v) {
        inputs.push_back({stem(v), false, v});
      },
      sssp::cli::Repeat::kMany);
  parser.option(
      "--gen", "SPEC", "a generated graph, as sssp --gen (repeatable; default grid:512x512)",
      [&](const std::string& v) {
        inputs.push_back({v, true, v});
      },
      sssp::cli::Repeat::kMany);
  parser.option("--weights", "LO:HI[:SEED]", "weights for unweighted input, or unit (default 1:1000:1)",
                [&](const std::string& v) { weights = sssp::WeightPolicy::parse(v); });
  parser.count("--repeats", "R", "timed runs and sweep samples per row (default 11)", repeats, 1,
               sssp::bench::kMaxRepeats);
  parser.count("--block-size", "B", "threads per block (default 256)", block_size, 1, 1024);
  parser.flag("--sweeps-only", "skip the whole-SSSP timings (one verified run per format)",
              [&] { sweeps_only = true; });
  sssp::bench::Report report("spmv-bench");
  report.add_option(parser);
  if (!parser.parse(argc, argv, std::cout)) return 0;
  if (inputs.empty()) inputs.push_back({"grid:512x512", true, "grid:512x512"});
  const auto& gpu = sssp::cuda::require_device();
  std::printf(
      "GPU: %s; block size %u; weights %s; SSSP: median of %u runs after 1 warm-up; "
      "sweeps and copies: median of %u samples (CUDA events)\n\n",
      gpu.summary().c_str(), block_size, weights.to_string().c_str(), repeats, repeats);

  struct Row {
    std::string label;
    vertex_t n = 0;
    std::uint64_t m = 0;
    std::uint64_t max_in = 0;
    std::uint64_t rounds = 0;
    double copy_warm_gbs = 0;
    double copy_cold_gbs = 0;
    std::uint64_t copy_bytes = 0;
    std::vector<FormatResult> formats;
  };
  std::vector<Row> rows;
  bool all_correct = true;
  for (const Input& input : inputs) {
    sssp::ReadOptions read;
    read.weights = weights;
    const CsrGraph g =
        sssp::to_csr(input.generated ? sssp::generate(input.spec, weights, 1) : sssp::read_graph(input.spec, read));
    if (g.num_vertices() == 0) throw sssp::InputError(input.label + " has no vertices");
    const vertex_t source = pick_source(g);
    const std::vector<dist_t> expected = sssp::reference_dijkstra(g, source);
    std::uint64_t reached_arcs = 0;
    for (vertex_t u = 0; u < g.num_vertices(); ++u) {
      if (expected[u] != sssp::kInfinity) reached_arcs += g.out_degree(u);
    }
    Row row;
    row.label = input.label;
    row.n = g.num_vertices();
    row.m = g.num_edges();
    const CsrGraph in = lab06::incoming_csr(g);
    for (vertex_t v = 0; v < in.num_vertices(); ++v) row.max_in = std::max<std::uint64_t>(row.max_in, in.out_degree(v));
    if (!sweeps_only) {
      // The exact number of rounds: look after every sweep once.
      lab06::SpmvBellmanFord exact(g, Format::kCsrScalar, lab06::SpmvOptions{block_size, 1});
      row.rounds = exact.run(source).counters.iterations;
    }
    for (const Format format : lab06::kAllFormats) {
      FormatResult r;
      try {
        lab06::SpmvBellmanFord solver(g, format, lab06::SpmvOptions{block_size});
        const auto run_once = [&] {
          const sssp::SsspResult got = solver.run(source);
          if (got.values != expected) {
            all_correct = false;
            std::printf("WRONG: %s on %s differs from the reference Dijkstra\n",
                        std::string(lab06::format_name(format)).c_str(), row.label.c_str());
          }
          r.iterations = got.counters.iterations;
          return got.device_ms;
        };
        if (sweeps_only) {
          (void)run_once();  // one verified run, untimed
        } else {
          r.sssp_ms = sssp::bench::measure(1, repeats, run_once);
          r.mteps = static_cast<double>(reached_arcs) / (r.sssp_ms * 1e3);
        }
        r.warm_ms = solver.median_sweep_ms(source, repeats);
        r.cold_ms = solver.median_sweep_ms(source, repeats, true);
        r.bytes = solver.sweep_bytes();
      } catch (const sssp::InputError& e) {
        r.refused = true;
        r.why = e.what();
      }
      row.formats.push_back(r);
    }
    row.copy_bytes = std::max<std::uint64_t>(row.formats[0].bytes / 2, 1);
    row.copy_warm_gbs = lab06::copy_bandwidth_gbs(row.copy_bytes, repeats);
    row.copy_cold_gbs = lab06::copy_bandwidth_gbs(row.copy_bytes, repeats, true);
    rows.push_back(row);
    std::fprintf(stderr, "done: %s\n", row.label.c_str());
  }

  if (!sweeps_only) {
    std::printf("Whole SSSP (Table 5 shape): median ms, and MTEPS (arcs leaving reached vertices per us)\n\n");
    std::vector<std::string> columns = {"graph", "vertices", "arcs", "max in-degree", "rounds"};
    for (const Format f : lab06::kAllFormats) columns.push_back(std::string(lab06::format_name(f)) + " ms");
    for (const Format f : lab06::kAllFormats) columns.push_back(std::string(lab06::format_name(f)) + " MTEPS");
    columns.emplace_back("vector / scalar time");
    report.table("sssp", columns);
    for (const Row& row : rows) {
      std::vector<sssp::bench::Cell> cells = {row.label, row.n, row.m, row.max_in, row.rounds};
      using sssp::bench::Cell;
      for (const FormatResult& r : row.formats) cells.push_back(r.refused ? Cell("refused") : Cell(r.sssp_ms, 2));
      for (const FormatResult& r : row.formats) cells.push_back(r.refused ? Cell("") : Cell(r.mteps, 0));
      cells.emplace_back(row.formats[1].sssp_ms / row.formats[0].sssp_ms, 2);
      report.row(std::move(cells));
    }
    std::printf("\n");
  }
  std::printf(
      "One sweep: bytes it must move; median time and effective GB/s warm (back to back) and cold (L2 "
      "evicted); a device-to-device copy of half the CSR sweep's bytes (read + write counted), warm and "
      "cold, in the same run; cold sweep over cold copy\n\n");
  report.table("sweep", {"graph", "format", "must move MB", "above L2", "warm us", "warm GB/s", "cold us", "cold GB/s",
                         "copy GB/s warm", "copy GB/s cold", "cold sweep / cold copy %"});
  for (const Row& row : rows) {
    for (std::size_t f = 0; f < row.formats.size(); ++f) {
      const FormatResult& r = row.formats[f];
      const std::string name(lab06::format_name(lab06::kAllFormats[f]));
      if (r.refused) {
        report.row({row.label, name, "refused", "", "", "", "", "", "", "", ""});
        continue;
      }
      const double bytes = static_cast<double>(r.bytes);
      const double cold_gbs = bytes / (r.cold_ms * 1e6);
      report.row({row.label,
                  name,
                  {bytes / 1e6, 1},
                  r.bytes > gpu.l2_cache ? "yes" : "no",
                  {r.warm_ms * 1e3, 1},
                  {bytes / (r.warm_ms * 1e6), 0},
                  {r.cold_ms * 1e3, 1},
                  {cold_gbs, 0},
                  {row.copy_warm_gbs, 0},
                  {row.copy_cold_gbs, 0},
                  {100.0 * cold_gbs / row.copy_cold_gbs, 0}});
    }
  }
  for (const Row& row : rows) {
    for (std::size_t f = 0; f < row.formats.size(); ++f) {
      if (row.formats[f].refused) {
        std::printf("\n%s, %s: %s\n", row.label.c_str(), std::string(lab06::format_name(lab06::kAllFormats[f])).c_str(),
                    row.formats[f].why.c_str());
      }
    }
  }
  return report.finish(all_correct, "some distances differed from the reference Dijkstra");
}

}  // namespace

int main(int argc, char** argv) { return sssp::guarded_main("spmv-bench", run, argc, argv); }
