/// @file
/// @brief Lab 06 — Bellman-Ford as a min-plus sparse matrix-vector product
/// (Chen, section 6, Listings 1-3 and Table 5): one sweep computes, for every
/// vertex i, d_i = min(d_i, min over in-arcs j -> i of d_j + c_ji), from the
/// incoming-edge CSR (thread per row, or warp per row) or from an ELL matrix.
///
/// A plain C++ header: the runner, the tests and the benchmark include it
/// without nvcc. The host-side formats (formats.cpp) need no GPU; the device
/// state of the solver lives behind a pointer to an implementation.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <string_view>
#include <vector>

#include "sssp/counters.hpp"
#include "sssp/graph.hpp"
#include "sssp/result.hpp"
#include "sssp/types.hpp"

/// Lab 06: min-plus SpMV Bellman-Ford in three sparse formats.
namespace lab06 {

using sssp::Counters;
using sssp::CsrGraph;
using sssp::dist_t;
using sssp::edge_t;
using sssp::SsspResult;
using sssp::vertex_t;
using sssp::weight_t;

// ------------------------------------------------------------ formats --

/// The column an ELL padding slot holds. No vertex has this id (a graph has
/// at most 2^32 - 1 vertices, ids 0 .. 2^32 - 2), so a kernel recognises
/// padding by its column, and must do so before it reads d[column]: the
/// column is far outside the distance array.
inline constexpr vertex_t kPadding = std::numeric_limits<vertex_t>::max();

/// The weight an ELL padding slot holds: the largest weight, so that a slot
/// read by mistake can never offer a distance better than a real arc of the
/// same tail. Kernels skip padding by its column; the weight is belt and braces.
inline constexpr weight_t kPaddingWeight = std::numeric_limits<weight_t>::max();

/// The incoming-edge CSR of `graph`: row i lists the in-arcs j -> i, with
/// `targets` holding the tails j and `weights` the weights c_ji, in the order
/// of `graph`'s CSR (a stable transpose). This is the matrix of the min-plus
/// product, one row per vertex. Given: it is sssp::transpose.
[[nodiscard]] CsrGraph incoming_csr(const CsrGraph& graph);

/// The matrix of the incoming arcs in ELLPACK form: every row padded to the
/// length of the longest, `width`, and stored column-major, so that slot k of
/// row i is at position k * rows + i of `cols` and `weights`. In a kernel with
/// a thread per row, the threads of a warp then read consecutive words at
/// every step k: coalesced loads.
struct EllMatrix {
  vertex_t rows = 0;              ///< One per vertex.
  edge_t width = 0;               ///< Longest row: the largest in-degree.
  std::uint64_t arcs = 0;         ///< Real (non-padding) slots: the number of arcs.
  std::vector<vertex_t> cols;     ///< rows * width tails, column-major; kPadding in padding slots.
  std::vector<weight_t> weights;  ///< rows * width weights, parallel to cols; kPaddingWeight in padding.

  /// Position of slot `k` of row `row` in cols and weights.
  [[nodiscard]] std::uint64_t slot(vertex_t row, edge_t k) const { return static_cast<std::uint64_t>(k) * rows + row; }
  /// Total slots, padding included: rows * width.
  [[nodiscard]] std::uint64_t slots() const { return static_cast<std::uint64_t>(rows) * width; }
};

/// The default limit on the slots of an ELL matrix: 8 per arc, and at least
/// 2^22 (32 MiB of columns and weights) so that small graphs always fit.
/// Road maps need about 4 slots per arc; one hub of in-degree D makes every
/// row D long, and a power-law graph blows far past the limit.
[[nodiscard]] std::uint64_t default_ell_slot_limit(std::uint64_t arcs);

/// Builds the ELL matrix of `in_arcs` (an incoming-edge CSR, see
/// incoming_csr()). Row i holds the in-arcs of i in their CSR order in slots
/// 0 .. in-degree - 1, then padding (kPadding, kPaddingWeight) up to `width`.
/// Throws sssp::InputError, naming the graph, its width and the slots it
/// would need, when rows * width exceeds `max_slots`: a hub row makes every
/// row as long as the hub's, and CSR is the format for such graphs.
[[nodiscard]] EllMatrix build_ell(const CsrGraph& in_arcs, std::uint64_t max_slots);

/// build_ell() with default_ell_slot_limit().
[[nodiscard]] EllMatrix build_ell(const CsrGraph& in_arcs);

// ------------------------------------------------------------- solver --

/// The layouts of the sweep.
enum class Format : int {
  kCsrScalar = 1,  ///< Incoming CSR, one thread per row (Chen's Listing 1).
  kCsrVector = 2,  ///< Incoming CSR, one warp per row, shuffle reduction (Listing 2, corrected).
  kEll = 3,        ///< Column-major padded ELL, one thread per row (Listing 3, corrected).
};

/// Every format, in order.
inline constexpr Format kAllFormats[] = {Format::kCsrScalar, Format::kCsrVector, Format::kEll};

/// A short name of `format`: "csr-scalar", "csr-vector" or "ell".
[[nodiscard]] std::string_view format_name(Format format);

/// Launch configuration and host loop of the solver.
struct SpmvOptions {
  /// Threads per block, 1 to 1024; a multiple of 32 for kCsrVector, which
  /// gives every row a whole warp.
  unsigned block_size = 256;
  /// Sweeps launched between two looks at the change word. The sweeps after
  /// convergence change nothing, so looking less often saves host round trips
  /// at the price of at most rounds_per_check - 1 wasted sweeps.
  unsigned rounds_per_check = 8;
  /// Largest ELL matrix (rows * width slots) the constructor builds for kEll;
  /// 0 means default_ell_slot_limit(arcs).
  std::uint64_t max_ell_slots = 0;
};

/// Throws sssp::InputError naming the first option outside the range its
/// comment above states for `format`. The constructor calls it first; the
/// runner calls it before it loads a graph, so a bad flag fails at once.
void validate(Format format, const SpmvOptions& options);

/// Bellman-Ford by Jacobi sweeps: round r computes d^(r) from d^(r-1) into
/// the other of two buffers, d^(r)_i = min(d^(r-1)_i, min_j d^(r-1)_j + c_ji),
/// so d^(r) holds the shortest distances over paths of at most r arcs. The
/// run ends at the first round that changes nothing. The result is
/// deterministic: the same rounds and the same counters on every run.
class SpmvBellmanFord {
 public:
  /// Builds the format from `graph` on the host (the ELL for kEll, which can
  /// throw sssp::InputError when it would be too large), uploads it and
  /// allocates the two distance buffers. Throws sssp::InputError for an
  /// illegal block size or rounds_per_check of 0, sssp::CudaError without a GPU.
  SpmvBellmanFord(const CsrGraph& graph, Format format, SpmvOptions options = {});
  ~SpmvBellmanFord();
  SpmvBellmanFord(const SpmvBellmanFord&) = delete;
  SpmvBellmanFord& operator=(const SpmvBellmanFord&) = delete;

  /// Distances from `source` (sssp::kInfinity where unreachable). Throws
  /// sssp::InvalidSource for a bad source. Counters: iterations = sweeps
  /// launched (the wasted ones after convergence included), kernel_launches =
  /// sweeps + 1 (initialisation), host_syncs = looks at the change word,
  /// edges_relaxed = arcs read by the sweeps (iterations * arcs). device_ms:
  /// from initialisation to the last look at the change word, the round trips
  /// included.
  [[nodiscard]] SsspResult run(vertex_t source);

  /// The format this solver sweeps.
  [[nodiscard]] Format format() const;

  /// Bytes one sweep must move at the least, each array element once:
  /// CSR: 4 (n + 1) offsets + 8 m tails and weights + 8 n reading d_src
  /// + 8 n writing d_dst; ELL: 8 m real slots + 4 per row shorter than the
  /// width (the padding column that ends it) + 16 n.
  [[nodiscard]] std::uint64_t sweep_bytes() const;

  /// Times sweeps from the first vector of a run from `source` (a sweep
  /// loads every element whatever the distances, so any round moves the same
  /// bytes), after 3 untimed ones, by CUDA events; returns the median of `repeats` samples in
  /// milliseconds. Warm (the default): each sample is the mean of 10
  /// back-to-back sweeps, which find in L2 whatever the previous sweep left
  /// there, as the sweeps of a run do. Cold (`cold_l2`): each sample is one
  /// sweep after a write of twice the L2 size has evicted the cache, so every
  /// byte comes from device memory.
  [[nodiscard]] double median_sweep_ms(vertex_t source, unsigned repeats, bool cold_l2 = false);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// Device-to-device copy bandwidth: the median of `repeats` cudaMemcpy of
/// `bytes` bytes between two device buffers, counted as 2 * bytes (read and
/// write) per copy, in GB/s (10^9 bytes per second). The roofline a
/// memory-bound sweep is measured against. With `cold_l2`, the L2 cache is
/// evicted before every copy, as median_sweep_ms() does.
[[nodiscard]] double copy_bandwidth_gbs(std::uint64_t bytes, unsigned repeats = 20, bool cold_l2 = false);

}  // namespace lab06
