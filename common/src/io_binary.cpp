// The course's binary CSR format: a versioned header, the raw arrays, and a
// checksum (WordHash of every byte before it).
#include <algorithm>
#include <array>
#include <bit>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "io_hash.hpp"
#include "sssp/errors.hpp"
#include "sssp/io.hpp"
#include "sssp/output_file.hpp"

namespace sssp {

namespace {

namespace fs = std::filesystem;

// The binary format stores the arrays in host byte order so that loading is one
// read per array; pinning the order keeps files portable across the machines the
// course runs on (x86-64 and AArch64 are both little-endian).
static_assert(std::endian::native == std::endian::little,
              "the binary CSR format is little-endian; add byte swapping for this host");

constexpr std::array<char, 8> kMagic = {'S', 'S', 'S', 'P', 'C', 'S', 'R', '1'};
constexpr std::uint32_t kBinaryVersion = 1;
// magic, version, reserved, num_vertices, num_edges, name length
constexpr std::size_t kHeaderBytes = 8 + 4 + 4 + 8 + 8 + 8;

using io_detail::WordHash;

template <typename T>
void put(std::array<char, kHeaderBytes>& header, std::size_t offset, T value) {
  std::memcpy(header.data() + offset, &value, sizeof value);
}

template <typename T>
T get(const std::array<char, kHeaderBytes>& header, std::size_t offset) {
  T value{};
  std::memcpy(&value, header.data() + offset, sizeof value);
  return value;
}

template <typename T>
void write_array(std::ostream& out, WordHash& sum, const std::vector<T>& values) {
  const std::size_t bytes = values.size() * sizeof(T);
  sum.update(values.data(), bytes);
  out.write(reinterpret_cast<const char*>(values.data()), static_cast<std::streamsize>(bytes));
}

template <typename T>
void read_array(std::istream& in, WordHash& sum, std::vector<T>& values, std::size_t count) {
  values.resize(count);
  const std::size_t bytes = count * sizeof(T);
  in.read(reinterpret_cast<char*>(values.data()), static_cast<std::streamsize>(bytes));
  sum.update(values.data(), bytes);
}

}  // namespace

void save_binary(const CsrGraph& graph, const std::string& path) {
  graph.validate();
  write_atomically(path, [&](std::ostream& out) {
    std::array<char, kHeaderBytes> header{};
    std::memcpy(header.data(), kMagic.data(), kMagic.size());
    put<std::uint32_t>(header, 8, kBinaryVersion);
    put<std::uint32_t>(header, 12, 0);
    put<std::uint64_t>(header, 16, graph.num_vertices());
    put<std::uint64_t>(header, 24, graph.num_edges());
    put<std::uint64_t>(header, 32, graph.name.size());
    WordHash sum;
    sum.update(header.data(), header.size());
    out.write(header.data(), static_cast<std::streamsize>(header.size()));
    sum.update(graph.name.data(), graph.name.size());
    out.write(graph.name.data(), static_cast<std::streamsize>(graph.name.size()));
    write_array(out, sum, graph.offsets);
    write_array(out, sum, graph.targets);
    write_array(out, sum, graph.weights);
    const std::uint64_t checksum = sum.finish();
    out.write(reinterpret_cast<const char*>(&checksum), sizeof checksum);
  });
}

CsrGraph load_binary(const std::string& path) {
  std::error_code ec;
  const std::uint64_t file_size = fs::file_size(path, ec);
  if (ec) throw InputError("cannot open " + path + ": " + ec.message());
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("cannot open " + path + ": " + std::strerror(errno));
  const auto bad = [&](const std::string& what) { return InputError(path + ": " + what); };

  std::array<char, kHeaderBytes> header{};
  if (file_size < kHeaderBytes + sizeof(std::uint64_t)) {
    throw bad("file is " + std::to_string(file_size) + " bytes, too short for a binary CSR graph");
  }
  in.read(header.data(), static_cast<std::streamsize>(header.size()));
  if (!in) throw bad("cannot read the header");
  if (!std::equal(kMagic.begin(), kMagic.end(), header.begin())) {
    throw bad("not a binary CSR graph (bad magic; expected 'SSSPCSR1')");
  }
  const auto version = get<std::uint32_t>(header, 8);
  if (version != kBinaryVersion) {
    throw bad("format version " + std::to_string(version) + ", this build reads version " +
              std::to_string(kBinaryVersion));
  }
  if (get<std::uint32_t>(header, 12) != 0) throw bad("reserved header field is not 0");
  const auto num_vertices = get<std::uint64_t>(header, 16);
  const auto num_edges = get<std::uint64_t>(header, 24);
  const auto name_length = get<std::uint64_t>(header, 32);
  if (num_vertices > kMaxVertices || num_edges > kMaxEdges || name_length > file_size) {
    throw bad("header claims " + std::to_string(num_vertices) + " vertices, " + std::to_string(num_edges) +
              " arcs and a " + std::to_string(name_length) + "-byte name: impossible (limits " +
              std::to_string(kMaxVertices) + ", " + std::to_string(kMaxEdges) + ", file size)");
  }
  // After the checks above the name is at most the file's size and every other
  // term is below 2^36, so the sum cannot overflow.
  const std::uint64_t expected = kHeaderBytes + name_length + sizeof(edge_t) * (num_vertices + 1) +
                                 (sizeof(vertex_t) + sizeof(weight_t)) * num_edges + sizeof(std::uint64_t);
  if (expected != file_size) {
    throw bad("file is " + std::to_string(file_size) + " bytes but its header implies " + std::to_string(expected) +
              " (truncated or damaged)");
  }

  CsrGraph graph;
  WordHash sum;
  sum.update(header.data(), header.size());
  graph.name.resize(name_length);
  in.read(graph.name.data(), static_cast<std::streamsize>(name_length));
  sum.update(graph.name.data(), graph.name.size());
  read_array(in, sum, graph.offsets, num_vertices + 1);
  read_array(in, sum, graph.targets, num_edges);
  read_array(in, sum, graph.weights, num_edges);
  std::uint64_t stored = 0;
  in.read(reinterpret_cast<char*>(&stored), sizeof stored);
  if (!in) throw bad("read failed (file changed while loading?)");
  if (stored != sum.finish()) throw bad("checksum mismatch: the file is corrupt");
  try {
    graph.validate();
  } catch (const InputError& e) {
    throw bad(std::string("inconsistent graph: ") + e.what());
  }
  return graph;
}

}  // namespace sssp
