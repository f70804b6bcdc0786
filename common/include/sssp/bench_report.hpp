/// @file
/// @brief The output of the labs' benchmark programs: Markdown tables on
/// standard output as the rows come, and, with `--json FILE`, the same tables
/// as JSON for .ci/bench.py (which then never parses Markdown back).
#pragma once

#include <concepts>
#include <string>
#include <utility>
#include <vector>

#include "sssp/cli.hpp"

namespace sssp::bench {

/// A table cell: text, or a number shown with a fixed number of decimals.
/// In JSON a number stays a number; text ("refused", "~1.8") stays text.
class Cell {
 public:
  /// A text cell. Implicit, as are the next two: a row is a braced list of cells.
  Cell(std::string text) : text_(std::move(text)) {}  // NOLINT
  /// A text cell.
  Cell(const char* text) : text_(text) {}  // NOLINT
  /// An integer, a number in JSON.
  template <std::integral Integer>
  Cell(Integer value) : text_(std::to_string(value)), number_(true) {}  // NOLINT
  /// `value` with `decimals` digits after the point.
  Cell(double value, int decimals);

  /// The cell as printed in the Markdown table.
  [[nodiscard]] const std::string& text() const { return text_; }
  /// Whether JSON writes it as a number rather than a string.
  [[nodiscard]] bool is_number() const { return number_; }

 private:
  std::string text_;
  bool number_ = false;
};

/// A benchmark program's tables. JSON:
/// `{"program": P, "facts": {K: V, ...}, "tables": [{"title": T, "columns": [...], "rows": [[...], ...]}, ...]}`.
class Report {
 public:
  /// The tables of the program named `program` ("spmv-bench"), empty so far.
  explicit Report(std::string program) : program_(std::move(program)) {}

  /// Declares `--json FILE` on `parser`.
  void add_option(cli::Parser& parser);

  /// Records a fact about the run for the JSON ("graph", "trace"); prints nothing.
  void fact(const std::string& key, const std::string& value);

  /// Starts a table: prints its header row and separator. `title` names it in JSON.
  void table(std::string title, std::vector<std::string> columns);

  /// Prints a row of the current table and keeps it; as many cells as columns.
  void row(std::vector<Cell> cells);

  /// Writes the JSON file when `--json` was given. Throws InputError when it cannot.
  void write() const;

  /// The end of a benchmark program: write(), then its exit status: 0 when
  /// `all_correct`, else 1 after printing "WRONG: " and `what_differed`.
  [[nodiscard]] int finish(bool all_correct, const std::string& what_differed) const;

 private:
  struct Table {
    std::string title;
    std::vector<std::string> columns;
    std::vector<std::vector<Cell>> rows;
  };
  std::string program_;
  std::string json_file_;
  std::vector<std::pair<std::string, std::string>> facts_;
  std::vector<Table> tables_;
};

}  // namespace sssp::bench
