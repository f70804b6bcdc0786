// Linked into the worker of a GPU lab: creates the CUDA context when the
// worker is asked to (kWarmGpuFlag), while the test program is still
// setting up, rather than in the first call of a test.
#include <cuda_runtime.h>

#include "rpc/api.hpp"

void sssp::rpc::warm_up_gpu() {
  // An error here (no GPU, no driver) is the first call's to report.
  if (cudaFree(nullptr) != cudaSuccess) cudaGetLastError();
}
