// Tests of the benchmark programs' shared command line (sssp/bench_args.hpp).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sssp/bench_args.hpp"
#include "sssp/errors.hpp"

namespace sssp::bench {
namespace {

// Runs parse_args on `words` (argv[0] is the program) with one extra option.
BenchArgs parse(std::vector<std::string> words, unsigned* extra = nullptr) {
  words.insert(words.begin(), "bench");
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  BenchArgs args;
  unsigned ignored = 0;
  unsigned* target = extra != nullptr ? extra : &ignored;
  parse_args(static_cast<int>(argv.size()), argv.data(), args,
             {{"--depth", [target](const std::string& v) { *target = parse_count(v, "--depth", 8); }}});
  return args;
}

TEST(BenchArgs, SharedAndExtraOptions) {
  unsigned depth = 0;
  const BenchArgs a = parse({"--gen", "chain:7", "--source", "3", "--repeats", "0", "--block-size", "64", "--weights",
                             "1:9:2", "--depth", "5"},
                            &depth);
  EXPECT_EQ(a.spec, "chain:7");
  EXPECT_EQ(a.source, 3u);
  EXPECT_EQ(a.repeats, 1u) << "--repeats 0 runs once, not never";
  EXPECT_EQ(a.block_size, 64u);
  EXPECT_EQ(depth, 5u) << "the program's own option reaches its setter";
  const CsrGraph g = load_graph(a);
  EXPECT_EQ(g.num_vertices(), 7u);
  for (const weight_t w : g.weights) {
    EXPECT_GE(w, 1u);
    EXPECT_LE(w, 9u);
  }
}

TEST(BenchArgs, BadInputIsAClearError) {
  EXPECT_THROW(parse({"--bogus", "1"}), InputError);
  EXPECT_THROW(parse({"--repeats"}), InputError) << "an option without its value";
  EXPECT_THROW(parse({"--repeats", "-3"}), InputError);
  EXPECT_THROW(parse({"--depth", "9"}), InputError) << "the extra option's own range";
  try {
    (void)parse({"--bogus", "1"});
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("--depth"), std::string::npos) << "the message lists every known option: " << e.what();
  }
  BenchArgs a;
  a.spec = "chain:5";
  a.source = 5;
  EXPECT_THROW((void)load_graph(a), InvalidSource) << "a source that is not a vertex of the graph";
}

}  // namespace
}  // namespace sssp::bench
