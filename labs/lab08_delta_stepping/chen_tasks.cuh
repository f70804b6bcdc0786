// Lab 08 skeleton, generated from solutions/lab08_delta_stepping/chen_tasks.cuh by common/tools/make_skeleton.py.
// This file is yours: replace each SSSP_TODO with your code.
// Lab 08, tasks 2 and 3: the two device functions of Chen's delta-stepping a
// student writes, one vertex each. delta_stepping.cu's kernels call them, and
// so do the checkpoints' harness kernels (checkpoints.cu), so a checkpoint
// grades the very code the solver runs, each task on its own.
//
// Include it after SSSP_DEVICE_TODO_STATE(8): the skeleton's stubs record an
// unfinished task in that word of the including file.
#pragma once

#include "lab08.hpp"
#include "sssp/cuda/atomics.cuh"
#include "sssp/cuda/device_graph.cuh"
#include "sssp/cuda/todo.cuh"

namespace lab08 {
namespace {

using sssp::edge_t;
using sssp::weight_t;
using sssp::cuda::load_dist;  // relaxed atomic read of a distance: see its comment

// Task 2: if v is in bucket `current`, takes it out into the request list at
// slot req_index[v] and records that it joined S by setting taken_stamp[v] to
// current + 1 (the heavy phase selects S as the vertices whose stamp is
// current + 1; initialise sets every stamp to 0, "never taken", which the + 1
// keeps apart from bucket 0). Returns whether it was in.
__device__ bool take_from_bucket(bucket_t* bindex, bucket_t* taken_stamp, const vertex_t* req_index, vertex_t* requests,
                                 bucket_t current, vertex_t v) {
  // TODO(task 2): returns whether v is in bucket `current`; if it is, on
  // return v sits in its own slot of the request list (the slot the prefix
  // sum gave it), is in no bucket any more, and is recorded as taken in this
  // bucket (S, for the heavy phase): taken_stamp[v] == current + 1.
  // Argue: why can no two vertices share a slot, and why does a vertex
  // lowered back into `current` later come back?
  SSSP_DEVICE_TODO_RETURN(8, 2, "take the current bucket's vertices out by their prefix-sum slots", false);
}

// Task 3: relaxes v's light arcs (weight <= delta) or its heavy ones; an
// improved head moves to the bucket of its new distance. Returns the arcs offered.
__device__ unsigned long long relax_request(const edge_t* __restrict__ offsets, const vertex_t* __restrict__ targets,
                                            const weight_t* __restrict__ weights, dist_t* dist, bucket_t* bindex,
                                            dist_t delta, bool light, vertex_t v) {
  unsigned long long offered = 0;
  // TODO(task 3): returns the number of arcs offered: v's light arcs
  // (weight <= delta) when `light`, else its heavy ones, each exactly once;
  // on return every head w that an offer improved has dist[w] at most that
  // offer and is in the bucket of its new distance or an earlier one, however
  // many threads offer to w at once. Argue: why do concurrent improvements
  // of w leave it in the bucket of the smallest of them, in any order?
  SSSP_DEVICE_TODO_RETURN(8, 3, "relax the light or the heavy arcs of a request", offered);
  return offered;
}

}  // namespace
}  // namespace lab08
