// sssp: run any lab's algorithms on a graph file or a generated graph, time
// them, count their work and verify every answer.
//
//   sssp --list
//   sssp                                   all algorithms on the built-in grid
//   sssp --algo lab01/dijkstra --graph USA-road-NY.pace.gr.gz --weights 1:1000:1
//   sssp --gen rmat:18 --random-sources 4 --reps 5 --output json
//   sssp --algo lab04/ --block-size 512 --rounds-per-check 4
//   sssp --algo lab08/ --delta 100 --graph USA-road-NY.pace.gr.gz
//
// Exit status: 0 when every run was verified correct, 1 when an answer was
// wrong, an algorithm failed or none ran, 2 on bad arguments or input.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <limits>
#include <map>
#include <new>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "registry.hpp"
#include "sssp/bench_args.hpp"
#include "sssp/cli.hpp"
#include "sssp/cuda/device.hpp"
#include "sssp/errors.hpp"
#include "sssp/generators.hpp"
#include "sssp/io.hpp"
#include "sssp/verify.hpp"

namespace {

using sssp::runner::Algorithm;
using sssp::runner::RunOutput;
using sssp::runner::Tuning;

constexpr const char* kDefaultGenerator = "grid:256x256";
constexpr const char* kDefaultWeights = "1:1000:1";
constexpr std::uint64_t kMaxRepetitions = 100000;
// The dense-matrix algorithms (Algorithm::dense_matrix) run in the default set only up to this
// many vertices: lab05/cpu-naive does |V| - 1 rounds over the whole matrix,
// |V|^3 relaxations, 10^9 here (about a second), but 4 * 10^10 on rome99's
// 3353 vertices (minutes). --algo still runs them on any graph they take.
constexpr sssp::vertex_t kDenseDefaultMaxVertices = 1000;

struct Options {
  std::string graph_file;
  std::string generator;
  sssp::ReadOptions read;
  std::string weights = kDefaultWeights;
  std::uint64_t seed = 1;
  std::string cache_dir;
  bool weights_given = false;
  std::vector<std::string> algos;
  Tuning tuning;
  std::vector<std::uint64_t> sources;
  std::uint64_t random_sources = 0;
  unsigned reps = 3;
  unsigned warmup = 1;
  std::string output = "text";
  bool verify = true;
  std::string write_distances;
  std::string write_graph;
  bool progress = isatty(STDERR_FILENO) != 0;
  bool list = false;
};

// Nothing when --help was given (the usage is printed).
std::optional<Options> parse_args(int argc, char** argv) {
  Options o;
  using sssp::cli::Repeat;
  sssp::cli::Parser p("sssp [options]",
                      "Runs shortest-path and BFS algorithms of the labs, times them and verifies\n"
                      "every answer with a certificate check (no reference needed).");
  p.section(std::string("graph (default: the built-in ") + kDefaultGenerator + " with weights " + kDefaultWeights +
            "):");
  p.text("--graph", "FILE", "DIMACS .gr, PACE .gr, SNAP edge list or .mtx; .gz is fine", o.graph_file);
  p.option("--format", "NAME", "auto (default), dimacs, pace, snap, mtx",
           [&](const std::string& v) { o.read.format = sssp::parse_format(v); });
  p.flag("--undirected", "SNAP input: each line is an undirected edge", [&] { o.read.snap_undirected = true; });
  p.text("--gen", "SPEC", "generate: grid:RxC random:N:M rmat:SCALE[:EF] chain:N star:N complete:N", o.generator);
  p.option("--weights", "POLICY",
           std::string("weights for unweighted input: unit, LO:HI or LO:HI:SEED (default ") + kDefaultWeights +
               ");\na file with its own weights keeps them: a warning, and in JSON\n"
               "\"weights_ignored\" (not checked for a pipe)",
           [&](const std::string& v) {
             o.weights = v;
             o.weights_given = true;
           });
  p.count("--seed", "N", "generator seed (default 1)", o.seed, 0, std::numeric_limits<std::uint64_t>::max());
  p.text("--cache", "DIR", "keep a binary copy of parsed files in DIR (fast reloads)", o.cache_dir);
  p.count("--max-inflation", "X",
          "refuse gzip input inflating more than X times (default " + std::to_string(sssp::kDefaultMaxInflation) +
              "; graph\ntext inflates 3 to 10 times); 0: no bound",
          o.read.max_inflation, 0, std::numeric_limits<std::uint64_t>::max());
  p.excludes("--graph", "--gen");
  p.section("algorithms and sources:");
  p.option(
      "--algo", "NAME",
      "an algorithm from --list, or a prefix like lab01/ (repeatable; default\n"
      "all, but the dense-matrix ones only up to 1000 vertices)",
      [&](const std::string& v) { o.algos.push_back(v); }, Repeat::kMany);
  p.option(
      "--source", "N", "source vertex, 0-based (repeatable; default 0)",
      [&](const std::string& v) {
        o.sources.push_back(sssp::cli::parse_count("--source", v, 0, std::numeric_limits<std::uint64_t>::max()));
      },
      Repeat::kMany);
  p.count("--random-sources", "K", "K >= 1 distinct sources with out-degree > 0, drawn from --seed", o.random_sources,
          1, std::numeric_limits<std::uint64_t>::max());
  p.count("--reps", "R", "timed repetitions per source (default 3)", o.reps, 1, kMaxRepetitions);
  p.count("--warmup", "W", "untimed runs first (default 1)", o.warmup, 0, kMaxRepetitions);
  p.section("launch parameters (default: each lab's; an error for a chosen algorithm without it):");
  for (const auto& [option, labs] : sssp::runner::registry().options()) {
    // Each chosen algorithm's lab checks the value once they are chosen.
    std::string help = option.help + " (";
    for (const std::string& lab : labs) help += (&lab == &labs.front() ? "" : ", ") + lab;
    p.option(option.flag, option.metavar, help + ")", [&o, option](const std::string& v) {
      o.tuning.set(option.flag, sssp::cli::parse_count(option.flag, v, option.min, option.max));
    });
  }
  p.section("output:");
  p.option("--output", "FORMAT", "text (default), json or csv", [&](const std::string& v) {
    if (v != "text" && v != "json" && v != "csv") {
      throw sssp::InputError("--output must be text, json or csv, got '" + v + "'");
    }
    o.output = v;
  });
  p.flag("--no-verify", "skip the certificate check", [&] { o.verify = false; });
  p.text("--write-distances", "FILE",
         "the answer of the first run: the first algorithm of --list order\n"
         "that ran, from the first source, its last repetition; one line per\n"
         "vertex 0, 1, ...: its distance (a BFS: its level) or INF",
         o.write_distances);
  p.text("--write-graph", "FILE",
         "the graph as the runs used it (weights included) as DIMACS 'p sp',\n"
         "vertex v as v + 1\n"
         "Both are written only when every run succeeded (exit status 0): a\n"
         "regular file is replaced whole, a device, pipe or symlink's target\n"
         "written in place; neither may be --graph or the other output",
         o.write_graph);
  p.flag("--progress", "report each repetition on stderr (default when stderr is a terminal)",
         [&] { o.progress = true; });
  p.flag("--list", "list the algorithms and exit", [&] { o.list = true; });
  if (!p.parse(argc, argv, std::cout)) return std::nullopt;
  o.read.weights = sssp::WeightPolicy::parse(o.weights);
  return o;
}

std::vector<const Algorithm*> select_algorithms(const std::vector<std::string>& wanted) {
  std::vector<const Algorithm*> chosen;
  for (const Algorithm& a : sssp::runner::registry().algorithms()) {
    const bool match = wanted.empty() || std::any_of(wanted.begin(), wanted.end(), [&](const std::string& w) {
                         return a.name == w || (w.ends_with('/') && a.name.starts_with(w));
                       });
    if (match) chosen.push_back(&a);
  }
  for (const std::string& w : wanted) {
    const bool known = std::any_of(chosen.begin(), chosen.end(), [&](const Algorithm* a) {
      return a->name == w || (w.ends_with('/') && a->name.starts_with(w));
    });
    if (!known) throw sssp::InputError("unknown algorithm '" + w + "' (see --list)");
  }
  return chosen;
}

bool takes(const Algorithm& a, const std::string& flag) {
  return std::find(a.options.begin(), a.options.end(), flag) != a.options.end();
}

// Every launch option given must be one of every chosen algorithm's, with
// values its lab's own check takes: never silently ignored.
void check_tuning(const Tuning& tuning, const std::vector<const Algorithm*>& chosen) {
  for (const auto& [flag, value] : tuning.values()) {
    for (const Algorithm* a : chosen) {
      if (!takes(*a, flag)) {
        throw sssp::InputError(a->name + " has no " + flag +
                               " (choose algorithms that have it with --algo; --list shows them)");
      }
    }
  }
  if (tuning.values().empty()) return;
  std::string given;
  for (const auto& [flag, value] : tuning.values()) {
    given += (given.empty() ? "" : " ") + flag + " " + std::to_string(value);
  }
  for (const Algorithm* a : chosen) {
    try {
      a->check(tuning);
    } catch (const sssp::InputError& e) {
      throw sssp::InputError(a->name + " refuses " + given + ": " + e.what());
    }
  }
}

// The launch options --list shows for an algorithm.
std::string tuning_flags(const Algorithm& a) {
  std::string flags;
  for (const std::string& flag : a.options) flags += " " + flag;
  return flags;
}

// `count` distinct vertices with out-arcs (like Graph500 and gapbs: runs from
// the others are trivial). Draws uniformly from all vertices and keeps those
// with out-arcs, the sources of earlier releases and of the handouts' runs;
// when such vertices are rare that could take very long, so after 64 draws per
// source the rest are drawn from the list of candidates instead.
std::vector<sssp::vertex_t> draw_sources(const sssp::CsrGraph& g, std::uint64_t count, std::uint64_t seed) {
  std::vector<sssp::vertex_t> candidates;
  for (sssp::vertex_t v = 0; v < g.num_vertices(); ++v) {
    if (g.out_degree(v) > 0) candidates.push_back(v);
  }
  if (candidates.size() < count) {
    throw sssp::InputError("--random-sources " + std::to_string(count) + " needs as many vertices with out-arcs, but " +
                           g.name + " has " +
                           (candidates.empty() ? "none" : "only " + std::to_string(candidates.size())));
  }
  std::vector<sssp::vertex_t> sources;
  std::vector<bool> taken(g.num_vertices());
  std::uint64_t state = seed;
  for (std::uint64_t draws = 0; sources.size() < count && draws < 64 * count; ++draws) {
    state = sssp::splitmix64(state);
    const auto v = static_cast<sssp::vertex_t>(state % g.num_vertices());
    if (g.out_degree(v) > 0 && !taken[v]) {
      taken[v] = true;
      sources.push_back(v);
    }
  }
  std::erase_if(candidates, [&](sssp::vertex_t v) { return taken[v]; });
  for (std::size_t i = 0; sources.size() < count; ++i) {  // a partial Fisher-Yates shuffle
    state = sssp::splitmix64(state);
    std::swap(candidates[i], candidates[i + state % (candidates.size() - i)]);
    sources.push_back(candidates[i]);
  }
  return sources;
}

std::vector<sssp::vertex_t> choose_sources(const Options& o, const sssp::CsrGraph& g) {
  std::vector<sssp::vertex_t> sources;
  for (const std::uint64_t s : o.sources) {
    sssp::require_valid_source(g, s);
    sources.push_back(static_cast<sssp::vertex_t>(s));
  }
  if (o.random_sources > 0) {
    const auto drawn = draw_sources(g, o.random_sources, o.seed);
    sources.insert(sources.end(), drawn.begin(), drawn.end());
  }
  if (sources.empty()) {
    sssp::require_valid_source(g, 0);
    sources.push_back(0);
  }
  return sources;
}

struct Measurement {
  const Algorithm* algorithm = nullptr;
  sssp::vertex_t source = 0;
  std::vector<double> times_ms;
  std::vector<sssp::Counters> counters_per_run;  // one per timed run: runs of an asynchronous solver differ
  double median_ms = 0;
  double mteps = 0;
  std::uint64_t edges_traversed = 0;
  sssp::Counters counters;
  std::size_t peak_device_bytes = 0;
  bool verified = false;
  bool checked = false;
  std::string verdict;
  std::string error;    // the run failed
  std::string skipped;  // why the algorithm did not run (no GPU, a graph it does not take)
};

// Arcs leaving reached vertices: the edges the run had to look at.
template <typename Value>
std::uint64_t reached_arcs(const sssp::CsrGraph& g, const std::vector<Value>& value, Value unreached) {
  std::uint64_t arcs = 0;
  for (sssp::vertex_t v = 0; v < g.num_vertices() && v < value.size(); ++v) {
    if (value[v] != unreached) arcs += g.out_degree(v);
  }
  return arcs;
}

// Times `run` from `source`; `answer`, if not null, receives the output of
// the last repetition.
Measurement measure(const Algorithm& a, const sssp::runner::PreparedRun& run, const sssp::CsrGraph& g,
                    sssp::vertex_t source, const Options& o, RunOutput* answer) {
  Measurement m;
  m.algorithm = &a;
  m.source = source;
  sssp::cuda::reset_peak_memory();
  RunOutput out;
  for (unsigned i = 0; i < o.warmup + o.reps; ++i) {
    const auto start = std::chrono::steady_clock::now();
    out = run(source);
    const auto stop = std::chrono::steady_clock::now();
    const double host_ms = std::chrono::duration<double, std::milli>(stop - start).count();
    const double ms = out.device_ms >= 0 ? out.device_ms : host_ms;
    if (i >= o.warmup) {
      m.times_ms.push_back(ms);
      m.counters_per_run.push_back(out.counters);
    }
    if (o.progress) {
      std::fprintf(stderr, "  %s source %u: %s %u/%u: %.3f ms\n", a.name.c_str(), source,
                   i < o.warmup ? "warm-up" : "rep", i < o.warmup ? i + 1 : i - o.warmup + 1,
                   i < o.warmup ? o.warmup : o.reps, ms);
    }
  }
  m.counters = out.counters;
  m.median_ms = sssp::bench::median(m.times_ms);
  m.peak_device_bytes = sssp::cuda::memory_stats().peak_bytes;
  m.edges_traversed =
      a.bfs ? reached_arcs(g, out.levels, sssp::kUnreached) : reached_arcs(g, out.dist, sssp::kInfinity);
  m.mteps = m.median_ms > 0 ? static_cast<double>(m.edges_traversed) / (m.median_ms * 1e3) : 0.0;
  if (o.verify) {
    const sssp::Verdict v = a.bfs ? sssp::verify_bfs(g, source, out.levels) : sssp::verify_sssp(g, source, out.dist);
    m.checked = true;
    m.verified = v.ok;
    m.verdict = v.ok ? "correct" : v.message;
  }
  if (answer != nullptr) *answer = std::move(out);
  return m;
}

std::string json_escape(const std::string& s) {
  std::string out;
  for (const char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += c;
        }
    }
  }
  return out;
}

// `text` as one CSV field (RFC 4180): in double quotes, its own doubled,
// when it holds a comma, a quote or a line break; as it is otherwise.
std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (const char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + '"';
}

void print_counters_json(std::ostream& out, const sssp::Counters& c) {
  out << "{\"iterations\": " << c.iterations << ", \"vertices_processed\": " << c.vertices_processed
      << ", \"edges_relaxed\": " << c.edges_relaxed << ", \"distance_updates\": " << c.distance_updates
      << ", \"kernel_launches\": " << c.kernel_launches << ", \"host_syncs\": " << c.host_syncs << "}";
}

void report(const Options& o, const sssp::CsrGraph& g, const std::string& weights_warning, double load_s,
            double round_trip_us, const std::vector<Measurement>& ms) {
  const auto& device = sssp::cuda::query_device();
  if (o.output == "json") {
    std::cout << "{\n  \"graph\": {\"name\": \"" << json_escape(g.name) << "\", \"vertices\": " << g.num_vertices()
              << ", \"arcs\": " << g.num_edges() << ", \"load_seconds\": " << load_s;
    if (!weights_warning.empty()) std::cout << ", \"weights_ignored\": \"" << json_escape(weights_warning) << '"';
    std::cout << "},\n"
              << "  \"device\": {\"available\": " << (device.available ? "true" : "false") << ", \"summary\": \""
              << json_escape(device.summary()) << "\", \"round_trip_us\": " << round_trip_us << "},\n  \"runs\": [";
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
    return;
  }
  if (o.output == "csv") {
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
    return;
  }
  std::printf("graph:  %s (loaded in %.2f s)\ndevice: %s\n", sssp::describe(g).c_str(), load_s,
              device.summary().c_str());
  if (round_trip_us >= 0) {
    std::printf("        host round trip (empty launch + 4-byte copy + sync): %.1f us\n", round_trip_us);
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

// A weighted input keeps its own weights whatever --weights says: returns a
// warning when it was given for one. Read again with every weight set to c, a
// value the graph's first arc does not have, the file comes out unchanged
// only if it has its own weights. A pipe cannot be read twice: not checked.
// The second read goes through --cache like the first: with a cache, a
// second run parses the file for neither.
std::string ignored_weights(const Options& o, const sssp::CsrGraph& graph) {
  if (!o.weights_given || o.graph_file.empty() || graph.num_edges() == 0 ||
      !std::filesystem::is_regular_file(o.graph_file)) {
    return {};
  }
  sssp::ReadOptions probe = o.read;
  const sssp::weight_t c = graph.weights[0] + 1;  // wraps to 0 at the largest weight, still different
  probe.weights = sssp::WeightPolicy::uniform(c, c, 1);
  if (sssp::load_graph_cached(o.graph_file, probe, o.cache_dir).weights != graph.weights) return {};
  return "--weights " + o.weights + " ignored: " + o.graph_file + " has weights of its own, which the runs use";
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

// A file the runner writes once the runs succeeded.
struct OutputFile {
  std::string option;  // --write-graph or --write-distances
  std::string path;
};

std::vector<OutputFile> output_files(const Options& o) {
  std::vector<OutputFile> outputs;
  if (!o.write_graph.empty()) outputs.push_back({"--write-graph", o.write_graph});
  if (!o.write_distances.empty()) outputs.push_back({"--write-distances", o.write_distances});
  return outputs;
}

// stat() of `path`, through symlinks; nothing when there is no such file.
std::optional<struct stat> status_of(const std::string& path) {
  struct stat status {};
  if (stat(path.c_str(), &status) != 0) return std::nullopt;
  return status;
}

bool same_inode(const struct stat& a, const struct stat& b) { return a.st_dev == b.st_dev && a.st_ino == b.st_ino; }

// True when writing `output` would destroy the file at `other`: one regular
// file (through symlinks and hard links), or one path that does not exist yet.
// Devices and pipes hold no data to destroy, and /dev/stdin and /dev/stdout
// are often one terminal: those are never refused.
bool is_same_file(const std::string& output, const std::string& other) {
  const auto output_status = status_of(output);
  const auto other_status = status_of(other);
  if (output_status && other_status) {
    return S_ISREG(output_status->st_mode) && same_inode(*output_status, *other_status);
  }
  if (output_status || other_status) return false;
  // The path with its existing part resolved; empty when that fails.
  const auto resolved = [](const std::string& path) {
    std::error_code error;
    const auto result = std::filesystem::weakly_canonical(std::filesystem::absolute(path, error), error);
    return error ? std::filesystem::path() : result;
  };
  const auto output_path = resolved(output);
  return !output_path.empty() && output_path == resolved(other);
}

// Fails when `out` cannot be written the way write_output() writes it: now,
// not after minutes of runs.
void require_writable(const OutputFile& out) {
  struct stat link {};
  if (lstat(out.path.c_str(), &link) == 0 && !S_ISREG(link.st_mode)) {
    if (S_ISDIR(link.st_mode)) {
      throw sssp::InputError(out.option + ": " + out.path + " is a directory: give the path of a file");
    }
    if (access(out.path.c_str(), W_OK) != 0) {
      throw sssp::InputError(out.option + ": cannot write " + out.path + ": " + std::strerror(errno));
    }
    return;
  }
  const std::filesystem::path parent = std::filesystem::path(out.path).parent_path();
  const std::string directory = parent.empty() ? "." : parent.string();
  if (access(directory.c_str(), W_OK) != 0) {
    throw sssp::InputError(out.option + ": cannot write " + out.path + ": no file can be created in " + directory +
                           " (" + std::strerror(errno) + "); choose a writable directory");
  }
}

// Refuses, before the graph is loaded, an output that is the input graph or
// the other output, or that cannot be written. --weights is a policy, not a
// file: --graph is the only input.
void check_outputs(const Options& o, const std::vector<OutputFile>& outputs) {
  for (const OutputFile& out : outputs) {
    if (!o.graph_file.empty() && is_same_file(out.path, o.graph_file)) {
      throw sssp::InputError(out.option + " " + out.path + " is the same file as --graph " + o.graph_file +
                             ": writing it would destroy the input; write to another path");
    }
    require_writable(out);
  }
  if (outputs.size() == 2 && is_same_file(outputs[0].path, outputs[1].path)) {
    throw sssp::InputError(outputs[0].option + " " + outputs[0].path + " and " + outputs[1].option + " " +
                           outputs[1].path + " are the same file: give each output a path of its own");
  }
}

// Writes `out` through `write`. A regular file or a new path gets a temporary
// file beside it, renamed over it once complete, so that a failed write
// leaves the old file whole. Anything else is written in place, never
// replaced: a device or a pipe (renaming over /dev/stdout as root would make
// it a regular file) or a symlink's target (the link stays). The runner's own
// standard output goes through std::cout, after the report instead of over it.
void write_output(const OutputFile& out, const std::function<void(std::ostream&)>& write) {
  const auto target = status_of(out.path);
  struct stat standard_output {};
  if (target && fstat(STDOUT_FILENO, &standard_output) == 0 && same_inode(*target, standard_output)) {
    write(std::cout);
    std::cout.flush();
    if (!std::cout) throw sssp::InputError(out.option + ": writing " + out.path + " (standard output) failed");
    return;
  }
  struct stat link {};
  if (lstat(out.path.c_str(), &link) == 0 && !S_ISREG(link.st_mode)) {
    std::ofstream file(out.path, std::ios::binary);
    if (file) write(file);
    file.close();
    if (!file) throw sssp::InputError(out.option + ": writing " + out.path + " failed (disk full?)");
    return;
  }
  std::random_device entropy;  // a name of its own: two runs may write one path at once
  const std::string temporary = out.path + ".tmp" + std::to_string(entropy());
  std::ofstream file(temporary, std::ios::binary);
  if (file) write(file);
  file.close();
  std::error_code error;
  if (file) std::filesystem::rename(temporary, out.path, error);
  if (!file || error) {
    std::error_code ignored;
    std::filesystem::remove(temporary, ignored);
    throw sssp::InputError(out.option + ": writing " + out.path + " failed (" +
                           (error ? error.message() : "disk full?") + "); " + out.path + " is unchanged");
  }
}

// Without --algo, leaves the dense-matrix algorithms out on graphs of more
// than kDenseDefaultMaxVertices vertices, and says how to run them anyway.
void leave_out_dense(std::vector<const Algorithm*>& chosen, const sssp::CsrGraph& g) {
  if (g.num_vertices() <= kDenseDefaultMaxVertices) return;
  std::vector<const Algorithm*> kept;
  std::string left_out;
  for (const Algorithm* a : chosen) {
    if (!a->dense_matrix) {
      kept.push_back(a);
    } else {
      left_out += (left_out.empty() ? "" : ", ") + a->name;
    }
  }
  if (left_out.empty()) return;
  std::fprintf(stderr,
               "sssp: left out %s: dense-matrix algorithms (up to |V|^3 work) run by default only on graphs of at "
               "most %u vertices, and this one has %u; name one with --algo to run it (e.g. --algo %s)\n",
               left_out.c_str(), kDenseDefaultMaxVertices, g.num_vertices(),
               left_out.substr(0, left_out.find(',')).c_str());
  chosen = std::move(kept);
}

int run(int argc, char** argv) {
  const std::optional<Options> parsed = parse_args(argc, argv);
  if (!parsed) return 0;
  const Options& o = *parsed;
  if (o.list) {
    for (const Algorithm& a : sssp::runner::registry().algorithms()) {
      std::printf("%-28s %s%s%s\n", a.name.c_str(), a.summary.c_str(), a.gpu ? " [GPU]" : "", tuning_flags(a).c_str());
    }
    return 0;
  }
  auto algorithms = select_algorithms(o.algos);
  check_tuning(o.tuning, algorithms);
  const std::vector<OutputFile> outputs = output_files(o);
  check_outputs(o, outputs);
  const auto load_start = std::chrono::steady_clock::now();
  sssp::CsrGraph graph;
  std::string weights_warning;
  if (!o.graph_file.empty()) {
    if (o.progress) std::fprintf(stderr, "reading %s ...\n", o.graph_file.c_str());
    graph = sssp::load_graph_cached(o.graph_file, o.read, o.cache_dir);
    weights_warning = ignored_weights(o, graph);
    if (!weights_warning.empty()) std::fprintf(stderr, "sssp: warning: %s\n", weights_warning.c_str());
  } else {
    const std::string spec = o.generator.empty() ? kDefaultGenerator : o.generator;
    graph = sssp::to_csr(sssp::generate(spec, o.read.weights, o.seed));
  }
  const double load_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - load_start).count();
  const auto sources = choose_sources(o, graph);
  if (o.algos.empty()) leave_out_dense(algorithms, graph);

  std::vector<Measurement> results;
  bool all_good = true;
  // The answer --write-distances writes: the first run's, results[*answered].
  std::optional<std::size_t> answered;
  RunOutput answer;
  for (const Algorithm* a : algorithms) {
    Measurement m;
    m.algorithm = a;
    m.source = sources.front();
    if (a->gpu && !sssp::cuda::query_device().available) {
      m.skipped = sssp::cuda::query_device().reason;
      results.push_back(m);
      continue;
    }
    // A failing algorithm costs its own row only: the rows already measured
    // and the algorithms after it are still reported.
    try {
      const auto prepared = a->prepare(graph, o.tuning);
      for (const sssp::vertex_t s : sources) {
        m.source = s;
        const bool keep = !o.write_distances.empty() && !answered;
        results.push_back(measure(*a, prepared, graph, s, o, keep ? &answer : nullptr));
        if (keep) answered = results.size() - 1;
        all_good = all_good && (!results.back().checked || results.back().verified);
      }
      continue;
    } catch (const sssp::InputError& e) {
      // An algorithm that does not take this kind of graph (lab 05's matrix
      // of a large sparse graph, lab 06's ELL of a hub graph) says why.
      m.skipped = e.what();
      results.push_back(m);
      continue;
    } catch (const sssp::CudaError& e) {
      m.error = std::string("CUDA error: ") + e.what();
    } catch (const std::bad_alloc&) {
      m.error = "out of host memory: give it a smaller graph, or leave it out";
    } catch (const std::exception& e) {
      // NotImplemented, AlgorithmError (a broken invariant) and whatever else
      // a student's code throws.
      m.error = e.what();
    }
    all_good = false;
    results.push_back(m);
  }
  // The fixed cost of one host-driven iteration on this GPU, for comparing
  // with the time per iteration of the GPU algorithms.
  const bool any_gpu = std::any_of(algorithms.begin(), algorithms.end(), [](const Algorithm* a) { return a->gpu; });
  const double round_trip_us =
      any_gpu && sssp::cuda::query_device().available ? sssp::cuda::measure_round_trip_us() : -1.0;
  report(o, graph, weights_warning, load_s, round_trip_us, results);
  const bool any_ran = std::any_of(results.begin(), results.end(),
                                   [](const Measurement& m) { return m.skipped.empty() && m.error.empty(); });
  if (!any_ran && all_good) {
    std::fprintf(stderr,
                 "sssp: no algorithm ran: every one chosen was skipped (the table says why), so nothing was "
                 "verified; choose algorithms that this machine and graph take (--list)\n");
  }
  if (!any_ran || !all_good) {
    for (const OutputFile& out : outputs) {
      std::fprintf(stderr, "sssp: %s: %s not written: %s\n", out.option.c_str(), out.path.c_str(),
                   any_ran ? "a run failed or gave a wrong answer (see the table)" : "no algorithm ran");
    }
    return 1;
  }
  if (!o.write_graph.empty()) {
    write_output(outputs.front(), [&](std::ostream& out) { sssp::write_dimacs(graph, out); });
  }
  if (!o.write_distances.empty()) {
    const Measurement& first = results[answered.value()];
    write_output(outputs.back(), [&](std::ostream& out) {
      if (first.algorithm->bfs) {
        write_values(out, answer.levels, sssp::kUnreached);
      } else {
        write_values(out, answer.dist, sssp::kInfinity);
      }
    });
    if (o.output == "text") {
      std::printf("%s of %s from source %u written to %s\n", first.algorithm->bfs ? "levels" : "distances",
                  first.algorithm->name.c_str(), first.source, o.write_distances.c_str());
    }
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) { return sssp::guarded_main("sssp", run, argc, argv); }
