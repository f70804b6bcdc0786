/// @file
/// @brief The skeleton's marker for unfinished device code.
///
/// A kernel cannot throw, so an unfinished kernel records its task number in
/// a device variable of its file and returns; the host code that launched it
/// calls SSSP_CHECK_DEVICE_TODO after synchronising and throws
/// sssp::NotImplemented naming the lab and the task, as SSSP_TODO does.
#pragma once

#include <cuda_runtime.h>

#include "sssp/cuda/check.cuh"
#include "sssp/todo.hpp"

/// Defines the device variable that SSSP_DEVICE_TODO writes. Once per .cu file.
#define SSSP_DEVICE_TODO_STATE() static __device__ int sssp_device_todo_task = 0

/// In a kernel: records that `task` is unfinished and returns from the kernel.
#define SSSP_DEVICE_TODO(lab, task, what) \
  do {                                    \
    sssp_device_todo_task = (task);       \
    return;                               \
  } while (0)

/// In a device function that returns a value: records that `task` is
/// unfinished and returns `value` (a placeholder the caller can use).
#define SSSP_DEVICE_TODO_RETURN(lab, task, what, value) \
  do {                                                  \
    sssp_device_todo_task = (task);                     \
    return (value);                                     \
  } while (0)

/// On the host, after the kernels have finished: throws sssp::NotImplemented
/// if an unfinished kernel of lab `lab` ran. Costs one 4-byte copy.
#define SSSP_CHECK_DEVICE_TODO(lab)                                                            \
  do {                                                                                         \
    int sssp_task_ = 0;                                                                        \
    SSSP_CUDA_CHECK(cudaMemcpyFromSymbol(&sssp_task_, sssp_device_todo_task, sizeof(int)));    \
    if (sssp_task_ != 0) {                                                                     \
      ::sssp::detail::throw_todo((lab), sssp_task_, "a kernel of this task is still the skeleton's stub", \
                                 __FILE__, __LINE__);                                          \
    }                                                                                          \
  } while (0)
