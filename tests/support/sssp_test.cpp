#include "sssp_test.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <sstream>

#include "sssp/cuda/device.hpp"
#include "sssp/errors.hpp"
#include "sssp/generators.hpp"
#include "sssp/io.hpp"
#include "sssp/reference.hpp"
#include "sssp/verify.hpp"
#include "sssp/weights.hpp"

#ifndef SSSP_SOURCE_DIR
#error "SSSP_SOURCE_DIR must name the repository root"
#endif

namespace sssp::test {

namespace {

std::string describe(const NamedGraph& g, vertex_t source) {
  std::ostringstream out;
  out << "graph '" << g.name << "' (" << g.graph.num_vertices() << " vertices, " << g.graph.num_edges()
      << " arcs), source " << source;
  return out.str();
}

template <typename Value>
::testing::AssertionResult explain(const NamedGraph& g, vertex_t source, const Verdict& compared,
                                   const Verdict& certified, std::string_view hint) {
  if (compared.ok) return ::testing::AssertionSuccess();
  auto failure = ::testing::AssertionFailure();
  failure << describe(g, source) << ":\n  " << compared.message << "\n";
  if (!certified.ok) failure << "  why: " << certified.message << "\n";
  if (!hint.empty()) failure << "  hint: " << hint << "\n";
  return failure;
}

NamedGraph named(std::string name, const EdgeList& edges, NamedGraph::Kind kind) {
  CsrGraph csr = to_csr(edges);
  csr.name = name;
  return {std::move(name), std::move(csr), kind};
}

}  // namespace

CsrGraph hand_graph(vertex_t n, const std::vector<std::tuple<vertex_t, vertex_t, weight_t>>& arcs) {
  EdgeList e;
  e.name = "hand-written graph";
  e.num_vertices = n;
  for (const auto& [u, v, w] : arcs) e.add_arc(u, v, w);
  return to_csr(e);
}

::testing::AssertionResult matches_reference_sssp(const NamedGraph& g, vertex_t source, std::span<const dist_t> got,
                                                  std::string_view hint) {
  // The certificate alone proves an answer right (verify.cpp: no arc can be
  // relaxed, and every finite distance is the length of a tight path from the
  // source), in one pass over the arcs for a right answer; the reference
  // Dijkstra runs only to say what is wrong. On the speed items' graphs it is
  // 5-30x the certificate (R-MAT 18: 324 against 11 ms on the CI machine), and
  // every timed solve is checked.
  const Verdict certified = verify_sssp(g.graph, source, got);
  if (certified.ok) return ::testing::AssertionSuccess();
  const std::vector<dist_t> expected = reference_dijkstra(g.graph, source);
  return explain<dist_t>(g, source, compare_distances(expected, got),
                         got.size() == expected.size() ? certified : Verdict{}, hint);
}

::testing::AssertionResult matches_reference_bfs(const NamedGraph& g, vertex_t source, std::span<const level_t> got,
                                                 std::string_view hint) {
  const std::vector<level_t> expected = reference_bfs(g.graph, source);
  return explain<level_t>(g, source, compare_levels(expected, got),
                          got.size() == expected.size() ? verify_bfs(g.graph, source, got) : Verdict{}, hint);
}

const std::vector<NamedGraph>& standard_graphs() {
  static const std::vector<NamedGraph> graphs = [] {
    std::vector<NamedGraph> list;
    // The hand-checked graphs shipped in datasets/tiny, in name order.
    std::vector<std::filesystem::path> tiny;
    for (const auto& entry : std::filesystem::directory_iterator(shipped_dataset("tiny"))) {
      if (entry.path().extension() == ".gr") tiny.push_back(entry.path());
    }
    std::sort(tiny.begin(), tiny.end());
    for (const auto& path : tiny) {
      list.push_back(named("tiny/" + path.filename().string(), read_graph(path.string()), NamedGraph::Kind::kTiny));
    }
    const auto w = WeightPolicy::uniform(1, 100, 7);
    list.push_back(named("grid 13x11, weights 1..100", make_grid(13, 11, w), NamedGraph::Kind::kGenerated));
    list.push_back(named("uniform random 300 vertices 1500 arcs", make_uniform_random(300, 1500, w, 3),
                         NamedGraph::Kind::kGenerated));
    list.push_back(named("rmat scale 9 edge factor 8", make_rmat(9, 8, w, 5), NamedGraph::Kind::kGenerated));
    list.push_back(named("chain of 257", make_chain(257, w), NamedGraph::Kind::kGenerated));
    list.push_back(named("star of 300 (hub 0)", make_star(300, w), NamedGraph::Kind::kGenerated));
    list.push_back(named("complete 24", make_complete(24, w), NamedGraph::Kind::kGenerated));
    list.push_back(named("unit-weight grid 9x14", make_grid(9, 14, WeightPolicy::unit()), NamedGraph::Kind::kCorner));
    list.push_back(
        named("zero-weight grid 6x6", make_grid(6, 6, WeightPolicy::uniform(0, 0, 1)), NamedGraph::Kind::kCorner));
    list.push_back(named("weights 0..3 random (many ties)",
                         make_uniform_random(200, 900, WeightPolicy::uniform(0, 3, 11), 12),
                         NamedGraph::Kind::kCorner));
    // Weights near 2^32 on a long path: distances need all 64 bits.
    list.push_back(named("chain of 2000, weights near 2^32",
                         make_chain(2000, WeightPolicy::uniform(4294967000u, 4294967295u, 9)),
                         NamedGraph::Kind::kCorner));
    {
      EdgeList one;
      one.num_vertices = 1;
      list.push_back(named("single vertex", one, NamedGraph::Kind::kCorner));
    }
    {
      // Two components: 0..4 form a cycle, 5..9 are unreachable from them;
      // 10 is isolated (a source with no out-arcs); self-loops and parallel arcs.
      EdgeList e;
      e.num_vertices = 11;
      for (vertex_t v = 0; v < 5; ++v) e.add_arc(v, (v + 1) % 5, 3 + v);
      e.add_arc(0, 2, 9);  // parallel-ish shortcut
      e.add_arc(0, 1, 1);  // parallel arc, lighter than 0 -> 1 (3)
      e.add_arc(0, 1, 8);  // and a heavier one
      e.add_arc(2, 2, 0);  // self-loop of weight 0
      e.add_arc(3, 3, 5);  // self-loop
      for (vertex_t v = 5; v < 9; ++v) e.add_arc(v, v + 1, 2);
      e.add_arc(9, 5, 1);
      e.add_arc(5, 0, 4);  // 5.. reach 0.., not the other way round
      list.push_back(named("two components, self-loops, parallel arcs, isolated 10", e, NamedGraph::Kind::kCorner));
    }
    return list;
  }();
  return graphs;
}

std::vector<const NamedGraph*> graphs_of_kind(NamedGraph::Kind kind) {
  std::vector<const NamedGraph*> selected;
  for (const NamedGraph& g : standard_graphs()) {
    if (g.kind == kind) selected.push_back(&g);
  }
  return selected;
}

std::vector<vertex_t> sample_sources(const CsrGraph& g, std::size_t count) {
  std::vector<vertex_t> sources;
  const vertex_t n = g.num_vertices();
  if (n == 0) return sources;
  for (std::size_t i = 0; i < count; ++i) {
    sources.push_back(
        static_cast<vertex_t>((static_cast<std::uint64_t>(n - 1) * i) / std::max<std::size_t>(count - 1, 1)));
  }
  std::sort(sources.begin(), sources.end());
  sources.erase(std::unique(sources.begin(), sources.end()), sources.end());
  return sources;
}

std::string data_dir() {
  const char* dir = std::getenv("SSSP_DATA_DIR");
  return dir != nullptr && *dir != '\0' ? std::string(dir) : std::string(SSSP_DEFAULT_DATA_DIR);
}

std::optional<std::string> dataset_path(const std::string& file, std::string* why_not) {
  const std::string dir = data_dir();
  if (dir.empty()) {
    if (why_not)
      *why_not =
          "SSSP_DATA_DIR is not set: fetch the graphs with datasets/fetch.py (they go to datasets/downloads), or configure with -DSSSP_DATA_DIR=<a directory that holds them>";
    return std::nullopt;
  }
  const std::filesystem::path path = std::filesystem::path(dir) / file;
  if (!std::filesystem::exists(path)) {
    if (why_not) *why_not = path.string() + " does not exist (fetch it with datasets/fetch.py " + file + ")";
    return std::nullopt;
  }
  return path.string();
}

std::vector<NamedGraph> hidden_graphs(std::string* why_not) {
  const char* dir = std::getenv("SSSP_HIDDEN_GRAPHS");
  if (dir == nullptr || *dir == '\0') {
    if (why_not) {
      *why_not =
          "hidden-graph test skipped: SSSP_HIDDEN_GRAPHS is not set "
          "(instructors: grade.py --hidden-graphs DIR)";
    }
    return {};
  }
  return read_hidden_graphs(dir);
}

std::vector<NamedGraph> read_hidden_graphs(const std::string& dir) {
  const std::string where = "hidden graph directory '" + dir + "'";
  std::error_code error;
  if (!std::filesystem::is_directory(dir, error)) {
    throw InputError(where + (std::filesystem::exists(dir, error) ? " is not a directory" : " does not exist"));
  }
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.is_regular_file()) files.push_back(entry.path());
  }
  if (files.empty()) throw InputError(where + " holds no graph file");
  std::sort(files.begin(), files.end());
  ReadOptions options;
  options.weights = WeightPolicy::uniform(1, 1000, 1);
  std::vector<NamedGraph> graphs;
  for (const auto& path : files) {
    try {
      graphs.push_back(
          named("hidden/" + path.filename().string(), read_graph(path.string(), options), NamedGraph::Kind::kCorner));
    } catch (const InputError& e) {
      throw InputError(where + " may hold graph files only: " + e.what());
    }
  }
  return graphs;
}

NamedGraph read_dataset(const std::string& path, const std::string& name) {
  ReadOptions options;
  options.weights = WeightPolicy::uniform(1, 1000, 1);
  return {name + " (unweighted files: weights 1..1000, seed 1)", to_csr(read_graph(path, options))};
}

std::vector<const NamedGraph*> pointers(const std::vector<NamedGraph>& graphs) {
  std::vector<const NamedGraph*> out;
  for (const NamedGraph& g : graphs) out.push_back(&g);
  return out;
}

std::vector<std::uint64_t> lowered_per_synchronous_round(const CsrGraph& g, vertex_t source) {
  std::vector<dist_t> dist(g.num_vertices(), kInfinity);
  dist[source] = 0;
  std::vector<std::uint64_t> lowered;
  do {
    std::vector<dist_t> next = dist;
    for (vertex_t u = 0; u < g.num_vertices(); ++u) {
      if (dist[u] == kInfinity) continue;
      for (edge_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e) {
        next[g.targets[e]] = std::min(next[g.targets[e]], dist[u] + g.weights[e]);
      }
    }
    std::uint64_t count = 0;
    for (vertex_t v = 0; v < g.num_vertices(); ++v) count += next[v] < dist[v] ? 1 : 0;
    lowered.push_back(count);
    dist.swap(next);
  } while (lowered.back() != 0);
  return lowered;
}

NamedGraph fan_in_graph(vertex_t middle) {
  EdgeList e;
  e.num_vertices = middle + 2;
  for (vertex_t i = 1; i <= middle; ++i) {
    e.add_arc(0, i, 1 + static_cast<weight_t>(splitmix64(i) % 1000));
    e.add_arc(i, middle + 1, 1000 + static_cast<weight_t>(splitmix64(i + middle) % 100000));
  }
  return {"fan-in: " + std::to_string(middle) + " vertices relax one sink in the same iteration", to_csr(e)};
}

NamedGraph parallel_arcs_graph(edge_t arcs) {
  EdgeList e;
  e.num_vertices = 2;
  for (edge_t i = 0; i < arcs; ++i) {
    e.add_arc(0, 1, 1 + static_cast<weight_t>(splitmix64(i) % 1000000));
  }
  return {std::to_string(arcs) + " parallel arcs 0 -> 1 relaxed at once", to_csr(e)};
}

std::string shipped_dataset(const std::string& relative) {
  return (std::filesystem::path(SSSP_SOURCE_DIR) / "datasets" / relative).string();
}

namespace {
bool kernels_run_in_the_worker = false;
}  // namespace

void gpu_kernels_run_in_the_worker() { kernels_run_in_the_worker = true; }

std::string gpu_unavailable_reason() {
  const auto& status =
      cuda::query_device(0, kernels_run_in_the_worker ? cuda::DeviceCheck::kPresence : cuda::DeviceCheck::kRunsKernels);
  return status.available ? std::string() : status.reason;
}

void announce_step(std::string_view what) { std::cout << "[   STEP   ] " << what << std::endl; }

void announce_run(const NamedGraph& g, vertex_t source, std::string_view note) {
  announce_step(note.empty() ? describe(g, source) : describe(g, source) + ": " + std::string(note));
}

}  // namespace sssp::test
