/// @file
/// @brief The skeleton's marker for unfinished device code.
///
/// A kernel cannot throw, so an unfinished kernel records its task number in
/// a device word of its file and returns. The host asks that word after the
/// run (sssp::cuda::timed_run does it) and throws sssp::NotImplemented naming
/// the lab and the task, as SSSP_TODO does on the host. The word is cleared
/// before every run, so in one process a finished stage that runs after an
/// unfinished one is not blamed for it.
#pragma once

#include <cuda_runtime.h>

#include <span>

#include "sssp/cuda/check.cuh"
#include "sssp/todo.hpp"

namespace sssp::cuda {

/// Host handle on the device-TODO word of one .cu file (made by SSSP_DEVICE_TODO_STATE).
class DeviceTodo {
 public:
  /// Takes the address of `word`, a `__device__ int` of `file`, a .cu file of lab `lab`;
  /// `task_files` names the file of each task whose stub sits elsewhere (in a header).
  DeviceTodo(const int& word, int lab, const char* file, std::span<const ::sssp::detail::TaskFile> task_files = {})
      : lab_(lab), file_(file), task_files_(task_files) {
    SSSP_CUDA_CHECK(cudaGetSymbolAddress(reinterpret_cast<void**>(&word_), word));
  }
  /// The lab whose tasks the word records.
  [[nodiscard]] int lab() const { return lab_; }
  /// Enqueues clearing the word on `stream`: nothing unfinished has run yet.
  void reset(cudaStream_t stream = nullptr) const { SSSP_CUDA_CHECK(cudaMemsetAsync(word_, 0, sizeof(int), stream)); }
  /// Waits for the device, then throws sssp::NotImplemented if an unfinished
  /// kernel ran since the last reset(). Costs one 4-byte copy.
  void check() const {
    int task = 0;
    SSSP_CUDA_CHECK(cudaMemcpy(&task, word_, sizeof(int), cudaMemcpyDeviceToHost));
    if (task != 0)
      ::sssp::detail::throw_todo(lab_, task, "a kernel of this task is still the skeleton's stub",
                                 ::sssp::detail::file_of_task(task, task_files_, file_), 0);
  }

 private:
  int* word_ = nullptr;
  int lab_ = 0;
  const char* file_ = "";
  std::span<const ::sssp::detail::TaskFile> task_files_;
};

}  // namespace sssp::cuda

/// Defines, once per .cu file of lab `lab`, the device word that
/// SSSP_DEVICE_TODO writes and `device_todo()`, the host handle on it.
#define SSSP_DEVICE_TODO_STATE(lab)                                          \
  static __device__ int sssp_device_todo_task = 0;                           \
  [[maybe_unused]] static ::sssp::cuda::DeviceTodo device_todo() {           \
    return ::sssp::cuda::DeviceTodo(sssp_device_todo_task, (lab), __FILE__); \
  }                                                                          \
  static_assert(true, "")

/// SSSP_DEVICE_TODO_STATE for a file whose word also records the stubs of
/// included headers: each `{task, "file"}` after `lab` names the file that
/// holds that task's stub, so the student is sent to the right file
/// (tests/project/test_device_todo_files.py checks the entries).
#define SSSP_DEVICE_TODO_STATE_IN(lab, ...)                                              \
  static __device__ int sssp_device_todo_task = 0;                                       \
  [[maybe_unused]] static ::sssp::cuda::DeviceTodo device_todo() {                       \
    static constexpr ::sssp::detail::TaskFile kTaskFiles[] = {__VA_ARGS__};              \
    return ::sssp::cuda::DeviceTodo(sssp_device_todo_task, (lab), __FILE__, kTaskFiles); \
  }                                                                                      \
  static_assert(true, "")

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
