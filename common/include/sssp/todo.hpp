/// @file
/// @brief The marker a skeleton leaves where the student's code goes.
#pragma once

#include <string>

#include "sssp/errors.hpp"

namespace sssp::detail {
/// Throws NotImplemented naming the lab and the task. Out of line so the
/// skeleton's function still compiles to a normal, non-inlined throw.
/// `line` 0 names the file only (a kernel's task, found after the run).
[[noreturn]] void throw_todo(int lab, int task, const char* what, const char* file, int line);
}  // namespace sssp::detail

/// Marks an unfinished student task. It throws (independent of NDEBUG), so a
/// skeleton compiles, runs, and fails loudly at the first task it reaches:
/// "Lab 01, task 2 is not implemented yet: Dijkstra with lazy deletion (dijkstra.cpp:40)".
#define SSSP_TODO(lab, task, what) ::sssp::detail::throw_todo((lab), (task), (what), __FILE__, __LINE__)
