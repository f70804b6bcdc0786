/// @file
/// @brief Small kernels several labs share, written once.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "sssp/cuda/check.cuh"
#include "sssp/cuda/device_buffer.cuh"
#include "sssp/cuda/launch.cuh"
#include "sssp/types.hpp"

namespace sssp::cuda {

/// values[v] = 0 for v == source, `unreached` for every other v < n.
template <typename Value>
__global__ void initialise_from_source(Value* __restrict__ values, std::uint64_t n, vertex_t source, Value unreached) {
  for (std::uint64_t v = global_thread_index(); v < n; v += grid_stride()) {
    values[v] = v == source ? Value{0} : unreached;
  }
}

/// Enqueues the start of a BFS from `source`: level 0 at the source,
/// sssp::kUnreached everywhere else. One kernel launch.
inline void launch_initialise_levels(DeviceBuffer<level_t>& level, vertex_t source, unsigned block_size,
                                     cudaStream_t stream = nullptr) {
  initialise_from_source<<<grid_for(level.size(), block_size), block_size, 0, stream>>>(level.data(), level.size(),
                                                                                        source, kUnreached);
  SSSP_CUDA_CHECK_LAUNCH();
}

}  // namespace sssp::cuda
