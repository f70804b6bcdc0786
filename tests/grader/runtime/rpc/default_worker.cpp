// What only an isolated test program holds: the worker it starts when
// SSSP_WORKER is not set (its lab's student worker, built beside it, compiled
// in with that path), the early start of the worker before the tests run,
// a GPU check that leaves the kernels (and the CUDA context) to it, and the
// worker's CPU clock and null solver for the performance item.
#include <gtest/gtest.h>

#include <memory>

#include "perf_test.hpp"
#include "rpc/api.hpp"
#include "sssp_test.hpp"

const char* sssp::rpc::default_worker() { return SSSP_RPC_DEFAULT_WORKER; }

bool sssp::rpc::runs_gpu_tests() { return SSSP_RPC_GPU_TESTS != 0; }

namespace {

// The test side of the worker runtime's null solver (null_solver.cu).
class RemoteNullSolver {
 public:
  explicit RemoteNullSolver(sssp::vertex_t n)
      : remote_(sssp::rpc::Remote::make<sssp::vertex_t>(sssp::rpc::kNullSolver, n)) {}
  sssp::SsspResult run(sssp::vertex_t source) {
    return remote_.call(&RemoteNullSolver::run, sssp::rpc::kNullSolverRun, source);
  }

 private:
  sssp::rpc::Remote remote_;
};

// The null solver on `g`, called as a lab's Perf test calls its solver.
sssp::test::PerfSolve null_solver(const sssp::test::NamedGraph& g) {
  auto solver = std::make_shared<RemoteNullSolver>(g.graph.num_vertices());
  return [solver](sssp::vertex_t source) { return solver->run(source).values; };
}

// The worker starts while GoogleTest sets up, before the first test: a GPU
// worker then creates its CUDA context while the test builds its graphs,
// not inside the test's first call (about 0.2 s a GPU test on an H100). A
// run that only lists the tests sets up no environment, so starts no worker.
class StartWorkerEarly : public testing::Environment {
 public:
  void SetUp() override { sssp::rpc::start_worker(); }
};

[[maybe_unused]] testing::Environment* const start_worker_early =
    testing::AddGlobalTestEnvironment(new StartWorkerEarly);

// This process runs no kernel: creating a context only to check for one
// would cost each GPU test 0.1-0.2 s. A build without the GPU's kernel image
// fails the test with the worker's CUDA error instead of skipping it.
[[maybe_unused]] const bool gpu_checked_by_presence = [] {
  sssp::test::gpu_kernels_run_in_the_worker();
  // The code under test runs in the worker: the performance item reads its
  // CPU time, and times its setup from when it is up.
  sssp::test::set_solver_cpu_clock(&sssp::rpc::worker_cpu_seconds);
  sssp::test::set_solver_ready_wait(&sssp::rpc::wait_for_worker);
  sssp::test::set_call_cost_solver(&null_solver);
  return true;
}();

}  // namespace
