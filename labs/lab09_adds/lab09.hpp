/// @file
/// @brief Lab 09 — ADDS, asynchronous dynamic delta-stepping (Wang, Fussell
/// and Lin, PPoPP 2021, section 5), in one persistent launch: a manager warp
/// and worker thread blocks sharing a circular queue of 32 buckets in global
/// memory, with no host round trip until the answer is ready.
///
/// A plain C++ header: the runner and the tests include it without nvcc.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "sssp/graph.hpp"
#include "sssp/result.hpp"
#include "sssp/types.hpp"

#if defined(__CUDACC__)
/// Compiles a function for the host and, under nvcc, for the device too:
/// tasks 1 and 5 run in the kernel and, without a GPU, in the CPU tests.
#define LAB09_HOST_DEVICE __host__ __device__
#else
#define LAB09_HOST_DEVICE
#endif

/// Lab 09: ADDS.
namespace lab09 {

using sssp::CsrGraph;
using sssp::dist_t;
using sssp::SsspResult;
using sssp::vertex_t;

/// Buckets in the circular queue: one per lane of the manager's warp.
inline constexpr unsigned kBuckets = 32;

/// Task 1: the bucket, an index 0..31 of the circular queue, that an offer
/// of distance `offer` goes to.
///
/// Bucket `head` is the head bucket; it holds distances below
/// `head_lo + delta`. Bucket `(head + k) % 32` holds [head_lo + k delta,
/// head_lo + (k + 1) delta), for k = 1 .. `buckets` - 1. An offer at or below
/// `head_lo` goes to the head bucket (an improvement of a vertex the queue
/// has moved past must still be expanded, and soon). An offer beyond the last
/// bucket's range is clipped to the last bucket, `(head + buckets - 1) % 32`.
///
/// Preconditions: `delta` >= 1, 2 <= `buckets` <= 32, `head` < 32.
/// Written in policy.cuh, which the kernel's file (adds.cu) includes. The
/// skeleton throws on the host; in the kernel it sends every offer to the
/// head bucket, which is slow but still correct.
[[nodiscard]] LAB09_HOST_DEVICE unsigned bucket_of(dist_t offer, dist_t head_lo, dist_t delta, unsigned head,
                                                   unsigned buckets = kBuckets);

/// What the manager has measured when it decides delta (task 5).
struct DeltaSignal {
  /// The bucket width now.
  dist_t delta = 1;
  /// Items held by the workers, times the graph's average out-degree, over
  /// the workers' threads: about the arcs in flight per hardware thread.
  double utilisation = 0;
  /// Of the items waiting in the queue (published, not yet assigned), the
  /// share in the last bucket, where every offer past the queue's range is
  /// clipped to. Near 1: the buckets are too narrow for the distances in play.
  double tail_share = 0;
  /// Of the items expanded since the last decision, the share that expanded
  /// a vertex a second time or more: the work delta-stepping wastes.
  double repeat_share = 0;
};

/// The controller's limits, fixed for a run.
struct DeltaBounds {
  dist_t min_delta = 1;           ///< delta never goes below this
  dist_t max_delta = 1;           ///< nor above this (min_delta <= max_delta)
  double low_utilisation = 1.0;   ///< below it the GPU starves: widen the buckets
  double high_utilisation = 8.0;  ///< above it there is work to spare: narrow them
  double max_repeat_share = 0.5;  ///< above it too much work is wasted: narrow them
  double tail_majority = 0.5;     ///< above it the last bucket holds most of the work
};

/// Task 5: delta after one decision of the manager. In this order:
///  1. the last bucket holds most of the waiting work (`tail_share` >
///     `tail_majority`): the buckets are too narrow; double delta (this is
///     the lower bound: delta never shrinks while the tail is full);
///  2. else too much work is repeated (`repeat_share` > `max_repeat_share`)
///     or there is work to spare (`utilisation` > `high_utilisation`): halve it;
///  3. else the GPU starves (`utilisation` < `low_utilisation`): double it;
///  4. else keep it.
///
/// The result is clamped to [min_delta, max_delta]; doubling must not
/// overflow. Written in policy.cuh, which adds.cu includes. The skeleton
/// throws on the host; in the kernel it keeps delta (a static delta:
/// correct, not adaptive).
[[nodiscard]] LAB09_HOST_DEVICE dist_t next_delta(const DeltaSignal& signal, const DeltaBounds& bounds);

/// How AddsSssp runs. The defaults are the reference's measured best on an
/// H100 over road, grid and R-MAT graphs (the handout's tables).
struct AddsOptions {
  /// Bucket width at the start; 0 picks C x W / D (lab 08's Near-Far rule).
  dist_t delta = 0;
  /// The constant C of the starting delta: a positive finite number.
  double c = 64.0;
  /// Buckets of the queue in use, 2 to 32: offers past the last one are
  /// clipped to it. 2 is Near-Far's split (the paper's ablation).
  unsigned buckets = kBuckets;
  /// Buckets, head first, the manager assigns from in one pass: 1 to `buckets`.
  unsigned max_open = 2;
  /// Same-bucket improvements a worker block may keep in its own list and
  /// expand itself, per chunk, before it publishes the rest: 0 to 4096,
  /// rounded up to a multiple of 32 (the list's 32 parts by distance); 0:
  /// every improvement goes through the queue.
  unsigned local_items = 4096;
  /// Whether the manager moves delta during the run (task 5's next_delta,
  /// within [delta / 16, delta x 16], every 8 head-bucket switches).
  bool dynamic_delta = false;
  /// Pages of 4096 queue slots in the pool; 0 sizes it from the graph. The
  /// manager keeps 2 pages mapped past each bucket's reservations (3 once a
  /// bucket has any), and a page returns only when all its slots are done:
  /// a run needs about 65 pages plus one per bucket it touches, and more as
  /// live items grow. Fewer than 65 always runs out (a test of the error path).
  unsigned pool_pages = 0;
  /// Worker blocks to launch beside the manager: 0, as many as fit on the
  /// GPU at once (at most 1024); or 1 to 1024, an error if that many do not
  /// fit. One worker sees every chunk: the tests use it to build chunks of
  /// many items.
  unsigned workers = 0;
  /// The manager gives up, with a report of the queue, after this long with
  /// no progress at all (nothing reserved, completed or assigned); 0 never.
  unsigned watchdog_ms = 2000;
};

/// Throws sssp::InputError naming the first option outside the range its
/// comment above states. AddsSssp's constructor calls it first; the runner
/// calls it before it loads a graph, so a bad flag fails at once.
void validate(const AddsOptions& options);

/// One decision of the manager's delta controller, as it saw it.
struct TraceEntry {
  unsigned long long pass = 0;  ///< manager passes so far
  DeltaSignal signal;           ///< what next_delta was given
  dist_t delta = 0;             ///< what next_delta returned: delta from then on
  unsigned items_held = 0;      ///< items the workers held at the decision
  unsigned buckets_open = 0;    ///< buckets assigned from in that pass
};

/// What one run did, beyond the distances.
struct AddsStats {
  unsigned long long passes = 0;            ///< manager passes
  unsigned long long head_switches = 0;     ///< times the head bucket retired
  unsigned long long expansions = 0;        ///< items expanded (stale copies skipped are not counted)
  unsigned long long repeats = 0;           ///< of those, a vertex expanded a second time or more
  unsigned long long local_expansions = 0;  ///< of those, expanded from a block's local list, not the queue
  unsigned long long published = 0;         ///< items that went through the queue (the source included)
  dist_t final_delta = 0;                   ///< delta when the run ended
};

/// What the queue harness runs (run_queue_harness): tasks 2 and 3 alone,
/// with no graph, no manager and no task 4.
enum class QueueScenario : unsigned {
  /// Writer warps publish (task 2) into a few pages of a few buckets, all at
  /// once; when every writer is done, one warp scans (task 3) each bucket
  /// from slot 0 and reads the items up to the end it gets, again and again,
  /// until the end stops moving.
  kPublishThenScan = 0,
  /// The same writers, and one reader warp that scans and reads while they
  /// publish: the manager's view of a bucket that is still being written.
  kScanRacesWithPublishers = 1,
  /// No writer: bucket 0's counters are set as if publishers were part way
  /// (`resv`, `mapped_end`, `segment_counts`), and one warp scans from
  /// `read` until the end stops moving.
  kScanStates = 2,
};

/// The queue harness's scenario and its sizes.
struct QueueHarnessOptions {
  /// What runs.
  QueueScenario scenario = QueueScenario::kPublishThenScan;
  /// Writer blocks of 256 threads (1 to 256; none with kScanStates).
  unsigned writer_blocks = 16;
  /// Publishes each writer thread may make: in round k it publishes item
  /// `thread * rounds + k` into harness_bucket(seed, thread, k, buckets),
  /// or nothing when that is kBuckets (1 to 64).
  unsigned rounds = 4;
  /// Buckets the writers publish into, 1 to 32.
  unsigned buckets = 2;
  /// Picks which threads publish, when and where.
  unsigned seed = 1;
  /// Writers sleep up to this many nanoseconds before each round, so that
  /// segments fill out of order and the reader meets them part written (0 to 100000).
  unsigned jitter_ns = 0;
  /// kScanStates: the slot the scan starts from.
  unsigned read = 0;
  /// kScanStates: bucket 0's reservations (slots [0, resv) hold items 0, 1, ...).
  unsigned resv = 0;
  /// kScanStates: bucket 0's mapped end, a multiple of 4096 (the page);
  /// slots past it belong to a page of other counters, all 32.
  unsigned mapped_end = 0;
  /// kScanStates: bucket 0's write-completed counters, segment 0 (slots 0
  /// to 31) first; the rest are 0. Only those below mapped_end count.
  std::vector<unsigned> segment_counts;
  /// The harness stops its reader, and tells publish to give up (the run is
  /// stopped), after this long: a broken queue never hangs it.
  unsigned timeout_ms = 2000;
};

/// What the queue harness saw: data, checked by the tests, never a verdict.
struct QueueTrace {
  /// Slots mapped to each bucket: bucket b's slot s is entry b x capacity + s
  /// of the per-slot vectors.
  unsigned capacity = 0;
  /// Per bucket: its reservations (Bucket::resv) at the end.
  std::vector<unsigned> resv;
  /// Per bucket: where the reader's last scan of it ended (its read end).
  std::vector<unsigned> read_end;
  /// Per slot: the item in the pool at the end (kQueueSlotEmpty: never written).
  std::vector<unsigned> slots;
  /// Per slot: the item the reader read there (kQueueSlotNotRead: it did not).
  std::vector<unsigned> read_items;
  /// Per bucket and segment (capacity / 32 per bucket): its write-completed counter at the end.
  std::vector<unsigned> counts;
  /// Every scan whose end was not its start, in order (the first 65536):
  /// the bucket, the start (read), the end readable_end returned, and the
  /// bucket's reservations loaded just before the call.
  std::vector<unsigned> scan_bucket, scan_from, scan_end, scan_resv;
  /// Scans made in all, the ones whose end did not move included.
  unsigned long long scans = 0;
  /// The reader stopped at the time limit, not because it read every item
  /// (kScanRacesWithPublishers, kPublishThenScan) or its end stopped moving.
  bool timed_out = false;
};

/// A slot of the queue harness's pool never written.
inline constexpr unsigned kQueueSlotEmpty = 0xFFFFFFFFu;
/// A slot the queue harness's reader did not read.
inline constexpr unsigned kQueueSlotNotRead = 0xFFFFFFFEu;

/// The queue harness's writers: the bucket writer thread `thread` publishes
/// to in round `round`, or kBuckets if it publishes nothing then (about a
/// quarter of the rounds, so that warps publish with some lanes idle). The
/// tests compute the same to know what was published.
[[nodiscard]] LAB09_HOST_DEVICE inline unsigned harness_bucket(unsigned seed, unsigned thread, unsigned round,
                                                               unsigned buckets) {
  unsigned x = (seed * 0x9E3779B9u) ^ (thread * 0x85EBCA6Bu) ^ (round * 0xC2B2AE35u);
  x ^= x >> 16;
  x *= 0x7FEB352Du;
  x ^= x >> 15;
  x *= 0x846CA68Bu;
  x ^= x >> 16;
  return x % 4 == 0 ? kBuckets : (x >> 8) % buckets;
}

/// The queue harness (given code, not a task): runs your publish (task 2)
/// and readable_end (task 3), the very functions of queue.cuh the solver
/// uses, in `options.scenario`, on a queue of its own (each bucket mapped to
/// a few pages, in reverse order, before the run), and returns what it saw.
/// Throws sssp::InputError for options out of range, sssp::CudaError without
/// a GPU, sssp::NotImplemented when a skeleton's task ran.
[[nodiscard]] QueueTrace run_queue_harness(const QueueHarnessOptions& options);

// Checkpoints: given harness kernels (checkpoints.cu) that run task 6's or
// task 7's device function, the very one the solver calls (chunk_tasks.cuh),
// once, on state set by hand, and return what it wrote: data, checked by the
// graded Checkpoint tests, never a verdict. Each throws sssp::InputError for
// a state of the wrong size or out of range, sssp::CudaError without a GPU,
// and sssp::NotImplemented while its task is the skeleton's stub.

/// An idle worker's assignment word (kIdle in the kernel): nothing to do.
inline constexpr unsigned long long kIdleWord = 0;
/// A slot of a worker block's local list that holds no item (kUnwritten in the kernel).
inline constexpr vertex_t kUnwrittenSlot = 0xFFFFFFFFu;
/// Slots of a worker block's local list: 32 parts of ceil(local_items / 32) slots.
inline constexpr unsigned kLocalSlots = 4096;

/// What task 6's checkpoint sets before one worker block reports its chunk
/// complete (checkpoint_chunk_end). Every other part of the state is the
/// harness's: slot i of the block's list holds i, each part's popped count is
/// min(pushed, part size) (the list is drained), every worker's word is
/// kIdleWord if its idle bit is set, else a chunk (this block's: `bucket`,
/// `start`, `count`), and Work starts at 0, to which thread t adds
/// {expansions 1, repeats t % 2, local t % 3 == 0, arcs t + 1}.
struct ChunkEndState {
  unsigned threads = 256;           ///< The block's threads: a multiple of 32, 32 to 1024.
  unsigned local_items = 4096;      ///< Run::local_items, 0 to 4096: each part has ceil(local_items / 32) slots.
  std::vector<unsigned> pushed;     ///< Per part (32 entries): slots reserved this chunk; may pass the part's size.
  unsigned workers = 1;             ///< Worker blocks, 1 to 1024.
  unsigned id = 0;                  ///< This block's worker id, below `workers`.
  unsigned bucket = 0;              ///< The chunk's bucket, below 32.
  unsigned start = 0;               ///< The chunk's first slot in its bucket.
  unsigned count = 1;               ///< The chunk's slots, 1 to 256.
  unsigned page = 0;                ///< The chunk's page, below page_done.size().
  std::vector<unsigned> cwc;        ///< Each bucket's cwc (32 entries).
  std::vector<unsigned> page_done;  ///< Each page's expanded slots (1 to 64 pages).
  /// The idle bitmap (32 words, bit w of word w / 32 for worker w): bits of
  /// workers below `workers` only, and not this block's (the manager cleared
  /// it when it handed the chunk out).
  std::vector<unsigned> idle_map;
};

/// What report_chunk_complete (task 6) left, called once by the whole block.
struct ChunkEndCheckpoint {
  std::vector<vertex_t> local;                   ///< The block's 4096 list slots (slot i held i before).
  std::vector<unsigned> cwc;                     ///< Each bucket's cwc.
  std::vector<unsigned> page_done;               ///< Each page's expanded slots.
  std::vector<unsigned> idle_map;                ///< The idle bitmap.
  std::vector<unsigned long long> words_before;  ///< Each worker's assignment word before the call.
  std::vector<unsigned long long> words;         ///< Each worker's assignment word after it.
  unsigned long long expansions = 0;             ///< Work::expansions (0 before).
  unsigned long long repeats = 0;                ///< Work::repeats (0 before).
  unsigned long long local_expansions = 0;       ///< Work::local (0 before).
  unsigned long long arcs = 0;                   ///< Work::arcs (0 before).
};

/// Task 6 alone: one block of `state.threads` threads, after its chunk and
/// list are done, calls report_chunk_complete once.
[[nodiscard]] ChunkEndCheckpoint checkpoint_chunk_end(const ChunkEndState& state);

/// What task 7's checkpoint sets before the manager's warp retires head
/// buckets (checkpoint_retire_head): one pass's counters and the position.
struct HeadState {
  std::vector<unsigned> resv;       ///< Per bucket (32 entries): slots reserved (PassCounts::resv).
  std::vector<unsigned> read;       ///< Per bucket: slots handed out, this pass's plan included.
  std::vector<unsigned> cwc;        ///< Per bucket: slots expanded, at most `read`.
  unsigned head = 0;                ///< The head bucket, below 32.
  dist_t head_lo = 0;               ///< Its first distance.
  dist_t delta = 1;                 ///< Every bucket's width, at least 1.
  unsigned long long switches = 0;  ///< Head switches so far in the run.
  bool dynamic_delta = false;       ///< Run::dynamic_delta.
  /// What the harness's adapt_delta (a stand-in for the solver's, which asks
  /// next_delta, task 5) returns at its first, second, ... call; past the
  /// list it keeps delta. At most 64 entries, each at least 1.
  std::vector<dist_t> decisions;
};

/// One call of the harness's adapt_delta: the position it was given.
struct HeadDecision {
  unsigned lanes = 0;               ///< The lanes that made this call (bit L: lane L); the whole warp: all 32.
  unsigned head = 0;                ///< Lane 0's position at the call: the head,
  dist_t head_lo = 0;               ///< its first distance,
  dist_t delta = 0;                 ///< delta,
  unsigned long long switches = 0;  ///< and the switches so far.
};

/// What retire_empty_head_buckets (task 7) left, called once by one warp.
struct HeadCheckpoint {
  std::vector<unsigned> head;                ///< Per lane (32 entries): position.head after the call.
  std::vector<dist_t> head_lo;               ///< Per lane: position.head_lo.
  std::vector<dist_t> delta;                 ///< Per lane: position.delta.
  std::vector<unsigned long long> switches;  ///< Per lane: position.switches.
  std::vector<HeadDecision> decisions;       ///< Every call of adapt_delta, in order (the first 64).
};

/// Task 7 alone: one warp, lane L holding bucket L's counters of `state`,
/// calls retire_empty_head_buckets once, with the harness's adapt_delta.
[[nodiscard]] HeadCheckpoint checkpoint_retire_head(const HeadState& state);

/// ADDS on the GPU. The constructor copies the graph once and allocates the
/// queue's page pool; run() solves from one source in one cooperative launch.
class AddsSssp {
 public:
  /// Checks `options` (sssp::InputError naming the bad value) and that the
  /// graph and the pool fit the GPU (sssp::CudaError with the bytes needed
  /// and free), picks delta and uploads `graph`.
  explicit AddsSssp(const CsrGraph& graph, AddsOptions options = {});
  ~AddsSssp();
  AddsSssp(const AddsSssp&) = delete;
  AddsSssp& operator=(const AddsSssp&) = delete;

  /// Distances from `source` (sssp::kInfinity where unreachable). Throws
  /// sssp::InvalidSource for a bad source; sssp::AlgorithmError when the
  /// page pool ran out (never a silent loss of work), the watchdog fired, or
  /// a bucket passed 2^32 - 2^20 reservations, with the queue's state; sssp::NotImplemented when a skeleton's device
  /// task ran. Counters: iterations = manager passes, vertices_processed =
  /// items expanded, edges_relaxed = their arcs (all of them, also for a hub
  /// whose expansion stopped early: an upper bound), kernel_launches = 1,
  /// host_syncs = 1 (the end). device_ms: the launch, by CUDA events.
  [[nodiscard]] SsspResult run(vertex_t source);
  /// Delta at the start of every run.
  [[nodiscard]] dist_t delta() const;
  /// The manager's trace of the last run: its first 4096 delta decisions
  /// (none with a static delta).
  [[nodiscard]] std::vector<TraceEntry> last_trace() const;
  /// What the last run did.
  [[nodiscard]] AddsStats last_stats() const;
  /// The limits task 5's next_delta gets with a dynamic delta: delta / 16 to
  /// delta x 16 around the starting delta (within 1 .. 2^62), and the default
  /// utilisation, repeat and tail limits of DeltaBounds.
  [[nodiscard]] DeltaBounds delta_bounds() const;
  /// Worker blocks of the launch: every block the GPU can hold at once, less
  /// the manager's, at most 1024.
  [[nodiscard]] unsigned workers() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace lab09
