// Lab 04's API across the worker boundary (tests/grader/runtime/rpc/api.hpp): the
// worker holds the student's reduction and Dijkstra; the graded tests call
// them here.
#include <vector>

#include "lab04.hpp"
#include "rpc/api.hpp"

namespace lab04 {

/// The members of the structs that cross, for the encoding.
inline auto rpc_fields(ArgMin& a) { return std::tie(a.key, a.index); }
inline auto rpc_fields(ReductionResult& r) { return std::tie(r.argmin, r.counters, r.device_ms); }
inline auto rpc_fields(ReduceOptions& o) { return std::tie(o.block_size); }
inline auto rpc_fields(DijkstraOptions& o) { return std::tie(o.block_size, o.rounds_per_check); }

}  // namespace lab04

#if SSSP_RPC_WORKER

void sssp::rpc::register_lab(Registry& registry) {
  // The keys cross as a vector (the test side's constructor copies its span).
  registry.constructor<lab04::ArgMinReduction, const std::vector<lab04::dist_t>&, lab04::ReduceOptions>(
      "lab04::ArgMinReduction");
  registry.method("lab04::ArgMinReduction::run", &lab04::ArgMinReduction::run);
  registry.method("lab04::ArgMinReduction::run_cub", &lab04::ArgMinReduction::run_cub);
  registry.constructor<lab04::ExtractMinDijkstra, const lab04::CsrGraph&, lab04::DijkstraOptions>(
      "lab04::ExtractMinDijkstra");
  registry.method("lab04::ExtractMinDijkstra::run", &lab04::ExtractMinDijkstra::run);
}

#else

namespace lab04 {

struct ArgMinReduction::Impl {
  sssp::rpc::Remote remote;
};

ArgMinReduction::ArgMinReduction(std::span<const dist_t> keys, ReduceOptions options)
    : impl_(std::make_unique<Impl>(Impl{sssp::rpc::Remote::make<const std::vector<dist_t>&, ReduceOptions>(
          "lab04::ArgMinReduction", std::vector<dist_t>(keys.begin(), keys.end()), options)})) {}

ArgMinReduction::~ArgMinReduction() = default;

ReductionResult ArgMinReduction::run(Stage stage) {
  return impl_->remote.call(&ArgMinReduction::run, "lab04::ArgMinReduction::run", stage);
}

ReductionResult ArgMinReduction::run_cub() {
  return impl_->remote.call(&ArgMinReduction::run_cub, "lab04::ArgMinReduction::run_cub");
}

struct ExtractMinDijkstra::Impl {
  sssp::rpc::Remote remote;
};

ExtractMinDijkstra::ExtractMinDijkstra(const CsrGraph& graph, DijkstraOptions options)
    : impl_(std::make_unique<Impl>(Impl{
          sssp::rpc::Remote::make<const CsrGraph&, DijkstraOptions>("lab04::ExtractMinDijkstra", graph, options)})) {}

ExtractMinDijkstra::~ExtractMinDijkstra() = default;

SsspResult ExtractMinDijkstra::run(vertex_t source) {
  return impl_->remote.call(&ExtractMinDijkstra::run, "lab04::ExtractMinDijkstra::run", source);
}

}  // namespace lab04

#endif
