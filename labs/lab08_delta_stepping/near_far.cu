// Lab 08 (b): Near-Far (Davidson, Baxter, Garland and Owens, IPDPS 2014, as
// Wang, Fussell and Lin describe it in the ADDS paper, section 4).
//
// Delta-stepping with two buckets. The near list holds vertices whose
// distance is below a threshold; expanding them is one launch (a "near
// round"), and the vertices it improves go to the next near list if their new
// distance is still below the threshold, else to the far pile. When a near
// round leaves the near list empty, a "split" advances the threshold by delta
// and moves the far vertices now below it to the near list. Both lists are
// pre-allocated: no allocation while the run goes.
//
// What makes this version fast on graphs of high diameter, where most rounds
// are tiny (a road graph has thousands of rounds of a few hundred vertices):
//  - The GPU drives itself. Each launch of the one step kernel reads the loop
//    state its predecessor left (counts and threshold in device memory) and
//    decides on its own whether it is a near round, a split or idle (task 6
//    writes that state for the next launch). The host only queues launches,
//    rounds_per_check at a time, and looks whether the run is done; it never
//    decides anything, so it never has to wait.
//  - Near lists, their counts and loop state rotate through three copies by
//    launch number: launch L reads copy L, appends to copy L+1 (emptied by
//    launch L-1) and empties copy L+2 for its successor; the far piles rotate
//    the same way by split number. Two copies would need a barrier between
//    the reads of one launch and the reset for the next.
//  - Deduplication keeps every list within n entries: a vertex enters a
//    launch's next near list once (a stamp holds the launch that queued it),
//    the far pile once (a mark), and a stale copy of a vertex, one already
//    expanded at its current distance, is skipped when popped.
//
// Why it is correct: every distance only ever drops, by atomicMin, to a real
// path length, and the thread whose offer lowered dist[w] makes sure w is
// queued (near or far) or already is. Near items are expanded at their
// current distance; a far item is moved to near once the threshold passes its
// distance, or dropped if its distance fell below the old threshold, because
// then the improvement that lowered it queued it in a near list. The run ends
// when both lists are empty: every improvement has been expanded, so every arc
// satisfies dist[w] <= dist[v] + w(v, w), the Bellman-Ford fixpoint.
#include <cooperative_groups.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>

#include "lab08.hpp"
#include "sssp/cuda/atomics.cuh"
#include "sssp/cuda/block_work.cuh"
#include "sssp/cuda/device.hpp"
#include "sssp/cuda/device_graph.cuh"
#include "sssp/cuda/launch.cuh"
#include "sssp/cuda/pinned_array.cuh"
#include "sssp/cuda/stream.cuh"
#include "sssp/cuda/timed_run.cuh"
#include "sssp/errors.hpp"

namespace lab08 {
namespace {
// Before near_far_tasks.cuh: its stubs record an unfinished task here.
SSSP_DEVICE_TODO_STATE_IN(8, {4, "near_far_tasks.cuh"}, {5, "near_far_tasks.cuh"}, {6, "near_far_tasks.cuh"},
                          {8, "near_far_tasks.cuh"});
}  // namespace
}  // namespace lab08

// Tasks 4, 5, 6 and 8 with the lists and loop state they write, in their own
// file, so that the checkpoints (checkpoints.cu) run them too.
#include "near_far_tasks.cuh"

namespace lab08 {

using sssp::Counters;
using sssp::edge_t;
using sssp::weight_t;
using sssp::cuda::BlockWork;
using sssp::cuda::DeviceBuffer;

namespace {

// Whether near item v is to be expanded, and at which distance (*dv): not
// if it is a stale copy, queued again after an improvement and already
// expanded (or being expanded) at its current distance. Called by one lane.
__device__ bool claim_expansion(const dist_t* dist, const Lists& lists, vertex_t v, dist_t* dv) {
  *dv = load_dist(dist, v);
  if (*dv >= sssp::cuda::load_relaxed(&lists.expanded_at[v])) return false;
  sssp::cuda::store_relaxed(&lists.expanded_at[v], *dv);  // two copies racing here both expand: harmless
  return true;
}

// One step of the run: a near round, a split or nothing, as the state left by
// the previous launch says (task 8 decides which). Every block reads the same
// state, written by the previous launch, so all of them agree on what this
// launch is.
//
// In a near round a tile of kLanes threads expands each item: its leader
// claims the item, then the lanes take its arcs in turn. The rounds of a road
// or grid graph are small and latency-bound: a round lasts as long as its
// slowest warp, and a warp that serves several items serialises their
// divergent atomics. On an H100 a whole warp per item was fastest even at
// out-degree 4 (see the handout's table).
template <unsigned kLanes>
__global__ void __launch_bounds__(1024)
    step(const edge_t* __restrict__ offsets, const vertex_t* __restrict__ targets, const weight_t* __restrict__ weights,
         dist_t* dist, Lists lists, dist_t delta, unsigned number, BlockWork* block_work) {
  __shared__ unsigned long long expanded;
  __shared__ unsigned long long arcs;
  __shared__ unsigned long long far_min;
  if (threadIdx.x == 0) {
    expanded = 0;
    arcs = 0;
    far_min = sssp::kInfinity;
  }
  __syncthreads();

  const Step step = decide_step(lists, number, delta);
  const Frontier& now = step.now;
  const Launch& launch = step.launch;
  const unsigned near_in_count = step.near_in_count;
  const unsigned far_in_count = step.far_in_count;
  const bool near_round = step.near_round;
  const bool split = step.split;

  if (near_round) {
    const vertex_t* near_in = step.near_in;
    const auto tile = cg::tiled_partition<kLanes>(cg::this_thread_block());
    const std::uint64_t tiles = sssp::cuda::grid_stride() / kLanes;
    unsigned long long my_arcs = 0;
    for (std::uint64_t i = sssp::cuda::global_thread_index() / kLanes; i < near_in_count; i += tiles) {
      const vertex_t v = near_in[i];
      // The arc range is loaded while the leader claims the item: a round is
      // a chain of dependent memory round trips, and this takes one off it.
      const edge_t begin = offsets[v];
      const edge_t end = offsets[v + 1];
      dist_t dv = 0;
      bool claimed = false;
      if (tile.thread_rank() == 0) claimed = claim_expansion(dist, lists, v, &dv);
      if (!tile.shfl(claimed, 0)) continue;  // the same for every lane of the tile
      dv = tile.shfl(dv, 0);
      if (tile.thread_rank() == 0) atomicAdd(&expanded, 1ull);
      // 64-bit, start included: a lane's index passes `end` by up to kLanes - 1 (see launch.cuh).
      for (std::uint64_t e = std::uint64_t{begin} + tile.thread_rank(); e < end; e += kLanes) {
        relax_and_route(targets, weights, dist, lists, launch, dv, e);
        ++my_arcs;
      }
    }
    if (my_arcs != 0) atomicAdd(&arcs, my_arcs);
  } else if (split) {
    const vertex_t* far_in = step.far_in;
    for (std::uint64_t i = sssp::cuda::global_thread_index(); i < far_in_count; i += sssp::cuda::grid_stride()) {
      const dist_t stays = split_far_item(dist, lists, launch, now.threshold, far_in[i]);
      if (stays != sssp::kInfinity) atomicMin(&far_min, static_cast<unsigned long long>(stays));
    }
  }
  __syncthreads();

  if (threadIdx.x != 0) return;
  if (expanded != 0) sssp::cuda::add_block_work(block_work, expanded, arcs);
  if (far_min != sssp::kInfinity) {
    atomicMin(reinterpret_cast<unsigned long long*>(&lists.frontier[(number + 1) % kCopies].far_min), far_min);
  }
  if (blockIdx.x != 0) return;
  leave_state_for_the_next_launch(lists, number, now, launch.threshold, near_round, split);
  // Given: a stub of the skeleton ran (a device TODO is recorded): end the run
  // at this launch, since the loop's state may then never say done.
  RunStats& stats = *lists.stats;
  if (sssp::cuda::load_relaxed(&sssp_device_todo_task) != 0 && stats.done_launch == 0) stats.done_launch = number;
}

using StepKernel = decltype(&step<1>);

// The step kernel for `lanes` threads per near item.
StepKernel step_kernel(unsigned lanes) {
  switch (lanes) {
    case 1: return step<1>;
    case 2: return step<2>;
    case 4: return step<4>;
    case 8: return step<8>;
    case 16: return step<16>;
    default:  // 32: validate() allows nothing else
      return step<32>;
  }
}

// Every distance infinite but the source's; the source alone in near list 1
// (launch 1 reads copy 1) under threshold delta; everything else empty.
__global__ void initialise(vertex_t n, vertex_t source, dist_t delta, dist_t* dist, Lists lists, BlockWork* block_work,
                           unsigned blocks) {
  for (std::uint64_t v = sssp::cuda::global_thread_index(); v < n; v += sssp::cuda::grid_stride()) {
    dist[v] = v == source ? 0 : sssp::kInfinity;
    lists.expanded_at[v] = sssp::kInfinity;
    lists.queued_by[v] = 0;
    lists.in_far[v] = 0;
    if (v < blocks) block_work[v] = BlockWork{};
  }
  if (sssp::cuda::global_thread_index() == 0) {
    for (unsigned c = 0; c < kCopies; ++c) {
      lists.near_count[c] = 0;
      lists.far_count[c] = 0;
      lists.frontier[c] = Frontier{delta, sssp::kInfinity, 0};
    }
    lists.near_list(1)[0] = source;
    lists.near_count[1] = 1;
    *lists.stats = RunStats{};
  }
}

}  // namespace

void validate(const NearFarOptions& o) {
  sssp::cuda::require_block_size(o.block_size);
  sssp::require_option(o.c > 0.0 && std::isfinite(o.c), "Near-Far's constant C", "a positive finite number", o.c);
  sssp::require_option(o.rounds_per_check != 0, "rounds per check", "at least 1", o.rounds_per_check);
  const unsigned lanes = o.lanes_per_item;
  sssp::require_option(
      lanes != 0 && lanes <= sssp::cuda::kWarpSize && (lanes & (lanes - 1)) == 0 && o.block_size % lanes == 0,
      "lanes per item", "a power of two up to 32 that divides the block size " + std::to_string(o.block_size), lanes);
}

struct NearFarSssp::Impl {
  NearFarOptions options;
  vertex_t n;
  dist_t delta;
  sssp::cuda::DeviceCsr graph;
  DeviceBuffer<dist_t> dist;
  DeviceBuffer<vertex_t> near;    // kCopies lists of n
  DeviceBuffer<vertex_t> far;     // kCopies lists of n
  DeviceBuffer<unsigned> counts;  // near counts, then far counts
  DeviceBuffer<Frontier> frontier;
  DeviceBuffer<RunStats> stats;
  DeviceBuffer<unsigned> queued_by;
  DeviceBuffer<unsigned> in_far;
  DeviceBuffer<dist_t> expanded_at;
  StepKernel kernel;  // step<lanes per item>
  unsigned grid;      // blocks of every step launch: as many as are resident at once
  sssp::cuda::BlockWorkCounters block_work;
  sssp::cuda::Stream stream;
  sssp::cuda::PinnedArray<RunStats> looks{2, "Near-Far looks"};  // the stats as of the last two looks
  sssp::cuda::Event looked[2];
  unsigned long long last_splits = 0;

  Impl(const CsrGraph& g, NearFarOptions o)
      : options((validate(o), o)),
        n(g.num_vertices()),
        delta(o.delta != 0 ? o.delta : choose_delta(g, DeltaRule::kNearFar, o.c)),
        graph((require_memory(g), g)),
        dist(n, "distances"),
        near(kCopies * std::uint64_t{capacity()}, "near lists"),
        far(kCopies * std::uint64_t{capacity()}, "far piles"),
        counts(2 * kCopies, "list counts"),
        frontier(kCopies, "loop states"),
        stats(1, "run statistics"),
        queued_by(n, "near stamps"),
        in_far(n, "far marks"),
        expanded_at(n, "expanded distances"),
        kernel(step_kernel(o.lanes_per_item)),
        grid(step_grid(kernel, n, o.block_size)),
        block_work(grid) {}

  static void require_memory(const CsrGraph& g) {
    const std::uint64_t n = g.num_vertices();
    using sssp::cuda::device_bytes;
    const std::uint64_t bytes = sssp::cuda::csr_device_bytes(g) + device_bytes<dist_t>(2 * n) +
                                device_bytes<vertex_t>(2 * kCopies * n) + device_bytes<unsigned>(2 * n);
    sssp::cuda::require_free_memory(bytes, "lab 08 Near-Far on " + sssp::describe(g));
  }

  [[nodiscard]] vertex_t capacity() const { return std::max<vertex_t>(n, 1); }

  // A grid that fits on the GPU at once: more blocks would only queue behind
  // the first wave, and most rounds are far smaller than one wave.
  static unsigned step_grid(StepKernel kernel, vertex_t n, unsigned block_size) {
    return std::min(sssp::cuda::resident_grid(kernel, block_size),
                    sssp::cuda::grid_for(std::max<vertex_t>(n, 1), block_size));
  }

  Lists lists() {
    Lists l{};
    l.near = near.data();
    l.far = far.data();
    l.near_count = counts.data();
    l.far_count = counts.data() + kCopies;
    l.frontier = frontier.data();
    l.stats = stats.data();
    l.queued_by = queued_by.data();
    l.in_far = in_far.data();
    l.expanded_at = expanded_at.data();
    l.capacity = capacity();
    return l;
  }

  // Enqueues launches first .. first + count - 1, then a copy of the stats to
  // look slot `slot`.
  void enqueue_batch(unsigned first, unsigned count, unsigned slot, Counters& work) {
    const Lists l = lists();
    for (unsigned number = first; number < first + count; ++number) {
      kernel<<<grid, options.block_size, 0, stream.get()>>>(graph.offsets.data(), graph.targets.data(),
                                                            graph.weights.data(), dist.data(), l, delta, number,
                                                            block_work.device());
      SSSP_CUDA_CHECK_LAUNCH();
    }
    work.kernel_launches += count;
    SSSP_CUDA_CHECK(
        cudaMemcpyAsync(&looks[slot], stats.data(), sizeof(RunStats), cudaMemcpyDeviceToHost, stream.get()));
    looked[slot].record(stream.get());
  }
};

NearFarSssp::NearFarSssp(const CsrGraph& graph, NearFarOptions options)
    : impl_(std::make_unique<Impl>(graph, options)) {}

NearFarSssp::~NearFarSssp() = default;

dist_t NearFarSssp::delta() const { return impl_->delta; }

unsigned long long NearFarSssp::last_splits() const { return impl_->last_splits; }

SsspResult NearFarSssp::run(vertex_t source) {
  Impl& s = *impl_;
  cudaStream_t stream = s.stream.get();
  SsspResult result = sssp::cuda::timed_run<dist_t>(
      device_todo(), source, s.n,
      [&](Counters& work) -> DeviceBuffer<dist_t>& {
        initialise<<<sssp::cuda::grid_for(s.n, s.options.block_size), s.options.block_size, 0, stream>>>(
            s.n, source, s.delta, s.dist.data(), s.lists(), s.block_work.device(), s.grid);
        SSSP_CUDA_CHECK_LAUNCH();
        ++work.kernel_launches;
        // Batch b + 1 is queued before the host waits for batch b's look, so
        // the GPU never idles while the host looks; the price is one batch of
        // idle launches after the end.
        const unsigned batch = s.options.rounds_per_check;
        unsigned queued = 0;
        s.enqueue_batch(1, batch, 0, work);
        queued += batch;
        for (unsigned b = 0;; ++b) {
          s.enqueue_batch(queued + 1, batch, (b + 1) % 2, work);
          queued += batch;
          SSSP_CUDA_CHECK(cudaEventSynchronize(s.looked[b % 2].get()));
          ++work.host_syncs;
          const RunStats& look = s.looks[b % 2];
          if (look.done_launch != 0 || look.overflow != 0) break;
        }
        return s.dist;
      },
      stream);
  // The look of the last batch, after the timed part, for exact counters.
  const RunStats final_stats = s.stats.to_host(stream).front();
  if (final_stats.overflow != 0) {
    throw sssp::AlgorithmError("Near-Far: a worklist of " + std::to_string(s.n) +
                               " slots overflowed; a vertex may enter a near list once per launch and the far "
                               "pile once: is the deduplication (queued_by, in_far) right?");
  }
  result.counters.iterations = final_stats.near_rounds + final_stats.splits;
  s.last_splits = final_stats.splits;
  s.block_work.add_to(result.counters, stream);
  return result;
}

}  // namespace lab08
