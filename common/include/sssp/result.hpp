/// @file
/// @brief RunResult: what one run of a solver returns. Every solver of the
/// course answers with the same three things, so the runner, the tests and
/// the benchmarks read them the same way.
#pragma once

#include <vector>

#include "sssp/counters.hpp"
#include "sssp/types.hpp"

namespace sssp {

/// The answer of one run from one source, with the work it took and its time.
/// @tparam Value dist_t for SSSP (distances, kInfinity where unreachable) or
///         level_t for BFS (levels, kUnreached where unreachable)
template <typename Value>
struct RunResult {
  std::vector<Value> values;  ///< One per vertex, indexed by vertex id.
  Counters counters;          ///< Work done; which fields mean something is documented per solver.
  /// GPU time of the run by CUDA events, in ms, excluding the one-time upload
  /// of the graph and the download of `values`; negative for CPU solvers,
  /// which the runner times with a host clock.
  double device_ms = -1.0;
};

/// What an SSSP solver returns: distances.
using SsspResult = RunResult<dist_t>;
/// What a BFS solver returns: levels.
using BfsResult = RunResult<level_t>;

}  // namespace sssp
