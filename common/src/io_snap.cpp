// SNAP edge lists: `#` comments, then `u v` per line with arbitrary 64-bit ids.
#include <unordered_map>

#include "io_fields.hpp"
#include "io_formats.hpp"
#include "sssp/errors.hpp"

namespace sssp::io_detail {

EdgeList parse_snap(LineReader& in, const ReadOptions& options) {
  Builder out(in, options);
  const std::uint64_t max_vertices = out.max_vertices();
  // Ids are arbitrary 64-bit labels; numbering them by first appearance makes
  // the result independent of hashing and identical on every run.
  std::unordered_map<std::uint64_t, vertex_t> ids;
  const auto vertex_of = [&](std::string_view field) {
    const std::uint64_t label = parse_u64(in, field, "vertex id");
    const auto [it, added] = ids.try_emplace(label, static_cast<vertex_t>(ids.size()));
    if (added && ids.size() > max_vertices) {
      in.fail("more than " + std::to_string(max_vertices) + " distinct vertex ids (ReadOptions::max_vertices)");
    }
    return it->second;
  };
  std::string_view line;
  while (next_content_line(in, '#', line)) {
    Fields fields(line);
    const vertex_t u = vertex_of(fields.require(in, "source vertex id"));
    const vertex_t v = vertex_of(fields.require(in, "target vertex id"));
    fields.expect_end(in);
    const weight_t w = options.weights.weight_of(in.data_lines());
    out.add(u, v, w);
    if (options.snap_undirected) out.add(v, u, w);
    in.count_data_line();
  }
  if (in.data_lines() == 0) {
    throw InputError(in.name() + ": no edges (the file is empty or only comments)");
  }
  return out.finish(ids.size());
}

}  // namespace sssp::io_detail
