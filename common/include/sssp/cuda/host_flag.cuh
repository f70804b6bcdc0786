/// @file
/// @brief HostFlag: the "did anything change?" flag of a host-driven loop.
#pragma once

#include <cuda_runtime.h>

#include <string>

#include "sssp/cuda/device_buffer.cuh"

namespace sssp::cuda {

/// A flag that kernels set in device memory and the host reads back once per
/// iteration. The host copy lives in pinned memory, so the read is one small
/// DMA rather than a staged copy.
class HostFlag {
 public:
  HostFlag() : device_(1, "loop flag") { SSSP_CUDA_CHECK(cudaMallocHost(&host_, sizeof(unsigned))); }
  HostFlag(const HostFlag&) = delete;
  HostFlag& operator=(const HostFlag&) = delete;
  ~HostFlag() { cudaFreeHost(host_); }

  /// The device word kernels set to a non-zero value.
  [[nodiscard]] unsigned* device() { return device_.data(); }
  /// Enqueues clearing the flag on `stream`.
  void clear(cudaStream_t stream = nullptr) { device_.fill_bytes(0, stream); }
  /// Copies the flag to the host, waits for `stream`, and returns it: the
  /// round trip a host-driven loop pays each iteration.
  [[nodiscard]] bool read(cudaStream_t stream = nullptr) {
    SSSP_CUDA_CHECK(cudaMemcpyAsync(host_, device_.data(), sizeof(unsigned), cudaMemcpyDeviceToHost, stream));
    SSSP_CUDA_CHECK(cudaStreamSynchronize(stream));
    return *host_ != 0;
  }

 private:
  DeviceBuffer<unsigned> device_;
  unsigned* host_ = nullptr;
};

/// Throws InputError unless `block_size` is a legal number of threads per block.
inline void require_block_size(unsigned block_size) {
  if (block_size == 0 || block_size > 1024) {
    throw InputError("block size must be 1..1024 threads, got " + std::to_string(block_size));
  }
}

}  // namespace sssp::cuda
