// Tests of reading files: gzip members, truncation, corruption and trailing
// bytes, directories, and pipes.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <csignal>
#include <cstdint>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "io_test_util.hpp"
#include "sssp/errors.hpp"
#include "sssp/io.hpp"

namespace sssp {
namespace {

using namespace io_test;

TEST(ReadGzip, CompressedFileReadsLikeThePlainOne) {
  TempDir dir;
  write_file(dir.file("g.gr"), kDimacs);
  write_gz(dir.file("g.gr.gz"), kDimacs);
  write_gz(dir.file("no_extension"), kDimacs);  // detected from the bytes, not the name
  const EdgeList plain = read_graph(dir.file("g.gr"));
  const EdgeList gz = read_graph(dir.file("g.gr.gz"));
  EXPECT_EQ(arcs_of(plain), kDimacsArcs);
  EXPECT_EQ(arcs_of(gz), kDimacsArcs);
  EXPECT_EQ(gz.num_vertices, plain.num_vertices);
  EXPECT_EQ(arcs_of(read_graph(dir.file("no_extension"))), kDimacsArcs);
  EXPECT_EQ(gz.name, "g.gr.gz");
}

// A few thousand arcs, so that the compressed stream is long enough to cut.
std::string many_arcs_text() {
  std::string text = "p sp 1000 20000\n";
  for (int i = 0; i < 20000; ++i) {
    text += "a " + std::to_string(i % 1000 + 1) + " " + std::to_string(i * 7 % 1000 + 1) + " " +
            std::to_string(i * 31 % 977) + "\n";
  }
  return text;
}

TEST(ReadGzip, TruncatedStreamIsRejected) {
  TempDir dir;
  write_gz(dir.file("full.gr.gz"), many_arcs_text());
  const std::string bytes = read_bytes(dir.file("full.gr.gz"));
  ASSERT_EQ(read_graph(dir.file("full.gr.gz")).num_edges(), 20000u);
  // Cut mid-data, and cut only the 8-byte trailer (all arcs decompress, but the stream is
  // incomplete).
  for (const std::size_t keep : {bytes.size() / 2, bytes.size() - 4}) {
    write_file(dir.file("cut.gr.gz"), std::string_view(bytes).substr(0, keep));
    EXPECT_TRUE(throws_input_error([&] { (void)read_graph(dir.file("cut.gr.gz")); },
                                   {"cut.gr.gz:", "truncated or corrupt gzip"}))
        << "kept " << keep << " of " << bytes.size() << " bytes";
  }
}

TEST(ReadGzip, CorruptChecksumIsRejected) {
  TempDir dir;
  write_gz(dir.file("g.gr.gz"), many_arcs_text());
  std::string bytes = read_bytes(dir.file("g.gr.gz"));
  bytes[bytes.size() - 8] ^= 0x01;  // the stored CRC-32
  write_file(dir.file("g.gr.gz"), bytes);
  EXPECT_TRUE(throws_input_error([&] { (void)read_graph(dir.file("g.gr.gz")); }, {"g.gr.gz:", "corrupt"}));
}

TEST(ReadGzip, ConcatenatedMembersReadAsOne) {
  // gzip(1) writes them for `cat a.gz b.gz` and reads them as one stream.
  TempDir dir;
  const std::string text = many_arcs_text();
  const std::size_t half = text.find('\n', text.size() / 2) + 1;
  write_file(dir.file("two.gr.gz"), gzip(text.substr(0, half)) + gzip(text.substr(half)));
  EXPECT_EQ(arcs_of(read_graph(dir.file("two.gr.gz"))), arcs_of(parse_graph(text, "t")));
}

TEST(ReadGzip, TrailingBytesAfterTheStreamAreRejected) {
  // zlib's gzread ignores them, which silently dropped the arcs they held.
  TempDir dir;
  for (const std::string& trailing : {std::string("a 1 2 3\n"), std::string(2, '\0'), std::string("\x1f")}) {
    write_file(dir.file("g.gr.gz"), gzip(kDimacs) + trailing);
    EXPECT_TRUE(throws_input_error([&] { (void)read_graph(dir.file("g.gr.gz")); },
                                   {"g.gr.gz:", "trailing data after the gzip stream"}))
        << "trailing " << trailing.size() << " bytes";
  }
}

TEST(ReadFile, DirectoryIsNamed) {
  TempDir dir;
  EXPECT_TRUE(throws_input_error([&] { (void)read_graph(dir.path().string()); }, {"cannot open", "is a directory"}));
}

// Gives `bytes` to `read` through a named pipe, written by another thread.
template <typename Read>
auto through_pipe(const TempDir& dir, const std::string& bytes, Read read) {
  const std::string fifo = dir.file("pipe");
  EXPECT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  // A reader that stops early must fail the test, not kill it with SIGPIPE.
  std::signal(SIGPIPE, SIG_IGN);
  std::thread writer([&] {
    std::ofstream out(fifo, std::ios::binary);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  });
  struct Join {
    std::thread& thread;
    ~Join() { thread.join(); }
  } join{writer};
  return read(fifo);
}

TEST(ReadPipe, DetectsTheFormatWithoutRewinding) {
  // Detection used to rewind the input, which a pipe cannot do.
  TempDir dir;
  const auto read = [](const std::string& path) { return read_graph(path); };
  EXPECT_EQ(arcs_of(through_pipe(dir, kDimacs, read)), kDimacsArcs);
  fs::remove(dir.file("pipe"));
  EXPECT_EQ(arcs_of(through_pipe(dir, gzip(kDimacs), read)), kDimacsArcs);
}

TEST(ReadPipe, CacheIsSkippedWithAWarning) {
  TempDir dir;
  ::testing::internal::CaptureStderr();
  const CsrGraph g = through_pipe(
      dir, kDimacs, [&](const std::string& path) { return load_graph_cached(path, {}, dir.file("cache")); });
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(arcs_of(to_edge_list(g)), arcs_of(to_edge_list(to_csr(parse_graph(kDimacs, "t")))));
  EXPECT_NE(err.find("warning: "), std::string::npos) << err;
  EXPECT_NE(err.find("not a regular file"), std::string::npos) << err;
}

}  // namespace
}  // namespace sssp
