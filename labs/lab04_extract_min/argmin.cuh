// Lab 04 skeleton, generated from solutions/lab04_extract_min/argmin.cuh by common/tools/make_skeleton.py.
// This file is yours: replace each SSSP_TODO with your code.
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
  // TODO(task 4): on return lane 0 holds the better_of the 32 lanes'
  // candidates, with no shared memory and no barrier: the lanes exchange
  // registers (both fields of a candidate). Every lane of the full warp
  // calls this; what may the other lanes hold?
  SSSP_DEVICE_TODO_RETURN(4, 4, "arg-min across a warp with shuffles", mine);
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
  // TODO(task 5): the contract above, in one launch of any grid size: every
  // key is folded by exactly one thread, coalesced; exactly one block, the
  // last to finish, sees every block's candidate and calls finish once; and
  // *blocks_done is 0 again for the next launch. Argue why the last block
  // reads every other block's candidate and not a stale slot: which memory
  // ordering must its decision carry (sssp/cuda/atomics.cuh)?
  SSSP_DEVICE_TODO(4, 5, "many keys per thread, then one launch for the whole grid");
}

}  // namespace lab04::device
