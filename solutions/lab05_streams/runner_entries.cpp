// Lab 05's algorithms in the runner (common/runner/registry.hpp): Bellman-Ford
// on the adjacency matrix, built from the runner's CSR graph.
#include <memory>
#include <string>
#include <utility>

#include "lab05.hpp"
#include "registry.hpp"
#include "sssp/errors.hpp"

namespace sssp::runner {

namespace {

// Preparing a run builds the matrix from the CSR, outside the timed runs.
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

// The GPU solver on a matrix in pinned memory, so that the streams can overlap.
class DenseOnCsr {
 public:
  DenseOnCsr(const CsrGraph& graph, lab05::GpuOptions options)
      : matrix_(dense_matrix_of(graph, lab05::HostMemory::kPinned)), solver_(matrix_, options) {}
  [[nodiscard]] SsspResult run(vertex_t source) { return solver_.run(source); }

 private:
  lab05::DenseGraph matrix_;
  lab05::DenseBellmanFord solver_;
};

// The entries take no launch options: the variant and streams are fixed per entry.
lab05::GpuOptions fixed(lab05::GpuOptions o, const Tuning&) { return o; }
void no_check(const lab05::GpuOptions&) {}

Algorithm dense_gpu(std::string name, std::string summary, lab05::Variant variant, unsigned streams) {
  Algorithm a = gpu_solver<DenseOnCsr>(std::move(name), std::move(summary), lab05::GpuOptions{variant, streams, 0}, {},
                                       fixed, no_check);
  a.dense_matrix = true;
  return a;
}

// The multithreaded CPU baseline, on the matrix built once per graph.
Algorithm dense_cpu(std::string name, std::string summary, lab05::Variant variant) {
  Algorithm a;
  a.name = std::move(name);
  a.summary = std::move(summary);
  a.dense_matrix = true;
  a.prepare = [variant](const CsrGraph& graph, const Tuning&) -> PreparedRun {
    auto matrix = std::make_shared<lab05::DenseGraph>(dense_matrix_of(graph, lab05::HostMemory::kPageable));
    return [matrix, variant](vertex_t source) {
      RunOutput out;
      out.dist = lab05::cpu_bellman_ford(*matrix, source, lab05::CpuOptions{variant, 0, 0}, &out.counters);
      return out;
    };
  };
  return a;
}

}  // namespace

void register_lab05_streams(Registry& registry) {
  using lab05::Variant;
  registry.add(dense_cpu("lab05/cpu-naive", "multithreaded Bellman-Ford on the adjacency matrix, |V|-1 rounds",
                         Variant::kNaive));
  registry.add(dense_cpu("lab05/cpu-work-efficient",
                         "multithreaded Bellman-Ford on the adjacency matrix, active rows only, early exit",
                         Variant::kWorkEfficient));
  registry.add(
      dense_gpu("lab05/gpu-naive", "2-D grid over the adjacency matrix, every row, |V|-1 rounds", Variant::kNaive, 1));
  registry.add(dense_gpu("lab05/gpu-work-efficient", "2-D grid over the adjacency matrix, active rows only, early exit",
                         Variant::kWorkEfficient, 1));
  // Round 1 of the naive variant relaxes every row, so it has work to
  // overlap with the copies; the work-efficient one relaxes only the source's row.
  registry.add(dense_gpu("lab05/gpu-naive-streams", "naive, matrix copied in 4 streams, round 1 overlapping the copies",
                         Variant::kNaive, 4));
  registry.add(dense_gpu("lab05/gpu-streams",
                         "work-efficient, matrix copied in 4 streams, round 1 overlapping the copies",
                         Variant::kWorkEfficient, 4));
}

}  // namespace sssp::runner
