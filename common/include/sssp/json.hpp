/// @file
/// @brief JSON strings, escaped one way for every JSON the course writes: the
/// runner's report (`sssp --output json`) and the benchmark programs' tables
/// (`--json`, sssp/bench_report.hpp).
#pragma once

#include <string>

namespace sssp {

/// `text` escaped for the inside of a JSON string: a double quote and a
/// backslash behind a backslash, a line feed as `\n`, every other control
/// character (below 0x20) as `\u00XX`; every other byte as it is, so UTF-8
/// text stays readable.
[[nodiscard]] std::string json_escape(const std::string& text);

/// `text` as a JSON string: json_escape(text) in double quotes.
[[nodiscard]] std::string json_string(const std::string& text);

}  // namespace sssp
