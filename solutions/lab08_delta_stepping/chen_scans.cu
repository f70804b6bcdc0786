// Lab 08 (given): Chen's device-wide passes, done by CUB (chen_scans.cuh).
#include "chen_scans.cuh"

#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/transform_output_iterator.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/tuple.h>

#include <algorithm>

#include "sssp/cuda/check.cuh"

namespace lab08::chen_scans {
namespace {

// The light round's scan sums, for each vertex v of bucket `current`, the
// pair (out-degree of v, 1) packed as degree * 2^32 + 1, and 0 for any other
// vertex: the exclusive sum at v is then (arcs of the requests before v,
// ReqIndex(v)). Neither half carries into the other: a graph has fewer than
// 2^32 arcs and vertices (sssp/types.hpp). One scan for both: a second scan
// per round would cost its launches in a loop bound by its rounds (1.2x on
// road-NY, 1.4x on a grid, measured).
struct BucketArcsAndSlot {
  const bucket_t* bindex;
  const edge_t* offsets;
  bucket_t current;
  __device__ std::uint64_t operator()(vertex_t v) const {
    if (bindex[v] != current) return 0;
    return (static_cast<std::uint64_t>(offsets[v + 1] - offsets[v]) << 32) | 1u;
  }
};

// Unpacks the scan's output into ReqIndex(v) and the arcs before v.
struct SlotAndArcs {
  __host__ __device__ thrust::tuple<vertex_t, edge_t> operator()(std::uint64_t packed) const {
    return {static_cast<vertex_t>(packed), static_cast<edge_t>(packed >> 32)};
  }
};

// v is in S: it was taken out of bucket `current` (its stamp is current + 1).
struct TakenFrom {
  const bucket_t* taken_stamp;
  bucket_t current;
  __device__ bool operator()(vertex_t v) const { return taken_stamp[v] == current + 1; }
};

// The out-degree of requests[i] for i < *count, and 0 past it: the input of
// the heavy phase's scan that gives reqSize (S's size is on the GPU).
struct RequestDegree {
  const edge_t* offsets;
  const vertex_t* requests;
  const unsigned* count;
  __device__ edge_t operator()(vertex_t i) const {
    if (i >= *count) return 0;
    const vertex_t v = requests[i];
    return offsets[v + 1] - offsets[v];
  }
};

auto bucket_scan_input(const bucket_t* bindex, const edge_t* offsets, bucket_t current) {
  return thrust::make_transform_iterator(thrust::counting_iterator<vertex_t>(0),
                                         BucketArcsAndSlot{bindex, offsets, current});
}
auto bucket_scan_output(vertex_t* req_index, edge_t* arcs_before) {
  return thrust::make_transform_output_iterator(thrust::make_zip_iterator(req_index, arcs_before), SlotAndArcs{});
}
auto request_degrees(const edge_t* offsets, const vertex_t* requests, const unsigned* count) {
  return thrust::make_transform_iterator(thrust::counting_iterator<vertex_t>(0),
                                         RequestDegree{offsets, requests, count});
}

}  // namespace

std::size_t scratch_bytes(vertex_t n) {
  std::size_t scan = 0, select = 0, reduce = 0, sizes = 0;
  SSSP_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, scan, bucket_scan_input(nullptr, nullptr, 0),
                                                bucket_scan_output(nullptr, nullptr), n));
  SSSP_CUDA_CHECK(cub::DeviceSelect::If(nullptr, select, thrust::counting_iterator<vertex_t>(0),
                                        static_cast<vertex_t*>(nullptr), static_cast<unsigned*>(nullptr), n,
                                        TakenFrom{nullptr, 0}));
  SSSP_CUDA_CHECK(cub::DeviceReduce::Min(nullptr, reduce, static_cast<const bucket_t*>(nullptr),
                                         static_cast<bucket_t*>(nullptr), n));
  SSSP_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, sizes, request_degrees(nullptr, nullptr, nullptr),
                                                static_cast<edge_t*>(nullptr), static_cast<std::uint64_t>(n) + 1));
  return std::max({scan, select, reduce, sizes, std::size_t{1}});
}

void scan_bucket(void* scratch, std::size_t bytes, const bucket_t* bindex, const edge_t* offsets, bucket_t current,
                 vertex_t* req_index, edge_t* arcs_before, vertex_t n, cudaStream_t stream) {
  SSSP_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(scratch, bytes, bucket_scan_input(bindex, offsets, current),
                                                bucket_scan_output(req_index, arcs_before), n, stream));
}

void select_taken(void* scratch, std::size_t bytes, const bucket_t* taken_stamp, bucket_t current, vertex_t* requests,
                  unsigned* selected, vertex_t n, cudaStream_t stream) {
  SSSP_CUDA_CHECK(cub::DeviceSelect::If(scratch, bytes, thrust::counting_iterator<vertex_t>(0), requests, selected, n,
                                        TakenFrom{taken_stamp, current}, stream));
}

void scan_request_degrees(void* scratch, std::size_t bytes, const edge_t* offsets, const vertex_t* requests,
                          const unsigned* count, edge_t* req_size, std::uint64_t items, cudaStream_t stream) {
  SSSP_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(scratch, bytes, request_degrees(offsets, requests, count), req_size,
                                                items, stream));
}

void min_bucket(void* scratch, std::size_t bytes, const bucket_t* bindex, bucket_t* next, vertex_t n,
                cudaStream_t stream) {
  SSSP_CUDA_CHECK(cub::DeviceReduce::Min(scratch, bytes, bindex, next, n, stream));
}

}  // namespace lab08::chen_scans
