#include "rpc/frame.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

namespace sssp::rpc {

namespace {

bool write_all(int fd, const char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t n = ::write(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

bool read_all(int fd, char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t n = ::read(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

}  // namespace

bool write_frame(int fd, const std::string& bytes) {
  const std::uint64_t size = bytes.size();
  return write_all(fd, reinterpret_cast<const char*>(&size), sizeof size) && write_all(fd, bytes.data(), bytes.size());
}

std::optional<std::string> read_frame(int fd) {
  std::uint64_t size = 0;
  if (!read_all(fd, reinterpret_cast<char*>(&size), sizeof size)) return std::nullopt;
  constexpr std::uint64_t kChunk = 1 << 20;
  std::string bytes;
  while (bytes.size() < size) {
    const std::size_t have = bytes.size();
    const std::size_t step = static_cast<std::size_t>(std::min<std::uint64_t>(kChunk, size - have));
    bytes.resize(have + step);
    if (!read_all(fd, bytes.data() + have, step)) return std::nullopt;
  }
  return bytes;
}

}  // namespace sssp::rpc
