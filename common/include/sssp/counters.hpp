/// @file
/// @brief Work counters every algorithm reports, so students can compare
/// algorithms by the work they do, not only by time.
#pragma once

#include <cstdint>

namespace sssp {

/// What an algorithm did. An algorithm fills the fields that mean something
/// for it and leaves the rest 0; the runner prints them and the tests check
/// some (for example Bellman-Ford's early-exit round count).
struct Counters {
  std::uint64_t iterations = 0;          ///< Rounds, passes or host-loop iterations.
  std::uint64_t vertices_processed = 0;  ///< Vertices taken from a queue or frontier and expanded.
  std::uint64_t edges_relaxed = 0;       ///< Arcs examined by a relaxation.
  std::uint64_t distance_updates = 0;    ///< Relaxations that lowered a distance.
  std::uint64_t kernel_launches = 0;     ///< GPU kernels launched (GPU labs).
  std::uint64_t host_syncs = 0;          ///< Host waits on the device (GPU labs).
};

}  // namespace sssp
