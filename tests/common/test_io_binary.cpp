// Tests of the binary CSR format and of the cache built on it.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <initializer_list>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "io_test_util.hpp"
#include "sssp/errors.hpp"
#include "sssp/io.hpp"

namespace sssp {
namespace {

using namespace io_test;

// --- Binary format ----------------------------------------------------------

CsrGraph sample_csr() {
  CsrGraph g = to_csr(parse_graph(kDimacs, "small.gr"));
  g.name = "sample graph";
  return g;
}

TEST(BinaryCache, RoundTripIsExact) {
  TempDir dir;
  const CsrGraph g = sample_csr();
  save_binary(g, dir.file("g.csr"));
  const CsrGraph back = load_binary(dir.file("g.csr"));
  EXPECT_EQ(back.offsets, g.offsets);
  EXPECT_EQ(back.targets, g.targets);
  EXPECT_EQ(back.weights, g.weights);
  EXPECT_EQ(back.name, g.name);
  // header 40 + name 12 + offsets 5*4 + targets 5*4 + weights 5*4 + checksum 8
  EXPECT_EQ(fs::file_size(dir.file("g.csr")), 40u + 12 + 20 + 20 + 20 + 8);
  EXPECT_EQ(read_bytes(dir.file("g.csr")).substr(0, 8), "SSSPCSR1");
  // The write went through a temporary that is gone now.
  EXPECT_EQ(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator()), 1);
}

TEST(BinaryCache, EmptyGraphRoundTrips) {
  TempDir dir;
  CsrGraph empty;
  empty.offsets = {0};
  save_binary(empty, dir.file("e.csr"));
  const CsrGraph back = load_binary(dir.file("e.csr"));
  EXPECT_EQ(back.num_vertices(), 0u);
  EXPECT_EQ(back.num_edges(), 0u);
}

class BinaryCorruption : public ::testing::Test {
 protected:
  void SetUp() override {
    save_binary(sample_csr(), dir_.file("g.csr"));
    bytes_ = read_bytes(dir_.file("g.csr"));
  }
  ::testing::AssertionResult load_rejects(const std::string& bytes, std::initializer_list<std::string_view> needles) {
    write_file(dir_.file("bad.csr"), bytes);
    return throws_input_error([&] { (void)load_binary(dir_.file("bad.csr")); }, needles);
  }
  template <typename T>
  void put(std::size_t offset, T value) {
    std::memcpy(bytes_.data() + offset, &value, sizeof value);
  }
  TempDir dir_;
  std::string bytes_;
};

TEST_F(BinaryCorruption, TruncatedFile) {
  EXPECT_TRUE(load_rejects(bytes_.substr(0, bytes_.size() - 1), {"bad.csr", "truncated"}));
  EXPECT_TRUE(load_rejects(bytes_.substr(0, 20), {"bad.csr", "too short"}));
  EXPECT_TRUE(load_rejects(bytes_ + "x", {"bad.csr", "header implies"}));
}

TEST_F(BinaryCorruption, BadMagic) {
  bytes_[0] = 'X';
  EXPECT_TRUE(load_rejects(bytes_, {"bad magic"}));
}

TEST_F(BinaryCorruption, OtherVersion) {
  put<std::uint32_t>(8, 2);
  EXPECT_TRUE(load_rejects(bytes_, {"version 2"}));
}

TEST_F(BinaryCorruption, FlippedByteFailsTheChecksum) {
  // One byte in each region after the header: name, offsets, targets, weights.
  for (const std::size_t at : {std::size_t{41}, std::size_t{56}, std::size_t{75}, bytes_.size() - 10}) {
    std::string bad = bytes_;
    bad[at] ^= 0x10;
    EXPECT_TRUE(load_rejects(bad, {"checksum"})) << "byte " << at;
  }
}

TEST_F(BinaryCorruption, HugeSizesInHeader) {
  std::string huge = bytes_;
  std::memcpy(huge.data() + 16, "\0\0\0\0\0\1\0\0", 8);  // 2^40 vertices
  EXPECT_TRUE(load_rejects(huge, {"impossible"}));
  put<std::uint64_t>(24, 1000000000);  // plausible arc count, but not this file's size
  EXPECT_TRUE(load_rejects(bytes_, {"header implies"}));
}

TEST(BinaryCache, MissingFile) {
  EXPECT_TRUE(throws_input_error([] { (void)load_binary("/nonexistent/g.csr"); }, {"/nonexistent/g.csr"}));
}

// --- The cache --------------------------------------------------------------

std::vector<fs::path> cache_files(const fs::path& dir) {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(dir)) files.push_back(entry.path());
  return files;
}

TEST(BinaryCache, SecondLoadComesFromTheCache) {
  TempDir dir;
  write_file(dir.file("g.gr"), kDimacs);
  const std::string cache = dir.file("cache/nested");
  const CsrGraph first = load_graph_cached(dir.file("g.gr"), {}, cache);
  EXPECT_EQ(arcs_of(to_edge_list(first)), arcs_of(to_edge_list(to_csr(parse_graph(kDimacs, "x")))));
  EXPECT_EQ(first.name, "g.gr");
  const auto files = cache_files(cache);
  ASSERT_EQ(files.size(), 1u);
  const std::string entry = files[0].filename().string();
  EXPECT_EQ(entry.size(), std::string("g.gr.").size() + 16 + std::string(".csr").size()) << entry;
  EXPECT_EQ(entry.rfind("g.gr.", 0), 0u) << entry;

  // Plant a different graph in the entry: a cache hit must return it.
  CsrGraph planted = to_csr(parse_graph("p sp 2 1\na 2 1 42\n", "planted"));
  save_binary(planted, files[0].string());
  const CsrGraph second = load_graph_cached(dir.file("g.gr"), {}, cache);
  EXPECT_EQ(second.name, "planted");
  EXPECT_EQ(second.weights, std::vector<weight_t>{42});
}

TEST(BinaryCache, ChangedSourceOrOptionsMissTheCache) {
  TempDir dir;
  const std::string cache = dir.file("cache");
  write_file(dir.file("g.gr"), "p tw 3 2\n1 2\n2 3\n");
  const CsrGraph first = load_graph_cached(dir.file("g.gr"), {}, cache);
  EXPECT_EQ(first.num_vertices(), 3u);
  // New content (of another size, so the key changes even on coarse mtime clocks).
  write_file(dir.file("g.gr"), "p tw 4 3\n1 2\n2 3\n3 4\n");
  const CsrGraph second = load_graph_cached(dir.file("g.gr"), {}, cache);
  EXPECT_EQ(second.num_vertices(), 4u);
  EXPECT_EQ(second.num_edges(), 6u);
  // Another weight policy is another entry with other weights.
  const auto policy = WeightPolicy::uniform(1, 1000000, 4);
  const CsrGraph weighted = load_graph_cached(dir.file("g.gr"), with_weights(policy), cache);
  EXPECT_EQ(weighted.weights, to_csr(read_graph(dir.file("g.gr"), with_weights(policy))).weights);
  EXPECT_NE(weighted.weights, second.weights);
  EXPECT_EQ(cache_files(cache).size(), 3u);
}

TEST(BinaryCache, DamagedEntryIsRebuilt) {
  TempDir dir;
  const std::string cache = dir.file("cache");
  write_file(dir.file("g.gr"), kDimacs);
  const CsrGraph first = load_graph_cached(dir.file("g.gr"), {}, cache);
  const std::string entry = cache_files(cache).at(0).string();
  std::string bytes = read_bytes(entry);
  bytes[bytes.size() - 12] ^= 0x01;
  write_file(entry, bytes);
  ASSERT_THROW((void)load_binary(entry), InputError);
  const CsrGraph again = load_graph_cached(dir.file("g.gr"), {}, cache);
  EXPECT_EQ(again.weights, first.weights);
  EXPECT_EQ(load_binary(entry).weights, first.weights);  // rewritten in place
}

TEST(BinaryCache, EmptyCacheDirReadsDirectly) {
  TempDir dir;
  write_file(dir.file("g.gr"), kDimacs);
  const CsrGraph g = load_graph_cached(dir.file("g.gr"), {}, "");
  EXPECT_EQ(g.weights, sample_csr().weights);
  EXPECT_EQ(cache_files(dir.path()).size(), 1u);  // only the source
}

TEST(BinaryCache, EditKeepingSizeAndTimeMissesTheCache) {
  // The key used to be path, size and modification time.
  TempDir dir;
  const std::string cache = dir.file("cache");
  write_file(dir.file("g.gr"), "p sp 2 1\na 1 2 5\n");
  const auto mtime = fs::last_write_time(dir.file("g.gr"));
  EXPECT_EQ(load_graph_cached(dir.file("g.gr"), {}, cache).weights, std::vector<weight_t>{5});
  write_file(dir.file("g.gr"), "p sp 2 1\na 1 2 7\n");
  fs::last_write_time(dir.file("g.gr"), mtime);
  EXPECT_EQ(load_graph_cached(dir.file("g.gr"), {}, cache).weights, std::vector<weight_t>{7});
}

TEST(BinaryCache, KeyIsTheContentNotThePath) {
  TempDir dir;
  const std::string cache = dir.file("cache");
  fs::create_directories(dir.file("a"));
  fs::create_directories(dir.file("b"));
  write_file(dir.file("a/g.gr"), kDimacs);
  (void)load_graph_cached(dir.file("a/g.gr"), {}, cache);
  const auto files = cache_files(cache);
  ASSERT_EQ(files.size(), 1u);
  // A planted graph in the entry shows that the copy elsewhere hits it.
  save_binary(to_csr(parse_graph("p sp 2 1\na 2 1 42\n", "planted")), files[0].string());
  fs::copy_file(dir.file("a/g.gr"), dir.file("b/g.gr"));
  EXPECT_EQ(load_graph_cached(dir.file("b/g.gr"), {}, cache).name, "planted");
}

TEST(BinaryCache, UnusableCacheWarnsAndReadsTheGraph) {
  TempDir dir;
  write_file(dir.file("g.gr"), kDimacs);
  write_file(dir.file("plain"), "not a directory");
  // A long name fits the file system, but not with the entry's suffix added.
  const std::string long_name = dir.file(std::string(240, 'g') + ".gr");
  write_file(long_name, kDimacs);
  const std::vector<std::pair<std::string, std::string>> cases = {
      {dir.file("g.gr"), dir.file("plain/cache")},  // the directory cannot be created
      {long_name, dir.file("cache")},               // the entry cannot be written
  };
  for (const auto& [path, cache] : cases) {
    ::testing::internal::CaptureStderr();
    const CsrGraph g = load_graph_cached(path, {}, cache);
    const std::string err = ::testing::internal::GetCapturedStderr();
    EXPECT_EQ(g.weights, sample_csr().weights) << cache;
    EXPECT_NE(err.find("warning: "), std::string::npos) << err;
    EXPECT_NE(err.find("going on without the graph cache"), std::string::npos) << err;
  }
}

}  // namespace
}  // namespace sssp
