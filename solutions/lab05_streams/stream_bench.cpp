// Lab 05 benchmark: the paper's two figures on this machine, and the overlap
// read from event timestamps. Built as bin/stream-bench (your code) and
// bin/stream-bench-ref (the reference).
//
//   stream-bench [--sizes 1000,2000,5000,10000,20000] [--streams 1,2,4,8]
//                [--reps 3] [--seed 1] [--probe-rounds 8]
//                [--cpu-naive-max 2000] [--gpu-naive-max 20000]
//
// Random complete graphs, weights 1..1000, in pinned memory. Every GPU time
// is the solver's device_ms (CUDA events): the copy of the matrix to the GPU
// and every round, not the download of the distances; CPU times are wall
// clock. A naive run beyond --cpu-naive-max / --gpu-naive-max vertices is
// not run to the end: 2 and 2 + probe rounds are timed and the rest of its
// |V| - 1 rounds extrapolated (marked "~"). Every answer is checked: GPU
// against the CPU, and the CPU against Dijkstra up to 3000 vertices.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <functional>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "lab05.hpp"
#include "sssp/bench_args.hpp"
#include "sssp/bench_report.hpp"
#include "sssp/cuda/device.hpp"
#include "sssp/errors.hpp"
#include "sssp/reference.hpp"

namespace {

struct Args {
  std::vector<std::uint64_t> sizes{1000, 2000, 5000, 10000, 20000};
  std::vector<std::uint64_t> streams{1, 2, 4, 8};
  unsigned reps = 3;
  std::uint64_t seed = 1;
  std::uint64_t probe_rounds = 8;
  std::uint64_t cpu_naive_max = 2000;
  std::uint64_t gpu_naive_max = 20000;
};

// `text`, a comma-separated list of integers from `min` to `max`, for `option`.
std::vector<std::uint64_t> parse_list(const std::string& option, const std::string& text, std::uint64_t min,
                                      std::uint64_t max) {
  std::vector<std::uint64_t> values;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) values.push_back(sssp::cli::parse_count(option, item, min, max));
  if (values.empty() || text.back() == ',') {
    throw sssp::InputError(option + ": no value after a comma in '" + text + "'");
  }
  return values;
}

// Nothing when --help was given. `report` gets its --json option.
std::optional<Args> parse(int argc, char** argv, sssp::bench::Report& report) {
  Args args;
  sssp::cli::Parser parser("stream-bench [options]",
                           "Lab 05: the paper's two figures on this machine (random complete graphs, weights\n"
                           "1..1000, pinned memory), and the overlap read from event timestamps.");
  parser.option(
      "--sizes", "N,N,...",
      "vertex counts, 3 to " + std::to_string(lab05::kMaxDenseVertices) + " (default 1000,2000,5000,10000,20000)",
      [&](const std::string& v) { args.sizes = parse_list("--sizes", v, 3, lab05::kMaxDenseVertices); });
  parser.option("--streams", "K,K,...",
                "stream counts, 1 to " + std::to_string(lab05::kMaxStreams) + " (default 1,2,4,8)",
                [&](const std::string& v) { args.streams = parse_list("--streams", v, 1, lab05::kMaxStreams); });
  parser.count("--reps", "R", "timed runs per cell (default 3)", args.reps, 1, sssp::bench::kMaxRepeats);
  parser.count("--seed", "S", "graph seed (default 1)", args.seed, 0, UINT64_MAX);
  parser.count("--probe-rounds", "P", "rounds timed beyond 2 to extrapolate a long naive run (default 8)",
               args.probe_rounds, 1, UINT64_MAX);
  parser.count("--cpu-naive-max", "N", "the CPU naive run goes to the end up to N vertices (default 2000)",
               args.cpu_naive_max, 0, UINT64_MAX);
  parser.count("--gpu-naive-max", "N", "the GPU naive run goes to the end up to N vertices (default 20000)",
               args.gpu_naive_max, 0, UINT64_MAX);
  report.add_option(parser);
  if (!parser.parse(argc, argv, std::cout)) return std::nullopt;
  return args;
}

/// A time, and whether it was extrapolated from a few rounds.
struct Timing {
  double ms = 0.0;
  bool extrapolated = false;
  [[nodiscard]] std::string text() const {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%s%.1f", extrapolated ? "~" : "", ms);
    return buffer;
  }
};

// time(max_rounds) runs a version for that many rounds (0: to the end) and
// returns milliseconds. Runs to the end when `full`, else extrapolates.
Timing naive_time(std::uint64_t n, bool full, std::uint64_t probe, unsigned reps,
                  const std::function<double(std::uint64_t)>& time) {
  if (full) {
    std::vector<double> runs;
    for (unsigned r = 0; r < reps; ++r) runs.push_back(time(0));
    return {sssp::bench::median(runs), false};
  }
  const double two = time(2);
  const double more = time(2 + probe);
  const double per_round = (more - two) / static_cast<double>(probe);
  return {two + per_round * static_cast<double>(n - 3), true};
}

double cpu_ms(const lab05::DenseGraph& g, lab05::CpuOptions options, std::vector<sssp::dist_t>* dist = nullptr,
              sssp::Counters* counters = nullptr) {
  const auto start = std::chrono::steady_clock::now();
  std::vector<sssp::dist_t> result = lab05::cpu_bellman_ford(g, 0, options, counters);
  const std::chrono::duration<double, std::milli> elapsed = std::chrono::steady_clock::now() - start;
  if (dist != nullptr) *dist = std::move(result);
  return elapsed.count();
}

void require_equal(const std::vector<sssp::dist_t>& expected, const std::vector<sssp::dist_t>& got,
                   const std::string& what) {
  for (std::size_t v = 0; v < expected.size(); ++v) {
    if (expected[v] != got[v]) {
      throw sssp::InputError(what + ": wrong distance at vertex " + std::to_string(v) + ": expected " +
                             std::to_string(expected[v]) + ", got " + std::to_string(got[v]));
    }
  }
}

int run_benchmarks(const Args& args, sssp::bench::Report& report) {
  const auto& device = sssp::cuda::query_device();
  if (!device.available) {
    std::printf("no GPU: %s\n", device.reason.c_str());
    return 1;
  }
  std::printf("# Lab 05: Bellman-Ford on random complete graphs (weights 1..1000, seed %llu)\n\n",
              static_cast<unsigned long long>(args.seed));
  std::printf("GPU: %s; CPU: %u hardware threads; GPU times include the matrix copy; median of %u runs.\n\n",
              device.summary().c_str(), std::max(1u, std::thread::hardware_concurrency()), args.reps);
  std::vector<std::string> columns = {"vertices",     "matrix MB",    "rounds (WE)",
                                      "CPU naive ms", "GPU naive ms", "CPU work-eff. ms"};
  for (const std::uint64_t k : args.streams) columns.push_back("GPU WE K=" + std::to_string(k) + " ms");
  columns.insert(columns.end(), {"WE+streams vs GPU naive", "vs CPU WE"});
  report.table("sizes", columns);

  std::vector<std::vector<sssp::bench::Cell>> overlap_rows;
  for (const std::uint64_t size : args.sizes) {
    const auto n = static_cast<sssp::vertex_t>(size);
    const lab05::DenseGraph g = lab05::DenseGraph::random_complete(n, args.seed, 1000, lab05::HostMemory::kPinned);

    // CPU, work-efficient (and the answer everything else is checked against).
    std::vector<sssp::dist_t> expected;
    sssp::Counters cpu_counters;
    std::vector<double> cpu_we;
    for (unsigned r = 0; r < args.reps; ++r) {
      cpu_we.push_back(cpu_ms(g, {lab05::Variant::kWorkEfficient, 0, 0}, &expected, &cpu_counters));
    }
    if (n <= 3000) require_equal(sssp::reference_dijkstra(g.to_csr(), 0), expected, "CPU work-efficient");

    const Timing cpu_naive = naive_time(n, n <= args.cpu_naive_max, args.probe_rounds, 1, [&](std::uint64_t rounds) {
      std::vector<sssp::dist_t> dist;
      const double ms = cpu_ms(g, {lab05::Variant::kNaive, 0, rounds}, &dist);
      if (rounds == 0) require_equal(expected, dist, "CPU naive");
      return ms;
    });

    auto gpu_time = [&](lab05::Variant variant, unsigned streams, std::uint64_t rounds,
                        lab05::Timeline* timeline = nullptr) {
      lab05::DenseBellmanFord solver(g, {variant, streams, rounds});
      const bool long_run = variant == lab05::Variant::kNaive && rounds == 0 && n >= 5000;
      if (!long_run) (void)solver.run(0);  // warm-up, but not before seconds of naive rounds
      const sssp::SsspResult result = solver.run(0, timeline);
      if (rounds == 0) require_equal(expected, result.values, "GPU " + std::string(lab05::variant_name(variant)));
      return result.device_ms;
    };
    const bool gpu_naive_full = n <= args.gpu_naive_max;
    const Timing gpu_naive =
        naive_time(n, gpu_naive_full, args.probe_rounds, gpu_naive_full && n >= 10000 ? 1 : args.reps,
                   [&](std::uint64_t rounds) { return gpu_time(lab05::Variant::kNaive, 1, rounds); });

    std::vector<double> we_by_k;
    for (const std::uint64_t k : args.streams) {
      std::vector<double> runs;
      for (unsigned r = 0; r < args.reps; ++r) runs.push_back(gpu_time(lab05::Variant::kWorkEfficient, k, 0));
      we_by_k.push_back(sssp::bench::median(runs));
    }
    const double best_we = *std::min_element(we_by_k.begin(), we_by_k.end());
    std::vector<sssp::bench::Cell> cells = {n,
                                            {g.bytes() / 1e6, 0},
                                            cpu_counters.iterations,
                                            cpu_naive.text(),
                                            gpu_naive.text(),
                                            {sssp::bench::median(cpu_we), 1}};
    for (const double ms : we_by_k) cells.emplace_back(ms, 2);
    cells.emplace_back(sssp::bench::Cell(gpu_naive.ms / best_we, 0).text() + "x");
    cells.emplace_back(sssp::bench::Cell(sssp::bench::median(cpu_we) / best_we, 1).text() + "x");
    report.row(std::move(cells));
    std::fflush(stdout);

    if (size != args.sizes.back()) continue;
    // The overlap, from the timestamps of one run per K and version. Round
    // 1 of the naive version relaxes every row; of the work-efficient one,
    // the source's row only.
    for (const lab05::Variant variant : {lab05::Variant::kNaive, lab05::Variant::kWorkEfficient}) {
      for (const std::uint64_t k : args.streams) {
        lab05::Timeline t;
        const double total = gpu_time(variant, static_cast<unsigned>(k), variant == lab05::Variant::kNaive ? 1 : 0, &t);
        // The parts' copies run one after another: each starts when its
        // stream reaches it or when the previous copy ends, if later.
        double copy = 0.0;
        double previous_end = 0.0;
        for (const lab05::PartTiming& p : t.parts) {
          copy += p.copy_end_ms - std::max<double>(p.copy_begin_ms, previous_end);
          previous_end = p.copy_end_ms;
        }
        const double relax_after_last_copy = t.parts.back().first_round_end_ms - t.parts.back().copy_end_ms;
        overlap_rows.push_back({std::string(lab05::variant_name(variant)),
                                k,
                                {t.parts.front().copy_begin_ms, 2},
                                {copy, 2},
                                {relax_after_last_copy, 2},
                                {t.first_round_ms, 2},
                                {total, 2}});
      }
    }
  }
  std::printf("\n## Overlap at %llu vertices (one run each; ms after the run started)\n\n",
              static_cast<unsigned long long>(args.sizes.back()));
  std::printf(
      "Naive rows: one round only (round 1 relaxes every row). Copy = sum of the parts' copy windows; "
      "tail = relaxing the last part after its copy; round 1 = copies + relaxation done; "
      "run total = the solver's device_ms.\n\n");
  report.table("overlap", {"version", "K", "first copy starts", "copy", "tail", "round 1 ends", "run total"});
  for (auto& row : overlap_rows) report.row(std::move(row));
  report.write();
  return 0;
}

int run(int argc, char** argv) {
  sssp::bench::Report report("stream-bench");
  const std::optional<Args> args = parse(argc, argv, report);
  return args ? run_benchmarks(*args, report) : 0;
}

}  // namespace

int main(int argc, char** argv) { return sssp::guarded_main("stream-bench", run, argc, argv); }
