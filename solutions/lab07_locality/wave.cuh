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
  // BEGIN SOLUTION task 1: the k-step wave from one flagged vertex (explicit stack)
  Frame stack[kMaxDepth];
  unsigned top = 0;  // stack[top] is the vertex whose arcs are being tried, at depth `top`
  stack[0] = {offsets[u], offsets[u + 1], load_dist(dist, u)};
  work.expanded = 1;
  while (true) {
    Frame& frame = stack[top];
    if (frame.next == frame.end) {  // every arc tried: back to the parent
      if (top == 0) break;
      --top;
      continue;
    }
    const edge_t e = frame.next++;
    ++work.arcs;
    const vertex_t v = targets[e];
    const dist_t offer = frame.dist + weights[e];
    // Most offers lose: a read filters them out before the atomic, which is
    // where the time would go (without it the reference ran twice as long).
    // When the offer may win, v's arc range is loaded beside the atomic, not
    // after it: a wave is a chain of dependent round trips, and the longest
    // wave sets the time of the launch.
    if (offer >= load_dist(dist, v)) continue;  // no improvement: backtrack
    const edge_t begin = offsets[v];
    const edge_t end = offsets[v + 1];
    if (offer >= sssp::cuda::atomic_min_dist(&dist[v], offer)) continue;  // another wave offered less meanwhile
    if (top + 1 == depth) {  // v is at depth k: the next launch goes on from it
      next_flags[v] = 1;
      work.flagged = true;
    } else {
      stack[++top] = {begin, end, offer};
      ++work.expanded;
    }
  }
  // SKELETON
  // // TODO(task 1): on return, the wave from u has tried, depth-first in CSR
  // // order and without recursion (a thread's stack is kMaxDepth Frames), the
  // // arcs of u and of every vertex its offers improved at depths 1 .. depth-1;
  // // each improved vertex at exactly `depth` is flagged in next_flags for
  // // the next launch (work.flagged then set); work counts the vertices the
  // // wave went on from (u included) and every arc it tried. Argue: why may
  // // the wave continue from a distance another thread lowers meanwhile, and
  // // what is lost (only time, or answers?) when an offer loses a race?
  // SSSP_DEVICE_TODO_RETURN(7, 1, "the k-step wave from one flagged vertex (explicit stack)", work);
  // END SOLUTION
  return work;
}

}  // namespace
}  // namespace lab07
