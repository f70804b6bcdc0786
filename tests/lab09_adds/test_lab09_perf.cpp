// Lab 09 autograder, GPU part: the performance item. Needs a GPU and is
// skipped, with the reason, without one.
#include <memory>

#include "lab09.hpp"
#include "perf_test.hpp"
#include "sssp_test.hpp"

namespace {

using lab09::AddsSssp;
using sssp::vertex_t;
using sssp::test::NamedGraph;

// The performance item (rubric "perf", docs/design/perf-grading.md): the
// solver timed from this process on the graphs tests/grade.py names, against
// the reference timed the same way; without them, a smoke run of the timed path.
TEST(Perf, Adds) {
  SSSP_REQUIRE_GPU();
  sssp::test::time_solver_on_perf_graphs("Adds", [](const NamedGraph& g) -> sssp::test::PerfSolve {
    auto solver = std::make_shared<AddsSssp>(g.graph);
    return [solver](vertex_t source) { return solver->run(source).values; };
  });
}

}  // namespace
