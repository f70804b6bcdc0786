/// @file
/// @brief Lab 09's test hooks (given code, not a task): the queue harness,
/// which runs tasks 2 and 3 alone, or task 2 alone (queue_harness.cu), and the checkpoints,
/// which run task 4's, 6's, 7's, 8's or 9's device function once on state set by hand
/// (relax_checkpoint.cuh, checkpoints.cu). Only the graded tests and their binding call them; the
/// solver's contracts are in lab09.hpp.
///
/// A plain C++ header: the tests include it without nvcc.
#pragma once

#include <vector>

#include "lab09.hpp"

namespace lab09 {

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
  /// Task 2 alone (its checkpoint): the writers of kPublishThenScan, and no
  /// scan at all; the trace holds what they left in the queue (no item read,
  /// every read end 0).
  kPublishOnly = 3,
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

/// Task 4's checkpoint's stand-in for bucket_of (task 1): the bucket an
/// offer goes to there, (offer / 10) mod kBuckets. Not the solver's rule (that
/// one is task 1): checkpoint_relax_and_route passes it to relax_and_route,
/// and the tests compute the same to know where each winner belongs.
[[nodiscard]] LAB09_HOST_DEVICE inline unsigned checkpoint_bucket(dist_t offer) {
  return static_cast<unsigned>((offer / 10) % kBuckets);
}

/// What task 4's checkpoint sets before one block of threads each make one
/// offer (checkpoint_relax_and_route). The chunk's local bucket's list
/// starts empty; its parts cover distances 10 x local_bucket on, one each.
struct RelaxState {
  std::vector<dist_t> dist;          ///< dist of each vertex before the call: 1 to 4096 vertices.
  std::vector<vertex_t> targets;     ///< Per thread (1 to 1024 threads): the vertex w it offers to.
  std::vector<dist_t> offers;        ///< Per thread: its offer, below kInfinity.
  unsigned local_bucket = kBuckets;  ///< The chunk's local bucket (Chunk::local_bucket); kBuckets: none.
  unsigned local_items = 4096;       ///< Run::local_items, 0 to 4096: the list's 32 parts of ceil(local_items / 32).
};

/// What relax_and_route (task 4) left, each thread having called it once.
struct RelaxCheckpoint {
  std::vector<dist_t> dist;                ///< dist of each vertex after the call.
  std::vector<vertex_t> kept;              ///< Every item in the block's list (the used slots of each part).
  std::vector<vertex_t> published;         ///< Every call of the stand-in publish, in no order: the vertex,
  std::vector<unsigned> published_bucket;  ///< and the bucket.
};

/// Task 4 alone: one block, thread t calls relax_and_route(w = targets[t],
/// offers[t]) once, with the stand-ins checkpoint_bucket for bucket_of and a
/// publish that records its calls (no queue, tasks 1 and 2 not run). Given
/// code in relax_checkpoint.cuh, which adds.cu (where relax_and_route is)
/// includes at its end. Throws as the other checkpoints.
[[nodiscard]] RelaxCheckpoint checkpoint_relax_and_route(const RelaxState& state);

// Checkpoints: given harness kernels (checkpoints.cu) that run task 6's,
// task 7's or task 8's device function, the very one the solver calls
// (chunk_tasks.cuh, hand_out.cuh),
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

/// What task 8's checkpoint sets before the manager's warp hands out chunks
/// (checkpoint_hand_out): the workers, the open buckets, and how far each
/// bucket is readable. Every worker not idle holds a chunk of its own (its
/// word is a chunk, its held count 5); an idle worker's word is kIdleWord
/// and its held count 0.
struct HandOutState {
  unsigned workers = 1;            ///< Worker blocks, 1 to 1024.
  std::vector<unsigned> idle_map;  ///< 32 words, bit w % 32 of word w / 32: worker w is idle (only w < workers).
  unsigned head = 0;               ///< The head bucket, below 32.
  unsigned max_open = 2;           ///< Run::max_open, 1 to 32: buckets head .. head + max_open - 1 are open.
  std::vector<unsigned> read;      ///< Per bucket (32 entries): slots handed out before the call (LaneBucket::read).
  /// Per bucket: the end of its written slots, at least `read`. The
  /// harness's scan_readable_end (a stand-in for task 3's readable_end)
  /// returns, for bucket b from slot s, this end, but never more than 32
  /// segments (1024 slots) past s's segment, and never less than s.
  std::vector<unsigned> readable;
  std::vector<unsigned> resv;    ///< Per bucket: slots reserved, at least `readable`.
  std::vector<unsigned> mapped;  ///< Per bucket: its mapped end, a multiple of 4096, at least `readable`.
};

/// What hand_out_chunks (task 8) left, called once by one warp.
struct HandOutCheckpoint {
  std::vector<unsigned> plan_idle;                 ///< Per lane (32 entries): Plan::idle returned.
  std::vector<unsigned> plan_used;                 ///< Per lane: Plan::used.
  std::vector<unsigned> plan_open_used;            ///< Per lane: Plan::open_used.
  std::vector<unsigned> read;                      ///< Per bucket (lane): LaneBucket::read after the call.
  std::vector<unsigned> freed;                     ///< Per bucket: LaneBucket::freed after (before: read rounded
                                                   ///< down to a page).
  std::vector<unsigned> mapped;                    ///< Per bucket: LaneBucket::mapped after (before: the state's).
  std::vector<unsigned> idle_map;                  ///< The idle bitmap after the call (32 words).
  std::vector<unsigned long long> words_before;    ///< Each worker's assignment word before the call.
  std::vector<unsigned long long> words;           ///< Each worker's assignment word after it.
  std::vector<unsigned> held_before;               ///< Each worker's ManagerStorage::held before the call.
  std::vector<unsigned> held;                      ///< Each worker's held count after it.
  unsigned long long inflight = 0;                 ///< The warp's sum of `inflight` after the call (0 before).
  unsigned long long scans = 0;                    ///< Calls of the stand-in scan_readable_end (counted once per warp).
  unsigned long long partial_scans = 0;            ///< Of those, calls by only part of the warp.
  unsigned long long scans_with_wrong_bounds = 0;  ///< Calls whose mapped_end or resv was not bucket b's.
  /// The first such call: its bucket, mapped_end and resv (kBuckets: none).
  unsigned wrong_bucket = 32, wrong_mapped = 0, wrong_resv = 0;
};

/// Task 8 alone: one warp, lane L holding bucket L's ends and idle bits of
/// `state`, calls hand_out_chunks once, with the harness's
/// scan_readable_end (tasks 3 and 7 not run).
[[nodiscard]] HandOutCheckpoint checkpoint_hand_out(const HandOutState& state);

/// What task 9's checkpoint sets before the manager's warp measures the
/// run twice (checkpoint_delta_signal): one pass's counters, the position,
/// and the workers' counters at each of the two decisions.
struct SignalState {
  std::vector<unsigned> resv;  ///< Per bucket (32 entries): slots reserved (PassCounts::resv).
  std::vector<unsigned> read;  ///< Per bucket: slots handed out, this pass's hand-out included (may pass resv).
  unsigned head = 0;           ///< The head bucket, below 32.
  unsigned buckets_used = 32;  ///< Run::buckets_used, 2 to 32.
  dist_t delta = 1;            ///< position.delta, at least 1.
  unsigned held_total = 0;     ///< Items the workers hold.
  unsigned workers = 1;        ///< Run::workers, 1 to 1024.
  double average_degree = 1;   ///< Run::average_degree, finite and at least 0.
  unsigned long long seen_expansions = 0;  ///< DeltaHistory before the first decision: expansions,
  unsigned long long seen_repeats = 0;     ///< and repeats.
  /// Work::expansions and Work::repeats at the first decision (entry 0) and
  /// at the second (entry 1); each counter at least the one before it.
  std::vector<unsigned long long> expansions, repeats;
};

/// What measure_delta_signal (task 9) returned, called twice by one warp.
struct SignalCheckpoint {
  std::vector<DeltaSignal> first;                   ///< Per lane (32 entries): the first decision's signal.
  std::vector<DeltaSignal> second;                  ///< Per lane: the second's, from the `seen` the first left.
  std::vector<unsigned long long> seen_expansions;  ///< Per lane: DeltaHistory::expansions after the second,
  std::vector<unsigned long long> seen_repeats;     ///< and DeltaHistory::repeats.
};

/// Task 9 alone: one warp, lane L holding bucket L's counters of `state`,
/// calls measure_delta_signal at the first decision's counters, then, with
/// the counters moved to the second's, again from the `seen` it left.
[[nodiscard]] SignalCheckpoint checkpoint_delta_signal(const SignalState& state);

}  // namespace lab09
