/// @file
/// @brief PinnedArray: an owning, typed, checked array of page-locked host memory.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <span>
#include <string>
#include <type_traits>
#include <utility>

#include "sssp/cuda/check.cuh"

namespace sssp::cuda {

/// `count` elements of page-locked (pinned) host memory that free themselves
/// (RAII, move-only). A copy between the GPU and pinned memory is one DMA that
/// runs asynchronously on its stream; from pageable memory the driver stages
/// it through a pinned buffer of its own and the host waits. So whatever the
/// host reads back every iteration (a flag, loop statistics) lives here.
/// The elements are uninitialised: T must be a plain value.
template <typename T>
class PinnedArray {
  static_assert(std::is_trivially_copyable_v<T>, "PinnedArray holds plain values, copied by DMA");

 public:
  PinnedArray() = default;
  /// Allocates `count` elements; `what` names them in the error when the
  /// host cannot pin that much (CudaError, which also comes without a GPU).
  explicit PinnedArray(std::size_t count, const char* what = "pinned array") : size_(count) {
    if (count == 0) return;
    void* pinned = nullptr;
    const cudaError_t status = cudaMallocHost(&pinned, count * sizeof(T));
    if (status == cudaErrorMemoryAllocation) {
      cudaGetLastError();  // not sticky: clear it so later calls are not blamed
      throw CudaError("cannot pin " + std::to_string(count * sizeof(T)) + " bytes of host memory for " + what);
    }
    SSSP_CUDA_CHECK(status);
    data_ = static_cast<T*>(pinned);
  }
  PinnedArray(const PinnedArray&) = delete;
  PinnedArray& operator=(const PinnedArray&) = delete;
  /// Takes over `other`'s allocation; `other` becomes empty.
  PinnedArray(PinnedArray&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}
  /// Frees this array's allocation and takes over `other`'s.
  PinnedArray& operator=(PinnedArray&& other) noexcept {
    if (this != &other) {
      release();
      data_ = std::exchange(other.data_, nullptr);
      size_ = std::exchange(other.size_, 0);
    }
    return *this;
  }
  /// Frees the allocation.
  ~PinnedArray() { release(); }

  /// Host pointer (nullptr when empty); a valid source or target of cudaMemcpyAsync.
  [[nodiscard]] T* data() { return data_; }
  /// @copydoc data()
  [[nodiscard]] const T* data() const { return data_; }
  /// Number of elements.
  [[nodiscard]] std::size_t size() const { return size_; }
  /// Element `i` (unchecked, like std::vector's).
  [[nodiscard]] T& operator[](std::size_t i) { return data_[i]; }
  /// @copydoc operator[]
  [[nodiscard]] const T& operator[](std::size_t i) const { return data_[i]; }
  /// The elements as a span.
  [[nodiscard]] std::span<T> span() { return {data_, size_}; }
  /// @copydoc span()
  [[nodiscard]] std::span<const T> span() const { return {data_, size_}; }

 private:
  void release() noexcept {
    if (data_ != nullptr) cudaFreeHost(data_);  // cannot throw from a destructor; a failure means the context is gone
    data_ = nullptr;
    size_ = 0;
  }

  T* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace sssp::cuda
