/// @file
/// @brief What the runner prints: its report of the runs as a text table,
/// JSON or CSV (`--output`), and the answer file of `--write-distances`.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "measure.hpp"
#include "registry.hpp"
#include "sssp/graph.hpp"

namespace sssp::runner {

/// What the report says beside its rows.
struct ReportContext {
  std::string format = "text";  ///< text, json or csv
  unsigned warmup = 0;          ///< untimed runs before the timed ones
  unsigned reps = 0;            ///< timed runs per source
  std::string weights_warning;  ///< why --weights was ignored, or empty
  double load_s = 0;            ///< seconds to read or generate the graph
  double round_trip_us = -1;    ///< one host-driven iteration on the GPU; negative: not measured
};

/// Prints the report of `runs` on `graph` to standard output in
/// `context.format`: a text table, one JSON object, or CSV with a header
/// line (fields quoted as RFC 4180 asks).
void report(const ReportContext& context, const CsrGraph& graph, const std::vector<Measurement>& runs);

/// `text` as one CSV field (RFC 4180): in double quotes, its own doubled,
/// when it holds a comma, a quote or a line break; as it is otherwise.
[[nodiscard]] std::string csv_field(const std::string& text);

/// Writes `answer` as `--write-distances` does: one line per vertex, 0 first,
/// its distance (`bfs`: its level), or INF where unreached.
void write_answer(std::ostream& out, const RunOutput& answer, bool bfs);

}  // namespace sssp::runner
