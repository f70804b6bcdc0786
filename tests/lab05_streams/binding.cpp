// Lab 05's API across the worker boundary (tests/grader/runtime/rpc/api.hpp): the
// worker runs the student's CPU baseline and holds the GPU solvers; the
// graded tests call them here. The DenseGraph is given code (dense_graph.cpp,
// compiled into both sides): it crosses as a DenseMatrix and is built again,
// in the same kind of host memory, in the worker.
#include <stdexcept>
#include <string>
#include <vector>

#include "lab05.hpp"
#include "rpc/api.hpp"

namespace lab05 {

/// A DenseGraph as it crosses: the matrix, row-major, and what else it holds.
struct DenseMatrix {
  vertex_t n = 0;
  HostMemory memory = HostMemory::kPageable;
  std::string name;
  std::vector<weight_t> weights;  ///< n * n entries, kNoEdge where there is no arc.
};

/// The members of the structs that cross, for the encoding.
inline auto rpc_fields(DenseMatrix& m) { return std::tie(m.n, m.memory, m.name, m.weights); }
inline auto rpc_fields(CpuOptions& o) { return std::tie(o.variant, o.threads, o.max_rounds); }
inline auto rpc_fields(GpuOptions& o) { return std::tie(o.variant, o.streams, o.max_rounds); }
inline auto rpc_fields(PartTiming& p) {
  return std::tie(p.first_row, p.rows, p.copy_begin_ms, p.copy_end_ms, p.first_round_end_ms);
}
inline auto rpc_fields(Timeline& t) { return std::tie(t.parts, t.first_round_ms); }

}  // namespace lab05

#if SSSP_RPC_WORKER

namespace lab05 {
namespace {

DenseGraph from_matrix(const DenseMatrix& m) {
  if (m.weights.size() != static_cast<std::size_t>(m.n) * m.n) {
    throw std::invalid_argument("a DenseMatrix of " + std::to_string(m.n) + " vertices with " +
                                std::to_string(m.weights.size()) + " entries");
  }
  DenseGraph dense(m.n, m.memory, m.name);  // every entry kNoEdge
  for (vertex_t u = 0; u < m.n; ++u) {
    for (vertex_t v = 0; v < m.n; ++v) {
      const weight_t w = m.weights[static_cast<std::size_t>(u) * m.n + v];
      if (w != kNoEdge) dense.set_weight(u, v, w);
    }
  }
  return dense;
}

std::vector<dist_t> cpu_bellman_ford_of(const DenseMatrix& matrix, vertex_t source, CpuOptions options,
                                        Counters* counters) {
  const DenseGraph dense = from_matrix(matrix);
  return cpu_bellman_ford(dense, source, options, counters);
}

/// The solver with the matrix it keeps a reference to.
class DenseBellmanFordOfMatrix {
 public:
  DenseBellmanFordOfMatrix(const DenseMatrix& matrix, GpuOptions options)
      : graph_(from_matrix(matrix)), solver_(graph_, options) {}
  SsspResult run(vertex_t source, Timeline* timeline) { return solver_.run(source, timeline); }

 private:
  DenseGraph graph_;
  DenseBellmanFord solver_;
};

}  // namespace
}  // namespace lab05

void sssp::rpc::register_lab(Registry& registry) {
  registry.function("lab05::cpu_bellman_ford", &lab05::cpu_bellman_ford_of);
  registry.constructor<lab05::DenseBellmanFordOfMatrix, const lab05::DenseMatrix&, lab05::GpuOptions>(
      "lab05::DenseBellmanFord");
  registry.method("lab05::DenseBellmanFord::run", &lab05::DenseBellmanFordOfMatrix::run);
}

#else

namespace lab05 {
namespace {

DenseMatrix to_matrix(const DenseGraph& graph) {
  const std::size_t entries = static_cast<std::size_t>(graph.num_vertices()) * graph.num_vertices();
  return {graph.num_vertices(), graph.memory(), graph.name(),
          std::vector<weight_t>(graph.data(), graph.data() + entries)};
}

// The signature of the worker's cpu_bellman_ford, which takes the matrix.
using CpuBellmanFordOf = std::vector<dist_t> (*)(const DenseMatrix&, vertex_t, CpuOptions, Counters*);

}  // namespace

std::vector<dist_t> cpu_bellman_ford(const DenseGraph& graph, vertex_t source, CpuOptions options, Counters* counters) {
  return sssp::rpc::call(CpuBellmanFordOf{}, "lab05::cpu_bellman_ford", to_matrix(graph), source, options, counters);
}

// The matrix crosses once, when the solver is made: the worker's solver keeps
// its own copy where the real one keeps a reference to `graph`.
struct DenseBellmanFord::Impl {
  sssp::rpc::Remote remote;
};

DenseBellmanFord::DenseBellmanFord(const DenseGraph& graph, GpuOptions options)
    : impl_(std::make_unique<Impl>(Impl{sssp::rpc::Remote::make<const DenseMatrix&, GpuOptions>(
          "lab05::DenseBellmanFord", to_matrix(graph), options)})) {}

DenseBellmanFord::~DenseBellmanFord() = default;

SsspResult DenseBellmanFord::run(vertex_t source, Timeline* timeline) {
  return impl_->remote.call(&DenseBellmanFord::run, "lab05::DenseBellmanFord::run", source, timeline);
}

}  // namespace lab05

#endif
