/// @file
/// @brief DeviceCsr and DeviceCoo: a graph copied to the GPU once, in the
/// form a kernel wants, its footprint for the memory check, and the atomics
/// the relaxation kernels share.
#pragma once

#include <cstdint>
#include <vector>

#include "sssp/cuda/atomics.cuh"
#include "sssp/cuda/device.hpp"
#include "sssp/cuda/device_buffer.cuh"
#include "sssp/cuda/launch.cuh"
#include "sssp/graph.hpp"

namespace sssp::cuda {

/// Device bytes a DeviceCsr of `graph` holds: the first term of a CSR
/// solver's footprint for require_free_memory.
[[nodiscard]] inline std::uint64_t csr_device_bytes(const CsrGraph& graph) {
  return device_bytes<edge_t>(std::uint64_t{graph.num_vertices()} + 1) + device_bytes<vertex_t>(graph.num_edges()) +
         device_bytes<weight_t>(graph.num_edges());
}

/// Device bytes a DeviceCoo of `graph` holds (`with_weights` as its constructor's).
[[nodiscard]] inline std::uint64_t coo_device_bytes(const CsrGraph& graph, bool with_weights = true) {
  return device_bytes<vertex_t>(2 * std::uint64_t{graph.num_edges()}) +
         (with_weights ? device_bytes<weight_t>(graph.num_edges()) : 0);
}

/// A CSR graph in device memory (the three arrays of sssp::CsrGraph).
/// Built once per graph; algorithms then run from many sources on it.
struct DeviceCsr {
  vertex_t num_vertices = 0;       ///< Vertices.
  edge_t num_edges = 0;            ///< Arcs.
  DeviceBuffer<edge_t> offsets;    ///< num_vertices + 1 offsets.
  DeviceBuffer<vertex_t> targets;  ///< Head of each arc.
  DeviceBuffer<weight_t> weights;  ///< Weight of each arc.

  /// Copies `graph` to the device (synchronously).
  explicit DeviceCsr(const CsrGraph& graph)
      : num_vertices(graph.num_vertices()),
        num_edges(graph.num_edges()),
        offsets(std::span<const edge_t>(graph.offsets), "CSR offsets"),
        targets(std::span<const vertex_t>(graph.targets), "CSR targets"),
        weights(std::span<const weight_t>(graph.weights), "CSR weights") {
    SSSP_CUDA_CHECK(cudaStreamSynchronize(nullptr));
  }
};

/// A graph in device memory as a coordinate list (COO): arc e runs from
/// tails[e] to heads[e] with weight weights[e]. Edge-parallel kernels (lab 03)
/// give each arc its own thread. The arcs are in CSR order (grouped by tail),
/// so neighbouring threads read neighbouring tails.
struct DeviceCoo {
  vertex_t num_vertices = 0;       ///< Vertices.
  edge_t num_edges = 0;            ///< Arcs.
  DeviceBuffer<vertex_t> tails;    ///< Tail of each arc.
  DeviceBuffer<vertex_t> heads;    ///< Head of each arc.
  DeviceBuffer<weight_t> weights;  ///< Weight of each arc (empty unless asked for).

  /// Copies the arcs of `graph` to the device (synchronously); the weights
  /// only when `with_weights` (BFS does not read them).
  explicit DeviceCoo(const CsrGraph& graph, bool with_weights = true) : DeviceCoo(to_edge_list(graph), with_weights) {}

 private:
  DeviceCoo(const EdgeList& arcs, bool with_weights)
      : num_vertices(arcs.num_vertices),
        num_edges(arcs.num_edges()),
        tails(std::span<const vertex_t>(arcs.src), "COO tails"),
        heads(std::span<const vertex_t>(arcs.dst), "COO heads"),
        weights(std::span<const weight_t>(with_weights ? arcs.weight : std::vector<weight_t>{}), "COO weights") {
    SSSP_CUDA_CHECK(cudaStreamSynchronize(nullptr));
  }
};

/// dist[v] read as a relaxed device-scope atomic: without tearing and without
/// a stale L1 copy while other threads lower it. Most relaxation kernels of
/// the course read a distance before offering to it, so that most losing
/// offers skip the atomic; a stale (larger) value would let them through (on
/// an H100 plain loads made lab 07 twice as slow). Lab 09 offers straight to
/// the atomic: there the read was a round trip on every winner's path.
__device__ inline dist_t load_dist(const dist_t* dist, vertex_t v) { return load_relaxed(&dist[v]); }

/// atomicMin on a distance. dist_t is std::uint64_t, which is `unsigned long`
/// on LP64 systems, while CUDA's 64-bit atomicMin takes `unsigned long long`;
/// both are 64 bits wide, so the cast is exact. Returns the old value.
__device__ inline dist_t atomic_min_dist(dist_t* address, dist_t value) {
  static_assert(sizeof(dist_t) == sizeof(unsigned long long), "dist_t must be 64 bits");
  return static_cast<dist_t>(
      atomicMin(reinterpret_cast<unsigned long long*>(address), static_cast<unsigned long long>(value)));
}

}  // namespace sssp::cuda
