// What the benchmark programs share (sssp/bench_args.hpp).
#include "sssp/bench_args.hpp"

#include <algorithm>
#include <stdexcept>

#include "sssp/errors.hpp"
#include "sssp/generators.hpp"
#include "sssp/io.hpp"

namespace sssp::bench {

void add_shared_options(cli::Parser& parser, BenchArgs& args) {
  parser.section("graph and runs:");
  parser.text("--graph", "FILE", "DIMACS .gr, PACE .gr, SNAP edge list or .mtx; .gz is fine", args.graph_file);
  parser.text("--gen", "SPEC", "generate, as sssp --gen (default " + args.spec + ")", args.spec);
  parser.option("--weights", "LO:HI[:SEED]", "weights for unweighted input, or unit (default 1:1000:1)",
                [&args](const std::string& value) { args.weights = WeightPolicy::parse(value); });
  parser.count("--source", "V", "source vertex, 0-based (default " + std::to_string(args.source) + ")", args.source, 0,
               kMaxVertices - 1);
  parser.count("--repeats", "R", "timed runs per row (default " + std::to_string(args.repeats) + ")", args.repeats, 1,
               kMaxRepeats);
  parser.count("--block-size", "B", "threads per block (default " + std::to_string(args.block_size) + ")",
               args.block_size, 1, 1024);
  parser.excludes("--graph", "--gen");
}

CsrGraph load_graph(const BenchArgs& args) {
  ReadOptions read;
  read.weights = args.weights;
  CsrGraph g =
      to_csr(args.graph_file.empty() ? generate(args.spec, args.weights, 1) : read_graph(args.graph_file, read));
  require_valid_source(g, args.source);
  return g;
}

double median(std::vector<double> samples) {
  if (samples.empty()) throw std::invalid_argument("median of no samples");
  const std::size_t n = samples.size();
  const auto middle = samples.begin() + static_cast<std::ptrdiff_t>(n / 2);
  std::nth_element(samples.begin(), middle, samples.end());
  if (n % 2 == 1) return *middle;
  return 0.5 * (*std::max_element(samples.begin(), middle) + *middle);
}

}  // namespace sssp::bench
