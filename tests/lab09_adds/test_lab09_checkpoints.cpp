// Lab 09 autograder, GPU part: the checkpoints. Tasks 6 and 7 alone:
// lab09::checkpoint_chunk_end and lab09::checkpoint_retire_head (given code
// in checkpoints.cu) run the student's report_chunk_complete or
// retire_empty_head_buckets once, on state set here, with no other task,
// and return what it wrote; the checks are here. Only what one call shows is
// checked: the order of the fences (what another SM sees first) is left to
// the Adds tests, the Ordering tests and the handout's argument. Every test
// needs a GPU and is skipped, with the reason, without one.
#include <algorithm>
#include <cstddef>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "lab09.hpp"
#include "lab09_testing.hpp"
#include "sssp_test.hpp"

namespace {

using sssp::dist_t;

using lab09::ChunkEndCheckpoint;
using lab09::ChunkEndState;
using lab09::HeadCheckpoint;
using lab09::HeadState;

using lab09::RelaxCheckpoint;
using lab09::RelaxState;
using sssp::vertex_t;

constexpr const char* kRelaxHint =
    "hint: task 4 (relax_and_route in adds.cu): lower dist[w] with sssp::cuda::atomic_min_dist and go on only if "
    "the old value it returns was above the offer; then b = route.bucket_of(offer, c.head_lo, c.delta, c.head, "
    "r.buckets_used), keep w in the block's list (keep_local) if b is c.local_bucket and keep_local returns true, "
    "else route.publish(r, w, b). A losing offer, an equal one included, does nothing more";

// ------------------------------------------------------------ task 4 --

std::string list_text(const std::vector<unsigned>& values) {
  std::ostringstream text;
  text << "[";
  for (std::size_t i = 0; i < values.size(); ++i) text << (i ? ", " : "") << values[i];
  text << "]";
  return text.str();
}

// A case of task 4's checkpoint, and whether the list has room for every
// offer into the local bucket (then none of them may be published).
struct RelaxCase {
  RelaxState state;
  bool room;
  const char* what;
};

std::string relax_text(const RelaxCase& c) {
  std::ostringstream text;
  text << c.what << " (" << c.state.targets.size() << " threads, one offer each, to " << c.state.dist.size()
       << " vertices; local bucket ";
  if (c.state.local_bucket == lab09::kBuckets) {
    text << "none";
  } else {
    text << c.state.local_bucket;
  }
  text << ", local_items " << c.state.local_items << "; the stand-in bucket_of puts an offer in bucket (offer / 10) "
       << "mod 32)";
  return text.str();
}

std::string dist_text(dist_t d) { return d == sssp::kInfinity ? std::string("infinity") : std::to_string(d); }

// The first thing wrong with what relax_and_route left, or "".
std::string relax_problem(const RelaxCase& c, const RelaxCheckpoint& got) {
  const RelaxState& s = c.state;
  const std::string where = relax_text(c) + ": ";
  std::ostringstream out;
  if (got.dist.size() != s.dist.size() || got.published.size() != got.published_bucket.size()) {
    return where + "the checkpoint returned the wrong shape";
  }
  const std::size_t n = s.dist.size();
  std::vector<std::vector<dist_t>> offers(n);
  for (std::size_t t = 0; t < s.targets.size(); ++t) offers[s.targets[t]].push_back(s.offers[t]);
  std::vector<std::vector<unsigned>> published(n);
  std::vector<unsigned> kept(n, 0);
  for (std::size_t i = 0; i < got.published.size(); ++i) {
    if (got.published[i] >= n)
      return where + "publish was called for vertex " + std::to_string(got.published[i]) +
             ", which no thread offered to\n" + kRelaxHint;
    published[got.published[i]].push_back(got.published_bucket[i]);
  }
  for (const vertex_t v : got.kept) {
    if (v >= n)
      return where + "the block's list holds " + std::to_string(v) + ", which no thread offered to\n" + kRelaxHint;
    ++kept[v];
  }
  for (vertex_t v = 0; v < n; ++v) {
    dist_t best = s.dist[v];
    std::size_t winners = 0;  // offers below dist[v] before the call: each may win, in some order
    for (const dist_t o : offers[v]) {
      best = std::min(best, o);
      winners += o < s.dist[v] ? 1 : 0;
    }
    const std::string vertex = "vertex " + std::to_string(v) + " (dist " + dist_text(s.dist[v]) + " before, " +
                               std::to_string(offers[v].size()) + " offers, the smallest " +
                               (offers[v].empty() ? std::string("none") : dist_text(best)) + ")";
    if (got.dist[v] != best) {
      out << where << vertex << ": dist is " << dist_text(got.dist[v]) << " after the call (expected "
          << dist_text(best) << ", got " << dist_text(got.dist[v])
          << "): it drops to the smallest offer below it, by an atomic minimum, and never rises\n"
          << kRelaxHint;
      return out.str();
    }
    const std::size_t routed = kept[v] + published[v].size();
    if (winners == 0) {
      if (routed != 0) {
        out << where << vertex << ": no offer is below its distance, yet it was kept " << kept[v]
            << " times and published " << published[v].size()
            << " times (expected neither): an offer that does not win, an equal one included, owes no expansion "
               "(with zero-weight cycles, routing equal offers never ends)\n"
            << kRelaxHint;
        return out.str();
      }
      continue;
    }
    if (routed == 0) {
      out << where << vertex << ": its distance dropped to " << dist_text(best)
          << ", but it was neither kept in the block's list nor published (expected one of them): whoever lowers "
             "dist[w] owes an expansion of w, or its improvement is never offered on\n"
          << kRelaxHint;
      return out.str();
    }
    if (routed > winners) {
      out << where << vertex << ": it was kept " << kept[v] << " times and published " << published[v].size()
          << " times, but only " << winners
          << " offers are below its distance before the call (expected at most one route per winning offer)\n"
          << kRelaxHint;
      return out.str();
    }
    const unsigned final_bucket = lab09::checkpoint_bucket(best);
    const bool final_kept = final_bucket == s.local_bucket && kept[v] != 0;
    const bool final_published =
        std::find(published[v].begin(), published[v].end(), final_bucket) != published[v].end();
    if (!final_kept && !final_published) {
      out << where << vertex << ": its final distance " << best << " belongs in bucket " << final_bucket
          << (final_bucket == s.local_bucket ? " (the chunk's local bucket)" : "")
          << ", but no copy went there (published into buckets " << list_text(published[v]) << ", kept " << kept[v]
          << " times): the winner routes w into the bucket of its own offer, route.bucket_of(offer, ...)\n"
          << kRelaxHint;
      return out.str();
    }
    for (const unsigned b : published[v]) {
      bool some_offer = false;
      for (const dist_t o : offers[v]) some_offer = some_offer || (o < s.dist[v] && lab09::checkpoint_bucket(o) == b);
      if (!some_offer) {
        out << where << vertex << ": it was published into bucket " << b
            << ", which is the bucket of none of its winning offers (expected route.bucket_of(offer, ...) of the "
               "offer that won)\n"
            << kRelaxHint;
        return out.str();
      }
      if (c.room && b == s.local_bucket) {
        out << where << vertex << ": it was published into bucket " << b
            << ", the chunk's local bucket, while the block's list had room (expected it kept there, by "
               "keep_local): a published item waits for the manager, and is expanded again more often\n"
            << kRelaxHint;
        return out.str();
      }
    }
    if (kept[v] != 0 && s.local_bucket == lab09::kBuckets) {
      out << where << vertex << ": it was kept in the block's list, but the chunk has no local bucket (expected it "
          << "published)\n"
          << kRelaxHint;
      return out.str();
    }
  }
  return "";
}

RelaxState relax_state(std::size_t vertices, unsigned local_bucket, unsigned local_items) {
  RelaxState s;
  s.dist.assign(vertices, sssp::kInfinity);
  s.local_bucket = local_bucket;
  s.local_items = local_items;
  return s;
}

void offer(RelaxState& s, vertex_t w, dist_t o) {
  s.targets.push_back(w);
  s.offers.push_back(o);
}

// One offer per vertex, 256 threads: vertices never reached, offers below,
// equal to and above dist, into the local bucket (5: distances 50 to 59
// under the stand-in) and others.
RelaxState one_offer_each(unsigned local_bucket, unsigned local_items) {
  RelaxState s = relax_state(256, local_bucket, local_items);
  for (vertex_t v = 0; v < 256; ++v) {
    const dist_t o = 30 + (v * 7) % 60;  // buckets 3 to 8
    switch (v % 4) {
      case 0: break;                           // never reached: the offer wins
      case 1: s.dist[v] = o + 5; break;        // the offer wins
      case 2: s.dist[v] = o; break;            // an equal offer: nothing
      default: s.dist[v] = o > 3 ? o - 3 : 0;  // a larger offer: nothing
    }
    offer(s, v, o);
  }
  return s;
}

// 1024 offers to vertex 0 and 1024 to nothing else: 32 warp steps of
// decreasing offers, the smallest of each step in lane 0 or 31.
RelaxState many_offers_to_one(bool smallest_first) {
  RelaxState s = relax_state(2, lab09::kBuckets, 4096);
  s.dist[1] = 7;
  for (unsigned t = 0; t < 1024; ++t) {
    const dist_t lane = t % 32;
    offer(s, 0, 1000000 - 1000 * (t / 32) + (smallest_first ? lane : 31 - lane));
  }
  return s;
}

// 600 vertices improved into the local bucket (distances 50 to 59) with a
// list of 32 slots: most must be published there instead.
RelaxState list_overflows() {
  RelaxState s = relax_state(600, 5, 32);
  for (vertex_t v = 0; v < 600; ++v) offer(s, v, 50 + v % 10);
  return s;
}

// Task 4's checkpoint: each thread calls relax_and_route once, with
// stand-ins for bucket_of (checkpoint_bucket) and publish (it records): a
// winning offer lowers dist by an atomic minimum and routes w once, kept in
// the block's list when it falls in the local bucket and the list has room,
// else published into its own offer's bucket; a losing or equal offer does
// nothing more.
TEST(Checkpoint, RelaxAndRouteRoutesEveryWinnerOnce) {
  SSSP_REQUIRE_GPU();
  const std::vector<RelaxCase> cases = {
      {one_offer_each(5, 4096), true, "one offer per vertex, the list with room"},
      {one_offer_each(lab09::kBuckets, 4096), true, "one offer per vertex, no local bucket"},
      {one_offer_each(5, 0), false, "one offer per vertex, no list (local_items 0)"},
      {many_offers_to_one(true), true, "1024 offers to vertex 0, the smallest of each warp step in lane 0"},
      {many_offers_to_one(false), true, "1024 offers to vertex 0, the smallest of each warp step in lane 31"},
      {list_overflows(), false, "600 improvements into the local bucket, a list of 32 slots"},
  };
  for (const RelaxCase& c : cases) {
    SCOPED_TRACE(c.what);
    const std::string problem = relax_problem(c, lab09::checkpoint_relax_and_route(c.state));
    if (!problem.empty()) ADD_FAILURE() << problem;
  }
  // Some of them kept: the list is used at all.
  const RelaxCase& with_room = cases.front();
  const RelaxCheckpoint got = lab09::checkpoint_relax_and_route(with_room.state);
  EXPECT_FALSE(got.kept.empty()) << relax_text(with_room)
                                 << ": nothing was kept in the block's list (expected the winners of bucket 5)\n"
                                 << kRelaxHint;
}

// ------------------------------------------------------------ task 6 --

constexpr const char* kChunkEndHint =
    "hint: task 6 (report_chunk_complete in chunk_tasks.cuh): every thread of the block resets its share of the "
    "slots the chunk used (part p's first min(pushed[p], local.part), p = 0 to 31) to kUnwritten and calls "
    "add_work once; then, after a __syncthreads, thread 0 alone fences, adds chunk.count to cwc of chunk.bucket "
    "and to page_done[page], stores kIdle in its own word r.assignment[id], fences again, and sets its own bit "
    "(id % 32 of word id / 32) of r.idle_map with atomicOr";
constexpr const char* kHeadHint =
    "hint: task 7 (retire_empty_head_buckets in chunk_tasks.cuh): one __ballot_sync of 'read == n.resv && n.cwc == "
    "n.resv' (a bucket never reached, all three 0, is empty too); while the head's bit is set and not every bit "
    "is, head = (head + 1) % kBuckets, head_lo += delta (the delta the retired bucket was cut with), ++switches, "
    "and with r.dynamic_delta, when switches becomes a multiple of kSwitchesPerDecision, delta = adapt_delta(...) "
    "called by the whole warp; at most one turn of the queue";

std::string word_text(unsigned long long word) {
  if (word == lab09::kIdleWord) return "kIdle";
  std::ostringstream text;
  text << "0x" << std::hex << word << (word % 2 == 1 ? " (a chunk)" : "");
  return text.str();
}

// The list's part size and the slots of part p the chunk used.
unsigned part_size(const ChunkEndState& s) { return (s.local_items + 31) / 32; }
unsigned used_slots(const ChunkEndState& s, unsigned p) { return std::min(s.pushed[p], part_size(s)); }

std::string chunk_end_text(const ChunkEndState& s) {
  std::ostringstream text;
  text << s.threads << " threads, local_items " << s.local_items << " (parts of " << part_size(s)
       << " slots), pushed per part " << list_text(s.pushed) << "; worker " << s.id << " of " << s.workers
       << ", chunk of " << s.count << " slots of bucket " << s.bucket << " in page " << s.page;
  return text.str();
}

ChunkEndState chunk_end_state(unsigned threads, unsigned local_items, std::vector<unsigned> pushed) {
  ChunkEndState s;
  s.threads = threads;
  s.local_items = local_items;
  s.pushed = std::move(pushed);
  s.workers = 1;
  s.id = 0;
  s.bucket = 0;
  s.count = 1;
  s.page = 0;
  s.cwc.assign(lab09::kBuckets, 0);
  s.page_done.assign(1, 0);
  s.idle_map.assign(32, 0);
  return s;
}

// Part sizes 128, 4, every slot used, none: pushed past a part's size (its
// items went to a part above or the queue), parts never pushed, many
// threads, a block of 96 threads (3 warps) for slots that do not divide evenly.
std::vector<ChunkEndState> list_cases() {
  std::vector<unsigned> some(32, 0);
  some[0] = 5;
  some[1] = 128;
  some[2] = 300;
  some[5] = 1;
  some[17] = 129;
  some[31] = 127;
  std::vector<unsigned> small(32);
  for (unsigned p = 0; p < 32; ++p) small[p] = p % 7;
  return {chunk_end_state(256, 4096, some), chunk_end_state(96, 100, small),
          chunk_end_state(1024, 4096, std::vector<unsigned>(32, 200)),
          chunk_end_state(64, 0, std::vector<unsigned>(32, 3))};
}

// Every slot the chunk used is kUnwritten again; every other slot, which in
// a run is kUnwritten already, may be reset too (that is correct, only slower)
// but holds nothing else: slot i held i before the call (part p is slots
// [p x part, (p + 1) x part)).
TEST(Checkpoint, ChunkEndResetsTheSlotsItUsed) {
  SSSP_REQUIRE_GPU();
  for (const ChunkEndState& s : list_cases()) {
    const std::string input = chunk_end_text(s);
    SCOPED_TRACE(input);
    const ChunkEndCheckpoint got = lab09::checkpoint_chunk_end(s);
    ASSERT_EQ(got.local.size(), lab09::kLocalSlots) << input << ": the checkpoint returned a list of the wrong size";
    const unsigned part = part_size(s);
    for (unsigned i = 0; i < lab09::kLocalSlots; ++i) {
      const unsigned p = part == 0 ? 32 : i / part;
      const bool used = p < 32 && i % part < used_slots(s, p);
      if (got.local[i] == lab09::kUnwrittenSlot || (!used && got.local[i] == i)) continue;
      std::ostringstream why;
      why << input << ": list slot " << i;
      if (p < 32) {
        why << " (part " << p << ", its slot " << i % part << "; the chunk used " << used_slots(s, p)
            << " of the part: min(" << s.pushed[p] << " pushed, " << part << ")) ";
      } else {
        why << " (past the 32 parts of " << part << " slots) ";
      }
      why << "is " << (got.local[i] == lab09::kUnwrittenSlot ? std::string("kUnwritten") : std::to_string(got.local[i]))
          << ", expected "
          << (used ? std::string("kUnwritten: the next chunk's pops wait on it")
                   : std::to_string(i) + " (left alone) or kUnwritten: a slot the chunk did not use holds nothing else")
          << "\n"
          << kChunkEndHint;
      ADD_FAILURE() << why.str();
      break;
    }
  }
}

// The chunk counts once, in its bucket's cwc and its page's page_done; the
// block's word is kIdle and its idle bit set, nothing else changed; the
// block's work counters are added once (thread t's share is {1, t % 2,
// t % 3 == 0, t + 1}).
TEST(Checkpoint, ChunkEndCountsTheChunkOnceAndGoesIdle) {
  SSSP_REQUIRE_GPU();
  std::vector<ChunkEndState> cases;
  {
    ChunkEndState s = chunk_end_state(256, 4096, std::vector<unsigned>(32, 2));
    s.workers = 40;
    s.id = 37;
    s.bucket = 5;
    s.start = 4096 + 256;
    s.count = 200;
    s.page_done = {4096, 17, 0, 300, 5, 9};
    s.page = 3;
    for (unsigned b = 0; b < lab09::kBuckets; ++b) s.cwc[b] = 1000 + 10 * b;
    s.idle_map[0] = 0b1011;                 // workers 0, 1 and 3
    s.idle_map[1] = (1u << 1) | (1u << 6);  // workers 33 and 38
    cases.push_back(s);
  }
  {
    ChunkEndState s = chunk_end_state(32, 64, std::vector<unsigned>(32, 0));
    s.bucket = 31;
    s.count = 1;
    cases.push_back(s);
  }
  {
    ChunkEndState s = chunk_end_state(512, 4096, std::vector<unsigned>(32, 0));
    s.workers = 1024;
    s.id = 1023;
    s.count = 256;
    s.start = 256;
    s.page_done = {0, 77};
    s.page = 1;
    s.cwc[0] = 4096;
    s.idle_map.assign(32, 0xFFFFFFFFu);
    s.idle_map[31] = 0x7FFFFFFFu;  // every other worker idle
    cases.push_back(s);
  }
  for (const ChunkEndState& s : cases) {
    const std::string input = chunk_end_text(s);
    SCOPED_TRACE(input);
    const ChunkEndCheckpoint got = lab09::checkpoint_chunk_end(s);
    ASSERT_EQ(got.cwc.size(), std::size_t{lab09::kBuckets}) << input << ": the checkpoint returned the wrong shape";
    ASSERT_EQ(got.page_done.size(), s.page_done.size()) << input << ": the checkpoint returned the wrong shape";
    ASSERT_EQ(got.idle_map.size(), s.idle_map.size()) << input << ": the checkpoint returned the wrong shape";
    ASSERT_EQ(got.words.size(), std::size_t{s.workers}) << input << ": the checkpoint returned the wrong shape";
    for (unsigned b = 0; b < lab09::kBuckets; ++b) {
      const unsigned expected = s.cwc[b] + (b == s.bucket ? s.count : 0);
      EXPECT_EQ(got.cwc[b], expected) << input << ": bucket " << b << "'s cwc is " << got.cwc[b] << ", expected "
                                      << expected << " (it was " << s.cwc[b] << "; "
                                      << (b == s.bucket ? "the chunk's " + std::to_string(s.count) +
                                                              " slots are added once, with one atomicAdd"
                                                        : std::string("not the chunk's bucket: unchanged"))
                                      << ")\n"
                                      << kChunkEndHint;
    }
    for (unsigned p = 0; p < s.page_done.size(); ++p) {
      const unsigned expected = s.page_done[p] + (p == s.page ? s.count : 0);
      EXPECT_EQ(got.page_done[p], expected)
          << input << ": page_done[" << p << "] is " << got.page_done[p] << ", expected " << expected << " (it was "
          << s.page_done[p] << "; "
          << (p == s.page ? "the chunk's page grows by its " + std::to_string(s.count) + " slots, once"
                          : std::string("not the chunk's page: unchanged"))
          << ")\n"
          << kChunkEndHint;
    }
    for (unsigned w = 0; w < s.workers; ++w) {
      const unsigned long long expected = w == s.id ? lab09::kIdleWord : got.words_before[w];
      EXPECT_EQ(got.words[w], expected) << input << ": worker " << w << "'s assignment word is "
                                        << word_text(got.words[w]) << ", expected " << word_text(expected)
                                        << (w == s.id ? " (this block's word goes back to kIdle, before its idle bit)"
                                                      : " (another worker's word: unchanged)")
                                        << "\n"
                                        << kChunkEndHint;
    }
    for (unsigned i = 0; i < s.idle_map.size(); ++i) {
      const unsigned expected = s.idle_map[i] | (i == s.id / 32 ? 1u << (s.id % 32) : 0u);
      EXPECT_EQ(got.idle_map[i], expected)
          << input << ": idle_map word " << i << " is 0x" << std::hex << got.idle_map[i] << ", expected 0x" << expected
          << std::dec << " (it was 0x" << std::hex << s.idle_map[i] << std::dec << "; only bit " << s.id % 32
          << " of word " << s.id / 32 << ", this block's, is set, with atomicOr: "
          << "other workers set their bits at the same time)\n"
          << kChunkEndHint;
    }
    const unsigned long long t = s.threads;
    const std::pair<const char*, std::pair<unsigned long long, unsigned long long>> work[] = {
        {"expansions", {got.expansions, t}},
        {"repeats", {got.repeats, t / 2}},
        {"local", {got.local_expansions, (t + 2) / 3}},
        {"arcs", {got.arcs, t * (t + 1) / 2}}};
    for (const auto& [name, values] : work) {
      EXPECT_EQ(values.first, values.second)
          << input << ": Work::" << name << " is " << values.first << ", expected " << values.second
          << " (the sum of every thread's share, added once: every thread calls add_work once)\n"
          << kChunkEndHint;
    }
  }
}

// The state of task 7's checkpoint: every bucket never reached (resv = read
// = cwc = 0, which is empty), then the buckets a case sets.
HeadState head_state(unsigned head, dist_t head_lo, dist_t delta, unsigned long long switches, bool dynamic = false,
                     std::vector<dist_t> decisions = {}) {
  HeadState s;
  s.resv.assign(lab09::kBuckets, 0);
  s.read.assign(lab09::kBuckets, 0);
  s.cwc.assign(lab09::kBuckets, 0);
  s.head = head;
  s.head_lo = head_lo;
  s.delta = delta;
  s.switches = switches;
  s.dynamic_delta = dynamic;
  s.decisions = std::move(decisions);
  return s;
}

HeadState& with_bucket(HeadState& s, unsigned b, unsigned resv, unsigned read, unsigned cwc) {
  s.resv.at(b) = resv;
  s.read.at(b) = read;
  s.cwc.at(b) = cwc;
  return s;
}

std::string head_text(const HeadState& s) {
  std::ostringstream text;
  text << "head " << s.head << " from distance " << s.head_lo << ", delta " << s.delta << ", " << s.switches
       << " switches so far, " << (s.dynamic_delta ? "dynamic" : "static") << " delta; buckets (resv, read, cwc):";
  bool any = false;
  for (unsigned b = 0; b < lab09::kBuckets; ++b) {
    if (s.resv[b] == 0 && s.read[b] == 0 && s.cwc[b] == 0) continue;
    text << " " << b << ": (" << s.resv[b] << ", " << s.read[b] << ", " << s.cwc[b] << ")";
    any = true;
  }
  text << (any ? "; the others (0, 0, 0), never reached" : " all (0, 0, 0), never reached");
  return text.str();
}

// Every lane holds the expected position after the call.
void expect_position(const HeadCheckpoint& got, const std::string& input, unsigned head, dist_t head_lo, dist_t delta,
                     unsigned long long switches, const std::string& why) {
  ASSERT_EQ(got.head.size(), 32u) << input << ": the checkpoint returned the wrong shape";
  ASSERT_EQ(got.head_lo.size(), 32u) << input << ": the checkpoint returned the wrong shape";
  ASSERT_EQ(got.delta.size(), 32u) << input << ": the checkpoint returned the wrong shape";
  ASSERT_EQ(got.switches.size(), 32u) << input << ": the checkpoint returned the wrong shape";
  for (unsigned lane = 0; lane < 32; ++lane) {
    const bool right = got.head[lane] == head && got.head_lo[lane] == head_lo && got.delta[lane] == delta &&
                       got.switches[lane] == switches;
    if (right) continue;
    ADD_FAILURE() << input << ": lane " << lane << " ends with head " << got.head[lane] << ", head_lo "
                  << got.head_lo[lane] << ", delta " << got.delta[lane] << ", switches " << got.switches[lane]
                  << "; expected head " << head << ", head_lo " << head_lo << ", delta " << delta << ", switches "
                  << switches << " (" << why << ")"
                  << (lane != 0 ? "; every lane must take the same decisions (one warp vote)" : "") << "\n"
                  << kHeadHint;
    return;
  }
}

void expect_no_decision(const HeadCheckpoint& got, const std::string& input, const std::string& why) {
  EXPECT_TRUE(got.decisions.empty()) << input << ": adapt_delta was called " << got.decisions.size()
                                     << " times, expected never (" << why << ")\n"
                                     << kHeadHint;
}

// The head moves past every empty bucket to the first that is not: one, a
// run of them (buckets never reached among them), around the end of the
// queue, and 31 at once.
TEST(Checkpoint, HeadMovesPastEmptyBuckets) {
  SSSP_REQUIRE_GPU();
  struct Case {
    HeadState state;
    unsigned head;
    unsigned moves;
    const char* why;
  };
  std::vector<Case> cases;
  {
    HeadState s = head_state(3, 1000, 100, 5);
    with_bucket(with_bucket(s, 3, 50, 50, 50), 4, 80, 60, 40);
    cases.push_back({s, 4, 1, "bucket 3 is empty, bucket 4 is not: one switch"});
  }
  {
    HeadState s = head_state(10, 7, 3, 0);
    with_bucket(with_bucket(with_bucket(s, 10, 64, 64, 64), 13, 5, 5, 5), 14, 3, 0, 0);
    cases.push_back({s, 14, 4,
                     "buckets 10 to 13 are empty (11 and 12 were never reached: nothing will ever be handed out "
                     "there, and a head that waits at one stalls the run), bucket 14 is not"});
  }
  {
    HeadState s = head_state(30, 0, 1, 40);
    with_bucket(with_bucket(with_bucket(s, 30, 9, 9, 9), 31, 1, 1, 1), 0, 10, 10, 4);
    cases.push_back({s, 0, 2, "buckets 30 and 31 are empty, bucket 0 (after 31: the queue is circular) is not"});
  }
  {
    HeadState s = head_state(0, 1u << 20, 1000, 100);
    with_bucket(s, 31, 1, 0, 0);
    cases.push_back({s, 31, 31, "only bucket 31 holds work: the head moves 31 buckets in one call"});
  }
  for (const Case& c : cases) {
    const std::string input = head_text(c.state);
    SCOPED_TRACE(input);
    const HeadCheckpoint got = lab09::checkpoint_retire_head(c.state);
    expect_position(got, input, c.head, c.state.head_lo + c.moves * c.state.delta, c.state.delta,
                    c.state.switches + c.moves,
                    std::string(c.why) + "; head_lo grows by delta and switches by 1 per switch");
    expect_no_decision(got, input, "a static delta never moves");
  }
}

// The head stays: every bucket is empty (the queue holds nothing); the head
// is handed out to the end but a chunk of it is still in flight (cwc <
// resv); the head has slots not yet handed out (read < resv). And the head
// stops at such a bucket: an empty head moves on one bucket, to a bucket
// that holds work in one of those ways, and stays there (a body that
// never moves the head fails these).
TEST(Checkpoint, HeadStaysWhileItsBucketHoldsWork) {
  SSSP_REQUIRE_GPU();
  struct Case {
    HeadState state;
    unsigned moves;
    const char* why;
  };
  std::vector<Case> cases;
  {
    HeadState s = head_state(7, 500, 50, 3);
    with_bucket(with_bucket(s, 7, 40, 40, 40), 20, 8, 8, 8);
    cases.push_back({s, 0, "every bucket is empty: the queue holds nothing, and the run is about to end"});
  }
  {
    HeadState s = head_state(7, 500, 50, 3);
    with_bucket(with_bucket(with_bucket(s, 7, 90, 90, 70), 8, 0, 0, 0), 9, 30, 0, 0);
    cases.push_back({s, 0,
                     "bucket 7 is handed out to its end (read == resv) but only 70 of its 90 slots are expanded: a "
                     "chunk in flight may still push into it, so it is not empty"});
  }
  {
    HeadState s = head_state(7, 500, 50, 3);
    with_bucket(with_bucket(s, 7, 90, 64, 64), 9, 30, 0, 0);
    cases.push_back({s, 0, "bucket 7 has 26 reserved slots not handed out yet (read < resv)"});
  }
  {
    HeadState s = head_state(7, 500, 50, 3, true, {25});
    with_bucket(with_bucket(s, 7, 90, 64, 64), 9, 30, 0, 0);
    cases.push_back({s, 0, "bucket 7 has slots not handed out (a dynamic delta: still no switch, no decision)"});
  }
  {
    HeadState s = head_state(7, 500, 50, 3);
    with_bucket(with_bucket(with_bucket(s, 7, 40, 40, 40), 8, 90, 90, 70), 9, 30, 0, 0);
    cases.push_back({s, 1,
                     "bucket 7 is empty, so the head moves to bucket 8, which is handed out to its end but has a "
                     "chunk in flight (cwc 70 of 90): it stays there"});
  }
  {
    HeadState s = head_state(31, 9000, 50, 3);
    with_bucket(with_bucket(with_bucket(s, 31, 12, 12, 12), 0, 90, 64, 64), 1, 30, 0, 0);
    cases.push_back({s, 1,
                     "bucket 31 is empty, so the head moves to bucket 0 (after 31: the queue is circular), which has "
                     "26 slots not handed out: it stays there"});
  }
  for (const Case& c : cases) {
    const std::string input = head_text(c.state);
    SCOPED_TRACE(input);
    const HeadCheckpoint got = lab09::checkpoint_retire_head(c.state);
    expect_position(got, input, (c.state.head + c.moves) % lab09::kBuckets, c.state.head_lo + c.moves * c.state.delta,
                    c.state.delta, c.state.switches + c.moves,
                    std::string(c.why) + (c.moves == 0 ? ": the head stays, nothing changes"
                                                       : "; head_lo grows by delta and switches by 1 per switch"));
    expect_no_decision(got, input, c.moves == 0 ? "no switch, so no decision" : "a static delta never moves");
  }
}

// With a dynamic delta the kSwitchesPerDecision-th switch (8th, 16th, ...
// of the run) decides delta: the harness's adapt_delta records each call
// and returns the delta scripted here; the head_lo of later switches grows
// by the new delta. A static delta never calls it.
TEST(Checkpoint, HeadSwitchesDecideADynamicDelta) {
  SSSP_REQUIRE_GPU();
  struct Call {
    unsigned head;
    dist_t head_lo;
    dist_t delta;
    unsigned long long switches;
  };
  struct Case {
    HeadState state;
    unsigned head;
    dist_t head_lo;
    dist_t delta;
    unsigned long long switches;
    std::vector<Call> calls;
    const char* why;
  };
  std::vector<Case> cases;
  {
    HeadState s = head_state(0, 0, 100, 6, false, {250});
    with_bucket(s, 4, 10, 0, 0);
    cases.push_back({s, 4, 400, 100, 10, {}, "static delta: switches 7 to 10 pass 8, but delta never moves"});
  }
  {
    HeadState s = head_state(0, 0, 100, 6, true, {250});
    with_bucket(s, 4, 10, 0, 0);
    cases.push_back({s,
                     4,
                     700,
                     250,
                     10,
                     {{2, 200, 100, 8}},
                     "switches 7 to 10: the 8th decides (adapt_delta returns 250); head_lo 100, 200 (delta 100), "
                     "then 450, 700 (delta 250)"});
  }
  {
    HeadState s = head_state(20, 5000, 10, 7, true, {20, 5});
    with_bucket(s, 30, 1, 0, 0);
    cases.push_back({s,
                     30,
                     5175,
                     5,
                     17,
                     {{21, 5010, 10, 8}, {29, 5170, 20, 16}},
                     "switches 8 to 17: the 8th decides 20, the 16th decides 5; head_lo 5010 (delta 10), 5030 to "
                     "5170 (delta 20), 5175 (delta 5)"});
  }
  {
    HeadState s = head_state(5, 0, 8, 0, true, {1});
    with_bucket(s, 8, 2, 2, 1);
    cases.push_back({s, 8, 24, 8, 3, {}, "switches 1 to 3: no multiple of 8, no decision"});
  }
  for (const Case& c : cases) {
    const std::string input = head_text(c.state);
    SCOPED_TRACE(input);
    const HeadCheckpoint got = lab09::checkpoint_retire_head(c.state);
    expect_position(got, input, c.head, c.head_lo, c.delta, c.switches, c.why);
    if (got.decisions.size() != c.calls.size()) {
      ADD_FAILURE() << input << ": adapt_delta was called " << got.decisions.size() << " times, expected "
                    << c.calls.size() << " (" << c.why << ")\n"
                    << kHeadHint;
      continue;
    }
    for (std::size_t k = 0; k < c.calls.size(); ++k) {
      const lab09::HeadDecision& d = got.decisions[k];
      const Call& e = c.calls[k];
      EXPECT_EQ(d.lanes, 0xFFFFFFFFu) << input << ": call " << k + 1 << " of adapt_delta was made by lanes 0x"
                                      << std::hex << d.lanes << std::dec
                                      << ", expected the whole warp (0xffffffff): it sums over the warp\n"
                                      << kHeadHint;
      const bool right = d.head == e.head && d.head_lo == e.head_lo && d.delta == e.delta && d.switches == e.switches;
      EXPECT_TRUE(right) << input << ": call " << k + 1 << " of adapt_delta saw head " << d.head << ", head_lo "
                         << d.head_lo << ", delta " << d.delta << ", switches " << d.switches << "; expected head "
                         << e.head << ", head_lo " << e.head_lo << ", delta " << e.delta << ", switches " << e.switches
                         << " (it decides after the switch that makes switches a multiple of 8 is "
                         << "counted, with the position that switch left; " << c.why << ")\n"
                         << kHeadHint;
    }
  }
}

}  // namespace
