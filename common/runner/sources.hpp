/// @file
/// @brief The sources the runner runs from: the ones given, drawn at random,
/// or vertex 0.
#pragma once

#include <cstdint>
#include <vector>

#include "sssp/graph.hpp"

namespace sssp::runner {

/// `count` distinct vertices with out-arcs (like Graph500 and gapbs: runs
/// from the others are trivial), drawn from `seed`. Throws sssp::InputError
/// when `graph` has fewer such vertices.
[[nodiscard]] std::vector<vertex_t> draw_sources(const CsrGraph& graph, std::uint64_t count, std::uint64_t seed);

/// The sources of a run: `given` (each checked with sssp::require_valid_source),
/// then `random_count` drawn by draw_sources from `seed`; vertex 0 when both
/// are empty.
[[nodiscard]] std::vector<vertex_t> choose_sources(const CsrGraph& graph, const std::vector<std::uint64_t>& given,
                                                   std::uint64_t random_count, std::uint64_t seed);

}  // namespace sssp::runner
