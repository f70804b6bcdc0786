// Tests of the CUDA helpers in common/ (sssp_cuda). They need a GPU and skip,
// with the reason, without one.
#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <vector>

#include "sssp/cuda/check.cuh"
#include "sssp/cuda/device.hpp"
#include "sssp/cuda/device_buffer.cuh"
#include "sssp/cuda/event_timer.cuh"
#include "sssp_test.hpp"

namespace {

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

}  // namespace
