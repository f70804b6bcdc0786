// Tests of the command-line parser of the runner and the bench programs (sssp/cli.hpp).
#include <gtest/gtest.h>

#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "sssp/cli.hpp"
#include "sssp/errors.hpp"

namespace sssp::cli {
namespace {

// A parser with one option of each kind, and what they stored.
struct Fixture {
  Parser parser{"prog [options]", "Does things."};
  std::string graph;
  std::string gen;
  std::uint64_t source = 0;
  unsigned repeats = 5;
  bool quiet = false;
  std::vector<std::string> algos;

  Fixture() {
    parser.section("input:");
    parser.text("--graph", "FILE", "a file", graph);
    parser.text("--gen", "SPEC", "a generator\nsecond line", gen);
    parser.excludes("--graph", "--gen");
    parser.section("runs:");
    parser.count("--source", "V", "source", source, 0, 4294967294);
    parser.count("--repeats", "R", "repeats", repeats, 1, 1000);
    parser.flag("--quiet", "say less", [this] { quiet = true; });
    parser.option(
        "--algo", "NAME", "repeatable", [this](const std::string& v) { algos.push_back(v); }, Repeat::kMany);
  }

  // Parses `words` (argv[0] is added); false for --help, whose text goes to `help`.
  bool parse(std::vector<std::string> words, std::string* help = nullptr) {
    words.insert(words.begin(), "prog");
    std::vector<const char*> argv;
    for (const std::string& w : words) argv.push_back(w.c_str());
    std::ostringstream out;
    const bool parsed = parser.parse(static_cast<int>(argv.size()), argv.data(), out);
    if (help != nullptr) *help = out.str();
    return parsed;
  }
};

// The InputError message of parsing `words`; empty if it parsed.
std::string error_of(std::vector<std::string> words) {
  try {
    Fixture f;
    (void)f.parse(std::move(words));
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(Cli, ValuesAsNextWordOrAfterEquals) {
  Fixture f;
  ASSERT_TRUE(f.parse({"--graph", "a.gr", "--source=12", "--repeats", "7", "--quiet", "--algo=x", "--algo", "y"}));
  EXPECT_EQ(f.graph, "a.gr");
  EXPECT_EQ(f.source, 12u);
  EXPECT_EQ(f.repeats, 7u);
  EXPECT_TRUE(f.quiet);
  EXPECT_EQ(f.algos, (std::vector<std::string>{"x", "y"}));
  EXPECT_TRUE(f.parser.given("--graph"));
  EXPECT_FALSE(f.parser.given("--gen"));
}

TEST(Cli, AValueMayContainEquals) {
  Fixture f;
  ASSERT_TRUE(f.parse({"--graph=dir=1/a.gr"}));
  EXPECT_EQ(f.graph, "dir=1/a.gr");
}

TEST(Cli, SourcesOfTenDigitsWithinTheRange) {
  Fixture f;
  ASSERT_TRUE(f.parse({"--source", "4294967294"}));
  EXPECT_EQ(f.source, 4294967294u);
  EXPECT_NE(error_of({"--source", "4294967295"}).find("--source needs an integer from 0 to 4294967294"),
            std::string::npos);
}

TEST(Cli, HelpPrintsTheUsageAndStoresNothing) {
  Fixture f;
  std::string help;
  EXPECT_FALSE(f.parse({"--graph", "a.gr", "--help"}, &help));
  EXPECT_EQ(f.graph, "") << "nothing is stored when --help is given";
  EXPECT_NE(help.find("usage: prog [options]"), std::string::npos) << help;
  EXPECT_NE(help.find("input:\n  --graph FILE          a file\n"), std::string::npos) << help;
  EXPECT_NE(help.find("a generator\n                        second line\n"), std::string::npos) << help;
  EXPECT_NE(help.find("runs:\n"), std::string::npos) << help;
  EXPECT_NE(help.find("  --help "), std::string::npos) << help;
  Fixture g;
  EXPECT_FALSE(g.parse({"-h"}, &help));
}

TEST(Cli, RefusesWhatItCannotTakeWithAClearMessage) {
  EXPECT_EQ(error_of({"--bogus"}), "unknown option '--bogus' (see --help)");
  EXPECT_EQ(error_of({"graph.gr"}), "unknown option 'graph.gr' (see --help)");
  EXPECT_EQ(error_of({"--graph"}), "--graph needs a value (see --help)");
  EXPECT_EQ(error_of({"--graph", ""}), "--graph needs a value, got an empty string");
  EXPECT_EQ(error_of({"--graph="}), "--graph needs a value, got an empty string");
  EXPECT_EQ(error_of({"--quiet=1"}), "--quiet takes no value, got '--quiet=1'");
  EXPECT_EQ(error_of({"--graph", "a", "--gen", "chain:3"}), "give either --graph or --gen, not both");
  EXPECT_EQ(error_of({"--graph", "a", "--graph", "b"}), "--graph given twice ('a' and 'b'): give it once");
  EXPECT_EQ(error_of({"--quiet", "--quiet"}), "--quiet given twice: give it once");
  EXPECT_EQ(error_of({"--repeats", "0"}), "--repeats needs an integer from 1 to 1000 (digits only), got '0'");
  for (const char* bad : {" -3", "-3", "+3", "3 ", "1e3", "0x10", "18446744073709551616"}) {
    EXPECT_NE(error_of({"--source", bad}).find("--source needs an integer"), std::string::npos) << bad;
  }
}

TEST(Cli, ConflictsAreReportedBeforeAnyValueIsStored) {
  // The bad number is after the conflict: the conflict is the error.
  EXPECT_EQ(error_of({"--graph", "a", "--gen", "b", "--repeats", "x"}).find("--repeats"), std::string::npos);
  Fixture f;
  EXPECT_THROW((void)f.parse({"--graph", "a", "--bogus"}), InputError);
  EXPECT_EQ(f.graph, "") << "nothing is stored from a command line that is refused";
}

TEST(Cli, ParseCount) {
  EXPECT_EQ(parse_count("--n", "18446744073709551615", 0, UINT64_MAX), UINT64_MAX);
  EXPECT_EQ(parse_count("--n", "0012", 0, 100), 12u);
  EXPECT_THROW((void)parse_count("--n", "", 0, 100), InputError);
  EXPECT_THROW((void)parse_count("--n", "101", 0, 100), InputError);
}

TEST(Cli, DeclaringAnOptionTwiceIsAProgrammingError) {
  Fixture f;
  EXPECT_THROW(f.parser.flag("--quiet", "again", [] {}), std::logic_error);
  EXPECT_THROW(f.parser.flag("quiet", "no dashes", [] {}), std::logic_error);
}

}  // namespace
}  // namespace sssp::cli
