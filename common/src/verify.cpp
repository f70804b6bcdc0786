#include "sssp/verify.hpp"

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

namespace sssp {

std::string format_distance(dist_t d) { return d == kInfinity ? "inf" : std::to_string(d); }

namespace {

std::string format_value(dist_t d, dist_t inf) { return d == inf ? "inf" : std::to_string(d); }

/// d + w, saturating at `inf`, so that a garbage value near the top of the
/// range cannot wrap around.
template <typename Value>
Value relaxed(Value d, std::uint64_t w, Value inf) {
  return d >= inf - w ? inf : static_cast<Value>(d + w);
}

// Most answers checked are right (the speed items check every timed solve:
// 67 million arcs a check on lab 05's complete:8192), so one pass first
// tries to prove the answer right: no arc can be relaxed, and every reached
// vertex but the source has a tight in-arc. When no tight arc weighs 0 that
// is the whole certificate: walking tight in-arcs back from a reached vertex
// lowers the distance at every step, so the walk ends, and only at the
// source. Anything else (a wrong answer, a zero-weight tight arc) goes to the
// two passes below, which decide and say exactly what is wrong.
template <typename Value, typename ArcWeight>
bool proved_in_one_pass(const CsrGraph& graph, vertex_t source, std::span<const Value> d, Value inf,
                        ArcWeight arc_weight) {
  const vertex_t n = graph.num_vertices();
  std::vector<std::uint8_t> tight(n, 0);
  tight[source] = 1;
  for (vertex_t u = 0; u < n; ++u) {
    if (d[u] == inf) continue;
    for (edge_t e = graph.offsets[u]; e < graph.offsets[u + 1]; ++e) {
      const vertex_t v = graph.targets[e];
      const std::uint64_t w = arc_weight(e);
      const Value candidate = relaxed(d[u], w, inf);
      if (d[v] > candidate) return false;  // an arc that relaxes: wrong
      if (d[v] == candidate && d[v] != inf) {
        if (w == 0) return false;  // a zero-weight tight arc: the walk argument does not hold
        tight[v] = 1;
      }
    }
  }
  for (vertex_t v = 0; v < n; ++v) {
    if (d[v] != inf && !tight[v]) return false;
  }
  return true;
}

// The certificate, written once for distances and for levels. `Value` is the
// distance type, `inf` its sentinel, `arc_weight(e)` the length of arc e.
//
// Tightness alone ("every reached vertex has an in-arc with d[u] + w == d[v]")
// is not enough when weights can be 0: two vertices joined by zero-weight arcs
// each way certify each other at any too-small distance. So condition 3 is
// checked as "every reached vertex is reachable from the source along tight
// arcs", which makes each finite distance the length of a real path.
template <typename Value, typename ArcWeight>
Verdict certify(const CsrGraph& graph, vertex_t source, std::span<const Value> d, Value inf, ArcWeight arc_weight) {
  Verdict verdict;
  const vertex_t n = graph.num_vertices();
  auto fail = [&](vertex_t v, std::uint64_t count, std::string message) {
    verdict.ok = false;
    verdict.vertex = v;
    verdict.failures = count;
    verdict.message = std::move(message);
    return verdict;
  };
  if (d.size() != n) {
    return fail(
        0, 1,
        "the answer has " + std::to_string(d.size()) + " entries but the graph has " + std::to_string(n) + " vertices");
  }
  if (source >= n) return fail(source, 1, "source " + std::to_string(source) + " is not a vertex");
  if (d[source] != 0) {
    return fail(
        source, 1,
        "the source " + std::to_string(source) + " has distance " + format_value(d[source], inf) + ", expected 0");
  }
  if (proved_in_one_pass(graph, source, d, inf, arc_weight)) return verdict;
  // Condition 2: no arc can still be relaxed.
  std::vector<std::uint8_t> bad(n, 0);
  std::uint64_t bad_count = 0;
  vertex_t first_bad = n;
  std::string first_message;
  for (vertex_t u = 0; u < n; ++u) {
    if (d[u] == inf) continue;
    for (edge_t e = graph.offsets[u]; e < graph.offsets[u + 1]; ++e) {
      const vertex_t v = graph.targets[e];
      const Value candidate = relaxed(d[u], arc_weight(e), inf);
      if (d[v] <= candidate) continue;
      if (!bad[v]) {
        bad[v] = 1;
        ++bad_count;
      }
      if (v < first_bad) {
        first_bad = v;
        first_message = "vertex " + std::to_string(v) + " has distance " + format_value(d[v], inf) + ", but arc " +
                        std::to_string(u) + " -> " + std::to_string(v) + " (weight " + std::to_string(arc_weight(e)) +
                        ") from " + std::to_string(u) + " at distance " + format_value(d[u], inf) + " gives it " +
                        format_value(candidate, inf) +
                        (d[v] == inf ? ": it is reachable but was left unreached" : ": the distance is too large");
      }
    }
  }
  if (bad_count != 0) return fail(first_bad, bad_count, first_message);
  // Condition 3: walk tight arcs from the source; every reached vertex must be met.
  std::vector<std::uint8_t> seen(n, 0);
  std::deque<vertex_t> queue{source};
  seen[source] = 1;
  while (!queue.empty()) {
    const vertex_t u = queue.front();
    queue.pop_front();
    for (edge_t e = graph.offsets[u]; e < graph.offsets[u + 1]; ++e) {
      const vertex_t v = graph.targets[e];
      if (!seen[v] && d[v] != inf && relaxed(d[u], arc_weight(e), inf) == d[v]) {
        seen[v] = 1;
        queue.push_back(v);
      }
    }
  }
  for (vertex_t v = 0; v < n; ++v) {
    if (d[v] != inf && !seen[v]) {
      if (first_bad == n) first_bad = v;
      ++bad_count;
    }
  }
  if (bad_count != 0) {
    return fail(first_bad, bad_count,
                "vertex " + std::to_string(first_bad) + " has distance " + format_value(d[first_bad], inf) +
                    ", which is not the length of any path from the source (no chain of tight "
                    "arcs, d[u] + w == d[v], leads to it from " +
                    std::to_string(source) + "): the distance is too small" +
                    (d[first_bad] == 0 ? " (only the source has distance 0 unless zero-weight arcs lead there)" : ""));
  }
  return verdict;
}

template <typename Value>
Verdict compare(std::span<const Value> expected, std::span<const Value> actual, Value inf) {
  Verdict verdict;
  if (expected.size() != actual.size()) {
    verdict.ok = false;
    verdict.failures = 1;
    verdict.message = "the answer has " + std::to_string(actual.size()) + " entries, expected " +
                      std::to_string(expected.size()) + " (one per vertex)";
    return verdict;
  }
  for (std::size_t v = 0; v < expected.size(); ++v) {
    if (expected[v] == actual[v]) continue;
    if (verdict.ok) {
      verdict.ok = false;
      verdict.vertex = static_cast<vertex_t>(v);
      verdict.message = "first wrong vertex " + std::to_string(v) + ": expected " + format_value(expected[v], inf) +
                        ", got " + format_value(actual[v], inf);
    }
    ++verdict.failures;
  }
  if (!verdict.ok) {
    verdict.message +=
        " (" + std::to_string(verdict.failures) + " of " + std::to_string(expected.size()) + " vertices wrong)";
  }
  return verdict;
}

}  // namespace

Verdict verify_sssp(const CsrGraph& graph, vertex_t source, std::span<const dist_t> dist) {
  return certify<dist_t>(graph, source, dist, kInfinity,
                         [&graph](edge_t e) -> std::uint64_t { return graph.weights[e]; });
}

Verdict verify_bfs(const CsrGraph& graph, vertex_t source, std::span<const level_t> level) {
  return certify<level_t>(graph, source, level, kUnreached, [](edge_t) -> std::uint64_t { return 1; });
}

Verdict compare_distances(std::span<const dist_t> expected, std::span<const dist_t> actual) {
  return compare<dist_t>(expected, actual, kInfinity);
}

Verdict compare_levels(std::span<const level_t> expected, std::span<const level_t> actual) {
  return compare<level_t>(expected, actual, kUnreached);
}

}  // namespace sssp
