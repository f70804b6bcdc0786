// Private to the readers: fields and numbers of a line, and the arc collector
// that enforces ReadOptions' limits. Every failure names the file and line.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "io_lines.hpp"
#include "sssp/graph.hpp"
#include "sssp/io.hpp"

namespace sssp::io_detail {

// Leading blanks are dropped before a line is classified, so an indented
// comment is still a comment and a line of spaces is blank.
[[nodiscard]] std::string_view trim_leading(std::string_view line);

// The next line that is neither blank nor a comment (a line whose first
// non-blank character is `comment`), without its leading blanks; false at the end.
bool next_content_line(LineReader& in, char comment, std::string_view& line);

// Input text quoted for a message, shortened and with unprintable bytes
// escaped: binary garbage must not turn the message into garbage too.
[[nodiscard]] std::string quote(std::string_view text);

// Whitespace-separated fields of one line.
class Fields {
 public:
  explicit Fields(std::string_view line) : rest_(line) {}
  std::optional<std::string_view> next();
  // The next field; fails with "missing <what>" when there is none.
  std::string_view require(const LineReader& in, std::string_view what);
  // Fails unless only blanks remain.
  void expect_end(const LineReader& in);

 private:
  std::string_view rest_;
};

[[nodiscard]] std::uint64_t parse_u64(const LineReader& in, std::string_view field, std::string_view what);
[[nodiscard]] weight_t parse_weight(const LineReader& in, std::string_view field);
// Matrix Market `real` entries, rounded to the nearest integer weight.
[[nodiscard]] weight_t parse_real_weight(const LineReader& in, std::string_view field);
// A 1-based id checked against the declared vertex count, returned 0-based.
[[nodiscard]] vertex_t parse_one_based(const LineReader& in, std::string_view field, std::uint64_t n);

// Fails unless the file had as many items as its header declared.
void check_count(const LineReader& in, std::string_view declared_by, std::uint64_t declared, std::uint64_t actual,
                 std::string_view items);
[[noreturn]] void fail_too_many(const LineReader& in, std::string_view declared_by, std::uint64_t declared,
                                std::string_view items);

// What a header line (DIMACS and PACE `p`, the Matrix Market size line) declared.
struct Declared {
  std::uint64_t line = 0;  // 0 until the header has been read
  std::uint64_t vertices = 0;
  std::uint64_t items = 0;  // arcs, edges or entries
};

// Collects arcs, refusing one past the limit so memory stays bounded by it.
class Builder {
 public:
  Builder(const LineReader& in, const ReadOptions& options);

  // Checks counts a header declares before anything is sized from them.
  void check_vertices(std::uint64_t n) const;
  void check_arcs(std::uint64_t m, std::string_view what) const;
  // Reserves for the declared arcs, but never much: they are only a claim.
  void reserve(std::uint64_t arcs);

  void add(vertex_t u, vertex_t v, weight_t w);
  [[nodiscard]] std::uint64_t max_vertices() const { return max_vertices_; }

  // The graph of a format whose vertices are counted as they appear.
  EdgeList finish(std::uint64_t num_vertices);
  // The graph of a format whose header declared its vertices. Vertices
  // without arcs take no bytes in a file but memory in every algorithm, so
  // the header may declare at most one vertex per byte of data lines plus
  // ReadOptions::max_extra_vertices.
  EdgeList finish_declared(const Declared& header);

 private:
  const LineReader& in_;
  std::uint64_t max_vertices_;
  std::uint64_t max_arcs_;
  std::uint64_t max_extra_vertices_;
  EdgeList graph_;
};

}  // namespace sssp::io_detail
