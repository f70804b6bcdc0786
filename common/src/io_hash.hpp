// Private to the readers: the 64-bit hash behind the binary format's checksum
// and the cache's content key.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "sssp/weights.hpp"

namespace sssp::io_detail {

// Hashes a byte stream as little-endian 64-bit words (the last one zero-padded),
// each absorbed as h = splitmix64(h ^ word), then absorbs the byte count the
// same way. splitmix64 is a bijection, so changing any single word always
// changes the result; word-at-a-time runs near memory speed. The result does
// not depend on how the stream is split into update() calls. Not
// cryptographic: it detects accidents, not an adversary.
class WordHash {
 public:
  void update(const void* data, std::size_t size) {
    const auto* bytes = static_cast<const unsigned char*>(data);
    total_ += size;
    while (size > 0 && pending_ > 0) {
      word_bytes_[pending_++] = *bytes++;
      --size;
      if (pending_ == 8) absorb_pending();
    }
    for (; size >= 8; size -= 8, bytes += 8) {
      std::uint64_t word = 0;
      std::memcpy(&word, bytes, 8);
      hash_ = splitmix64(hash_ ^ word);
    }
    while (size > 0) {
      word_bytes_[pending_++] = *bytes++;
      --size;
    }
  }

  // The hash of everything so far; the object can go on absorbing afterwards.
  [[nodiscard]] std::uint64_t finish() const {
    WordHash copy = *this;
    if (copy.pending_ > 0) {
      std::fill(copy.word_bytes_.begin() + static_cast<std::ptrdiff_t>(copy.pending_), copy.word_bytes_.end(), 0);
      copy.absorb_pending();
    }
    return splitmix64(copy.hash_ ^ copy.total_);
  }

 private:
  void absorb_pending() {
    std::uint64_t word = 0;
    std::memcpy(&word, word_bytes_.data(), 8);
    hash_ = splitmix64(hash_ ^ word);
    pending_ = 0;
  }

  std::uint64_t hash_ = 0x53535350'43535231ULL;  // "SSSPCSR1"
  std::uint64_t total_ = 0;
  std::array<unsigned char, 8> word_bytes_{};
  std::size_t pending_ = 0;
};

}  // namespace sssp::io_detail
