// Tests of the CUDA helpers in common/ (sssp_cuda). They need a GPU and skip,
// with the reason, without one.
#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <span>
#include <utility>
#include <vector>

#include "sssp/cuda/atomics.cuh"
#include "sssp/cuda/block_work.cuh"
#include "sssp/cuda/check.cuh"
#include "sssp/cuda/device.hpp"
#include "sssp/cuda/device_buffer.cuh"
#include "sssp/cuda/device_graph.cuh"
#include "sssp/cuda/event_timer.cuh"
#include "sssp/cuda/launch.cuh"
#include "sssp/cuda/pinned_array.cuh"
#include "sssp/generators.hpp"
#include "sssp/weights.hpp"
#include "sssp/cuda/timed_run.cuh"
#include "sssp_test.hpp"

namespace {

SSSP_DEVICE_TODO_STATE(0);

__global__ void add_one(std::uint64_t* values, std::size_t n) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i < n) values[i] += 1;
}

__global__ void spin(long long cycles) {
  const long long start = clock64();
  while (clock64() - start < cycles) {
  }
}

TEST(CudaDevice, QueryDescribesTheDevice) {
  SSSP_REQUIRE_GPU();
  const auto& status = sssp::cuda::query_device();
  EXPECT_TRUE(status.available);
  EXPECT_FALSE(status.name.empty());
  EXPECT_GT(status.multiprocessors, 0);
  EXPECT_GT(status.global_memory, 0u);
  EXPECT_GE(status.compute_major, 7) << "CUDA 13 supports compute capability 7.5 and newer";
  EXPECT_NE(status.summary().find("sm_"), std::string::npos) << status.summary();
}

TEST(CudaDevice, PresenceCheckAgreesWithTheFullCheck) {
  SSSP_REQUIRE_GPU();
  const auto& full = sssp::cuda::query_device();
  const auto& presence = sssp::cuda::query_device(0, sssp::cuda::DeviceCheck::kPresence);
  EXPECT_TRUE(presence.available) << presence.reason;
  EXPECT_EQ(presence.name, full.name);
  EXPECT_EQ(presence.multiprocessors, full.multiprocessors);
  EXPECT_FALSE(sssp::cuda::query_device(4096, sssp::cuda::DeviceCheck::kPresence).available);
}

TEST(CudaDevice, MissingDeviceHasAReason) {
  const auto& status = sssp::cuda::query_device(4096);
  EXPECT_FALSE(status.available);
  EXPECT_FALSE(status.reason.empty());
}

TEST(DeviceBuffer, RoundTripAndKernel) {
  SSSP_REQUIRE_GPU();
  std::vector<std::uint64_t> host(100003);
  std::iota(host.begin(), host.end(), std::uint64_t{1} << 40);
  sssp::cuda::DeviceBuffer<std::uint64_t> buffer(std::span<const std::uint64_t>(host), "values");
  const unsigned blocks = static_cast<unsigned>((host.size() + 255) / 256);
  add_one<<<blocks, 256>>>(buffer.data(), buffer.size());
  SSSP_CUDA_CHECK_LAUNCH();
  const auto back = buffer.to_host();
  ASSERT_EQ(back.size(), host.size());
  for (std::size_t i = 0; i < host.size(); ++i) {
    ASSERT_EQ(back[i], host[i] + 1) << "element " << i;
  }
}

TEST(DeviceBuffer, FillBytesAllOnesIsInfinity) {
  SSSP_REQUIRE_GPU();
  sssp::cuda::DeviceBuffer<sssp::dist_t> dist(1000, "dist");
  dist.fill_bytes(0xFF);
  for (const auto d : dist.to_host()) ASSERT_EQ(d, sssp::kInfinity);
}

TEST(DeviceBuffer, TracksPeakMemory) {
  SSSP_REQUIRE_GPU();
  sssp::cuda::reset_peak_memory();
  const auto before = sssp::cuda::memory_stats();
  {
    sssp::cuda::DeviceBuffer<std::uint32_t> a(1 << 20, "a");
    sssp::cuda::DeviceBuffer<std::uint32_t> b(std::move(a));  // a move must not double count
    EXPECT_EQ(sssp::cuda::memory_stats().current_bytes, before.current_bytes + (4u << 20));
  }
  const auto after = sssp::cuda::memory_stats();
  EXPECT_EQ(after.current_bytes, before.current_bytes);
  EXPECT_EQ(after.peak_bytes, before.current_bytes + (4u << 20));
}

TEST(DeviceBuffer, SizeMismatchIsAnError) {
  SSSP_REQUIRE_GPU();
  sssp::cuda::DeviceBuffer<int> buffer(10, "ten");
  std::vector<int> wrong(11);
  EXPECT_THROW(buffer.upload(wrong), sssp::CudaError);
}

// DeliberateErrors.* provoke CUDA errors on purpose; .ci/gpu leaves them out of
// the compute-sanitizer runs, which would (rightly) report those errors.
TEST(DeliberateErrors, OutOfMemoryIsAClearError) {
  SSSP_REQUIRE_GPU();
  const std::size_t too_much = sssp::cuda::query_device().global_memory * 4;
  try {
    sssp::cuda::DeviceBuffer<char> huge(too_much, "an oversized test buffer");
    FAIL() << "allocating 4x the device memory succeeded";
  } catch (const sssp::CudaError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("out of GPU memory"), std::string::npos) << message;
    EXPECT_NE(message.find("an oversized test buffer"), std::string::npos) << message;
  }
  // The failed allocation must not poison later CUDA calls.
  sssp::cuda::DeviceBuffer<int> fine(16, "after OOM");
  fine.fill_bytes(0);
  EXPECT_EQ(fine.to_host()[0], 0);
}

TEST(DeliberateErrors, BadLaunchIsReportedWithLocation) {
  SSSP_REQUIRE_GPU();
  add_one<<<1, 4096>>>(nullptr, 0);  // 4096 threads per block exceeds every GPU's limit
  try {
    SSSP_CUDA_CHECK_LAUNCH();
    FAIL() << "an invalid launch configuration was not reported";
  } catch (const sssp::CudaError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("test_cuda.cu:"), std::string::npos) << message;
    // The runtime's code for this has varied between versions (CUDA 13 says
    // cudaErrorInvalidValue); what matters is that its name reaches the user.
    EXPECT_NE(message.find("cudaError"), std::string::npos) << message;
  }
  cudaGetLastError();  // the launch error is not sticky; clear it for the next test
}

TEST(EventTimer, MeasuresDeviceTime) {
  SSSP_REQUIRE_GPU();
  sssp::cuda::EventTimer timer;
  timer.start();
  spin<<<1, 1>>>(20'000'000);  // about 10 ms at 2 GHz
  SSSP_CUDA_CHECK_LAUNCH();
  timer.stop();
  const float ms = timer.elapsed_ms();
  EXPECT_GT(ms, 1.0f);
  EXPECT_LT(ms, 1000.0f);
}

// --------------------------------------------------------- launch policy --

TEST(LaunchPolicy, GridForCapsTheGridForAnySizeAndBlock) {
  using sssp::cuda::grid_for;
  using sssp::cuda::kMaxGridBlocks;
  EXPECT_EQ(grid_for(0, 256), 1u) << "a launch needs at least one block";
  EXPECT_EQ(grid_for(1000, 256), 4u);
  EXPECT_EQ(grid_for(1000, 1), 1000u) << "block size 1 is legal";
  // Under the old policy (one thread per item) these asked for 2^32 - 1 and
  // 2^31 blocks of one thread: more than the 2^31 - 1 a grid may have.
  EXPECT_EQ(grid_for(0xFFFF'FFFFull, 1), kMaxGridBlocks);
  EXPECT_EQ(grid_for(std::uint64_t{1} << 31, 1), kMaxGridBlocks);
  EXPECT_THROW((void)grid_for(10, 0), sssp::InputError);
  EXPECT_THROW((void)grid_for(10, 1025), sssp::InputError);
}

TEST(LaunchPolicy, BlocksForRefusesMoreBlocksThanAGridHas) {
  using sssp::cuda::blocks_for;
  EXPECT_EQ(blocks_for(0, 32), 1u);
  EXPECT_EQ(blocks_for(65, 32), 3u);
  EXPECT_EQ(blocks_for((std::uint64_t{1} << 31) - 1, 1), (1u << 31) - 1) << "exactly the grid limit is legal";
  EXPECT_THROW((void)blocks_for(std::uint64_t{1} << 31, 1), sssp::InputError);
  EXPECT_THROW((void)blocks_for(0xFFFF'FFFFull, 1), sssp::InputError);
}

__global__ void increment_each(std::uint8_t* values, std::uint64_t n) {
  for (std::uint64_t i = sssp::cuda::global_thread_index(); i < n; i += sssp::cuda::grid_stride()) ++values[i];
}

__global__ void count_not_one(const std::uint8_t* values, std::uint64_t n, unsigned long long* wrong) {
  unsigned long long mine = 0;
  for (std::uint64_t i = sssp::cuda::global_thread_index(); i < n; i += sssp::cuda::grid_stride()) {
    mine += values[i] != 1;
  }
  if (mine != 0) atomicAdd(wrong, mine);
}

// 2^32 - 1 items (the most a vertex_t can count) with blocks of one thread:
// the old policy asked for 2^32 - 1 blocks, and a 32-bit grid-stride index
// would wrap before reaching n and never stop. Every item must be visited once.
TEST(LaunchPolicy, GridStrideVisitsEveryItemOfTheLargestGraphOnce) {
  SSSP_REQUIRE_GPU();
  constexpr std::uint64_t n = 0xFFFF'FFFFull;
  std::size_t free_bytes = 0, total_bytes = 0;
  SSSP_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  if (free_bytes < n + (std::size_t{256} << 20)) {
    GTEST_SKIP() << "needs 4 GiB of free device memory, " << (free_bytes >> 20) << " MiB free";
  }
  sssp::cuda::DeviceBuffer<std::uint8_t> values(n, "4 GiB of counters");
  values.fill_bytes(0);
  sssp::cuda::DeviceBuffer<unsigned long long> wrong(1, "wrong count");
  wrong.fill_bytes(0);
  increment_each<<<sssp::cuda::grid_for(n, 1), 1>>>(values.data(), n);
  SSSP_CUDA_CHECK_LAUNCH();
  count_not_one<<<sssp::cuda::grid_for(n, 256), 256>>>(values.data(), n, wrong.data());
  SSSP_CUDA_CHECK_LAUNCH();
  EXPECT_EQ(wrong.to_host()[0], 0u) << "items not visited exactly once";
}

// -------------------------------------------------------------- timed_run --

__global__ void unfinished_task(int task) {
  if (threadIdx.x == 0) {
    if (task == 7) SSSP_DEVICE_TODO(0, 7, "a stub");
  }
}

TEST(TimedRun, RejectsABadSourceBeforeAnyGpuWork) {
  SSSP_REQUIRE_GPU();
  sssp::cuda::DeviceBuffer<sssp::dist_t> storage(10, "distances");
  auto& dist = storage;  // (nvcc misreads a lambda returning a captured local as returning a local)
  bool ran = false;
  const auto algorithm = [&](sssp::Counters&) -> sssp::cuda::DeviceBuffer<sssp::dist_t>& {
    ran = true;
    return dist;
  };
  EXPECT_THROW((void)sssp::cuda::timed_run<sssp::dist_t>(device_todo(), 10, 10, algorithm), sssp::InvalidSource);
  EXPECT_THROW((void)sssp::cuda::timed_run<sssp::dist_t>(device_todo(), 4'000'000'000u, 10, algorithm),
               sssp::InvalidSource);
  EXPECT_THROW((void)sssp::cuda::timed_run<sssp::dist_t>(device_todo(), 0, 0, algorithm), sssp::InvalidSource)
      << "an empty graph has no valid source";
  EXPECT_FALSE(ran) << "the algorithm must not run for a bad source";
}

TEST(TimedRun, ReturnsTheAnswerCountersAndTime) {
  SSSP_REQUIRE_GPU();
  sssp::cuda::DeviceBuffer<sssp::level_t> storage(5, "levels");
  auto& level = storage;
  const sssp::BfsResult result = sssp::cuda::timed_run<sssp::level_t>(
      device_todo(), 2, 5, [&](sssp::Counters& work) -> sssp::cuda::DeviceBuffer<sssp::level_t>& {
        level.fill_bytes(0);
        spin<<<1, 1>>>(2'000'000);
        SSSP_CUDA_CHECK_LAUNCH();
        work.kernel_launches = 1;
        return level;
      });
  EXPECT_EQ(result.values, std::vector<sssp::level_t>(5, 0));
  EXPECT_EQ(result.counters.kernel_launches, 1u);
  EXPECT_GT(result.device_ms, 0.1) << "the spinning kernel is inside the timed region";
}

// The device-TODO word is cleared before every run: in one process, a
// finished stage that runs after an unfinished one is not blamed for it.
TEST(TimedRun, DeviceTodoIsClearedBeforeEveryRun) {
  SSSP_REQUIRE_GPU();
  sssp::cuda::DeviceBuffer<sssp::dist_t> storage(3, "distances");
  auto& dist = storage;
  const auto run_task = [&](int task) {
    return sssp::cuda::timed_run<sssp::dist_t>(device_todo(), 0, 3,
                                               [&](sssp::Counters&) -> sssp::cuda::DeviceBuffer<sssp::dist_t>& {
                                                 unfinished_task<<<1, 32>>>(task);
                                                 SSSP_CUDA_CHECK_LAUNCH();
                                                 return dist;
                                               });
  };
  try {
    (void)run_task(7);
    FAIL() << "an unfinished kernel ran, but no NotImplemented was thrown";
  } catch (const sssp::NotImplemented& e) {
    EXPECT_NE(std::string(e.what()).find("task 7"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("test_cuda.cu"), std::string::npos) << e.what();
  }
  EXPECT_NO_THROW((void)run_task(0)) << "the second run finished every task but was blamed for the first";
}

// The shared plumbing of the GPU labs: option checks, footprints, resident
// grids, pinned arrays, block work counters and the device-scope atomics.

TEST(Plumbing, RequireOptionNamesTheOptionTheRuleAndTheValue) {
  EXPECT_NO_THROW(sssp::require_option(true, "depth k", "1..8", 3u));
  try {
    sssp::require_option(false, "depth k", "1..8", 9u);
    FAIL() << "a refused option did not throw";
  } catch (const sssp::InputError& e) {
    EXPECT_STREQ(e.what(), "depth k must be 1..8, got 9");
  }
  EXPECT_THROW(sssp::cuda::require_block_size(0), sssp::InputError);
}

TEST(Plumbing, CsrFootprintCountsTheThreeArraysIn64Bits) {
  const sssp::CsrGraph g = sssp::to_csr(sssp::make_chain(10, sssp::WeightPolicy::unit()));
  const std::uint64_t expected =
      11 * sizeof(sssp::edge_t) + std::uint64_t{g.num_edges()} * (sizeof(sssp::vertex_t) + sizeof(sssp::weight_t));
  EXPECT_EQ(sssp::cuda::csr_device_bytes(g), expected);
  EXPECT_EQ(sssp::cuda::coo_device_bytes(g, false), 2 * std::uint64_t{g.num_edges()} * sizeof(sssp::vertex_t));
  EXPECT_EQ(sssp::cuda::device_bytes<sssp::dist_t>(std::uint64_t{1} << 32), std::uint64_t{8} << 32)
      << "a footprint term must not wrap at 2^32";
}

TEST(Plumbing, TooLittleFreeMemoryIsADeviceMemoryError) {
  SSSP_REQUIRE_GPU();
  const std::uint64_t total = sssp::cuda::query_device().global_memory;
  EXPECT_THROW(sssp::cuda::require_free_memory(total + 1, "a test graph"), sssp::DeviceMemoryError);
  EXPECT_NO_THROW(sssp::cuda::require_free_memory(1, "one byte"));
}

TEST(Plumbing, ResidentGridIsAWholeWaveOfBlocks) {
  SSSP_REQUIRE_GPU();
  const auto sms = static_cast<unsigned>(sssp::cuda::query_device().multiprocessors);
  const unsigned grid = sssp::cuda::resident_grid(add_one, 256);
  EXPECT_GE(grid, sms);
  EXPECT_EQ(grid % sms, 0u) << "every SM holds the same number of blocks";
  EXPECT_THROW((void)sssp::cuda::resident_grid(add_one, 0), sssp::InputError);
}

TEST(Plumbing, PinnedArrayRoundTripsAndMoves) {
  SSSP_REQUIRE_GPU();
  std::vector<std::uint64_t> values(1000);
  std::iota(values.begin(), values.end(), 0);
  sssp::cuda::DeviceBuffer<std::uint64_t> device(std::span<const std::uint64_t>(values), "values");
  sssp::cuda::PinnedArray<std::uint64_t> pinned(values.size(), "test values");
  SSSP_CUDA_CHECK(cudaMemcpy(pinned.data(), device.data(), device.bytes(), cudaMemcpyDeviceToHost));
  sssp::cuda::PinnedArray<std::uint64_t> moved = std::move(pinned);
  EXPECT_EQ(pinned.data(), nullptr);
  EXPECT_EQ(pinned.size(), 0u);
  ASSERT_EQ(moved.size(), values.size());
  EXPECT_EQ(moved[999], 999u);
  EXPECT_EQ(sssp::cuda::PinnedArray<int>(0).data(), nullptr) << "an empty array allocates nothing";
}

// Each block records (1, its index) in its slot; the last block to draw a
// ticket publishes the count of tickets with a release store.
__global__ void plumbing_kernel(sssp::cuda::BlockWork* slots, unsigned* tickets, unsigned* published) {
  if (threadIdx.x != 0) return;
  sssp::cuda::add_block_work(slots, 1, blockIdx.x);
  if (sssp::cuda::fetch_add_acq_rel(tickets, 1u) == gridDim.x - 1) {
    sssp::cuda::store_release(published, sssp::cuda::load_relaxed(tickets));
  }
}

TEST(Plumbing, BlockWorkAndAtomicsAddUp) {
  SSSP_REQUIRE_GPU();
  constexpr unsigned kBlocks = 100;
  sssp::cuda::BlockWorkCounters work(kBlocks);
  sssp::cuda::DeviceBuffer<unsigned> words(2, "ticket and result");
  SSSP_CUDA_CHECK(cudaMemset(work.device(), 0, kBlocks * sizeof(sssp::cuda::BlockWork)));
  words.fill_bytes(0);
  plumbing_kernel<<<kBlocks, 32>>>(work.device(), words.data(), words.data() + 1);
  SSSP_CUDA_CHECK_LAUNCH();
  sssp::Counters counters;
  work.add_to(counters, nullptr);
  EXPECT_EQ(counters.vertices_processed, kBlocks);
  EXPECT_EQ(counters.edges_relaxed, std::uint64_t{kBlocks} * (kBlocks - 1) / 2);
  EXPECT_EQ(words.to_host()[1], kBlocks);
}

}  // namespace
