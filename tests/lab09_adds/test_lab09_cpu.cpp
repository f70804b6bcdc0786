// Lab 09 autograder, the part without a GPU: the two decisions of ADDS that
// are plain arithmetic, run here on the host exactly as the kernel runs them.
// Task 1, bucket_of: the head bucket, the buckets after it, the wrap-around
// of the circular queue, clipping to the last bucket (of 32 or fewer), offers
// at or below head_lo, and distances near 2^64. Task 5, next_delta: each of
// the four rules, their order, and the clamp to the bounds without overflow.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <sstream>
#include <string>

#include "lab09.hpp"
#include "sssp_test.hpp"

namespace {

using lab09::bucket_of;
using lab09::DeltaBounds;
using lab09::DeltaSignal;
using lab09::kBuckets;
using lab09::next_delta;
using sssp::dist_t;

constexpr const char* kBucketHint =
    "bucket (head + k) % 32 holds [head_lo + k delta, head_lo + (k + 1) delta): k = (offer - head_lo) / delta, 0 "
    "for an offer at or below head_lo, and at most buckets - 1 (clipping: everything past the queue's range goes to "
    "the last bucket). Compute k by dividing, never head_lo + k * delta, which can pass 2^64";

// Checks bucket_of against the expected bucket, with a message that shows the call.
::testing::AssertionResult bucket_is(unsigned expected, dist_t offer, dist_t head_lo, dist_t delta, unsigned head,
                                     unsigned buckets = kBuckets) {
  const unsigned got = bucket_of(offer, head_lo, delta, head, buckets);
  if (got == expected) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "bucket_of(offer " << offer << ", head_lo " << head_lo << ", delta " << delta
                                       << ", head " << head << ", buckets " << buckets << ") returned " << got
                                       << ", expected " << expected << ".\nhint: " << kBucketHint;
}

TEST(BucketOf, HeadBucketHoldsTheFirstDelta) {
  // head 0 from 100, delta 10: [100, 110) is bucket 0.
  EXPECT_TRUE(bucket_is(0, 100, 100, 10, 0));
  EXPECT_TRUE(bucket_is(0, 109, 100, 10, 0));
  EXPECT_TRUE(bucket_is(1, 110, 100, 10, 0));
  EXPECT_TRUE(bucket_is(5, 155, 100, 10, 0));
}

TEST(BucketOf, OffersAtOrBelowHeadLoGoToTheHead) {
  // A vertex improved below the head's range must still be expanded: the head.
  EXPECT_TRUE(bucket_is(12, 0, 500, 10, 12));
  EXPECT_TRUE(bucket_is(12, 499, 500, 10, 12));
  EXPECT_TRUE(bucket_is(12, 500, 500, 10, 12));
  // ... and only those and the first delta: a bucket_of that always returns
  // the head passes the three above, not these.
  EXPECT_TRUE(bucket_is(13, 510, 500, 10, 12));
  EXPECT_TRUE(bucket_is(14, 529, 500, 10, 12));
}

TEST(BucketOf, CountsFromTheHeadAndWrapsAround) {
  // head 30: the next buckets are 31, 0, 1, ...
  EXPECT_TRUE(bucket_is(30, 1000, 1000, 7, 30));
  EXPECT_TRUE(bucket_is(31, 1007, 1000, 7, 30));
  EXPECT_TRUE(bucket_is(0, 1014, 1000, 7, 30));
  EXPECT_TRUE(bucket_is(3, 1000 + 7 * 5 + 6, 1000, 7, 30));
}

TEST(BucketOf, ClipsToTheLastBucket) {
  // 32 buckets from head 4: the last is 35 % 32 = 3, from head_lo + 31 delta on.
  EXPECT_TRUE(bucket_is(3, 31 * 10, 0, 10, 4));
  EXPECT_TRUE(bucket_is(3, 32 * 10, 0, 10, 4));
  EXPECT_TRUE(bucket_is(3, 1000000, 0, 10, 4));
  EXPECT_TRUE(bucket_is(2, 30 * 10 + 9, 0, 10, 4));
}

TEST(BucketOf, FewerBucketsClipSooner) {
  // The paper's ablation: 2 buckets are Near-Far's near and far.
  EXPECT_TRUE(bucket_is(7, 15, 10, 10, 7, 2));
  EXPECT_TRUE(bucket_is(8, 20, 10, 10, 7, 2));
  EXPECT_TRUE(bucket_is(8, 5000, 10, 10, 7, 2));
  // 5 buckets from head 30: the last is (30 + 4) % 32 = 2.
  EXPECT_TRUE(bucket_is(1, 3 * 100, 0, 100, 30, 5));
  EXPECT_TRUE(bucket_is(2, 4 * 100, 0, 100, 30, 5));
  EXPECT_TRUE(bucket_is(2, 99 * 100, 0, 100, 30, 5));
}

TEST(BucketOf, DeltaOneIsOneDistancePerBucket) {
  for (unsigned k = 0; k < 40; ++k) {
    EXPECT_TRUE(bucket_is((9 + std::min(k, 31u)) % 32, 1000 + k, 1000, 1, 9)) << "k = " << k;
  }
}

TEST(BucketOf, DistancesNearTwoToThe64DoNotOverflow) {
  const dist_t huge = std::numeric_limits<dist_t>::max() - 5;
  const dist_t head_lo = std::numeric_limits<dist_t>::max() - 1000;
  // head_lo + 31 * 100 passes 2^64: only division gets these right.
  EXPECT_TRUE(bucket_is((6 + 9) % 32, huge, head_lo, 100, 6));
  EXPECT_TRUE(bucket_is(6, head_lo + 50, head_lo, 100, 6));
  EXPECT_TRUE(bucket_is(6, huge, head_lo, dist_t{1} << 62, 6));  // head_lo + 2^62 wraps around
  EXPECT_TRUE(bucket_is(5, sssp::kInfinity - 1, 0, 1, 6));       // clipped: the last of 32 from head 6 is 5
  EXPECT_TRUE(bucket_is(6, 3, 0, dist_t{1} << 62, 6));           // one bucket holds every distance
}

// --------------------------------------------------------------- task 5 --

constexpr const char* kDeltaHint =
    "in order: (1) tail_share > tail_majority: double (never shrink while the last bucket holds most of the waiting "
    "work); (2) else repeat_share > max_repeat_share or utilisation > high_utilisation: halve; (3) else utilisation "
    "< low_utilisation: double; (4) else keep. Then clamp to [min_delta, max_delta]; double without overflowing "
    "(2 x delta can pass 2^64)";

DeltaBounds bounds(dist_t lo, dist_t hi) {
  DeltaBounds b;
  b.min_delta = lo;
  b.max_delta = hi;
  b.low_utilisation = 1.0;
  b.high_utilisation = 8.0;
  b.max_repeat_share = 0.5;
  b.tail_majority = 0.5;
  return b;
}

DeltaSignal signal(dist_t delta, double utilisation, double tail_share, double repeat_share) {
  DeltaSignal s;
  s.delta = delta;
  s.utilisation = utilisation;
  s.tail_share = tail_share;
  s.repeat_share = repeat_share;
  return s;
}

std::string text(const DeltaSignal& s, const DeltaBounds& b) {
  std::ostringstream out;
  out << "next_delta(delta " << s.delta << ", utilisation " << s.utilisation << ", tail_share " << s.tail_share
      << ", repeat_share " << s.repeat_share << "; bounds [" << b.min_delta << ", " << b.max_delta << "], low "
      << b.low_utilisation << ", high " << b.high_utilisation << ", max repeats " << b.max_repeat_share
      << ", tail majority " << b.tail_majority << ")";
  return out.str();
}

::testing::AssertionResult delta_is(dist_t expected, const DeltaSignal& s, const DeltaBounds& b) {
  const dist_t got = next_delta(s, b);
  if (got == expected) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << text(s, b) << " returned " << got << ", expected " << expected
                                       << ".\nhint: " << kDeltaHint;
}

// Rule 4 (keep) is checked beside the rules it borders, so that a next_delta
// that always keeps delta (the GPU placeholder) passes no test of task 5.
TEST(NextDelta, WidensWhenTheGpuStarves) {
  EXPECT_TRUE(delta_is(200, signal(100, 0.2, 0.1, 0.0), bounds(10, 1000)));
  EXPECT_TRUE(delta_is(100, signal(100, 2.0, 0.1, 0.1), bounds(10, 1000)));
  EXPECT_TRUE(delta_is(100, signal(100, 1.0, 0.0, 0.0), bounds(10, 1000)));  // low_utilisation is strict
  EXPECT_TRUE(delta_is(200, signal(100, 0.99, 0.0, 0.0), bounds(10, 1000)));
}

TEST(NextDelta, NarrowsWhenWorkIsWasted) {
  EXPECT_TRUE(delta_is(50, signal(100, 2.0, 0.1, 0.6), bounds(10, 1000)));
  // Wasted work beats starvation: a starving GPU that repeats work still narrows.
  EXPECT_TRUE(delta_is(50, signal(100, 0.2, 0.1, 0.9), bounds(10, 1000)));
}

TEST(NextDelta, NarrowsWhenThereIsWorkToSpare) {
  EXPECT_TRUE(delta_is(50, signal(100, 9.0, 0.1, 0.0), bounds(10, 1000)));
  EXPECT_TRUE(delta_is(51, signal(103, 20.0, 0.0, 0.0), bounds(10, 1000)));  // rounds down
  EXPECT_TRUE(delta_is(100, signal(100, 8.0, 0.5, 0.5), bounds(10, 1000)));  // every limit is strict: keep
}

TEST(NextDelta, AFullTailBucketIsALowerBound) {
  // The last bucket holds most of the waiting work: widen, whatever else says narrow.
  EXPECT_TRUE(delta_is(200, signal(100, 20.0, 0.9, 0.9), bounds(10, 1000)));
  EXPECT_TRUE(delta_is(200, signal(100, 2.0, 0.6, 0.0), bounds(10, 1000)));
}

TEST(NextDelta, StaysWithinItsBounds) {
  EXPECT_TRUE(delta_is(1000, signal(700, 0.1, 0.0, 0.0), bounds(10, 1000)));
  EXPECT_TRUE(delta_is(1000, signal(1000, 0.1, 0.9, 0.0), bounds(10, 1000)));
  EXPECT_TRUE(delta_is(10, signal(15, 50.0, 0.0, 0.0), bounds(10, 1000)));
  EXPECT_TRUE(delta_is(10, signal(10, 2.0, 0.0, 1.0), bounds(10, 1000)));
  EXPECT_TRUE(delta_is(1, signal(1, 50.0, 0.0, 0.0), bounds(1, 16)));
}

TEST(NextDelta, DoublingNearTwoToThe64DoesNotOverflow) {
  const dist_t top = std::numeric_limits<dist_t>::max();
  EXPECT_TRUE(delta_is(top, signal(top / 2 + 10, 0.1, 0.0, 0.0), bounds(1, top)));
  EXPECT_TRUE(delta_is(top, signal(top - 1, 0.0, 1.0, 0.0), bounds(1, top)));
  EXPECT_TRUE(delta_is(top - 7, signal(top / 2 + 1, 0.0, 1.0, 0.0), bounds(1, top - 7)));
}

TEST(NextDelta, OtherLimits) {
  DeltaBounds b = bounds(1, 1u << 20);
  b.low_utilisation = 0.25;
  b.high_utilisation = 0.9;
  b.max_repeat_share = 0.2;
  b.tail_majority = 0.8;
  EXPECT_TRUE(delta_is(64, signal(64, 0.5, 0.7, 0.1), b));     // comfortable under these limits
  EXPECT_TRUE(delta_is(128, signal(64, 0.2, 0.7, 0.1), b));    // starving
  EXPECT_TRUE(delta_is(32, signal(64, 0.5, 0.7, 0.3), b));     // wasting
  EXPECT_TRUE(delta_is(32, signal(64, 0.95, 0.0, 0.0), b));    // to spare
  EXPECT_TRUE(delta_is(128, signal(64, 0.95, 0.85, 0.3), b));  // tail full
}

}  // namespace
