// Lab 06 skeleton, generated from solutions/lab06_spmv/spmv_bellman_ford.cu by common/tools/make_skeleton.py.
// This file is yours: replace each SSSP_TODO with your code.
// Lab 06, tasks 2-5: Bellman-Ford as a min-plus sparse matrix-vector product
// over the incoming arcs. One sweep reads d_src and writes d_dst:
//   d_dst[i] = min(d_src[i], min over in-arcs j -> i of d_src[j] + c_ji),
// pulling into row i from its in-arcs, so no two threads write one vertex and
// no atomics are needed. The host swaps the buffers after every sweep and
// stops at the first sweep that changes nothing.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "lab06.hpp"
#include "sssp/cuda/device.hpp"
#include "sssp/cuda/device_graph.cuh"
#include "sssp/cuda/event_timer.cuh"
#include "sssp/cuda/host_flag.cuh"
#include "sssp/cuda/kernels.cuh"
#include "sssp/cuda/launch.cuh"
#include "sssp/cuda/timed_run.cuh"
#include "sssp/errors.hpp"

namespace lab06 {

using sssp::cuda::DeviceBuffer;
using sssp::cuda::kWarpSize;

namespace {

SSSP_DEVICE_TODO_STATE(6);

// The min-plus step: the better of `best` and the path through an in-arc of
// weight w from a tail at distance d_tail. An unreachable tail offers nothing:
// kInfinity + w would wrap around to w - 1 and look like a short path.
__device__ __forceinline__ dist_t offer(dist_t best, dist_t d_tail, weight_t w) {
  if (d_tail == sssp::kInfinity) return best;
  const dist_t through = d_tail + w;  // finite + 32 bits: no overflow (see types.hpp)
  return through < best ? through : best;
}

// The change word: a sweep that lowers any distance stores its round number.
// Every writer of one sweep stores the same value, so plain stores suffice,
// and a thread stores at most once, after its last row. The host reads it
// after a batch of rounds: a value below the batch's last round means that
// round changed nothing, and neither will any later one.

// CSR scalar (Chen's Listing 1, corrected): one thread per row, grid-stride.
__global__ void sweep_csr_scalar(const edge_t* __restrict__ offsets, const vertex_t* __restrict__ tails,
                                 const weight_t* __restrict__ weights, vertex_t n, const dist_t* __restrict__ d_src,
                                 dist_t* __restrict__ d_dst, unsigned round, unsigned* __restrict__ last_change) {
  // TODO(task 2): after the launch, for every row i < n, d_dst[i] is row i
  // of the round's product (the handout's (min, +) view: d_i itself
  // included), read only from d_src, for any grid size; and *last_change
  // is `round` if some row's distance dropped (the change word above), else
  // untouched. One store of the word per thread at most.
  SSSP_DEVICE_TODO(6, 2, "CSR scalar sweep, one thread per row (kernel)");
}

// CSR vector (Chen's Listing 2, corrected): one warp per row. The lanes
// stride by 32 through the row, so together they read it once, coalesced,
// and a shuffle reduction combines their minima.
__global__ void sweep_csr_vector(const edge_t* __restrict__ offsets, const vertex_t* __restrict__ tails,
                                 const weight_t* __restrict__ weights, vertex_t n, const dist_t* __restrict__ d_src,
                                 dist_t* __restrict__ d_dst, unsigned round, unsigned* __restrict__ last_change) {
  // TODO(task 3): the contract of task 2, with one warp per row (rows taken
  // grid-stride by warps): the lanes read the row's arcs together, so that
  // consecutive lanes read consecutive arcs, and combine their partial
  // minima with warp shuffles, no shared memory. Every lane of the (full)
  // warp must take part in every shuffle. Arc positions are computed in
  // 64 bits (sssp/cuda/launch.cuh says why).
  SSSP_DEVICE_TODO(6, 3, "CSR vector sweep, one warp per row with a shuffle reduction (kernel)");
}

// ELL (Chen's Listing 3, corrected): one thread per row; slot k of row i at
// k * rows + i, so at every step k a warp reads 32 consecutive words.
__global__ void sweep_ell(const vertex_t* __restrict__ cols, const weight_t* __restrict__ weights, vertex_t rows,
                          edge_t width, const dist_t* __restrict__ d_src, dist_t* __restrict__ d_dst, unsigned round,
                          unsigned* __restrict__ last_change) {
  // TODO(task 4): the contract of task 2, over the ELL matrix (EllMatrix,
  // lab06.hpp). A padding slot is not an arc and has no tail to read; argue
  // why a row's first padding slot ends it. Slot positions pass 2^32.
  SSSP_DEVICE_TODO(6, 4, "ELL sweep, one thread per row, column-major slots (kernel)");
}

}  // namespace

void validate(Format f, const SpmvOptions& o) {
  sssp::cuda::require_block_size(o.block_size);
  sssp::require_option(f != Format::kCsrVector || o.block_size % kWarpSize == 0,
                       "CSR vector's block size (a warp per row)", "a multiple of 32", o.block_size);
  sssp::require_option(o.rounds_per_check != 0, "rounds per check", "at least 1", o.rounds_per_check);
}

struct SpmvBellmanFord::Impl {
  Format format;
  SpmvOptions options;
  vertex_t n = 0;
  edge_t m = 0;
  std::optional<sssp::cuda::DeviceCsr> csr;  // incoming CSR: kCsrScalar, kCsrVector
  DeviceBuffer<vertex_t> ell_cols;           // kEll
  DeviceBuffer<weight_t> ell_weights;
  edge_t ell_width = 0;
  std::uint64_t ell_short_rows = 0;  // rows shorter than the width: each ends at a padding column
  DeviceBuffer<dist_t> dist[2];
  int current = 0;  // the buffer holding the latest distances
  sssp::cuda::DeviceWord<unsigned> last_change;
  unsigned grid = 1;

  Impl(const CsrGraph& graph, Format f, SpmvOptions o)
      : format(f), options((validate(f, o), o)), n(graph.num_vertices()), m(graph.num_edges()) {
    const CsrGraph in_arcs = incoming_csr(graph);
    const std::string what = "lab 06 SpMV Bellman-Ford on " + sssp::describe(graph);
    const std::uint64_t distances = sssp::cuda::device_bytes<dist_t>(2 * std::uint64_t{n});
    if (format == Format::kEll) {
      const std::uint64_t limit =
          options.max_ell_slots != 0 ? options.max_ell_slots : default_ell_slot_limit(in_arcs.num_edges());
      const EllMatrix ell = build_ell(in_arcs, limit);
      ell_width = ell.width;
      for (vertex_t i = 0; i < n; ++i) ell_short_rows += in_arcs.out_degree(i) < ell.width;
      sssp::cuda::require_free_memory(sssp::cuda::device_bytes<vertex_t>(ell.cols.size()) +
                                          sssp::cuda::device_bytes<weight_t>(ell.weights.size()) + distances,
                                      what);
      ell_cols = DeviceBuffer<vertex_t>(std::span<const vertex_t>(ell.cols), "ELL columns");
      ell_weights = DeviceBuffer<weight_t>(std::span<const weight_t>(ell.weights), "ELL weights");
    } else {
      sssp::cuda::require_free_memory(sssp::cuda::csr_device_bytes(in_arcs) + distances, what);
      csr.emplace(in_arcs);
    }
    for (auto& d : dist) d = DeviceBuffer<dist_t>(n, "distances");
    const std::uint64_t threads = format == Format::kCsrVector ? std::uint64_t{n} * kWarpSize : n;
    grid = sssp::cuda::grid_for(threads, options.block_size);
    SSSP_CUDA_CHECK(cudaStreamSynchronize(nullptr));
  }

  // Round 0 into dist[0]: the source at distance 0, every other vertex
  // unreachable; no round has changed anything yet.
  void start(vertex_t source, Counters& work) {
    const unsigned block = options.block_size;
    sssp::cuda::initialise_from_source<<<sssp::cuda::grid_for(n, block), block>>>(dist[0].data(), n, source,
                                                                                  sssp::kInfinity);
    SSSP_CUDA_CHECK_LAUNCH();
    ++work.kernel_launches;
    last_change.clear();
    current = 0;
  }

  // One sweep from dist[from] into dist[from ^ 1], numbered `round` (1, 2, ...).
  void launch_sweep(int from, unsigned round, Counters& work) {
    const dist_t* d_src = dist[from].data();
    dist_t* d_dst = dist[from ^ 1].data();
    const unsigned block = options.block_size;
    switch (format) {
      case Format::kCsrScalar:
        sweep_csr_scalar<<<grid, block>>>(csr->offsets.data(), csr->targets.data(), csr->weights.data(), n, d_src,
                                          d_dst, round, last_change.device());
        break;
      case Format::kCsrVector:
        sweep_csr_vector<<<grid, block>>>(csr->offsets.data(), csr->targets.data(), csr->weights.data(), n, d_src,
                                          d_dst, round, last_change.device());
        break;
      case Format::kEll:
        sweep_ell<<<grid, block>>>(ell_cols.data(), ell_weights.data(), n, ell_width, d_src, d_dst, round,
                                   last_change.device());
        break;
    }
    SSSP_CUDA_CHECK_LAUNCH();
    ++work.kernel_launches;
    ++work.iterations;
    work.edges_relaxed += m;
  }
};

SpmvBellmanFord::SpmvBellmanFord(const CsrGraph& graph, Format format, SpmvOptions options)
    : impl_(std::make_unique<Impl>(graph, format, options)) {}

SpmvBellmanFord::~SpmvBellmanFord() = default;

Format SpmvBellmanFord::format() const { return impl_->format; }

SsspResult SpmvBellmanFord::run(vertex_t source) {
  Impl& s = *impl_;
  return sssp::cuda::timed_run<dist_t>(device_todo(), source, s.n, [&](Counters& work) -> DeviceBuffer<dist_t>& {
    s.start(source, work);
    // TODO(task 5): on return s.dist[s.current] is the buffer the last sweep
    // wrote, and no later round would change it. Sweeps (s.launch_sweep,
    // rounds numbered from 1; it counts launches, iterations and arcs) run in
    // batches of s.options.rounds_per_check, each reading what the previous
    // one wrote; after each batch the host looks at the change word once (a
    // host_sync) and stops at the first batch whose last round changed
    // nothing. A word still changing past round s.n is a bug: throw rather
    // than loop forever.
    SSSP_TODO(6, 5, "the host loop, double buffering, looking every few rounds");
    return s.dist[s.current];  // the buffer the last sweep wrote
  });
}

std::uint64_t SpmvBellmanFord::sweep_bytes() const {
  const Impl& s = *impl_;
  const std::uint64_t n = s.n;
  const std::uint64_t m = s.m;
  const std::uint64_t vectors = 16 * n;  // read d_src[i] (and the gathers) once, write d_dst[i]
  if (s.format == Format::kEll) return 8 * m + 4 * s.ell_short_rows + vectors;
  return 4 * (n + 1) + 8 * m + vectors;
}

namespace {

// A buffer whose rewriting evicts the L2 cache: twice its size, at least 64 MiB.
DeviceBuffer<std::uint8_t> l2_evictor() {
  const std::size_t l2 = sssp::cuda::query_device().l2_cache;
  return DeviceBuffer<std::uint8_t>(std::max<std::size_t>(2 * l2, std::size_t{64} << 20), "L2 eviction buffer");
}

}  // namespace

double SpmvBellmanFord::median_sweep_ms(vertex_t source, unsigned repeats, bool cold_l2) {
  Impl& s = *impl_;
  sssp::require_valid_source(source, s.n);
  // The same sweep again and again, from the first round's vector into the
  // other buffer: every sample does the same work. A sweep loads every
  // element whatever the distances are, so its traffic is that of any round.
  device_todo().reset();
  Counters ignored;
  s.start(source, ignored);
  const unsigned sweeps_per_sample = cold_l2 ? 1 : 10;
  DeviceBuffer<std::uint8_t> evictor;
  if (cold_l2) evictor = l2_evictor();
  for (unsigned w = 0; w < 3; ++w) s.launch_sweep(s.current, 1, ignored);
  std::vector<double> samples;
  sssp::cuda::EventTimer timer;
  for (unsigned r = 0; r < std::max(1u, repeats); ++r) {
    if (cold_l2) evictor.fill_bytes(static_cast<int>(r & 0xFF));
    timer.start();
    for (unsigned k = 0; k < sweeps_per_sample; ++k) s.launch_sweep(s.current, 1, ignored);
    timer.stop();
    samples.push_back(timer.elapsed_ms() / sweeps_per_sample);
  }
  device_todo().check();
  std::sort(samples.begin(), samples.end());
  return samples[samples.size() / 2];
}

double copy_bandwidth_gbs(std::uint64_t bytes, unsigned repeats, bool cold_l2) {
  bytes = std::max<std::uint64_t>(bytes, 1);
  DeviceBuffer<std::uint8_t> from(bytes, "copy source");
  DeviceBuffer<std::uint8_t> to(bytes, "copy target");
  DeviceBuffer<std::uint8_t> evictor;
  if (cold_l2) evictor = l2_evictor();
  from.fill_bytes(1);
  SSSP_CUDA_CHECK(cudaMemcpyAsync(to.data(), from.data(), bytes, cudaMemcpyDeviceToDevice));  // warm-up
  std::vector<double> samples;
  sssp::cuda::EventTimer timer;
  for (unsigned r = 0; r < std::max(1u, repeats); ++r) {
    if (cold_l2) evictor.fill_bytes(static_cast<int>(r & 0xFF));
    timer.start();
    SSSP_CUDA_CHECK(cudaMemcpyAsync(to.data(), from.data(), bytes, cudaMemcpyDeviceToDevice));
    timer.stop();
    samples.push_back(timer.elapsed_ms());
  }
  std::sort(samples.begin(), samples.end());
  const double ms = samples[samples.size() / 2];
  return 2.0 * static_cast<double>(bytes) / (ms * 1e6);
}

}  // namespace lab06
