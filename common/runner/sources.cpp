// The sources the runner runs from (sources.hpp).
#include "sources.hpp"

#include <string>
#include <utility>

#include "sssp/errors.hpp"
#include "sssp/weights.hpp"

namespace sssp::runner {

// Draws uniformly from all vertices and keeps those with out-arcs, the
// sources of earlier releases and of the handouts' runs; when such vertices
// are rare that could take very long, so after 64 draws per source the rest
// are drawn from the list of candidates instead.
std::vector<vertex_t> draw_sources(const CsrGraph& g, std::uint64_t count, std::uint64_t seed) {
  std::vector<vertex_t> candidates;
  for (vertex_t v = 0; v < g.num_vertices(); ++v) {
    if (g.out_degree(v) > 0) candidates.push_back(v);
  }
  if (candidates.size() < count) {
    throw InputError("--random-sources " + std::to_string(count) + " needs as many vertices with out-arcs, but " +
                     g.name + " has " + (candidates.empty() ? "none" : "only " + std::to_string(candidates.size())));
  }
  std::vector<vertex_t> sources;
  std::vector<bool> taken(g.num_vertices());
  std::uint64_t state = seed;
  for (std::uint64_t draws = 0; sources.size() < count && draws < 64 * count; ++draws) {
    state = splitmix64(state);
    const auto v = static_cast<vertex_t>(state % g.num_vertices());
    if (g.out_degree(v) > 0 && !taken[v]) {
      taken[v] = true;
      sources.push_back(v);
    }
  }
  std::erase_if(candidates, [&](vertex_t v) { return taken[v]; });
  for (std::size_t i = 0; sources.size() < count; ++i) {  // a partial Fisher-Yates shuffle
    state = splitmix64(state);
    std::swap(candidates[i], candidates[i + state % (candidates.size() - i)]);
    sources.push_back(candidates[i]);
  }
  return sources;
}

std::vector<vertex_t> choose_sources(const CsrGraph& g, const std::vector<std::uint64_t>& given,
                                     std::uint64_t random_count, std::uint64_t seed) {
  std::vector<vertex_t> sources;
  for (const std::uint64_t s : given) {
    require_valid_source(g, s);
    sources.push_back(static_cast<vertex_t>(s));
  }
  if (random_count > 0) {
    const auto drawn = draw_sources(g, random_count, seed);
    sources.insert(sources.end(), drawn.begin(), drawn.end());
  }
  if (sources.empty()) {
    require_valid_source(g, 0);
    sources.push_back(0);
  }
  return sources;
}

}  // namespace sssp::runner
