/// @file
/// @brief BlockWorkCounters: the vertices expanded and arcs relaxed by each
/// block of a kernel launched many times on the same grid, summed on the host
/// after the run.
///
/// Why one slot per block: thousands of threads adding to one global counter
/// serialise at L2 and on a road graph cost more than the relaxations they
/// count. A block sums in shared memory, then its thread 0 adds the block's
/// totals to the block's own slot with plain arithmetic (nothing else touches
/// the slot during the launch); the host adds the slots up once, outside the
/// timed part.
#pragma once

#include <cuda_runtime.h>

#include "sssp/counters.hpp"
#include "sssp/cuda/device_buffer.cuh"

namespace sssp::cuda {

/// The work of one block across a run.
struct BlockWork {
  unsigned long long expanded;  ///< Vertices expanded.
  unsigned long long arcs;      ///< Arcs relaxed.
};

/// Adds a block's totals to its slot, slots[blockIdx.x]. Called by one thread
/// of the block (after a barrier that completes the block's sums); every
/// launch of the run must use the same grid, so that a slot is one block's.
__device__ inline void add_block_work(BlockWork* slots, unsigned long long expanded, unsigned long long arcs) {
  slots[blockIdx.x].expanded += expanded;
  slots[blockIdx.x].arcs += arcs;
}

/// One BlockWork slot per block of a grid, in device memory. The kernel that
/// starts a run zeroes them (slot i by the thread of grid index i), so a run
/// costs no extra memset.
class BlockWorkCounters {
 public:
  /// Slots for a grid of `blocks` blocks.
  explicit BlockWorkCounters(unsigned blocks) : slots_(blocks, "work per block"), blocks_(blocks) {}

  /// The slots, for the kernels.
  [[nodiscard]] BlockWork* device() { return slots_.data(); }
  /// Blocks of the grid the slots are for.
  [[nodiscard]] unsigned blocks() const { return blocks_; }

  /// Adds every block's work to `counters` (vertices_processed, edges_relaxed).
  /// Synchronous with respect to `stream`: call it after the timed part.
  void add_to(Counters& counters, cudaStream_t stream) const {
    for (const BlockWork& block : slots_.to_host(stream)) {
      counters.vertices_processed += block.expanded;
      counters.edges_relaxed += block.arcs;
    }
  }

 private:
  DeviceBuffer<BlockWork> slots_;
  unsigned blocks_;
};

}  // namespace sssp::cuda
