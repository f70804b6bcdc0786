// Private to the readers: byte sources and the line reader every text format
// shares. The reader bounds what any input can cost (line length, bytes that
// are not graph data) and reports positions as "file:line".
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>

namespace sssp::io_detail {

// Longer lines cannot occur in any supported format; refusing them bounds the
// reader's memory however the file is damaged.
inline constexpr std::size_t kMaxLineBytes = std::size_t{1} << 20;

// An input may hold this many bytes that are not data lines (comments, blank
// lines, headers, padding) plus kBytesPerDataLine for every data line read.
// Real files are far inside it (the DIMACS road graphs have a few hundred bytes
// of comments and 20 to 40 bytes per arc line), while a small gzip file of
// blank lines is refused after 16 MiB instead of being read to its end.
inline constexpr std::uint64_t kMaxNonDataBytes = std::uint64_t{1} << 24;
inline constexpr std::uint64_t kBytesPerDataLine = 256;

// Where the bytes come from.
class ByteSource {
 public:
  virtual ~ByteSource() = default;
  // Copies up to `capacity` bytes into `out`; 0 means the end. Throws InputError
  // with a bare reason; the LineReader adds the file name and line.
  virtual std::size_t read(char* out, std::size_t capacity) = 0;
};

class StringSource final : public ByteSource {
 public:
  explicit StringSource(std::string_view text) : text_(text) {}
  std::size_t read(char* out, std::size_t capacity) override {
    const std::size_t n = std::min(capacity, text_.size() - pos_);
    std::memcpy(out, text_.data() + pos_, n);
    pos_ += n;
    return n;
  }

 private:
  std::string_view text_;
  std::size_t pos_ = 0;
};

// Splits a byte source into lines ending in "\n" or "\r\n", counting them for
// messages. Lines are views into an internal buffer, valid until the next call.
// A UTF-8 byte order mark before the first line is dropped.
class LineReader {
 public:
  LineReader(ByteSource& source, std::string name);

  // Next line without its terminator; false at the end.
  bool next(std::string_view& line);

  // Makes the next call of next() return the last line again: format
  // detection looks at a line and leaves it to the parser, so nothing is
  // read twice and a pipe works as well as a file.
  void unread();

  // Parsers call this once for each line that carries graph data (an arc, an
  // edge, a matrix entry): it earns the input kBytesPerDataLine more bytes.
  void count_data_line();

  [[nodiscard]] const std::string& name() const { return name_; }
  [[nodiscard]] std::uint64_t line_number() const { return line_; }
  [[nodiscard]] std::uint64_t data_lines() const { return data_lines_; }
  // Bytes of the data lines read so far, terminators included.
  [[nodiscard]] std::uint64_t data_bytes() const { return data_bytes_; }

  [[noreturn]] void fail(const std::string& what) const { fail_at(line_, what); }
  [[noreturn]] void fail_at(std::uint64_t line, const std::string& what) const;

 private:
  bool deliver(std::string_view& line, std::size_t begin, std::size_t length, std::size_t used);
  [[noreturn]] void fail_overlong(std::string_view start) const;
  void refill();

  // Two maximal lines, so that after moving a partial line (at most
  // kMaxLineBytes) to the front there is always room to read more.
  static constexpr std::size_t kBufferBytes = 2 * kMaxLineBytes;

  ByteSource& source_;
  std::string name_;
  std::unique_ptr<char[]> buffer_;
  std::size_t begin_ = 0;
  std::size_t end_ = 0;
  bool at_end_ = false;
  std::uint64_t line_ = 0;
  std::uint64_t bytes_read_ = 0;  // of the lines delivered, terminators included
  std::uint64_t data_lines_ = 0;
  std::uint64_t data_bytes_ = 0;
  std::size_t last_begin_ = 0;  // where the last delivered line starts in buffer_
  std::size_t last_used_ = 0;   // its bytes, terminator included
};

}  // namespace sssp::io_detail
