/// @file
/// @brief Device query and device-memory accounting. A plain C++ header: code
/// built without CUDA can still ask "is there a GPU, and if not, why?".
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "sssp/errors.hpp"

namespace sssp::cuda {

/// What the CUDA runtime says about a device, or why there is none.
struct DeviceStatus {
  bool available = false;         ///< A usable GPU is present and this build can run on it.
  std::string reason;             ///< Why not, when !available (shown in skipped tests).
  int device = 0;                 ///< Device ordinal queried.
  std::string name;               ///< e.g. "NVIDIA H100 80GB HBM3".
  int compute_major = 0;          ///< Compute capability, major.
  int compute_minor = 0;          ///< Compute capability, minor.
  int multiprocessors = 0;        ///< Streaming multiprocessors.
  std::size_t global_memory = 0;  ///< Bytes of device memory.
  std::size_t l2_cache = 0;       ///< Bytes of L2 cache.
  int driver_version = 0;         ///< e.g. 13000 for CUDA 13.0.
  int runtime_version = 0;        ///< Runtime this program was built against.

  /// One line: "NVIDIA H100 80GB HBM3 (sm_90, 132 SMs, 79.1 GiB)" or the reason.
  [[nodiscard]] std::string summary() const;
};

/// How far query_device checks. kRunsKernels also checks that this build has
/// a kernel image for the GPU, which creates the process's CUDA context (0.1
/// to 0.2 s); kPresence stops before that, for a process that runs no kernel
/// itself (an isolated test program: its worker runs the lab's kernels).
enum class DeviceCheck { kRunsKernels, kPresence };

/// Queries `device` once per process and check (the result is cached). Never
/// throws: a missing driver, no device or a build without CUDA all come back
/// as `available == false` with the runtime's own explanation.
[[nodiscard]] const DeviceStatus& query_device(int device = 0, DeviceCheck check = DeviceCheck::kRunsKernels);

/// query_device() for a program that cannot go on without a GPU: throws
/// CudaError "no GPU: <the runtime's reason>" when none is usable.
inline const DeviceStatus& require_device() {
  const DeviceStatus& status = query_device();
  if (!status.available) throw CudaError("no GPU: " + status.reason);
  return status;
}

/// The fixed cost of one iteration of a host-driven loop on this GPU: launch
/// an empty kernel, copy 4 bytes to pinned host memory, synchronise. Averaged
/// over `repetitions` after a warm-up, timed with CUDA events around the whole
/// loop (as the labs time their runs), in microseconds. Negative without a GPU.
[[nodiscard]] double measure_round_trip_us(int repetitions = 2000);

/// Bytes of `count` elements of T: the terms of a solver's footprint, e.g.
/// `csr_device_bytes(g) + device_bytes<dist_t>(n)`. 64-bit, so no term wraps.
template <typename T>
[[nodiscard]] constexpr std::uint64_t device_bytes(std::uint64_t count) {
  return count * sizeof(T);
}

/// Throws DeviceMemoryError, naming `what`, the bytes needed and the bytes
/// free, unless the device has `bytes` of free memory (CudaError in a build
/// without CUDA). Every GPU solver calls it with its whole footprint before it
/// allocates anything, so a graph too large for the GPU fails with one clear
/// message instead of at whichever buffer happens to be last.
void require_free_memory(std::uint64_t bytes, const std::string& what);

/// Device memory the course's DeviceBuffer allocations hold.
struct MemoryStats {
  std::size_t current_bytes = 0;  ///< Held now.
  std::size_t peak_bytes = 0;     ///< Most held at once since the last reset.
};

/// Current and peak bytes held by DeviceBuffer objects in this process.
[[nodiscard]] MemoryStats memory_stats();

/// Restarts peak tracking from the current holding.
void reset_peak_memory();

/// Records that `bytes` of device memory were allocated (DeviceBuffer calls it).
void note_allocation(std::size_t bytes);
/// Records that `bytes` of device memory were freed (DeviceBuffer calls it).
void note_release(std::size_t bytes);

}  // namespace sssp::cuda
