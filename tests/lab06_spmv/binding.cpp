// Lab 06's API across the worker boundary (tests/grader/runtime/rpc/api.hpp): the
// worker serves the student's formats and solver; the graded tests call them
// here. formats.cpp holds task 1, so its given functions are served too.
#include <set>
#include <string>
#include <string_view>

#include "lab06.hpp"
#include "rpc/api.hpp"

namespace lab06 {

inline auto rpc_fields(EllMatrix& m) { return std::tie(m.rows, m.width, m.arcs, m.cols, m.weights); }
inline auto rpc_fields(SpmvOptions& o) { return std::tie(o.block_size, o.rounds_per_check, o.max_ell_slots); }

/// build_ell is overloaded: each overload by its own type.
using BuildEll = EllMatrix (*)(const CsrGraph&);
using BuildEllWithLimit = EllMatrix (*)(const CsrGraph&, std::uint64_t);

/// A std::string_view cannot cross: format_name's text crosses as a string.
struct FormatNameAccess {
  static std::string name(Format format) { return std::string(format_name(format)); }
};

}  // namespace lab06

#if SSSP_RPC_WORKER

void sssp::rpc::register_lab(Registry& registry) {
  using lab06::SpmvBellmanFord;
  registry.function("lab06::incoming_csr", &lab06::incoming_csr);
  registry.function("lab06::default_ell_slot_limit", &lab06::default_ell_slot_limit);
  registry.function("lab06::build_ell", static_cast<lab06::BuildEll>(&lab06::build_ell));
  registry.function("lab06::build_ell(max_slots)", static_cast<lab06::BuildEllWithLimit>(&lab06::build_ell));
  registry.function("lab06::format_name", &lab06::FormatNameAccess::name);
  registry.function("lab06::copy_bandwidth_gbs", &lab06::copy_bandwidth_gbs);
  registry.constructor<SpmvBellmanFord, const lab06::CsrGraph&, lab06::Format, lab06::SpmvOptions>(
      "lab06::SpmvBellmanFord");
  registry.method("lab06::SpmvBellmanFord::run", &SpmvBellmanFord::run);
  registry.method("lab06::SpmvBellmanFord::format", &SpmvBellmanFord::format);
  registry.method("lab06::SpmvBellmanFord::sweep_bytes", &SpmvBellmanFord::sweep_bytes);
  registry.method("lab06::SpmvBellmanFord::median_sweep_ms", &SpmvBellmanFord::median_sweep_ms);
}

#else

namespace lab06 {

CsrGraph incoming_csr(const CsrGraph& graph) { return sssp::rpc::call(&incoming_csr, "lab06::incoming_csr", graph); }

std::uint64_t default_ell_slot_limit(std::uint64_t arcs) {
  return sssp::rpc::call(&default_ell_slot_limit, "lab06::default_ell_slot_limit", arcs);
}

EllMatrix build_ell(const CsrGraph& in_arcs) {
  return sssp::rpc::call(static_cast<BuildEll>(&build_ell), "lab06::build_ell", in_arcs);
}

EllMatrix build_ell(const CsrGraph& in_arcs, std::uint64_t max_slots) {
  return sssp::rpc::call(static_cast<BuildEllWithLimit>(&build_ell), "lab06::build_ell(max_slots)", in_arcs, max_slots);
}

std::string_view format_name(Format format) {
  // Each name is kept for the rest of the program, as the worker's literals are.
  static std::set<std::string, std::less<> > names;
  return *names.insert(sssp::rpc::call(&FormatNameAccess::name, "lab06::format_name", format)).first;
}

double copy_bandwidth_gbs(std::uint64_t bytes, unsigned repeats, bool cold_l2) {
  return sssp::rpc::call(&copy_bandwidth_gbs, "lab06::copy_bandwidth_gbs", bytes, repeats, cold_l2);
}

struct SpmvBellmanFord::Impl {
  sssp::rpc::Remote remote;
};

SpmvBellmanFord::SpmvBellmanFord(const CsrGraph& graph, Format format, SpmvOptions options)
    : impl_(std::make_unique<Impl>(Impl{sssp::rpc::Remote::make<const CsrGraph&, Format, SpmvOptions>(
          "lab06::SpmvBellmanFord", graph, format, options)})) {}

SpmvBellmanFord::~SpmvBellmanFord() = default;

SsspResult SpmvBellmanFord::run(vertex_t source) {
  return impl_->remote.call(&SpmvBellmanFord::run, "lab06::SpmvBellmanFord::run", source);
}

Format SpmvBellmanFord::format() const {
  return impl_->remote.call(&SpmvBellmanFord::format, "lab06::SpmvBellmanFord::format");
}

std::uint64_t SpmvBellmanFord::sweep_bytes() const {
  return impl_->remote.call(&SpmvBellmanFord::sweep_bytes, "lab06::SpmvBellmanFord::sweep_bytes");
}

double SpmvBellmanFord::median_sweep_ms(vertex_t source, unsigned repeats, bool cold_l2) {
  return impl_->remote.call(&SpmvBellmanFord::median_sweep_ms, "lab06::SpmvBellmanFord::median_sweep_ms", source,
                            repeats, cold_l2);
}

}  // namespace lab06

#endif
