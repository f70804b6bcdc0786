/// @file
/// @brief Lab 04 — Dijkstra with a reduction-based ExtractMin (Chen, section 3,
/// Algorithm 1 and Table 1): an arg-min reduction developed in five stages and
/// raced against CUB, then the O(V^2 / t) Dijkstra built on it.
///
/// A plain C++ header: the runner, the tests and the benchmark include it
/// without nvcc. The device state lives behind a pointer to an implementation.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <string_view>

#include "sssp/counters.hpp"
#include "sssp/graph.hpp"
#include "sssp/result.hpp"
#include "sssp/types.hpp"

/// Lab 04: reduction-based ExtractMin and the Dijkstra built on it.
namespace lab04 {

using sssp::Counters;
using sssp::CsrGraph;
using sssp::dist_t;
using sssp::SsspResult;
using sssp::vertex_t;

/// Index of "no element": the arg-min of nothing, and the index that padding
/// carries so that a real element always wins a tie against it.
inline constexpr std::uint32_t kNoIndex = std::numeric_limits<std::uint32_t>::max();

/// The result of an arg-min: the smallest key, and the smallest index that
/// holds it (ties go to the smaller index, so the answer is unique).
struct ArgMin {
  dist_t key = sssp::kInfinity;    ///< Smallest key.
  std::uint32_t index = kNoIndex;  ///< Smallest position holding `key`.
  /// Both fields equal.
  friend bool operator==(const ArgMin&, const ArgMin&) = default;
};

/// What one arg-min run returns: the answer, the work it took and its time,
/// as sssp::RunResult does for a solve.
struct ReductionResult {
  ArgMin argmin;  ///< The arg-min of the keys.
  /// kernel_launches and iterations: the launches of the reduction (one per
  /// pass); zero for CUB, whose launches are its own.
  Counters counters;
  /// GPU time of the reduction by CUDA events, in ms, excluding the read-back
  /// of the answer.
  double device_ms = -1.0;
};

/// The stages of the reduction, after the classic sequence of CUDA reduction
/// optimisations that Chen's section 3.2 builds on.
enum class Stage : int {
  kInterleaved = 1,          ///< Interleaved addressing; active threads are tid % 2s == 0 (divergent).
  kSequential = 2,           ///< Sequential addressing: threads 0 .. s-1 stay active, no divergence.
  kFirstStepDuringLoad = 3,  ///< Each thread combines two elements as it loads: half the blocks.
  kWarpShuffle = 4,          ///< Warps reduce by shuffles: no shared memory or barrier inside a warp.
  kManyPerThread = 5,        ///< Grid-stride: each thread folds many elements; one launch in all.
};

/// Every stage, in order.
inline constexpr Stage kAllStages[] = {Stage::kInterleaved, Stage::kSequential, Stage::kFirstStepDuringLoad,
                                       Stage::kWarpShuffle, Stage::kManyPerThread};

/// A short name of `stage`, e.g. "3 first step during load".
[[nodiscard]] constexpr std::string_view stage_name(Stage stage) {
  switch (stage) {
    case Stage::kInterleaved: return "1 interleaved";
    case Stage::kSequential: return "2 sequential";
    case Stage::kFirstStepDuringLoad: return "3 first step during load";
    case Stage::kWarpShuffle: return "4 warp shuffle";
    case Stage::kManyPerThread: return "5 many per thread";
  }
  return "unknown stage";
}

/// Launch configuration of the reductions.
struct ReduceOptions {
  unsigned block_size = 256;  ///< Threads per block: a power of two, 32 to 1024.
};

/// Arg-min over an array of keys on the GPU, by any stage, and by CUB as the
/// baseline. Stages 1-4 reduce each block to one (key, index) pair and launch
/// again on the pairs until one is left; stage 5 needs one launch.
class ArgMinReduction {
 public:
  /// Uploads `keys` (synchronously) and allocates the scratch space. Throws
  /// sssp::InputError for an empty array, 2^32 - 1 or more keys or an
  /// illegal block size, sssp::CudaError without a usable GPU.
  explicit ArgMinReduction(std::span<const dist_t> keys, ReduceOptions options = {});
  ~ArgMinReduction();
  ArgMinReduction(const ArgMinReduction&) = delete;
  ArgMinReduction& operator=(const ArgMinReduction&) = delete;

  /// The arg-min of the keys by `stage`. Throws sssp::NotImplemented if a
  /// kernel of the stage is still the skeleton's stub.
  [[nodiscard]] ReductionResult run(Stage stage);

  /// The arg-min by cub::DeviceReduce::ArgMin, timed the same way.
  [[nodiscard]] ReductionResult run_cub();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// Launch configuration of the Dijkstra.
struct DijkstraOptions {
  unsigned block_size = 256;  ///< Threads per block: a power of two, 32 to 1024.
  /// Rounds launched between two looks at the result. Every round extracts
  /// one vertex; rounds after the last are cheap no-ops, so looking less
  /// often saves host round trips at the price of a few wasted rounds.
  unsigned rounds_per_check = 32;
};

/// Throws sssp::InputError naming the first option outside the range its
/// comment above states. The constructor calls it first; the runner calls it
/// before it loads a graph, so a bad flag fails at once.
void validate(const DijkstraOptions& options);

/// Chen's Algorithm 1 on the GPU: each round, a stage-5 arg-min over the
/// unsettled vertices extracts one vertex u (ties: smallest id), and a second
/// kernel relaxes u's out-arcs in parallel. The loop ends when the extracted
/// distance is infinite. O(V) rounds of O(V / t) work each: O(V^2 / t).
class ExtractMinDijkstra {
 public:
  /// Uploads `graph` and allocates the per-run arrays. Throws
  /// sssp::InputError for an illegal block size or rounds_per_check of 0.
  explicit ExtractMinDijkstra(const CsrGraph& graph, DijkstraOptions options = {});
  ~ExtractMinDijkstra();
  ExtractMinDijkstra(const ExtractMinDijkstra&) = delete;
  ExtractMinDijkstra& operator=(const ExtractMinDijkstra&) = delete;

  /// Distances from `source` (sssp::kInfinity where unreachable). Throws
  /// sssp::InvalidSource for a bad source, and sssp::AlgorithmError past
  /// 2 x (vertices + rounds_per_check) rounds (a settled vertex came out of Q
  /// again, or the loop does not stop). Counters: iterations = rounds
  /// launched (including the no-op rounds after the last extraction),
  /// vertices_processed = vertices extracted, kernel_launches = every launch
  /// including initialisation, host_syncs = looks at the result. device_ms:
  /// from initialisation to the last look, the host round trips included.
  [[nodiscard]] SsspResult run(vertex_t source);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace lab04
