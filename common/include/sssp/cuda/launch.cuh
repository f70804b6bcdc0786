/// @file
/// @brief The course's one launch policy: legal block sizes, capped grids, and
/// grid-stride loops with 64-bit indices.
///
/// Every kernel of the course walks its items with a grid-stride loop
///
///     for (std::uint64_t v = sssp::cuda::global_thread_index(); v < n; v += sssp::cuda::grid_stride())
///
/// and is launched with `grid_for(n, block)`. Two reasons. The indices are
/// 64 bits wide, because with one thread per arc `blockIdx.x * blockDim.x`
/// passes 2^32 on a graph of a few billion arcs and wraps silently in 32 bits.
/// And the grid is capped, so no graph size or block size (1 is legal) can ask
/// for more than the 2^31 - 1 blocks a grid may have; a capped grid simply
/// makes each thread take several items.
///
/// The same holds for a loop that strides over one vertex's arcs (a warp or
/// tile per vertex):
///
///     for (std::uint64_t e = std::uint64_t{offsets[v]} + lane; e < end; e += lanes)
///
/// Its index is std::uint64_t, never edge_t, and so is the sum that starts it.
/// Arc ids fit edge_t (the readers accept up to 2^32 - 1 arcs), but a lane's
/// index passes the vertex's last arc by up to `lanes - 1` before the loop
/// test fails, and in 32 bits that wraps to a small id (an arc of another
/// vertex, relaxed again, for ever) when the vertex's arcs end within `lanes`
/// of 2^32. A loop that steps by one (`++e`) stops at `end` and may keep edge_t.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

#include "sssp/cuda/block_size.hpp"
#include "sssp/cuda/check.cuh"
#include "sssp/errors.hpp"

namespace sssp::cuda {

/// Threads in a warp on every NVIDIA GPU the course supports.
inline constexpr unsigned kWarpSize = 32;

/// Most blocks grid_for() launches. 2^16 blocks of even 32 threads is
/// 2 million threads, several times what any current GPU holds at once (an
/// H100: 132 SMs x 2048 threads), so the cap never starves the GPU, and a
/// grid-stride loop covers whatever the grid does not.
inline constexpr unsigned kMaxGridBlocks = 1u << 16;

/// Blocks of `block_size` threads that give each of `n` items its own thread,
/// at least 1 (a launch needs a block). Kernels that need exactly one block per
/// tile of items use this; it throws InputError when that is more blocks than a
/// grid may have (with block size 1 and n of 2^31 or more). Everything else uses grid_for().
inline unsigned blocks_for(std::uint64_t n, unsigned block_size) {
  require_block_size(block_size);
  constexpr std::uint64_t kMaxBlocks = (std::uint64_t{1} << 31) - 1;  // gridDim.x limit
  const std::uint64_t blocks = std::max<std::uint64_t>(1, (n + block_size - 1) / block_size);
  if (blocks > kMaxBlocks) {
    throw InputError(std::to_string(n) + " items in blocks of " + std::to_string(block_size) + " threads need " +
                     std::to_string(blocks) + " blocks; a grid has at most " + std::to_string(kMaxBlocks));
  }
  return static_cast<unsigned>(blocks);
}

/// The grid for a grid-stride kernel over `n` items: one thread per item up
/// to kMaxGridBlocks blocks, at least 1 block. Never fails for a legal block size.
inline unsigned grid_for(std::uint64_t n, unsigned block_size) {
  require_block_size(block_size);
  const std::uint64_t blocks = (n + block_size - 1) / block_size;
  return static_cast<unsigned>(std::clamp<std::uint64_t>(blocks, 1, kMaxGridBlocks));
}

/// Blocks of `block_size` threads of `kernel` (with `dynamic_smem` bytes of
/// dynamic shared memory each) that the current GPU holds at once: every SM
/// full, as the occupancy calculator counts it. A grid of this size runs in
/// one wave: a persistent kernel whose blocks wait on each other needs all of
/// them resident, and a grid-stride kernel over small rounds gains nothing
/// from more blocks, which would only queue behind the first wave. Throws
/// InputError for an illegal block size, CudaError when not one block fits.
template <typename Kernel>
unsigned resident_grid(Kernel kernel, unsigned block_size, std::size_t dynamic_smem = 0) {
  require_block_size(block_size);
  int device = 0;
  int multiprocessors = 0;
  int blocks_per_multiprocessor = 0;
  SSSP_CUDA_CHECK(cudaGetDevice(&device));
  SSSP_CUDA_CHECK(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device));
  SSSP_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_multiprocessor, kernel,
                                                                static_cast<int>(block_size), dynamic_smem));
  if (blocks_per_multiprocessor == 0) {
    throw CudaError("not one block of " + std::to_string(block_size) + " threads and " + std::to_string(dynamic_smem) +
                    " bytes of dynamic shared memory fits on an SM");
  }
  return static_cast<unsigned>(multiprocessors) * static_cast<unsigned>(blocks_per_multiprocessor);
}

/// This thread's index in a one-dimensional grid, in 64 bits.
__device__ inline std::uint64_t global_thread_index() {
  return static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
}

/// Threads in the whole one-dimensional grid: the step of a grid-stride loop.
__device__ inline std::uint64_t grid_stride() { return static_cast<std::uint64_t>(gridDim.x) * blockDim.x; }

}  // namespace sssp::cuda
