#include "io_fields.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

namespace sssp::io_detail {

namespace {

constexpr std::uint64_t kMaxWeight = std::numeric_limits<weight_t>::max();

// Readers reserve at most this many arcs up front: declared counts are only
// claims, so storage beyond this grows with the arcs actually read.
constexpr std::uint64_t kMaxReserve = std::uint64_t{1} << 20;

bool is_blank(char c) { return c == ' ' || c == '\t'; }

}  // namespace

std::string_view trim_leading(std::string_view line) {
  while (!line.empty() && is_blank(line.front())) line.remove_prefix(1);
  return line;
}

bool next_content_line(LineReader& in, char comment, std::string_view& line) {
  while (in.next(line)) {
    line = trim_leading(line);
    if (!line.empty() && line.front() != comment) return true;
  }
  return false;
}

std::string quote(std::string_view text) {
  constexpr std::size_t kShown = 40;
  std::string out = "'";
  for (const char c : text.substr(0, kShown)) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x20 && byte < 0x7f) {
      out += c;
    } else {
      out += "\\x";
      out += "0123456789abcdef"[byte >> 4];
      out += "0123456789abcdef"[byte & 15];
    }
  }
  out += text.size() > kShown ? "...'" : "'";
  return out;
}

std::optional<std::string_view> Fields::next() {
  rest_ = trim_leading(rest_);
  if (rest_.empty()) return std::nullopt;
  std::size_t n = 0;
  while (n < rest_.size() && !is_blank(rest_[n])) ++n;
  const std::string_view field = rest_.substr(0, n);
  rest_.remove_prefix(n);
  return field;
}

std::string_view Fields::require(const LineReader& in, std::string_view what) {
  const auto field = next();
  if (!field) in.fail("missing " + std::string(what));
  return *field;
}

void Fields::expect_end(const LineReader& in) {
  rest_ = trim_leading(rest_);
  if (!rest_.empty()) in.fail("unexpected trailing text " + quote(rest_));
}

// std::from_chars, unlike strtol and atoi, rejects partial numbers and reports
// overflow instead of clamping, so every malformed field becomes an error.
std::uint64_t parse_u64(const LineReader& in, std::string_view field, std::string_view what) {
  std::uint64_t value = 0;
  const char* end = field.data() + field.size();
  const auto [ptr, ec] = std::from_chars(field.data(), end, value);
  const std::string quoted = std::string(what) + " " + quote(field);
  if (field.front() == '-') in.fail("negative " + quoted);
  if (ec == std::errc::result_out_of_range) in.fail(quoted + " is too large");
  if (ec != std::errc{} || ptr != end) in.fail(quoted + " is not a non-negative integer");
  return value;
}

weight_t parse_weight(const LineReader& in, std::string_view field) {
  const std::uint64_t w = parse_u64(in, field, "weight");
  if (w > kMaxWeight) {
    in.fail("weight " + std::to_string(w) + " exceeds the maximum " + std::to_string(kMaxWeight));
  }
  return static_cast<weight_t>(w);
}

// Weights are integers, so a real value is rounded to the nearest one (halves
// away from zero, as std::round does).
weight_t parse_real_weight(const LineReader& in, std::string_view field) {
  double value = 0;
  const char* end = field.data() + field.size();
  const auto [ptr, ec] = std::from_chars(field.data(), end, value);
  const std::string quoted = "weight " + quote(field);
  if (ec != std::errc{} || ptr != end) in.fail(quoted + " is not a real number");
  if (!std::isfinite(value)) in.fail(quoted + " is not finite");
  if (value < 0) in.fail("negative " + quoted);
  const double rounded = std::round(value);
  if (rounded > static_cast<double>(kMaxWeight)) {
    in.fail(quoted + " exceeds the maximum " + std::to_string(kMaxWeight));
  }
  return static_cast<weight_t>(rounded);
}

vertex_t parse_one_based(const LineReader& in, std::string_view field, std::uint64_t n) {
  const std::uint64_t id = parse_u64(in, field, "vertex id");
  if (id == 0 || id > n) {
    in.fail("vertex id " + std::to_string(id) + " is out of range 1.." + std::to_string(n) + " (ids are 1-based)");
  }
  return static_cast<vertex_t>(id - 1);
}

void check_count(const LineReader& in, std::string_view declared_by, std::uint64_t declared, std::uint64_t actual,
                 std::string_view items) {
  if (declared != actual) {
    in.fail(std::string(declared_by) + " declares " + std::to_string(declared) + " " + std::string(items) +
            " but the file has " + std::to_string(actual));
  }
}

void fail_too_many(const LineReader& in, std::string_view declared_by, std::uint64_t declared, std::string_view items) {
  in.fail(std::string(declared_by) + " declares " + std::to_string(declared) + " " + std::string(items) +
          " but the file has more");
}

Builder::Builder(const LineReader& in, const ReadOptions& options)
    : in_(in),
      max_vertices_(std::min(options.max_vertices, kMaxVertices)),
      max_arcs_(std::min(options.max_edges, kMaxEdges)),
      max_extra_vertices_(options.max_extra_vertices) {}

void Builder::check_vertices(std::uint64_t n) const {
  if (n > max_vertices_) {
    in_.fail("declares " + std::to_string(n) + " vertices, more than the limit of " + std::to_string(max_vertices_) +
             " (ReadOptions::max_vertices)");
  }
}

void Builder::check_arcs(std::uint64_t m, std::string_view what) const {
  if (m > max_arcs_) {
    in_.fail("declares " + std::string(what) + ", more than the limit of " + std::to_string(max_arcs_) +
             " arcs (ReadOptions::max_edges)");
  }
}

void Builder::reserve(std::uint64_t arcs) {
  const auto n = static_cast<std::size_t>(std::min(arcs, kMaxReserve));
  graph_.src.reserve(n);
  graph_.dst.reserve(n);
  graph_.weight.reserve(n);
}

void Builder::add(vertex_t u, vertex_t v, weight_t w) {
  if (graph_.src.size() >= max_arcs_) {
    in_.fail("more than " + std::to_string(max_arcs_) + " arcs (ReadOptions::max_edges)");
  }
  graph_.add_arc(u, v, w);
}

EdgeList Builder::finish(std::uint64_t num_vertices) {
  graph_.num_vertices = static_cast<vertex_t>(num_vertices);
  return std::move(graph_);
}

EdgeList Builder::finish_declared(const Declared& header) {
  // max_extra_vertices may be anything up to 2^64 - 1; the sum saturates.
  const std::uint64_t limit = in_.data_bytes() + std::min(max_extra_vertices_, ~std::uint64_t{0} - in_.data_bytes());
  if (header.vertices > limit) {
    in_.fail_at(header.line, "declares " + std::to_string(header.vertices) + " vertices, more than the " +
                                 std::to_string(limit) + " its data allow: one per byte of data lines (" +
                                 std::to_string(in_.data_bytes()) + ") plus " + std::to_string(max_extra_vertices_) +
                                 " (ReadOptions::max_extra_vertices)");
  }
  return finish(header.vertices);
}

}  // namespace sssp::io_detail
