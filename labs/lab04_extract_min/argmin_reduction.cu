// Lab 04 skeleton, generated from solutions/lab04_extract_min/argmin_reduction.cu by common/tools/make_skeleton.py.
// This file is yours: replace each SSSP_TODO with your code.
// Lab 04, tasks 1-3 (and 4-5 through argmin.cuh): the arg-min reduction in
// five stages, each a step of the classic sequence of reduction optimisations,
// and CUB's arg-min as the baseline they race.
#include <cub/device/device_reduce.cuh>

#include <algorithm>
#include <cstdint>
#include <string>

#include "lab04.hpp"
#include "sssp/cuda/event_timer.cuh"
#include "sssp/cuda/host_flag.cuh"
#include "sssp/cuda/todo.cuh"
#include "sssp/errors.hpp"

// This file's device-TODO word, defined before argmin.cuh, whose stubs write it too.
SSSP_DEVICE_TODO_STATE_IN(4, {4, "argmin.cuh"}, {5, "argmin.cuh"});

#include "argmin.cuh"

namespace lab04 {

using sssp::cuda::DeviceBuffer;
using device::better_of;

namespace {

// Stages 1-4 take the keys on the first pass (the index of a key is its
// position, in_index is null) and the candidates of the previous pass after
// that. Out of range, the identity: infinity with an index no element has.
__device__ __forceinline__ ArgMin load_candidate(const dist_t* in_key, const std::uint32_t* in_index, std::uint64_t n,
                                                 std::uint64_t i) {
  if (i >= n) return ArgMin{};
  return {in_key[i], in_index != nullptr ? in_index[i] : static_cast<std::uint32_t>(i)};
}

// The block's candidates in shared memory, keys and indices in separate
// arrays, each read with unit stride; an array of ArgMin (16 bytes with its
// padding) would double the stride of every access and the bank conflicts.
struct SharedCandidates {
  dist_t* key;
  std::uint32_t* index;

  __device__ explicit SharedCandidates(unsigned block_size) {
    extern __shared__ dist_t shared_words[];
    key = shared_words;
    index = reinterpret_cast<std::uint32_t*>(shared_words + block_size);
  }
  __device__ ArgMin get(unsigned t) const { return {key[t], index[t]}; }
  __device__ void set(unsigned t, const ArgMin& c) {
    key[t] = c.key;
    index[t] = c.index;
  }
  // Slot t keeps the better of slots t and t + offset.
  __device__ void combine(unsigned t, unsigned offset) { set(t, better_of(get(t), get(t + offset))); }
};

/// Shared memory a stage 1-3 block needs.
std::size_t shared_bytes(unsigned block_size) { return block_size * (sizeof(dist_t) + sizeof(std::uint32_t)); }

__device__ __forceinline__ void write_block_result(const ArgMin& c, dist_t* out_key, std::uint32_t* out_index) {
  out_key[blockIdx.x] = c.key;
  out_index[blockIdx.x] = c.index;
}

// Stage 1: interleaved addressing. In step s the threads whose id is a
// multiple of 2s combine slot t with slot t + s. Correct, but the active
// threads are scattered over every warp, so each warp diverges.
__global__ void argmin_interleaved(const dist_t* __restrict__ in_key, const std::uint32_t* __restrict__ in_index,
                                   std::uint32_t n, dist_t* __restrict__ out_key,
                                   std::uint32_t* __restrict__ out_index) {
  SharedCandidates shared(blockDim.x);
  const unsigned t = threadIdx.x;
  shared.set(t, load_candidate(in_key, in_index, n, sssp::cuda::global_thread_index()));
  __syncthreads();
  // TODO(task 1): on return, in every thread, slot 0 holds the better_of
  // all blockDim.x slots (a power of two), reduced by interleaved
  // addressing as described above. Argue that no slot is read before the
  // step that writes it has finished; every thread must reach every barrier.
  SSSP_DEVICE_TODO(4, 1, "stage 1, interleaved addressing (kernel)");
  if (t == 0) write_block_result(shared.get(0), out_key, out_index);
}

// Reduces the block's blockDim.x candidates in `shared` to slot 0 (t is this
// thread's index), called by every thread of the block after the candidates
// are stored and a barrier: stages 2 and 3 end with it.
__device__ void reduce_sequential(SharedCandidates& shared, unsigned t) {
  // TODO(task 2): on return, in every thread, slot 0 holds the better_of
  // all blockDim.x slots (a power of two). Unlike stage 1, the threads that
  // combine in a step must be contiguous, so that whole warps fall idle
  // together and no two threads of a warp touch the same bank; every
  // thread must reach every barrier.
  SSSP_DEVICE_TODO(4, 2, "stage 2, sequential addressing (kernel)");
}

// Stage 2: sequential addressing. The active threads of each step are
// contiguous, so whole warps retire together and shared-memory accesses are
// conflict-free.
__global__ void argmin_sequential(const dist_t* __restrict__ in_key, const std::uint32_t* __restrict__ in_index,
                                  std::uint32_t n, dist_t* __restrict__ out_key,
                                  std::uint32_t* __restrict__ out_index) {
  SharedCandidates shared(blockDim.x);
  const unsigned t = threadIdx.x;
  shared.set(t, load_candidate(in_key, in_index, n, sssp::cuda::global_thread_index()));
  __syncthreads();
  reduce_sequential(shared, t);
  if (t == 0) write_block_result(shared.get(0), out_key, out_index);
}

// The better of this thread's two candidates, for stages 3 and 4, whose
// blocks cover 2 * blockDim.x candidates each.
__device__ ArgMin load_two_candidates(const dist_t* __restrict__ in_key, const std::uint32_t* __restrict__ in_index,
                                      std::uint64_t n) {
  // TODO(task 3): block b covers the 2 * blockDim.x candidates from position
  // 2 * b * blockDim.x (load_candidate gives the identity past n). Each
  // candidate of the block must be loaded by exactly one thread, and the
  // loads of a warp must be coalesced: consecutive threads, consecutive
  // positions, in both of a thread's loads.
  SSSP_DEVICE_TODO_RETURN(4, 3, "stage 3, first step during the load (kernel)", ArgMin{});
}

// Stage 3: each block covers 2 * blockDim.x candidates and each thread
// combines two of them as it loads. In stage 2 half the threads idle from
// the first step; here every thread does a comparison, and half as many
// blocks are launched.
__global__ void argmin_first_step_during_load(const dist_t* __restrict__ in_key,
                                              const std::uint32_t* __restrict__ in_index, std::uint32_t n,
                                              dist_t* __restrict__ out_key, std::uint32_t* __restrict__ out_index) {
  SharedCandidates shared(blockDim.x);
  const unsigned t = threadIdx.x;
  shared.set(t, load_two_candidates(in_key, in_index, n));
  __syncthreads();
  reduce_sequential(shared, t);
  if (t == 0) write_block_result(shared.get(0), out_key, out_index);
}

// Stage 4: as stage 3, but the block reduces with warp shuffles
// (device::block_argmin): two barriers in all instead of log2(blockDim.x).
__global__ void argmin_warp_shuffle(const dist_t* __restrict__ in_key, const std::uint32_t* __restrict__ in_index,
                                    std::uint32_t n, dist_t* __restrict__ out_key,
                                    std::uint32_t* __restrict__ out_index) {
  __shared__ ArgMin warp_results[sssp::cuda::kWarpSize];
  const ArgMin mine = device::block_argmin(load_two_candidates(in_key, in_index, n), warp_results);
  if (threadIdx.x == 0) write_block_result(mine, out_key, out_index);
}

// Stage 5: device::grid_argmin, one launch; thread 0 of the last block
// writes the answer.
__global__ void argmin_many_per_thread(const dist_t* __restrict__ keys, std::uint32_t n, ArgMin* block_results,
                                       unsigned* blocks_done, ArgMin* result) {
  device::grid_argmin(keys, n, block_results, blocks_done, [result](const ArgMin& found) { *result = found; });
}

}  // namespace

struct ArgMinReduction::Impl {
  ReduceOptions options;
  std::uint32_t n;
  DeviceBuffer<dist_t> keys;
  // Ping-pong candidates of the passes of stages 1-4.
  DeviceBuffer<dist_t> pass_key[2];
  DeviceBuffer<std::uint32_t> pass_index[2];
  // Stage 5.
  DeviceBuffer<ArgMin> block_results;
  DeviceBuffer<unsigned> blocks_done;
  sssp::cuda::DeviceWord<ArgMin> result;
  unsigned stage5_blocks;
  // CUB.
  DeviceBuffer<std::uint8_t> cub_scratch;
  sssp::cuda::DeviceWord<dist_t> cub_min;
  sssp::cuda::DeviceWord<std::int64_t> cub_index;

  static std::uint32_t checked_size(std::size_t count) {
    if (count == 0) throw sssp::InputError("the arg-min of an empty array is undefined");
    if (count >= kNoIndex) {
      throw sssp::InputError("arg-min of " + std::to_string(count) + " keys: at most 2^32 - 2 fit 32-bit indices");
    }
    return static_cast<std::uint32_t>(count);
  }

  Impl(std::span<const dist_t> host_keys, ReduceOptions o)
      : options((device::require_reduction_block_size(o.block_size), o)),
        n(checked_size(host_keys.size())),
        keys(host_keys, "keys") {
    const std::size_t first_pass_blocks = sssp::cuda::blocks_for(n, options.block_size);
    for (int b = 0; b < 2; ++b) {
      pass_key[b] = DeviceBuffer<dist_t>(first_pass_blocks, "pass keys");
      pass_index[b] = DeviceBuffer<std::uint32_t>(first_pass_blocks, "pass indices");
    }
    stage5_blocks = std::min(sssp::cuda::resident_grid(argmin_many_per_thread, options.block_size),
                             sssp::cuda::grid_for(n, options.block_size));
    block_results = DeviceBuffer<ArgMin>(stage5_blocks, "block candidates");
    blocks_done = DeviceBuffer<unsigned>(1, "block counter");
    blocks_done.fill_bytes(0);
    std::size_t scratch_bytes = 0;
    SSSP_CUDA_CHECK(
        cub::DeviceReduce::ArgMin(nullptr, scratch_bytes, keys.data(), cub_min.device(), cub_index.device(), n));
    cub_scratch = DeviceBuffer<std::uint8_t>(scratch_bytes, "CUB scratch");
    SSSP_CUDA_CHECK(cudaStreamSynchronize(nullptr));
  }

  // Stages 1-4: one launch per pass until one candidate is left. Returns
  // which ping-pong buffer holds the answer in slot 0. Each block reduces
  // exactly one tile of candidates (one or two per thread) to one, so a pass
  // launches one block per tile (blocks_for), not a capped grid.
  int reduce_in_passes(Stage stage, Counters& work) {
    const unsigned block = options.block_size;
    const bool two_per_thread = stage == Stage::kFirstStepDuringLoad || stage == Stage::kWarpShuffle;
    const dist_t* in_key = keys.data();
    const std::uint32_t* in_index = nullptr;
    std::uint32_t count = n;
    int out = 0;
    for (;;) {
      const std::uint64_t threads = two_per_thread ? (std::uint64_t{count} + 1) / 2 : count;
      const unsigned grid = sssp::cuda::blocks_for(threads, block);
      dist_t* out_key = pass_key[out].data();
      std::uint32_t* out_index = pass_index[out].data();
      switch (stage) {
        case Stage::kInterleaved:
          argmin_interleaved<<<grid, block, shared_bytes(block)>>>(in_key, in_index, count, out_key, out_index);
          break;
        case Stage::kSequential:
          argmin_sequential<<<grid, block, shared_bytes(block)>>>(in_key, in_index, count, out_key, out_index);
          break;
        case Stage::kFirstStepDuringLoad:
          argmin_first_step_during_load<<<grid, block, shared_bytes(block)>>>(in_key, in_index, count, out_key,
                                                                              out_index);
          break;
        default: argmin_warp_shuffle<<<grid, block>>>(in_key, in_index, count, out_key, out_index); break;
      }
      SSSP_CUDA_CHECK_LAUNCH();
      ++work.kernel_launches;
      ++work.iterations;
      if (grid == 1) return out;
      in_key = out_key;
      in_index = out_index;
      count = grid;
      out ^= 1;
    }
  }
};

ArgMinReduction::ArgMinReduction(std::span<const dist_t> keys, ReduceOptions options)
    : impl_(std::make_unique<Impl>(keys, options)) {}

ArgMinReduction::~ArgMinReduction() = default;

ReductionResult ArgMinReduction::run(Stage stage) {
  Impl& s = *impl_;
  ReductionResult out;
  int answer_buffer = 0;
  // Stage 5 writes its answer from the last block; a stale answer from the
  // previous run must not pass for a new one.
  if (stage == Stage::kManyPerThread) s.result.fill_bytes(0xFF);
  // Cleared for this run, so that in one process a finished stage is not
  // blamed for an unfinished one that ran before it.
  device_todo().reset();
  sssp::cuda::EventTimer timer;
  timer.start();
  if (stage == Stage::kManyPerThread) {
    argmin_many_per_thread<<<s.stage5_blocks, s.options.block_size>>>(s.keys.data(), s.n, s.block_results.data(),
                                                                      s.blocks_done.data(), s.result.device());
    SSSP_CUDA_CHECK_LAUNCH();
    ++out.counters.kernel_launches;
    ++out.counters.iterations;
  } else {
    answer_buffer = s.reduce_in_passes(stage, out.counters);
  }
  timer.stop();
  out.device_ms = timer.elapsed_ms();
  device_todo().check();
  if (stage == Stage::kManyPerThread) {
    out.argmin = s.result.read();
  } else {
    SSSP_CUDA_CHECK(
        cudaMemcpy(&out.argmin.key, s.pass_key[answer_buffer].data(), sizeof(dist_t), cudaMemcpyDeviceToHost));
    SSSP_CUDA_CHECK(cudaMemcpy(&out.argmin.index, s.pass_index[answer_buffer].data(), sizeof(std::uint32_t),
                               cudaMemcpyDeviceToHost));
  }
  return out;
}

ReductionResult ArgMinReduction::run_cub() {
  Impl& s = *impl_;
  std::size_t scratch_bytes = s.cub_scratch.size();
  ReductionResult out;
  sssp::cuda::EventTimer timer;
  timer.start();
  SSSP_CUDA_CHECK(cub::DeviceReduce::ArgMin(s.cub_scratch.data(), scratch_bytes, s.keys.data(), s.cub_min.device(),
                                            s.cub_index.device(), s.n));
  timer.stop();
  out.device_ms = timer.elapsed_ms();
  out.argmin = {s.cub_min.read(), static_cast<std::uint32_t>(s.cub_index.read())};
  return out;
}

}  // namespace lab04
