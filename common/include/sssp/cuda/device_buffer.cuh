/// @file
/// @brief DeviceBuffer: an owning, typed, checked device allocation.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "sssp/cuda/check.cuh"
#include "sssp/cuda/device.hpp"

namespace sssp::cuda {

namespace detail {
/// cudaMalloc that turns out-of-memory into a DeviceMemoryError saying how much was
/// asked for, for what, and how much the device has free.
void* checked_malloc(std::size_t bytes, const char* what);
}  // namespace detail

/// A typed array in device memory that frees itself (RAII, move-only).
///
/// Copies between host and device are explicit and checked; the element
/// count is always known, so a copy can never overrun.
template <typename T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  /// Allocates `count` elements (uninitialised). `what` names the buffer in
  /// an out-of-memory message.
  explicit DeviceBuffer(std::size_t count, const char* what = "buffer")
      : data_(static_cast<T*>(detail::checked_malloc(count * sizeof(T), what))), size_(count) {}
  /// Allocates and uploads `host`.
  explicit DeviceBuffer(std::span<const T> host, const char* what = "buffer") : DeviceBuffer(host.size(), what) {
    upload(host);
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  /// Takes over `other`'s allocation; `other` becomes empty.
  DeviceBuffer(DeviceBuffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}
  /// Frees this buffer's allocation and takes over `other`'s.
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
    if (this != &other) {
      release();
      data_ = std::exchange(other.data_, nullptr);
      size_ = std::exchange(other.size_, 0);
    }
    return *this;
  }
  /// Frees the allocation.
  ~DeviceBuffer() { release(); }

  /// Device pointer (nullptr when empty).
  [[nodiscard]] T* data() { return data_; }
  /// @copydoc data()
  [[nodiscard]] const T* data() const { return data_; }
  /// Number of elements.
  [[nodiscard]] std::size_t size() const { return size_; }
  /// Size in bytes.
  [[nodiscard]] std::size_t bytes() const { return size_ * sizeof(T); }

  /// Copies host data into the buffer; `host.size()` must equal size().
  void upload(std::span<const T> host, cudaStream_t stream = nullptr) {
    require_size(host.size());
    if (size_ != 0) {
      SSSP_CUDA_CHECK(cudaMemcpyAsync(data_, host.data(), bytes(), cudaMemcpyHostToDevice, stream));
    }
  }
  /// Copies the buffer into host memory; `host.size()` must equal size().
  /// Synchronous with respect to `stream`.
  void download(std::span<T> host, cudaStream_t stream = nullptr) const {
    require_size(host.size());
    if (size_ != 0) {
      SSSP_CUDA_CHECK(cudaMemcpyAsync(host.data(), data_, bytes(), cudaMemcpyDeviceToHost, stream));
      SSSP_CUDA_CHECK(cudaStreamSynchronize(stream));
    }
  }
  /// Returns the contents as a new host vector.
  [[nodiscard]] std::vector<T> to_host(cudaStream_t stream = nullptr) const {
    std::vector<T> host(size_);
    download(host, stream);
    return host;
  }
  /// Sets every byte to `byte` (0x00, or 0xFF for "all ones" sentinels).
  void fill_bytes(int byte, cudaStream_t stream = nullptr) {
    if (size_ != 0) SSSP_CUDA_CHECK(cudaMemsetAsync(data_, byte, bytes(), stream));
  }

 private:
  void require_size(std::size_t n) const {
    if (n != size_) {
      throw CudaError("DeviceBuffer copy of " + std::to_string(n) + " elements into a buffer of " +
                      std::to_string(size_));
    }
  }
  void release() noexcept {
    if (data_ != nullptr) {
      cudaFree(data_);  // cannot throw from a destructor; a failure here means the context is gone
      note_release(bytes());
      data_ = nullptr;
      size_ = 0;
    }
  }

  T* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace sssp::cuda
