/// @file
/// @brief How the runner measures an algorithm from one source: warm-up and
/// timed repetitions, the median time, MTEPS, the counters and the
/// certificate check of the answer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "registry.hpp"
#include "sssp/counters.hpp"
#include "sssp/graph.hpp"

namespace sssp::runner {

/// One row of the runner's report: an algorithm from one source, measured,
/// or why it did not run.
struct Measurement {
  const Algorithm* algorithm = nullptr;  ///< what ran
  vertex_t source = 0;                   ///< from where
  std::vector<double> times_ms;          ///< each timed repetition's time
  /// One per timed repetition: runs of an asynchronous solver differ.
  std::vector<Counters> counters_per_run;
  double median_ms = 0;               ///< the median of times_ms
  double mteps = 0;                   ///< edges_traversed over median_ms, in millions per second
  std::uint64_t edges_traversed = 0;  ///< arcs leaving the vertices the last repetition reached
  Counters counters;                  ///< the last repetition's
  std::size_t peak_device_bytes = 0;  ///< the most device memory in use at once, over all repetitions
  bool verified = false;              ///< the certificate check passed
  bool checked = false;               ///< the certificate check ran (no --no-verify)
  std::string verdict;                ///< "correct", or what the check found wrong
  std::string error;                  ///< the run failed: why
  std::string skipped;                ///< why the algorithm did not run (no GPU, a graph it does not take)
};

/// How many times measure() runs an algorithm, and what it does beside.
struct Repetitions {
  unsigned warmup = 1;    ///< untimed runs first
  unsigned reps = 3;      ///< timed runs after them
  bool progress = false;  ///< report each run on stderr
  bool verify = true;     ///< check the last run's answer
};

/// Runs `run` from `source` `repetitions.warmup` times untimed and then
/// `repetitions.reps` times timed (device time by CUDA events where the run
/// reports it, else a steady host clock), and checks the last answer's
/// certificate on `graph`. `answer`, if not null, receives the output of
/// the last repetition. Whatever `run` throws passes through.
[[nodiscard]] Measurement measure(const Algorithm& algorithm, const PreparedRun& run, const CsrGraph& graph,
                                  vertex_t source, const Repetitions& repetitions, RunOutput* answer);

}  // namespace sssp::runner
