/// @file
/// @brief Messages over a pipe: an 8-byte length, then the bytes.
#pragma once

#include <optional>
#include <string>

#include "rpc/wire.hpp"

namespace sssp::rpc {

/// Writes one message to `fd`, its pieces from where they lie (one gathering
/// write for as many as it takes); false when the other end is gone.
bool write_frame(int fd, const Writer& message);

/// Reads one message from `fd`: nullopt at the end of the stream (or when it
/// breaks off mid-message). The buffer grows with the bytes that arrive, so a
/// length that lies costs nothing until the bytes are really sent.
std::optional<std::string> read_frame(int fd);

}  // namespace sssp::rpc
