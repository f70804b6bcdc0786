// Lab 05 skeleton, generated from solutions/lab05_streams/dense_bellman_ford.cu by common/tools/make_skeleton.py.
// This file is yours: replace each SSSP_TODO with your code.
// Lab 05, tasks 2-5: Bellman-Ford over an adjacency matrix on the GPU, with
// the matrix copied in K parts on K streams so that round 1 relaxes each
// part while the next one is still on its way.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "lab05.hpp"
#include "sssp/cuda/device_buffer.cuh"
#include "sssp/cuda/device_graph.cuh"
#include "sssp/cuda/host_flag.cuh"
#include "sssp/cuda/stream.cuh"
#include "sssp/cuda/todo.cuh"
#include "sssp/errors.hpp"
#include "sssp/todo.hpp"

namespace lab05 {

using sssp::cuda::DeviceBuffer;
using sssp::cuda::Event;
using sssp::cuda::Stream;

namespace {

SSSP_DEVICE_TODO_STATE();

/// Threads per block, along the columns: each warp reads 32 neighbouring
/// weights of a row, 128 contiguous bytes, in one coalesced transaction.
constexpr unsigned kColumnsPerBlock = 256;
/// Rows of the matrix one thread folds into its column's minimum before it
/// offers that minimum with a single atomicMin (the paper's one-element-per-
/// thread grid would issue one atomic per matrix entry). One warp picks them.
constexpr unsigned kRowsPerTile = 32;

/// Work counts the kernels accumulate over a run, read by the host.
struct RunCounts {
  unsigned long long rows_relaxed = 0;  ///< Rows whose weights were read, over all rounds.
  unsigned long long lowered = 0;       ///< Distances lowered, over all rounds.
};

// The distance that arc u -> v offers v: infinite when there is no arc or u
// is unreached (the naive version relaxes such rows too); otherwise a finite
// distance plus a 32-bit weight, which cannot overflow 64 bits.
__device__ inline dist_t offer(dist_t du, weight_t w) {
  return w == kNoEdge || du == sssp::kInfinity ? sssp::kInfinity : du + w;
}

// Distances infinite but the source's; only the source is active in round 1.
__global__ void initialise(vertex_t n, vertex_t source, dist_t* dist, dist_t* next, std::uint8_t* active,
                           RunCounts* counts) {
  const vertex_t v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v == 0) *counts = RunCounts{};
  if (v >= n) return;
  dist[v] = next[v] = v == source ? 0 : sssp::kInfinity;
  active[v] = v == source ? 1 : 0;
}

// One round of relaxation over rows first_row .. end_row - 1 of the matrix,
// in a 2-D grid: block (x, y) covers columns x * kColumnsPerBlock ... and the
// tile of kRowsPerTile rows starting at first_row + y * kRowsPerTile. Reads
// the distances of the last round (dist), offers new ones into next.
// kActiveRowsOnly: the work-efficient version relaxes only active rows; the
// naive one relaxes every row, unreached ones included.
template <bool kActiveRowsOnly>
__global__ void relax_rows(const weight_t* __restrict__ matrix, vertex_t n, vertex_t first_row, vertex_t end_row,
                           const dist_t* __restrict__ dist, const std::uint8_t* __restrict__ active,
                           dist_t* __restrict__ next, RunCounts* __restrict__ counts) {
  __shared__ vertex_t tile_rows[kRowsPerTile];    // the tile's rows to relax, compacted
  __shared__ dist_t tile_dist[kRowsPerTile];      // their distances
  __shared__ unsigned tile_count;
  const vertex_t tile_first = first_row + blockIdx.y * kRowsPerTile;
  const unsigned rows = min(kRowsPerTile, end_row - tile_first);
  // TODO(task 2): warp 0 (threadIdx.x < 32) decides which of the tile's
  // `rows` rows to relax: row u = tile_first + threadIdx.x, every one if
  // !kActiveRowsOnly, else only if active[u] != 0. Compact them with
  // __ballot_sync / __popc into tile_rows / tile_dist (= dist[u]), set
  // tile_count, and (blockIdx.x == 0 only) atomicAdd the count to
  // counts->rows_relaxed. After __syncthreads(), thread v = blockIdx.x *
  // blockDim.x + threadIdx.x (if v < n) folds offer(tile_dist[i], weight of
  // tile_rows[i] -> v) over the chosen rows and offers the minimum to
  // next[v] with sssp::cuda::atomic_min_dist. Index the matrix in 64 bits.
  SSSP_DEVICE_TODO(5, 2, "relax a tile of rows for a strip of columns (kernel)");
}

// The end of a round: publish next[] as the distances the next round reads,
// mark the vertices that got closer as active, and count them.
__global__ void finish_round(vertex_t n, dist_t* __restrict__ dist, const dist_t* __restrict__ next,
                             std::uint8_t* __restrict__ active, RunCounts* __restrict__ counts) {
  const vertex_t v = blockIdx.x * blockDim.x + threadIdx.x;
  // TODO(task 3): for v < n: lowered = next[v] < dist[v]; if so copy it to
  // dist[v]; active[v] = lowered. Add the number of lowered vertices to
  // counts->lowered (one atomicAdd per warp: __ballot_sync and __popc;
  // every thread of the warp must reach the ballot, even if v >= n).
  SSSP_DEVICE_TODO(5, 3, "publish the round's distances and the active mask (kernel)");
}

/// Rows first_row .. end_row - 1: the part of the matrix one stream copies.
struct Part {
  vertex_t first_row = 0;
  vertex_t end_row = 0;
};

/// The timestamps one part records in its stream.
struct PartEvents {
  Event copy_begin;
  Event copied;
  Event relaxed;
};

}  // namespace

struct DenseBellmanFord::Impl {
  const DenseGraph& graph;
  GpuOptions options;
  vertex_t n = 0;
  DeviceBuffer<weight_t> matrix;
  DeviceBuffer<dist_t> dist;
  DeviceBuffer<dist_t> next;
  DeviceBuffer<std::uint8_t> active;
  sssp::cuda::DeviceWord<RunCounts> counts;
  Stream main;                       // initialisation, rounds 2.., the download
  std::vector<Stream> streams;       // stream k copies and first relaxes part k
  std::vector<Part> parts;
  std::vector<PartEvents> events;
  Event start, initialised, first_round, stop;

  Impl(const DenseGraph& g, GpuOptions o)
      : graph(g),
        options(o),
        n(g.num_vertices()),
        matrix(std::max<std::size_t>(1, static_cast<std::size_t>(n) * n), "adjacency matrix"),
        dist(std::max<vertex_t>(1, n), "distances"),
        next(std::max<vertex_t>(1, n), "offered distances"),
        active(std::max<vertex_t>(1, n), "active mask") {
    if (options.streams == 0 || options.streams > kMaxStreams) {
      throw sssp::InputError("streams must be 1 .. " + std::to_string(kMaxStreams) + ", got " +
                             std::to_string(options.streams));
    }
    // K parts of whole rows, sizes differing by at most one row (some are
    // empty when K > n).
    for (unsigned k = 0; k < options.streams; ++k) {
      parts.push_back({static_cast<vertex_t>(static_cast<std::uint64_t>(n) * k / options.streams),
                       static_cast<vertex_t>(static_cast<std::uint64_t>(n) * (k + 1) / options.streams)});
    }
    streams.resize(options.streams);
    events.resize(options.streams);
  }

  // Rounds a run may take: |V| - 1 (at least 1: round 1 is where the matrix
  // arrives), or fewer if the options say so.
  [[nodiscard]] std::uint64_t round_limit() const {
    const std::uint64_t limit = std::max<std::uint64_t>(1, n == 0 ? 0 : n - 1);
    return options.max_rounds == 0 ? limit : std::min(limit, options.max_rounds);
  }

  // Enqueues one round of relaxation of rows [first_row, end_row) on `stream`.
  void launch_relax(vertex_t first_row, vertex_t end_row, cudaStream_t stream, Counters& work) {
    if (first_row >= end_row) return;  // an empty part
    const dim3 grid(sssp::cuda::blocks_for(n, kColumnsPerBlock), (end_row - first_row + kRowsPerTile - 1) / kRowsPerTile);
    if (options.variant == Variant::kWorkEfficient) {
      relax_rows<true><<<grid, kColumnsPerBlock, 0, stream>>>(matrix.data(), n, first_row, end_row, dist.data(),
                                                              active.data(), next.data(), counts.device());
    } else {
      relax_rows<false><<<grid, kColumnsPerBlock, 0, stream>>>(matrix.data(), n, first_row, end_row, dist.data(),
                                                               active.data(), next.data(), counts.device());
    }
    SSSP_CUDA_CHECK_LAUNCH();
    ++work.kernel_launches;
  }

  // Enqueues the end of a round on the main stream.
  void launch_finish(Counters& work) {
    finish_round<<<sssp::cuda::blocks_for(n, kColumnsPerBlock), kColumnsPerBlock, 0, main.get()>>>(
        n, dist.data(), next.data(), active.data(), counts.device());
    SSSP_CUDA_CHECK_LAUNCH();
    ++work.kernel_launches;
    ++work.iterations;
  }
};

DenseBellmanFord::DenseBellmanFord(const DenseGraph& graph, GpuOptions options)
    : impl_(std::make_unique<Impl>(graph, options)) {}

DenseBellmanFord::~DenseBellmanFord() = default;

std::vector<dist_t> DenseBellmanFord::run(vertex_t source, Counters* counters, double* device_ms,
                                          Timeline* timeline) {
  Impl& s = *impl_;
  const vertex_t n = s.n;
  Counters work;
  // TODO(task 4): reject a source that is not a vertex
  SSSP_TODO(5, 4, "reject a source that is not a vertex");
  cudaStream_t main = s.main.get();
  s.start.record(main);
  initialise<<<sssp::cuda::blocks_for(n, kColumnsPerBlock), kColumnsPerBlock, 0, main>>>(
      n, source, s.dist.data(), s.next.data(), s.active.data(), s.counts.device());
  SSSP_CUDA_CHECK_LAUNCH();
  ++work.kernel_launches;
  s.initialised.record(main);
  // TODO(task 4): for each part k (s.parts[k], its stream s.streams[k],
  // its events s.events[k]): record copy_begin, cudaMemcpyAsync the part's
  // rows (whole rows: one contiguous block) from s.graph.data() into
  // s.matrix on the part's stream, record copied, make the stream wait for
  // s.initialised, s.launch_relax the part's rows there, record relaxed, and
  // make s.main wait for it. Then s.launch_finish(work) ends round 1.
  SSSP_TODO(5, 4, "copy part k in stream k and relax it there as soon as it has arrived (round 1)");
  s.first_round.record(main);
  const std::uint64_t limit = s.round_limit();
  // TODO(task 5): round 1 is done (work.iterations == 1). Naive: launch
  // s.launch_relax(0, n, main, work) and s.launch_finish(work) until
  // work.iterations == limit, without looking at the device. Work-efficient:
  // after each round read s.counts.read(main).lowered (count host_syncs);
  // stop when it did not grow during the last round, or at the limit.
  SSSP_TODO(5, 5, "the remaining rounds: naive to the limit, work-efficient until nothing changes");
  std::vector<dist_t> result(n);
  SSSP_CUDA_CHECK(cudaMemcpyAsync(result.data(), s.dist.data(), n * sizeof(dist_t), cudaMemcpyDeviceToHost, main));
  s.stop.record(main);
  const RunCounts totals = s.counts.read(main);  // synchronises main: every event above has completed
  SSSP_CHECK_DEVICE_TODO(5);
  work.vertices_processed = totals.rows_relaxed;
  work.edges_relaxed = totals.rows_relaxed * n;
  work.distance_updates = totals.lowered;
  if (counters != nullptr) *counters = work;
  if (device_ms != nullptr) *device_ms = s.stop.ms_since(s.start);
  if (timeline != nullptr) {
    timeline->parts.clear();
    for (std::size_t k = 0; k < s.parts.size(); ++k) {
      const PartEvents& ev = s.events[k];
      timeline->parts.push_back({s.parts[k].first_row, s.parts[k].end_row - s.parts[k].first_row,
                                 ev.copy_begin.ms_since(s.start), ev.copied.ms_since(s.start),
                                 ev.relaxed.ms_since(s.start)});
    }
    timeline->first_round_ms = s.first_round.ms_since(s.start);
    timeline->total_ms = s.stop.ms_since(s.start);
  }
  return result;
}

}  // namespace lab05
