// Linked into the worker of a GPU lab: a solver that solves nothing, served
// by the runtime (not the lab's binding) so that the performance item can
// time what a solve's call costs besides the solve (api.hpp, kNullSolver).
#include "rpc/api.hpp"
#include "sssp/cuda/check.cuh"
#include "sssp/cuda/device_buffer.cuh"
#include "sssp/cuda/timed_run.cuh"

SSSP_DEVICE_TODO_STATE(0);  // never set: its reset and check are the solve path's own cost

namespace {

/// Answers run(source) through sssp::cuda::timed_run like a lab's GPU solver
/// (a valid source, the device-TODO word reset and checked, the event timer,
/// the download of n distances from a device buffer into a new vector), but
/// enqueues no algorithm: what a call of it costs is the call's fixed cost.
class NullSolver {
 public:
  explicit NullSolver(sssp::vertex_t num_vertices) : n_(num_vertices), answer_(num_vertices, "null solver answer") {
    SSSP_CUDA_CHECK(cudaMemset(answer_.data(), 0, answer_.bytes()));
    SSSP_CUDA_CHECK(cudaDeviceSynchronize());
  }

  sssp::SsspResult run(sssp::vertex_t source) {
    return sssp::cuda::timed_run<sssp::dist_t>(
        device_todo(), source, n_,
        [this](sssp::Counters&) -> sssp::cuda::DeviceBuffer<sssp::dist_t>& { return answer_; });
  }

 private:
  sssp::vertex_t n_;
  sssp::cuda::DeviceBuffer<sssp::dist_t> answer_;
};

}  // namespace

void sssp::rpc::register_runtime(Registry& registry) {
  registry.constructor<NullSolver, vertex_t>(kNullSolver);
  registry.method(kNullSolverRun, &NullSolver::run);
}
