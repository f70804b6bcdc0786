// Lab 08 (a): Chen's CUDA delta-stepping (Chen, section 5; Meyer and
// Sanders' delta-stepping).
//
// Vertices sit in buckets of width delta by distance: bucket i holds the
// vertices with i * delta <= dist < (i + 1) * delta that still have to be
// expanded. The current bucket is emptied in light rounds: its vertices are
// taken out and relax their light arcs (weight <= delta), which can put
// vertices back into it; when it stays empty, the vertices taken from it
// (the set S) relax their heavy arcs once, which can only reach later
// buckets. Then the next non-empty bucket is current.
//
// Chen's choices for a GPU, all kept here:
//  - No light and heavy arc lists: a relaxation compares the weight with
//    delta at relax time, which saves their memory and their set-up.
//  - No bucket sets: each vertex has one bucket index, BIndex(v) (kNoBucket
//    when it is in none), since a vertex is in at most one bucket at a time.
//    An improved vertex moves to bucket dist / delta by atomicMin on its
//    index, so concurrent improvements leave the smallest one's bucket.
//  - Requests compacted by a prefix sum: an exclusive scan of "BIndex(v) is
//    the current bucket" gives each such v its slot, ReqIndex(v), so taking
//    the bucket out is one parallel scatter instead of a contended counter.
//    CUB does the scan (and the select of S, and the minimum that finds the
//    next bucket), in chen_scans.cu: the lab is about the buckets, not the scan.
//  - Arcs shared evenly by a prefix sum of the requests' out-degrees (Chen
//    5.4, reqSize): it numbers their arcs, and each thread of the relaxation
//    takes an equal share of that numbering, so a hub's arcs are spread over
//    many threads instead of one (task 7). A light round gets reqSize from
//    the same scan as ReqIndex, which sums (arcs, vertices) pairs packed in
//    one 64-bit word.
//
// The host drives the loop and reads one number per light round (how many
// vertices the round took) and one per bucket (the next bucket): Near-Far,
// in near_far.cu, shows what that costs on a road graph.
#include <algorithm>
#include <cstdint>
#include <string>

#include "chen_scans.cuh"
#include "lab08.hpp"
#include "sssp/cuda/device.hpp"
#include "sssp/cuda/device_graph.cuh"
#include "sssp/cuda/host_flag.cuh"
#include "sssp/cuda/launch.cuh"
#include "sssp/cuda/stream.cuh"
#include "sssp/cuda/timed_run.cuh"
#include "sssp/errors.hpp"

namespace lab08 {
namespace {
// Before chen_tasks.cuh: its stubs record an unfinished task here.
SSSP_DEVICE_TODO_STATE_IN(8, {2, "chen_tasks.cuh"}, {3, "chen_tasks.cuh"}, {7, "chen_tasks.cuh"});
}  // namespace
}  // namespace lab08

// Tasks 2, 3 and 7, the device functions the kernels below call: in
// their own file, so that the checkpoints (checkpoints.cu) run them too.
#include "chen_tasks.cuh"

namespace lab08 {

using sssp::Counters;
using sssp::edge_t;
using sssp::weight_t;
using sssp::cuda::DeviceBuffer;

namespace {

// What a light round took out of its bucket, read by the host in one copy:
// the number of requests, and their arcs (which size the relaxation's grid).
struct RoundSize {
  unsigned count;
  edge_t arcs;
};

// Takes bucket `current` out: requests[req_index[v]] = v for each of its
// vertices, with reqSize for them (req_size[req_index[v]] = arcs_before[v],
// and the arcs of all at req_size[count]), and the round's size in *taken.
__global__ void take_bucket(vertex_t n, const edge_t* __restrict__ offsets, bucket_t* bindex, bucket_t* taken_stamp,
                            const vertex_t* req_index, const edge_t* __restrict__ arcs_before, vertex_t* requests,
                            edge_t* req_size, bucket_t current, RoundSize* taken) {
  for (std::uint64_t v = sssp::cuda::global_thread_index(); v < n; v += sssp::cuda::grid_stride()) {
    const auto vertex = static_cast<vertex_t>(v);
    const bool in = take_from_bucket(bindex, taken_stamp, req_index, requests, current, vertex);
    if (in) req_size[req_index[vertex]] = arcs_before[vertex];
    if (vertex == n - 1) {  // the exclusive scan's totals
      const vertex_t count = req_index[vertex] + (in ? 1 : 0);
      const edge_t arcs = arcs_before[vertex] + (in ? offsets[vertex + 1] - offsets[vertex] : 0);
      req_size[count] = arcs;
      *taken = RoundSize{count, arcs};
    }
  }
}

// Relaxes the light or heavy arcs of requests[0 .. *count), each thread its
// share by reqSize (task 7) and each arc by task 3; adds the arcs offered
// to *offered, once per block. reqSize covers `limit` requests: a larger
// count (only a broken task 2 makes one) is cut to it, not read past.
__global__ void relax_requests(const edge_t* __restrict__ offsets, const vertex_t* __restrict__ targets,
                               const weight_t* __restrict__ weights, dist_t* dist, bucket_t* bindex, dist_t delta,
                               bool light, const vertex_t* requests, const edge_t* req_size, const unsigned* count,
                               unsigned limit, unsigned long long* offered) {
  __shared__ unsigned long long block_offered;
  if (threadIdx.x == 0) block_offered = 0;
  __syncthreads();
  const unsigned long long mine =
      offer_share(offsets, requests, req_size, min(*count, limit), sssp::cuda::global_thread_index(),
                  static_cast<std::uint64_t>(gridDim.x) * blockDim.x,
                  [&](vertex_t v, edge_t e) { return offer_arc(targets, weights, dist, bindex, delta, light, v, e); });
  if (mine != 0) atomicAdd(&block_offered, mine);
  __syncthreads();
  if (threadIdx.x == 0 && block_offered != 0) atomicAdd(offered, block_offered);
}

// Every distance infinite and every vertex in no bucket, but the source:
// distance 0, bucket 0. Nobody has been taken out of a bucket yet.
__global__ void initialise(vertex_t n, vertex_t source, dist_t* dist, bucket_t* bindex, bucket_t* taken_stamp,
                           unsigned long long* offered) {
  for (std::uint64_t v = sssp::cuda::global_thread_index(); v < n; v += sssp::cuda::grid_stride()) {
    dist[v] = v == source ? 0 : sssp::kInfinity;
    bindex[v] = v == source ? 0 : kNoBucket;
    taken_stamp[v] = 0;
  }
  if (sssp::cuda::global_thread_index() == 0) *offered = 0;
}

}  // namespace

void validate(const DeltaSteppingOptions& o) { sssp::cuda::require_block_size(o.block_size); }

struct DeltaSteppingSssp::Impl {
  DeltaSteppingOptions options;
  vertex_t n;
  dist_t delta;
  sssp::cuda::DeviceCsr graph;
  DeviceBuffer<dist_t> dist;
  DeviceBuffer<bucket_t> bindex;            // BIndex(v)
  DeviceBuffer<bucket_t> taken_stamp;       // bucket + 1 of the last bucket v was taken from: S without clearing
  DeviceBuffer<vertex_t> req_index;         // ReqIndex(v): the exclusive scan
  DeviceBuffer<edge_t> arcs_before;         // arcs of the requests before v: the same scan
  DeviceBuffer<vertex_t> requests;          // Req
  DeviceBuffer<edge_t> req_size;            // reqSize: the exclusive scan of the requests' out-degrees
  sssp::cuda::DeviceWord<RoundSize> taken;  // what the round took, read by the host
  DeviceBuffer<unsigned> selected;          // |S|, read only by the heavy relaxation
  sssp::cuda::DeviceWord<bucket_t> next_bucket;
  sssp::cuda::DeviceWord<unsigned long long> offered;
  DeviceBuffer<std::uint8_t> cub_scratch;
  unsigned resident;     // blocks of a launch whose size only the GPU knows
  std::uint64_t degree;  // the average out-degree rounded up: threads per request in the heavy relaxation
  sssp::cuda::Stream stream;

  Impl(const CsrGraph& g, DeltaSteppingOptions o)
      : options((validate(o), o)),
        n(g.num_vertices()),
        delta(o.delta != 0 ? o.delta : choose_delta(g, o.rule)),
        graph((require_memory(g), g)),
        dist(n, "distances"),
        bindex(n, "bucket indices"),
        taken_stamp(n, "S stamps"),
        req_index(n, "request indices"),
        arcs_before(n, "arcs before each request"),
        requests(std::max<vertex_t>(n, 1), "requests"),
        req_size(static_cast<std::size_t>(n) + 1, "request sizes"),
        selected(1, "S size"),
        cub_scratch(chen_scans::scratch_bytes(n), "CUB scratch"),
        resident(resident_blocks(n, o.block_size)),
        degree(n == 0 ? 1 : std::max<std::uint64_t>((g.num_edges() + n - 1) / n, 1)) {}

  static void require_memory(const CsrGraph& g) {
    const std::uint64_t n = g.num_vertices();
    using sssp::cuda::device_bytes;
    const std::uint64_t bytes = sssp::cuda::csr_device_bytes(g) + device_bytes<dist_t>(n) +
                                device_bytes<bucket_t>(2 * n) + device_bytes<vertex_t>(2 * n) +
                                device_bytes<edge_t>(2 * n + 1) + chen_scans::scratch_bytes(g.num_vertices());
    sssp::cuda::require_free_memory(bytes, "lab 08 delta-stepping on " + sssp::describe(g));
  }

  static unsigned resident_blocks(vertex_t n, unsigned block_size) {
    return std::min(sssp::cuda::resident_grid(relax_requests, block_size),
                    sssp::cuda::grid_for(std::max<vertex_t>(n, 1), block_size));
  }

  // Relaxes the light or heavy arcs of requests[0 .. *count), at most
  // `bound` of them, shared by reqSize (already in req_size) among `threads`
  // threads, a resident grid at most.
  void relax(bool light, const unsigned* count, std::uint64_t bound, std::uint64_t threads, Counters& work) {
    const cudaStream_t s = stream.get();
    const std::uint64_t wanted = (std::max<std::uint64_t>(threads, 1) + options.block_size - 1) / options.block_size;
    const auto blocks = static_cast<unsigned>(std::min<std::uint64_t>(resident, wanted));
    relax_requests<<<blocks, options.block_size, 0, s>>>(
        graph.offsets.data(), graph.targets.data(), graph.weights.data(), dist.data(), bindex.data(), delta, light,
        requests.data(), req_size.data(), count, static_cast<unsigned>(bound), offered.device());
    SSSP_CUDA_CHECK_LAUNCH();
    ++work.kernel_launches;
  }

  // Light rounds until bucket `current` stays empty: scan, take out (with
  // reqSize), look, relax. Returns how many vertices the rounds took (with repeats): a bound on |S|.
  std::uint64_t empty_bucket(bucket_t current, Counters& work) {
    std::uint64_t taken_total = 0;
    const cudaStream_t s = stream.get();
    for (std::uint64_t round = 1;; ++round) {
      chen_scans::scan_bucket(cub_scratch.data(), cub_scratch.size(), bindex.data(), graph.offsets.data(), current,
                              req_index.data(), arcs_before.data(), n, s);
      take_bucket<<<sssp::cuda::grid_for(n, options.block_size), options.block_size, 0, s>>>(
          n, graph.offsets.data(), bindex.data(), taken_stamp.data(), req_index.data(), arcs_before.data(),
          requests.data(), req_size.data(), current, taken.device());
      SSSP_CUDA_CHECK_LAUNCH();
      work.kernel_launches += 2;
      const RoundSize round_size = taken.read(s);
      const unsigned count = round_size.count;
      ++work.host_syncs;
      if (count == 0) return std::min<std::uint64_t>(taken_total, n);
      // A bucket empties within n light rounds (each round settles at least
      // one more arc of every light path inside it). A vertex never taken out
      // would loop for ever: look for an unfinished task now and then, and
      // stop past the bound.
      if (round % 1024 == 0 || round > n) {
        device_todo().check();
        if (round > n) {
          throw sssp::AlgorithmError("delta-stepping: bucket " + std::to_string(current) + " is not empty after " +
                                     std::to_string(n) + " light rounds; are its vertices taken out of it?");
        }
      }
      relax(true, &taken.device()->count, count, round_size.arcs, work);  // a thread per arc
      taken_total += count;
      ++work.iterations;
      work.vertices_processed += count;
    }
  }

  // S relaxes its heavy arcs once: CUB selects S (at most `bound` vertices),
  // then reqSize by a CUB scan, and one launch over it.
  void relax_heavy(bucket_t current, std::uint64_t bound, Counters& work) {
    const cudaStream_t s = stream.get();
    chen_scans::select_taken(cub_scratch.data(), cub_scratch.size(), taken_stamp.data(), current, requests.data(),
                             selected.data(), n, s);
    chen_scans::scan_request_degrees(cub_scratch.data(), cub_scratch.size(), graph.offsets.data(), requests.data(),
                                     selected.data(), req_size.data(), bound + 1, s);
    work.kernel_launches += 2;
    // |S| and its arcs are on the GPU: about a thread per arc by the average
    // degree, and at least a block per SM or so, as S may hold hubs.
    const std::uint64_t threads =
        std::max<std::uint64_t>(bound * degree, std::uint64_t{resident / 8} * options.block_size);
    relax(false, selected.data(), bound, threads, work);
  }

  // The smallest bucket index of any vertex: the next bucket, or kNoBucket.
  bucket_t find_next_bucket(Counters& work) {
    chen_scans::min_bucket(cub_scratch.data(), cub_scratch.size(), bindex.data(), next_bucket.device(), n,
                           stream.get());
    ++work.kernel_launches;
    ++work.host_syncs;
    return next_bucket.read(stream.get());
  }
};

DeltaSteppingSssp::DeltaSteppingSssp(const CsrGraph& graph, DeltaSteppingOptions options)
    : impl_(std::make_unique<Impl>(graph, options)) {}

DeltaSteppingSssp::~DeltaSteppingSssp() = default;

dist_t DeltaSteppingSssp::delta() const { return impl_->delta; }

SsspResult DeltaSteppingSssp::run(vertex_t source) {
  Impl& s = *impl_;
  cudaStream_t stream = s.stream.get();
  SsspResult result = sssp::cuda::timed_run<dist_t>(
      device_todo(), source, s.n,
      [&](Counters& work) -> DeviceBuffer<dist_t>& {
        initialise<<<sssp::cuda::grid_for(s.n, s.options.block_size), s.options.block_size, 0, stream>>>(
            s.n, source, s.dist.data(), s.bindex.data(), s.taken_stamp.data(), s.offered.device());
        SSSP_CUDA_CHECK_LAUNCH();
        ++work.kernel_launches;
        // Chen's Algorithm 3: while some bucket is non-empty, empty the
        // smallest by light rounds, then relax the heavy arcs of what it held.
        for (bucket_t current = 0; current != kNoBucket;) {
          const std::uint64_t bound = s.empty_bucket(current, work);
          s.relax_heavy(current, bound, work);
          const bucket_t next = s.find_next_bucket(work);
          // Light offers from bucket i land in i or later, heavy ones after i:
          // a next bucket not after the current one means a broken task.
          if (next != kNoBucket && next <= current) {
            device_todo().check();
            throw sssp::AlgorithmError("delta-stepping: bucket " + std::to_string(current) +
                                       " is still not empty after its light rounds");
          }
          current = next;
        }
        return s.dist;
      },
      stream);
  result.counters.edges_relaxed = s.offered.read(stream);
  return result;
}

}  // namespace lab08
