/// @file
/// @brief The deterministic policy that gives weights to unweighted inputs.
#pragma once

#include <cstdint>
#include <string>

#include "sssp/types.hpp"

namespace sssp {

/// How to weight arcs when the input has none (PACE road topologies, SNAP
/// edge lists, Matrix Market `pattern`) and how generators weight theirs.
///
/// The weight of the `i`-th edge of the input (counting edges as they appear
/// in the file, from 0) is a pure function of (seed, i), so the same file and
/// policy give the same graph on every machine and in every run. Both arcs
/// of an undirected edge get the same weight.
struct WeightPolicy {
  /// Which rule to apply.
  enum class Kind {
    kUnit,     ///< Every weight is 1 (BFS-equivalent distances).
    kUniform,  ///< Uniform integer in [lo, hi], derived from (seed, i).
  };
  Kind kind = Kind::kUnit;  ///< The rule.
  weight_t lo = 1;          ///< Smallest weight (kUniform).
  weight_t hi = 1;          ///< Largest weight (kUniform), hi >= lo.
  std::uint64_t seed = 1;   ///< Seed (kUniform).

  /// Every weight 1.
  static WeightPolicy unit() { return {}; }
  /// Uniform integers in [lo, hi] from `seed`. Throws InputError if lo > hi.
  static WeightPolicy uniform(weight_t lo, weight_t hi, std::uint64_t seed);

  /// The weight of input edge number `index` under this policy.
  [[nodiscard]] weight_t weight_of(std::uint64_t index) const;

  /// "unit" or "uniform:LO:HI:SEED", the form parse() reads back.
  [[nodiscard]] std::string to_string() const;

  /// Parses "unit", "LO:HI" (seed 1), "LO:HI:SEED" or "uniform:LO:HI[:SEED]".
  /// Throws InputError with the offending text on anything else.
  static WeightPolicy parse(const std::string& text);
};

/// SplitMix64: a tiny, high-quality mixing function (Steele, Lea, Flood 2014).
/// Used wherever the course needs reproducible pseudo-random numbers.
[[nodiscard]] constexpr std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

}  // namespace sssp
