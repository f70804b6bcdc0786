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
#include "lab08.hpp"
#include "lab09.hpp"
#endif

namespace sssp::runner {

namespace {

// Wraps a CPU SSSP function `f(graph, source, counters)`.
template <typename F>
Algorithm cpu_sssp(std::string name, std::string summary, F f) {
  return {std::move(name), std::move(summary), false, false, {},
          [f](const CsrGraph& graph, const Tuning&) -> PreparedRun {
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
  return {std::move(name), std::move(summary), false, true, {},
          [f](const CsrGraph& graph, const Tuning&) -> PreparedRun {
            return [f, &graph](vertex_t source) {
              RunOutput out;
              out.levels = f(graph, source, &out.counters);
              return out;
            };
          }};
}

#if SSSP_HAVE_CUDA
// The rules of the labs' constructors, so that a bad value is refused before
// the graph is loaded, also on a machine without a GPU.
const Tunable kAnyBlockSize{&Tuning::block_size, [](unsigned b) { return b >= 1 && b <= 1024; }, "1 to 1024"};
// Lab 04's reductions halve the block down to one warp.
const Tunable kReductionBlockSize{&Tuning::block_size,
                                  [](unsigned b) { return b >= 32 && b <= 1024 && (b & (b - 1)) == 0; },
                                  "a power of two from 32 to 1024"};
// CSR vector gives every row a whole warp.
const Tunable kWarpBlockSize{&Tuning::block_size, [](unsigned b) { return b >= 32 && b <= 1024 && b % 32 == 0; },
                             "a multiple of 32 from 32 to 1024"};

// The fields of Tuning that the lab's options struct has: `block_rule` for
// the block size, the labs' common rules for the others.
template <typename LabOptions>
std::vector<Tunable> tunables_of(const Tunable& block_rule) {
  std::vector<Tunable> list;
  if constexpr (requires(LabOptions o) { o.block_size; }) list.push_back(block_rule);
  if constexpr (requires(LabOptions o) { o.rounds_per_check; }) {
    list.push_back({&Tuning::rounds_per_check, [](unsigned r) { return r >= 1; }, "at least 1"});
  }
  if constexpr (requires(LabOptions o) { o.depth; }) {
    list.push_back({&Tuning::depth, [](unsigned k) { return k >= 1 && k <= lab07::kMaxDepth; },
                    "1 to " + std::to_string(lab07::kMaxDepth)});
  }
  if constexpr (requires(LabOptions o) { o.vertices_per_thread; }) {
    list.push_back({&Tuning::vertices_per_thread, [](unsigned p) { return p == 1 || p == 2 || p == 4; },
                    "1, 2 or 4"});
  }
  // 0 would mean "pick it by the rule", which leaving --delta out already does.
  if constexpr (requires(LabOptions o) { o.delta; }) {
    list.push_back({&Tuning::delta, [](unsigned d) { return d >= 1; }, "at least 1"});
  }
  return list;
}

// `options` with the parameters the command line set.
template <typename LabOptions>
LabOptions tuned(LabOptions options, const Tuning& t) {
  if constexpr (requires { options.block_size; }) options.block_size = t.block_size.value_or(options.block_size);
  if constexpr (requires { options.rounds_per_check; }) {
    options.rounds_per_check = t.rounds_per_check.value_or(options.rounds_per_check);
  }
  if constexpr (requires { options.depth; }) options.depth = t.depth.value_or(options.depth);
  if constexpr (requires { options.vertices_per_thread; }) {
    options.vertices_per_thread = t.vertices_per_thread.value_or(options.vertices_per_thread);
  }
  if constexpr (requires { options.delta; }) {
    if (t.delta) options.delta = *t.delta;
  }
  return options;
}

// Wraps a GPU solver class: its constructor `Solver(graph, options)` uploads
// the graph (untimed), and run(source) returns an SsspResult or BfsResult
// with its own CUDA-event time. `defaults` are the entry's options before
// the command line's tuning.
template <typename Solver, typename LabOptions>
Algorithm gpu(std::string name, std::string summary, LabOptions defaults, const Tunable& block_rule = kAnyBlockSize) {
  using Result = decltype(std::declval<Solver&>().run(vertex_t{}));
  constexpr bool kBfs = std::is_same_v<Result, BfsResult>;
  return {std::move(name), std::move(summary), true, kBfs, tunables_of<LabOptions>(block_rule),
          [defaults](const CsrGraph& graph, const Tuning& tuning) -> PreparedRun {
            auto solver = std::make_shared<Solver>(graph, tuned(defaults, tuning));
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

// `a`, marked as working on the adjacency matrix.
Algorithm dense(Algorithm a) {
  a.dense_matrix = true;
  return a;
}

class DenseOnCsr {
 public:
  DenseOnCsr(const CsrGraph& graph, lab05::GpuOptions options)
      : matrix_(dense_matrix_of(graph, lab05::HostMemory::kPinned)), solver_(matrix_, options) {}
  [[nodiscard]] SsspResult run(vertex_t source) { return solver_.run(source); }

 private:
  lab05::DenseGraph matrix_;
  lab05::DenseBellmanFord solver_;
};

// Lab 05's multithreaded CPU baseline, on the matrix built once per graph.
Algorithm dense_cpu(std::string name, std::string summary, lab05::Variant variant) {
  return dense({std::move(name), std::move(summary), false, false, {},
          [variant](const CsrGraph& graph, const Tuning&) -> PreparedRun {
            auto matrix = std::make_shared<lab05::DenseGraph>(dense_matrix_of(graph, lab05::HostMemory::kPageable));
            return [matrix, variant](vertex_t source) {
              RunOutput out;
              out.dist = lab05::cpu_bellman_ford(*matrix, source, lab05::CpuOptions{variant, 0, 0}, &out.counters);
              return out;
            };
          }});
}

// Lab 06's solver takes its sparse format as a constructor argument.
template <lab06::Format kFormat>
struct Spmv : lab06::SpmvBellmanFord {
  Spmv(const CsrGraph& graph, lab06::SpmvOptions options) : lab06::SpmvBellmanFord(graph, kFormat, options) {}
};

// Lab 07's defaults (k = 2, one vertex per thread: the best on road graphs
// on an H100), N learned from the warm-up runs; optionally the blind
// launches as a CUDA Graph.
lab07::Options locality(bool cuda_graph) {
  lab07::Options o;
  o.cuda_graph = cuda_graph;
  return o;
}

lab09::AddsOptions adds_dynamic() {
  lab09::AddsOptions o;
  o.dynamic_delta = true;
  return o;
}
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
      gpu<lab02::FrontierSssp>("lab02/frontier-sssp", "Harish-Narayanan frontier SSSP: two kernels, host flag loop",
                               lab02::Options{}),
      gpu<lab02::FrontierBfs>("lab02/frontier-bfs", "frontier BFS: one kernel per level, host flag loop",
                              lab02::Options{}),
      gpu<lab03::EdgeBfs>("lab03/edge-bfs", "edge-parallel BFS: one thread per arc per level", lab03::Options{}),
      gpu<lab03::EdgeDijkstra>("lab03/edge-dijkstra",
                               "edge-based Dijkstra: settle every vertex at the minimum, relax arc-parallel",
                               lab03::Options{}),
      gpu<lab04::ExtractMinDijkstra>("lab04/extract-min-dijkstra",
                                     "Dijkstra with a reduction ExtractMin: one vertex per round, O(V^2/t)",
                                     lab04::DijkstraOptions{}, kReductionBlockSize),
      dense_cpu("lab05/cpu-naive", "multithreaded Bellman-Ford on the adjacency matrix, |V|-1 rounds",
                lab05::Variant::kNaive),
      dense_cpu("lab05/cpu-work-efficient",
                "multithreaded Bellman-Ford on the adjacency matrix, active rows only, early exit",
                lab05::Variant::kWorkEfficient),
      dense(gpu<DenseOnCsr>("lab05/gpu-naive", "2-D grid over the adjacency matrix, every row, |V|-1 rounds",
                            lab05::GpuOptions{lab05::Variant::kNaive, 1, 0})),
      dense(gpu<DenseOnCsr>("lab05/gpu-work-efficient",
                            "2-D grid over the adjacency matrix, active rows only, early exit",
                            lab05::GpuOptions{lab05::Variant::kWorkEfficient, 1, 0})),
      // Round 1 of the naive variant relaxes every row, so it has work to
      // overlap with the copies; the work-efficient one relaxes only the source's row.
      dense(gpu<DenseOnCsr>("lab05/gpu-naive-streams",
                            "naive, matrix copied in 4 streams, round 1 overlapping the copies",
                            lab05::GpuOptions{lab05::Variant::kNaive, 4, 0})),
      dense(gpu<DenseOnCsr>("lab05/gpu-streams",
                            "work-efficient, matrix copied in 4 streams, round 1 overlapping the copies",
                            lab05::GpuOptions{lab05::Variant::kWorkEfficient, 4, 0})),
      gpu<Spmv<lab06::Format::kCsrScalar>>(
          "lab06/csr-scalar", "min-plus SpMV Bellman-Ford, incoming CSR, a thread per row", lab06::SpmvOptions{}),
      gpu<Spmv<lab06::Format::kCsrVector>>("lab06/csr-vector",
                                           "min-plus SpMV Bellman-Ford, incoming CSR, a warp per row",
                                           lab06::SpmvOptions{}, kWarpBlockSize),
      gpu<Spmv<lab06::Format::kEll>>("lab06/ell",
                                     "min-plus SpMV Bellman-Ford, column-major padded ELL (refuses hub graphs)",
                                     lab06::SpmvOptions{}),
      gpu<lab07::LocalitySssp>("lab07/locality",
                               "locality-based relaxation: k = 2 waves, 1 vertex per thread, learned blind launches",
                               locality(false)),
      gpu<lab07::LocalitySssp>("lab07/locality-graph", "lab07/locality with the blind launches as one CUDA Graph",
                               locality(true)),
      gpu<lab08::DeltaSteppingSssp>(
          "lab08/delta-stepping",
          "Chen's delta-stepping: bucket indices, prefix-sum requests, delta = max weight / max out-degree",
          lab08::DeltaSteppingOptions{}),
      gpu<lab08::NearFarSssp>("lab08/near-far",
                              "Near-Far: near list and far pile, delta = 64 x avg weight / avg degree, GPU-driven",
                              lab08::NearFarOptions{}),
      gpu<lab09::AddsSssp>("lab09/adds",
                           "ADDS: one persistent launch, manager warp and worker blocks, 32-bucket queue, static delta",
                           lab09::AddsOptions{}),
      gpu<lab09::AddsSssp>("lab09/adds-dynamic", "lab09/adds with the manager moving delta (task 5's controller)",
                           adds_dynamic()),
#endif
  };
  return table;
}

}  // namespace sssp::runner
