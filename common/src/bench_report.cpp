// The benchmark programs' tables, as Markdown and JSON (sssp/bench_report.hpp).
#include "sssp/bench_report.hpp"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <stdexcept>

#include "sssp/errors.hpp"
#include "sssp/json.hpp"

namespace sssp::bench {

Cell::Cell(double value, int decimals) : number_(std::isfinite(value)) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  text_ = text;
}

void Report::add_option(cli::Parser& parser) {
  parser.text("--json", "FILE", "also write the tables to FILE as JSON (what .ci/bench.py reads)", json_file_);
}

void Report::fact(const std::string& key, const std::string& value) { facts_.emplace_back(key, value); }

void Report::table(std::string title, std::vector<std::string> columns) {
  std::string header = "|";
  std::string separator = "|";
  for (const std::string& column : columns) {
    header += " " + column + " |";
    separator += "---|";
  }
  std::printf("%s\n%s\n", header.c_str(), separator.c_str());
  tables_.push_back({std::move(title), std::move(columns), {}});
}

void Report::row(std::vector<Cell> cells) {
  if (tables_.empty() || cells.size() != tables_.back().columns.size()) {
    throw std::logic_error("Report::row: no table started, or not one cell per column");
  }
  std::string line = "|";
  for (const Cell& cell : cells) line += " " + cell.text() + " |";
  std::printf("%s\n", line.c_str());
  tables_.back().rows.push_back(std::move(cells));
}

void Report::write() const {
  if (json_file_.empty()) return;
  std::string json = "{\"program\": " + json_string(program_) + ", \"facts\": {";
  for (std::size_t i = 0; i < facts_.size(); ++i) {
    json += (i == 0 ? "" : ", ") + json_string(facts_[i].first) + ": " + json_string(facts_[i].second);
  }
  json += "}, \"tables\": [";
  for (std::size_t t = 0; t < tables_.size(); ++t) {
    const Table& table = tables_[t];
    json += std::string(t == 0 ? "" : ", ") + "{\"title\": " + json_string(table.title) + ", \"columns\": [";
    for (std::size_t c = 0; c < table.columns.size(); ++c) json += (c == 0 ? "" : ", ") + json_string(table.columns[c]);
    json += "], \"rows\": [";
    for (std::size_t r = 0; r < table.rows.size(); ++r) {
      json += r == 0 ? "[" : ", [";
      for (std::size_t c = 0; c < table.rows[r].size(); ++c) {
        const Cell& cell = table.rows[r][c];
        json += (c == 0 ? "" : ", ") + (cell.is_number() ? cell.text() : json_string(cell.text()));
      }
      json += "]";
    }
    json += "]}";
  }
  json += "]}\n";
  std::ofstream out(json_file_, std::ios::binary);
  out << json;
  out.close();
  if (!out) throw InputError("--json: cannot write " + json_file_);
}

int Report::finish(bool all_correct, const std::string& what_differed) const {
  write();
  if (all_correct) return 0;
  std::printf("\nWRONG: %s\n", what_differed.c_str());
  return 1;
}

}  // namespace sssp::bench
