// 9th DIMACS shortest-path files and PACE 2016 road topologies: reading both,
// writing DIMACS.
#include <algorithm>
#include <array>
#include <charconv>

#include "io_fields.hpp"
#include "io_formats.hpp"
#include "sssp/errors.hpp"
#include "sssp/output_file.hpp"

namespace sssp {

namespace io_detail {

// The two share their layout: `c` comments, one `p <kind> N M` header, then
// one line per arc (DIMACS) or per undirected edge (PACE).
EdgeList parse_dimacs_like(LineReader& in, const ReadOptions& options, bool pace) {
  const std::string_view kind = pace ? "tw" : "sp";
  const std::string header_name = std::string("'p ") + std::string(kind) + "' header";
  const std::string items = pace ? "edges" : "arcs";
  Builder out(in, options);
  Declared header;
  std::string_view line;
  while (next_content_line(in, 'c', line)) {
    Fields fields(line);
    const std::string_view tag = *fields.next();
    if (tag == "p") {
      if (header.line != 0) {
        in.fail("second header line (the first is line " + std::to_string(header.line) + ")");
      }
      const std::string_view problem = fields.require(in, "problem type");
      if (problem != kind) {
        in.fail("expected 'p " + std::string(kind) + "', got problem type " + quote(problem));
      }
      header.vertices = parse_u64(in, fields.require(in, "vertex count"), "vertex count");
      header.items = parse_u64(in, fields.require(in, "edge count"), "edge count");
      fields.expect_end(in);
      header.line = in.line_number();
      out.check_vertices(header.vertices);
      const std::uint64_t m = header.items;
      // A PACE edge becomes two arcs; after the first check m <= 2^32, so 2m cannot overflow.
      out.check_arcs(m, std::to_string(m) + " " + items);
      if (pace) out.check_arcs(2 * m, std::to_string(m) + " edges (" + std::to_string(2 * m) + " arcs)");
      out.reserve(pace ? 2 * m : m);
      continue;
    }
    if (tag == "P" || tag == "A" || tag == "C") {
      in.fail("line type " + quote(tag) + " must be lowercase (DIMACS line types are c, p and a)");
    }
    if (!pace && tag != "a") in.fail("unknown line type " + quote(tag) + " (expected c, p or a)");
    if (header.line == 0) {
      in.fail(std::string(pace ? "edge" : "arc") + " line before the " + header_name);
    }
    const std::uint64_t count = in.data_lines();
    if (count == header.items) fail_too_many(in, "header", header.items, items);
    if (pace) {
      const vertex_t u = parse_one_based(in, tag, header.vertices);
      const vertex_t v = parse_one_based(in, fields.require(in, "second vertex id"), header.vertices);
      fields.expect_end(in);
      const weight_t w = options.weights.weight_of(count);
      out.add(u, v, w);
      out.add(v, u, w);
    } else {
      const vertex_t u = parse_one_based(in, fields.require(in, "tail vertex id"), header.vertices);
      const vertex_t v = parse_one_based(in, fields.require(in, "head vertex id"), header.vertices);
      const weight_t w = parse_weight(in, fields.require(in, "weight"));
      fields.expect_end(in);
      out.add(u, v, w);
    }
    in.count_data_line();
  }
  if (header.line == 0) {
    throw InputError(in.name() + ": no " + header_name + " (the file is empty or only comments)");
  }
  check_count(in, "header", header.items, in.data_lines(), items);
  return out.finish_declared(header);
}

}  // namespace io_detail

namespace {

constexpr std::size_t kWriteChunk = std::size_t{1} << 20;

void append_number(std::string& out, std::uint64_t value) {
  std::array<char, 20> digits{};  // 2^64 - 1 has 20 digits
  out.append(digits.data(), std::to_chars(digits.data(), digits.data() + digits.size(), value).ptr);
}

}  // namespace

void write_dimacs(const CsrGraph& graph, const std::string& path) {
  write_atomically(path, [&](std::ostream& out) { write_dimacs(graph, out); });
}

void write_dimacs(const CsrGraph& graph, std::ostream& out) {
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
}

}  // namespace sssp
