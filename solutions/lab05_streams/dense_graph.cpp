// Lab 05: the adjacency matrix, in pageable or pinned host memory.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "lab05.hpp"
#include "sssp/cuda/check.cuh"
#include "sssp/errors.hpp"
#include "sssp/weights.hpp"

namespace lab05 {

namespace {

std::string gib(std::size_t bytes) {
  return std::to_string(static_cast<double>(bytes) / (1u << 30)).substr(0, 5) + " GiB";
}

// Runs body(first_row, end_row) on every core, each thread a band of rows.
template <typename Body>
void for_row_bands(vertex_t n, Body body) {
  const unsigned threads = std::max(1u, std::min(std::thread::hardware_concurrency(), n / 64 + 1));
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t) {
    const auto first = static_cast<vertex_t>(static_cast<std::uint64_t>(n) * t / threads);
    const auto end = static_cast<vertex_t>(static_cast<std::uint64_t>(n) * (t + 1) / threads);
    pool.emplace_back(body, first, end);
  }
  for (std::thread& thread : pool) thread.join();
}

}  // namespace

DenseGraph::DenseGraph(vertex_t n, HostMemory memory, std::string name)
    : n_(n), memory_(memory), name_(std::move(name)) {
  if (n > kMaxDenseVertices) {
    throw sssp::InputError("a dense graph may have at most " + std::to_string(kMaxDenseVertices) + " vertices, got " +
                           std::to_string(n));
  }
  const std::size_t size = bytes();
  if (size == 0) return;
  if (memory == HostMemory::kPinned) {
    void* pinned = nullptr;
    const cudaError_t status = cudaMallocHost(&pinned, size);
    if (status == cudaErrorMemoryAllocation) {
      cudaGetLastError();  // clear it: this error is reported as bad input, not a broken context
      throw sssp::InputError("cannot pin " + gib(size) + " of host memory for the " + std::to_string(n) + " x " +
                             std::to_string(n) + " matrix of " + name_);
    }
    SSSP_CUDA_CHECK(status);
    data_ = static_cast<weight_t*>(pinned);
  } else {
    data_ = static_cast<weight_t*>(std::malloc(size));
    if (data_ == nullptr) {
      throw sssp::InputError("cannot allocate " + gib(size) + " of host memory for the " + std::to_string(n) + " x " +
                             std::to_string(n) + " matrix of " + name_);
    }
  }
  weight_t* data = data_;
  const vertex_t columns = n_;
  for_row_bands(n_, [=](vertex_t first, vertex_t end) {
    std::fill(data + static_cast<std::size_t>(first) * columns, data + static_cast<std::size_t>(end) * columns,
              kNoEdge);
  });
}

DenseGraph::~DenseGraph() { release(); }

DenseGraph::DenseGraph(DenseGraph&& other) noexcept
    : n_(std::exchange(other.n_, 0)),
      data_(std::exchange(other.data_, nullptr)),
      memory_(other.memory_),
      name_(std::move(other.name_)) {}

DenseGraph& DenseGraph::operator=(DenseGraph&& other) noexcept {
  if (this != &other) {
    release();
    n_ = std::exchange(other.n_, 0);
    data_ = std::exchange(other.data_, nullptr);
    memory_ = other.memory_;
    name_ = std::move(other.name_);
  }
  return *this;
}

void DenseGraph::release() noexcept {
  if (data_ == nullptr) return;
  if (memory_ == HostMemory::kPinned) {
    cudaFreeHost(data_);
  } else {
    std::free(data_);
  }
  data_ = nullptr;
}

void DenseGraph::set_weight(vertex_t u, vertex_t v, weight_t w) {
  if (u >= n_ || v >= n_) {
    throw sssp::InputError("arc " + std::to_string(u) + " -> " + std::to_string(v) + " is outside the " +
                           std::to_string(n_) + "-vertex matrix of " + name_);
  }
  if (w == kNoEdge) {
    throw sssp::InputError("arc " + std::to_string(u) + " -> " + std::to_string(v) + " of " + name_ + " weighs " +
                           std::to_string(w) + ", the matrix's no-arc marker (lab05::kNoEdge)");
  }
  data_[index(u, v)] = w;
}

void DenseGraph::remove_arc(vertex_t u, vertex_t v) {
  if (u >= n_ || v >= n_) {
    throw sssp::InputError("arc " + std::to_string(u) + " -> " + std::to_string(v) + " is outside the " +
                           std::to_string(n_) + "-vertex matrix of " + name_);
  }
  data_[index(u, v)] = kNoEdge;
}

DenseGraph DenseGraph::from_csr(const CsrGraph& graph, HostMemory memory) {
  DenseGraph dense(graph.num_vertices(), memory, graph.name);
  for (vertex_t u = 0; u < graph.num_vertices(); ++u) {
    const auto heads = graph.neighbors(u);
    const auto weights = graph.neighbor_weights(u);
    for (std::size_t i = 0; i < heads.size(); ++i) {
      if (weights[i] == kNoEdge) dense.set_weight(u, heads[i], weights[i]);  // throws: the marker is no weight
      if (weights[i] < dense.weight(u, heads[i])) dense.set_weight(u, heads[i], weights[i]);
    }
  }
  return dense;
}

DenseGraph DenseGraph::random_complete(vertex_t n, std::uint64_t seed, weight_t max_weight, HostMemory memory) {
  if (max_weight == 0 || max_weight == kNoEdge) {
    throw sssp::InputError("random_complete: max_weight must be 1 .. " + std::to_string(kNoEdge - 1));
  }
  DenseGraph dense(n, memory,
                   "complete:" + std::to_string(n) + " (weights 1.." + std::to_string(max_weight) + ", seed " +
                       std::to_string(seed) + ")");
  weight_t* data = dense.data_;
  for_row_bands(n, [=](vertex_t first, vertex_t end) {
    const std::uint64_t salt = sssp::splitmix64(seed);
    for (vertex_t u = first; u < end; ++u) {
      weight_t* row = data + static_cast<std::size_t>(u) * n;
      for (vertex_t v = 0; v < n; ++v) {
        const std::uint64_t key = (static_cast<std::uint64_t>(u) << 32) | v;
        row[v] = u == v ? kNoEdge : static_cast<weight_t>(1 + sssp::splitmix64(salt ^ key) % max_weight);
      }
    }
  });
  return dense;
}

CsrGraph DenseGraph::to_csr() const {
  sssp::EdgeList edges;
  edges.num_vertices = n_;
  edges.name = name_;
  for (vertex_t u = 0; u < n_; ++u) {
    for (vertex_t v = 0; v < n_; ++v) {
      if (weight(u, v) != kNoEdge) edges.add_arc(u, v, weight(u, v));
    }
  }
  return sssp::to_csr(edges);
}

}  // namespace lab05
