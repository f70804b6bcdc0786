#include "sssp/weights.hpp"

#include <charconv>
#include <string>
#include <vector>

#include "sssp/errors.hpp"

namespace sssp {

WeightPolicy WeightPolicy::uniform(weight_t lo, weight_t hi, std::uint64_t seed) {
  if (lo > hi) {
    throw InputError("weight range " + std::to_string(lo) + ":" + std::to_string(hi) + " is empty (need lo <= hi)");
  }
  WeightPolicy p;
  p.kind = Kind::kUniform;
  p.lo = lo;
  p.hi = hi;
  p.seed = seed;
  return p;
}

weight_t WeightPolicy::weight_of(std::uint64_t index) const {
  if (kind == Kind::kUnit) return 1;
  const std::uint64_t span = std::uint64_t{hi} - lo + 1;  // <= 2^32, no overflow
  // The modulo bias is below span / 2^64 < 2^-32: irrelevant for test graphs.
  return static_cast<weight_t>(lo + splitmix64(seed ^ splitmix64(index)) % span);
}

std::string WeightPolicy::to_string() const {
  if (kind == Kind::kUnit) return "unit";
  return "uniform:" + std::to_string(lo) + ":" + std::to_string(hi) + ":" + std::to_string(seed);
}

namespace {

template <typename T>
T parse_number(const std::string& field, const std::string& whole) {
  T value{};
  const char* end = field.data() + field.size();
  const auto [ptr, ec] = std::from_chars(field.data(), end, value);
  if (field.empty() || ec != std::errc{} || ptr != end) {
    throw InputError("weight policy '" + whole + "': '" + field + "' is not a non-negative integer in range");
  }
  return value;
}

}  // namespace

WeightPolicy WeightPolicy::parse(const std::string& text) {
  if (text == "unit") return unit();
  std::vector<std::string> fields;
  std::size_t start = 0;
  while (true) {
    const std::size_t colon = text.find(':', start);
    fields.push_back(text.substr(start, colon - start));
    if (colon == std::string::npos) break;
    start = colon + 1;
  }
  if (!fields.empty() && fields.front() == "uniform") fields.erase(fields.begin());
  if (fields.size() != 2 && fields.size() != 3) {
    throw InputError("weight policy '" + text +
                     "' not understood: use 'unit', 'LO:HI' or 'LO:HI:SEED' (e.g. 1:1000:42)");
  }
  const auto lo = parse_number<weight_t>(fields[0], text);
  const auto hi = parse_number<weight_t>(fields[1], text);
  const auto seed = fields.size() == 3 ? parse_number<std::uint64_t>(fields[2], text) : 1;
  return uniform(lo, hi, seed);
}

}  // namespace sssp
