// Lab 09 autograder, GPU part: the queue harness. Tasks 2 and 3 alone (task
// 2's checkpoint: task 2 alone), with no graph and no task 4: lab09::run_queue_harness (given code in
// queue_harness.cu) drives the student's publish and readable_end on a queue
// of its own and returns what it saw; the checks below are the queue's
// invariants, decided here, in the test's process. Every test needs a GPU
// and is skipped, with the reason, without one.
#include <algorithm>
#include <cstddef>
#include <sstream>
#include <string>
#include <vector>

#include "lab09.hpp"
#include "lab09_testing.hpp"
#include "sssp_test.hpp"

namespace {

using lab09::QueueHarnessOptions;
using lab09::QueueScenario;
using lab09::QueueTrace;

constexpr unsigned kSegmentSlots = 32;

constexpr const char* kPublishHint =
    "hint: task 2 (publish in queue.cuh): the lanes of a warp that publish to one bucket reserve together (one "
    "atomicAdd of the group's size on resv, each lane base + its rank in that group), write the item (__stcg), "
    "__threadfence, and only then add 1 to the slot's segment wcc";
constexpr const char* kScanHint =
    "hint: task 3 (readable_end in queue.cuh): hand out the run of full segments (wcc == 32) from read's segment "
    "up to the first that is not full, never past it; that segment only if its wcc, loaded first, and resv, "
    "reloaded after a __threadfence, say every slot reserved in it is counted (start + wcc == resv); never a wcc "
    "at or past mapped_end";

std::string scenario_text(const QueueHarnessOptions& o) {
  std::ostringstream text;
  text << (o.scenario == QueueScenario::kPublishThenScan ? "publish, then scan"
           : o.scenario == QueueScenario::kPublishOnly   ? "publish alone (no scan)"
                                                         : "scan while publishing")
       << " (" << o.writer_blocks << " writer blocks of 256 threads, " << o.rounds << " rounds, " << o.buckets
       << (o.buckets == 1 ? " bucket" : " buckets") << ", seed " << o.seed << ", jitter " << o.jitter_ns << " ns)";
  return text.str();
}

std::string item_text(unsigned item) {
  if (item == lab09::kQueueSlotEmpty) return "nothing (the slot was never written)";
  if (item == lab09::kQueueSlotNotRead) return "nothing (not read)";
  return "item " + std::to_string(item);
}

// The first broken invariant of a run with writers, or "".
std::string queue_problem(const QueueHarnessOptions& o, const QueueTrace& t) {
  std::ostringstream out;
  const std::string where = scenario_text(o) + ": ";
  // What was published, bucket by bucket: harness_bucket() decides it.
  std::vector<std::vector<unsigned>> pushed(o.buckets);
  std::vector<unsigned> bucket_of_item(std::size_t{o.writer_blocks} * 256 * o.rounds, lab09::kBuckets);
  for (unsigned thread = 0; thread < o.writer_blocks * 256; ++thread) {
    for (unsigned k = 0; k < o.rounds; ++k) {
      const unsigned b = lab09::harness_bucket(o.seed, thread, k, o.buckets);
      if (b < lab09::kBuckets) {
        pushed[b].push_back(thread * o.rounds + k);
        bucket_of_item[thread * o.rounds + k] = b;
      }
    }
  }
  if (t.resv.size() != o.buckets || t.read_end.size() != o.buckets ||
      t.slots.size() != std::size_t{o.buckets} * t.capacity || t.read_items.size() != t.slots.size() ||
      t.counts.size() != t.slots.size() / kSegmentSlots) {
    return where + "the harness returned a trace of the wrong shape";
  }
  for (unsigned b = 0; b < o.buckets; ++b) {
    const unsigned resv = t.resv[b];
    if (resv != pushed[b].size()) {
      out << where << "bucket " << b << ": " << pushed[b].size() << " items were published into it, but its resv is "
          << resv << " (expected " << pushed[b].size() << ", got " << resv
          << "): every publisher reserves exactly one slot, with an atomic\n"
          << kPublishHint;
      return out.str();
    }
    // Each slot holds an item of this bucket, each item in one slot.
    std::vector<unsigned> slot_of(bucket_of_item.size(), lab09::kQueueSlotEmpty);
    for (unsigned s = 0; s < resv; ++s) {
      const unsigned item = t.slots[std::size_t{b} * t.capacity + s];
      if (item == lab09::kQueueSlotEmpty) {
        out << where << "bucket " << b << ", slot " << s << " (segment " << s / kSegmentSlots
            << "): reserved but never written (expected an item, got nothing); so some item was written into a slot "
               "another publisher had\n"
            << kPublishHint;
        return out.str();
      }
      if (item >= bucket_of_item.size() || bucket_of_item[item] != b) {
        out << where << "bucket " << b << ", slot " << s << ": holds " << item_text(item) << ", which was "
            << (item >= bucket_of_item.size() || bucket_of_item[item] == lab09::kBuckets
                    ? std::string("never published")
                    : "published into bucket " + std::to_string(bucket_of_item[item]))
            << " (expected an item published into bucket " << b << ")\n"
            << kPublishHint;
        return out.str();
      }
      if (slot_of[item] != lab09::kQueueSlotEmpty) {
        out << where << "bucket " << b << ": item " << item << " is in slot " << slot_of[item] << " and in slot " << s
            << " (expected once)\n"
            << kPublishHint;
        return out.str();
      }
      slot_of[item] = s;
    }
    for (const unsigned item : pushed[b]) {
      if (slot_of[item] == lab09::kQueueSlotEmpty) {
        out << where << "bucket " << b << ": item " << item << " was published but is in no slot of [0, " << resv
            << ") (lost: written into a slot another publisher also wrote)\n"
            << kPublishHint;
        return out.str();
      }
    }
    // Every segment counts exactly the slots reserved (and written) in it.
    for (unsigned seg = 0; seg < t.capacity / kSegmentSlots; ++seg) {
      const unsigned start = seg * kSegmentSlots;
      const unsigned expected = resv <= start ? 0 : std::min(kSegmentSlots, resv - start);
      const unsigned got = t.counts[std::size_t{b} * (t.capacity / kSegmentSlots) + seg];
      if (got != expected) {
        out << where << "bucket " << b << ", segment " << seg << " (slots " << start << " to "
            << start + kSegmentSlots - 1 << "): its wcc is " << got << ", but " << expected
            << " of its slots were reserved and written (expected " << expected << ", got " << got
            << "): each published slot is counted once, in the segment of its own slot and page\n"
            << kPublishHint;
        return out.str();
      }
    }
    // The reader: every slot it read holds what it read, and it read them all.
    for (unsigned s = 0; s < t.capacity; ++s) {
      const unsigned got = t.read_items[std::size_t{b} * t.capacity + s];
      const unsigned final_item = t.slots[std::size_t{b} * t.capacity + s];
      if (got != lab09::kQueueSlotNotRead && got != final_item) {
        out << where << "bucket " << b << ", slot " << s << " (segment " << s / kSegmentSlots
            << "): the reader was handed it and read " << item_text(got) << ", but the item published there is "
            << final_item << " (expected " << item_text(final_item) << ", got " << item_text(got)
            << "): it was handed out before its item was written, so a worker would expand a wrong vertex\n"
            << kScanHint << "\n"
            << kPublishHint;
        return out.str();
      }
    }
    if (o.scenario != QueueScenario::kPublishOnly && t.read_end[b] != resv) {
      const unsigned at = t.read_end[b];
      const unsigned seg = at / kSegmentSlots;
      const unsigned count = seg < t.capacity / kSegmentSlots ? t.counts[std::size_t{b} * (t.capacity / 32) + seg] : 0;
      out << where << "bucket " << b << ": every writer is done and all " << resv
          << " reserved slots are written and counted, but the scan stopped at slot " << at << " (expected " << resv
          << ", got " << at << "; segment " << seg << " counts " << count
          << "): readable_end must reach every written slot, in calls of up to 32 segments, a partial last "
             "segment included"
          << (t.timed_out ? " (the harness's time limit stopped it)" : "") << "\n"
          << kScanHint;
      return out.str();
    }
  }
  // The ends: never back, never past what is reserved.
  for (std::size_t i = 0; i < t.scan_end.size(); ++i) {
    const unsigned b = t.scan_bucket[i];
    if (b >= o.buckets) return where + "the harness recorded a scan of a bucket it does not use";
    if (t.scan_end[i] < t.scan_from[i]) {
      out << where << "bucket " << b << ": readable_end(read = " << t.scan_from[i] << ") returned " << t.scan_end[i]
          << " (expected at least " << t.scan_from[i] << ", got " << t.scan_end[i]
          << "): the readable end never goes back\n"
          << kScanHint;
      return out.str();
    }
    if (t.scan_end[i] > t.resv[b]) {
      out << where << "bucket " << b << ": readable_end(read = " << t.scan_from[i] << ") returned " << t.scan_end[i]
          << ", past every slot ever reserved (expected at most " << t.resv[b] << ", got " << t.scan_end[i] << ")\n"
          << kScanHint;
      return out.str();
    }
  }
  return "";
}

QueueHarnessOptions writers(QueueScenario scenario, unsigned blocks, unsigned rounds, unsigned buckets, unsigned seed,
                            unsigned jitter_ns = 0) {
  QueueHarnessOptions o;
  o.scenario = scenario;
  o.writer_blocks = blocks;
  o.rounds = rounds;
  o.buckets = buckets;
  o.seed = seed;
  o.jitter_ns = jitter_ns;
  o.timeout_ms = 5000;
  return o;
}

void expect_queue_holds(const QueueHarnessOptions& o) {
  SCOPED_TRACE(scenario_text(o));
  const QueueTrace t = lab09::run_queue_harness(o);
  const std::string problem = queue_problem(o, t);
  if (!problem.empty()) ADD_FAILURE() << problem;
}

// A state of bucket 0 as if publishers were part way, for readable_end alone.
struct ScanState {
  const char* name;
  unsigned read;
  unsigned resv;
  unsigned mapped_end;
  std::vector<unsigned> counts;  // wcc of segments 0, 1, ...
};

std::string counts_text(const std::vector<unsigned>& counts) {
  std::ostringstream text;
  text << "[";
  for (std::size_t i = 0; i < counts.size() && i < 8; ++i) text << (i ? ", " : "") << counts[i];
  if (counts.size() > 8) text << ", ... (" << counts.size() << " segments)";
  text << "]";
  return text.str();
}

// How far [read, end) may reach: the segments from read's on that count
// every slot reserved in them, below the mapped end.
unsigned readable_limit(const ScanState& s) {
  unsigned end = s.read;
  for (unsigned seg = s.read / kSegmentSlots;; ++seg) {
    const unsigned start = seg * kSegmentSlots;
    if (start >= std::min(s.resv, s.mapped_end)) break;
    const unsigned reserved = std::min(kSegmentSlots, s.resv - start);
    const unsigned count = seg < s.counts.size() ? s.counts[seg] : 0;
    if (count != reserved) break;
    end = std::max(end, start + reserved);
  }
  return end;
}

std::string scan_problem(const ScanState& s, const QueueTrace& t) {
  std::ostringstream out;
  const unsigned limit = readable_limit(s);
  out << "state \"" << s.name << "\" (read " << s.read << ", resv " << s.resv << ", mapped end " << s.mapped_end
      << ", wcc of segments 0 on " << counts_text(s.counts) << "): ";
  const std::string where = out.str();
  out.str("");
  const auto segment_text = [&](unsigned slot) {
    const unsigned seg = slot / kSegmentSlots;
    const unsigned start = seg * kSegmentSlots;
    std::ostringstream text;
    if (slot >= s.mapped_end) {
      text << "slot " << slot << " is past the mapped end " << s.mapped_end
           << " (its ring entry is another page, whose counters must not be read)";
    } else {
      const unsigned reserved = s.resv <= start ? 0 : std::min(kSegmentSlots, s.resv - start);
      text << "slot " << slot << " is in segment " << seg << ", which counts "
           << (seg < s.counts.size() ? s.counts[seg] : 0) << " of its " << reserved
           << " reserved slots (which are written is unknown, so none of it is readable)";
    }
    return text.str();
  };
  for (std::size_t i = 0; i < t.scan_end.size(); ++i) {
    if (t.scan_end[i] < t.scan_from[i]) {
      out << where << "readable_end(read = " << t.scan_from[i] << ") returned " << t.scan_end[i]
          << " (expected at least " << t.scan_from[i] << "): the end never goes back\n"
          << kScanHint;
      return out.str();
    }
    if (t.scan_end[i] > limit) {
      out << where << "readable_end(read = " << t.scan_from[i] << ") returned " << t.scan_end[i]
          << ", but slots are readable only up to " << limit << " (expected at most " << limit << ", got "
          << t.scan_end[i] << "): " << segment_text(limit) << "\n"
          << kScanHint;
      return out.str();
    }
  }
  if (t.read_end.size() != 1) return where + "the harness returned a trace of the wrong shape";
  if (t.read_end[0] != limit) {
    out << where << "calling readable_end again from each end it returned, the scan stopped at " << t.read_end[0]
        << ", but every slot up to " << limit << " is written and counted (expected " << limit << ", got "
        << t.read_end[0] << "): a scan that stops short leaves work the run never hands out"
        << (t.timed_out ? " (the harness's time limit stopped it)" : "") << "\n"
        << kScanHint;
    return out.str();
  }
  return "";
}

std::vector<unsigned> full_segments(unsigned n) { return std::vector<unsigned>(n, kSegmentSlots); }

std::vector<unsigned> with(std::vector<unsigned> counts, unsigned segment, unsigned count) {
  counts.at(segment) = count;
  return counts;
}

// Task 2's checkpoint: publish alone, no scan (task 3 is not run). Warps
// with some lanes idle in each round publish at once into one, two, three or
// every bucket (lanes of one warp to different buckets), with and without
// jitter: when every writer is done, each bucket's resv is the number of
// items published into it, each of them is in exactly one slot below resv,
// and every segment's wcc counts exactly the slots reserved in it. Only what
// the queue holds at the end is checked: the order of the item and its count
// (what another SM sees first) is the Ordering tests' and the queue
// harness's.
TEST(Checkpoint, PublishGivesEveryItemItsOwnCountedSlot) {
  SSSP_REQUIRE_GPU();
  expect_queue_holds(writers(QueueScenario::kPublishOnly, 32, 2, 1, 1));
  expect_queue_holds(writers(QueueScenario::kPublishOnly, 64, 4, 2, 2));
  expect_queue_holds(writers(QueueScenario::kPublishOnly, 16, 8, lab09::kBuckets, 3));
  expect_queue_holds(writers(QueueScenario::kPublishOnly, 32, 24, 3, 4, 20000));
}

// Many warps, some lanes idle in each round, publishing at once into the few
// pages of one, two or every bucket (lanes of one warp to different
// buckets): every item in a slot of its own, every segment counted right,
// and, once the writers are done, the scan reaches every slot.
TEST(QueueHarness, ManyWarpsPublishIntoFewPages) {
  SSSP_REQUIRE_GPU();
  expect_queue_holds(writers(QueueScenario::kPublishThenScan, 32, 2, 1, 1));
  expect_queue_holds(writers(QueueScenario::kPublishThenScan, 64, 4, 2, 2));
  expect_queue_holds(writers(QueueScenario::kPublishThenScan, 16, 8, lab09::kBuckets, 3));
}

// readable_end alone, on states of a bucket as publishers leave it part
// way: segments completed out of order (a full one after one that is not),
// a partial last segment whose count is short of its reservations or not,
// a read end inside a segment, more than 32 segments to go, reservations past
// the mapped end. The scan, called again from each end it returns, must stop
// exactly where the written slots end.
TEST(QueueHarness, SegmentsCompleteOutOfOrder) {
  SSSP_REQUIRE_GPU();
  const std::vector<ScanState> states = {
      {"a full segment after one that is not", 0, 160, 4096, {32, 20, 32, 32, 32}},
      {"an empty segment between full ones", 0, 96, 4096, {32, 0, 32}},
      {"nothing counted yet", 0, 64, 4096, {0, 32}},
      {"a partial last segment, one reserved slot not counted", 0, 100, 4096, {32, 32, 32, 3}},
      {"a partial last segment, every reserved slot counted", 0, 100, 4096, {32, 32, 32, 4}},
      {"read inside a full segment", 40, 100, 4096, {32, 32, 32, 4}},
      {"read inside the partial last segment", 98, 100, 4096, {32, 32, 32, 4}},
      {"read at the end already", 100, 100, 4096, {32, 32, 32, 4}},
      {"94 segments written: more than one scan's 32", 0, 3000, 4096, with(full_segments(94), 93, 24)},
      {"70 full, then one short, then full again", 0, 3000, 4096, with(with(full_segments(94), 93, 24), 70, 31)},
      {"across a page boundary", 4000, 4096 + 70, 8192, with(full_segments(131), 130, 6)},
      {"reservations past the mapped end", 0, 4096 + 100, 4096, full_segments(128)},
      {"reservations past the mapped end, read near it", 4090, 4096 + 100, 4096, full_segments(128)},
  };
  for (const ScanState& s : states) {
    QueueHarnessOptions o;
    o.scenario = QueueScenario::kScanStates;
    o.read = s.read;
    o.resv = s.resv;
    o.mapped_end = s.mapped_end;
    o.segment_counts = s.counts;
    o.timeout_ms = 2000;
    const QueueTrace t = lab09::run_queue_harness(o);
    const std::string problem = scan_problem(s, t);
    if (!problem.empty()) ADD_FAILURE() << problem;
  }
}

// A reader that scans and reads while the writers publish, as the manager
// does: with jitter, segments fill out of order and the reader keeps
// meeting the bucket's partial last segment. Every item it is handed must be
// the one published there, every end must be at least the one before, and
// once the writers are done it must have read every item.
TEST(QueueHarness, ScanRacesWithPublishers) {
  SSSP_REQUIRE_GPU();
  for (unsigned seed = 1; seed <= 3; ++seed) {
    expect_queue_holds(writers(QueueScenario::kScanRacesWithPublishers, 32, 24, 3, 10 + seed, 20000));
  }
  expect_queue_holds(writers(QueueScenario::kScanRacesWithPublishers, 64, 16, 1, 20, 2000));
  expect_queue_holds(writers(QueueScenario::kScanRacesWithPublishers, 128, 8, 2, 21, 0));
}
}  // namespace
