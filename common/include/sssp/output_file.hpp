/// @file
/// @brief Writing files without destroying anything: a complete file or the
/// old one, never a prefix; no input overwritten by an output; a device, a
/// pipe or a symlink written through, never replaced. The graph cache and
/// sssp::write_dimacs use write_atomically(); the runner's `--write-graph` and
/// `--write-distances` the checks and write_output().
#pragma once

#include <functional>
#include <ostream>
#include <string>

namespace sssp {

/// Writes through `write` into a temporary file beside `path`, named with a
/// random suffix so that two writers of one path (parallel test processes
/// sharing a cache, two runs) never mix bytes, then renames it over `path`:
/// readers, and a later run after a crash, see the old file or the complete
/// new one, never a prefix. A symlink at `path` is replaced, not followed.
/// Throws sssp::InputError ("cannot create TMP: why", "cannot write TMP
/// (disk full?)", "cannot rename TMP to PATH: why"), with `path` unchanged.
void write_atomically(const std::string& path, const std::function<void(std::ostream&)>& write);

/// A file a program writes on request, named in every message by the option
/// that asked for it.
struct OutputFile {
  std::string option;  ///< the option that names it, e.g. "--write-graph"
  std::string path;    ///< where it goes
};

/// True when writing `output` would destroy the file at `other`: one regular
/// file (through symlinks and hard links), or one path that does not exist
/// yet. Devices and pipes hold no data to destroy, and /dev/stdin and
/// /dev/stdout are often one terminal: those are never the same file.
[[nodiscard]] bool is_same_file(const std::string& output, const std::string& other);

/// Throws sssp::InputError, naming `out.option`, when `out` cannot be written
/// the way write_output() writes it: a directory, a device or pipe without
/// write permission, or a new or regular file in a directory where no file
/// can be created. Call it before the work, so that a bad path fails now, not
/// after minutes of runs.
void require_writable(const OutputFile& out);

/// Writes `out` through `write`. A regular file or a new path is written with
/// write_atomically(), so that a failed write leaves the old file whole.
/// Anything else is written in place, never replaced: a device or a pipe
/// (renaming over /dev/stdout as root would make it a regular file) or a
/// symlink's target (the link stays). A path that is this program's own
/// standard output goes through std::cout, after what the program printed
/// rather than over it. Throws sssp::InputError ("OPTION: writing PATH failed
/// (why); PATH is unchanged").
void write_output(const OutputFile& out, const std::function<void(std::ostream&)>& write);

}  // namespace sssp
