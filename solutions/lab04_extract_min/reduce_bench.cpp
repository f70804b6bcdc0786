// Lab 04 microbenchmark: the arg-min of n keys by each stage, by CUB and by a
// CPU loop, for n = 1, 10, ..., 10^7, in the shape of Chen's Table 1.
//
//   reduce-bench [--max-size N] [--block-size B] [--repeats R]
//
// Every result is checked against the CPU loop; a mismatch exits 1.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <exception>
#include <string>
#include <vector>

#include "lab04.hpp"
#include "sssp/bench_args.hpp"
#include "sssp/bench_report.hpp"
#include "sssp/cuda/device.hpp"
#include "sssp/errors.hpp"
#include "sssp/weights.hpp"

namespace {

using lab04::ArgMin;
using sssp::dist_t;

// Keys with many ties: values below n / 4 + 1, so the minimum appears several
// times and only the smallest index is right.
std::vector<dist_t> make_keys(std::size_t n) {
  std::vector<dist_t> keys(n);
  for (std::size_t i = 0; i < n; ++i) keys[i] = 1 + sssp::splitmix64(i) % (n / 4 + 1);
  return keys;
}

ArgMin cpu_argmin(const std::vector<dist_t>& keys) {
  ArgMin best;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (keys[i] < best.key) best = {keys[i], static_cast<std::uint32_t>(i)};
  }
  return best;
}

int run(int argc, char** argv) {
  std::size_t max_size = 10000000;
  unsigned block_size = 256;
  unsigned repeats = 101;
  sssp::cli::Parser parser("reduce-bench [options]",
                           "Lab 04: the arg-min of n keys by each stage, by CUB and by a CPU loop, for\n"
                           "n = 1, 10, ..., --max-size; every result checked against the CPU loop.");
  parser.count("--max-size", "N", "the largest n, 1 to 1000000000 (default 10000000)", max_size, 1, 1000000000);
  parser.count("--block-size", "B", "threads per block: a power of two from 32 to 1024 (default 256)", block_size, 1,
               1024);
  parser.count("--repeats", "R", "timed runs per cell (default 101)", repeats, 1, sssp::bench::kMaxRepeats);
  sssp::bench::Report report("reduce-bench");
  report.add_option(parser);
  if (!parser.parse(argc, argv, std::cout)) return 0;
  const auto& gpu = sssp::cuda::require_device();
  std::printf("GPU: %s; block size %u; median of %u timed runs after 3 warm-ups (CUDA events)\n\n",
              gpu.summary().c_str(), block_size, repeats);

  std::vector<std::size_t> sizes;
  for (std::size_t n = 1; n <= max_size; n *= 10) sizes.push_back(n);
  std::vector<std::string> columns = {"method"};
  for (const std::size_t n : sizes) columns.push_back(std::to_string(n));

  const std::size_t rows = std::size(lab04::kAllStages) + 2;  // stages, CUB, CPU loop
  std::vector<std::vector<double>> us(rows, std::vector<double>(sizes.size()));
  bool all_correct = true;
  for (std::size_t column = 0; column < sizes.size(); ++column) {
    const std::vector<dist_t> keys = make_keys(sizes[column]);
    const ArgMin expected = cpu_argmin(keys);
    lab04::ArgMinReduction reduction(keys, lab04::ReduceOptions{block_size});
    auto time_gpu = [&](std::size_t row, auto&& once) {
      us[row][column] = sssp::bench::measure(3, repeats, [&] {
        const lab04::ReductionResult got = once();
        if (!(got.argmin == expected)) all_correct = false;
        return got.device_ms * 1000.0;
      });
    };
    for (std::size_t s = 0; s < std::size(lab04::kAllStages); ++s) {
      time_gpu(s, [&] { return reduction.run(lab04::kAllStages[s]); });
    }
    time_gpu(rows - 2, [&] { return reduction.run_cub(); });
    us[rows - 1][column] = sssp::bench::measure(0, repeats, [&] {
      const auto start = std::chrono::steady_clock::now();
      const ArgMin got = cpu_argmin(keys);
      const double elapsed_us =
          std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
      if (!(got == expected)) all_correct = false;
      return elapsed_us;
    });
  }
  // Times in microseconds, one column per n.
  report.table("argmin_us", columns);
  for (std::size_t row = 0; row < rows; ++row) {
    const std::string name = row < std::size(lab04::kAllStages)
                                 ? "stage " + std::string(lab04::stage_name(lab04::kAllStages[row]))
                                 : (row == rows - 2 ? "CUB DeviceReduce::ArgMin" : "CPU loop");
    std::vector<sssp::bench::Cell> cells = {name};
    for (const double t : us[row]) cells.emplace_back(t, 1);
    report.row(std::move(cells));
  }
  const std::size_t last = sizes.size() - 1;
  const double bytes = static_cast<double>(sizes[last]) * sizeof(dist_t);
  std::printf(
      "\nTimes in microseconds. At n = %zu: stage 5 reads %.0f GB/s, CUB %.0f GB/s; "
      "stage 5 / CUB = %.2f\n",
      sizes[last], bytes / (us[rows - 3][last] * 1e3), bytes / (us[rows - 2][last] * 1e3),
      us[rows - 3][last] / us[rows - 2][last]);
  return report.finish(all_correct, "some arg-min differed from the CPU loop's");
}

}  // namespace

int main(int argc, char** argv) { return sssp::guarded_main("reduce-bench", run, argc, argv); }
