// Lab 09 autograder, GPU part: task 8's checkpoint. lab09::checkpoint_hand_out
// (given code in checkpoints.cu) runs the student's hand_out_chunks once, on
// one manager warp whose buckets, idle workers and readable ends are set
// here, with a stand-in for task 3's scan, and returns what it wrote; the
// checks of the contract's clauses are here. Only what one call shows is
// checked: the order in which another SM sees the idle bits and the words is
// the Ordering test's (test_lab09_ordering.cpp). Every test needs a GPU and
// is skipped, with the reason, without one.
#include <algorithm>
#include <bit>
#include <cstddef>
#include <sstream>
#include <string>
#include <vector>

#include "lab09.hpp"
#include "lab09_testing.hpp"
#include "sssp_test.hpp"

namespace {

using lab09::HandOutCheckpoint;
using lab09::HandOutState;
using lab09::kBuckets;

constexpr unsigned kPage = 4096;       // slots of a pool page
constexpr unsigned kBlockSlots = 256;  // a worker block's threads: a chunk's most slots

constexpr const char* kHandOutHint =
    "hint: task 8 (hand_out_chunks in hand_out.cuh): read the contract above the function, clause by clause, and "
    "the handout's \"Handing out chunks (task 8)\"";

// A chunk as the assignment word encodes it (chunk_tasks.cuh's
// encode_assignment: bit 0 set, bucket in bits 1 to 7, count in bits 8 to
// 31, start in bits 32 to 63).
struct Chunk {
  unsigned worker = 0;
  unsigned bucket = 0;
  unsigned start = 0;
  unsigned count = 0;
};

Chunk decode(unsigned worker, unsigned long long word) {
  return Chunk{worker, static_cast<unsigned>(word >> 1) & (kBuckets - 1), static_cast<unsigned>(word >> 32),
               static_cast<unsigned>(word >> 8) & 0xFFFFFFu};
}

bool is_idle(const HandOutState& s, unsigned w) { return (s.idle_map[w / 32] >> (w % 32)) & 1u; }

// How far bucket b is from the head: open when below max_open.
unsigned from_head(const HandOutState& s, unsigned b) { return (b + kBuckets - s.head) % kBuckets; }

HandOutState hand_state(unsigned workers, unsigned head, unsigned max_open) {
  HandOutState s;
  s.workers = workers;
  s.idle_map.assign(32, 0);
  s.head = head;
  s.max_open = max_open;
  s.read.assign(kBuckets, 0);
  s.readable.assign(kBuckets, 0);
  s.resv.assign(kBuckets, 0);
  s.mapped.assign(kBuckets, 0);
  return s;
}

// Workers first, first + step, ... below `end` are idle.
HandOutState& with_idle(HandOutState& s, unsigned first, unsigned end, unsigned step) {
  for (unsigned w = first; w < end; w += step) s.idle_map.at(w / 32) |= 1u << (w % 32);
  return s;
}

HandOutState& with_bucket(HandOutState& s, unsigned b, unsigned read, unsigned readable, unsigned resv,
                          unsigned mapped) {
  s.read.at(b) = read;
  s.readable.at(b) = readable;
  s.resv.at(b) = resv;
  s.mapped.at(b) = mapped;
  return s;
}

unsigned idle_count(const HandOutState& s) {
  unsigned n = 0;
  for (const unsigned word : s.idle_map) n += static_cast<unsigned>(std::popcount(word));
  return n;
}

std::string hand_text(const HandOutState& s, const char* what) {
  std::ostringstream text;
  text << what << ": " << s.workers << " workers, " << idle_count(s) << " idle; head " << s.head << ", max_open "
       << s.max_open << "; buckets (read, readable, resv, mapped):";
  for (unsigned b = 0; b < kBuckets; ++b) {
    if (s.read[b] == 0 && s.readable[b] == 0 && s.resv[b] == 0 && s.mapped[b] == 0) continue;
    text << " " << b << (from_head(s, b) < s.max_open ? "" : " (closed)") << ": (" << s.read[b] << ", " << s.readable[b]
         << ", " << s.resv[b] << ", " << s.mapped[b] << ")";
  }
  text << "; the others all 0";
  return text.str();
}

struct HandOutCase {
  HandOutState state;
  const char* what;
};

std::vector<HandOutCase> hand_out_cases() {
  std::vector<HandOutCase> cases;
  {
    HandOutState s = hand_state(8, 0, 2);
    with_idle(s, 1, 2, 1);
    with_idle(s, 3, 5, 1);
    with_idle(s, 6, 8, 1);
    with_bucket(s, 0, 0, 1000, 1000, 4096);
    cases.push_back({s, "the head alone readable, 1000 slots for 5 idle workers"});
  }
  {
    HandOutState s = hand_state(64, 3, 2);
    with_idle(s, 0, 64, 2);
    with_bucket(with_bucket(s, 3, 100, 5000, 5200, 8192), 4, 0, 300, 300, 4096);
    cases.push_back({s,
                     "the head readable far past one scan's reach (1024 slots), across a page, more than 32 idle "
                     "workers take; the next open bucket readable too"});
  }
  {
    HandOutState s = hand_state(300, 30, 3);
    with_idle(s, 0, 300, 3);
    with_bucket(s, 30, 40, 50, 60, 4096);
    with_bucket(s, 31, 7, 7, 9, 4096);
    with_bucket(s, 0, 4000, 4300, 4300, 8192);
    with_bucket(s, 1, 0, 500, 500, 4096);
    cases.push_back({s,
                     "the head (30) has 10 readable slots, bucket 31 none (2 reserved, not written), bucket 0 "
                     "(after 31: the queue is circular) 300 across a page; bucket 1 is readable but not open"});
  }
  {
    HandOutState s = hand_state(40, 5, 2);
    with_bucket(s, 5, 0, 200, 200, 4096);
    cases.push_back({s, "no worker idle, 200 slots readable in the head"});
  }
  {
    HandOutState s = hand_state(100, 9, 4);
    with_idle(s, 0, 100, 1);
    with_bucket(with_bucket(s, 9, 64, 64, 90, 4096), 10, 0, 0, 3, 4096);
    cases.push_back({s, "every worker idle, nothing readable: slots reserved in buckets 9 and 10 are not written yet"});
  }
  {
    HandOutState s = hand_state(1024, 0, 1);
    with_idle(s, 0, 1024, 1);
    with_bucket(with_bucket(s, 0, 4094, 4097, 4097, 8192), 1, 0, 100, 100, 4096);
    cases.push_back({s,
                     "1024 idle workers, 3 readable slots across a page boundary (4094 to 4096); bucket 1 is "
                     "readable but max_open is 1"});
  }
  {
    HandOutState s = hand_state(2, 12, 2);
    with_idle(s, 1, 2, 1);
    with_bucket(s, 12, 4000, 4200, 4300, 8192);
    cases.push_back({s, "one idle worker, 200 readable slots that cross a page at 4096"});
  }
  {
    HandOutState s = hand_state(4, 20, 2);
    with_idle(s, 0, 4, 1);
    with_bucket(s, 20, 0, 10000, 10000, 12288);
    cases.push_back({s, "4 idle workers, 10000 readable slots: more than a worker block takes at once"});
  }
  {
    HandOutState s = hand_state(5, 7, 1);
    with_idle(s, 0, 5, 1);
    with_bucket(s, 7, 0, 3000, 3000, 4096);
    cases.push_back({s, "5 idle workers, 3000 readable slots in the head: more than one scan reaches (1024 slots)"});
  }
  return cases;
}

// The workers whose word changed: their chunks.
std::vector<Chunk> chunks_of(const HandOutCheckpoint& got) {
  std::vector<Chunk> chunks;
  for (unsigned w = 0; w < got.words.size(); ++w) {
    if (got.words[w] != got.words_before[w]) chunks.push_back(decode(w, got.words[w]));
  }
  return chunks;
}

bool right_shape(const HandOutCheckpoint& got, const HandOutState& s, const std::string& input) {
  const bool lanes = got.plan_idle.size() == 32 && got.plan_used.size() == 32 && got.plan_open_used.size() == 32 &&
                     got.read.size() == 32 && got.freed.size() == 32 && got.mapped.size() == 32;
  const bool workers = got.words.size() == s.workers && got.words_before.size() == s.workers &&
                       got.held.size() == s.workers && got.held_before.size() == s.workers && got.idle_map.size() == 32;
  EXPECT_TRUE(lanes && workers) << input << ": the checkpoint returned the wrong shape";
  return lanes && workers;
}

// Only readable slots of open buckets, each once, in chunks a worker can
// take, and only to idle workers.
TEST(Checkpoint, HandOutGivesEachReadableSlotOnce) {
  SSSP_REQUIRE_GPU();
  for (const HandOutCase& c : hand_out_cases()) {
    const HandOutState& s = c.state;
    const std::string input = hand_text(s, c.what);
    SCOPED_TRACE(input);
    const HandOutCheckpoint got = lab09::checkpoint_hand_out(s);
    if (!right_shape(got, s, input)) continue;
    bool ok = true;
    std::vector<std::vector<Chunk>> by_bucket(kBuckets);
    for (unsigned w = 0; w < s.workers && ok; ++w) {
      if (got.words[w] == got.words_before[w]) continue;
      const Chunk k = decode(w, got.words[w]);
      std::ostringstream chunk;
      chunk << "worker " << w << "'s word is 0x" << std::hex << got.words[w] << std::dec << " (bucket " << k.bucket
            << ", slots " << k.start << " to " << k.start + k.count << ")";
      if (!is_idle(s, w)) {
        ADD_FAILURE() << input << ": " << chunk.str() << ", but worker " << w << " was busy (its idle bit clear, "
                      << "its word a chunk it is expanding): only idle workers get a word, and no other word "
                      << "changes\n"
                      << kHandOutHint;
        ok = false;
      } else if ((got.words[w] & 1u) == 0) {
        ADD_FAILURE() << input << ": worker " << w << "'s word became 0x" << std::hex << got.words[w] << std::dec
                      << ", which is not a chunk (bit 0 clear: kIdle or kExit): write encode_assignment(...)\n"
                      << kHandOutHint;
        ok = false;
      } else if (from_head(s, k.bucket) >= s.max_open) {
        ADD_FAILURE() << input << ": " << chunk.str() << ", but bucket " << k.bucket
                      << " is not open: only the first max_open (" << s.max_open << ") buckets from the head ("
                      << s.head << ") are handed out\n"
                      << kHandOutHint;
        ok = false;
      } else if (k.count < 1 || k.count > kBlockSlots) {
        ADD_FAILURE() << input << ": " << chunk.str() << ": " << k.count
                      << " slots, expected 1 to 256 (kBlock: a worker block expands at most one item per thread "
                      << "from its chunk)\n"
                      << kHandOutHint;
        ok = false;
      } else if (k.start / kPage != (k.start + k.count - 1) / kPage) {
        ADD_FAILURE() << input << ": " << chunk.str() << " crosses a page boundary (at "
                      << (k.start / kPage + 1) * kPage
                      << "): the worker reads the whole chunk from the page of its first slot, and the next page "
                      << "of the bucket is another page of the pool\n"
                      << kHandOutHint;
        ok = false;
      } else if (k.start < s.read[k.bucket] || k.start + k.count > s.readable[k.bucket]) {
        ADD_FAILURE() << input << ": " << chunk.str() << ", outside bucket " << k.bucket
                      << "'s readable slots, from its read end " << s.read[k.bucket] << " up to "
                      << s.readable[k.bucket]
                      << (k.start < s.read[k.bucket] ? ": slots below read were handed out already (twice)"
                                                     : ": slots past the scan's end are not known to be written "
                                                       "(a worker would read an old id)")
                      << "\n"
                      << kHandOutHint;
        ok = false;
      } else {
        by_bucket[k.bucket].push_back(k);
      }
    }
    for (unsigned b = 0; b < kBuckets && ok; ++b) {
      if (got.freed[b] != s.read[b] / kPage * kPage || got.mapped[b] != s.mapped[b]) {
        ADD_FAILURE() << input << ": bucket " << b << "'s own.freed / own.mapped became " << got.freed[b] << " / "
                      << got.mapped[b] << ", expected them as they were, " << s.read[b] / kPage * kPage << " / "
                      << s.mapped[b] << ": they are the given code's, not the hand-out's\n"
                      << kHandOutHint;
        ok = false;
        break;
      }
      if (got.read[b] < s.read[b] || got.read[b] > s.readable[b]) {
        ADD_FAILURE() << input << ": bucket " << b << "'s read end (lane " << b << "'s own.read) went from "
                      << s.read[b] << " to " << got.read[b] << ", expected from " << s.read[b] << " to "
                      << s.readable[b] << " at most (it only grows, and never past what the scan says is written)\n"
                      << kHandOutHint;
        ok = false;
        break;
      }
      std::vector<Chunk>& chunks = by_bucket[b];
      std::sort(chunks.begin(), chunks.end(), [](const Chunk& x, const Chunk& y) { return x.start < y.start; });
      unsigned at = s.read[b];
      for (const Chunk& k : chunks) {
        if (k.start != at) {
          ADD_FAILURE() << input << ": bucket " << b << ": worker " << k.worker << "'s chunk starts at slot " << k.start
                        << ", expected " << at
                        << (k.start < at ? " (slot " + std::to_string(k.start) + " is in two chunks: handed out twice)"
                                         : " (slots " + std::to_string(at) + " to " + std::to_string(k.start) +
                                               " are in no chunk: the chunks of a bucket cover its slots from its "
                                               "old read end on, with no gap)")
                        << "\n"
                        << kHandOutHint;
          ok = false;
          break;
        }
        at += k.count;
      }
      if (ok && at != got.read[b]) {
        ADD_FAILURE() << input << ": bucket " << b << "'s chunks cover slots " << s.read[b] << " to " << at
                      << ", but its read end (lane " << b << "'s own.read) became " << got.read[b]
                      << ": it must end where the handed-out slots end"
                      << (at < got.read[b] ? " (slots past the chunks would never be handed out: lost)"
                                           : " (the slots past it would be handed out again next pass)")
                      << "\n"
                      << kHandOutHint;
        ok = false;
      }
    }
  }
}

// The Plan, the head first, and no idle worker left idle while an open
// bucket is readable; the scans made by the whole warp with the bucket's
// own bounds.
TEST(Checkpoint, HandOutServesTheHeadFirstAndLeavesNoWorkerIdle) {
  SSSP_REQUIRE_GPU();
  for (const HandOutCase& c : hand_out_cases()) {
    const HandOutState& s = c.state;
    const std::string input = hand_text(s, c.what);
    SCOPED_TRACE(input);
    const HandOutCheckpoint got = lab09::checkpoint_hand_out(s);
    if (!right_shape(got, s, input)) continue;
    EXPECT_EQ(got.partial_scans, 0u) << input << ": " << got.partial_scans << " of " << got.scans
                                     << " calls of scan_readable_end were made by only part of the warp: it is "
                                        "task 3's warp-wide scan (__ballot_sync over all 32 lanes), call it from "
                                        "the whole warp\n"
                                     << kHandOutHint;
    EXPECT_EQ(got.scans_with_wrong_bounds, 0u)
        << input << ": " << got.scans_with_wrong_bounds << " calls of scan_readable_end had bounds not bucket b's: "
        << "the first, for bucket " << got.wrong_bucket << ", with mapped_end " << got.wrong_mapped << " and resv "
        << got.wrong_resv << "; expected bucket b's mapped end and this pass's reservations (lane b's own.mapped "
        << "and resv)\n"
        << kHandOutHint;
    const std::vector<Chunk> chunks = chunks_of(got);
    const auto used = static_cast<unsigned>(chunks.size());
    const unsigned idle = idle_count(s);
    unsigned open_used = 0;
    for (unsigned k = 0; k < s.max_open; ++k) {
      const unsigned b = (s.head + k) % kBuckets;
      if (got.read[b] != s.read[b]) open_used = k + 1;
    }
    for (unsigned lane = 0; lane < 32; ++lane) {
      const bool right =
          got.plan_idle[lane] == idle && got.plan_used[lane] == used && got.plan_open_used[lane] == open_used;
      if (right) continue;
      ADD_FAILURE() << input << ": lane " << lane << " returned Plan{idle " << got.plan_idle[lane] << ", used "
                    << got.plan_used[lane] << ", open_used " << got.plan_open_used[lane] << "}, expected {idle " << idle
                    << ", used " << used << " (the words that changed), open_used " << open_used
                    << " (1 + the last k from the head whose bucket's read end moved)}"
                    << (lane != 0 ? "; every lane returns the same Plan" : "") << "\n"
                    << kHandOutHint;
      break;
    }
    for (unsigned k = 0; k < s.max_open; ++k) {
      const unsigned b = (s.head + k) % kBuckets;
      if (got.read[b] == s.read[b]) continue;
      for (unsigned j = 0; j < k; ++j) {
        const unsigned before = (s.head + j) % kBuckets;
        EXPECT_EQ(got.read[before], s.readable[before])
            << input << ": bucket " << b << " (k = " << k << " from the head) handed out slots " << s.read[b] << " to "
            << got.read[b] << " while bucket " << before << " (k = " << j << ") still had slots " << got.read[before]
            << " to " << s.readable[before]
            << " readable: the head first, a later bucket only once every open bucket before it is handed out to "
               "its readable end\n"
            << kHandOutHint;
      }
    }
    if (used < idle) {
      for (unsigned k = 0; k < s.max_open; ++k) {
        const unsigned b = (s.head + k) % kBuckets;
        EXPECT_EQ(got.read[b], s.readable[b])
            << input << ": " << idle - used << " of the " << idle << " idle workers got no chunk, but open bucket " << b
            << " still has slots " << got.read[b] << " to " << s.readable[b]
            << " readable: no idle worker stays idle while an open bucket is readable (a scan ends at most 1024 "
               "slots past where it starts: call it again from the end it gave)\n"
            << kHandOutHint;
      }
    }
  }
}

// The idle bits of the workers given a chunk are cleared, no other bit
// changes, and the books (held, inflight) count what was handed out.
TEST(Checkpoint, HandOutClearsTheIdleBitsAndKeepsTheBooks) {
  SSSP_REQUIRE_GPU();
  for (const HandOutCase& c : hand_out_cases()) {
    const HandOutState& s = c.state;
    const std::string input = hand_text(s, c.what);
    SCOPED_TRACE(input);
    const HandOutCheckpoint got = lab09::checkpoint_hand_out(s);
    if (!right_shape(got, s, input)) continue;
    std::vector<bool> given(s.workers, false);
    std::vector<unsigned> count(s.workers, 0);
    unsigned long long slots = 0;
    for (const Chunk& k : chunks_of(got)) {
      given[k.worker] = true;
      count[k.worker] = k.count;
      slots += k.count;
    }
    for (unsigned w = 0; w < s.workers; ++w) {
      const bool bit = (got.idle_map[w / 32] >> (w % 32)) & 1u;
      const bool expected = is_idle(s, w) && !given[w];
      if (bit == expected) continue;
      ADD_FAILURE() << input << ": worker " << w << "'s idle bit is " << bit << " after the call, expected " << expected
                    << (given[w] ? " (it was given a chunk: its bit is cleared, so that the next pass does not "
                                   "take it for idle and its word for kIdle)"
                                 : " (it got no chunk: its bit stays as it was)")
                    << "\n"
                    << kHandOutHint;
      break;
    }
    for (unsigned w = 0; w < s.workers; ++w) {
      const unsigned expected = given[w] ? count[w] : got.held_before[w];
      if (got.held[w] == expected) continue;
      ADD_FAILURE() << input << ": storage.held[" << w << "] is " << got.held[w] << " after the call, expected "
                    << expected
                    << (given[w] ? " (the slots of its new chunk: take_back_idle_workers subtracts it when the "
                                   "worker comes back idle)"
                                 : " (it got no chunk: as it was)")
                    << "\n"
                    << kHandOutHint;
      break;
    }
    EXPECT_EQ(got.inflight, slots) << input << ": the warp's sum of inflight grew by " << got.inflight << ", expected "
                                   << slots
                                   << " (the slots handed out: the delta controller and the watchdog read it)\n"
                                   << kHandOutHint;
  }
}

}  // namespace
