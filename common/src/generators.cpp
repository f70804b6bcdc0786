// Deterministic generators.
//
// Reproducibility: the only source of randomness is sssp::splitmix64, driven
// as a counter (Rng below), so a (family, sizes, seed) triple gives the same
// bits on every compiler and platform. The standard <random> distributions
// are avoided on purpose: their output is implementation-defined.
//
// Weights: arc number i, counting arcs in the order they are generated, gets
// weights.weight_of(i) -- except where arcs come in natural undirected pairs
// (grid, star), where both arcs of undirected edge k get weight_of(k), as a
// reader does for an undirected file. The chain is a directed path, so its
// arc i is edge i.
//
// Every size is checked against the limits in uint64 arithmetic before any
// vector is allocated; a violation throws InputError.
#include "sssp/generators.hpp"

#include <unistd.h>

#include <array>
#include <charconv>
#include <cstdio>
#include <limits>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sssp/errors.hpp"
#include "sssp/io.hpp"

namespace sssp {

namespace {

// SplitMix64 as a generator: the state advances by the golden-ratio gamma and
// each output is the mix of the state (splitmix64() adds the gamma itself).
// Different streams of one seed start from well-separated states.
class Rng {
 public:
  Rng(std::uint64_t seed, std::uint64_t stream) : state_(seed ^ splitmix64(stream)) {}

  std::uint64_t next() {
    const std::uint64_t x = splitmix64(state_);
    state_ += 0x9E3779B97F4A7C15ULL;
    return x;
  }
  // Uniform in [0, bound), bound > 0. The modulo bias is below bound / 2^64,
  // at most 2^-32 here: invisible in test graphs.
  std::uint64_t below(std::uint64_t bound) { return next() % bound; }
  // Uniform double in [0, 1) from the top 53 bits.
  double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

 private:
  std::uint64_t state_;
};

// Stream ids: one per use, so that e.g. the R-MAT permutation does not reuse
// the numbers that chose its arcs.
constexpr std::uint64_t kStreamRandomArcs = 1;
constexpr std::uint64_t kStreamRmatArcs = 2;
constexpr std::uint64_t kStreamRmatScramble = 3;

// 2^30 vertices already need gigabytes; a larger scale is a typo.
constexpr unsigned kMaxRmatScale = 30;

void require_arcs_fit(std::uint64_t arcs, const std::string& what) {
  if (arcs > kMaxEdges) {
    throw InputError(what + " would have " + std::to_string(arcs) + " arcs, more than the limit of " +
                     std::to_string(kMaxEdges));
  }
}

std::string with_weights(const std::string& what, const WeightPolicy& weights) {
  return what + " (" + weights.to_string() + ")";
}

// This machine's physical memory in bytes; 0 when the system does not say.
std::uint64_t physical_memory_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page_size > 0 ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page_size) : 0;
}

std::string gibibytes(std::uint64_t bytes) {
  std::array<char, 32> text{};
  std::snprintf(text.data(), text.size(), "%.1f GiB", static_cast<double>(bytes) / (1ULL << 30));
  return text.data();
}

// Refuses a graph the machine cannot hold before any of it is allocated: past
// that, the OOM killer ends the program without a word. The vertex cap is the
// readers' (a file could not declare more); the estimate counts the edge list
// and its CSR, alive together while to_csr() builds the CSR, as every user of
// a generated graph does.
void require_fits_in_memory(std::uint64_t vertices, std::uint64_t arcs, const std::string& what) {
  if (vertices > kDefaultMaxVertices) {
    throw InputError(what + " would have " + std::to_string(vertices) + " vertices, more than the limit of " +
                     std::to_string(kDefaultMaxVertices) + " (the graph readers' cap): ask for a smaller graph");
  }
  constexpr std::uint64_t kBytesPerArc = (2 * sizeof(vertex_t) + sizeof(weight_t))    // edge list
                                         + (sizeof(vertex_t) + sizeof(weight_t));     // CSR
  const std::uint64_t bytes = arcs * kBytesPerArc + (vertices + 1) * sizeof(edge_t);  // arcs <= 2^32: no overflow
  const std::uint64_t memory = physical_memory_bytes();
  if (memory > 0 && bytes > memory) {
    throw InputError(what + " (" + std::to_string(vertices) + " vertices, " + std::to_string(arcs) +
                     " arcs) would need about " + gibibytes(bytes) + " for its edge list and CSR, more than the " +
                     gibibytes(memory) + " of physical memory of this machine: ask for a smaller graph");
  }
}

// An edge list with room for `arcs` arcs, named `what` and its weights; call
// only after the limits of edge_t and vertex_t are checked.
EdgeList empty_list(vertex_t num_vertices, std::uint64_t arcs, const std::string& what, const WeightPolicy& weights) {
  require_fits_in_memory(num_vertices, arcs, what);
  EdgeList e;
  e.num_vertices = num_vertices;
  e.name = with_weights(what, weights);
  e.src.reserve(arcs);
  e.dst.reserve(arcs);
  e.weight.reserve(arcs);
  return e;
}

// Shortest decimal form that reads back to the same double; locale-free.
std::string format_double(double x) {
  std::array<char, 32> buf{};
  const auto result = std::to_chars(buf.data(), buf.data() + buf.size(), x);
  return std::string(buf.data(), result.ptr);
}

}  // namespace

EdgeList make_grid(vertex_t rows, vertex_t cols, const WeightPolicy& weights) {
  const std::string what = "grid " + std::to_string(rows) + "x" + std::to_string(cols);
  const std::uint64_t vertices = std::uint64_t{rows} * cols;  // < 2^64: both factors < 2^32
  if (vertices > kMaxVertices) {
    throw InputError(what + " would have " + std::to_string(vertices) + " vertices, more than the limit of " +
                     std::to_string(kMaxVertices));
  }
  // 2 (r (c - 1) + c (r - 1)) arcs; rows, cols >= 1 unless the product is 0.
  const std::uint64_t arcs =
      vertices == 0 ? 0 : 2 * (std::uint64_t{rows} * (cols - 1) + std::uint64_t{cols} * (rows - 1));
  require_arcs_fit(arcs, what);
  EdgeList e = empty_list(static_cast<vertex_t>(vertices), arcs, what, weights);
  std::uint64_t edge = 0;
  for (vertex_t r = 0; r < rows; ++r) {
    for (vertex_t c = 0; c < cols; ++c) {
      const vertex_t v = r * cols + c;  // < rows * cols <= kMaxVertices
      if (c + 1 < cols) {
        const weight_t w = weights.weight_of(edge++);
        e.add_arc(v, v + 1, w);
        e.add_arc(v + 1, v, w);
      }
      if (r + 1 < rows) {
        const weight_t w = weights.weight_of(edge++);
        e.add_arc(v, v + cols, w);
        e.add_arc(v + cols, v, w);
      }
    }
  }
  return e;
}

EdgeList make_uniform_random(vertex_t num_vertices, std::uint64_t num_edges, const WeightPolicy& weights,
                             std::uint64_t seed) {
  const std::string what = "random " + std::to_string(num_vertices) + " vertices " + std::to_string(num_edges) +
                           " arcs seed " + std::to_string(seed);
  require_arcs_fit(num_edges, what);
  if (num_vertices == 0 && num_edges > 0) {
    throw InputError(what + ": arcs need at least one vertex");
  }
  EdgeList e = empty_list(num_vertices, num_edges, what, weights);
  Rng rng(seed, kStreamRandomArcs);
  for (std::uint64_t i = 0; i < num_edges; ++i) {
    const auto u = static_cast<vertex_t>(rng.below(num_vertices));
    const auto v = static_cast<vertex_t>(rng.below(num_vertices));
    e.add_arc(u, v, weights.weight_of(i));
  }
  return e;
}

EdgeList make_rmat(unsigned scale, unsigned edge_factor, const WeightPolicy& weights, std::uint64_t seed,
                   RmatParams params) {
  const std::string what = "rmat scale " + std::to_string(scale) + " edge factor " + std::to_string(edge_factor) +
                           " seed " + std::to_string(seed) + " a/b/c " + format_double(params.a) + "/" +
                           format_double(params.b) + "/" + format_double(params.c);
  // `!(x >= 0)` also rejects NaN. The small slack accepts parameters whose
  // decimal sum is 1 but whose binary sum rounds just above it.
  if (!(params.a >= 0) || !(params.b >= 0) || !(params.c >= 0) || !(params.a + params.b + params.c <= 1 + 1e-9)) {
    throw InputError(what + ": R-MAT probabilities need a, b, c >= 0 and a + b + c <= 1");
  }
  if (scale > kMaxRmatScale) {
    throw InputError(what + ": scale " + std::to_string(scale) + " exceeds the limit of " +
                     std::to_string(kMaxRmatScale));
  }
  const std::uint64_t vertices = std::uint64_t{1} << scale;
  const std::uint64_t arcs = std::uint64_t{edge_factor} * vertices;  // < 2^62: no overflow
  require_arcs_fit(arcs, what);

  EdgeList e = empty_list(static_cast<vertex_t>(vertices), arcs, what, weights);
  // Each arc descends `scale` levels of the adjacency matrix, choosing one
  // quadrant per level: a = (0,0), b = (0,1), c = (1,0), d = (1,1) as
  // (source bit, target bit). Graph500 also jitters a..d slightly per level to
  // smooth the degree histogram; that refinement is left out, as nothing that
  // a test or a timing here depends on changes with it.
  const double ab = params.a + params.b;
  const double abc = ab + params.c;
  Rng rng(seed, kStreamRmatArcs);
  for (std::uint64_t i = 0; i < arcs; ++i) {
    vertex_t u = 0;
    vertex_t v = 0;
    for (unsigned level = 0; level < scale; ++level) {
      const double r = rng.unit();
      const vertex_t bit = vertex_t{1} << level;
      if (r >= abc) {  // d (r < a is quadrant a, which sets neither bit)
        u |= bit;
        v |= bit;
      } else if (r >= ab) {  // c
        u |= bit;
      } else if (r >= params.a) {  // b
        v |= bit;
      }
    }
    e.add_arc(u, v, weights.weight_of(i));
  }
  // Unscrambled, the hubs sit at ids with few one bits (0 is the largest), a
  // locality no real graph has. A seeded Fisher-Yates permutation relabels
  // the vertices; being a bijection, it leaves the degree sequence unchanged.
  std::vector<vertex_t> relabel(vertices);
  for (std::uint64_t v = 0; v < vertices; ++v) relabel[v] = static_cast<vertex_t>(v);
  Rng shuffle(seed, kStreamRmatScramble);
  for (std::uint64_t v = vertices; v > 1; --v) {
    std::swap(relabel[v - 1], relabel[shuffle.below(v)]);
  }
  for (std::uint64_t i = 0; i < arcs; ++i) {
    e.src[i] = relabel[e.src[i]];
    e.dst[i] = relabel[e.dst[i]];
  }
  return e;
}

EdgeList make_chain(vertex_t num_vertices, const WeightPolicy& weights) {
  const std::uint64_t arcs = num_vertices == 0 ? 0 : num_vertices - 1;  // < kMaxEdges
  EdgeList e = empty_list(num_vertices, arcs, "chain " + std::to_string(num_vertices), weights);
  for (std::uint64_t i = 0; i < arcs; ++i) {
    e.add_arc(static_cast<vertex_t>(i), static_cast<vertex_t>(i + 1), weights.weight_of(i));
  }
  return e;
}

EdgeList make_star(vertex_t num_vertices, const WeightPolicy& weights) {
  const std::string what = "star " + std::to_string(num_vertices);
  const std::uint64_t arcs = num_vertices == 0 ? 0 : 2 * (std::uint64_t{num_vertices} - 1);
  require_arcs_fit(arcs, what);
  EdgeList e = empty_list(num_vertices, arcs, what, weights);
  for (vertex_t leaf = 1; leaf < num_vertices; ++leaf) {
    const weight_t w = weights.weight_of(leaf - 1);  // edge leaf - 1 is {0, leaf}
    e.add_arc(0, leaf, w);
    e.add_arc(leaf, 0, w);
  }
  return e;
}

EdgeList make_complete(vertex_t num_vertices, const WeightPolicy& weights) {
  const std::string what = "complete " + std::to_string(num_vertices);
  const std::uint64_t n = num_vertices;
  const std::uint64_t arcs = n == 0 ? 0 : n * (n - 1);  // < 2^64: n < 2^32
  require_arcs_fit(arcs, what);
  EdgeList e = empty_list(num_vertices, arcs, what, weights);
  std::uint64_t arc = 0;
  for (vertex_t u = 0; u < num_vertices; ++u) {
    for (vertex_t v = 0; v < num_vertices; ++v) {
      if (u != v) e.add_arc(u, v, weights.weight_of(arc++));
    }
  }
  return e;
}

namespace {

constexpr std::string_view kSpecForms =
    "grid:ROWSxCOLS, random:N:M, rmat:SCALE[:EDGEFACTOR], chain:N, star:N, complete:N";

[[noreturn]] void bad_spec(const std::string& spec, const std::string& why) {
  throw InputError("generator spec '" + spec + "': " + why + " (valid forms: " + std::string(kSpecForms) + ")");
}

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> fields;
  while (true) {
    const std::size_t at = text.find(separator);
    fields.push_back(text.substr(0, at));
    if (at == std::string_view::npos) return fields;
    text.remove_prefix(at + 1);
  }
}

// A decimal integer in [lo, hi]; anything else (a sign, spaces, overflow) is rejected.
std::uint64_t parse_field(const std::string& spec, std::string_view field, const char* what, std::uint64_t lo,
                          std::uint64_t hi) {
  std::uint64_t value = 0;
  const char* end = field.data() + field.size();
  const auto [ptr, ec] = std::from_chars(field.data(), end, value);
  if (field.empty() || ec != std::errc{} || ptr != end || value < lo || value > hi) {
    bad_spec(spec, std::string(what) + " '" + std::string(field) + "' is not an integer in " + std::to_string(lo) +
                       ".." + std::to_string(hi));
  }
  return value;
}

}  // namespace

EdgeList generate(const std::string& spec, const WeightPolicy& weights, std::uint64_t seed) {
  const std::vector<std::string_view> f = split(spec, ':');
  const std::string_view family = f.front();
  auto require_fields = [&](std::size_t fewest, std::size_t most) {
    if (f.size() < fewest || f.size() > most) {
      bad_spec(spec, "wrong number of ':'-separated fields for '" + std::string(family) + "'");
    }
  };
  // A vertex count: zero is rejected, as a graph without vertices has no source.
  auto count = [&](std::string_view field, const char* what) {
    return static_cast<vertex_t>(parse_field(spec, field, what, 1, kMaxVertices));
  };
  // The generators check the combined sizes (rows * cols, n (n - 1), ...);
  // their errors are re-raised so that every message quotes the spec.
  auto quoting_spec = [&](auto make) -> EdgeList {
    try {
      return make();
    } catch (const InputError& e) {
      bad_spec(spec, e.what());
    }
  };
  if (family == "grid") {
    require_fields(2, 2);
    const std::vector<std::string_view> dims = split(f[1], 'x');
    if (dims.size() != 2) bad_spec(spec, "expected ROWSxCOLS, e.g. grid:100x200");
    const vertex_t rows = count(dims[0], "rows");
    const vertex_t cols = count(dims[1], "cols");
    return quoting_spec([&] { return make_grid(rows, cols, weights); });
  }
  if (family == "random") {
    require_fields(3, 3);
    const vertex_t n = count(f[1], "vertex count N");
    const std::uint64_t m = parse_field(spec, f[2], "arc count M", 0, kMaxEdges);
    return quoting_spec([&] { return make_uniform_random(n, m, weights, seed); });
  }
  if (family == "rmat") {
    require_fields(2, 3);
    const auto scale = static_cast<unsigned>(parse_field(spec, f[1], "scale", 0, kMaxRmatScale));
    const auto edge_factor = f.size() == 3 ? static_cast<unsigned>(parse_field(spec, f[2], "edge factor", 1,
                                                                               std::numeric_limits<unsigned>::max()))
                                           : 16U;  // the Graph500 default
    return quoting_spec([&] { return make_rmat(scale, edge_factor, weights, seed); });
  }
  if (family == "chain") {
    require_fields(2, 2);
    const vertex_t n = count(f[1], "vertex count N");
    return quoting_spec([&] { return make_chain(n, weights); });
  }
  if (family == "star") {
    require_fields(2, 2);
    const vertex_t n = count(f[1], "vertex count N");
    return quoting_spec([&] { return make_star(n, weights); });
  }
  if (family == "complete") {
    require_fields(2, 2);
    const vertex_t n = count(f[1], "vertex count N");
    return quoting_spec([&] { return make_complete(n, weights); });
  }
  bad_spec(spec, "unknown generator family '" + std::string(family) + "'");
}

}  // namespace sssp
