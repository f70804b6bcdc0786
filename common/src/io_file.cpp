#include "io_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "sssp/errors.hpp"

namespace sssp::io_detail {

namespace {

constexpr std::size_t kInputBytes = std::size_t{256} << 10;  // fewer system calls than 8 KiB
constexpr unsigned char kGzipMagic[2] = {0x1f, 0x8b};

}  // namespace

RawFile::RawFile(const std::string& path) {
  fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd_ < 0) throw InputError("cannot open " + path + ": " + std::strerror(errno));
  struct stat info {};
  if (::fstat(fd_, &info) == 0 && S_ISDIR(info.st_mode)) {
    ::close(fd_);
    throw InputError("cannot open " + path + ": it is a directory");
  }
}

RawFile::~RawFile() { ::close(fd_); }

std::size_t RawFile::read(unsigned char* out, std::size_t capacity) {
  while (true) {
    const ssize_t n = ::read(fd_, out, capacity);
    if (n >= 0) {
      hash_.update(out, static_cast<std::size_t>(n));
      return static_cast<std::size_t>(n);
    }
    if (errno != EINTR) throw InputError(std::string("cannot read: ") + std::strerror(errno));
  }
}

FileSource::FileSource(const std::string& path, std::uint64_t max_inflation)
    : file_(path), input_(kInputBytes), max_inflation_(max_inflation) {
  z_.next_in = input_.data();
}

FileSource::~FileSource() {
  if (mode_ == Mode::kGzip) inflateEnd(&z_);
}

void FileSource::choose_mode() {
  mode_ = Mode::kPlain;
  if (ensure_input(2) && std::equal(kGzipMagic, kGzipMagic + 2, z_.next_in)) {
    // 16 + MAX_WBITS: a gzip wrapper (header and CRC-32 trailer), largest window.
    if (inflateInit2(&z_, 16 + MAX_WBITS) != Z_OK) throw InputError("out of memory for zlib");
    mode_ = Mode::kGzip;
  }
}

// Makes at least `count` unread bytes available, unless the file ends first.
bool FileSource::ensure_input(std::size_t count) {
  if (z_.avail_in >= count) return true;
  std::memmove(input_.data(), z_.next_in, z_.avail_in);
  z_.next_in = input_.data();
  while (z_.avail_in < count) {
    const std::size_t n = file_.read(input_.data() + z_.avail_in, input_.size() - z_.avail_in);
    if (n == 0) return false;
    z_.avail_in += static_cast<uInt>(n);
    stored_bytes_ += n;
  }
  return true;
}

std::size_t FileSource::read(char* out, std::size_t capacity) {
  if (mode_ == Mode::kUnknown) choose_mode();
  if (mode_ == Mode::kGzip) return inflate_into(out, capacity);
  if (z_.avail_in > 0) {  // the bytes looked at to rule out gzip
    const std::size_t n = std::min<std::size_t>(capacity, z_.avail_in);
    std::memcpy(out, z_.next_in, n);
    z_.next_in += n;
    z_.avail_in -= static_cast<uInt>(n);
    return n;
  }
  return file_.read(reinterpret_cast<unsigned char*>(out), capacity);
}

std::size_t FileSource::inflate_into(char* out, std::size_t capacity) {
  const auto wanted = static_cast<uInt>(std::min<std::size_t>(capacity, std::size_t{1} << 30));
  z_.next_out = reinterpret_cast<Bytef*>(out);
  z_.avail_out = wanted;
  while (z_.avail_out == wanted) {
    if (member_ended_) {
      // After a complete member: the end of the file, or the next member.
      if (!ensure_input(1)) return 0;
      if (!ensure_input(2) || !std::equal(kGzipMagic, kGzipMagic + 2, z_.next_in)) {
        throw InputError("trailing data after the gzip stream (not another gzip member)");
      }
      inflateReset(&z_);
      member_ended_ = false;
    }
    if (!ensure_input(1)) {
      throw InputError("unexpected end of file (truncated or corrupt gzip data)");
    }
    const int rc = inflate(&z_, Z_NO_FLUSH);
    if (rc == Z_STREAM_END) {
      member_ended_ = true;
    } else if (rc == Z_MEM_ERROR) {
      throw InputError("out of memory while decompressing");
    } else if (rc != Z_OK) {
      throw InputError(std::string("corrupt gzip data (") + (z_.msg != nullptr ? z_.msg : "zlib error") + ")");
    }
  }
  inflated_bytes_ += wanted - z_.avail_out;
  require_plausible_inflation();
  return wanted - z_.avail_out;
}

void FileSource::require_plausible_inflation() const {
  constexpr std::uint64_t kAnyRatioUpTo = std::uint64_t{1} << 20;
  if (max_inflation_ == 0 || inflated_bytes_ <= kAnyRatioUpTo || inflated_bytes_ / max_inflation_ <= stored_bytes_) {
    return;
  }
  throw InputError("gzip data inflates more than " + std::to_string(max_inflation_) + " times (" +
                   std::to_string(stored_bytes_) + " bytes of the file gave " + std::to_string(inflated_bytes_) +
                   "): graph text inflates 3 to 10 times, so this is repeated lines or a decompression bomb; to "
                   "read it anyway lift the bound (sssp --max-inflation 0, ReadOptions::max_inflation)");
}

std::uint64_t hash_file(const std::string& path) {
  RawFile file(path);
  std::vector<unsigned char> buffer(kInputBytes);
  try {
    while (file.read(buffer.data(), buffer.size()) > 0) {
    }
  } catch (const InputError& e) {
    throw InputError(path + ": " + e.what());
  }
  return file.content_hash();
}

}  // namespace sssp::io_detail
