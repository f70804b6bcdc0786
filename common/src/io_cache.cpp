// The binary cache of parsed graph files, keyed by the files' content.
#include <filesystem>
#include <iostream>
#include <string>

#include "io_file.hpp"
#include "io_formats.hpp"
#include "io_hash.hpp"
#include "sssp/errors.hpp"
#include "sssp/io.hpp"

namespace sssp {

namespace {

namespace fs = std::filesystem;

std::string hex16(std::uint64_t value) {
  std::string text(16, '0');
  for (std::size_t i = 16; i-- > 0; value >>= 4) text[i] = "0123456789abcdef"[value & 15];
  return text;
}

// The entry for a file called `name` whose stored bytes hash to `content`.
// Everything else that can change the resulting graph, or whether it is
// accepted, is part of the key too.
std::string entry_path(const std::string& cache_dir, const std::string& name, std::uint64_t content,
                       const ReadOptions& options) {
  const std::string key = name + "\n" + hex16(content) + "\n" + std::to_string(static_cast<int>(options.format)) +
                          "\n" + options.weights.to_string() + "\n" + std::to_string(options.snap_undirected) + "\n" +
                          std::to_string(options.max_vertices) + "\n" + std::to_string(options.max_edges) + "\n" +
                          std::to_string(options.max_extra_vertices) + "\n" + std::to_string(options.max_inflation);
  io_detail::WordHash hash;
  hash.update(key.data(), key.size());
  return (fs::path(cache_dir) / (name + "." + hex16(hash.finish()) + ".csr")).string();
}

// The cache only saves time: failing to use it must not fail a run that could
// read the graph.
void warn(const std::string& what) { std::cerr << "warning: " << what << "; going on without the graph cache\n"; }

}  // namespace

CsrGraph load_graph_cached(const std::string& path, const ReadOptions& options, const std::string& cache_dir) {
  if (cache_dir.empty()) return to_csr(read_graph(path, options));
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  if (!fs::is_regular_file(status)) {
    // A pipe can be read only once, but the key needs its content first.
    if (fs::exists(status)) warn(path + " is not a regular file (a pipe?)");
    return to_csr(read_graph(path, options));  // says why a missing file cannot be read
  }
  const std::string name = fs::path(path).filename().string();
  const std::string cached = entry_path(cache_dir, name, io_detail::hash_file(path), options);
  if (fs::exists(cached, ec)) {
    try {
      return load_binary(cached);
    } catch (const InputError&) {
      // A damaged entry is only a cache miss: rebuild it from the source below.
    }
  }
  io_detail::FileSource source(path, options.max_inflation);
  CsrGraph graph = to_csr(io_detail::parse_source(source, path, name, options));
  try {
    fs::create_directories(cache_dir, ec);
    if (ec) throw InputError("cannot create the directory " + cache_dir + ": " + ec.message());
    // Keyed by the bytes this parse read: if the file changed after it was
    // hashed above, the entry belongs to the new content, never the old.
    save_binary(graph, entry_path(cache_dir, name, source.content_hash(), options));
  } catch (const InputError& e) {
    warn(e.what());
  }
  return graph;
}

}  // namespace sssp
