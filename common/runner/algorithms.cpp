// The runner's algorithm table. Each lab adds its entries here; the same file
// is compiled against the student's code (sssp) and the reference (sssp-ref).
#include "algorithms.hpp"

#include <memory>
#include <string>
#include <type_traits>
#include <utility>

#include "lab01.hpp"
#include "sssp/cuda/device.hpp"
#include "sssp/errors.hpp"
#include "sssp/result.hpp"
#if SSSP_HAVE_CUDA
#include "lab02.hpp"
#include "lab03.hpp"
#include "lab04.hpp"
#include "lab05.hpp"
#include "lab06.hpp"
#include "lab07.hpp"
#endif

namespace sssp::runner {

namespace {

// Wraps a CPU SSSP function `f(graph, source, counters)`.
template <typename F>
Algorithm cpu_sssp(std::string name, std::string summary, F f) {
  return {std::move(name), std::move(summary), false, false, [f](const CsrGraph& graph) -> PreparedRun {
            return [f, &graph](vertex_t source) {
              RunOutput out;
              out.dist = f(graph, source, &out.counters);
              return out;
            };
          }};
}

// Wraps a CPU BFS function `f(graph, source, counters)`.
template <typename F>
Algorithm cpu_bfs(std::string name, std::string summary, F f) {
  return {std::move(name), std::move(summary), false, true, [f](const CsrGraph& graph) -> PreparedRun {
            return [f, &graph](vertex_t source) {
              RunOutput out;
              out.levels = f(graph, source, &out.counters);
              return out;
            };
          }};
}

#if SSSP_HAVE_CUDA
// Wraps a GPU solver class: its constructor uploads the graph (untimed), and
// run(source) returns an SsspResult or BfsResult with its own CUDA-event time.
template <typename Solver>
Algorithm gpu(std::string name, std::string summary) {
  using Result = decltype(std::declval<Solver&>().run(vertex_t{}));
  constexpr bool kBfs = std::is_same_v<Result, BfsResult>;
  return {std::move(name), std::move(summary), true, kBfs, [](const CsrGraph& graph) -> PreparedRun {
            auto solver = std::make_shared<Solver>(graph);
            return [solver](vertex_t source) {
              Result result = solver->run(source);
              RunOutput out;
              if constexpr (kBfs) {
                out.levels = std::move(result.values);
              } else {
                out.dist = std::move(result.values);
              }
              out.counters = result.counters;
              out.device_ms = result.device_ms;
              return out;
            };
          }};
}

// Lab 05 relaxes an adjacency matrix: preparing a run builds it from the CSR
// (in pinned memory, so the streams can overlap), outside the timed runs.
// Matrices of more than 20000 vertices (1.6 GB) are refused here: the runner
// takes sparse graphs, and stream-bench is the tool for large dense ones.
lab05::DenseGraph dense_matrix_of(const CsrGraph& graph, lab05::HostMemory memory) {
  constexpr vertex_t kLargest = 20000;
  if (graph.num_vertices() > kLargest) {
    throw InputError("lab 05 builds an adjacency matrix: at most " + std::to_string(kLargest) +
                     " vertices here, this graph has " + std::to_string(graph.num_vertices()) +
                     " (bin/stream-bench-ref times large complete graphs)");
  }
  return lab05::DenseGraph::from_csr(graph, memory);
}

template <lab05::Variant kVariant, unsigned kStreams>
class DenseOnCsr {
 public:
  explicit DenseOnCsr(const CsrGraph& graph)
      : matrix_(dense_matrix_of(graph, lab05::HostMemory::kPinned)),
        solver_(matrix_, lab05::GpuOptions{kVariant, kStreams, 0}) {}
  [[nodiscard]] SsspResult run(vertex_t source) { return solver_.run(source); }

 private:
  lab05::DenseGraph matrix_;
  lab05::DenseBellmanFord solver_;
};

// Lab 05's multithreaded CPU baseline, on the matrix built once per graph.
Algorithm dense_cpu(std::string name, std::string summary, lab05::Variant variant) {
  return {std::move(name), std::move(summary), false, false, [variant](const CsrGraph& graph) -> PreparedRun {
            auto matrix = std::make_shared<lab05::DenseGraph>(dense_matrix_of(graph, lab05::HostMemory::kPageable));
            return [matrix, variant](vertex_t source) {
              RunOutput out;
              out.dist = lab05::cpu_bellman_ford(*matrix, source, lab05::CpuOptions{variant, 0, 0}, &out.counters);
              return out;
            };
          }};
}

// Lab 06's solver takes its sparse format as a constructor argument.
template <lab06::Format kFormat>
struct Spmv : lab06::SpmvBellmanFord {
  explicit Spmv(const CsrGraph& graph) : lab06::SpmvBellmanFord(graph, kFormat) {}
};

// Lab 07 with its default options (k = 2, one vertex per thread: the best on
// road graphs on an H100), N learned from the warm-up runs; optionally the
// blind launches as a CUDA Graph.
template <bool kCudaGraph>
struct Locality : lab07::LocalitySssp {
  explicit Locality(const CsrGraph& graph) : lab07::LocalitySssp(graph, options()) {}
  static lab07::Options options() {
    lab07::Options o;
    o.cuda_graph = kCudaGraph;
    return o;
  }
};
#endif

}  // namespace

const std::vector<Algorithm>& algorithms() {
  static const std::vector<Algorithm> table = {
      cpu_sssp("lab01/dijkstra", "serial Dijkstra, binary heap with lazy deletion", lab01::dijkstra),
      cpu_sssp("lab01/bellman-ford", "serial Bellman-Ford in rounds with early exit", lab01::bellman_ford),
      cpu_sssp("lab01/bellman-ford-queue", "serial queue-based Bellman-Ford (FIFO, no duplicates)",
               lab01::bellman_ford_queue),
      cpu_bfs("lab01/bfs", "serial level-synchronous BFS", lab01::bfs),
#if SSSP_HAVE_CUDA
      gpu<lab02::FrontierSssp>("lab02/frontier-sssp", "Harish-Narayanan frontier SSSP: two kernels, host flag loop"),
      gpu<lab02::FrontierBfs>("lab02/frontier-bfs", "frontier BFS: one kernel per level, host flag loop"),
      gpu<lab03::EdgeBfs>("lab03/edge-bfs", "edge-parallel BFS: one thread per arc per level"),
      gpu<lab03::EdgeDijkstra>("lab03/edge-dijkstra",
                               "edge-based Dijkstra: settle every vertex at the minimum, relax arc-parallel"),
      gpu<lab04::ExtractMinDijkstra>("lab04/extract-min-dijkstra",
                                     "Dijkstra with a reduction ExtractMin: one vertex per round, O(V^2/t)"),
      dense_cpu("lab05/cpu-naive", "multithreaded Bellman-Ford on the adjacency matrix, |V|-1 rounds",
                lab05::Variant::kNaive),
      dense_cpu("lab05/cpu-work-efficient",
                "multithreaded Bellman-Ford on the adjacency matrix, active rows only, early exit",
                lab05::Variant::kWorkEfficient),
      gpu<DenseOnCsr<lab05::Variant::kNaive, 1>>("lab05/gpu-naive",
                                                 "2-D grid over the adjacency matrix, every row, |V|-1 rounds"),
      gpu<DenseOnCsr<lab05::Variant::kWorkEfficient, 1>>(
          "lab05/gpu-work-efficient", "2-D grid over the adjacency matrix, active rows only, early exit"),
      gpu<DenseOnCsr<lab05::Variant::kWorkEfficient, 4>>(
          "lab05/gpu-streams", "work-efficient, matrix copied in 4 streams, round 1 overlapping the copies"),
      gpu<Spmv<lab06::Format::kCsrScalar>>("lab06/csr-scalar",
                                           "min-plus SpMV Bellman-Ford, incoming CSR, a thread per row"),
      gpu<Spmv<lab06::Format::kCsrVector>>("lab06/csr-vector",
                                           "min-plus SpMV Bellman-Ford, incoming CSR, a warp per row"),
      gpu<Spmv<lab06::Format::kEll>>("lab06/ell",
                                     "min-plus SpMV Bellman-Ford, column-major padded ELL (refuses hub graphs)"),
      gpu<Locality<false>>("lab07/locality",
                           "locality-based relaxation: k = 2 waves, 1 vertex per thread, learned blind launches"),
      gpu<Locality<true>>("lab07/locality-graph", "lab07/locality with the blind launches as one CUDA Graph"),
#endif
  };
  return table;
}

}  // namespace sssp::runner
