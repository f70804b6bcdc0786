// Private to the readers: reading files (plain or gzip, regular files or
// pipes) and hashing their bytes for the cache. Writing files atomically is
// sssp/output_file.hpp's.
#pragma once

#include <zlib.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "io_hash.hpp"
#include "io_lines.hpp"

namespace sssp::io_detail {

// The bytes of a file exactly as stored, read front to back once, so that
// pipes work like files. Hashes everything it reads.
class RawFile {
 public:
  explicit RawFile(const std::string& path);  // throws InputError "cannot open PATH: why"
  RawFile(const RawFile&) = delete;
  RawFile& operator=(const RawFile&) = delete;
  ~RawFile();

  // Up to `capacity` bytes; 0 at the end. Throws InputError "cannot read: why".
  std::size_t read(unsigned char* out, std::size_t capacity);
  // WordHash of the bytes read so far.
  [[nodiscard]] std::uint64_t content_hash() const { return hash_.finish(); }

 private:
  int fd_ = -1;
  WordHash hash_;
};

// A file as text: gzip data (one or more members, as gzip itself writes and
// reads them) is inflated, anything else is passed through. The choice is
// made from the first two bytes, never from the name, on the first read, so
// that its errors reach the LineReader like any other. Bytes after a gzip
// member that do not start another member are an error, not silently dropped.
class FileSource final : public ByteSource {
 public:
  // `max_inflation`: ReadOptions::max_inflation.
  FileSource(const std::string& path, std::uint64_t max_inflation);
  FileSource(const FileSource&) = delete;
  FileSource& operator=(const FileSource&) = delete;
  ~FileSource() override;

  std::size_t read(char* out, std::size_t capacity) override;
  // WordHash of the file's stored (compressed) bytes read so far.
  [[nodiscard]] std::uint64_t content_hash() const { return file_.content_hash(); }

 private:
  enum class Mode { kUnknown, kPlain, kGzip };

  void choose_mode();
  bool ensure_input(std::size_t count);
  std::size_t inflate_into(char* out, std::size_t capacity);
  void require_plausible_inflation() const;

  RawFile file_;
  std::vector<unsigned char> input_;  // raw bytes; the unread ones are z_.next_in[0, avail_in)
  z_stream z_{};
  Mode mode_ = Mode::kUnknown;
  bool member_ended_ = false;
  std::uint64_t max_inflation_;
  std::uint64_t stored_bytes_ = 0;    // read from the file so far
  std::uint64_t inflated_bytes_ = 0;  // gzip mode: produced so far
};

// WordHash of a whole file's stored bytes.
[[nodiscard]] std::uint64_t hash_file(const std::string& path);

}  // namespace sssp::io_detail
