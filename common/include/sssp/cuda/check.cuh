/// @file
/// @brief Checked CUDA calls and launches. Every CUDA call in the course goes
/// through one of these, so an error is reported where it happened, with the
/// runtime's own words, instead of surfacing later as a wrong answer.
#pragma once

#include <cuda_runtime.h>

#include <string>

#include "sssp/errors.hpp"

namespace sssp::cuda::detail {
/// Throws CudaError("file:line: `expr` failed: cudaErrorX (explanation)").
[[noreturn]] void throw_cuda_error(cudaError_t status, const char* expr, const char* file, int line);
}  // namespace sssp::cuda::detail

/// Evaluates a CUDA runtime call and throws sssp::CudaError if it failed.
#define SSSP_CUDA_CHECK(expr)                                                          \
  do {                                                                                 \
    const cudaError_t sssp_status_ = (expr);                                           \
    if (sssp_status_ != cudaSuccess) {                                                 \
      ::sssp::cuda::detail::throw_cuda_error(sssp_status_, #expr, __FILE__, __LINE__); \
    }                                                                                  \
  } while (0)

/// Checks the launch that precedes it (bad configuration, missing kernel
/// image). Errors inside the kernel surface at the next synchronising call,
/// which is itself checked. Define SSSP_SYNC_AFTER_LAUNCH to also
/// synchronise here, so a fault is reported at the launch that caused it.
#ifdef SSSP_SYNC_AFTER_LAUNCH
#define SSSP_CUDA_CHECK_LAUNCH()              \
  do {                                        \
    SSSP_CUDA_CHECK(cudaPeekAtLastError());   \
    SSSP_CUDA_CHECK(cudaDeviceSynchronize()); \
  } while (0)
#else
#define SSSP_CUDA_CHECK_LAUNCH() SSSP_CUDA_CHECK(cudaPeekAtLastError())
#endif
