/// @file
/// @brief The course's rule for threads per block, in a header that host
/// code compiled without nvcc can include too (the runner checks launch
/// options with it before it loads a graph); sssp/cuda/launch.cuh includes it.
#pragma once

#include "sssp/errors.hpp"

namespace sssp::cuda {

/// Throws InputError unless `block_size` is a legal number of threads per block (1 to 1024).
inline void require_block_size(unsigned block_size) {
  require_option(block_size != 0 && block_size <= 1024, "block size", "1..1024 threads", block_size);
}

}  // namespace sssp::cuda
