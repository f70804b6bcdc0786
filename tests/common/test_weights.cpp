// Tests of the weight policy: values, determinism, parsing.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "sssp/errors.hpp"
#include "sssp/weights.hpp"

namespace sssp {
namespace {

constexpr weight_t kMaxWeight = std::numeric_limits<weight_t>::max();

std::vector<weight_t> first_weights(const WeightPolicy& p, std::uint64_t count) {
  std::vector<weight_t> w;
  for (std::uint64_t i = 0; i < count; ++i) w.push_back(p.weight_of(i));
  return w;
}

TEST(WeightsPolicy, UnitIsAlwaysOne) {
  const WeightPolicy p = WeightPolicy::unit();
  EXPECT_EQ(p.kind, WeightPolicy::Kind::kUnit);
  for (const std::uint64_t i : {0ULL, 1ULL, 12345ULL, ~0ULL}) EXPECT_EQ(p.weight_of(i), 1U);
  EXPECT_EQ(p.to_string(), "unit");
}

TEST(WeightsPolicy, UniformInRangeAndCoversIt) {
  const WeightPolicy p = WeightPolicy::uniform(1, 10, 3);
  std::set<weight_t> seen;
  for (const weight_t w : first_weights(p, 10000)) {
    ASSERT_GE(w, 1U);
    ASSERT_LE(w, 10U);
    seen.insert(w);
  }
  EXPECT_EQ(seen.size(), 10U) << "every value of a small range should occur";
  EXPECT_EQ(p.weight_of(1ULL << 63), p.weight_of(1ULL << 63));
}

TEST(WeightsPolicy, DeterministicBySeed) {
  EXPECT_EQ(first_weights(WeightPolicy::uniform(1, 1000, 42), 100),
            first_weights(WeightPolicy::uniform(1, 1000, 42), 100));
  EXPECT_NE(first_weights(WeightPolicy::uniform(1, 1000, 42), 100),
            first_weights(WeightPolicy::uniform(1, 1000, 43), 100));
  // Pinned: the same on every platform (splitmix64 only).
  EXPECT_EQ(first_weights(WeightPolicy::uniform(1, 1000, 42), 4), (std::vector<weight_t>{308, 466, 580, 171}));
}

TEST(WeightsPolicy, DegenerateAndExtremeRanges) {
  for (const weight_t w : first_weights(WeightPolicy::uniform(7, 7, 1), 100)) EXPECT_EQ(w, 7U);
  for (const weight_t w : first_weights(WeightPolicy::uniform(0, 0, 1), 100)) EXPECT_EQ(w, 0U);
  std::set<weight_t> top;
  for (const weight_t w : first_weights(WeightPolicy::uniform(kMaxWeight - 1, kMaxWeight, 5), 100)) {
    top.insert(w);
  }
  EXPECT_EQ(top, (std::set<weight_t>{kMaxWeight - 1, kMaxWeight}));
}

TEST(WeightsPolicy, FullRangeDoesNotOverflow) {
  // hi - lo + 1 = 2^32 does not fit in 32 bits: a 32-bit span would be 0.
  const WeightPolicy p = WeightPolicy::uniform(0, kMaxWeight, 9);
  bool low = false;
  bool high = false;
  std::set<weight_t> distinct;
  for (const weight_t w : first_weights(p, 1000)) {
    low = low || w < (1U << 31);
    high = high || w >= (1U << 31);
    distinct.insert(w);
  }
  EXPECT_TRUE(low);
  EXPECT_TRUE(high);
  EXPECT_GT(distinct.size(), 990U);
}

TEST(WeightsPolicy, EmptyRangeThrows) {
  EXPECT_THROW((void)WeightPolicy::uniform(5, 1, 1), InputError);
  EXPECT_NO_THROW((void)WeightPolicy::uniform(5, 5, 1));
}

TEST(WeightsParse, AcceptedForms) {
  EXPECT_EQ(WeightPolicy::parse("unit").kind, WeightPolicy::Kind::kUnit);

  const WeightPolicy a = WeightPolicy::parse("1:1000");
  EXPECT_EQ(a.kind, WeightPolicy::Kind::kUniform);
  EXPECT_EQ(a.lo, 1U);
  EXPECT_EQ(a.hi, 1000U);
  EXPECT_EQ(a.seed, 1U);

  const WeightPolicy b = WeightPolicy::parse("1:1000:42");
  EXPECT_EQ(b.lo, 1U);
  EXPECT_EQ(b.hi, 1000U);
  EXPECT_EQ(b.seed, 42U);

  const WeightPolicy c = WeightPolicy::parse("uniform:1:10:3");
  EXPECT_EQ(c.kind, WeightPolicy::Kind::kUniform);
  EXPECT_EQ(c.lo, 1U);
  EXPECT_EQ(c.hi, 10U);
  EXPECT_EQ(c.seed, 3U);

  const WeightPolicy d = WeightPolicy::parse("uniform:0:4294967295:18446744073709551615");
  EXPECT_EQ(d.lo, 0U);
  EXPECT_EQ(d.hi, kMaxWeight);
  EXPECT_EQ(d.seed, std::numeric_limits<std::uint64_t>::max());
}

TEST(WeightsParse, BadInputsThrowInputError) {
  const std::vector<std::string> bad = {"",        "5:1",      "a:b",
                                        "1:2:3:4", "-1:5",     "1:99999999999",
                                        "uniform", "uniform:", "1:",
                                        ":5",      " 1:5",     "1:5 ",
                                        "+1:5",    "1:5:-2",   "1:5:18446744073709551616",
                                        "UNIT",    "unit:1",   "1.5:2",
                                        "1;5",     "0x10:20",  "uniform:1:2:3:4"};
  for (const std::string& text : bad) {
    try {
      (void)WeightPolicy::parse(text);
      ADD_FAILURE() << "'" << text << "' was accepted";
    } catch (const InputError& e) {
      if (!text.empty()) {
        EXPECT_NE(std::string(e.what()).find(text), std::string::npos)
            << "message should quote '" << text << "': " << e.what();
      }
    } catch (const std::exception& e) {
      ADD_FAILURE() << "'" << text << "' threw a non-InputError: " << e.what();
    }
  }
}

TEST(WeightsParse, ToStringRoundTrip) {
  for (const WeightPolicy& p :
       {WeightPolicy::unit(), WeightPolicy::uniform(0, 0, 0), WeightPolicy::uniform(1, 1000, 42),
        WeightPolicy::uniform(0, kMaxWeight, std::numeric_limits<std::uint64_t>::max())}) {
    const WeightPolicy q = WeightPolicy::parse(p.to_string());
    EXPECT_EQ(q.kind, p.kind) << p.to_string();
    EXPECT_EQ(q.to_string(), p.to_string());
    EXPECT_EQ(first_weights(q, 50), first_weights(p, 50)) << p.to_string();
  }
  EXPECT_EQ(WeightPolicy::uniform(1, 1000, 42).to_string(), "uniform:1:1000:42");
}

}  // namespace
}  // namespace sssp
