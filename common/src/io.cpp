#include "sssp/io.hpp"

#include <zlib.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "sssp/errors.hpp"

namespace sssp {

namespace {

namespace fs = std::filesystem;

// The binary format stores the arrays in host byte order so that loading is one
// read per array; pinning the order keeps files portable across the machines the
// course runs on (x86-64 and AArch64 are both little-endian).
static_assert(std::endian::native == std::endian::little,
              "the binary CSR format is little-endian; add byte swapping for this host");

// Longer lines cannot occur in any supported format; refusing them bounds the
// reader's memory however the file is damaged.
constexpr std::size_t kMaxLineBytes = std::size_t{1} << 20;

// Readers reserve at most this many arcs up front: declared counts are only
// claims, so storage beyond this grows with the arcs actually read.
constexpr std::uint64_t kMaxReserve = std::uint64_t{1} << 20;

constexpr std::uint64_t kMaxWeight = std::numeric_limits<weight_t>::max();

// --- Line reading -----------------------------------------------------------

// Where the bytes come from. A source can start over so that format detection
// may look ahead and the chosen parser still sees the file from line 1.
class ByteSource {
 public:
  virtual ~ByteSource() = default;
  // Copies up to `capacity` bytes into `out`; 0 means the end. Throws InputError
  // with a bare reason; the LineReader adds the file name and line.
  virtual std::size_t read(char* out, std::size_t capacity) = 0;
  virtual void rewind() = 0;
};

class StringSource final : public ByteSource {
 public:
  explicit StringSource(std::string_view text) : text_(text) {}
  std::size_t read(char* out, std::size_t capacity) override {
    const std::size_t n = std::min(capacity, text_.size() - pos_);
    std::memcpy(out, text_.data() + pos_, n);
    pos_ += n;
    return n;
  }
  void rewind() override { pos_ = 0; }

 private:
  std::string_view text_;
  std::size_t pos_ = 0;
};

// zlib reads plain files transparently, so compressed and plain input share
// this one path and nobody has to trust a file's extension.
class GzSource final : public ByteSource {
 public:
  explicit GzSource(const std::string& path) : path_(path) {
    errno = 0;
    file_ = gzopen(path.c_str(), "rb");
    if (file_ == nullptr) {
      // gzopen leaves errno at 0 when only its own allocation failed.
      throw InputError("cannot open " + path + ": " +
                       (errno != 0 ? std::strerror(errno) : "out of memory"));
    }
    gzbuffer(file_, 256 * 1024);  // fewer system calls than the 8 KiB default
  }
  GzSource(const GzSource&) = delete;
  GzSource& operator=(const GzSource&) = delete;
  ~GzSource() override { gzclose(file_); }

  std::size_t read(char* out, std::size_t capacity) override {
    const auto want = static_cast<unsigned>(std::min<std::size_t>(capacity, 1u << 30));
    const int n = gzread(file_, out, want);
    if (n < 0) fail_with_zlib_error();
    // gzread reports a stream that stops mid-member as a plain end of file;
    // only gzerror tells it apart from a complete one.
    if (n == 0) {
      int code = Z_OK;
      gzerror(file_, &code);
      if (code != Z_OK) fail_with_zlib_error();
    }
    return static_cast<std::size_t>(n);
  }

  void rewind() override {
    if (gzrewind(file_) != 0) fail_with_zlib_error();
  }

 private:
  [[noreturn]] void fail_with_zlib_error() {
    int code = Z_OK;
    const char* message = gzerror(file_, &code);
    std::string_view detail = code == Z_ERRNO ? std::strerror(errno) : message;
    // zlib prefixes its messages with the path, which the caller adds anyway.
    if (detail.starts_with(path_ + ": ")) detail.remove_prefix(path_.size() + 2);
    throw InputError(
        "cannot read: " + std::string(detail) +
        (code == Z_BUF_ERROR || code == Z_DATA_ERROR ? " (truncated or corrupt gzip data)" : ""));
  }

  std::string path_;
  gzFile file_ = nullptr;
};

// Splits a byte source into lines, counting them for messages. Lines are views
// into an internal buffer, valid until the next call.
class LineReader {
 public:
  LineReader(ByteSource& source, std::string name)
      : source_(source),
        name_(std::move(name)),
        // Not value-initialised: pages of a big buffer that a small input never
        // reaches then cost nothing.
        buffer_(std::make_unique_for_overwrite<char[]>(kBufferBytes)) {}

  // Next line without its terminator ("\n" or "\r\n"); false at the end.
  bool next(std::string_view& line) {
    while (true) {
      const char* begin = buffer_.get() + begin_;
      const auto* newline = static_cast<const char*>(std::memchr(begin, '\n', end_ - begin_));
      if (newline != nullptr) {
        const auto length = static_cast<std::size_t>(newline - begin);
        begin_ += length + 1;
        return deliver(line, begin, length);
      }
      if (end_ - begin_ > kMaxLineBytes) {
        ++line_;  // the overlong line is the one being reported
        fail("line is longer than " + std::to_string(kMaxLineBytes) + " bytes");
      }
      if (at_end_) {
        if (begin_ == end_) return false;
        const std::size_t length = end_ - begin_;
        begin_ = end_;
        return deliver(line, begin, length);
      }
      refill();
    }
  }

  void rewind() {
    from_source([&] { source_.rewind(); });
    begin_ = end_ = 0;
    line_ = 0;
    at_end_ = false;
  }

  [[nodiscard]] const std::string& name() const { return name_; }
  [[nodiscard]] std::uint64_t line_number() const { return line_; }

  [[noreturn]] void fail(const std::string& what) const {
    throw InputError(name_ + ":" + std::to_string(line_) + ": " + what);
  }

 private:
  bool deliver(std::string_view& line, const char* begin, std::size_t length) {
    ++line_;
    if (length > kMaxLineBytes)
      fail("line is longer than " + std::to_string(kMaxLineBytes) + " bytes");
    if (length > 0 && begin[length - 1] == '\r') --length;
    line = {begin, length};
    return true;
  }

  void refill() {
    std::memmove(buffer_.get(), buffer_.get() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
    from_source([&] {
      const std::size_t n = source_.read(buffer_.get() + end_, kBufferBytes - end_);
      end_ += n;
      at_end_ = n == 0;
    });
  }

  // Source errors happen while reading the line after the last one delivered.
  template <typename Action>
  void from_source(Action action) {
    try {
      action();
    } catch (const InputError& e) {
      throw InputError(name_ + ":" + std::to_string(line_ + 1) + ": " + e.what());
    }
  }

  // Two maximal lines, so that after moving a partial line (at most
  // kMaxLineBytes) to the front there is always room to read more.
  static constexpr std::size_t kBufferBytes = 2 * kMaxLineBytes;

  ByteSource& source_;
  std::string name_;
  std::unique_ptr<char[]> buffer_;
  std::size_t begin_ = 0;
  std::size_t end_ = 0;
  std::uint64_t line_ = 0;
  bool at_end_ = false;
};

// --- Fields and numbers -----------------------------------------------------

bool is_blank(char c) { return c == ' ' || c == '\t'; }

// Leading blanks are dropped before a line is classified, so an indented
// comment is still a comment and a line of spaces is blank.
std::string_view trim_leading(std::string_view line) {
  while (!line.empty() && is_blank(line.front())) line.remove_prefix(1);
  return line;
}

// Input text quoted for a message: binary garbage or a megabyte-long field
// must not turn the message into garbage too.
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

// Whitespace-separated fields of one line.
class Fields {
 public:
  explicit Fields(std::string_view line) : rest_(line) {}

  std::optional<std::string_view> next() {
    skip_blanks();
    if (rest_.empty()) return std::nullopt;
    std::size_t n = 0;
    while (n < rest_.size() && !is_blank(rest_[n])) ++n;
    const std::string_view field = rest_.substr(0, n);
    rest_.remove_prefix(n);
    return field;
  }

  std::string_view require(const LineReader& in, std::string_view what) {
    const auto field = next();
    if (!field) in.fail("missing " + std::string(what));
    return *field;
  }

  void expect_end(const LineReader& in) {
    skip_blanks();
    if (!rest_.empty()) in.fail("unexpected trailing text " + quote(rest_));
  }

 private:
  void skip_blanks() {
    while (!rest_.empty() && is_blank(rest_.front())) rest_.remove_prefix(1);
  }
  std::string_view rest_;
};

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

// Matrix Market `real` entries: weights are integers, so a real value is
// rounded to the nearest one (halves away from zero, as std::round does).
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

// A 1-based id checked against the declared vertex count, returned 0-based.
vertex_t parse_one_based(const LineReader& in, std::string_view field, std::uint64_t n) {
  const std::uint64_t id = parse_u64(in, field, "vertex id");
  if (id == 0 || id > n) {
    in.fail("vertex id " + std::to_string(id) + " is out of range 1.." + std::to_string(n) +
            " (ids are 1-based)");
  }
  return static_cast<vertex_t>(id - 1);
}

// --- Graph assembly ---------------------------------------------------------

struct Limits {
  std::uint64_t vertices;
  std::uint64_t arcs;
};

Limits limits_of(const ReadOptions& options) {
  return {std::min(options.max_vertices, kMaxVertices), std::min(options.max_edges, kMaxEdges)};
}

// Collects arcs, refusing one past the limit so memory stays bounded by it.
class Builder {
 public:
  Builder(const LineReader& in, const Limits& limits) : in_(in), limits_(limits) {}

  void check_vertices(std::uint64_t n) const {
    if (n > limits_.vertices) {
      in_.fail("declares " + std::to_string(n) + " vertices, more than the limit of " +
               std::to_string(limits_.vertices) + " (ReadOptions::max_vertices)");
    }
  }
  void check_arcs(std::uint64_t m, std::string_view what) const {
    if (m > limits_.arcs) {
      in_.fail("declares " + std::string(what) + ", more than the limit of " +
               std::to_string(limits_.arcs) + " arcs (ReadOptions::max_edges)");
    }
  }

  void reserve(std::uint64_t arcs) {
    const auto n = static_cast<std::size_t>(std::min(arcs, kMaxReserve));
    graph_.src.reserve(n);
    graph_.dst.reserve(n);
    graph_.weight.reserve(n);
  }

  void add(vertex_t u, vertex_t v, weight_t w) {
    if (graph_.src.size() >= limits_.arcs) {
      in_.fail("more than " + std::to_string(limits_.arcs) + " arcs (ReadOptions::max_edges)");
    }
    graph_.add_arc(u, v, w);
  }

  EdgeList finish(std::uint64_t num_vertices) {
    graph_.num_vertices = static_cast<vertex_t>(num_vertices);
    return std::move(graph_);
  }

 private:
  const LineReader& in_;
  Limits limits_;
  EdgeList graph_;
};

// Checks a declared count once the input is exhausted.
void check_count(const LineReader& in, std::string_view declared_by, std::uint64_t declared,
                 std::uint64_t actual, std::string_view items) {
  if (declared != actual) {
    in.fail(std::string(declared_by) + " declares " + std::to_string(declared) + " " +
            std::string(items) + " but the file has " + std::to_string(actual));
  }
}

[[noreturn]] void fail_too_many(const LineReader& in, std::string_view declared_by,
                                std::uint64_t declared, std::string_view items) {
  in.fail(std::string(declared_by) + " declares " + std::to_string(declared) + " " +
          std::string(items) + " but the file has more");
}

// --- DIMACS and PACE --------------------------------------------------------

// The two share their layout: `c` comments, one `p <kind> N M` header, then
// one line per arc (DIMACS) or per undirected edge (PACE).
EdgeList parse_dimacs_like(LineReader& in, const ReadOptions& options, bool pace) {
  const std::string_view kind = pace ? "tw" : "sp";
  const std::string header_name = std::string("'p ") + std::string(kind) + "' header";
  const std::string items = pace ? "edges" : "arcs";
  Builder out(in, limits_of(options));
  std::uint64_t header_line = 0;
  std::uint64_t n = 0;
  std::uint64_t m = 0;
  std::uint64_t count = 0;
  std::string_view line;
  while (in.next(line)) {
    line = trim_leading(line);
    if (line.empty() || line.front() == 'c') continue;
    Fields fields(line);
    const std::string_view tag = *fields.next();
    if (tag == "p") {
      if (header_line != 0) {
        in.fail("second header line (the first is line " + std::to_string(header_line) + ")");
      }
      const std::string_view problem = fields.require(in, "problem type");
      if (problem != kind) {
        in.fail("expected 'p " + std::string(kind) + "', got problem type " + quote(problem));
      }
      n = parse_u64(in, fields.require(in, "vertex count"), "vertex count");
      m = parse_u64(in, fields.require(in, "edge count"), "edge count");
      fields.expect_end(in);
      header_line = in.line_number();
      out.check_vertices(n);
      // A PACE edge becomes two arcs; after the first check m <= 2^32, so 2m cannot overflow.
      out.check_arcs(m, std::to_string(m) + " " + items);
      if (pace)
        out.check_arcs(2 * m, std::to_string(m) + " edges (" + std::to_string(2 * m) + " arcs)");
      out.reserve(pace ? 2 * m : m);
      continue;
    }
    if (!pace && tag != "a") in.fail("unknown line type " + quote(tag) + " (expected c, p or a)");
    if (header_line == 0) {
      in.fail(std::string(pace ? "edge" : "arc") + " line before the " + header_name);
    }
    if (count == m) fail_too_many(in, "header", m, items);
    if (pace) {
      const vertex_t u = parse_one_based(in, tag, n);
      const vertex_t v = parse_one_based(in, fields.require(in, "second vertex id"), n);
      fields.expect_end(in);
      const weight_t w = options.weights.weight_of(count);
      out.add(u, v, w);
      out.add(v, u, w);
    } else {
      const vertex_t u = parse_one_based(in, fields.require(in, "tail vertex id"), n);
      const vertex_t v = parse_one_based(in, fields.require(in, "head vertex id"), n);
      const weight_t w = parse_weight(in, fields.require(in, "weight"));
      fields.expect_end(in);
      out.add(u, v, w);
    }
    ++count;
  }
  if (header_line == 0) {
    throw InputError(in.name() + ": no " + header_name + " (the file is empty or only comments)");
  }
  check_count(in, "header", m, count, items);
  return out.finish(n);
}

// --- Matrix Market ----------------------------------------------------------

std::string lowercase(std::string_view text) {
  std::string s(text);
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

enum class MmField { kInteger, kReal, kPattern };

EdgeList parse_matrix_market(LineReader& in, const ReadOptions& options) {
  std::string_view line;
  if (!in.next(line)) {
    throw InputError(in.name() + ": empty file, expected a '%%MatrixMarket' banner");
  }
  // Banner: %%MatrixMarket matrix coordinate <field> <symmetry> (case-insensitive).
  Fields banner(line);
  if (lowercase(banner.next().value_or("")) != "%%matrixmarket") {
    in.fail("expected a '%%MatrixMarket matrix coordinate ...' banner on the first line");
  }
  const std::string object = lowercase(banner.require(in, "object ('matrix')"));
  const std::string layout = lowercase(banner.require(in, "format ('coordinate')"));
  const std::string field_name = lowercase(banner.require(in, "field (integer, real or pattern)"));
  const std::string symmetry = lowercase(banner.require(in, "symmetry (general or symmetric)"));
  banner.expect_end(in);
  if (object != "matrix") in.fail("unsupported object " + quote(object) + " (only 'matrix')");
  if (layout != "coordinate") {
    in.fail("unsupported format " + quote(layout) +
            ": only sparse 'coordinate' matrices are graphs");
  }
  MmField field{};
  if (field_name == "integer") {
    field = MmField::kInteger;
  } else if (field_name == "real") {
    field = MmField::kReal;
  } else if (field_name == "pattern") {
    field = MmField::kPattern;
  } else {
    in.fail("unsupported field " + quote(field_name) + " (supported: integer, real, pattern)");
  }
  if (symmetry != "general" && symmetry != "symmetric") {
    in.fail("unsupported symmetry " + quote(symmetry) + " (supported: general, symmetric)");
  }
  const bool symmetric = symmetry == "symmetric";

  Builder out(in, limits_of(options));
  bool have_size = false;
  std::uint64_t n = 0;
  std::uint64_t nnz = 0;
  std::uint64_t count = 0;
  while (in.next(line)) {
    line = trim_leading(line);
    if (line.empty() || line.front() == '%') continue;
    Fields fields(line);
    if (!have_size) {
      const std::uint64_t rows = parse_u64(in, fields.require(in, "row count"), "row count");
      const std::uint64_t cols = parse_u64(in, fields.require(in, "column count"), "column count");
      nnz = parse_u64(in, fields.require(in, "entry count"), "entry count");
      fields.expect_end(in);
      if (rows != cols) {
        in.fail("matrix is " + std::to_string(rows) + " x " + std::to_string(cols) +
                "; an adjacency matrix must be square");
      }
      n = rows;
      out.check_vertices(n);
      out.check_arcs(nnz, std::to_string(nnz) + " entries");
      out.reserve(symmetric ? 2 * nnz : nnz);
      have_size = true;
      continue;
    }
    if (count == nnz) fail_too_many(in, "size line", nnz, "entries");
    const vertex_t i = parse_one_based(in, fields.require(in, "row index"), n);
    const vertex_t j = parse_one_based(in, fields.require(in, "column index"), n);
    weight_t w = 0;
    switch (field) {
      case MmField::kInteger:
        w = parse_weight(in, fields.require(in, "value"));
        break;
      case MmField::kReal:
        w = parse_real_weight(in, fields.require(in, "value"));
        break;
      case MmField::kPattern:
        w = options.weights.weight_of(count);
        break;
    }
    fields.expect_end(in);
    // The format stores only the lower triangle of a symmetric matrix; an entry
    // above it would silently double an edge once mirrored.
    if (symmetric && i < j) {
      in.fail("entry (" + std::to_string(i + 1) + ", " + std::to_string(j + 1) +
              ") lies above the diagonal; a symmetric matrix stores only its lower triangle");
    }
    out.add(i, j, w);
    if (symmetric && i != j) out.add(j, i, w);
    ++count;
  }
  if (!have_size) throw InputError(in.name() + ": no size line 'rows cols entries'");
  check_count(in, "size line", nnz, count, "entries");
  return out.finish(n);
}

// --- SNAP -------------------------------------------------------------------

EdgeList parse_snap(LineReader& in, const ReadOptions& options) {
  const Limits limits = limits_of(options);
  Builder out(in, limits);
  // Ids are arbitrary 64-bit labels; numbering them by first appearance makes
  // the result independent of hashing and identical on every run.
  std::unordered_map<std::uint64_t, vertex_t> ids;
  const auto vertex_of = [&](std::string_view field) {
    const std::uint64_t label = parse_u64(in, field, "vertex id");
    const auto [it, added] = ids.try_emplace(label, static_cast<vertex_t>(ids.size()));
    if (added && ids.size() > limits.vertices) {
      in.fail("more than " + std::to_string(limits.vertices) +
              " distinct vertex ids (ReadOptions::max_vertices)");
    }
    return it->second;
  };
  std::uint64_t count = 0;
  std::string_view line;
  while (in.next(line)) {
    line = trim_leading(line);
    if (line.empty() || line.front() == '#') continue;
    Fields fields(line);
    const vertex_t u = vertex_of(fields.require(in, "source vertex id"));
    const vertex_t v = vertex_of(fields.require(in, "target vertex id"));
    fields.expect_end(in);
    const weight_t w = options.weights.weight_of(count);
    out.add(u, v, w);
    if (options.snap_undirected) out.add(v, u, w);
    ++count;
  }
  if (count == 0) throw InputError(in.name() + ": no edges (the file is empty or only comments)");
  return out.finish(ids.size());
}

// --- Detection and dispatch -------------------------------------------------

// Decides from the first line that is neither blank nor a DIMACS-style `c`
// comment; nullopt when there is no such line.
std::optional<GraphFormat> detect_format(LineReader& in) {
  std::string_view line;
  while (in.next(line)) {
    line = trim_leading(line);
    if (line.empty() || line.front() == 'c') continue;
    if (line.front() == '%') return GraphFormat::kMatrixMarket;
    if (line.front() == '#') return GraphFormat::kSnap;
    Fields fields(line);
    const std::string_view tag = *fields.next();
    // A headerless `a` line is still DIMACS: its parser then names the missing header.
    if (tag == "a") return GraphFormat::kDimacs;
    if (tag != "p") return GraphFormat::kSnap;
    const std::string_view problem = fields.next().value_or("");
    if (problem == "sp") return GraphFormat::kDimacs;
    if (problem == "tw") return GraphFormat::kPace;
    in.fail("unknown problem type " + quote(problem) + " (expected 'p sp' or 'p tw')");
  }
  return std::nullopt;
}

EdgeList parse_lines(ByteSource& source, const std::string& name_in_messages,
                     const std::string& graph_name, const ReadOptions& options) {
  LineReader in(source, name_in_messages);
  GraphFormat format = options.format;
  if (format == GraphFormat::kAuto) {
    const auto detected = detect_format(in);
    if (!detected) {
      throw InputError(name_in_messages +
                       ": empty file: no graph data (only blank or comment lines)");
    }
    format = *detected;
    in.rewind();
  }
  EdgeList graph;  // `format` is resolved here: kAuto cannot reach this point
  if (format == GraphFormat::kDimacs || format == GraphFormat::kPace) {
    graph = parse_dimacs_like(in, options, format == GraphFormat::kPace);
  } else if (format == GraphFormat::kSnap) {
    graph = parse_snap(in, options);
  } else {
    graph = parse_matrix_market(in, options);
  }
  graph.name = graph_name;
  return graph;
}

// --- Binary files -----------------------------------------------------------

constexpr std::array<char, 8> kMagic = {'S', 'S', 'S', 'P', 'C', 'S', 'R', '1'};
constexpr std::uint32_t kBinaryVersion = 1;
// magic, version, reserved, num_vertices, num_edges, name length
constexpr std::size_t kHeaderBytes = 8 + 4 + 4 + 8 + 8 + 8;

// Checksum of the binary format: the bytes before the checksum field, taken
// as little-endian 64-bit words (the last one zero-padded), each absorbed as
// h = splitmix64(h ^ word), then the byte count absorbed the same way.
// splitmix64 is a bijection, so changing any single word always changes the
// result; word-at-a-time keeps it near memory speed on large graphs.
class Checksum {
 public:
  void update(const void* data, std::size_t size) {
    const auto* bytes = static_cast<const unsigned char*>(data);
    total_ += size;
    while (size > 0 && pending_ > 0) {
      word_bytes_[pending_++] = *bytes++;
      --size;
      if (pending_ == 8) absorb_pending();
    }
    for (; size >= 8; size -= 8, bytes += 8) {
      std::uint64_t word = 0;
      std::memcpy(&word, bytes, 8);
      hash_ = splitmix64(hash_ ^ word);
    }
    while (size > 0) {
      word_bytes_[pending_++] = *bytes++;
      --size;
    }
  }

  [[nodiscard]] std::uint64_t finish() {
    if (pending_ > 0) {
      std::fill(word_bytes_.begin() + static_cast<std::ptrdiff_t>(pending_), word_bytes_.end(), 0);
      absorb_pending();
    }
    return splitmix64(hash_ ^ total_);
  }

 private:
  void absorb_pending() {
    std::uint64_t word = 0;
    std::memcpy(&word, word_bytes_.data(), 8);
    hash_ = splitmix64(hash_ ^ word);
    pending_ = 0;
  }

  std::uint64_t hash_ = 0x53535350'43535231ULL;  // "SSSPCSR1"
  std::uint64_t total_ = 0;
  std::array<unsigned char, 8> word_bytes_{};
  std::size_t pending_ = 0;
};

template <typename T>
void put(std::array<char, kHeaderBytes>& header, std::size_t offset, T value) {
  std::memcpy(header.data() + offset, &value, sizeof value);
}

template <typename T>
T get(const std::array<char, kHeaderBytes>& header, std::size_t offset) {
  T value{};
  std::memcpy(&value, header.data() + offset, sizeof value);
  return value;
}

// Writes through `write` into a temporary beside `path`, then renames it over
// `path`: readers (and a later run after a crash) see the old file or the
// complete new one, never a prefix. The random suffix keeps concurrent writers
// of one path (parallel test processes sharing a cache) from mixing bytes.
void write_atomically(const std::string& path, const std::function<void(std::ostream&)>& write) {
  std::random_device entropy;
  const std::string tmp = path + ".tmp" + std::to_string(entropy());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw InputError("cannot create " + tmp + ": " + std::strerror(errno));
    write(out);
    out.close();
    if (!out) {
      std::error_code ignored;
      fs::remove(tmp, ignored);
      throw InputError("cannot write " + tmp + " (disk full?)");
    }
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) {
    std::error_code ignored;
    fs::remove(tmp, ignored);
    throw InputError("cannot rename " + tmp + " to " + path + ": " + ec.message());
  }
}

template <typename T>
void write_array(std::ostream& out, Checksum& sum, const std::vector<T>& values) {
  const std::size_t bytes = values.size() * sizeof(T);
  sum.update(values.data(), bytes);
  out.write(reinterpret_cast<const char*>(values.data()), static_cast<std::streamsize>(bytes));
}

template <typename T>
void read_array(std::istream& in, Checksum& sum, std::vector<T>& values, std::size_t count) {
  values.resize(count);
  const std::size_t bytes = count * sizeof(T);
  in.read(reinterpret_cast<char*>(values.data()), static_cast<std::streamsize>(bytes));
  sum.update(values.data(), bytes);
}

constexpr std::size_t kWriteChunk = std::size_t{1} << 20;

void append_number(std::string& out, std::uint64_t value) {
  std::array<char, 20> digits{};  // 2^64 - 1 has 20 digits
  out.append(digits.data(), std::to_chars(digits.data(), digits.data() + digits.size(), value).ptr);
}

std::string hex16(std::uint64_t value) {
  std::string text(16, '0');
  for (std::size_t i = 16; i-- > 0; value >>= 4) text[i] = "0123456789abcdef"[value & 15];
  return text;
}

std::uint64_t fnv1a(std::string_view text) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (const char c : text) {
    h ^= static_cast<unsigned char>(c);
    h *= 0x100000001b3ULL;
  }
  return h;
}

}  // namespace

EdgeList read_graph(const std::string& path, const ReadOptions& options) {
  GzSource source(path);
  return parse_lines(source, path, fs::path(path).filename().string(), options);
}

EdgeList parse_graph(const std::string& text, const std::string& name, const ReadOptions& options) {
  StringSource source(text);
  return parse_lines(source, name, name, options);
}

void write_dimacs(const CsrGraph& graph, const std::string& path) {
  write_atomically(path, [&](std::ostream& out) {
    std::string name = graph.name;
    std::replace_if(
        name.begin(), name.end(), [](char c) { return c == '\n' || c == '\r'; }, ' ');
    out << "c " << name << "\np sp " << graph.num_vertices() << ' ' << graph.num_edges() << '\n';
    // Formatting into one large buffer: an ostream << per number is several times slower.
    std::string buffer;
    buffer.reserve(kWriteChunk + 64);
    for (vertex_t u = 0; u < graph.num_vertices(); ++u) {
      for (edge_t e = graph.offsets[u]; e < graph.offsets[u + 1]; ++e) {
        buffer += "a ";
        append_number(buffer, std::uint64_t{u} + 1);
        buffer += ' ';
        append_number(buffer, std::uint64_t{graph.targets[e]} + 1);
        buffer += ' ';
        append_number(buffer, graph.weights[e]);
        buffer += '\n';
        if (buffer.size() >= kWriteChunk) {
          out.write(buffer.data(), static_cast<std::streamsize>(buffer.size()));
          buffer.clear();
        }
      }
    }
    out.write(buffer.data(), static_cast<std::streamsize>(buffer.size()));
  });
}

void save_binary(const CsrGraph& graph, const std::string& path) {
  graph.validate();
  write_atomically(path, [&](std::ostream& out) {
    std::array<char, kHeaderBytes> header{};
    std::memcpy(header.data(), kMagic.data(), kMagic.size());
    put<std::uint32_t>(header, 8, kBinaryVersion);
    put<std::uint32_t>(header, 12, 0);
    put<std::uint64_t>(header, 16, graph.num_vertices());
    put<std::uint64_t>(header, 24, graph.num_edges());
    put<std::uint64_t>(header, 32, graph.name.size());
    Checksum sum;
    sum.update(header.data(), header.size());
    out.write(header.data(), static_cast<std::streamsize>(header.size()));
    sum.update(graph.name.data(), graph.name.size());
    out.write(graph.name.data(), static_cast<std::streamsize>(graph.name.size()));
    write_array(out, sum, graph.offsets);
    write_array(out, sum, graph.targets);
    write_array(out, sum, graph.weights);
    const std::uint64_t checksum = sum.finish();
    out.write(reinterpret_cast<const char*>(&checksum), sizeof checksum);
  });
}

CsrGraph load_binary(const std::string& path) {
  std::error_code ec;
  const std::uint64_t file_size = fs::file_size(path, ec);
  if (ec) throw InputError("cannot open " + path + ": " + ec.message());
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("cannot open " + path + ": " + std::strerror(errno));
  const auto bad = [&](const std::string& what) { return InputError(path + ": " + what); };

  std::array<char, kHeaderBytes> header{};
  if (file_size < kHeaderBytes + sizeof(std::uint64_t)) {
    throw bad("file is " + std::to_string(file_size) + " bytes, too short for a binary CSR graph");
  }
  in.read(header.data(), static_cast<std::streamsize>(header.size()));
  if (!in) throw bad("cannot read the header");
  if (!std::equal(kMagic.begin(), kMagic.end(), header.begin())) {
    throw bad("not a binary CSR graph (bad magic; expected 'SSSPCSR1')");
  }
  const auto version = get<std::uint32_t>(header, 8);
  if (version != kBinaryVersion) {
    throw bad("format version " + std::to_string(version) + ", this build reads version " +
              std::to_string(kBinaryVersion));
  }
  if (get<std::uint32_t>(header, 12) != 0) throw bad("reserved header field is not 0");
  const auto num_vertices = get<std::uint64_t>(header, 16);
  const auto num_edges = get<std::uint64_t>(header, 24);
  const auto name_length = get<std::uint64_t>(header, 32);
  if (num_vertices > kMaxVertices || num_edges > kMaxEdges || name_length > file_size) {
    throw bad("header claims " + std::to_string(num_vertices) + " vertices, " +
              std::to_string(num_edges) + " arcs and a " + std::to_string(name_length) +
              "-byte name: impossible (limits " + std::to_string(kMaxVertices) + ", " +
              std::to_string(kMaxEdges) + ", file size)");
  }
  // After the checks above the name is at most the file's size and every other
  // term is below 2^36, so the sum cannot overflow.
  const std::uint64_t expected = kHeaderBytes + name_length + sizeof(edge_t) * (num_vertices + 1) +
                                 (sizeof(vertex_t) + sizeof(weight_t)) * num_edges +
                                 sizeof(std::uint64_t);
  if (expected != file_size) {
    throw bad("file is " + std::to_string(file_size) + " bytes but its header implies " +
              std::to_string(expected) + " (truncated or damaged)");
  }

  CsrGraph graph;
  Checksum sum;
  sum.update(header.data(), header.size());
  graph.name.resize(name_length);
  in.read(graph.name.data(), static_cast<std::streamsize>(name_length));
  sum.update(graph.name.data(), graph.name.size());
  read_array(in, sum, graph.offsets, num_vertices + 1);
  read_array(in, sum, graph.targets, num_edges);
  read_array(in, sum, graph.weights, num_edges);
  std::uint64_t stored = 0;
  in.read(reinterpret_cast<char*>(&stored), sizeof stored);
  if (!in) throw bad("read failed (file changed while loading?)");
  if (stored != sum.finish()) throw bad("checksum mismatch: the file is corrupt");
  try {
    graph.validate();
  } catch (const InputError& e) {
    throw bad(std::string("inconsistent graph: ") + e.what());
  }
  return graph;
}

CsrGraph load_graph_cached(const std::string& path, const ReadOptions& options,
                           const std::string& cache_dir) {
  if (cache_dir.empty()) return to_csr(read_graph(path, options));

  std::error_code ec;
  const auto check = [&](const std::string& what) {
    if (ec) throw InputError(what + ": " + ec.message());
  };
  const fs::path absolute = fs::absolute(path, ec);
  check("cannot open " + path);
  const std::uint64_t size = fs::file_size(path, ec);
  check("cannot open " + path);
  const auto mtime = fs::last_write_time(path, ec);
  check("cannot open " + path);
  // Everything that can change the resulting graph (or whether it is accepted)
  // is part of the key, so neither an edited file nor other options can
  // return a stale entry.
  const std::string key =
      "sssp-cache-v" + std::to_string(kBinaryVersion) + "\n" +
      absolute.lexically_normal().string() + "\n" + std::to_string(size) + "\n" +
      std::to_string(mtime.time_since_epoch().count()) + "\n" +
      std::to_string(static_cast<int>(options.format)) + "\n" + options.weights.to_string() + "\n" +
      std::to_string(options.snap_undirected) + "\n" + std::to_string(options.max_vertices) + "\n" +
      std::to_string(options.max_edges);
  fs::create_directories(cache_dir, ec);
  check("cannot create cache directory " + cache_dir);
  const std::string cached = (fs::path(cache_dir) / (fs::path(path).filename().string() + "." +
                                                     hex16(fnv1a(key)) + ".csr"))
                                 .string();
  if (fs::exists(cached, ec)) {
    try {
      return load_binary(cached);
    } catch (const InputError&) {
      // A damaged entry is only a cache miss: rebuild it from the source below.
    }
  }
  CsrGraph graph = to_csr(read_graph(path, options));
  save_binary(graph, cached);
  return graph;
}

GraphFormat parse_format(const std::string& name) {
  if (name == "auto") return GraphFormat::kAuto;
  if (name == "dimacs") return GraphFormat::kDimacs;
  if (name == "pace") return GraphFormat::kPace;
  if (name == "snap") return GraphFormat::kSnap;
  if (name == "mtx") return GraphFormat::kMatrixMarket;
  throw InputError("unknown graph format '" + name + "' (valid: auto, dimacs, pace, snap, mtx)");
}

}  // namespace sssp
