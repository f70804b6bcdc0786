// Lab 08, tasks 2, 3 and 7: the device functions of Chen's delta-stepping a
// student writes: take one vertex out of its bucket, offer one arc, and share
// the arcs of the requests evenly among the threads. delta_stepping.cu's
// kernels call them, and so do the checkpoints' harness kernels
// (checkpoints.cu), so a checkpoint grades the very code the solver runs,
// each task on its own.
//
// Include it after SSSP_DEVICE_TODO_STATE(8): the skeleton's stubs record an
// unfinished task in that word of the including file.
#pragma once

#include <cstdint>

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
  // BEGIN SOLUTION task 2: take the current bucket's vertices out by their prefix-sum slots
  if (bindex[v] != current) return false;
  requests[req_index[v]] = v;
  bindex[v] = kNoBucket;  // out of every bucket until an improvement puts it back
  taken_stamp[v] = current + 1;
  return true;
  // SKELETON
  // // TODO(task 2): returns whether v is in bucket `current`; if it is, on
  // // return v sits in its own slot of the request list (the slot the prefix
  // // sum gave it), is in no bucket any more, and is recorded as taken in this
  // // bucket (S, for the heavy phase): taken_stamp[v] == current + 1.
  // // Argue: why can no two vertices share a slot, and why does a vertex
  // // lowered back into `current` later come back?
  // SSSP_DEVICE_TODO_RETURN(8, 2, "take the current bucket's vertices out by their prefix-sum slots", false);
  // END SOLUTION
}

// Task 3: offers arc e of request v if it is of the kind the phase relaxes
// (light: weight <= delta, else heavy); an improved head moves to the bucket
// of its new distance. Returns 1 if the arc was offered, 0 if it is of the
// other kind.
__device__ unsigned offer_arc(const vertex_t* __restrict__ targets, const weight_t* __restrict__ weights, dist_t* dist,
                              bucket_t* bindex, dist_t delta, bool light, vertex_t v, edge_t e) {
  unsigned offered = 0;
  // BEGIN SOLUTION task 3: relax the light or the heavy arcs of a request
  const weight_t weight = weights[e];
  if ((weight <= delta) != light) return 0;  // Chen 5.2: the arc's kind is decided here
  offered = 1;
  const vertex_t w = targets[e];
  const dist_t offer = load_dist(dist, v) + weight;
  if (offer >= load_dist(dist, w)) return offered;
  if (offer >= sssp::cuda::atomic_min_dist(&dist[w], offer)) return offered;
  // Of two concurrent improvements the smaller one's bucket stays, as its distance does.
  atomicMin(&bindex[w], static_cast<bucket_t>(offer / delta));
  // SKELETON
  // // TODO(task 3): returns 1 if arc e (an arc of v) is of the kind the phase
  // // relaxes (`light`: weight <= delta; else weight > delta) and offers it,
  // // else 0 and changes nothing; on return, if the offer dist[v] + weight
  // // improved the head w, dist[w] is at most that offer and w is in the
  // // bucket of its new distance or an earlier one, however many threads
  // // offer to w at once. Argue: why do concurrent improvements of w leave
  // // it in the bucket of the smallest of them, in any order?
  // SSSP_DEVICE_TODO_RETURN(8, 3, "relax the light or the heavy arcs of a request", offered);
  // END SOLUTION
  return offered;
}

// Task 7 (Chen 5.4, reqSize): thread `thread` of `threads` offers its share
// of the arcs of requests[0 .. count) through offer(v, e), which returns 1
// for an arc it offered and 0 for one of the other kind; returns the sum.
// req_size is the exclusive prefix sum of the requests' out-degrees:
// req_size[i] arcs belong to requests[0 .. i), req_size[count] to them all.
template <typename Offer>
__device__ unsigned long long offer_share(const edge_t* __restrict__ offsets, const vertex_t* __restrict__ requests,
                                          const edge_t* __restrict__ req_size, unsigned count, std::uint64_t thread,
                                          std::uint64_t threads, Offer offer) {
  unsigned long long offered = 0;
  // BEGIN SOLUTION task 7: Chen's reqSize load balancing: an even share of the arcs per thread
  // Arcs numbered 0 .. total - 1 in request order; each thread takes the
  // next ceil(total / threads) of them, whatever vertices they belong to.
  const std::uint64_t total = req_size[count];
  const std::uint64_t share = (total + threads - 1) / threads;
  std::uint64_t k = thread * share;
  const std::uint64_t end = k + share < total ? k + share : total;
  if (k >= end) return 0;
  // The request that holds arc k: the last i with req_size[i] <= k (the
  // invariant req_size[lo] <= k < req_size[hi] skips requests without arcs).
  unsigned lo = 0, hi = count;
  while (hi - lo > 1) {
    const unsigned mid = lo + (hi - lo) / 2;
    if (req_size[mid] <= k) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  for (unsigned i = lo; k < end; ++i) {
    const vertex_t v = requests[i];
    const std::uint64_t stop = req_size[i + 1] < end ? req_size[i + 1] : end;
    for (; k < stop; ++k) offered += offer(v, static_cast<edge_t>(offsets[v] + (k - req_size[i])));
  }
  // SKELETON
  // // TODO(task 7): calls offer(v, e) for this thread's share of the arcs of
  // // the requests and returns the sum of what the calls returned. Over
  // // threads 0 .. threads - 1 together, offer is called exactly once for
  // // each arc e of each request v = requests[i], i < count, and for no
  // // other arc; no thread calls it more than ceil(req_size[count] / threads)
  // // times, however the degrees are spread (one request holding every arc,
  // // or many with none). Argue: what does a thread read to find its first
  // // arc, and how many reads is that?
  // (void)offsets, (void)requests, (void)req_size, (void)count, (void)thread, (void)threads, (void)offer;
  // SSSP_DEVICE_TODO_RETURN(8, 7, "Chen's reqSize load balancing: an even share of the arcs per thread", offered);
  // END SOLUTION
  return offered;
}

}  // namespace
}  // namespace lab08
