/// @file
/// @brief Lab 07 — locality-based relaxation (Safari and Ebnenasir, TTCS 2017,
/// Algorithms 6-9): each flagged vertex starts a depth-first wave of
/// relaxations up to k arcs deep, each thread owns several vertices, two flag
/// arrays alternate between launches, and most launches are "blind": queued
/// back to back without the host looking, optionally as one CUDA Graph.
///
/// A plain C++ header: the runner and the tests include it without nvcc.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "launch_policy.hpp"
#include "sssp/graph.hpp"
#include "sssp/result.hpp"
#include "sssp/types.hpp"

/// Lab 07: locality-based relaxation on the GPU.
namespace lab07 {

using sssp::CsrGraph;
using sssp::dist_t;
using sssp::SsspResult;
using sssp::vertex_t;

/// Options::blind_launches value that lets the solver choose N itself (see Options).
inline constexpr unsigned kLearnBlindLaunches = ~0u;

/// What one wave did: the answer of task 1's checkpoint, run_one_wave.
struct WaveResult {
  /// The distances after the wave, one per vertex.
  std::vector<dist_t> dist;
  /// One byte per vertex: 1 where the wave flagged the vertex for the next
  /// launch (improved at depth k), else 0.
  std::vector<std::uint8_t> next_flags;
  /// Vertices the wave expanded: its start and every vertex it went on from.
  unsigned long long expanded = 0;
  /// Arcs the wave tried, improving or not.
  unsigned long long arcs = 0;
  /// Whether the wave flagged any vertex.
  bool flagged = false;
};

/// Task 1's checkpoint (given code around task 1's relax_wave, in wave.cuh):
/// one GPU thread runs one wave from `start`, at most `depth` (k) arcs deep,
/// on `graph` with the distances `dist` (one per vertex; the wave starts from
/// `dist[start]`, which must be finite) and every next flag clear, and the
/// distances, flags and counters after it come back. No other task runs, so
/// task 1 can be tested alone. With one thread the result is exact: the wave
/// tries each vertex's out-arcs in CSR order and, depth-first, tries all the
/// arcs of a vertex it went on to before the next arc of the vertex below it.
/// Throws sssp::InputError for a `dist` of the wrong length, a `depth`
/// outside 1..kMaxDepth or an infinite `dist[start]`, sssp::InvalidSource for
/// a `start` that is not a vertex, and sssp::NotImplemented while task 1 is
/// the skeleton's stub.
[[nodiscard]] WaveResult run_one_wave(const CsrGraph& graph, const std::vector<dist_t>& dist, vertex_t start,
                                      unsigned depth);

/// FlagLaunchResult::started_by of a vertex no wave started from.
inline constexpr unsigned kNoThread = ~0u;

/// What one launch of task 2 did: the answer of task 2's checkpoint,
/// run_one_flag_launch. Every vector has one entry per flag (the vertices
/// rounded up to whole 4-byte words).
struct FlagLaunchResult {
  /// The flag array after the launch.
  std::vector<std::uint8_t> flags;
  /// Per vertex: the thread t (the owner of vertices t*P .. t*P + P - 1 in
  /// the kernel's grid-stride loop) that started a wave from it, or kNoThread.
  std::vector<unsigned> started_by;
  /// Per vertex: how many waves started from it.
  std::vector<unsigned> starts;
  /// The threads' work totals, added up.
  unsigned long long expanded = 0;
  /// The threads' arc totals, added up.
  unsigned long long arcs = 0;
  /// Whether any thread's total said it flagged.
  bool flagged = false;
};

/// Task 2's checkpoint (given code around task 2's start_waves): one launch
/// of task 2 over the flag array `flags` of `vertices` vertices (its length
/// is `vertices` rounded up to whole 4-byte words, the padding flags 0), with
/// `vertices_per_thread` (1, 2 or 4) vertices per thread in blocks of
/// `block_size` threads, as the solver's kernel runs it, except that a given
/// stand-in replaces relax_wave, so task 1 is not needed: the "wave" from
/// vertex u records which thread started it and returns the work
/// {expanded 1, arcs u + 1, flagged iff u % 3 == 2}. Throws
/// sssp::InputError for bad arguments and sssp::NotImplemented while task 2
/// is the skeleton's stub.
[[nodiscard]] FlagLaunchResult run_one_flag_launch(const std::vector<std::uint8_t>& flags, vertex_t vertices,
                                                   unsigned vertices_per_thread, unsigned block_size);

/// What task 3's checkpoint, run_launch_driver, scripts: stand-ins for
/// everything task 3's driver calls, so that no other task runs.
struct DriverScript {
  /// The run's need: stand-in launches 1 .. needed - 1 flag a vertex, launch
  /// `needed` and later ones flag nothing (1 to 100000).
  unsigned needed = 1;
  /// The stand-in policy's first_batch() (0 to kMaxBatch).
  unsigned first_batch = 0;
  /// The stand-in policy's next_batch() answers, in turn, the last one
  /// repeated (each 1 to kMaxBatch, at most 64 of them); empty: always 1.
  std::vector<unsigned> batches;
  /// Whether the driver is told to queue its first batch as one CUDA Graph.
  bool cuda_graph = false;
};

/// What task 3's driver did with the stand-ins: data, checked by the graded
/// tests, never a verdict.
struct DriverTrace {
  /// The launch numbers queued, in order: each stand-in launch, and 1 ..
  /// count for a call of the stand-in graph.
  std::vector<unsigned> launches;
  /// Calls of the stand-in graph (task 4's part).
  unsigned graph_calls = 0;
  /// The count given to the last call of the stand-in graph (0: none).
  unsigned graph_count = 0;
  /// Per look: the launches queued before it.
  std::vector<unsigned> look_after;
  /// Per next_batch call: its Look's queued.
  std::vector<unsigned> asked_queued;
  /// Per next_batch call: its Look's last_flagging.
  std::vector<unsigned> asked_last;
  /// The driver's counters: relaxation launches.
  unsigned long long iterations = 0;
  /// The driver's counters: kernel launches.
  unsigned long long kernel_launches = 0;
  /// The driver's counters: host syncs (looks counted).
  unsigned long long host_syncs = 0;
  /// What the driver returned (the last launch that flagged).
  unsigned returned = 0;
  /// The stand-ins stopped the driver: more than needed + 2 kMaxBatch
  /// launches or 100000 looks (a driver that does not stop).
  bool runaway = false;
};

/// Task 3's checkpoint (given code around task 3's drive_launches): runs
/// task 3's driver, on the host, with stand-ins set by `script` for the
/// launches (they only record their number), the CUDA Graph of task 4, the
/// look (it returns the largest launch number queued below script.needed, or
/// 0) and the policy of task 5. No GPU is needed and no other task runs.
/// Throws sssp::InputError for a script out of range and
/// sssp::NotImplemented while task 3 is the skeleton's stub.
[[nodiscard]] DriverTrace run_launch_driver(const DriverScript& script);

/// What task 4's checkpoint, run_blind_graph, saw: one entry per count
/// asked for (launch_numbers holds them all, launch_counts[i] of them per call).
struct GraphTrace {
  /// The launch numbers the GPU ran, in order, every call's after another.
  std::vector<unsigned> launch_numbers;
  /// Per call: how many of launch_numbers it ran.
  std::vector<unsigned> launch_counts;
  /// Per call: the stand-in launch_relax calls.
  std::vector<unsigned> relax_calls;
  /// Per call: the stand-in launch_relax calls made while the stream was being captured.
  std::vector<unsigned> captured_calls;
  /// Per call: what it added to the counters' kernel launches.
  std::vector<unsigned> kernel_launches;
  /// Per call: what it added to the counters' iterations.
  std::vector<unsigned> iterations;
  /// Per call: the BlindGraph's launches after it.
  std::vector<unsigned> graph_launches;
  /// Per call: 1 if the BlindGraph held an executable graph after it, else 0.
  std::vector<unsigned> has_graph;
};

/// Task 4's checkpoint (given code around task 4's launch_blind_graph): calls
/// it once per entry of `counts` (each 1 to 1024, at most 16 entries) on one
/// stream and one BlindGraph, with a stand-in for launch_relax whose kernel
/// only logs its launch number, so no other task runs, and returns what ran.
/// Throws sssp::InputError for bad counts, sssp::CudaError without a GPU,
/// and sssp::NotImplemented while task 4 is the skeleton's stub.
[[nodiscard]] GraphTrace run_blind_graph(const std::vector<unsigned>& counts);

/// What task 5's checkpoint, simulate_policy, saw: per run, and every batch.
struct PolicyTrace {
  /// Per run: first_batch().
  std::vector<unsigned> first;
  /// Per run: the launches queued in all.
  std::vector<unsigned> queued;
  /// Per run: the looks.
  std::vector<unsigned> looks;
  /// Every next_batch() answer, in order (as given, even out of range).
  std::vector<unsigned> batches;
  /// The run (from 0) each entry of batches came in.
  std::vector<unsigned> batch_run;
};

/// Task 5's checkpoint (given code): one fresh LaunchPolicy drives runs that
/// need `needed[i]` launches, as task 3's driver would (first_batch, at least
/// one launch, a look, next_batch while the latest launch flagged, then
/// finished), on the host without a GPU, and what it decided comes back. An
/// answer out of range is recorded as given and then taken as 1 (or
/// kMaxBatch), so the simulation goes on; a run stops after 100000 looks.
/// Throws sssp::InputError for a need of 0 or over 10^7 or more than 1000
/// runs, and sssp::NotImplemented while task 5 is the skeleton's stub.
[[nodiscard]] PolicyTrace simulate_policy(const std::vector<unsigned>& needed);

/// What task 6's checkpoint, simulate_tuner, plays: the cost of each
/// configuration, run by run, and the runs that measure more than it.
struct TunerScript {
  /// The configuration the tuner is built with (valid_config).
  Config start;
  /// Runs to play: 1 to 1000.
  unsigned runs = 1;
  /// Per configuration (config_index), its cost in ms: kConfigs entries, each positive.
  std::vector<double> costs;
  /// From this run on, later_costs replaces costs (runs or more: never).
  unsigned change_at = ~0u;
  /// The costs from run change_at on: kConfigs positive entries, or empty when change_at is never reached.
  std::vector<double> later_costs;
  /// The runs that measure outlier_factor times their cost (the outliers), in any order.
  std::vector<unsigned> outliers;
  /// What an outlier measures, in multiples of its cost: 1 to 4.
  double outlier_factor = 1;
};

/// What task 6's checkpoint saw, per run.
struct TunerTrace {
  /// Per run: next()'s k, as given (even out of range).
  std::vector<unsigned> depth;
  /// Per run: next()'s vertices per thread, as given (even out of range).
  std::vector<unsigned> vertices_per_thread;
  /// Per run: the time given to measured().
  std::vector<double> measured;
};

/// Task 6's checkpoint (given code): one ConfigTuner built with script.start
/// plays script.runs runs, as the solver would (next(), the run, then
/// measured(used, ms) with the script's cost of that configuration, times
/// outlier_factor for an outlier), on the host without a GPU, and what it
/// chose comes back. A configuration out of range is recorded as given and
/// played as the start's. Throws sssp::InputError for a script out of range
/// and sssp::NotImplemented while task 6 is the skeleton's stub.
[[nodiscard]] TunerTrace simulate_tuner(const TunerScript& script);

/// How the solver runs. Every combination computes the same distances; they
/// differ in work, launches and host round trips.
struct Options {
  unsigned block_size = 256;  ///< Threads per block, 1 to 1024.
  /// k: arcs a wave may go from its start, 1 to kMaxDepth. The paper's best
  /// was 4 on a GT 630; 2 is the reference's best on road graphs on an H100.
  unsigned depth = 2;
  /// Vertices each thread owns: 1, 2 or 4. The paper's best was 2; on an
  /// H100, 1 is best on road graphs and 4 on grids (see the handout).
  unsigned vertices_per_thread = 1;
  /// N: launches queued before the host first looks, then one launch per
  /// look. kLearnBlindLaunches lets the solver's LaunchPolicy (task 5) choose
  /// N and the batches between later looks, learning from earlier runs.
  unsigned blind_launches = kLearnBlindLaunches;
  /// Queue the N blind launches as one CUDA Graph (one submission) instead of N launches.
  bool cuda_graph = false;
  /// Let the solver's ConfigTuner (task 6) choose k and the vertices per
  /// thread of each run from the times of earlier runs, starting from depth
  /// and vertices_per_thread. Off: every run uses depth and vertices_per_thread.
  bool tune = false;
};

/// Throws sssp::InputError naming the first bad field of `options`.
void validate(const Options& options);

/// Locality-based relaxation SSSP. The constructor copies the graph to the
/// GPU once; run() solves from one source.
class LocalitySssp {
 public:
  /// Checks `options`, checks that the graph and the per-run arrays fit the
  /// GPU's free memory (sssp::CudaError with the bytes needed and free), and
  /// uploads `graph`. Throws sssp::InputError for bad options.
  explicit LocalitySssp(const CsrGraph& graph, Options options = {});
  ~LocalitySssp();
  LocalitySssp(const LocalitySssp&) = delete;
  LocalitySssp& operator=(const LocalitySssp&) = delete;

  /// Distances from `source` (sssp::kInfinity where unreachable). Throws
  /// sssp::InvalidSource for a bad source. Counters: iterations = relaxation
  /// launches (blind ones included), kernel_launches = those plus the
  /// initialisation, host_syncs = times the host read the launch word,
  /// vertices_processed = waves' vertices expanded (a wave's start and every
  /// vertex it went on from), edges_relaxed = arcs the waves examined.
  /// device_ms: initialisation to the last launch, host round trips included.
  [[nodiscard]] SsspResult run(vertex_t source);

  /// The N the next run will use (with kLearnBlindLaunches, the policy's first_batch()).
  [[nodiscard]] unsigned next_blind_launches() const;

  /// The k and vertices per thread the next run will use (with Options::tune, the tuner's next()).
  [[nodiscard]] Config next_config() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace lab07
