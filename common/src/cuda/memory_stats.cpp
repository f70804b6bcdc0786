// Device-memory accounting and the status summary: plain C++, shared by the
// CUDA and the no-CUDA builds of sssp_cuda.
#include <algorithm>
#include <atomic>
#include <cstdio>

#include "sssp/cuda/device.hpp"

namespace sssp::cuda {
namespace {
std::atomic<std::size_t> g_current{0};
std::atomic<std::size_t> g_peak{0};
}  // namespace

void note_allocation(std::size_t bytes) {
  const std::size_t now = g_current.fetch_add(bytes) + bytes;
  std::size_t peak = g_peak.load();
  while (now > peak && !g_peak.compare_exchange_weak(peak, now)) {
  }
}

void note_release(std::size_t bytes) { g_current.fetch_sub(bytes); }

MemoryStats memory_stats() { return {g_current.load(), g_peak.load()}; }

void reset_peak_memory() { g_peak.store(g_current.load()); }

std::string DeviceStatus::summary() const {
  if (!available) return "no usable GPU: " + reason;
  char text[256];
  std::snprintf(text, sizeof text, "%s (sm_%d%d, %d SMs, %.1f GiB, L2 %.0f MiB)", name.c_str(), compute_major,
                compute_minor, multiprocessors, static_cast<double>(global_memory) / (1024.0 * 1024.0 * 1024.0),
                static_cast<double>(l2_cache) / (1024.0 * 1024.0));
  return text;
}

}  // namespace sssp::cuda
