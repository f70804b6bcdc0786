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
  // BEGIN SOLUTION task 1: build the column-major, padded ELL matrix
  // The width is the longest row, the largest in-degree.
  for (vertex_t i = 0; i < ell.rows; ++i) ell.width = std::max(ell.width, in_arcs.out_degree(i));
  if (ell.slots() > max_slots) {
    throw sssp::InputError("ELL of " + in_arcs.name + ": " + std::to_string(ell.rows) + " rows of width " +
                           std::to_string(ell.width) + " (the largest in-degree) need " + std::to_string(ell.slots()) +
                           " slots for " + std::to_string(ell.arcs) + " arcs, more than the limit of " +
                           std::to_string(max_slots) +
                           "; one long row pads every row to its length: use a CSR format (or a hybrid "
                           "ELL/COO) for a graph with hubs");
  }
  // Every slot starts as padding; each row's arcs then fill its first slots,
  // in CSR order. Slot k of row i is at k * rows + i (column-major).
  ell.cols.assign(ell.slots(), kPadding);
  ell.weights.assign(ell.slots(), kPaddingWeight);
  for (vertex_t i = 0; i < ell.rows; ++i) {
    const edge_t begin = in_arcs.offsets[i];
    for (edge_t k = 0; k < in_arcs.out_degree(i); ++k) {
      ell.cols[ell.slot(i, k)] = in_arcs.targets[begin + k];
      ell.weights[ell.slot(i, k)] = in_arcs.weights[begin + k];
    }
  }
  // SKELETON
  // // TODO(task 1): the contract of build_ell() and EllMatrix in lab06.hpp:
  // // the width, the refusal (before any memory is allocated for the slots),
  // // and every row's arcs in order in its first slots, padding after them.
  // SSSP_TODO(6, 1, "build the column-major, padded ELL matrix");
  // END SOLUTION
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
