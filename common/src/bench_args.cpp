// The benchmark programs' shared command line (sssp/bench_args.hpp).
#include "sssp/bench_args.hpp"

#include <algorithm>
#include <string_view>

#include "sssp/errors.hpp"
#include "sssp/generators.hpp"
#include "sssp/io.hpp"

namespace sssp::bench {

unsigned parse_count(const std::string& text, const char* what, unsigned most) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos || text.size() > 9 ||
      std::stoul(text) > most) {
    throw InputError(std::string(what) + " must be an integer 0.." + std::to_string(most) + ", got '" + text + "'");
  }
  return static_cast<unsigned>(std::stoul(text));
}

namespace {

// Stores a shared option's value; false if `option` is not one of them.
bool parse_shared_option(std::string_view option, const std::string& value, BenchArgs& args) {
  if (option == "--graph") {
    args.graph_file = value;
  } else if (option == "--gen") {
    args.spec = value;
  } else if (option == "--weights") {
    args.weights = WeightPolicy::parse(value);
  } else if (option == "--source") {
    args.source = parse_count(value, "--source", ~0u >> 1);
  } else if (option == "--repeats") {
    args.repeats = std::max(1u, parse_count(value, "--repeats", 1000));
  } else if (option == "--block-size") {
    args.block_size = parse_count(value, "--block-size", 1024);
  } else {
    return false;
  }
  return true;
}

}  // namespace

void parse_args(int argc, char** argv, BenchArgs& args, std::initializer_list<ExtraOption> extra) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view option = argv[i];
    if (i + 1 >= argc) throw InputError("option " + std::string(option) + " needs a value");
    const std::string value = argv[++i];
    if (parse_shared_option(option, value, args)) continue;
    const auto own = std::find_if(extra.begin(), extra.end(), [&](const ExtraOption& e) { return option == e.name; });
    if (own != extra.end()) {
      own->set(value);
      continue;
    }
    std::string known = "--graph, --gen, --weights, --source, --repeats, --block-size";
    for (const ExtraOption& e : extra) known += std::string(", ") + e.name;
    throw InputError("unknown option " + std::string(option) + " (" + known + ")");
  }
}

CsrGraph load_graph(const BenchArgs& args) {
  ReadOptions read;
  read.weights = args.weights;
  CsrGraph g = to_csr(args.graph_file.empty() ? generate(args.spec, args.weights, 1) : read_graph(args.graph_file, read));
  require_valid_source(g, args.source);
  return g;
}

}  // namespace sssp::bench
