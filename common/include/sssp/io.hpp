/// @file
/// @brief Graph readers (DIMACS, PACE, SNAP, Matrix Market; plain or gzip)
/// and the binary CSR cache.
///
/// Every reader validates as it goes and throws InputError with
/// "file:line: what is wrong" on malformed input. No input can make a reader
/// allocate or work in proportion to a size it was only told:
/// - storage grows with the data actually read, and declared counts are
///   checked against ReadOptions' limits before anything is sized from them;
/// - a header may declare at most one vertex per byte of its data lines plus
///   ReadOptions::max_extra_vertices (vertices without arcs take no bytes in a
///   file but memory in every algorithm);
/// - an input may hold at most 16 MiB of comments, blank lines and padding plus
///   256 bytes per data line, so a small gzip file of blank lines is refused
///   after 16 MiB instead of being inflated to its end.
///
/// Text is ASCII or UTF-8 (a leading byte order mark is dropped) with LF or
/// CRLF line endings; lines are at most 1 MiB.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>

#include "sssp/graph.hpp"
#include "sssp/weights.hpp"

namespace sssp {

/// Input formats the readers understand.
enum class GraphFormat {
  /// Decide from the first line that is not blank or a `c` comment: `p sp`,
  /// `p tw`, a Matrix Market banner, or SNAP otherwise. A name ending in
  /// `.gr` or `.mtx` (before `.gz`) requires the header of its format, and `c`
  /// comments require a `p` header, so a file that lost its header is an
  /// error, never read as another format.
  kAuto,
  kDimacs,        ///< 9th DIMACS shortest path: `p sp N M`, `a u v w` (1-based, directed).
  kPace,          ///< PACE 2016 road topology: `p tw N M`, `u v` (1-based, undirected).
  kSnap,          ///< SNAP edge list: `#` comments, `u v` per line (any ids, directed).
  kMatrixMarket,  ///< Matrix Market coordinate: integer/real/pattern, general/symmetric.
};

/// The most vertices a graph file may declare by default (ReadOptions::max_vertices)
/// and the most a generator spec may ask for: 2^28 vertices already take
/// gigabytes in every algorithm's per-vertex arrays.
inline constexpr std::uint64_t kDefaultMaxVertices = std::uint64_t{1} << 28;

/// The default of ReadOptions::max_inflation. Graph text inflates 3 to 10
/// times from gzip (road graphs about 4, SNAP lists about 4); gzip's largest
/// ratio, about 1000, is what costs a reader minutes and gigabytes: a 1 MB
/// gzip of `0 1` lines holds 268M arcs.
inline constexpr std::uint64_t kDefaultMaxInflation = 64;

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
  std::uint64_t max_vertices = kDefaultMaxVertices;
  /// Refuse inputs with more arcs than this.
  std::uint64_t max_edges = std::uint64_t{1} << 31;
  /// A header (DIMACS, PACE, Matrix Market) may declare at most one vertex per
  /// byte of the input's data lines plus this many. Real files are far inside
  /// that (a road graph has 20 to 60 bytes per vertex); raise it for a file
  /// that really declares many vertices without arcs.
  std::uint64_t max_extra_vertices = std::uint64_t{1} << 20;
  /// gzip input may inflate to at most this many bytes per compressed byte
  /// read so far, or 1 MiB if that is more (small files of any ratio pass):
  /// a bomb is refused after megabytes, not after its arcs filled memory.
  /// 0: no bound.
  std::uint64_t max_inflation = kDefaultMaxInflation;
};

/// Reads a graph file, gzip-compressed or not (detected from its bytes, not its
/// name). The file is read once, front to back, so a pipe (`/dev/stdin`) works
/// too. A gzip file may hold several members, as gzip allows; bytes after
/// them that are not another member are an error. Throws InputError on a
/// missing file or malformed content.
[[nodiscard]] EdgeList read_graph(const std::string& path, const ReadOptions& options = {});

/// Parses graph text already in memory (used for embedded graphs and tests).
/// `name` stands in for the file name in messages.
[[nodiscard]] EdgeList parse_graph(const std::string& text, const std::string& name, const ReadOptions& options = {});

/// Writes `graph` as a 9th DIMACS `p sp` file (1-based ids, one `a` line per arc),
/// through a temporary file renamed over `path`.
void write_dimacs(const CsrGraph& graph, const std::string& path);

/// Writes `graph` to `out` as write_dimacs(graph, path) writes a file; the
/// caller checks `out` for errors.
void write_dimacs(const CsrGraph& graph, std::ostream& out);

/// Saves a CSR graph in the course's binary format (a versioned header, then
/// the raw arrays). Loading it back takes about as long as reading the bytes.
void save_binary(const CsrGraph& graph, const std::string& path);

/// Loads a file written by save_binary(). Throws InputError if the file is
/// truncated, of another version, or inconsistent.
[[nodiscard]] CsrGraph load_binary(const std::string& path);

/// Reads `path` as read_graph() would and converts it to CSR, going through a
/// binary cache in `cache_dir` (created if missing). An entry is keyed by the
/// file's name, a 64-bit hash of all of its stored (compressed) bytes and the
/// read options, so an edited file misses the cache even when its size and
/// modification time are unchanged, and a moved or copied file hits it. A hit
/// reads the file once to hash it but does not parse it.
///
/// What is detected: any change of the file's bytes, except with a chance of
/// about 2^-64; a change within one aligned 8-byte word always is, since each
/// word goes through a bijection (splitmix64). The hash is not cryptographic:
/// it guards against accidents, not against someone crafting a collision. An entry is trusted as it
/// is: its own checksum catches a damaged entry, which is rebuilt, but not one replaced on purpose.
///
/// The cache only saves time: when it cannot be used (a pipe or other
/// non-regular input, a directory that cannot be created or written, a name
/// too long) a warning goes to stderr and the graph is read directly. An
/// empty `cache_dir` disables the cache.
[[nodiscard]] CsrGraph load_graph_cached(const std::string& path, const ReadOptions& options,
                                         const std::string& cache_dir);

/// Parses a format name: "auto", "dimacs", "pace", "snap", "mtx".
[[nodiscard]] GraphFormat parse_format(const std::string& name);

}  // namespace sssp
