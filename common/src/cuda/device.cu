// sssp_cuda with CUDA: checked-call support, the device query and checked allocation.
#include <cuda_runtime.h>

#include <cstdio>
#include <map>
#include <mutex>
#include <string>
#include <utility>

#include "sssp/cuda/device.hpp"
#include "sssp/cuda/check.cuh"
#include "sssp/cuda/device_buffer.cuh"
#include "sssp/cuda/event_timer.cuh"
#include "sssp/cuda/host_flag.cuh"

namespace sssp::cuda {

namespace detail {

void throw_cuda_error(cudaError_t status, const char* expr, const char* file, int line) {
  std::string base = file;
  if (const auto slash = base.find_last_of('/'); slash != std::string::npos) base.erase(0, slash + 1);
  throw CudaError(base + ":" + std::to_string(line) + ": `" + expr + "` failed: " + cudaGetErrorName(status) + " (" +
                  cudaGetErrorString(status) + ")");
}

void* checked_malloc(std::size_t bytes, const char* what) {
  if (bytes == 0) return nullptr;
  void* ptr = nullptr;
  const cudaError_t status = cudaMalloc(&ptr, bytes);
  if (status == cudaErrorMemoryAllocation) {
    cudaGetLastError();  // clear the sticky-free error so later calls are not blamed
    std::size_t free_bytes = 0;
    std::size_t total_bytes = 0;
    cudaMemGetInfo(&free_bytes, &total_bytes);
    char text[256];
    std::snprintf(text, sizeof text,
                  "out of GPU memory allocating %.1f MiB for %s (free %.1f MiB of %.1f MiB); "
                  "try a smaller graph",
                  static_cast<double>(bytes) / 1048576.0, what, static_cast<double>(free_bytes) / 1048576.0,
                  static_cast<double>(total_bytes) / 1048576.0);
    throw DeviceMemoryError(text);
  }
  if (status != cudaSuccess) throw_cuda_error(status, "cudaMalloc", __FILE__, __LINE__);
  note_allocation(bytes);
  return ptr;
}

}  // namespace detail

namespace {

// An empty kernel. Launching needs an image of it for the device's
// architecture, and asking for its attributes is the cheapest way to learn
// whether we have one; the round-trip measurement launches it.
__global__ void probe_kernel() {}

// "13.0" for the 13000 that the CUDA version queries return.
std::string cuda_version(int version) {
  return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

DeviceStatus probe(int device, DeviceCheck check) {
  DeviceStatus s;
  s.device = device;
  cudaRuntimeGetVersion(&s.runtime_version);
  cudaDriverGetVersion(&s.driver_version);
  int count = 0;
  if (const cudaError_t e = cudaGetDeviceCount(&count); e != cudaSuccess) {
    cudaGetLastError();
    // Without any driver the runtime reports an "insufficient" driver version,
    // which sends people after a driver update when the machine has no GPU.
    if (s.driver_version == 0 || e == cudaErrorNoDevice) {
      s.reason = std::string("no NVIDIA GPU or driver found (") + cudaGetErrorName(e) + ")";
    } else if (e == cudaErrorInsufficientDriver) {
      s.reason = "the NVIDIA driver supports CUDA " + cuda_version(s.driver_version) + ", older than this build's " +
                 cuda_version(s.runtime_version) + ": update the driver";
    } else {
      s.reason = std::string("CUDA runtime reports ") + cudaGetErrorName(e) + ": " + cudaGetErrorString(e);
    }
    return s;
  }
  if (device < 0 || device >= count) {
    s.reason =
        "device " + std::to_string(device) + " requested but " + std::to_string(count) + " CUDA device(s) present";
    return s;
  }
  cudaDeviceProp prop{};
  if (const cudaError_t e = cudaGetDeviceProperties(&prop, device); e != cudaSuccess) {
    cudaGetLastError();
    s.reason = std::string("cudaGetDeviceProperties failed: ") + cudaGetErrorString(e);
    return s;
  }
  s.name = prop.name;
  s.compute_major = prop.major;
  s.compute_minor = prop.minor;
  s.multiprocessors = prop.multiProcessorCount;
  s.global_memory = prop.totalGlobalMem;
  s.l2_cache = static_cast<std::size_t>(prop.l2CacheSize);
  if (check == DeviceCheck::kPresence) {
    s.available = true;
    return s;
  }
  cudaFuncAttributes attributes{};
  if (const cudaError_t e = cudaFuncGetAttributes(&attributes, probe_kernel); e != cudaSuccess) {
    cudaGetLastError();
    s.reason = std::string("this build has no kernel image for ") + s.name + " (sm_" + std::to_string(s.compute_major) +
               std::to_string(s.compute_minor) +
               "): reconfigure with -DCMAKE_CUDA_ARCHITECTURES=" + std::to_string(s.compute_major) +
               std::to_string(s.compute_minor) + " (" + cudaGetErrorString(e) + ")";
    return s;
  }
  s.available = true;
  return s;
}

}  // namespace

void require_free_memory(std::uint64_t bytes, const std::string& what) {
  std::size_t free_bytes = 0;
  std::size_t total_bytes = 0;
  SSSP_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  if (bytes > free_bytes) {
    throw DeviceMemoryError(what + " needs " + std::to_string(bytes) + " bytes of GPU memory, but only " +
                            std::to_string(free_bytes) + " of " + std::to_string(total_bytes) + " are free");
  }
}

double measure_round_trip_us(int repetitions) {
  if (!query_device().available) return -1.0;
  HostFlag flag;
  auto iterate = [&](int count) {
    for (int i = 0; i < count; ++i) {
      probe_kernel<<<1, 32>>>();
      SSSP_CUDA_CHECK_LAUNCH();
      (void)flag.read();
    }
  };
  iterate(20);  // warm-up: module load, first-launch costs
  EventTimer timer;
  timer.start();
  iterate(repetitions);
  timer.stop();
  return 1000.0 * timer.elapsed_ms() / (repetitions > 0 ? repetitions : 1);
}

const DeviceStatus& query_device(int device, DeviceCheck check) {
  static std::mutex mutex;
  static std::map<std::pair<int, DeviceCheck>, DeviceStatus> cache;
  const std::lock_guard lock(mutex);
  const auto key = std::make_pair(device, check);
  auto it = cache.find(key);
  if (it == cache.end()) it = cache.emplace(key, probe(device, check)).first;
  return it->second;
}

}  // namespace sssp::cuda
