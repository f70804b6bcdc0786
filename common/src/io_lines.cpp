#include "io_lines.hpp"

#include <utility>

#include "sssp/errors.hpp"

namespace sssp::io_detail {

namespace {

constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";

bool has_carriage_return(std::string_view text) { return std::memchr(text.data(), '\r', text.size()) != nullptr; }

}  // namespace

LineReader::LineReader(ByteSource& source, std::string name)
    : source_(source),
      name_(std::move(name)),
      // Not value-initialised: pages of a big buffer that a small input never
      // reaches then cost nothing.
      buffer_(std::make_unique_for_overwrite<char[]>(kBufferBytes)) {}

bool LineReader::next(std::string_view& line) {
  while (true) {
    const char* begin = buffer_.get() + begin_;
    const auto* newline = static_cast<const char*>(std::memchr(begin, '\n', end_ - begin_));
    if (newline != nullptr) {
      const auto length = static_cast<std::size_t>(newline - begin);
      return deliver(line, begin_, length, length + 1);
    }
    if (end_ - begin_ > kMaxLineBytes) fail_overlong({begin, end_ - begin_});
    if (at_end_) {
      if (begin_ == end_) return false;
      return deliver(line, begin_, end_ - begin_, end_ - begin_);
    }
    refill();
  }
}

bool LineReader::deliver(std::string_view& line, std::size_t begin, std::size_t length, std::size_t used) {
  std::string_view text(buffer_.get() + begin, length);
  if (length > kMaxLineBytes) fail_overlong(text);
  last_begin_ = begin;
  last_used_ = used;
  begin_ = begin + used;
  bytes_read_ += used;
  ++line_;
  if (text.ends_with('\r')) text.remove_suffix(1);
  if (line_ == 1) {
    if (text.starts_with(kUtf8Bom)) text.remove_prefix(kUtf8Bom.size());
    if (text.starts_with("\xFF\xFE") || text.starts_with("\xFE\xFF")) {
      fail("UTF-16 text (it starts with a UTF-16 byte order mark); save it as ASCII or UTF-8");
    }
  }
  if (has_carriage_return(text)) {
    fail(
        "carriage return inside a line: CR-only line endings are not supported "
        "(use LF or CRLF)");
  }
  if (bytes_read_ > kMaxNonDataBytes + kBytesPerDataLine * data_lines_) {
    fail(std::to_string(bytes_read_) + " bytes read but only " + std::to_string(data_lines_) +
         " data lines: an input may hold " + std::to_string(kMaxNonDataBytes >> 20) +
         " MiB of comments, blank lines and padding, plus " + std::to_string(kBytesPerDataLine) +
         " bytes per data line");
  }
  line = text;
  return true;
}

void LineReader::unread() {
  begin_ = last_begin_;
  bytes_read_ -= last_used_;
  --line_;
}

void LineReader::count_data_line() {
  ++data_lines_;
  data_bytes_ += last_used_;
}

void LineReader::fail_at(std::uint64_t line, const std::string& what) const {
  throw InputError(name_ + ":" + std::to_string(line) + ": " + what);
}

// `start` is the beginning of line line_ + 1, which has no terminator in sight.
void LineReader::fail_overlong(std::string_view start) const {
  // A file with CR-only line endings is one long line to this reader.
  if (has_carriage_return(start)) {
    fail_at(line_ + 1, "CR-only line endings are not supported (use LF or CRLF)");
  }
  fail_at(line_ + 1, "line is longer than " + std::to_string(kMaxLineBytes) + " bytes");
}

void LineReader::refill() {
  std::memmove(buffer_.get(), buffer_.get() + begin_, end_ - begin_);
  end_ -= begin_;
  begin_ = 0;
  std::size_t n = 0;
  try {
    n = source_.read(buffer_.get() + end_, kBufferBytes - end_);
  } catch (const InputError& e) {
    // Source errors happen while reading the line after the last one delivered.
    fail_at(line_ + 1, e.what());
  }
  end_ += n;
  at_end_ = n == 0;
}

}  // namespace sssp::io_detail
