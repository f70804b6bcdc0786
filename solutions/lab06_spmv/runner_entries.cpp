// Lab 06's algorithms in the runner (common/runner/registry.hpp): one entry per format.
#include <string>

#include "lab06.hpp"
#include "registry.hpp"

namespace sssp::runner {

namespace {

// lab06::validate with the format fixed, as the runner's check takes options only.
template <lab06::Format kFormat>
void validate(const lab06::SpmvOptions& o) {
  lab06::validate(kFormat, o);
}

// The solver takes its format as a constructor argument.
template <lab06::Format kFormat>
struct Spmv : lab06::SpmvBellmanFord {
  Spmv(const CsrGraph& graph, lab06::SpmvOptions options) : lab06::SpmvBellmanFord(graph, kFormat, options) {}
};

template <lab06::Format kFormat>
Algorithm spmv(std::string name, std::string summary) {
  return gpu_solver<Spmv<kFormat>>(std::move(name), std::move(summary), lab06::SpmvOptions{},
                                   {"--block-size", "--rounds-per-check"}, tuned_launch, validate<kFormat>);
}

}  // namespace

void register_lab06_spmv(Registry& registry) {
  using lab06::Format;
  registry.option("lab06", block_size_option());
  registry.option("lab06", rounds_per_check_option());
  registry.add(
      spmv<Format::kCsrScalar>("lab06/csr-scalar", "min-plus SpMV Bellman-Ford, incoming CSR, a thread per row"));
  registry.add(
      spmv<Format::kCsrVector>("lab06/csr-vector", "min-plus SpMV Bellman-Ford, incoming CSR, a warp per row"));
  registry.add(
      spmv<Format::kEll>("lab06/ell", "min-plus SpMV Bellman-Ford, column-major padded ELL (refuses hub graphs)"));
}

}  // namespace sssp::runner
