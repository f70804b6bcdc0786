// Lab 09: the host side of ADDS (given code): AddsSssp's options, buffers,
// launch, statistics and errors. adds.cu includes it at its end (one
// translation unit: see there), after the kernel it launches.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

namespace lab09 {
namespace {

// C x W / D, at least 1: lab 08's Near-Far rule (its task 1), written again
// here because one lab never links another lab's student code.
dist_t start_delta(const CsrGraph& g, double c) {
  if (g.num_edges() == 0) return 1;
  long double total = 0;
  for (const weight_t w : g.weights) total += w;
  const long double n = g.num_vertices();
  const long double m = g.num_edges();
  const long double width = static_cast<long double>(c) * total * n / (m * m);
  return width >= 0x1p62L ? dist_t{1} << 62 : std::max<dist_t>(1, static_cast<dist_t>(width));
}

// Live items, not all pushes, must fit: pages return to the pool as buckets drain.
unsigned pool_pages_for(const CsrGraph& g) {
  const std::uint64_t items = std::max<std::uint64_t>({4ull * g.num_vertices(), g.num_edges(), 1ull << 20});
  return static_cast<unsigned>(std::min<std::uint64_t>(items / kPage + (kAheadPages + 1) * kBuckets, 1u << 20));
}

}  // namespace

void validate(const AddsOptions& o) {
  using sssp::require_option;
  require_option(o.c > 0.0 && std::isfinite(o.c), "ADDS: the constant C of the starting delta",
                 "a positive finite number", o.c);
  require_option(o.buckets >= 2 && o.buckets <= kBuckets, "ADDS: buckets", "2 to 32", o.buckets);
  require_option(o.max_open != 0 && o.max_open <= o.buckets, "ADDS: open buckets",
                 "1 to buckets (" + std::to_string(o.buckets) + ")", o.max_open);
  require_option(o.workers <= kMaxWorkers, "ADDS: worker blocks",
                 "0 (as many as fit) to " + std::to_string(kMaxWorkers), o.workers);
  require_option(o.local_items <= kLocal, "ADDS: local items",
                 "0 to " + std::to_string(kLocal) + " (a worker block's list)", o.local_items);
  require_option(o.delta <= (dist_t{1} << 62), "ADDS: delta",
                 "at most 2^62 (a wider bucket holds every distance anyway)", o.delta);
  require_option(o.pool_pages <= (1u << 20), "ADDS: pool pages", "at most 2^20 (16 GiB of slots)", o.pool_pages);
}

struct AddsSssp::Impl {
  AddsOptions options;
  vertex_t n;
  dist_t delta0;
  double average_degree;
  unsigned pages;
  unsigned grid;
  sssp::cuda::DeviceCsr graph;
  DeviceBuffer<dist_t> dist, expanded_at;
  DeviceBuffer<Bucket> buckets;
  DeviceBuffer<unsigned> mapped, ring, wcc, page_done, free_pages, idle_map, trace_count;
  DeviceBuffer<vertex_t> pool;
  DeviceBuffer<unsigned long long> assignment;
  DeviceBuffer<Control> control;
  DeviceBuffer<Work> work;
  DeviceBuffer<TraceEntry> trace;
  sssp::cuda::Stream stream;
  bool ran = false;

  Impl(const CsrGraph& g, const AddsOptions& o)
      : options(validated(o)),
        n(g.num_vertices()),
        delta0(o.delta != 0 ? o.delta : start_delta(g, o.c)),
        average_degree(g.num_vertices() == 0 ? 0.0 : static_cast<double>(g.num_edges()) / g.num_vertices()),
        pages(o.pool_pages != 0 ? o.pool_pages : pool_pages_for(g)),
        grid(launch_grid(options.workers)),
        graph((require_memory(g, pages, grid), g)),
        dist(n, "distances"),
        expanded_at(n, "expanded-at distances"),
        buckets(kBuckets, "buckets"),
        mapped(kBuckets, "mapped ends"),
        ring(std::uint64_t{kBuckets} * pages, "page rings"),
        wcc(std::uint64_t{pages} * kSegmentsPerPage, "write-completed counters"),
        page_done(pages, "page completions"),
        free_pages(pages, "free pages"),
        idle_map(kMaxWorkers / 32, "idle bitmap"),
        trace_count(1, "trace length"),
        pool(std::uint64_t{pages} * kPage, "page pool"),
        assignment(grid - 1, "assignment words"),
        control(1, "manager state"),
        work(1, "work counters"),
        trace(kTrace, "trace") {}

  static AddsOptions validated(const AddsOptions& o) {
    validate(o);
    return o;
  }

  static void require_memory(const CsrGraph& g, unsigned pages, unsigned grid) {
    using sssp::cuda::device_bytes;
    const std::uint64_t v = g.num_vertices();
    const std::uint64_t bytes = sssp::cuda::csr_device_bytes(g) + device_bytes<dist_t>(2 * v) +
                                device_bytes<vertex_t>(std::uint64_t{pages} * kPage) +
                                device_bytes<unsigned>(std::uint64_t{pages} * (kSegmentsPerPage + 2 + kBuckets)) +
                                device_bytes<unsigned long long>(grid) + device_bytes<TraceEntry>(kTrace);
    sssp::cuda::require_free_memory(
        bytes, "lab 09 ADDS on " + sssp::describe(g) + " with " + std::to_string(pages) + " queue pages");
  }

  // Every block must be resident at once: the manager and the workers wait
  // on each other, so a block that waits for a free SM would never start.
  // The cooperative launch refuses a grid larger than this. `workers`: the
  // option (0: as many as fit).
  static unsigned launch_grid(unsigned workers) {
    const auto& gpu = sssp::cuda::query_device();
    if (!gpu.available) throw sssp::CudaError("ADDS needs a GPU: " + gpu.reason);
    const unsigned resident = sssp::cuda::resident_grid(adds_kernel, kBlock);
    if (resident < 2) throw sssp::CudaError("ADDS needs room for a manager and a worker block at once");
    const unsigned most = std::min(resident, kMaxWorkers + 1);
    if (workers == 0) return most;
    if (workers > most - 1) {
      throw sssp::InputError("ADDS: " + std::to_string(workers) + " worker blocks asked for, but only " +
                             std::to_string(most - 1) + " fit on this GPU beside the manager");
    }
    return workers + 1;
  }

  // Empties the queue and puts the source in bucket 0, as if published: slot
  // 0 of the last page of the pool, which bucket 0's ring starts with.
  void reset(vertex_t source) {
    cudaStream_t st = stream.get();
    std::vector<dist_t> d(n, sssp::kInfinity);
    d[source] = 0;
    dist.upload(d, st);
    expanded_at.upload(std::vector<dist_t>(n, sssp::kInfinity), st);
    std::vector<Bucket> b(kBuckets, Bucket{0, 0, 0});
    b[0].resv = 1;
    buckets.upload(b, st);
    std::vector<unsigned> m(kBuckets, 0);
    m[0] = kPage;
    mapped.upload(m, st);
    ring.fill_bytes(0, st);
    const unsigned first_page = pages - 1;
    std::vector<unsigned> free_list(pages);
    for (unsigned p = 0; p < pages; ++p) free_list[p] = p;
    free_pages.upload(free_list, st);
    wcc.fill_bytes(0, st);
    page_done.fill_bytes(0, st);
    SSSP_CUDA_CHECK(cudaMemcpyAsync(ring.data(), &first_page, sizeof first_page, cudaMemcpyHostToDevice, st));
    SSSP_CUDA_CHECK(cudaMemcpyAsync(pool.data() + std::uint64_t{first_page} * kPage, &source, sizeof source,
                                    cudaMemcpyHostToDevice, st));
    const unsigned one = 1;
    SSSP_CUDA_CHECK(cudaMemcpyAsync(wcc.data() + std::uint64_t{first_page} * kSegmentsPerPage, &one, sizeof one,
                                    cudaMemcpyHostToDevice, st));
    std::vector<unsigned> idle(kMaxWorkers / 32, 0);
    for (unsigned w = 0; w + 1 < grid; ++w) idle[w / 32] |= 1u << (w % 32);
    idle_map.upload(idle, st);
    assignment.fill_bytes(0, st);
    control.upload(std::vector<Control>{Control{0, delta0, 0, kNoError, 0, 0, 0, 0}}, st);
    work.fill_bytes(0, st);
    trace_count.fill_bytes(0, st);
    // These host vectors die at the end of this function: the copies must be done.
    SSSP_CUDA_CHECK(cudaStreamSynchronize(st));
  }

  Run arguments() {
    Run r{};
    r.offsets = graph.offsets.data();
    r.targets = graph.targets.data();
    r.weights = graph.weights.data();
    r.dist = dist.data();
    r.expanded_at = expanded_at.data();
    r.buckets = buckets.data();
    r.mapped = mapped.data();
    r.ring = ring.data();
    r.pool = pool.data();
    r.wcc = wcc.data();
    r.page_done = page_done.data();
    r.free_pages = free_pages.data();
    r.pages = pages;
    r.free_top = pages - 1;  // the last page holds the source
    r.assignment = assignment.data();
    r.idle_map = idle_map.data();
    r.workers = grid - 1;
    r.control = control.data();
    r.work = work.data();
    r.trace = trace.data();
    r.trace_count = trace_count.data();
    r.buckets_used = options.buckets;
    r.max_open = options.max_open;
    r.local_items = options.local_items;
    r.dynamic_delta = options.dynamic_delta;
    r.bounds = bounds();
    r.average_degree = average_degree;
    r.watchdog_ns = std::uint64_t{options.watchdog_ms} * 1000000ull;
    return r;
  }

  DeltaBounds bounds() const {
    DeltaBounds b;
    b.min_delta = std::max<dist_t>(1, delta0 / kDynamicRange);
    constexpr dist_t kWidest = dist_t{1} << 62;
    b.max_delta = delta0 >= kWidest / kDynamicRange ? std::max(delta0, kWidest) : delta0 * kDynamicRange;
    return b;
  }

  // The queue as the manager left it, for an error message.
  std::string queue_report(const Control& c) {
    std::ostringstream out;
    out << "manager pass " << c.passes << ", head bucket " << c.head << " from distance " << c.head_lo << ", delta "
        << c.delta << ", " << (grid - 1 - c.idle_workers) << " of " << (grid - 1) << " workers busy";
    const std::vector<Bucket> b = buckets.to_host(stream.get());
    for (unsigned i = 0; i < kBuckets; ++i) {
      if (b[i].resv != 0 || b[i].cwc != 0) {
        out << "; bucket " << i << ": reserved " << b[i].resv << ", handed out " << b[i].read << ", complete "
            << b[i].cwc;
      }
    }
    return out.str();
  }
};

AddsSssp::AddsSssp(const CsrGraph& graph, AddsOptions options) : impl_(std::make_unique<Impl>(graph, options)) {}

AddsSssp::~AddsSssp() = default;

dist_t AddsSssp::delta() const { return impl_->delta0; }

DeltaBounds AddsSssp::delta_bounds() const { return impl_->bounds(); }

unsigned AddsSssp::workers() const { return impl_->grid - 1; }

std::vector<TraceEntry> AddsSssp::last_trace() const {
  Impl& s = *impl_;
  if (!s.ran) return {};
  const unsigned count = std::min(s.trace_count.to_host(s.stream.get()).front(), kTrace);
  std::vector<TraceEntry> trace = s.trace.to_host(s.stream.get());
  trace.resize(count);
  return trace;
}

AddsStats AddsSssp::last_stats() const {
  Impl& s = *impl_;
  AddsStats stats;
  if (!s.ran) return stats;
  const Control c = s.control.to_host(s.stream.get()).front();
  const Work w = s.work.to_host(s.stream.get()).front();
  stats.passes = c.passes;
  stats.head_switches = c.switches;
  stats.expansions = w.expansions;
  stats.repeats = w.repeats;
  stats.local_expansions = w.local;
  for (const Bucket& b : s.buckets.to_host(s.stream.get())) stats.published += b.resv;
  stats.final_delta = c.delta;
  return stats;
}

SsspResult AddsSssp::run(vertex_t source) {
  Impl& s = *impl_;
  sssp::require_valid_source(source, s.n);  // before reset() writes its distance
  s.reset(source);
  s.ran = true;
  cudaStream_t stream = s.stream.get();
  Run r = s.arguments();
  void* args[] = {&r};
  SsspResult result = sssp::cuda::timed_run<dist_t>(
      device_todo(), source, s.n,
      [&](Counters& work) -> DeviceBuffer<dist_t>& {
        SSSP_CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(adds_kernel), dim3(s.grid),
                                                    dim3(kBlock), args, 0, stream));
        SSSP_CUDA_CHECK_LAUNCH();
        ++work.kernel_launches;
        return s.dist;
      },
      stream);
  // An unfinished task, which also stops the manager, has thrown in timed_run: an error left is the run's own.
  const Control c = s.control.to_host(stream).front();
  if (c.error == kPoolExhausted) {
    throw sssp::AlgorithmError("ADDS: the queue's page pool (" + std::to_string(s.pages) + " pages of " +
                               std::to_string(kPage) + " slots) ran out; the run stopped instead of dropping work (" +
                               s.queue_report(c) + ")");
  }
  if (c.error == kStalled) {
    throw sssp::AlgorithmError(
        "ADDS watchdog: nothing was reserved, completed or handed out for " + std::to_string(c.stalled_ms) +
        " ms, so the manager stopped the run (" + s.queue_report(c) +
        "). A bucket whose reservations stay ahead of what is handed out holds a slot whose segment counter never "
        "reached it (publish: write, fence, then count), or the scan does not see a completed segment");
  }
  if (c.error == kCounterLimit) {
    throw sssp::AlgorithmError("ADDS: a bucket passed " + std::to_string(kMaxReservations) +
                               " reservations in one run, the limit of its 32-bit counters (" + s.queue_report(c) +
                               "); a smaller delta spreads the pushes over more buckets");
  }
  if (c.error == kWordNotIdle) {
    throw sssp::AlgorithmError(
        "ADDS: a worker block, polling for its next chunk, found the chunk it had just finished still in its "
        "assignment word, so the run stopped instead of expanding it again (" +
        s.queue_report(c) +
        "). Task 6 (report_chunk_complete) must write kIdle back to the block's word before it sets the block's "
        "idle bit: the manager writes a new chunk only into the word of a worker it saw idle");
  }
  if (c.error != kNoError) throw sssp::AlgorithmError("ADDS: the run stopped with error " + std::to_string(c.error));
  const Work w = s.work.to_host(stream).front();
  result.counters.iterations = c.passes;
  result.counters.vertices_processed = w.expansions;
  result.counters.edges_relaxed = w.arcs;
  result.counters.host_syncs = 1;  // the wait for the run's end
  return result;
}

}  // namespace lab09
