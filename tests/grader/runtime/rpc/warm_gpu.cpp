// Linked into the worker of a GPU lab: creates the CUDA context when the
// worker is asked to (kWarmGpuFlag), while the test program is still
// setting up, rather than in the first call of a test.
#include <cuda_runtime.h>

#include "rpc/api.hpp"

void sssp::rpc::warm_up_gpu() {
  // A host thread that waits for the GPU sleeps instead of spinning, so a
  // GPU solve costs the worker little CPU time: the performance item tells
  // a solver that works on the CPU by it (docs/design/perf-grading.md).
  // An error here (no GPU, no driver) is the first call's to report.
  if (cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync) != cudaSuccess) cudaGetLastError();
  if (cudaFree(nullptr) != cudaSuccess) cudaGetLastError();
}
