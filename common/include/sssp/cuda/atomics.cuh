/// @file
/// @brief Device-scope atomic loads and stores with a named memory order: the
/// words that threads of different blocks share while a kernel runs.
///
/// A plain load may be served from a stale L1 line or torn by a concurrent
/// store, and a plain store orders nothing. Each helper here is one
/// cuda::atomic_ref access at device scope, so the order a kernel relies on
/// is written at the call (load_acquire pairs with store_release) instead of
/// in a comment beside a bare pointer dereference.
#pragma once

#include <cuda/atomic>

namespace sssp::cuda {

/// The scope of every helper here: all threads of the GPU, not the host.
inline constexpr ::cuda::thread_scope kDeviceScope = ::cuda::thread_scope_device;

/// `*p`, read atomically without ordering anything else: never torn, never a
/// stale L1 copy. For a value another block may be changing (a distance, a
/// count) whose reader needs no other data published with it.
template <typename T>
__device__ inline T load_relaxed(const T* p) {
  return ::cuda::atomic_ref<const T, kDeviceScope>(*p).load(::cuda::memory_order_relaxed);
}

/// `*p`, read atomically; every write that the thread which stored it with
/// store_release made before that store is visible after this load.
template <typename T>
__device__ inline T load_acquire(const T* p) {
  return ::cuda::atomic_ref<const T, kDeviceScope>(*p).load(::cuda::memory_order_acquire);
}

/// Writes `value` to `*p` atomically, ordering nothing else.
template <typename T>
__device__ inline void store_relaxed(T* p, T value) {
  ::cuda::atomic_ref<T, kDeviceScope>(*p).store(value, ::cuda::memory_order_relaxed);
}

/// Writes `value` to `*p` atomically after every earlier write of this
/// thread: a load_acquire that sees `value` sees those writes too (publishes them).
template <typename T>
__device__ inline void store_release(T* p, T value) {
  ::cuda::atomic_ref<T, kDeviceScope>(*p).store(value, ::cuda::memory_order_release);
}

/// Adds `value` to `*p` and returns the old value, releasing this thread's
/// earlier writes and acquiring those of every earlier adder: the ticket of a
/// "last block to arrive does the rest" pattern.
template <typename T>
__device__ inline T fetch_add_acq_rel(T* p, T value) {
  return ::cuda::atomic_ref<T, kDeviceScope>(*p).fetch_add(value, ::cuda::memory_order_acq_rel);
}

}  // namespace sssp::cuda
