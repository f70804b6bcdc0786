// Lab 04's ordering probe (tests/support/ptx_order.hpp): the whole-grid
// arg-min of task 5 in one kernel, built beside each worker from the worker's
// own argmin.cuh, for the graded Ordering test to read its PTX. Every array
// comes in as a parameter of its own, so each access in the PTX can be told
// by the array it is to (test_lab04_ordering.cpp names them by position).
// Never launched: only compiled.
#include "sssp/cuda/todo.cuh"

// The device-TODO word argmin.cuh's stubs write, defined first as in the lab's own files.
SSSP_DEVICE_TODO_STATE(4);

#include "argmin.cuh"

/// grid_argmin (task 5): parameters 0 keys, 2 block_results, 3 blocks_done, 4 out (the finish callback's store).
extern "C" __global__ void lab04_order_grid_argmin(const sssp::dist_t* keys, std::uint32_t n,
                                                   lab04::ArgMin* block_results, unsigned* blocks_done,
                                                   lab04::ArgMin* out) {
  lab04::device::grid_argmin(keys, n, block_results, blocks_done, [out](const lab04::ArgMin& found) { *out = found; });
}
