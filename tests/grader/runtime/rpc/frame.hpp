/// @file
/// @brief Messages over a pipe: an 8-byte length, then the bytes.
#pragma once

#include <optional>
#include <string>

namespace sssp::rpc {

/// Writes one message to `fd`; false when the other end is gone.
bool write_frame(int fd, const std::string& bytes);

/// Reads one message from `fd`: nullopt at the end of the stream (or when it
/// breaks off mid-message). The buffer grows with the bytes that arrive, so a
/// length that lies costs nothing until the bytes are really sent.
std::optional<std::string> read_frame(int fd);

/// Makes this process keep the memory it frees for its next allocations
/// instead of giving it back to the system. Each call of a solver moves n
/// distances through four fresh buffers of n values (the download, the
/// answer, its read and its decoding, on the two sides of the pipe), and
/// glibc serves and frees each of those from new pages, whose faults cost
/// more than the copies and the pipe together (12 MB answers: about 30 ms a
/// call against 8 ms with the memory kept, on the CI machine; the
/// performance item takes that cost out of both sides, and its noise with
/// it). Called by the worker as it starts and by the test side before it
/// starts one, so that both sides of every call, the student's and the
/// reference's, run the same way.
void keep_freed_memory();

}  // namespace sssp::rpc
