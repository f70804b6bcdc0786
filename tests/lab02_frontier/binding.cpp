// Lab 02's API across the worker boundary (tests/grader/runtime/rpc/api.hpp): the
// worker holds the student's solvers; the graded tests call them here.
#include "lab02.hpp"
#include "rpc/api.hpp"

namespace lab02 {

/// Options cross as their one field.
inline auto rpc_fields(Options& o) { return std::tie(o.block_size); }

}  // namespace lab02

#if SSSP_RPC_WORKER

void sssp::rpc::register_lab(Registry& registry) {
  registry.constructor<lab02::FrontierSssp, const lab02::CsrGraph&, lab02::Options>("lab02::FrontierSssp");
  registry.method("lab02::FrontierSssp::run", &lab02::FrontierSssp::run);
  registry.constructor<lab02::FrontierBfs, const lab02::CsrGraph&, lab02::Options>("lab02::FrontierBfs");
  registry.method("lab02::FrontierBfs::run", &lab02::FrontierBfs::run);
}

#else

namespace lab02 {

struct FrontierSssp::Impl {
  sssp::rpc::Remote remote;
};

FrontierSssp::FrontierSssp(const CsrGraph& graph, Options options)
    : impl_(std::make_unique<Impl>(
          Impl{sssp::rpc::Remote::make<const CsrGraph&, Options>("lab02::FrontierSssp", graph, options)})) {}

FrontierSssp::~FrontierSssp() = default;

SsspResult FrontierSssp::run(vertex_t source) {
  return impl_->remote.call(&FrontierSssp::run, "lab02::FrontierSssp::run", source);
}

struct FrontierBfs::Impl {
  sssp::rpc::Remote remote;
};

FrontierBfs::FrontierBfs(const CsrGraph& graph, Options options)
    : impl_(std::make_unique<Impl>(
          Impl{sssp::rpc::Remote::make<const CsrGraph&, Options>("lab02::FrontierBfs", graph, options)})) {}

FrontierBfs::~FrontierBfs() = default;

BfsResult FrontierBfs::run(vertex_t source) {
  return impl_->remote.call(&FrontierBfs::run, "lab02::FrontierBfs::run", source);
}

}  // namespace lab02

#endif
