// mp-litmus: how often the GPU shows the weak outcome of the message-passing
// (MP) litmus test, with and without the fences the labs rely on.
//
//   writer (one block):  data = 1; [fence]; flag = 1
//   reader (another):    r0 = flag; [fence]; r1 = data
//   weak outcome:        r0 == 1 && r1 == 0 (the flag arrived, its data not)
//
// The method is that of Alglave et al., "GPU concurrency: weak behaviours and
// programming assumptions" (ASPLOS 2015): many instances per launch, each on
// its own locations, with writers and readers paired and the locations placed
// at random for every launch. The memory stress (extra warps that sweep a
// scratch region while the test runs) follows Sorensen and Donaldson,
// "Exposing errors related to weak memory in GPU applications" (PLDI 2016),
// whose point is that such stress makes rare weak behaviours frequent.
//
// The accesses are ones the compiler may not reorder but the hardware may
// (relaxed atomics, or asm volatile weak loads), so every weak outcome counted
// is the hardware's. A configuration whose fences the PTX memory model says
// forbid the weak outcome (both sides fenced at device scope, or a release
// store read by an acquire load) must show none: the program exits 1 if one
// does, which is what the CTest test project.mp_litmus checks.
//
//   mp-litmus [--launches N] [--instances N] [--seed S] [--stress-mb M] [--quick] [--out FILE.md] [--json FILE]
#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "sssp/bench_report.hpp"
#include "sssp/cli.hpp"
#include "sssp/cuda/atomics.cuh"
#include "sssp/cuda/check.cuh"
#include "sssp/cuda/device.hpp"
#include "sssp/cuda/device_buffer.cuh"
#include "sssp/errors.hpp"

namespace {

using sssp::cuda::load_acquire;
using sssp::cuda::load_relaxed;
using sssp::cuda::store_relaxed;
using sssp::cuda::store_release;

/// Where the fences are. Each row of the table answers one question a lab asks.
enum class Fences {
  kNone,            ///< Nothing orders the two stores or the two loads: the baseline.
  kWriter,          ///< Only the writer fences: its stores leave in order, but the reader may still reorder its loads.
  kReader,          ///< Only the reader fences: ordered loads cannot repair stores that arrive out of order.
  kBoth,            ///< __threadfence() on both sides: what lab 09's publish and its manager's scan do.
  kBlockBoth,       ///< __threadfence_block() on both sides: block scope, too weak between blocks.
  kReleaseAcquire,  ///< No fence: a release store of the flag and an acquire load of it (lab 04's ticket).
};

/// How the reader loads the data. The flag is always an atomic load.
enum class DataLoad {
  kRelaxed,     ///< ld.relaxed.gpu: never served from a stale L1 line.
  kWeak,        ///< ld.global, a plain load: L1 may serve it.
  kWeakPrimed,  ///< ld.global, after an earlier ld.global of the same word put its line in the reader's L1.
};

/// What the stress warps do while the test runs.
enum class Stress {
  kNone,     ///< No stress warps at all.
  kLines,    ///< Each warp stores one whole 128-byte line and loads another, sweeping the region: bandwidth.
  kScatter,  ///< Each thread loads and stores a word of its own random line: 32 lines per warp access.
};

constexpr std::array kAllFences = {Fences::kNone, Fences::kWriter,    Fences::kReader,
                                   Fences::kBoth, Fences::kBlockBoth, Fences::kReleaseAcquire};
constexpr std::array kAllLoads = {DataLoad::kRelaxed, DataLoad::kWeak, DataLoad::kWeakPrimed};
constexpr std::array kAllStress = {Stress::kNone, Stress::kLines, Stress::kScatter};

/// Whether the PTX memory model forbids the weak outcome. Block-scope fences
/// do not: the writer and the reader are in different blocks. A weak data load
/// after the reader's fence is still ordered (the model does not require data
/// race freedom; Lustig et al., ASPLOS 2019), so the data load kind does not matter.
constexpr bool forbidden(Fences fences) { return fences == Fences::kBoth || fences == Fences::kReleaseAcquire; }

const char* name(Fences fences) {
  switch (fences) {
    case Fences::kNone: return "none";
    case Fences::kWriter: return "writer only";
    case Fences::kReader: return "reader only";
    case Fences::kBoth: return "both (__threadfence)";
    case Fences::kBlockBoth: return "both (__threadfence_block)";
    case Fences::kReleaseAcquire: return "none; flag release/acquire";
  }
  return "?";
}

const char* name(DataLoad load) {
  switch (load) {
    case DataLoad::kRelaxed: return "relaxed";
    case DataLoad::kWeak: return "weak";
    case DataLoad::kWeakPrimed: return "weak, L1 primed";
  }
  return "?";
}

const char* name(Stress stress) {
  switch (stress) {
    case Stress::kNone: return "none";
    case Stress::kLines: return "lines";
    case Stress::kScatter: return "scatter";
  }
  return "?";
}

// A block's test threads: two writer warps, then two reader warps. Every
// reader is paired with a writer of another block; the stress warps, if any,
// follow the test warps in the same block, so the stress runs on every SM that
// runs the test, during the test.
constexpr unsigned kWarp = 32;
constexpr unsigned kWriterWarps = 2;
constexpr unsigned kTestWarps = 2 * kWriterWarps;
constexpr unsigned kInstancesPerBlock = kWriterWarps * kWarp;
constexpr unsigned kWordsPerLine = 32;  // 128-byte lines of 4-byte words
// The test locations fill one line in this many of the region: the rest keeps
// neighbouring instances apart in memory.
constexpr unsigned kRegionSpread = 4;
// About 8 ms at 2 GHz: far longer than a grid of co-resident blocks takes to
// start, short enough that a warp never waits forever for one that cannot run.
constexpr long long kWaitCycles = 1LL << 24;

/// One launch's inputs and the counters it adds to.
struct LaunchArgs {
  unsigned* mem;                ///< The test locations, 0 before every launch.
  const unsigned* data_at;      ///< data_at[i]: the word of mem that is instance i's data.
  const unsigned* flag_at;      ///< flag_at[i]: the word of mem that is instance i's flag.
  const unsigned* instance_of;  ///< instance_of[r]: the instance reader r reads.
  unsigned* scratch;            ///< The stress region.
  unsigned scratch_lines;       ///< Its 128-byte lines, a power of two.
  Stress stress;                ///< What the stress warps do.
  unsigned* arrived;            ///< Test warps at the start barrier (0 before the launch).
  unsigned* finished;           ///< Test warps done (0 before the launch): the stress warps stop at all.
  unsigned test_warps;          ///< Test warps of the grid.
  unsigned max_delay;           ///< A reader waits 0 to max_delay - 1 cycles before it loads the flag.
  unsigned salt;                ///< This launch's random salt for the readers' delays and the scatter.
  unsigned long long* counts;   ///< [0] flags seen, [1] weak outcomes, [2] warps that gave up at the barrier.
};

/// A 32-bit mix of `x`: the reader delays and the scatter lines, cheap and reproducible.
__host__ __device__ constexpr unsigned mix(unsigned x) {
  x = (x ^ (x >> 16)) * 0x9E3779B1u;
  x = (x ^ (x >> 13)) * 0x85EBCA77u;
  return x ^ (x >> 16);
}

/// A plain weak global load that the compiler must emit where it is written:
/// unlike a relaxed atomic, the hardware may serve it from the SM's L1.
__device__ inline unsigned load_weak(const unsigned* p) {
  unsigned value;
  asm volatile("ld.global.u32 %0, [%1];" : "=r"(value) : "l"(p) : "memory");
  return value;
}

/// A plain weak global store, emitted where it is written.
__device__ inline void store_weak(unsigned* p, unsigned value) {
  asm volatile("st.global.u32 [%0], %1;" ::"l"(p), "r"(value) : "memory");
}

/// Waits, lane 0 for the warp, until every test warp of the grid has arrived,
/// so that writers and readers start within a few hundred cycles of each
/// other; gives up after kWaitCycles (counted) rather than hang.
__device__ void start_together(const LaunchArgs& a) {
  if (threadIdx.x % kWarp == 0) {
    atomicAdd(a.arrived, 1u);
    const long long start = clock64();
    while (load_relaxed(a.arrived) < a.test_warps) {
      if (clock64() - start > kWaitCycles) {
        atomicAdd(&a.counts[2], 1ull);
        break;
      }
    }
  }
  __syncwarp();
}

template <Fences F>
__device__ void write(unsigned* data, unsigned* flag) {
  store_relaxed(data, 1u);
  if constexpr (F == Fences::kWriter || F == Fences::kBoth) __threadfence();
  if constexpr (F == Fences::kBlockBoth) __threadfence_block();
  if constexpr (F == Fences::kReleaseAcquire) {
    store_release(flag, 1u);
  } else {
    store_relaxed(flag, 1u);
  }
}

/// The reader's half; returns whether it saw the weak outcome, and sets `seen`
/// when it saw the flag (only those instances can show it).
template <Fences F, DataLoad L>
__device__ bool read(const unsigned* data, const unsigned* flag, unsigned delay, bool& seen) {
  // The primed value (0 or 1) joins the wait, which so starts only once the
  // line is in L1; unused, the load would be dropped by ptxas, asm volatile or not.
  unsigned primed = 0;
  if constexpr (L == DataLoad::kWeakPrimed) primed = load_weak(data);
  // Readers spread over the writers' window: the flag seen but not the data
  // needs the loads to land while the stores are in flight.
  const long long until = clock64() + delay + primed;
  while (clock64() < until) {
  }
  unsigned r0;
  if constexpr (F == Fences::kReleaseAcquire) {
    r0 = load_acquire(flag);
  } else {
    r0 = load_relaxed(flag);
  }
  if constexpr (F == Fences::kReader || F == Fences::kBoth) __threadfence();
  if constexpr (F == Fences::kBlockBoth) __threadfence_block();
  unsigned r1;
  if constexpr (L == DataLoad::kRelaxed) {
    r1 = load_relaxed(data);
  } else {
    r1 = load_weak(data);
  }
  seen = r0 == 1;
  return r0 == 1 && r1 == 0;
}

/// A stress warp's loop: runs until every test warp of the grid is done, or
/// for at most 2 * kWaitCycles should some test warp never get to run.
__device__ void stress(const LaunchArgs& a) {
  const unsigned lane = threadIdx.x % kWarp;
  const unsigned stress_warps = (blockDim.x - kTestWarps * kWarp) / kWarp;
  const unsigned warp = blockIdx.x * stress_warps + threadIdx.x / kWarp - kTestWarps;
  const unsigned warps = gridDim.x * stress_warps;
  const unsigned mask = a.scratch_lines - 1;
  const long long start = clock64();
  unsigned sum = 0;  // keeps every loaded value live
  for (unsigned step = 0; load_relaxed(a.finished) < a.test_warps && clock64() - start < 2 * kWaitCycles; ++step) {
    if (a.stress == Stress::kLines) {
      const unsigned line = (warp + step * warps) & mask;
      store_weak(&a.scratch[line * kWordsPerLine + lane], step);
      sum += load_weak(&a.scratch[((line + a.scratch_lines / 2) & mask) * kWordsPerLine + lane]);
    } else {
      unsigned* word = &a.scratch[(mix(a.salt ^ mix(warp * kWarp + lane) ^ step) & mask) * kWordsPerLine + lane];
      store_weak(word, load_weak(word) + 1);
    }
  }
  if (sum == 0xFFFFFFFFu) store_weak(&a.scratch[lane], sum);  // never in practice; the loads cannot be dropped
}

/// One launch of the MP test: the test warps of each block write or read one
/// instance each (per thread), the rest of the block stresses memory.
template <Fences F, DataLoad L>
__global__ void mp_kernel(LaunchArgs a) {
  const unsigned warp = threadIdx.x / kWarp;
  if (warp >= kTestWarps) {
    stress(a);
    return;
  }
  // Every address is computed before the start, so that the test's accesses follow it closely.
  const unsigned slot = blockIdx.x * kInstancesPerBlock + (warp % kWriterWarps) * kWarp + threadIdx.x % kWarp;
  const bool writer = warp < kWriterWarps;
  const unsigned instance = writer ? slot : a.instance_of[slot];
  unsigned* data = a.mem + a.data_at[instance];
  unsigned* flag = a.mem + a.flag_at[instance];
  const unsigned delay = a.max_delay == 0 ? 0 : mix(a.salt ^ mix(slot)) % a.max_delay;
  start_together(a);
  if (writer) {
    write<F>(data, flag);
  } else {
    bool seen = false;
    const bool weak = read<F, L>(data, flag, delay, seen);
    const unsigned seen_count = __popc(__ballot_sync(0xFFFFFFFFu, seen));
    const unsigned weak_count = __popc(__ballot_sync(0xFFFFFFFFu, weak));
    if (threadIdx.x % kWarp == 0) {
      atomicAdd(&a.counts[0], static_cast<unsigned long long>(seen_count));
      atomicAdd(&a.counts[1], static_cast<unsigned long long>(weak_count));
    }
  }
  __syncwarp();
  if (threadIdx.x % kWarp == 0) atomicAdd(a.finished, 1u);
}

using Kernel = void (*)(LaunchArgs);

template <Fences F, DataLoad L>
constexpr Kernel kernel_for() {
  return &mp_kernel<F, L>;
}

/// The kernel of each (fences, data load) pair: each is compiled on its own,
/// so its PTX and SASS show exactly the fences and loads it tests.
template <std::size_t... I>
constexpr std::array<Kernel, sizeof...(I)> all_kernels(std::index_sequence<I...>) {
  return {kernel_for<kAllFences[I / kAllLoads.size()], kAllLoads[I % kAllLoads.size()]>()...};
}
constexpr auto kKernels = all_kernels(std::make_index_sequence<kAllFences.size() * kAllLoads.size()>());

/// The test's layout, from the command line.
struct Options {
  unsigned launches = 4000;
  unsigned instances = 8192;
  std::uint64_t seed = 1;
  unsigned stress_mb = 64;
  unsigned stress_warps = 4;
  unsigned max_delay = 2000;
  bool same_line = false;
};

/// The counters of one configuration, summed over its launches.
struct Tally {
  unsigned long long seen = 0;
  unsigned long long weak = 0;
  unsigned long long late = 0;
};

/// The device side of the test and the host's random choices, one launch at a time.
class Litmus {
 public:
  explicit Litmus(const Options& options)
      : options_(options),
        rng_(options.seed),
        lines_(std::size_t{kRegionSpread} * options.instances * (options.same_line ? 1 : 2)),
        line_order_(lines_),
        instance_of_(options.instances),
        data_at_(options.instances),
        flag_at_(options.instances),
        mem_(lines_ * kWordsPerLine, "test locations"),
        data_at_dev_(options.instances, "data locations"),
        flag_at_dev_(options.instances, "flag locations"),
        instance_of_dev_(options.instances, "reader pairing"),
        scratch_(std::size_t{options.stress_mb} << 18, "stress region"),
        sync_(2, "start and finish counters"),
        counts_(3, "outcome counters") {
    for (std::size_t i = 0; i < lines_; ++i) line_order_[i] = static_cast<unsigned>(i);
    for (unsigned r = 0; r < options.instances; ++r) instance_of_[r] = r;
    SSSP_CUDA_CHECK(cudaMemset(scratch_.data(), 0, scratch_.bytes()));
  }

  /// Blocks of a launch.
  [[nodiscard]] unsigned blocks() const { return options_.instances / kInstancesPerBlock; }

  /// Threads of a block under `stress`.
  [[nodiscard]] unsigned block_threads(Stress stress) const {
    return (kTestWarps + (stress == Stress::kNone ? 0 : options_.stress_warps)) * kWarp;
  }

  /// Throws InputError unless every block of a launch can be resident at
  /// once: the start barrier and the stress warps' stop both assume it.
  void require_coresident(int multiprocessors) const {
    for (const Kernel kernel : kKernels) {
      int per_sm = 0;
      SSSP_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
          &per_sm, kernel, static_cast<int>(block_threads(Stress::kLines)), 0));
      if (static_cast<long long>(per_sm) * multiprocessors < blocks()) {
        throw sssp::InputError("--instances " + std::to_string(options_.instances) + " needs " +
                               std::to_string(blocks()) + " blocks resident at once, but this GPU holds " +
                               std::to_string(per_sm * multiprocessors) + " (lower --instances or --stress-warps)");
      }
    }
  }

  /// Runs the configuration's launches with `kernel` (one of kKernels) and returns its counts.
  Tally run(Kernel kernel, Stress stress) {
    SSSP_CUDA_CHECK(cudaMemset(counts_.data(), 0, counts_.bytes()));
    for (unsigned launch = 0; launch < options_.launches; ++launch) {
      shuffle();
      SSSP_CUDA_CHECK(cudaMemsetAsync(mem_.data(), 0, mem_.bytes()));
      SSSP_CUDA_CHECK(cudaMemsetAsync(sync_.data(), 0, sync_.bytes()));
      const LaunchArgs args{mem_.data(),
                            data_at_dev_.data(),
                            flag_at_dev_.data(),
                            instance_of_dev_.data(),
                            scratch_.data(),
                            static_cast<unsigned>(scratch_.size() / kWordsPerLine),
                            stress,
                            sync_.data(),
                            sync_.data() + 1,
                            blocks() * kTestWarps,
                            options_.max_delay,
                            static_cast<unsigned>(rng_()),
                            counts_.data()};
      kernel<<<blocks(), block_threads(stress)>>>(args);
      SSSP_CUDA_CHECK_LAUNCH();
    }
    std::array<unsigned long long, 3> counts{};
    counts_.download(counts);
    return {counts[0], counts[1], counts[2]};
  }

 private:
  // New random locations and pairings for the next launch, uploaded behind
  // the launch before it. Readers are paired only with writers of other
  // blocks; a swap repairs each same-block pair (rare: 1 in blocks()).
  void shuffle() {
    const std::size_t used = lines_ / kRegionSpread;
    for (std::size_t i = 0; i < used; ++i) {
      std::swap(line_order_[i], line_order_[std::uniform_int_distribution<std::size_t>(i, lines_ - 1)(rng_)]);
    }
    for (unsigned i = 0; i < options_.instances; ++i) {
      if (options_.same_line) {
        data_at_[i] = line_order_[i] * kWordsPerLine;
        flag_at_[i] = data_at_[i] + 1;
      } else {
        data_at_[i] = line_order_[2 * i] * kWordsPerLine;
        flag_at_[i] = line_order_[2 * i + 1] * kWordsPerLine;
      }
    }
    std::shuffle(instance_of_.begin(), instance_of_.end(), rng_);
    std::uniform_int_distribution<unsigned> any(0, options_.instances - 1);
    const auto same_block = [](unsigned a, unsigned b) { return a / kInstancesPerBlock == b / kInstancesPerBlock; };
    for (unsigned r = 0; r < options_.instances; ++r) {
      while (same_block(r, instance_of_[r])) {
        const unsigned other = any(rng_);
        if (!same_block(r, instance_of_[other]) && !same_block(other, instance_of_[r])) {
          std::swap(instance_of_[r], instance_of_[other]);
        }
      }
    }
    data_at_dev_.upload(data_at_);
    flag_at_dev_.upload(flag_at_);
    instance_of_dev_.upload(instance_of_);
  }

  Options options_;
  std::mt19937_64 rng_;
  std::size_t lines_;
  std::vector<unsigned> line_order_;
  std::vector<unsigned> instance_of_;
  std::vector<unsigned> data_at_;
  std::vector<unsigned> flag_at_;
  sssp::cuda::DeviceBuffer<unsigned> mem_;
  sssp::cuda::DeviceBuffer<unsigned> data_at_dev_;
  sssp::cuda::DeviceBuffer<unsigned> flag_at_dev_;
  sssp::cuda::DeviceBuffer<unsigned> instance_of_dev_;
  sssp::cuda::DeviceBuffer<unsigned> scratch_;
  sssp::cuda::DeviceBuffer<unsigned> sync_;
  sssp::cuda::DeviceBuffer<unsigned long long> counts_;
};

/// "13.0" from the runtime's 13000.
std::string cuda_version(int version) {
  return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

int run(int argc, char** argv) {
  Options options;
  bool quick = false;
  std::string layout = "far";
  std::string out_file;
  sssp::cli::Parser parser("mp-litmus [options]",
                           "The message-passing litmus test on the visible GPU: how often a reader in one block sees\n"
                           "a writer's flag but not the data written before it, for each placement of fences, kind of\n"
                           "data load and memory stress. Exits 1 if a configuration that the PTX memory model says\n"
                           "forbids it shows the weak outcome, 77 without a GPU.");
  parser.count("--launches", "N", "launches per configuration (default 4000; --quick: 100)", options.launches, 1,
               10000000);
  parser.count("--instances", "N", "MP instances per launch, a multiple of 64 from 128 to 1048576 (default 8192)",
               options.instances, 128, 1048576);
  parser.count("--seed", "S", "seed of the random placement, pairing and delays (default 1)", options.seed, 0,
               UINT64_MAX);
  parser.count("--stress-mb", "M", "MiB of the stress warps' scratch region, a power of two (default 64)",
               options.stress_mb, 1, 4096);
  parser.count("--stress-warps", "W", "stress warps per block, 1 to 28 (default 4)", options.stress_warps, 1, 28);
  parser.count("--max-delay", "CYCLES", "a reader waits 0 to CYCLES - 1 clock cycles before its loads (default 2000)",
               options.max_delay, 0, 1000000);
  parser.option("--layout", "far|same-line",
                "data and flag in different 128-byte lines placed at random (far, the default),\n"
                "or in adjacent words of one line",
                [&](const std::string& value) {
                  if (value != "far" && value != "same-line") {
                    throw sssp::InputError("--layout must be far or same-line, got '" + value + "'");
                  }
                  layout = value;
                  options.same_line = value == "same-line";
                });
  parser.flag("--quick", "a short run for the tests: 100 launches per configuration", [&] { quick = true; });
  parser.text("--out", "FILE", "also write the Markdown report to FILE", out_file);
  parser.excludes("--quick", "--launches");
  sssp::bench::Report report("mp-litmus");
  report.add_option(parser);
  if (!parser.parse(argc, argv, std::cout)) return 0;
  if (options.instances % kInstancesPerBlock != 0) {
    throw sssp::InputError("--instances must be a multiple of 64, got " + std::to_string(options.instances));
  }
  if ((options.stress_mb & (options.stress_mb - 1)) != 0) {
    throw sssp::InputError("--stress-mb must be a power of two, got " + std::to_string(options.stress_mb));
  }
  if (quick) options.launches = 100;

  const sssp::cuda::DeviceStatus& gpu = sssp::cuda::query_device();
  if (!gpu.available) {
    std::printf("mp-litmus: skipped: no GPU: %s\n", gpu.reason.c_str());
    return 77;
  }
  Litmus litmus(options);
  litmus.require_coresident(gpu.multiprocessors);

  std::string markdown;
  const auto line = [&](const std::string& text) {
    std::printf("%s\n", text.c_str());
    markdown += text + "\n";
  };
  const std::string placement = options.same_line ? "data and flag in adjacent words of one 128-byte line"
                                                  : "data and flag in different 128-byte lines";
  line("mp-litmus on " + gpu.summary() + "; driver " + cuda_version(gpu.driver_version) + ", CUDA runtime " +
       cuda_version(gpu.runtime_version) + ".");
  line("");
  line("Seed " + std::to_string(options.seed) + "; " + std::to_string(options.launches) + " launches of " +
       std::to_string(options.instances) + " instances per configuration (" + std::to_string(litmus.blocks()) +
       " blocks of 2 writer and 2 reader warps); " + placement + ", placed at random among " +
       std::to_string(kRegionSpread) + " times as many lines; readers paired at random with writers of other " +
       "blocks and delayed 0 to " + std::to_string(options.max_delay) +
       " cycles; stress: " + std::to_string(options.stress_warps) + " warps per block over " +
       std::to_string(options.stress_mb) + " MiB. Command: `mp-litmus --seed " + std::to_string(options.seed) +
       " --launches " + std::to_string(options.launches) + " --instances " + std::to_string(options.instances) +
       " --stress-mb " + std::to_string(options.stress_mb) + " --stress-warps " + std::to_string(options.stress_warps) +
       " --max-delay " + std::to_string(options.max_delay) + " --layout " + layout + "`.");
  line("");
  report.fact("gpu", gpu.summary());
  report.fact("driver", cuda_version(gpu.driver_version));
  report.fact("runtime", cuda_version(gpu.runtime_version));
  report.fact("seed", std::to_string(options.seed));
  report.fact("launches", std::to_string(options.launches));
  report.fact("instances per launch", std::to_string(options.instances));
  report.fact("layout", layout);
  report.fact("max delay cycles", std::to_string(options.max_delay));
  report.fact("stress MiB", std::to_string(options.stress_mb));
  report.fact("stress warps per block", std::to_string(options.stress_warps));

  const std::vector<std::string> columns = {"fences",    "data load", "stress",           "instances",
                                            "flag seen", "weak",      "weak per million", "forbidden by PTX"};
  std::string header = "|";
  std::string separator = "|";
  for (const std::string& column : columns) {
    header += " " + column + " |";
    separator += column == "fences" || column == "data load" || column == "stress" || column == "forbidden by PTX"
                     ? "---|"
                     : "---:|";
  }
  markdown += header + "\n" + separator + "\n";
  std::fflush(stdout);
  report.table("mp", columns);

  const std::size_t total = kAllFences.size() * kAllLoads.size() * kAllStress.size();
  std::size_t done = 0;
  unsigned long long late = 0;
  bool all_forbidden_absent = true;
  const auto start = std::chrono::steady_clock::now();
  for (std::size_t f = 0; f < kAllFences.size(); ++f) {
    for (std::size_t l = 0; l < kAllLoads.size(); ++l) {
      for (const Stress stress : kAllStress) {
        const Fences fences = kAllFences[f];
        const DataLoad load = kAllLoads[l];
        const Tally tally = litmus.run(kKernels[f * kAllLoads.size() + l], stress);
        late += tally.late;
        const unsigned long long instances = static_cast<unsigned long long>(options.launches) * options.instances;
        if (forbidden(fences) && tally.weak != 0) all_forbidden_absent = false;
        std::vector<sssp::bench::Cell> cells = {
            name(fences),
            name(load),
            name(stress),
            instances,
            tally.seen,
            tally.weak,
            {1e6 * static_cast<double>(tally.weak) / static_cast<double>(instances), 3},
            forbidden(fences) ? "yes" : "no"};
        std::string row = "|";
        for (const sssp::bench::Cell& cell : cells) row += " " + cell.text() + " |";
        markdown += row + "\n";
        report.row(std::move(cells));
        std::fflush(stdout);
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        std::fprintf(stderr, "mp-litmus: %zu/%zu configurations, %.1f s\n", ++done, total, seconds);
      }
    }
  }
  line("");
  line("Test warps that stopped waiting at the start barrier: " + std::to_string(late) + " (0: every launch began " +
       "with all its writers and readers resident).");
  report.fact("late test warps", std::to_string(late));
  if (!out_file.empty()) {
    std::ofstream out(out_file, std::ios::binary);
    out << markdown;
    out.close();
    if (!out) throw sssp::InputError("--out: cannot write " + out_file);
  }
  return report.finish(all_forbidden_absent, "the weak outcome appeared where the PTX memory model forbids it");
}

}  // namespace

int main(int argc, char** argv) { return sssp::guarded_main("mp-litmus", run, argc, argv); }
