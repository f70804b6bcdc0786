/// @file
/// @brief Lab 08 — delta-stepping on the GPU, two ways: Chen's CUDA
/// delta-stepping (a bucket index per vertex, requests compacted by a prefix
/// sum, light and heavy arcs told apart at relax time) and Near-Far (Davidson
/// et al., as Wang, Fussell and Lin describe it: two pre-allocated worklists
/// split by a threshold that advances by delta, driven by the GPU itself).
///
/// A plain C++ header: the runner and the tests include it without nvcc. The
/// graded tests' hooks into the given checkpoint kernels are in lab08_testing.hpp.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "sssp/graph.hpp"
#include "sssp/result.hpp"
#include "sssp/types.hpp"

/// Lab 08: delta-stepping and Near-Far on the GPU.
namespace lab08 {

using sssp::CsrGraph;
using sssp::dist_t;
using sssp::SsspResult;
using sssp::vertex_t;

/// Chen's bucket index BIndex(v): dist / delta, which can pass 2^32 for a small delta.
using bucket_t = unsigned long long;
/// The bucket index of a vertex in no bucket.
inline constexpr bucket_t kNoBucket = ~bucket_t{0};

/// How a solver picks delta, the width of a bucket, from the graph.
enum class DeltaRule {
  kMedianWeight,           ///< Chen 5.6 (1): the median arc weight.
  kTotalWeightPerVertex,   ///< Chen 5.6 (2): the sum of all arc weights divided by n.
  kMaxWeightPerMaxDegree,  ///< Chen 5.6 (3), Chen's choice: the largest weight divided by the largest out-degree.
  kNearFar,                ///< Near-Far: C x (average weight W) / (average out-degree D).
};

/// The rule's name as the handout and the runner write it, e.g. "max-weight/max-degree".
[[nodiscard]] std::string to_string(DeltaRule rule);

/// Delta for `graph` by `rule`, rounded down to a whole number and at least 1
/// (a bucket must hold a distance range; a graph without arcs, or with only
/// zero weights, gets 1). The median of an even count is the lower middle
/// weight. `c` is the constant C of kNearFar and is ignored by the other rules.
/// Throws sssp::InputError when `c` is not a positive finite number.
[[nodiscard]] dist_t choose_delta(const CsrGraph& graph, DeltaRule rule, double c = 1.0);

/// How DeltaSteppingSssp runs.
struct DeltaSteppingOptions {
  unsigned block_size = 256;  ///< Threads per block, 1 to 1024.
  /// Bucket width; 0 picks it with `rule`. Any positive value is allowed: one
  /// at least the largest distance puts everything in bucket 0 (Bellman-Ford).
  dist_t delta = 0;
  DeltaRule rule = DeltaRule::kMaxWeightPerMaxDegree;  ///< The rule when delta is 0 (kNearFar uses C = 1).
};

/// Throws sssp::InputError naming the first option outside the range its
/// comment above states. The constructor calls it first; the runner calls it
/// before it loads a graph, so a bad flag fails at once.
void validate(const DeltaSteppingOptions& options);

/// Chen's CUDA delta-stepping (section 5). The constructor copies the graph
/// to the GPU once; run() solves from one source.
class DeltaSteppingSssp {
 public:
  /// Checks `options` (sssp::InputError naming the bad value), checks that the
  /// graph and the per-run arrays fit the GPU's free memory (sssp::CudaError
  /// with the bytes needed and free), picks delta and uploads `graph`.
  explicit DeltaSteppingSssp(const CsrGraph& graph, DeltaSteppingOptions options = {});
  ~DeltaSteppingSssp();
  DeltaSteppingSssp(const DeltaSteppingSssp&) = delete;
  DeltaSteppingSssp& operator=(const DeltaSteppingSssp&) = delete;

  /// Distances from `source` (sssp::kInfinity where unreachable). Throws
  /// sssp::InvalidSource for a bad source. Counters: iterations = light
  /// rounds (requests compacted and relaxed), vertices_processed = vertices
  /// taken out of a bucket, edges_relaxed = arcs offered (light arcs in light
  /// rounds, heavy arcs once per bucket), kernel_launches (each CUB call counted as one),
  /// host_syncs. device_ms: the whole run, host round trips included.
  [[nodiscard]] SsspResult run(vertex_t source);

  /// The bucket width the solver uses.
  [[nodiscard]] dist_t delta() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// How NearFarSssp runs.
struct NearFarOptions {
  unsigned block_size = 256;  ///< Threads per block, 1 to 1024, a multiple of lanes_per_item.
  /// Bucket width; 0 picks C x W / D (DeltaRule::kNearFar). Any positive value
  /// is allowed: one at least the largest distance makes Near-Far a
  /// worklist Bellman-Ford.
  dist_t delta = 0;
  /// The constant C of the static delta. 64 is the reference's choice on an
  /// H100 (the handout's sweep): the fastest that keeps the vertices
  /// processed within 3x Dijkstra's on road graphs.
  double c = 64.0;
  /// Threads that expand one near item together, taking its arcs in turn: a
  /// power of two up to 32 that divides block_size. A whole warp was fastest
  /// on every graph the handout measures, even at out-degree 4.
  unsigned lanes_per_item = 32;
  /// Step launches queued before the host looks whether the run is done; the
  /// GPU decides what each launch does, so the host only ever looks.
  unsigned rounds_per_check = 64;
};

/// Throws sssp::InputError naming the first option outside the range its
/// comment above states. The constructor calls it first; the runner calls it
/// before it loads a graph, so a bad flag fails at once.
void validate(const NearFarOptions& options);

/// Near-Far on the GPU. The constructor copies the graph once and allocates
/// the worklists (near and far, n slots each: deduplication bounds them);
/// run() solves from one source.
class NearFarSssp {
 public:
  /// Checks `options` (sssp::InputError naming the bad value), checks that the
  /// graph and the worklists fit the GPU's free memory (sssp::CudaError with
  /// the bytes needed and free), picks delta and uploads `graph`.
  explicit NearFarSssp(const CsrGraph& graph, NearFarOptions options = {});
  ~NearFarSssp();
  NearFarSssp(const NearFarSssp&) = delete;
  NearFarSssp& operator=(const NearFarSssp&) = delete;

  /// Distances from `source` (sssp::kInfinity where unreachable). Throws
  /// sssp::InvalidSource for a bad source, and sssp::AlgorithmError if a worklist
  /// overflowed (only a broken deduplication can make it: never silent).
  /// Counters: iterations = near rounds plus far splits (the launches that
  /// did work), vertices_processed = near items expanded (the ADDS paper's
  /// work count; a stale copy skipped is not counted), edges_relaxed = their
  /// arcs, kernel_launches = every launch (the initialisation, and the idle
  /// launches queued after the end), host_syncs = looks. device_ms: the whole run.
  [[nodiscard]] SsspResult run(vertex_t source);

  /// The bucket width the solver uses.
  [[nodiscard]] dist_t delta() const;

  /// Far splits of the last run: how many times the threshold advanced.
  [[nodiscard]] unsigned long long last_splits() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// Near-Far's loop state rotates through this many copies (near_far.cu says why three).
inline constexpr unsigned kLoopCopies = 3;

}  // namespace lab08
