/// @file
/// @brief Lab 05 — Bellman-Ford on complete graphs with CUDA streams, after
/// "Bellman-Ford on the GPU for complete graphs": an adjacency matrix relaxed
/// by a two-dimensional grid of threads, made work-efficient (active-vertex
/// mask, early exit), with the matrix transfer split across K streams so that
/// the first round starts on each part as it arrives. Multithreaded CPU
/// versions of the naive and the work-efficient algorithm are the baselines.
///
/// A plain C++ header: the runner, the tests and the benchmark include it
/// without nvcc. The device state lives behind a pointer to an implementation.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sssp/counters.hpp"
#include "sssp/graph.hpp"
#include "sssp/result.hpp"
#include "sssp/types.hpp"

/// Lab 05: dense Bellman-Ford, work efficiency and copy/compute overlap.
namespace lab05 {

using sssp::Counters;
using sssp::CsrGraph;
using sssp::dist_t;
using sssp::SsspResult;
using sssp::vertex_t;
using sssp::weight_t;

/// The matrix entry of a pair of vertices without an arc. It is the largest
/// weight_t, and a DenseGraph refuses to store it as a weight, so "no arc"
/// can never be confused with an arc (0 is a legal weight, so it cannot mark
/// "no arc").
inline constexpr weight_t kNoEdge = std::numeric_limits<weight_t>::max();

/// Most vertices a DenseGraph may have: 65535^2 weights are 16 GiB.
inline constexpr vertex_t kMaxDenseVertices = 65535;

/// Where the host copy of a matrix lives.
enum class HostMemory {
  kPageable,  ///< Ordinary memory: copies to the GPU are staged by the driver and cannot overlap kernels.
  kPinned,    ///< Page-locked (cudaMallocHost): copies run asynchronously, by DMA. Needs a GPU.
};

/// A directed graph as an n x n adjacency matrix in row-major order: the
/// entry at row u, column v is the weight of the arc u -> v, or kNoEdge.
/// Row u is the out-arcs of u, stored contiguously, so a part of the matrix
/// made of whole rows is one contiguous block of memory to copy.
class DenseGraph {
 public:
  /// An n x n matrix without arcs. Throws sssp::InputError if n exceeds
  /// kMaxDenseVertices or the memory cannot be had, sssp::CudaError if
  /// pinned memory is asked for without a usable GPU.
  explicit DenseGraph(vertex_t n, HostMemory memory = HostMemory::kPageable, std::string name = "dense graph");
  ~DenseGraph();
  DenseGraph(DenseGraph&& other) noexcept;
  DenseGraph& operator=(DenseGraph&& other) noexcept;
  DenseGraph(const DenseGraph&) = delete;
  DenseGraph& operator=(const DenseGraph&) = delete;

  /// The matrix of `graph`: of parallel arcs the lightest is kept (the only
  /// one a shortest path can use), self-loops included. Throws
  /// sssp::InputError if an arc weighs kNoEdge.
  [[nodiscard]] static DenseGraph from_csr(const CsrGraph& graph, HostMemory memory = HostMemory::kPageable);

  /// A complete directed graph without self-loops whose weight u -> v is
  /// 1 + (hash of seed, u, v) mod max_weight: the paper's random complete
  /// graphs, reproducible, filled by all cores.
  [[nodiscard]] static DenseGraph random_complete(vertex_t n, std::uint64_t seed, weight_t max_weight = 1000,
                                                  HostMemory memory = HostMemory::kPageable);

  /// Number of vertices (rows, and columns).
  [[nodiscard]] vertex_t num_vertices() const { return n_; }
  /// Weight of u -> v, or kNoEdge.
  [[nodiscard]] weight_t weight(vertex_t u, vertex_t v) const { return data_[index(u, v)]; }
  /// Sets the weight of u -> v. Throws sssp::InputError for a vertex out of
  /// range or a weight equal to kNoEdge.
  void set_weight(vertex_t u, vertex_t v, weight_t w);
  /// Removes the arc u -> v (the entry becomes kNoEdge).
  void remove_arc(vertex_t u, vertex_t v);
  /// Row u: the weights of u -> 0 .. n-1.
  [[nodiscard]] std::span<const weight_t> row(vertex_t u) const { return {data_ + index(u, 0), n_}; }
  /// The whole matrix, row-major, n * n entries.
  [[nodiscard]] const weight_t* data() const { return data_; }
  /// Size of the matrix in bytes.
  [[nodiscard]] std::size_t bytes() const { return static_cast<std::size_t>(n_) * n_ * sizeof(weight_t); }
  /// Where the matrix lives.
  [[nodiscard]] HostMemory memory() const { return memory_; }
  /// Human-readable origin, used in messages.
  [[nodiscard]] const std::string& name() const { return name_; }
  /// The same graph as a CSR (one arc per entry other than kNoEdge), for the
  /// reference algorithms.
  [[nodiscard]] CsrGraph to_csr() const;

 private:
  [[nodiscard]] std::size_t index(vertex_t u, vertex_t v) const { return static_cast<std::size_t>(u) * n_ + v; }
  void release() noexcept;

  vertex_t n_ = 0;
  weight_t* data_ = nullptr;
  HostMemory memory_ = HostMemory::kPageable;
  std::string name_;
};

/// The two algorithms of the paper. Both run Bellman-Ford in synchronous
/// rounds: round r reads the distances of round r - 1 and writes new ones,
/// so after round r every distance is the shortest over paths of at most r
/// arcs, on the CPU and the GPU alike, whatever the thread timing.
enum class Variant {
  kNaive,          ///< Every row every round, |V| - 1 rounds.
  kWorkEfficient,  ///< Only the rows of vertices whose distance changed in the last round; stops after a round without change.
};

/// "naive" or "work-efficient".
[[nodiscard]] constexpr std::string_view variant_name(Variant variant) {
  return variant == Variant::kNaive ? "naive" : "work-efficient";
}

/// Options of the multithreaded CPU baseline.
struct CpuOptions {
  Variant variant = Variant::kWorkEfficient;  ///< Which algorithm.
  unsigned threads = 0;                       ///< Worker threads; 0 means one per hardware thread.
  /// Stop after this many rounds even if distances may still change (0: no
  /// limit but |V| - 1). Benchmarks time a few rounds of the naive version,
  /// whose full run would take hours, and scale; the answer is then not final.
  std::uint64_t max_rounds = 0;
};

/// The multithreaded CPU baseline: the columns are split among the threads,
/// and each thread relaxes every (active) row over its own columns, so no two
/// threads write one distance and no atomics are needed.
/// @param counters if not null: iterations = rounds, vertices_processed = rows
///        relaxed, edges_relaxed = matrix entries read, distance_updates =
///        distances lowered at the end of a round
/// Throws sssp::InvalidSource for a bad source.
[[nodiscard]] std::vector<dist_t> cpu_bellman_ford(const DenseGraph& graph, vertex_t source, CpuOptions options = {},
                                                   Counters* counters = nullptr);

/// Most streams a GpuOptions may ask for.
inline constexpr unsigned kMaxStreams = 64;

/// Options of the GPU version.
struct GpuOptions {
  Variant variant = Variant::kWorkEfficient;  ///< Which algorithm.
  /// K: the matrix is copied in K parts of whole rows, part k in stream k,
  /// and round 1 relaxes part k in stream k as soon as it has arrived. 1 is
  /// "copy everything, then compute". Must be 1 .. kMaxStreams.
  unsigned streams = 1;
  std::uint64_t max_rounds = 0;  ///< As CpuOptions::max_rounds.
};

/// When each part of the matrix was copied and first relaxed, in ms after
/// the run started (CUDA events): the overlap, read from the timestamps.
struct PartTiming {
  vertex_t first_row = 0;  ///< First row of the part.
  vertex_t rows = 0;       ///< Rows in the part (parts differ by at most one row).
  /// The part's stream reached its copy. The copy engine moves the parts
  /// one at a time, in the order they were queued, so the copy itself starts
  /// at the later of this and the previous part's copy_end_ms.
  float copy_begin_ms = 0.0f;
  float copy_end_ms = 0.0f;         ///< The part's copy finished.
  float first_round_end_ms = 0.0f;  ///< Round 1 finished relaxing the part.
};

/// Timestamps of one run, in ms after it started (the run's whole time is
/// its SsspResult::device_ms).
struct Timeline {
  std::vector<PartTiming> parts;  ///< One per stream, in row order.
  float first_round_ms = 0.0f;    ///< Round 1 complete: every part copied and relaxed, distances updated.
};

/// Bellman-Ford on the GPU over the adjacency matrix. Each run copies the
/// matrix from the host (that transfer is part of what the paper measures),
/// then relaxes with a two-dimensional grid: thread (x, y) handles column v
/// = x for a tile of rows chosen by y, and offers its column's best distance
/// with one atomicMin.
class DenseBellmanFord {
 public:
  /// Allocates the device matrix and per-run arrays, creates the streams.
  /// Keeps a reference to `graph`, which must outlive the solver. Copies from
  /// pageable memory work but cannot overlap: use HostMemory::kPinned.
  /// Throws sssp::InputError for bad options, sssp::CudaError without a
  /// usable GPU or without the device memory for the matrix.
  explicit DenseBellmanFord(const DenseGraph& graph, GpuOptions options = {});
  ~DenseBellmanFord();
  DenseBellmanFord(const DenseBellmanFord&) = delete;
  DenseBellmanFord& operator=(const DenseBellmanFord&) = delete;

  /// Distances from `source` (sssp::kInfinity where unreachable). Throws
  /// sssp::InvalidSource for a bad source. Counters: as cpu_bellman_ford(),
  /// plus kernel_launches and host_syncs (the work-efficient version looks at
  /// a counter after every round; the naive one never looks). device_ms: from
  /// initialisation to the end of the last round, the copies of the matrix
  /// included, the download of the distances not.
  /// @param timeline if not null: receives the per-part timestamps of this run
  [[nodiscard]] SsspResult run(vertex_t source, Timeline* timeline = nullptr);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace lab05
