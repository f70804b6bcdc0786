// Private to the readers: one parser per text format, and the dispatch that
// reads any byte source with them.
#pragma once

#include <string>

#include "io_lines.hpp"
#include "sssp/graph.hpp"
#include "sssp/io.hpp"

namespace sssp::io_detail {

// 9th DIMACS (`p sp`, `a u v w`) or, with `pace`, PACE 2016 (`p tw`, `u v`).
[[nodiscard]] EdgeList parse_dimacs_like(LineReader& in, const ReadOptions& options, bool pace);
[[nodiscard]] EdgeList parse_matrix_market(LineReader& in, const ReadOptions& options);
[[nodiscard]] EdgeList parse_snap(LineReader& in, const ReadOptions& options);

// Reads `source` in options.format (detected when kAuto), naming it
// `name_in_messages` in errors; the result is called `graph_name`.
[[nodiscard]] EdgeList parse_source(ByteSource& source, const std::string& name_in_messages,
                                    const std::string& graph_name, const ReadOptions& options);

}  // namespace sssp::io_detail
