// Tests of what the benchmark programs share (sssp/bench_args.hpp).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "sssp/bench_args.hpp"
#include "sssp/bench_report.hpp"
#include "sssp/errors.hpp"

namespace sssp::bench {
namespace {

// Parses `words` (argv[0] is the program) with the shared options and one
// of the program's own; false for --help, whose text goes to `help`.
bool parse(std::vector<std::string> words, BenchArgs& args, unsigned& depth, std::string* help = nullptr) {
  words.insert(words.begin(), "bench");
  std::vector<const char*> argv;
  for (const std::string& w : words) argv.push_back(w.c_str());
  cli::Parser parser("bench [options]", "A benchmark.");
  add_shared_options(parser, args);
  parser.count("--depth", "K", "the program's own", depth, 1, 8);
  std::ostringstream out;
  const bool parsed = parser.parse(static_cast<int>(argv.size()), argv.data(), out);
  if (help != nullptr) *help = out.str();
  return parsed;
}

BenchArgs parse(std::vector<std::string> words) {
  BenchArgs args;
  unsigned depth = 0;
  (void)parse(std::move(words), args, depth);
  return args;
}

TEST(BenchArgs, SharedAndOwnOptions) {
  BenchArgs a;
  unsigned depth = 0;
  ASSERT_TRUE(parse(
      {"--gen", "chain:7", "--source", "3", "--repeats=2", "--block-size", "64", "--weights", "1:9:2", "--depth", "5"},
      a, depth));
  EXPECT_EQ(a.spec, "chain:7");
  EXPECT_EQ(a.source, 3u);
  EXPECT_EQ(a.repeats, 2u);
  EXPECT_EQ(a.block_size, 64u);
  EXPECT_EQ(depth, 5u) << "the program's own option reaches its target";
  const CsrGraph g = load_graph(a);
  EXPECT_EQ(g.num_vertices(), 7u);
  for (const weight_t w : g.weights) {
    EXPECT_GE(w, 1u);
    EXPECT_LE(w, 9u);
  }
}

TEST(BenchArgs, HelpListsSharedAndOwnOptionsWithDefaults) {
  BenchArgs a;
  a.repeats = 7;
  unsigned depth = 0;
  std::string help;
  EXPECT_FALSE(parse({"--help"}, a, depth, &help));
  for (const char* phrase : {"--graph FILE", "--gen SPEC", "--weights", "--source V", "--repeats R", "(default 7)",
                             "--block-size B", "--depth K"}) {
    EXPECT_NE(help.find(phrase), std::string::npos) << phrase << " in\n" << help;
  }
}

TEST(BenchArgs, SourcesBeyondNineDigits) {
  EXPECT_EQ(parse({"--source", "1234567890"}).source, 1234567890u);
  EXPECT_EQ(parse({"--source", "4294967294"}).source, 4294967294u);
  EXPECT_THROW((void)parse({"--source", "4294967295"}), InputError) << "not a vertex id";
}

TEST(BenchArgs, BadInputIsAClearError) {
  EXPECT_THROW((void)parse({"--bogus", "1"}), InputError);
  EXPECT_THROW((void)parse({"--repeats"}), InputError) << "an option without its value";
  EXPECT_THROW((void)parse({"--repeats", "0"}), InputError) << "0 repeats is refused, not run once";
  EXPECT_THROW((void)parse({"--repeats", "-3"}), InputError);
  EXPECT_THROW((void)parse({"--gen", ""}), InputError) << "an empty value";
  EXPECT_THROW((void)parse({"--graph", "a.gr", "--gen", "chain:3"}), InputError) << "--graph with --gen";
  EXPECT_THROW((void)parse({"--depth", "9"}), InputError) << "the program's own option's range";
  EXPECT_THROW((void)parse({"--block-size", "1025"}), InputError);
  BenchArgs a;
  a.spec = "chain:5";
  a.source = 5;
  EXPECT_THROW((void)load_graph(a), InvalidSource) << "a source that is not a vertex of the graph";
}

TEST(BenchMedian, MiddleOrMeanOfTheTwoMiddles) {
  EXPECT_EQ(median({3.0}), 3.0);
  EXPECT_EQ(median({5.0, 1.0, 3.0}), 3.0);
  EXPECT_EQ(median({4.0, 1.0, 3.0, 2.0}), 2.5);
  EXPECT_EQ(median({2.0, 2.0, 9.0, 1.0}), 2.0);
  EXPECT_THROW((void)median({}), std::invalid_argument);
}

TEST(BenchMeasure, WarmUpsAreRunButNotTimed) {
  std::vector<double> times = {100.0, 200.0, 1.0, 4.0, 2.0, 3.0};  // two warm-ups, then four timed
  std::size_t calls = 0;
  EXPECT_EQ(measure(2, 4, [&] { return times[calls++]; }), 2.5);
  EXPECT_EQ(calls, 6u);
}

TEST(BenchReport, TablesAsJsonNumbersStayNumbers) {
  const auto file = std::filesystem::temp_directory_path() /
                    ("bench_report_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + ".json");
  Report report("demo-bench");
  cli::Parser parser("demo-bench", "A benchmark.");
  report.add_option(parser);
  const std::string option = "--json=" + file.string();
  const char* argv[] = {"demo-bench", option.c_str()};
  std::ostringstream help;
  ASSERT_TRUE(parser.parse(2, argv, help));
  report.fact("graph", "grid \"2x2\"");
  testing::internal::CaptureStdout();
  report.table("t", {"name", "n", "ms"});
  report.row({"a", 3u, {1.25, 2}});
  report.row({"b", std::uint64_t{4}, "refused"});
  const std::string markdown = testing::internal::GetCapturedStdout();
  EXPECT_EQ(markdown, "| name | n | ms |\n|---|---|---|\n| a | 3 | 1.25 |\n| b | 4 | refused |\n");
  EXPECT_THROW(report.row({"too few"}), std::logic_error);
  report.write();
  std::ifstream in(file);
  const std::string json((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::filesystem::remove(file);
  EXPECT_EQ(
      json,
      "{\"program\": \"demo-bench\", \"facts\": {\"graph\": \"grid \\\"2x2\\\"\"}, \"tables\": [{\"title\": \"t\", "
      "\"columns\": [\"name\", \"n\", \"ms\"], \"rows\": [[\"a\", 3, 1.25], [\"b\", 4, \"refused\"]]}]}\n");
}

}  // namespace
}  // namespace sssp::bench
