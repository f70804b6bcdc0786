// sssp_cuda for builds without a CUDA compiler: every query says why there is no GPU.
#include "sssp/cuda/device.hpp"
#include "sssp/errors.hpp"

namespace sssp::cuda {

const DeviceStatus& query_device(int device, DeviceCheck) {
  static const DeviceStatus status = [device] {
    DeviceStatus s;
    s.device = device;
    s.reason = "this build has no CUDA support (" SSSP_CUDA_DISABLED_REASON ")";
    return s;
  }();
  return status;
}

double measure_round_trip_us(int) { return -1.0; }

void require_free_memory(std::uint64_t, const std::string& what) {
  throw CudaError(what + " needs a GPU: " + query_device().reason);
}

}  // namespace sssp::cuda
