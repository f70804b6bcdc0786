/// @file
/// @brief The performance item's timed runs (docs/design/perf-grading.md):
/// a lab's `Perf.*` test times its solver on the item's graphs from this,
/// the trusted side, and records what it saw for tests/grade.py.
///
/// Each solve is timed here, by this process's steady clock around one
/// call of the solver (through the worker, the request, the student's whole
/// solve and the answer coming back), from a source drawn at random after
/// the previous answer came back, and every answer is checked against the
/// reference Dijkstra outside the timed interval. What the solver does before
/// its first timed call (construction, the upload, the warm-up solves) is
/// timed the same way, as its setup: tests/grade.py charges a setup far over
/// the reference's to the timed solves, so an answer cannot be bought there. Nothing the solver
/// prints or returns is a time. Asked to (the reference's runs only), it
/// also times calls of the worker runtime's null solver the same way: what a
/// call costs besides the solve, which tests/grade.py takes out of both
/// sides' times. The worker's CPU time around each call,
/// read from the kernel's accounts of its processes, tells a GPU solver from
/// one that solves on the CPU.
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "sssp_test.hpp"

namespace sssp::test {

/// What the grader asks the `Perf.*` tests for, from the lab's rubric
/// ("perf" entry): graphs, warm-up solves and timed repeats per graph.
struct PerfSettings {
  /// Generator specs ("grid:1000x1000", the runner's `--gen` form) or data
  /// files ("file:USA-road-NY.gr.gz", read from SSSP_DATA_DIR).
  std::vector<std::string> graphs;
  /// The solvers timed on some of the graphs only: solver name -> the
  /// indices into `graphs` it is timed on. A solver not named here is timed
  /// on every graph (lab 08 times Chen's delta-stepping on R-MAT alone,
  /// where its own work, not the host's bucket loop, is what takes the time).
  std::map<std::string, std::vector<std::size_t>> solver_graphs;
  int warmup = 1;   ///< Untimed solves before the timed ones (first-touch costs, clocks).
  int repeats = 2;  ///< Timed solves per graph.
  /// Also time the null solver's calls after each graph's timed solves
  /// (set_call_cost_solver): the grader asks it of the reference's runs.
  bool call_cost = false;

  /// Whether `solver` is timed on graphs[index].
  [[nodiscard]] bool times(const std::string& solver, std::size_t index) const;
};

/// The settings from the environment tests/grade.py sets (SSSP_PERF_GRAPHS,
/// a ';'-separated list, SSSP_PERF_SOLVER_GRAPHS, "<solver>=<index>,<index>"
/// entries separated by ';', SSSP_PERF_WARMUP, SSSP_PERF_REPEATS,
/// SSSP_PERF_CALL_COST 1 or 0); without it a
/// small smoke run (one 64x64 grid, 1 warm-up, 2 repeats) that checks the
/// timed path works. Throws sssp::InputError on malformed values.
[[nodiscard]] PerfSettings perf_settings();

/// Solves from a source and returns the distances: one call of a lab's
/// solver, made by a factory that constructs it (the upload; timed as setup).
using PerfSolve = std::function<std::vector<dist_t>(vertex_t source)>;

/// Times `solver` ("FrontierSssp") on every graph of perf_settings() that
/// PerfSettings::times gives it: for each, `make` builds the solver, then warm-up and timed solves from random
/// sources, each answer checked. Records one GoogleTest property per graph,
/// "perf_<solver>_<index>" (a name XML takes as an attribute), its value
/// "<graph> | setup <construct_ms>/<warmup_ms> | " then the timed repeats as
/// "wall_ms/cpu_ms/ok" separated by spaces (the setup: the wall time of
/// `make` and the sum of the warm-up solves'), or "<graph> | missing: <why>"
/// for a data file that is not there. A wrong answer fails the test with the
/// teaching message and ends that graph's runs (recorded with ok 0). With
/// PerfSettings::call_cost and a call-cost solver installed, the record ends
/// with " | call " and the wall times in ms of `repeats` calls of that solver
/// on the same graph (after `warmup` untimed ones), timed like the solves.
void time_solver_on_perf_graphs(const std::string& solver, const std::function<PerfSolve(const NamedGraph&)>& make);

/// The CPU time, in seconds, that the code under test has used so far: by
/// default this process's own (the in-process test programs); an isolated
/// test program installs the worker's (set_solver_cpu_clock). Negative when
/// it cannot be read.
[[nodiscard]] double solver_cpu_seconds();

/// Makes solver_cpu_seconds() read `clock` (default_worker.cpp installs the
/// worker's process tree).
void set_solver_cpu_clock(double (*clock)());

/// Makes time_solver_on_perf_graphs() call `wait` before it times a
/// solver's construction, so that the code under test is ready to be timed
/// (default_worker.cpp installs a round trip to the worker, which answers
/// once its CUDA context exists: that start-up is the grader's, not the
/// solver's setup). By default nothing to wait for.
void set_solver_ready_wait(void (*wait)());

/// Makes time_solver_on_perf_graphs() time `make`'s solver when asked for
/// the call's cost (PerfSettings::call_cost): a solver with the solve's call
/// path and no solve (default_worker.cpp installs the worker runtime's null
/// solver). By default none, and nothing is recorded.
void set_call_cost_solver(PerfSolve (*make)(const NamedGraph&));

}  // namespace sssp::test
