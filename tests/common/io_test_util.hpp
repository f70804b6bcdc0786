// Helpers shared by the tests of sssp/io.hpp: temporary files, gzip data made
// in memory, and checks on the InputError messages.
#pragma once

#include <gtest/gtest.h>
#include <zlib.h>

#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <iterator>
#include <random>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "sssp/errors.hpp"
#include "sssp/io.hpp"

namespace sssp::io_test {

namespace fs = std::filesystem;

using Arc = std::tuple<vertex_t, vertex_t, weight_t>;

inline std::vector<Arc> arcs_of(const EdgeList& e) {
  std::vector<Arc> arcs;
  for (std::size_t i = 0; i < e.src.size(); ++i) arcs.emplace_back(e.src[i], e.dst[i], e.weight[i]);
  return arcs;
}

inline ReadOptions with_format(GraphFormat format) {
  ReadOptions options;
  options.format = format;
  return options;
}

inline ReadOptions with_weights(WeightPolicy policy, GraphFormat format = GraphFormat::kAuto) {
  ReadOptions options;
  options.format = format;
  options.weights = policy;
  return options;
}

// A small DIMACS file: a comment between arcs, weights 0 and 2^32 - 1, a
// self-loop and a parallel arc.
inline const std::string kDimacs =
    "c a small graph\n"
    "p sp 4 5\n"
    "a 1 2 7\n"
    "a 2 3 0\n"
    "c comments may appear between arcs\n"
    "a 3 1 4294967295\n"
    "a 4 4 3\n"
    "a 1 2 9\n";
inline const std::vector<Arc> kDimacsArcs = {{0, 1, 7}, {1, 2, 0}, {2, 0, 4294967295u}, {3, 3, 3}, {0, 1, 9}};

// A fresh directory under the system temp directory, removed with its contents.
class TempDir {
 public:
  TempDir() {
    std::random_device entropy;
    path_ = fs::temp_directory_path() / ("sssp_test_io_" + std::to_string(entropy()) + "_" + std::to_string(entropy()));
    fs::create_directories(path_);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  ~TempDir() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  [[nodiscard]] std::string file(const std::string& name) const { return (path_ / name).string(); }
  [[nodiscard]] const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

inline void write_file(const std::string& path, std::string_view bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  ASSERT_TRUE(out.good()) << "cannot write " << path;
}

inline std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// `text` as one gzip member, as gzip(1) would write it.
inline std::string gzip(std::string_view text) {
  z_stream z{};
  // 16 + MAX_WBITS: a gzip wrapper; 8: zlib's default memory level.
  EXPECT_EQ(deflateInit2(&z, Z_BEST_COMPRESSION, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY), Z_OK);
  std::string out(deflateBound(&z, static_cast<uLong>(text.size())), '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  z.avail_in = static_cast<uInt>(text.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(deflate(&z, Z_FINISH), Z_STREAM_END);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

inline void write_gz(const std::string& path, std::string_view text) { write_file(path, gzip(text)); }

// Succeeds when `action` throws InputError whose message contains every needle.
template <typename Action>
::testing::AssertionResult throws_input_error(Action action, std::initializer_list<std::string_view> needles) {
  try {
    action();
  } catch (const InputError& e) {
    const std::string message = e.what();
    for (const std::string_view needle : needles) {
      if (message.find(needle) == std::string::npos) {
        return ::testing::AssertionFailure() << "message \"" << message << "\" lacks \"" << needle << "\"";
      }
    }
    return ::testing::AssertionSuccess();
  } catch (const std::exception& e) {
    return ::testing::AssertionFailure() << "threw another exception: " << e.what();
  }
  return ::testing::AssertionFailure() << "did not throw";
}

// Shorthand: parsing `text` (named `name`) with `options` fails mentioning every needle.
inline ::testing::AssertionResult rejects(const std::string& text, std::initializer_list<std::string_view> needles,
                                          const ReadOptions& options = {}, const std::string& name = "t") {
  return throws_input_error([&] { (void)parse_graph(text, name, options); }, needles);
}

}  // namespace sssp::io_test
