/// @file
/// @brief timed_run(): everything a GPU solver's run() does besides its
/// algorithm, written once.
///
/// A solver file then holds the algorithm and little else, the way each gapbs
/// kernel leaves timing and verification to its harness:
///
///     SsspResult FrontierSssp::run(vertex_t source) {
///       return sssp::cuda::timed_run<dist_t>(device_todo(), source, n, [&](Counters& work) -> DeviceBuffer<dist_t>& {
///         ...launch kernels, count launches and host syncs in `work`...
///         return s.cost;  // the device array that holds the answer
///       });
///     }
#pragma once

#include <cuda_runtime.h>

#include <utility>

#include "sssp/counters.hpp"
#include "sssp/cuda/device_buffer.cuh"
#include "sssp/cuda/event_timer.cuh"
#include "sssp/cuda/todo.cuh"
#include "sssp/graph.hpp"
#include "sssp/result.hpp"

namespace sssp::cuda {

/// Runs one solve from `source` on a graph of `num_vertices` vertices:
/// 1. throws InvalidSource unless `source` is a vertex (before any GPU work);
/// 2. clears the file's device-TODO word;
/// 3. times `algorithm(counters)` on `stream` with CUDA events: everything it
///    enqueues, host round trips included;
/// 4. throws NotImplemented if an unfinished kernel ran;
/// 5. copies the device array `algorithm` returned to the host (not timed).
/// @tparam Value dist_t or level_t
/// @param todo the solver file's device-TODO word (`device_todo()`)
/// @param source the vertex to solve from
/// @param num_vertices vertices of the solver's graph
/// @param algorithm callable `(Counters&) -> const DeviceBuffer<Value>&`; it
///        counts its own work and returns the array that holds the answer
/// @param stream the stream the algorithm enqueues on (timer and copy-out follow it)
template <typename Value, typename Algorithm>
[[nodiscard]] RunResult<Value> timed_run(const DeviceTodo& todo, vertex_t source, vertex_t num_vertices,
                                         Algorithm&& algorithm, cudaStream_t stream = nullptr) {
  require_valid_source(source, num_vertices);
  todo.reset(stream);
  RunResult<Value> result;
  EventTimer timer;
  timer.start(stream);
  const DeviceBuffer<Value>& answer = std::forward<Algorithm>(algorithm)(result.counters);
  timer.stop(stream);
  result.device_ms = timer.elapsed_ms();
  todo.check();
  result.values = answer.to_host(stream);
  return result;
}

}  // namespace sssp::cuda
