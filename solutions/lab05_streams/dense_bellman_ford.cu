// Lab 05, tasks 2-5: Bellman-Ford over an adjacency matrix on the GPU, with
// the matrix copied in K parts on K streams so that round 1 relaxes each
// part while the next one is still on its way.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "lab05.hpp"
#include "sssp/cuda/device_buffer.cuh"
#include "sssp/cuda/device_graph.cuh"
#include "sssp/cuda/host_flag.cuh"
#include "sssp/cuda/launch.cuh"
#include "sssp/cuda/stream.cuh"
#include "sssp/cuda/timed_run.cuh"
#include "sssp/errors.hpp"
#include "sssp/todo.hpp"

namespace lab05 {

using sssp::cuda::DeviceBuffer;
using sssp::cuda::Event;
using sssp::cuda::kWarpSize;
using sssp::cuda::Stream;

namespace {

SSSP_DEVICE_TODO_STATE(5);

/// Threads per block, along the columns: each warp reads 32 neighbouring
/// weights of a row, 128 contiguous bytes, in one coalesced transaction.
constexpr unsigned kColumnsPerBlock = 256;
static_assert(kColumnsPerBlock % kWarpSize == 0, "finish_round needs whole warps");
/// Rows of the matrix one thread folds into its column's minimum before it
/// offers that minimum with a single atomicMin (the paper's one-element-per-
/// thread grid would issue one atomic per matrix entry). One warp picks them.
constexpr unsigned kRowsPerTile = 32;
static_assert(kRowsPerTile == kWarpSize, "warp 0 picks a tile's rows, one lane per row");
/// Most tiles one launch of relax_rows gives a block row of its own: the
/// hardware's limit on gridDim.y. The kernel strides over any tiles beyond
/// (a matrix of kMaxDenseVertices rows has only 2048).
constexpr unsigned kMaxTileBlocks = 65535;

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

// Distances infinite but the source's; only the source is active in round 1;
// the run's counts start from zero.
__global__ void initialise(vertex_t n, vertex_t source, dist_t* __restrict__ dist, dist_t* __restrict__ next,
                           std::uint8_t* __restrict__ active, RunCounts* __restrict__ counts) {
  if (sssp::cuda::global_thread_index() == 0) *counts = RunCounts{};
  for (std::uint64_t v = sssp::cuda::global_thread_index(); v < n; v += sssp::cuda::grid_stride()) {
    dist[v] = next[v] = v == source ? 0 : sssp::kInfinity;
    active[v] = v == source ? 1 : 0;
  }
}

// One round of relaxation over rows first_row .. end_row - 1 of the matrix,
// in a 2-D grid: x walks the columns, y the tiles of kRowsPerTile rows (tile
// t starts at row first_row + t * kRowsPerTile), both grid-stride. Reads the
// distances of the last round (dist), offers new ones into next.
// kActiveRowsOnly: the work-efficient version relaxes only active rows; the
// naive one relaxes every row, unreached ones included.
template <bool kActiveRowsOnly>
__global__ void relax_rows(const weight_t* __restrict__ matrix, vertex_t n, vertex_t first_row, vertex_t end_row,
                           const dist_t* __restrict__ dist, const std::uint8_t* __restrict__ active,
                           dist_t* __restrict__ next, RunCounts* __restrict__ counts) {
  __shared__ vertex_t tile_rows[kRowsPerTile];  // the tile's rows to relax, compacted
  __shared__ dist_t tile_dist[kRowsPerTile];    // their distances
  __shared__ unsigned tile_count;
  // The tile loop depends on blockIdx.y alone: every thread of the block
  // takes the same turns, so all of them reach each __syncthreads().
  const std::uint64_t tile_stride = static_cast<std::uint64_t>(gridDim.y) * kRowsPerTile;
  for (std::uint64_t tile_first = first_row + static_cast<std::uint64_t>(blockIdx.y) * kRowsPerTile;
       tile_first < end_row; tile_first += tile_stride) {
    const unsigned rows = static_cast<unsigned>(min(std::uint64_t{kRowsPerTile}, end_row - tile_first));
    // BEGIN SOLUTION task 2: relax a tile of rows for a strip of columns (kernel)
    __syncthreads();  // the block is done with the previous tile's rows
    if (threadIdx.x < kWarpSize) {
      // Warp 0 picks the tile's rows to relax: all of them in the naive
      // version, only the active ones in the work-efficient version. The
      // ballot compacts them, so the loop below has no branch around its
      // loads and can keep many of them in flight.
      const std::uint64_t u = tile_first + threadIdx.x;
      const bool relax = threadIdx.x < rows && (!kActiveRowsOnly || active[u] != 0);
      const unsigned chosen = __ballot_sync(0xffffffffu, relax);
      if (relax) {
        const unsigned slot = __popc(chosen & ((1u << threadIdx.x) - 1u));
        tile_rows[slot] = static_cast<vertex_t>(u);
        tile_dist[slot] = dist[u];
      }
      if (threadIdx.x == 0) {
        tile_count = __popc(chosen);
        // Column strip 0 counts the tile's rows, once per round.
        if (blockIdx.x == 0 && chosen != 0) atomicAdd(&counts->rows_relaxed, __popc(chosen));
      }
    }
    __syncthreads();
    const unsigned count = tile_count;
    if (count == 0) continue;  // the usual tile of a work-efficient round after round 2
    for (std::uint64_t v = sssp::cuda::global_thread_index(); v < n; v += sssp::cuda::grid_stride()) {
      dist_t best = sssp::kInfinity;
#pragma unroll 4
      for (unsigned i = 0; i < count; ++i) {
        best = min(best, offer(tile_dist[i], matrix[static_cast<std::uint64_t>(tile_rows[i]) * n + v]));
      }
      // next[v] only decreases, so a stale read can only make this test pass
      // needlessly, never skip an offer that would have won.
      if (best < next[v]) sssp::cuda::atomic_min_dist(&next[v], best);
    }
    // SKELETON
    // // TODO(task 2): on return next[v] <= offer(dist[u], weight of u -> v) for
    // // every column v < n this thread walks (grid-stride) and every row u of
    // // the tile to relax (its `rows` rows from tile_first: all of them, or
    // // the active ones if kActiveRowsOnly), with one atomic per column and
    // // tile, not one per entry. The rows are picked once per block, by one
    // // warp, into the shared tile_rows / tile_dist / tile_count (compacted:
    // // no gaps), and counts->rows_relaxed counts each picked row once over the
    // // whole grid. Every thread must reach every barrier, and no warp may
    // // overwrite the shared rows while another still reads the previous
    // // tile. Matrix indices pass 2^32.
    // SSSP_DEVICE_TODO(5, 2, "relax a tile of rows for a strip of columns (kernel)");
    // END SOLUTION
  }
}

// The end of a round: publish next[] as the distances the next round reads,
// mark the vertices that got closer as active, and count them.
__global__ void finish_round(vertex_t n, dist_t* __restrict__ dist, const dist_t* __restrict__ next,
                             std::uint8_t* __restrict__ active, RunCounts* __restrict__ counts) {
  // A warp stays in the loop while its first lane's vertex is below n, so
  // all 32 lanes reach the ballot (blocks and the stride are whole warps).
  const unsigned lane = threadIdx.x % kWarpSize;
  for (std::uint64_t v = sssp::cuda::global_thread_index(); v - lane < n; v += sssp::cuda::grid_stride()) {
    // BEGIN SOLUTION task 3: publish the round's distances and the active mask (kernel)
    bool lowered = false;
    if (v < n) {
      const dist_t offered = next[v];
      lowered = offered < dist[v];
      if (lowered) dist[v] = offered;
      active[v] = lowered ? 1 : 0;
    }
    // One atomic per warp: the host reads the total to see whether anything changed.
    const unsigned warp_lowered = __ballot_sync(0xffffffffu, lowered);
    if (lane == 0 && warp_lowered != 0) atomicAdd(&counts->lowered, __popc(warp_lowered));
    // SKELETON
    // // TODO(task 3): on return, for v < n, dist[v] is the smaller of dist[v]
    // // and next[v], active[v] says whether it dropped, and counts->lowered has
    // // grown by the number that dropped, with at most one atomic per warp and
    // // step of the loop. Touch nothing at v >= n; the loop's guard above says
    // // which lanes are still in it.
    // SSSP_DEVICE_TODO(5, 3, "publish the round's distances and the active mask (kernel)");
    // END SOLUTION
  }
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
  unsigned column_blocks = 1;  // x extent of every launch (grid_for: columns, or vertices)
  DeviceBuffer<weight_t> matrix;
  DeviceBuffer<dist_t> dist;
  DeviceBuffer<dist_t> next;
  DeviceBuffer<std::uint8_t> active;
  sssp::cuda::DeviceWord<RunCounts> counts;
  Stream main;                  // initialisation, rounds 2.., the download
  std::vector<Stream> streams;  // stream k copies and first relaxes part k
  std::vector<Part> parts;
  std::vector<PartEvents> events;
  Event start, initialised, first_round;

  Impl(const DenseGraph& g, GpuOptions o)
      : graph(g),
        options((validate(o), o)),
        n(g.num_vertices()),
        column_blocks(sssp::cuda::grid_for(n, kColumnsPerBlock)),
        matrix((require_memory(g), std::max<std::size_t>(1, static_cast<std::size_t>(n) * n)), "adjacency matrix"),
        dist(std::max<vertex_t>(1, n), "distances"),
        next(std::max<vertex_t>(1, n), "offered distances"),
        active(std::max<vertex_t>(1, n), "active mask") {
    // K parts of whole rows, sizes differing by at most one row (some are
    // empty when K > n).
    for (unsigned k = 0; k < options.streams; ++k) {
      parts.push_back({static_cast<vertex_t>(static_cast<std::uint64_t>(n) * k / options.streams),
                       static_cast<vertex_t>(static_cast<std::uint64_t>(n) * (k + 1) / options.streams)});
    }
    streams.resize(options.streams);
    events.resize(options.streams);
  }

  static void validate(const GpuOptions& o) {
    sssp::require_option(o.streams != 0 && o.streams <= kMaxStreams, "streams", "1 .. " + std::to_string(kMaxStreams),
                         o.streams);
  }

  static void require_memory(const DenseGraph& g) {
    const std::uint64_t n = std::max<vertex_t>(1, g.num_vertices());  // every buffer has at least one element
    using sssp::cuda::device_bytes;
    const std::string size = std::to_string(g.num_vertices());
    sssp::cuda::require_free_memory(
        device_bytes<weight_t>(n * n) + device_bytes<dist_t>(2 * n) + device_bytes<std::uint8_t>(n),
        "lab 05 dense Bellman-Ford on the " + size + " x " + size + " matrix of " + g.name());
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
    const std::uint64_t tiles = (std::uint64_t{end_row} - first_row + kRowsPerTile - 1) / kRowsPerTile;
    const dim3 grid(column_blocks, static_cast<unsigned>(std::min<std::uint64_t>(tiles, kMaxTileBlocks)));
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
    finish_round<<<column_blocks, kColumnsPerBlock, 0, main.get()>>>(n, dist.data(), next.data(), active.data(),
                                                                     counts.device());
    SSSP_CUDA_CHECK_LAUNCH();
    ++work.kernel_launches;
    ++work.iterations;
  }

  // The timestamps of the last run; its events must have completed.
  [[nodiscard]] Timeline timeline() const {
    Timeline t;
    for (std::size_t k = 0; k < parts.size(); ++k) {
      const PartEvents& ev = events[k];
      t.parts.push_back({parts[k].first_row, parts[k].end_row - parts[k].first_row, ev.copy_begin.ms_since(start),
                         ev.copied.ms_since(start), ev.relaxed.ms_since(start)});
    }
    t.first_round_ms = first_round.ms_since(start);
    return t;
  }
};

DenseBellmanFord::DenseBellmanFord(const DenseGraph& graph, GpuOptions options)
    : impl_(std::make_unique<Impl>(graph, options)) {}

DenseBellmanFord::~DenseBellmanFord() = default;

SsspResult DenseBellmanFord::run(vertex_t source, Timeline* timeline) {
  Impl& s = *impl_;
  const vertex_t n = s.n;
  cudaStream_t main = s.main.get();
  SsspResult result = sssp::cuda::timed_run<dist_t>(
      device_todo(), source, n,
      [&](Counters& work) -> DeviceBuffer<dist_t>& {
        s.start.record(main);  // time 0 of the timeline
        initialise<<<s.column_blocks, kColumnsPerBlock, 0, main>>>(n, source, s.dist.data(), s.next.data(),
                                                                   s.active.data(), s.counts.device());
        SSSP_CUDA_CHECK_LAUNCH();
        ++work.kernel_launches;
        s.initialised.record(main);
        // BEGIN SOLUTION task 4: copy part k in stream k and relax it there as soon as it has arrived (round 1)
        for (std::size_t k = 0; k < s.parts.size(); ++k) {
          const Part& part = s.parts[k];
          PartEvents& ev = s.events[k];
          const Stream& stream = s.streams[k];
          ev.copy_begin.record(stream.get());
          const std::size_t offset = static_cast<std::size_t>(part.first_row) * n;
          const std::size_t count = static_cast<std::size_t>(part.end_row - part.first_row) * n;
          if (count != 0) {
            SSSP_CUDA_CHECK(cudaMemcpyAsync(s.matrix.data() + offset, s.graph.data() + offset, count * sizeof(weight_t),
                                            cudaMemcpyHostToDevice, stream.get()));
          }
          ev.copied.record(stream.get());
          stream.wait(s.initialised.get());  // the distances must be initialised before round 1 reads them
          s.launch_relax(part.first_row, part.end_row, stream.get(), work);
          ev.relaxed.record(stream.get());
          s.main.wait(ev.relaxed.get());  // round 1 ends when every part is relaxed
        }
        s.launch_finish(work);
        // SKELETON
        // // TODO(task 4): round 1, overlapped with the copy of the matrix: part k
        // // (s.parts[k]) is copied and then relaxed in its own stream
        // // s.streams[k], so that part k + 1's copy overlaps part k's relaxation.
        // // Part k's relaxation must not start before its rows have arrived or
        // // before initialisation; round 1 must not end (s.launch_finish) on the
        // // main stream before every part is relaxed. s.events[k] must time
        // // the part as PartTiming defines (lab05.hpp). Nothing here waits on the
        // // host.
        // SSSP_TODO(5, 4, "copy part k in stream k and relax it there as soon as it has arrived (round 1)");
        // END SOLUTION
        s.first_round.record(main);
        const std::uint64_t limit = s.round_limit();
        // BEGIN SOLUTION task 5: the remaining rounds: naive to the limit, work-efficient until nothing changes
        if (s.options.variant == Variant::kNaive) {
          // No host look at all: |V| - 1 rounds are queued back to back.
          while (work.iterations < limit) {
            s.launch_relax(0, n, main, work);
            s.launch_finish(work);
          }
        } else {
          // One small read per round: the running count of lowered distances. A
          // round that adds nothing to it changed nothing, and neither would any
          // later round.
          unsigned long long lowered_before = 0;
          while (true) {
            const unsigned long long lowered = s.counts.read(main).lowered;
            ++work.host_syncs;
            if (lowered == lowered_before || work.iterations >= limit) break;
            lowered_before = lowered;
            s.launch_relax(0, n, main, work);
            s.launch_finish(work);
          }
        }
        // SKELETON
        // // TODO(task 5): round 1 is done. On return, all rounds of the variant
        // // are enqueued on main (Variant, lab05.hpp): the naive one runs to
        // // `limit` rounds without ever waiting for the device; the work-efficient
        // // one stops at the limit or after the first round that lowered nothing,
        // // which it learns from s.counts (each read is a host_sync).
        // SSSP_TODO(5, 5, "the remaining rounds: naive to the limit, work-efficient until nothing changes");
        // END SOLUTION
        return s.dist;
      },
      main);
  // The copy-out synchronised main, which every part's stream joined: every
  // event of the run has completed. What the kernels counted, untimed:
  const RunCounts totals = s.counts.read(main);
  result.counters.vertices_processed = totals.rows_relaxed;
  result.counters.edges_relaxed = totals.rows_relaxed * n;
  result.counters.distance_updates = totals.lowered;
  if (timeline != nullptr) *timeline = s.timeline();
  return result;
}

}  // namespace lab05
