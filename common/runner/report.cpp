// What the runner prints (report.hpp).
#include "report.hpp"

#include <cstdio>
#include <iostream>

#include "sssp/cuda/device.hpp"
#include "sssp/json.hpp"

namespace sssp::runner {

namespace {

void print_counters_json(std::ostream& out, const Counters& c) {
  out << "{\"iterations\": " << c.iterations << ", \"vertices_processed\": " << c.vertices_processed
      << ", \"edges_relaxed\": " << c.edges_relaxed << ", \"distance_updates\": " << c.distance_updates
      << ", \"kernel_launches\": " << c.kernel_launches << ", \"host_syncs\": " << c.host_syncs << "}";
}

void report_json(const ReportContext& o, const CsrGraph& g, const std::vector<Measurement>& ms) {
  const auto& device = cuda::query_device();
  std::cout << "{\n  \"graph\": {\"name\": \"" << json_escape(g.name) << "\", \"vertices\": " << g.num_vertices()
            << ", \"arcs\": " << g.num_edges() << ", \"load_seconds\": " << o.load_s;
  if (!o.weights_warning.empty()) std::cout << ", \"weights_ignored\": \"" << json_escape(o.weights_warning) << '"';
  std::cout << "},\n"
            << "  \"device\": {\"available\": " << (device.available ? "true" : "false") << ", \"summary\": \""
            << json_escape(device.summary()) << "\", \"round_trip_us\": " << o.round_trip_us << "},\n  \"runs\": [";
  for (std::size_t i = 0; i < ms.size(); ++i) {
    const Measurement& m = ms[i];
    std::cout << (i ? "," : "") << "\n    {\"algorithm\": \"" << m.algorithm->name << "\", \"source\": " << m.source;
    if (!m.skipped.empty() || !m.error.empty()) {
      std::cout << (m.skipped.empty() ? ", \"error\": \"" : ", \"skipped\": \"")
                << json_escape(m.skipped.empty() ? m.error : m.skipped) << "\"}";
      continue;
    }
    std::cout << ", \"times_ms\": [";
    for (std::size_t t = 0; t < m.times_ms.size(); ++t) std::cout << (t ? ", " : "") << m.times_ms[t];
    std::cout << "], \"median_ms\": " << m.median_ms << ", \"mteps\": " << m.mteps
              << ", \"edges_traversed\": " << m.edges_traversed << ", \"counters\": ";
    print_counters_json(std::cout, m.counters);
    std::cout << ", \"counters_per_run\": [";
    for (std::size_t t = 0; t < m.counters_per_run.size(); ++t) {
      std::cout << (t ? ", " : "");
      print_counters_json(std::cout, m.counters_per_run[t]);
    }
    std::cout << "], \"peak_device_bytes\": " << m.peak_device_bytes
              << ", \"verified\": " << (m.checked ? (m.verified ? "true" : "false") : "null") << ", \"verdict\": \""
              << json_escape(m.verdict) << "\"}";
  }
  std::cout << "\n  ]\n}\n";
}

void report_csv(const CsrGraph& g, const std::vector<Measurement>& ms) {
  std::cout << "algorithm,source,median_ms,mteps,iterations,vertices_processed,edges_relaxed,"
               "distance_updates,kernel_launches,host_syncs,peak_device_bytes,verified,error,skipped,graph\n";
  for (const Measurement& m : ms) {
    const auto& c = m.counters;
    std::cout << csv_field(m.algorithm->name) << ',' << m.source << ',' << m.median_ms << ',' << m.mteps << ','
              << c.iterations << ',' << c.vertices_processed << ',' << c.edges_relaxed << ',' << c.distance_updates
              << ',' << c.kernel_launches << ',' << c.host_syncs << ',' << m.peak_device_bytes << ','
              << (m.checked ? (m.verified ? "yes" : "NO") : "skipped") << ',' << csv_field(m.error) << ','
              << csv_field(m.skipped) << ',' << csv_field(g.name) << '\n';
  }
}

void report_text(const ReportContext& o, const CsrGraph& g, const std::vector<Measurement>& ms) {
  const auto& device = cuda::query_device();
  std::printf("graph:  %s (loaded in %.2f s)\ndevice: %s\n", describe(g).c_str(), o.load_s, device.summary().c_str());
  if (o.round_trip_us >= 0) {
    std::printf("        host round trip (empty launch + 4-byte copy + sync): %.1f us\n", o.round_trip_us);
  }
  std::printf("\n");
  std::printf("%-26s %8s %11s %9s %10s %10s %11s %8s %6s %9s  %s\n", "algorithm", "source", "median ms", "MTEPS",
              "iterations", "vertices", "edges", "launches", "syncs", "peak MiB", "verified");
  for (const Measurement& m : ms) {
    if (!m.skipped.empty()) {
      std::printf("%-26s %8s  skipped: %s\n", m.algorithm->name.c_str(), "-", m.skipped.c_str());
      continue;
    }
    if (!m.error.empty()) {
      std::printf("%-26s %8u  FAILED: %s\n", m.algorithm->name.c_str(), m.source, m.error.c_str());
      continue;
    }
    const auto& c = m.counters;
    std::printf("%-26s %8u %11.3f %9.1f %10llu %10llu %11llu %8llu %6llu %9.1f  %s\n", m.algorithm->name.c_str(),
                m.source, m.median_ms, m.mteps, static_cast<unsigned long long>(c.iterations),
                static_cast<unsigned long long>(c.vertices_processed), static_cast<unsigned long long>(c.edges_relaxed),
                static_cast<unsigned long long>(c.kernel_launches), static_cast<unsigned long long>(c.host_syncs),
                static_cast<double>(m.peak_device_bytes) / 1048576.0,
                m.checked ? (m.verified ? "yes" : ("NO: " + m.verdict).c_str()) : "not checked");
  }
  std::printf("\nmedian of %u repetitions after %u warm-up; MTEPS counts the arcs leaving reached vertices\n", o.reps,
              o.warmup);
}

// One line per vertex, 0 first: its value, or INF where it is `unreached`.
template <typename Value>
void write_values(std::ostream& out, const std::vector<Value>& values, Value unreached) {
  for (const Value v : values) {
    if (v == unreached) {
      out << "INF\n";
    } else {
      out << v << '\n';
    }
  }
}

}  // namespace

void report(const ReportContext& context, const CsrGraph& graph, const std::vector<Measurement>& runs) {
  if (context.format == "json") {
    report_json(context, graph, runs);
  } else if (context.format == "csv") {
    report_csv(graph, runs);
  } else {
    report_text(context, graph, runs);
  }
}

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (const char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + '"';
}

void write_answer(std::ostream& out, const RunOutput& answer, bool bfs) {
  if (bfs) {
    write_values(out, answer.levels, kUnreached);
  } else {
    write_values(out, answer.dist, kInfinity);
  }
}

}  // namespace sssp::runner
