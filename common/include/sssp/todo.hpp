/// @file
/// @brief The marker a skeleton leaves where the student's code goes.
#pragma once

#include <span>
#include <string>

#include "sssp/errors.hpp"

namespace sssp::detail {
/// Throws NotImplemented naming the lab and the task. Out of line so the
/// skeleton's function still compiles to a normal, non-inlined throw.
/// `line` 0 names the file only (a kernel's task, found after the run).
[[noreturn]] void throw_todo(int lab, int task, const char* what, const char* file, int line);

/// Where the stub of a device task sits, when that is not the file that
/// holds the lab's device-TODO word (SSSP_DEVICE_TODO_STATE_IN).
struct TaskFile {
  int task;          ///< The task number.
  const char* file;  ///< The file a student opens to write it.
};

/// The file to name for unfinished `task`: its entry in `task_files`, else
/// `fallback` (the file of the device-TODO word).
[[nodiscard]] constexpr const char* file_of_task(int task, std::span<const TaskFile> task_files, const char* fallback) {
  for (const TaskFile& entry : task_files) {
    if (entry.task == task) return entry.file;
  }
  return fallback;
}
}  // namespace sssp::detail

/// Marks an unfinished student task. It throws (independent of NDEBUG), so a
/// skeleton compiles, runs, and fails loudly at the first task it reaches:
/// "Lab 01, task 2 is not implemented yet: Dijkstra with lazy deletion (dijkstra.cpp:40)".
#define SSSP_TODO(lab, task, what) ::sssp::detail::throw_todo((lab), (task), (what), __FILE__, __LINE__)
