// Lab 06 skeleton, generated from solutions/lab06_spmv/formats.cpp by common/tools/make_skeleton.py.
// This file is yours: replace each SSSP_TODO with your code.
// Lab 06, task 1: the host side of the sparse formats. Everything here is
// plain C++ and runs without a GPU: the incoming-edge CSR (given) and the
// column-major, padded ELL matrix built from it (task 1).
#include <algorithm>
#include <cstdint>
#include <string>

#include "lab06.hpp"
#include "sssp/errors.hpp"
#include "sssp/todo.hpp"

namespace lab06 {

CsrGraph incoming_csr(const CsrGraph& graph) { return sssp::transpose(graph); }

std::uint64_t default_ell_slot_limit(std::uint64_t arcs) {
  return std::max<std::uint64_t>(std::uint64_t{1} << 22, 8 * arcs);
}

EllMatrix build_ell(const CsrGraph& in_arcs) { return build_ell(in_arcs, default_ell_slot_limit(in_arcs.num_edges())); }

EllMatrix build_ell(const CsrGraph& in_arcs, std::uint64_t max_slots) {
  EllMatrix ell;
  ell.rows = in_arcs.num_vertices();
  ell.arcs = in_arcs.num_edges();
  // TODO(task 1): the contract of build_ell() and EllMatrix in lab06.hpp:
  // the width, the refusal (before any memory is allocated for the slots),
  // and every row's arcs in order in its first slots, padding after them.
  SSSP_TODO(6, 1, "build the column-major, padded ELL matrix");
  return ell;
}

std::string_view format_name(Format format) {
  switch (format) {
    case Format::kCsrScalar: return "csr-scalar";
    case Format::kCsrVector: return "csr-vector";
    case Format::kEll: return "ell";
  }
  return "unknown format";
}

}  // namespace lab06
