// Lab 07 skeleton, generated from solutions/lab07_locality/wave.cuh by common/tools/make_skeleton.py.
// This file is yours: replace each SSSP_TODO with your code.
// Lab 07, task 1: the k-step wave from one vertex (Algorithm 7). It is in a
// file of its own so that it can be graded on its own: locality_sssp.cu
// includes it, and both the solver's kernel (through task 2's start_waves)
// and the checkpoint's one-thread kernel behind lab07::run_one_wave call
// relax_wave. Only locality_sssp.cu includes this file, so it also holds
// that file's device-TODO word (SSSP_DEVICE_TODO_STATE).
#pragma once

#include <cstdint>

#include "lab07.hpp"
#include "sssp/cuda/device_graph.cuh"
#include "sssp/cuda/todo.cuh"

namespace lab07 {
namespace {

using sssp::edge_t;
using sssp::weight_t;

SSSP_DEVICE_TODO_STATE_IN(7, {2, "locality_sssp.cu"});

// Work of one thread's waves.
struct WaveWork {
  unsigned long long expanded = 0;
  unsigned long long arcs = 0;
  bool flagged = false;
};

// A vertex on the wave's stack: its out-arcs still to try and its distance
// when the wave reached it.
struct Frame {
  edge_t next;
  edge_t end;
  dist_t dist;
};

using sssp::cuda::load_dist;  // relaxed atomic read of a distance: see its comment

// Algorithm 7: the wave from flagged vertex u, up to `depth` arcs deep,
// depth-first with an explicit stack: it goes on only from heads its offers
// improved (backtracking at every other arc), and flags the improved heads at
// depth k for the next launch.
__device__ WaveWork relax_wave(const edge_t* __restrict__ offsets, const vertex_t* __restrict__ targets,
                               const weight_t* __restrict__ weights, dist_t* dist, vertex_t u, unsigned depth,
                               std::uint8_t* __restrict__ next_flags) {
  WaveWork work;
  // TODO(task 1): on return, the wave from u has tried, depth-first in CSR
  // order and without recursion (a thread's stack is kMaxDepth Frames), the
  // arcs of u and of every vertex its offers improved at depths 1 .. depth-1;
  // each improved vertex at exactly `depth` is flagged in next_flags for
  // the next launch (work.flagged then set); work counts the vertices the
  // wave went on from (u included) and every arc it tried. Argue: why may
  // the wave continue from a distance another thread lowers meanwhile, and
  // what is lost (only time, or answers?) when an offer loses a race?
  SSSP_DEVICE_TODO_RETURN(7, 1, "the k-step wave from one flagged vertex (explicit stack)", work);
  return work;
}

}  // namespace
}  // namespace lab07
