// Reading graph text: format detection and dispatch to the parsers.
#include "sssp/io.hpp"

#include <filesystem>
#include <string>
#include <string_view>

#include "io_fields.hpp"
#include "io_file.hpp"
#include "io_formats.hpp"
#include "sssp/errors.hpp"

namespace sssp {

namespace io_detail {

namespace {

// True when `name`, without a ".gz" suffix, ends in `extension`.
bool has_extension(std::string_view name, std::string_view extension) {
  if (name.ends_with(".gz")) name.remove_suffix(3);
  return name.ends_with(extension);
}

// The format a first meaningful line implies: a `p` header, a Matrix Market
// banner, or else SNAP, whose parser then names what is wrong. A name ending
// in .gr or .mtx, or earlier `c` comments, demand their format's header.
GraphFormat classify(const LineReader& in, std::string_view line, bool after_c_comments) {
  Fields fields(line);
  const std::string_view tag = *fields.next();
  if (tag == "p") {
    const std::string_view problem = fields.next().value_or("");
    if (problem == "sp") return GraphFormat::kDimacs;
    if (problem == "tw") return GraphFormat::kPace;
    in.fail("unknown problem type " + quote(problem) + " (expected 'p sp' or 'p tw')");
  }
  if (tag == "P") {
    in.fail("header line type 'P' must be lowercase: 'p sp N M' (DIMACS) or 'p tw N M' (PACE)");
  }
  // A headerless `a` line is still DIMACS: its parser then names the missing header.
  if (tag == "a") return GraphFormat::kDimacs;
  if (after_c_comments) {
    in.fail(
        "expected a 'p sp' or 'p tw' header: the lines starting with 'c' before it are "
        "DIMACS/PACE comments");
  }
  // Without this check a PACE file that lost its header would read as a
  // directed SNAP list: a valid graph with half of its arcs.
  if (has_extension(in.name(), ".gr")) {
    in.fail(
        "missing 'p sp' or 'p tw' header (a .gr file is DIMACS or PACE; give the format "
        "explicitly to read it as another)");
  }
  if (line.front() == '%') return GraphFormat::kMatrixMarket;
  if (has_extension(in.name(), ".mtx")) {
    in.fail("missing '%%MatrixMarket' banner (a .mtx file is Matrix Market)");
  }
  return GraphFormat::kSnap;
}

// Decides from the first line that is neither blank nor a DIMACS-style `c`
// comment, and leaves that line unread for the parser: nothing is read twice,
// so pipes work, and what precedes it is bounded like any non-data bytes.
GraphFormat detect_format(LineReader& in) {
  bool after_c_comments = false;
  std::string_view line;
  while (in.next(line)) {
    line = trim_leading(line);
    if (line.empty()) continue;
    if (line.front() == 'c') {
      after_c_comments = true;
      continue;
    }
    const GraphFormat format = classify(in, line, after_c_comments);
    in.unread();
    return format;
  }
  throw InputError(in.name() + ": empty file: no graph data (only blank or comment lines)");
}

}  // namespace

EdgeList parse_source(ByteSource& source, const std::string& name_in_messages, const std::string& graph_name,
                      const ReadOptions& options) {
  LineReader in(source, name_in_messages);
  const GraphFormat format = options.format == GraphFormat::kAuto ? detect_format(in) : options.format;
  EdgeList graph;
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

}  // namespace io_detail

EdgeList read_graph(const std::string& path, const ReadOptions& options) {
  io_detail::FileSource source(path, options.max_inflation);
  return io_detail::parse_source(source, path, std::filesystem::path(path).filename().string(), options);
}

EdgeList parse_graph(const std::string& text, const std::string& name, const ReadOptions& options) {
  io_detail::StringSource source(text);
  return io_detail::parse_source(source, name, name, options);
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
