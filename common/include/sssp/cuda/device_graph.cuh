/// @file
/// @brief DeviceCsr: a CsrGraph copied to the GPU once, and the atomic the
/// relaxation kernels share.
#pragma once

#include "sssp/cuda/device_buffer.cuh"
#include "sssp/graph.hpp"

namespace sssp::cuda {

/// A CSR graph in device memory (the three arrays of sssp::CsrGraph).
/// Built once per graph; algorithms then run from many sources on it.
struct DeviceCsr {
  vertex_t num_vertices = 0;          ///< Vertices.
  edge_t num_edges = 0;               ///< Arcs.
  DeviceBuffer<edge_t> offsets;       ///< num_vertices + 1 offsets.
  DeviceBuffer<vertex_t> targets;     ///< Head of each arc.
  DeviceBuffer<weight_t> weights;     ///< Weight of each arc.

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

/// atomicMin on a distance. dist_t is std::uint64_t, which is `unsigned long`
/// on LP64 systems, while CUDA's 64-bit atomicMin takes `unsigned long long`;
/// both are 64 bits wide, so the cast is exact. Returns the old value.
__device__ inline dist_t atomic_min_dist(dist_t* address, dist_t value) {
  static_assert(sizeof(dist_t) == sizeof(unsigned long long), "dist_t must be 64 bits");
  return static_cast<dist_t>(
      atomicMin(reinterpret_cast<unsigned long long*>(address), static_cast<unsigned long long>(value)));
}

/// Blocks of `block_size` threads needed to give each of `n` items a thread.
inline unsigned blocks_for(std::size_t n, unsigned block_size) {
  const std::size_t blocks = (n + block_size - 1) / block_size;
  return static_cast<unsigned>(blocks == 0 ? 1 : blocks);  // a launch needs at least one block
}

}  // namespace sssp::cuda
