#include "rpc/frame.hpp"

#include <limits.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <vector>

namespace sssp::rpc {

namespace {

/// Writes every byte the pieces hold, as few gathering writes as it takes
/// (a pipe takes part of them at a time); false when the other end is gone.
bool write_all(int fd, std::vector<iovec> pieces) {
  std::size_t first = 0;
  while (first < pieces.size()) {
    const auto count = static_cast<int>(std::min<std::size_t>(pieces.size() - first, IOV_MAX));
    const ssize_t n = ::writev(fd, pieces.data() + first, count);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    auto written = static_cast<std::size_t>(n);
    while (first < pieces.size() && written >= pieces[first].iov_len) written -= pieces[first++].iov_len;
    if (written > 0) {
      pieces[first].iov_base = static_cast<char*>(pieces[first].iov_base) + written;
      pieces[first].iov_len -= written;
    }
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

bool write_frame(int fd, const Writer& message) {
  std::uint64_t size = message.size();
  std::vector<iovec> pieces{{&size, sizeof size}};
  for (const std::string_view piece : message.pieces()) {
    if (!piece.empty()) pieces.push_back({const_cast<char*>(piece.data()), piece.size()});  // writev only reads
  }
  return write_all(fd, std::move(pieces));
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
