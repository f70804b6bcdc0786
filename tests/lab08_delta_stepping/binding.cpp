// Lab 08's API across the worker boundary (tests/grader/runtime/rpc/api.hpp): the
// worker serves the student's delta rules and solvers; the graded tests call
// them here. delta.cpp holds task 1, so its given to_string is served too.
// The checkpoints (checkpoints.cu) return what one task's device function
// wrote; the tests judge it.
#include <string>
#include <vector>

#include "lab08.hpp"
#include "lab08_testing.hpp"
#include "rpc/api.hpp"

namespace lab08 {

inline auto rpc_fields(DeltaSteppingOptions& o) { return std::tie(o.block_size, o.delta, o.rule); }
inline auto rpc_fields(NearFarOptions& o) {
  return std::tie(o.block_size, o.delta, o.c, o.lanes_per_item, o.rounds_per_check);
}
inline auto rpc_fields(TakeBucketCheckpoint& c) { return std::tie(c.requests, c.taken, c.bindex, c.taken_stamp); }
inline auto rpc_fields(RelaxCheckpoint& c) { return std::tie(c.dist, c.bindex, c.offered); }
inline auto rpc_fields(OfferCheckpoint& c) { return std::tie(c.dist, c.near, c.far, c.overflow); }
inline auto rpc_fields(SplitCheckpoint& c) { return std::tie(c.near, c.far, c.in_far, c.far_min); }
inline auto rpc_fields(LoopCopy& c) { return std::tie(c.threshold, c.far_min, c.split, c.near_count, c.far_count); }
inline auto rpc_fields(LoopState& s) { return std::tie(s.copies, s.near_rounds, s.splits, s.done_launch); }
inline auto rpc_fields(ShareCheckpoint& c) {
  return std::tie(c.calls, c.tail_wrong, c.beyond_the_arcs, c.per_thread, c.returned);
}
inline auto rpc_fields(StepCheckpoint& c) {
  return std::tie(c.near_round, c.split, c.near_items, c.far_items, c.near_in, c.near_out, c.near_out_count, c.far_in,
                  c.far_now, c.far_now_count, c.far_next, c.far_next_count, c.number, c.threshold);
}

}  // namespace lab08

#if SSSP_RPC_WORKER

void sssp::rpc::register_lab(Registry& registry) {
  using lab08::DeltaSteppingSssp;
  using lab08::NearFarSssp;
  registry.function("lab08::to_string", &lab08::to_string);
  registry.function("lab08::choose_delta", &lab08::choose_delta);
  registry.constructor<DeltaSteppingSssp, const lab08::CsrGraph&, lab08::DeltaSteppingOptions>(
      "lab08::DeltaSteppingSssp");
  registry.method("lab08::DeltaSteppingSssp::run", &DeltaSteppingSssp::run);
  registry.method("lab08::DeltaSteppingSssp::delta", &DeltaSteppingSssp::delta);
  registry.constructor<NearFarSssp, const lab08::CsrGraph&, lab08::NearFarOptions>("lab08::NearFarSssp");
  registry.method("lab08::NearFarSssp::run", &NearFarSssp::run);
  registry.method("lab08::NearFarSssp::delta", &NearFarSssp::delta);
  registry.method("lab08::NearFarSssp::last_splits", &NearFarSssp::last_splits);
  registry.function("lab08::checkpoint_take_bucket", &lab08::checkpoint_take_bucket);
  registry.function("lab08::checkpoint_relax_requests", &lab08::checkpoint_relax_requests);
  registry.function("lab08::checkpoint_offer", &lab08::checkpoint_offer);
  registry.function("lab08::checkpoint_split", &lab08::checkpoint_split);
  registry.function("lab08::checkpoint_next_launch", &lab08::checkpoint_next_launch);
  registry.function("lab08::checkpoint_offer_share", &lab08::checkpoint_offer_share);
  registry.function("lab08::checkpoint_decide_step", &lab08::checkpoint_decide_step);
}

#else

namespace lab08 {

std::string to_string(DeltaRule rule) { return sssp::rpc::call(&to_string, "lab08::to_string", rule); }

dist_t choose_delta(const CsrGraph& graph, DeltaRule rule, double c) {
  return sssp::rpc::call(&choose_delta, "lab08::choose_delta", graph, rule, c);
}

struct DeltaSteppingSssp::Impl {
  sssp::rpc::Remote remote;
};

DeltaSteppingSssp::DeltaSteppingSssp(const CsrGraph& graph, DeltaSteppingOptions options)
    : impl_(std::make_unique<Impl>(Impl{sssp::rpc::Remote::make<const CsrGraph&, DeltaSteppingOptions>(
          "lab08::DeltaSteppingSssp", graph, options)})) {}

DeltaSteppingSssp::~DeltaSteppingSssp() = default;

SsspResult DeltaSteppingSssp::run(vertex_t source) {
  return impl_->remote.call(&DeltaSteppingSssp::run, "lab08::DeltaSteppingSssp::run", source);
}

dist_t DeltaSteppingSssp::delta() const {
  return impl_->remote.call(&DeltaSteppingSssp::delta, "lab08::DeltaSteppingSssp::delta");
}

struct NearFarSssp::Impl {
  sssp::rpc::Remote remote;
};

NearFarSssp::NearFarSssp(const CsrGraph& graph, NearFarOptions options)
    : impl_(std::make_unique<Impl>(
          Impl{sssp::rpc::Remote::make<const CsrGraph&, NearFarOptions>("lab08::NearFarSssp", graph, options)})) {}

NearFarSssp::~NearFarSssp() = default;

SsspResult NearFarSssp::run(vertex_t source) {
  return impl_->remote.call(&NearFarSssp::run, "lab08::NearFarSssp::run", source);
}

dist_t NearFarSssp::delta() const { return impl_->remote.call(&NearFarSssp::delta, "lab08::NearFarSssp::delta"); }

unsigned long long NearFarSssp::last_splits() const {
  return impl_->remote.call(&NearFarSssp::last_splits, "lab08::NearFarSssp::last_splits");
}

TakeBucketCheckpoint checkpoint_take_bucket(const std::vector<bucket_t>& bindex, bucket_t current) {
  return sssp::rpc::call(&checkpoint_take_bucket, "lab08::checkpoint_take_bucket", bindex, current);
}

RelaxCheckpoint checkpoint_relax_requests(const CsrGraph& graph, const std::vector<dist_t>& dist,
                                          const std::vector<bucket_t>& bindex, const std::vector<vertex_t>& requests,
                                          dist_t delta, bool light) {
  return sssp::rpc::call(&checkpoint_relax_requests, "lab08::checkpoint_relax_requests", graph, dist, bindex, requests,
                         delta, light);
}

OfferCheckpoint checkpoint_offer(const CsrGraph& graph, const std::vector<dist_t>& dist,
                                 const std::vector<vertex_t>& near, dist_t threshold,
                                 const std::vector<vertex_t>& already_far) {
  return sssp::rpc::call(&checkpoint_offer, "lab08::checkpoint_offer", graph, dist, near, threshold, already_far);
}

SplitCheckpoint checkpoint_split(const std::vector<dist_t>& dist, const std::vector<vertex_t>& far,
                                 dist_t old_threshold, dist_t threshold) {
  return sssp::rpc::call(&checkpoint_split, "lab08::checkpoint_split", dist, far, old_threshold, threshold);
}

LoopState checkpoint_next_launch(const LoopState& before, unsigned number, dist_t threshold, bool near_round,
                                 bool split) {
  return sssp::rpc::call(&checkpoint_next_launch, "lab08::checkpoint_next_launch", before, number, threshold,
                         near_round, split);
}

ShareCheckpoint checkpoint_offer_share(const CsrGraph& graph, const std::vector<vertex_t>& requests,
                                       std::uint64_t threads) {
  return sssp::rpc::call(&checkpoint_offer_share, "lab08::checkpoint_offer_share", graph, requests, threads);
}

StepCheckpoint checkpoint_decide_step(const LoopState& state, unsigned number, dist_t delta, vertex_t capacity) {
  return sssp::rpc::call(&checkpoint_decide_step, "lab08::checkpoint_decide_step", state, number, delta, capacity);
}

}  // namespace lab08

#endif
