// Lab 03's API across the worker boundary (tests/grader/runtime/rpc/api.hpp): the
// worker holds the student's solvers; the graded tests call them here.
#include "lab03.hpp"
#include "rpc/api.hpp"

namespace lab03 {

/// Options cross as their one field.
inline auto rpc_fields(Options& o) { return std::tie(o.block_size); }

}  // namespace lab03

#if SSSP_RPC_WORKER

void sssp::rpc::register_lab(Registry& registry) {
  registry.constructor<lab03::EdgeBfs, const lab03::CsrGraph&, lab03::Options>("lab03::EdgeBfs");
  registry.method("lab03::EdgeBfs::run", &lab03::EdgeBfs::run);
  registry.constructor<lab03::EdgeDijkstra, const lab03::CsrGraph&, lab03::Options>("lab03::EdgeDijkstra");
  registry.method("lab03::EdgeDijkstra::run", &lab03::EdgeDijkstra::run);
}

#else

namespace lab03 {

struct EdgeBfs::Impl {
  sssp::rpc::Remote remote;
};

EdgeBfs::EdgeBfs(const CsrGraph& graph, Options options)
    : impl_(std::make_unique<Impl>(
          Impl{sssp::rpc::Remote::make<const CsrGraph&, Options>("lab03::EdgeBfs", graph, options)})) {}

EdgeBfs::~EdgeBfs() = default;

BfsResult EdgeBfs::run(vertex_t source) { return impl_->remote.call(&EdgeBfs::run, "lab03::EdgeBfs::run", source); }

struct EdgeDijkstra::Impl {
  sssp::rpc::Remote remote;
};

EdgeDijkstra::EdgeDijkstra(const CsrGraph& graph, Options options)
    : impl_(std::make_unique<Impl>(
          Impl{sssp::rpc::Remote::make<const CsrGraph&, Options>("lab03::EdgeDijkstra", graph, options)})) {}

EdgeDijkstra::~EdgeDijkstra() = default;

SsspResult EdgeDijkstra::run(vertex_t source) {
  return impl_->remote.call(&EdgeDijkstra::run, "lab03::EdgeDijkstra::run", source);
}

}  // namespace lab03

#endif
