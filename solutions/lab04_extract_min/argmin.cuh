// Lab 04, tasks 4-5: the device building blocks of the arg-min reduction,
// shared by the standalone reduction (argmin_reduction.cu) and the Dijkstra
// (dijkstra.cu). A file that includes this header defines its device-TODO
// word first (SSSP_DEVICE_TODO_STATE(4)): the stubs of tasks 4 and 5 write
// it, and the run() of that file reports them.
#pragma once

#include <cstdint>

#include "lab04.hpp"
#include "sssp/errors.hpp"
#include "sssp/cuda/atomics.cuh"
#include "sssp/cuda/launch.cuh"
#include "sssp/cuda/todo.cuh"

namespace lab04::device {

using sssp::cuda::kWarpSize;

/// The better of two candidates: the smaller key, on a tie the smaller
/// index. A total order, so any reduction tree gives the same answer.
__device__ __forceinline__ ArgMin better_of(const ArgMin& a, const ArgMin& b) {
  return (b.key < a.key || (b.key == a.key && b.index < a.index)) ? b : a;
}

/// The arg-min of the 32 values `mine` of a full warp, in lane 0 (other
/// lanes hold partial results).
__device__ __forceinline__ ArgMin warp_argmin(ArgMin mine) {
  // BEGIN SOLUTION task 4: arg-min across a warp with shuffles
  // Each step halves the lanes that still matter: lane i takes lane i + offset.
  // Shuffles move registers directly, with no shared memory and no barrier.
  constexpr unsigned kAllLanes = 0xffffffffu;
  for (unsigned offset = kWarpSize / 2; offset > 0; offset /= 2) {
    const ArgMin other{__shfl_down_sync(kAllLanes, mine.key, offset), __shfl_down_sync(kAllLanes, mine.index, offset)};
    mine = better_of(mine, other);
  }
  return mine;
  // SKELETON
  // // TODO(task 4): on return lane 0 holds the better_of the 32 lanes'
  // // candidates, with no shared memory and no barrier: the lanes exchange
  // // registers (both fields of a candidate). Every lane of the full warp
  // // calls this; what may the other lanes hold?
  // SSSP_DEVICE_TODO_RETURN(4, 4, "arg-min across a warp with shuffles", mine);
  // END SOLUTION
}

/// The arg-min of `mine` over the whole block, in thread 0. blockDim.x must
/// be a multiple of 32; every thread of the block must call it.
/// `warp_results` is __shared__ space for 32 candidates.
__device__ __forceinline__ ArgMin block_argmin(ArgMin mine, ArgMin* warp_results) {
  const unsigned lane = threadIdx.x % kWarpSize;
  const unsigned warp = threadIdx.x / kWarpSize;
  mine = warp_argmin(mine);
  if (lane == 0) warp_results[warp] = mine;
  __syncthreads();
  if (warp == 0) {
    mine = lane < blockDim.x / kWarpSize ? warp_results[lane] : ArgMin{};
    mine = warp_argmin(mine);
  }
  __syncthreads();  // warp_results may be reused as soon as this returns
  return mine;
}

/// Throws sssp::InputError unless `block_size` suits block_argmin(): a power
/// of two from 32 to 1024.
inline void require_reduction_block_size(unsigned block_size) {
  sssp::require_option(block_size >= kWarpSize && block_size <= 1024 && (block_size & (block_size - 1)) == 0,
                       "the arg-min reduction's block size", "a power of two from 32 to 1024", block_size);
}

/// Stage 5: the arg-min of keys[0 .. n) over the whole grid in one launch.
/// Each thread folds many keys (grid-stride), each block reduces to one
/// candidate, and the last block to finish combines the blocks' candidates
/// and calls `finish(result)` in its thread 0.
/// @param block_results one slot per block of the grid
/// @param blocks_done   a counter that is 0 before the launch; reset to 0
///                      by the last block, ready for the next launch
template <typename Finish>
__device__ void grid_argmin(const dist_t* keys, std::uint32_t n, ArgMin* block_results, unsigned* blocks_done,
                            Finish finish) {
  __shared__ ArgMin warp_results[kWarpSize];
  __shared__ bool is_last_block;
  ArgMin mine{};
  // BEGIN SOLUTION task 5: many keys per thread, then one launch for the whole grid
  const std::uint64_t stride = sssp::cuda::grid_stride();
  std::uint64_t i = sssp::cuda::global_thread_index();
  // Four independent loads in flight per thread hide memory latency; the
  // indices stay in increasing order per thread, as ties need nothing more.
  for (; i + 3 * stride < n; i += 4 * stride) {
    const dist_t k0 = keys[i];
    const dist_t k1 = keys[i + stride];
    const dist_t k2 = keys[i + 2 * stride];
    const dist_t k3 = keys[i + 3 * stride];
    mine = better_of(mine, {k0, static_cast<std::uint32_t>(i)});
    mine = better_of(mine, {k1, static_cast<std::uint32_t>(i + stride)});
    mine = better_of(mine, {k2, static_cast<std::uint32_t>(i + 2 * stride)});
    mine = better_of(mine, {k3, static_cast<std::uint32_t>(i + 3 * stride)});
  }
  for (; i < n; i += stride) mine = better_of(mine, {keys[i], static_cast<std::uint32_t>(i)});
  mine = block_argmin(mine, warp_results);

  // Publish this block's candidate, then draw a ticket. A relaxed atomic would
  // still hand out distinct tickets, but would order nothing else. This draw
  // releases the block's candidate (and its reads of keys, which the barriers
  // of block_argmin put before it) and acquires every earlier block's, all at
  // device scope, so the block that draws last sees every candidate.
  if (threadIdx.x == 0) {
    block_results[blockIdx.x] = mine;
    is_last_block = sssp::cuda::fetch_add_acq_rel(blocks_done, 1u) == gridDim.x - 1;
  }
  // Also carries thread 0's acquire to the block's other threads.
  __syncthreads();
  if (!is_last_block) return;

  // The last block: every candidate happens before these plain loads.
  mine = ArgMin{};
  for (unsigned b = threadIdx.x; b < gridDim.x; b += blockDim.x) mine = better_of(mine, block_results[b]);
  mine = block_argmin(mine, warp_results);
  if (threadIdx.x == 0) {
    *blocks_done = 0;  // every ticket is drawn: nothing else touches the counter in this launch
    finish(mine);
  }
  // SKELETON
  // // TODO(task 5): the contract above, in one launch of any grid size: every
  // // key is folded by exactly one thread, coalesced; exactly one block, the
  // // last to finish, sees every block's candidate and calls finish once; and
  // // *blocks_done is 0 again for the next launch. Argue why the last block
  // // reads every other block's candidate and not a stale slot: which memory
  // // ordering must its decision carry (sssp/cuda/atomics.cuh)?
  // SSSP_DEVICE_TODO(4, 5, "many keys per thread, then one launch for the whole grid");
  // END SOLUTION
}

}  // namespace lab04::device
