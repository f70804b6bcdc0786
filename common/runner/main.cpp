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
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <limits>
#include <new>
#include <optional>
#include <string>
#include <vector>

#include "measure.hpp"
#include "registry.hpp"
#include "report.hpp"
#include "sources.hpp"
#include "sssp/cli.hpp"
#include "sssp/cuda/device.hpp"
#include "sssp/errors.hpp"
#include "sssp/generators.hpp"
#include "sssp/io.hpp"
#include "sssp/output_file.hpp"

namespace {

using sssp::OutputFile;
using sssp::runner::Algorithm;
using sssp::runner::Measurement;
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

std::vector<OutputFile> output_files(const Options& o) {
  std::vector<OutputFile> outputs;
  if (!o.write_graph.empty()) outputs.push_back({"--write-graph", o.write_graph});
  if (!o.write_distances.empty()) outputs.push_back({"--write-distances", o.write_distances});
  return outputs;
}

// Refuses, before the graph is loaded, an output that is the input graph or
// the other output, or that cannot be written. --weights is a policy, not a
// file: --graph is the only input.
void check_outputs(const Options& o, const std::vector<OutputFile>& outputs) {
  for (const OutputFile& out : outputs) {
    if (!o.graph_file.empty() && sssp::is_same_file(out.path, o.graph_file)) {
      throw sssp::InputError(out.option + " " + out.path + " is the same file as --graph " + o.graph_file +
                             ": writing it would destroy the input; write to another path");
    }
    sssp::require_writable(out);
  }
  if (outputs.size() == 2 && sssp::is_same_file(outputs[0].path, outputs[1].path)) {
    throw sssp::InputError(outputs[0].option + " " + outputs[0].path + " and " + outputs[1].option + " " +
                           outputs[1].path + " are the same file: give each output a path of its own");
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
  const auto sources = sssp::runner::choose_sources(graph, o.sources, o.random_sources, o.seed);
  if (o.algos.empty()) leave_out_dense(algorithms, graph);

  const sssp::runner::Repetitions repetitions{o.warmup, o.reps, o.progress, o.verify};
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
        results.push_back(sssp::runner::measure(*a, prepared, graph, s, repetitions, keep ? &answer : nullptr));
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
  sssp::runner::report({o.output, o.warmup, o.reps, weights_warning, load_s, round_trip_us}, graph, results);
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
    sssp::write_output(outputs.front(), [&](std::ostream& out) { sssp::write_dimacs(graph, out); });
  }
  if (!o.write_distances.empty()) {
    const Measurement& first = results[answered.value()];
    sssp::write_output(outputs.back(),
                       [&](std::ostream& out) { sssp::runner::write_answer(out, answer, first.algorithm->bfs); });
    if (o.output == "text") {
      std::printf("%s of %s from source %u written to %s\n", first.algorithm->bfs ? "levels" : "distances",
                  first.algorithm->name.c_str(), first.source, o.write_distances.c_str());
    }
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) { return sssp::guarded_main("sssp", run, argc, argv); }
