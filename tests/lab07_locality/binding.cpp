// Lab 07's API across the worker boundary (tests/grader/runtime/rpc/api.hpp): the
// worker serves the student's solver; the graded tests call it here.
#include <vector>

#include "lab07.hpp"
#include "rpc/api.hpp"

namespace lab07 {

inline auto rpc_fields(Options& o) {
  return std::tie(o.block_size, o.depth, o.vertices_per_thread, o.blind_launches, o.cuda_graph, o.tune);
}
inline auto rpc_fields(WaveResult& r) { return std::tie(r.dist, r.next_flags, r.expanded, r.arcs, r.flagged); }
inline auto rpc_fields(FlagLaunchResult& r) {
  return std::tie(r.flags, r.started_by, r.starts, r.expanded, r.arcs, r.flagged);
}
inline auto rpc_fields(DriverScript& s) { return std::tie(s.needed, s.first_batch, s.batches, s.cuda_graph); }
inline auto rpc_fields(DriverTrace& t) {
  return std::tie(t.launches, t.graph_calls, t.graph_count, t.look_after, t.asked_queued, t.asked_last, t.iterations,
                  t.kernel_launches, t.host_syncs, t.returned, t.runaway);
}
inline auto rpc_fields(GraphTrace& t) {
  return std::tie(t.launch_numbers, t.launch_counts, t.relax_calls, t.captured_calls, t.kernel_launches, t.iterations,
                  t.graph_launches, t.has_graph);
}
inline auto rpc_fields(PolicyTrace& t) { return std::tie(t.first, t.queued, t.looks, t.batches, t.batch_run); }
inline auto rpc_fields(Config& c) { return std::tie(c.depth, c.vertices_per_thread); }
inline auto rpc_fields(TunerScript& s) {
  return std::tie(s.start, s.runs, s.costs, s.change_at, s.later_costs, s.outliers, s.outlier_factor);
}
inline auto rpc_fields(TunerTrace& t) { return std::tie(t.depth, t.vertices_per_thread, t.measured); }

}  // namespace lab07

#if SSSP_RPC_WORKER

void sssp::rpc::register_lab(Registry& registry) {
  using lab07::LocalitySssp;
  registry.function("lab07::validate", &lab07::validate);
  registry.function("lab07::run_one_wave", &lab07::run_one_wave);
  registry.function("lab07::run_one_flag_launch", &lab07::run_one_flag_launch);
  registry.function("lab07::run_launch_driver", &lab07::run_launch_driver);
  registry.function("lab07::run_blind_graph", &lab07::run_blind_graph);
  registry.function("lab07::simulate_policy", &lab07::simulate_policy);
  registry.function("lab07::simulate_tuner", &lab07::simulate_tuner);
  registry.constructor<LocalitySssp, const lab07::CsrGraph&, lab07::Options>("lab07::LocalitySssp");
  registry.method("lab07::LocalitySssp::run", &LocalitySssp::run);
  registry.method("lab07::LocalitySssp::next_blind_launches", &LocalitySssp::next_blind_launches);
  registry.method("lab07::LocalitySssp::next_config", &LocalitySssp::next_config);
}

#else

namespace lab07 {

void validate(const Options& options) { sssp::rpc::call(&validate, "lab07::validate", options); }

WaveResult run_one_wave(const CsrGraph& graph, const std::vector<dist_t>& dist, vertex_t start, unsigned depth) {
  return sssp::rpc::call(&run_one_wave, "lab07::run_one_wave", graph, dist, start, depth);
}

FlagLaunchResult run_one_flag_launch(const std::vector<std::uint8_t>& flags, vertex_t vertices,
                                     unsigned vertices_per_thread, unsigned block_size) {
  return sssp::rpc::call(&run_one_flag_launch, "lab07::run_one_flag_launch", flags, vertices, vertices_per_thread,
                         block_size);
}

DriverTrace run_launch_driver(const DriverScript& script) {
  return sssp::rpc::call(&run_launch_driver, "lab07::run_launch_driver", script);
}

GraphTrace run_blind_graph(const std::vector<unsigned>& counts) {
  return sssp::rpc::call(&run_blind_graph, "lab07::run_blind_graph", counts);
}

PolicyTrace simulate_policy(const std::vector<unsigned>& needed) {
  return sssp::rpc::call(&simulate_policy, "lab07::simulate_policy", needed);
}

TunerTrace simulate_tuner(const TunerScript& script) {
  return sssp::rpc::call(&simulate_tuner, "lab07::simulate_tuner", script);
}

struct LocalitySssp::Impl {
  sssp::rpc::Remote remote;
};

LocalitySssp::LocalitySssp(const CsrGraph& graph, Options options)
    : impl_(std::make_unique<Impl>(
          Impl{sssp::rpc::Remote::make<const CsrGraph&, Options>("lab07::LocalitySssp", graph, options)})) {}

LocalitySssp::~LocalitySssp() = default;

SsspResult LocalitySssp::run(vertex_t source) {
  return impl_->remote.call(&LocalitySssp::run, "lab07::LocalitySssp::run", source);
}

unsigned LocalitySssp::next_blind_launches() const {
  return impl_->remote.call(&LocalitySssp::next_blind_launches, "lab07::LocalitySssp::next_blind_launches");
}

Config LocalitySssp::next_config() const {
  return impl_->remote.call(&LocalitySssp::next_config, "lab07::LocalitySssp::next_config");
}

}  // namespace lab07

#endif
