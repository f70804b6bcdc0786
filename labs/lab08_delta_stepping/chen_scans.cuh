// Lab 08 (given): the device-wide passes of Chen's loop (delta_stepping.cu)
// that CUB does: the light round's scan, the select of S, the scan that
// gives S its reqSize, and the minimum that finds the next bucket. The lab is
// about the buckets, not the scans.
//
// They sit in chen_scans.cu, which includes no task file: a submission
// changes only the task files, so a grader compiles this one once, not for
// every submission (CUB's templates were most of delta_stepping.cu's compile
// time: 11 of 15 s on one core).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "lab08.hpp"
#include "sssp/types.hpp"

namespace lab08::chen_scans {

using sssp::edge_t;

/// @brief The scratch, in bytes, that the largest of the passes below needs
/// on a graph of `n` vertices (at least 1).
std::size_t scratch_bytes(vertex_t n);

/// @brief The light round's scan over the `n` vertices: for each v with
/// bindex[v] == current, req_index[v] = its slot among them (ReqIndex) and
/// arcs_before[v] = the out-arcs of the vertices of bucket `current` before
/// it; for the others, the same sums as of v (an exclusive scan).
void scan_bucket(void* scratch, std::size_t bytes, const bucket_t* bindex, const edge_t* offsets, bucket_t current,
                 vertex_t* req_index, edge_t* arcs_before, vertex_t n, cudaStream_t stream);

/// @brief S: the vertices taken out of bucket `current` (taken_stamp[v] ==
/// current + 1), in increasing order, into requests[0 .. *selected).
void select_taken(void* scratch, std::size_t bytes, const bucket_t* taken_stamp, bucket_t current, vertex_t* requests,
                  unsigned* selected, vertex_t n, cudaStream_t stream);

/// @brief reqSize of S: req_size[i] = the out-arcs of requests[0 .. i), for
/// i < `items`, counting only the first *count requests (*count is on the GPU).
void scan_request_degrees(void* scratch, std::size_t bytes, const edge_t* offsets, const vertex_t* requests,
                          const unsigned* count, edge_t* req_size, std::uint64_t items, cudaStream_t stream);

/// @brief *next = the smallest of bindex[0 .. n): the next bucket, or
/// kNoBucket when every vertex is in none.
void min_bucket(void* scratch, std::size_t bytes, const bucket_t* bindex, bucket_t* next, vertex_t n,
                cudaStream_t stream);

}  // namespace lab08::chen_scans
