/// @file
/// @brief The CPU time a process and everything it started have used, read
/// from the kernel's accounts in /proc, which the process cannot forge: how
/// the performance item tells a GPU solve from a CPU one
/// (docs/design/perf-grading.md).
#pragma once

#include <sys/types.h>

namespace sssp::rpc {

/// The CPU time, in seconds, of `root` and all its descendants: user and
/// system, every thread (live threads to the nanosecond, from
/// /proc/<pid>/task/<tid>/schedstat; whole clock ticks from /proc/<pid>/stat
/// where those are more, as they also hold threads that ended), and the
/// children they have reaped. Negative when /proc cannot be listed or `root`
/// is not in it. A process that ends while /proc is listed is skipped: its
/// time is then in its parent's reaped-children time.
[[nodiscard]] double process_tree_cpu_seconds(pid_t root);

}  // namespace sssp::rpc
