/// @file
/// @brief DeviceWord and HostFlag: one value that kernels write and the host
/// reads back once per iteration of a host-driven loop.
#pragma once

#include <cuda_runtime.h>

#include <string>
#include <type_traits>

#include "sssp/cuda/device_buffer.cuh"
#include "sssp/cuda/pinned_array.cuh"

namespace sssp::cuda {

/// One value of type T in device memory with a pinned host copy, so reading
/// it back is one small DMA rather than a staged copy. Loops use it for the
/// "did anything change?" flag (lab 02), the minimum of a round (lab 03) or
/// the result of an ExtractMin (lab 04).
template <typename T>
class DeviceWord {
  static_assert(std::is_trivially_copyable_v<T>, "DeviceWord holds a plain value");

 public:
  DeviceWord() : device_(1, "loop word"), host_(1, "loop word") {}

  /// The device copy that kernels write.
  [[nodiscard]] T* device() { return device_.data(); }
  /// Enqueues setting every byte of the device copy to `byte` on `stream`:
  /// 0 for a cleared flag, 0xFF for sssp::kInfinity.
  void fill_bytes(int byte, cudaStream_t stream = nullptr) { device_.fill_bytes(byte, stream); }
  /// Enqueues clearing the device copy (all bytes 0) on `stream`.
  void clear(cudaStream_t stream = nullptr) { fill_bytes(0, stream); }
  /// Copies the value to the host, waits for `stream`, and returns it: the
  /// round trip a host-driven loop pays each time it looks.
  [[nodiscard]] T read(cudaStream_t stream = nullptr) {
    SSSP_CUDA_CHECK(cudaMemcpyAsync(host_.data(), device_.data(), sizeof(T), cudaMemcpyDeviceToHost, stream));
    SSSP_CUDA_CHECK(cudaStreamSynchronize(stream));
    return host_[0];
  }

 private:
  DeviceBuffer<T> device_;
  PinnedArray<T> host_;
};

/// The flag of a host loop: kernels set it to a non-zero value, the host
/// clears it before an iteration and reads it after.
using HostFlag = DeviceWord<unsigned>;

}  // namespace sssp::cuda
