// Matrix Market coordinate files: integer, real or pattern; general or symmetric.
#include <algorithm>
#include <cctype>

#include "io_fields.hpp"
#include "io_formats.hpp"
#include "sssp/errors.hpp"

namespace sssp::io_detail {

namespace {

std::string lowercase(std::string_view text) {
  std::string s(text);
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

enum class MmField { kInteger, kReal, kPattern };

struct Banner {
  MmField field;
  bool symmetric;
};

// %%MatrixMarket matrix coordinate <field> <symmetry>, case-insensitive, on line 1.
Banner parse_banner(LineReader& in) {
  std::string_view line;
  if (!in.next(line)) {
    throw InputError(in.name() + ": empty file, expected a '%%MatrixMarket' banner");
  }
  Fields banner(line);
  if (lowercase(banner.next().value_or("")) != "%%matrixmarket" || in.line_number() != 1) {
    in.fail("expected a '%%MatrixMarket matrix coordinate ...' banner on the first line");
  }
  const std::string object = lowercase(banner.require(in, "object ('matrix')"));
  const std::string layout = lowercase(banner.require(in, "format ('coordinate')"));
  const std::string field_name = lowercase(banner.require(in, "field (integer, real or pattern)"));
  const std::string symmetry = lowercase(banner.require(in, "symmetry (general or symmetric)"));
  banner.expect_end(in);
  if (object != "matrix") in.fail("unsupported object " + quote(object) + " (only 'matrix')");
  if (layout != "coordinate") {
    in.fail("unsupported format " + quote(layout) + ": only sparse 'coordinate' matrices are graphs");
  }
  Banner result{};
  if (field_name == "integer") {
    result.field = MmField::kInteger;
  } else if (field_name == "real") {
    result.field = MmField::kReal;
  } else if (field_name == "pattern") {
    result.field = MmField::kPattern;
  } else {
    in.fail("unsupported field " + quote(field_name) + " (supported: integer, real, pattern)");
  }
  if (symmetry != "general" && symmetry != "symmetric") {
    in.fail("unsupported symmetry " + quote(symmetry) + " (supported: general, symmetric)");
  }
  result.symmetric = symmetry == "symmetric";
  return result;
}

}  // namespace

EdgeList parse_matrix_market(LineReader& in, const ReadOptions& options) {
  const Banner banner = parse_banner(in);
  Builder out(in, options);
  Declared size;
  std::string_view line;
  while (next_content_line(in, '%', line)) {
    Fields fields(line);
    if (size.line == 0) {
      const std::uint64_t rows = parse_u64(in, fields.require(in, "row count"), "row count");
      const std::uint64_t cols = parse_u64(in, fields.require(in, "column count"), "column count");
      size.items = parse_u64(in, fields.require(in, "entry count"), "entry count");
      fields.expect_end(in);
      if (rows != cols) {
        in.fail("matrix is " + std::to_string(rows) + " x " + std::to_string(cols) +
                "; an adjacency matrix must be square");
      }
      size.vertices = rows;
      out.check_vertices(size.vertices);
      out.check_arcs(size.items, std::to_string(size.items) + " entries");
      out.reserve(banner.symmetric ? 2 * size.items : size.items);
      size.line = in.line_number();
      continue;
    }
    const std::uint64_t count = in.data_lines();
    if (count == size.items) fail_too_many(in, "size line", size.items, "entries");
    const vertex_t i = parse_one_based(in, fields.require(in, "row index"), size.vertices);
    const vertex_t j = parse_one_based(in, fields.require(in, "column index"), size.vertices);
    weight_t w = 0;
    switch (banner.field) {
      case MmField::kInteger: w = parse_weight(in, fields.require(in, "value")); break;
      case MmField::kReal: w = parse_real_weight(in, fields.require(in, "value")); break;
      case MmField::kPattern: w = options.weights.weight_of(count); break;
    }
    fields.expect_end(in);
    // The format stores only the lower triangle of a symmetric matrix; an entry
    // above it would silently double an edge once mirrored.
    if (banner.symmetric && i < j) {
      in.fail("entry (" + std::to_string(i + 1) + ", " + std::to_string(j + 1) +
              ") lies above the diagonal; a symmetric matrix stores only its lower triangle");
    }
    out.add(i, j, w);
    if (banner.symmetric && i != j) out.add(j, i, w);
    in.count_data_line();
  }
  if (size.line == 0) throw InputError(in.name() + ": no size line 'rows cols entries'");
  check_count(in, "size line", size.items, in.data_lines(), "entries");
  return out.finish_declared(size);
}

}  // namespace sssp::io_detail
