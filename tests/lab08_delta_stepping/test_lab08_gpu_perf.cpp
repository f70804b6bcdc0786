// Lab 08 autograder, GPU part: the speed item (the Perf tests). Every test
// needs a GPU and is skipped, with the reason, without one.
#include <memory>

#include "lab08.hpp"
#include "lab08_gpu_test.hpp"
#include "perf_test.hpp"
#include "sssp_test.hpp"

namespace {

using namespace lab08::test;  // the helpers every GPU test file shares

// The performance item (rubric "perf", docs/design/perf-grading.md): the
// solver timed from this process on the graphs tests/grade.py names, against
// the reference timed the same way; without them, a smoke run of the timed path.
TEST(Perf, NearFar) {
  SSSP_REQUIRE_GPU();
  sssp::test::time_solver_on_perf_graphs("NearFar", [](const NamedGraph& g) -> sssp::test::PerfSolve {
    auto solver = std::make_shared<NearFarSssp>(g.graph);
    return [solver](vertex_t source) { return solver->run(source).values; };
  });
}

TEST(Perf, ChenDeltaStepping) {
  SSSP_REQUIRE_GPU();
  sssp::test::time_solver_on_perf_graphs("ChenDeltaStepping", [](const NamedGraph& g) -> sssp::test::PerfSolve {
    auto solver = std::make_shared<DeltaSteppingSssp>(g.graph);
    return [solver](vertex_t source) { return solver->run(source).values; };
  });
}

}  // namespace
