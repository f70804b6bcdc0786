/// @file
/// @brief Stream and Event: owning handles for a CUDA stream and a CUDA event,
/// so a lab that overlaps copies with kernels (lab 05) cannot leak either.
#pragma once

#include <cuda_runtime.h>

#include <utility>

#include "sssp/cuda/check.cuh"

namespace sssp::cuda {

/// A CUDA stream created non-blocking: it does not synchronise with the
/// legacy default stream, so work on different Streams can overlap.
class Stream {
 public:
  Stream() { SSSP_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  /// Takes over `other`'s stream.
  Stream(Stream&& other) noexcept : stream_(std::exchange(other.stream_, nullptr)) {}
  /// Destroys the stream (work already queued still completes).
  ~Stream() {
    if (stream_ != nullptr) cudaStreamDestroy(stream_);
  }
  /// The handle, for launches and async copies.
  [[nodiscard]] cudaStream_t get() const { return stream_; }
  /// Makes later work on this stream wait until `event` has completed.
  void wait(cudaEvent_t event) const { SSSP_CUDA_CHECK(cudaStreamWaitEvent(stream_, event, 0)); }
  /// Blocks the host until everything queued on the stream has finished.
  void synchronize() const { SSSP_CUDA_CHECK(cudaStreamSynchronize(stream_)); }

 private:
  cudaStream_t stream_ = nullptr;
};

/// A CUDA event with timing enabled: a point in a stream that other streams
/// can wait for and whose time can be compared with another event's.
class Event {
 public:
  Event() { SSSP_CUDA_CHECK(cudaEventCreate(&event_)); }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  /// Takes over `other`'s event.
  Event(Event&& other) noexcept : event_(std::exchange(other.event_, nullptr)) {}
  /// Destroys the event.
  ~Event() {
    if (event_ != nullptr) cudaEventDestroy(event_);
  }
  /// The handle.
  [[nodiscard]] cudaEvent_t get() const { return event_; }
  /// Records the event at the current end of `stream`.
  void record(cudaStream_t stream) const { SSSP_CUDA_CHECK(cudaEventRecord(event_, stream)); }
  /// Milliseconds from `earlier` to this event; both must have completed.
  [[nodiscard]] float ms_since(const Event& earlier) const {
    float ms = 0.0f;
    SSSP_CUDA_CHECK(cudaEventElapsedTime(&ms, earlier.event_, event_));
    return ms;
  }

 private:
  cudaEvent_t event_ = nullptr;
};

}  // namespace sssp::cuda
