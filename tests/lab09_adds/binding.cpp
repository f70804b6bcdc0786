// Lab 09's API across the worker boundary (tests/grader/runtime/rpc/api.hpp): the
// worker serves the student's policy (bucket_of and next_delta, the host
// versions of policy.cuh), the queue harness (tasks 2 and 3 alone), the
// checkpoints (tasks 4, 6, 7, 8 and 9 alone) and the solver; the graded tests call them here.
#include <vector>

#include "lab09.hpp"
#include "lab09_testing.hpp"
#include "rpc/api.hpp"

namespace lab09 {

inline auto rpc_fields(DeltaSignal& s) { return std::tie(s.delta, s.utilisation, s.tail_share, s.repeat_share); }
inline auto rpc_fields(DeltaBounds& b) {
  return std::tie(b.min_delta, b.max_delta, b.low_utilisation, b.high_utilisation, b.max_repeat_share, b.tail_majority);
}
inline auto rpc_fields(AddsOptions& o) {
  return std::tie(o.delta, o.c, o.buckets, o.max_open, o.local_items, o.dynamic_delta, o.pool_pages, o.workers,
                  o.watchdog_ms);
}
inline auto rpc_fields(TraceEntry& e) { return std::tie(e.pass, e.signal, e.delta, e.items_held, e.buckets_open); }
inline auto rpc_fields(QueueHarnessOptions& o) {
  return std::tie(o.scenario, o.writer_blocks, o.rounds, o.buckets, o.seed, o.jitter_ns, o.read, o.resv, o.mapped_end,
                  o.segment_counts, o.timeout_ms);
}
inline auto rpc_fields(QueueTrace& t) {
  return std::tie(t.capacity, t.resv, t.read_end, t.slots, t.read_items, t.counts, t.scan_bucket, t.scan_from,
                  t.scan_end, t.scan_resv, t.scans, t.timed_out);
}
inline auto rpc_fields(ChunkEndState& s) {
  return std::tie(s.threads, s.local_items, s.pushed, s.workers, s.id, s.bucket, s.start, s.count, s.page, s.cwc,
                  s.page_done, s.idle_map);
}
inline auto rpc_fields(ChunkEndCheckpoint& c) {
  return std::tie(c.local, c.cwc, c.page_done, c.idle_map, c.words_before, c.words, c.expansions, c.repeats,
                  c.local_expansions, c.arcs);
}
inline auto rpc_fields(RelaxState& s) { return std::tie(s.dist, s.targets, s.offers, s.local_bucket, s.local_items); }
inline auto rpc_fields(RelaxCheckpoint& c) { return std::tie(c.dist, c.kept, c.published, c.published_bucket); }
inline auto rpc_fields(HeadState& s) {
  return std::tie(s.resv, s.read, s.cwc, s.head, s.head_lo, s.delta, s.switches, s.dynamic_delta, s.decisions);
}
inline auto rpc_fields(HeadDecision& d) { return std::tie(d.lanes, d.head, d.head_lo, d.delta, d.switches); }
inline auto rpc_fields(HeadCheckpoint& c) { return std::tie(c.head, c.head_lo, c.delta, c.switches, c.decisions); }
inline auto rpc_fields(HandOutState& s) {
  return std::tie(s.workers, s.idle_map, s.head, s.max_open, s.read, s.readable, s.resv, s.mapped);
}
inline auto rpc_fields(HandOutCheckpoint& c) {
  return std::tie(c.plan_idle, c.plan_used, c.plan_open_used, c.read, c.freed, c.mapped, c.idle_map, c.words_before,
                  c.words, c.held_before, c.held, c.inflight, c.scans, c.partial_scans, c.scans_with_wrong_bounds,
                  c.wrong_bucket, c.wrong_mapped, c.wrong_resv);
}
inline auto rpc_fields(SignalState& s) {
  return std::tie(s.resv, s.read, s.head, s.buckets_used, s.delta, s.held_total, s.workers, s.average_degree,
                  s.seen_expansions, s.seen_repeats, s.expansions, s.repeats);
}
inline auto rpc_fields(SignalCheckpoint& c) { return std::tie(c.first, c.second, c.seen_expansions, c.seen_repeats); }
inline auto rpc_fields(AddsStats& s) {
  return std::tie(s.passes, s.head_switches, s.expansions, s.repeats, s.local_expansions, s.published, s.final_delta);
}

}  // namespace lab09

#if SSSP_RPC_WORKER

void sssp::rpc::register_lab(Registry& registry) {
  using lab09::AddsSssp;
  registry.function("lab09::bucket_of", &lab09::bucket_of);
  registry.function("lab09::next_delta", &lab09::next_delta);
  registry.function("lab09::run_queue_harness", &lab09::run_queue_harness);
  registry.function("lab09::checkpoint_relax_and_route", &lab09::checkpoint_relax_and_route);
  registry.function("lab09::checkpoint_chunk_end", &lab09::checkpoint_chunk_end);
  registry.function("lab09::checkpoint_retire_head", &lab09::checkpoint_retire_head);
  registry.function("lab09::checkpoint_hand_out", &lab09::checkpoint_hand_out);
  registry.function("lab09::checkpoint_delta_signal", &lab09::checkpoint_delta_signal);
  registry.constructor<AddsSssp, const lab09::CsrGraph&, lab09::AddsOptions>("lab09::AddsSssp");
  registry.method("lab09::AddsSssp::run", &AddsSssp::run);
  registry.method("lab09::AddsSssp::delta", &AddsSssp::delta);
  registry.method("lab09::AddsSssp::last_trace", &AddsSssp::last_trace);
  registry.method("lab09::AddsSssp::last_stats", &AddsSssp::last_stats);
  registry.method("lab09::AddsSssp::delta_bounds", &AddsSssp::delta_bounds);
  registry.method("lab09::AddsSssp::workers", &AddsSssp::workers);
}

#else

namespace lab09 {

unsigned bucket_of(dist_t offer, dist_t head_lo, dist_t delta, unsigned head, unsigned buckets) {
  return sssp::rpc::call(&bucket_of, "lab09::bucket_of", offer, head_lo, delta, head, buckets);
}

dist_t next_delta(const DeltaSignal& signal, const DeltaBounds& bounds) {
  return sssp::rpc::call(&next_delta, "lab09::next_delta", signal, bounds);
}

QueueTrace run_queue_harness(const QueueHarnessOptions& options) {
  return sssp::rpc::call(&run_queue_harness, "lab09::run_queue_harness", options);
}

RelaxCheckpoint checkpoint_relax_and_route(const RelaxState& state) {
  return sssp::rpc::call(&checkpoint_relax_and_route, "lab09::checkpoint_relax_and_route", state);
}

ChunkEndCheckpoint checkpoint_chunk_end(const ChunkEndState& state) {
  return sssp::rpc::call(&checkpoint_chunk_end, "lab09::checkpoint_chunk_end", state);
}

HeadCheckpoint checkpoint_retire_head(const HeadState& state) {
  return sssp::rpc::call(&checkpoint_retire_head, "lab09::checkpoint_retire_head", state);
}

HandOutCheckpoint checkpoint_hand_out(const HandOutState& state) {
  return sssp::rpc::call(&checkpoint_hand_out, "lab09::checkpoint_hand_out", state);
}

SignalCheckpoint checkpoint_delta_signal(const SignalState& state) {
  return sssp::rpc::call(&checkpoint_delta_signal, "lab09::checkpoint_delta_signal", state);
}

struct AddsSssp::Impl {
  sssp::rpc::Remote remote;
};

AddsSssp::AddsSssp(const CsrGraph& graph, AddsOptions options)
    : impl_(std::make_unique<Impl>(
          Impl{sssp::rpc::Remote::make<const CsrGraph&, AddsOptions>("lab09::AddsSssp", graph, options)})) {}

AddsSssp::~AddsSssp() = default;

SsspResult AddsSssp::run(vertex_t source) { return impl_->remote.call(&AddsSssp::run, "lab09::AddsSssp::run", source); }

dist_t AddsSssp::delta() const { return impl_->remote.call(&AddsSssp::delta, "lab09::AddsSssp::delta"); }

std::vector<TraceEntry> AddsSssp::last_trace() const {
  return impl_->remote.call(&AddsSssp::last_trace, "lab09::AddsSssp::last_trace");
}

AddsStats AddsSssp::last_stats() const {
  return impl_->remote.call(&AddsSssp::last_stats, "lab09::AddsSssp::last_stats");
}

DeltaBounds AddsSssp::delta_bounds() const {
  return impl_->remote.call(&AddsSssp::delta_bounds, "lab09::AddsSssp::delta_bounds");
}

unsigned AddsSssp::workers() const { return impl_->remote.call(&AddsSssp::workers, "lab09::AddsSssp::workers"); }

}  // namespace lab09

#endif
