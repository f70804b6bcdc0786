// Tests of the bounds on what an input can cost: the vertex counts a header
// may declare, and the bytes that are not graph data (blank lines, comments),
// plain or gzip, and how far gzip data may inflate.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <string_view>

#include "io_test_util.hpp"
#include "sssp/errors.hpp"
#include "sssp/io.hpp"

namespace sssp {
namespace {

using namespace io_test;

TEST(DeclaredSizes, VertexCountIsBoundedByTheData) {
  // A 25-byte file declaring 2^28 vertices made the runner allocate 3.67 GB.
  EXPECT_TRUE(rejects("p sp 268435456 1\na 1 2 3\n", {"t:1:", "declares 268435456 vertices", "more than the 1048584",
                                                      "ReadOptions::max_extra_vertices"}));
  EXPECT_TRUE(rejects("p tw 268435456 1\n1 2\n", {"t:1:", "268435456 vertices"}));
  EXPECT_TRUE(rejects("%%MatrixMarket matrix coordinate pattern general\n268435456 268435456 1\n1 2\n",
                      {"t:2:", "268435456 vertices"}));
}

TEST(DeclaredSizes, VerticesWithoutArcsUpToOnePerBytePlusTheAllowance) {
  EXPECT_EQ(parse_graph("p sp 1048576 0\n", "t").num_vertices, 1048576u);
  ReadOptions tight;
  tight.max_extra_vertices = 10;
  const std::string arcs = "a 1 2 3\na 2 3 4\n";  // 16 bytes of data lines
  EXPECT_EQ(parse_graph("p sp 26 2\n" + arcs, "t", tight).num_vertices, 26u);
  EXPECT_TRUE(rejects("p sp 27 2\n" + arcs, {"t:1:", "27 vertices", "more than the 26"}, tight));
  tight.max_extra_vertices = ~std::uint64_t{0};  // the caller vouches for any count
  EXPECT_EQ(parse_graph("p sp 268435456 1\na 1 2 3\n", "t", tight).num_vertices, 268435456u);
}

// About 1 MB of gzip holding 1 GiB of newlines (1024 members of 1 MiB each)
// between `before` and `after`.
std::string gzip_of_newlines(std::string_view before, std::string_view after) {
  const std::string member = gzip(std::string(std::size_t{1} << 20, '\n'));
  std::string bytes = gzip(before);
  for (int i = 0; i < 1024; ++i) bytes += member;
  return bytes + gzip(after);
}

TEST(NonDataBytes, GzipOfBlankLinesStopsAfter16MiB) {
  TempDir dir;
  // The bound on inflation would stop these first (newlines inflate 1000 times).
  ReadOptions dimacs = with_format(GraphFormat::kDimacs);
  dimacs.max_inflation = 0;
  ReadOptions detected;
  detected.max_inflation = 0;
  // Before the header: format detection used to read all of it, then the
  // parser all of it again (about 20 s per MB of gzip).
  write_file(dir.file("before.gr.gz"), gzip_of_newlines("", "p sp 2 1\na 1 2 3\n"));
  EXPECT_TRUE(throws_input_error([&] { (void)read_graph(dir.file("before.gr.gz"), detected); },
                                 {"before.gr.gz:16777217:", "only 0 data lines", "16 MiB"}));
  // After the header (9 bytes), with the format given.
  write_file(dir.file("after.gr.gz"), gzip_of_newlines("p sp 2 1\n", "a 1 2 3\n"));
  EXPECT_TRUE(throws_input_error([&] { (void)read_graph(dir.file("after.gr.gz"), dimacs); },
                                 {"after.gr.gz:16777209:", "only 0 data lines"}));
}

TEST(NonDataBytes, AllowanceGrowsWithTheDataLines) {
  std::string text = "p sp 2 100\n";
  for (int i = 0; i < 100; ++i) text += "a 1 2 3\n";
  const std::size_t limit = (std::size_t{1} << 24) + 256 * 100;
  while (text.size() < limit) {
    const std::size_t room = std::min<std::size_t>(limit - text.size(), 1000000);
    if (room >= 2) text.append("c").append(room - 2, 'x');
    text += '\n';
  }
  EXPECT_EQ(parse_graph(text, "t").num_edges(), 100u);
  EXPECT_TRUE(rejects(text + "\n", {"16802817 bytes read", "only 100 data lines", "256 bytes per data line"}));
}

// `lines` lines "0 1": 4 bytes an arc, inflating about 1000 times from gzip.
std::string repeated_arcs(std::size_t lines) {
  std::string text;
  text.reserve(4 * lines);
  for (std::size_t i = 0; i < lines; ++i) text += "0 1\n";
  return text;
}

TEST(Inflation, GzipOfRepeatedArcsIsRefusedEarly) {
  // A 1 MB gzip of such lines was read as 268M arcs (81 s, 5.25 GB).
  TempDir dir;
  write_gz(dir.file("bomb.txt.gz"), repeated_arcs(std::size_t{1} << 20));  // 4 MiB of text
  EXPECT_TRUE(throws_input_error([&] { (void)read_graph(dir.file("bomb.txt.gz")); },
                                 {"bomb.txt.gz:", "inflates more than 64 times", "--max-inflation 0"}));
  ReadOptions tight;
  tight.max_inflation = 2;  // any ratio up to 1 MiB of text
  write_gz(dir.file("small.txt.gz"), repeated_arcs(1000));
  EXPECT_EQ(read_graph(dir.file("small.txt.gz"), tight).num_edges(), 1000u);
  ReadOptions unbounded;
  unbounded.max_inflation = 0;
  EXPECT_EQ(read_graph(dir.file("bomb.txt.gz"), unbounded).num_edges(), edge_t{1} << 20) << "the bound lifted";
  EXPECT_EQ(read_graph(dir.file("bomb.txt.gz"), unbounded).num_vertices, 2u);
}

TEST(Inflation, GraphTextPasses) {
  // Random arcs with weights: about 3 times, like real graph files.
  TempDir dir;
  std::string text = "p sp 100000 200000\n";
  std::mt19937 random(1);
  for (int i = 0; i < 200000; ++i) {
    text += "a " + std::to_string(1 + random() % 100000) + " " + std::to_string(1 + random() % 100000) + " " +
            std::to_string(1 + random() % 1000) + "\n";
  }
  ASSERT_GT(text.size(), std::size_t{3} << 20);
  write_gz(dir.file("random.gr.gz"), text);
  ReadOptions tight;
  tight.max_inflation = 8;
  EXPECT_EQ(read_graph(dir.file("random.gr.gz"), tight).num_edges(), 200000u);
}

}  // namespace
}  // namespace sssp
