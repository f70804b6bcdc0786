/// @file
/// @brief Graph readers (DIMACS, PACE, SNAP, Matrix Market; plain or gzip)
/// and the binary CSR cache.
///
/// Every reader validates as it goes and throws InputError with
/// "file:line: what is wrong" on malformed input. None allocates memory in
/// proportion to a size it has only been told about: storage grows with the
/// data actually read, and declared sizes are checked against limits first.
#pragma once

#include <cstdint>
#include <string>

#include "sssp/graph.hpp"
#include "sssp/weights.hpp"

namespace sssp {

/// Input formats the readers understand.
enum class GraphFormat {
  kAuto,         ///< Decide from the file's first meaningful line.
  kDimacs,       ///< 9th DIMACS shortest path: `p sp N M`, `a u v w` (1-based, directed).
  kPace,         ///< PACE 2016 road topology: `p tw N M`, `u v` (1-based, undirected).
  kSnap,         ///< SNAP edge list: `#` comments, `u v` per line (any ids, directed).
  kMatrixMarket, ///< Matrix Market coordinate: integer/real/pattern, general/symmetric.
};

/// Options for read_graph().
struct ReadOptions {
  GraphFormat format = GraphFormat::kAuto;  ///< Input format.
  /// Weights for inputs without them (PACE, SNAP, MM pattern). Weighted
  /// inputs keep their own weights.
  WeightPolicy weights = WeightPolicy::unit();
  /// SNAP only: treat each line as an undirected edge (two arcs).
  bool snap_undirected = false;
  /// Refuse headers that declare more vertices than this (guards against
  /// absurd sizes before any allocation). Raise it for truly huge graphs.
  std::uint64_t max_vertices = std::uint64_t{1} << 28;
  /// Refuse inputs with more arcs than this.
  std::uint64_t max_edges = std::uint64_t{1} << 31;
};

/// Reads a graph file, gzip-compressed or not (detected from its bytes).
/// Throws InputError on a missing file or malformed content.
[[nodiscard]] EdgeList read_graph(const std::string& path, const ReadOptions& options = {});

/// Parses graph text already in memory (used for embedded graphs and tests).
/// `name` stands in for the file name in messages.
[[nodiscard]] EdgeList parse_graph(const std::string& text, const std::string& name,
                                   const ReadOptions& options = {});

/// Writes `graph` as a 9th DIMACS `p sp` file (1-based ids, one `a` line per arc).
void write_dimacs(const CsrGraph& graph, const std::string& path);

/// Saves a CSR graph in the course's binary format (a versioned header, then
/// the raw arrays). Loading it back takes about as long as reading the bytes.
void save_binary(const CsrGraph& graph, const std::string& path);

/// Loads a file written by save_binary(). Throws InputError if the file is
/// truncated, of another version, or inconsistent.
[[nodiscard]] CsrGraph load_binary(const std::string& path);

/// Reads `path` as read_graph() would and converts it to CSR, going through a
/// binary cache in `cache_dir` (created if missing): the cache entry is keyed by
/// the input's absolute path, size, modification time and the read options,
/// so a changed file or policy never returns a stale graph. An empty
/// `cache_dir` disables the cache.
[[nodiscard]] CsrGraph load_graph_cached(const std::string& path, const ReadOptions& options,
                                         const std::string& cache_dir);

/// Parses a format name: "auto", "dimacs", "pace", "snap", "mtx".
[[nodiscard]] GraphFormat parse_format(const std::string& name);

}  // namespace sssp
