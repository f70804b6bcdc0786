// Writing files without destroying anything (sssp/output_file.hpp).
#include "sssp/output_file.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <random>
#include <system_error>

#include "sssp/errors.hpp"

namespace sssp {

namespace {

namespace fs = std::filesystem;

// Where replacing a file through a temporary failed.
enum class Failed { kNothing, kCreate, kWrite, kRename };

struct Replacement {
  Failed failed = Failed::kNothing;
  std::string temporary;
  std::string reason;  // kCreate: the system's error; kRename: the rename's
};

// The one way the course replaces a file: a temporary beside `path`, renamed
// over it once complete. On failure the temporary is removed and `path` is
// unchanged; the callers word the error (write_atomically for the readers'
// cache, write_output for the runner's options).
Replacement replace_through_temporary(const std::string& path, const std::function<void(std::ostream&)>& write) {
  Replacement result;
  std::random_device entropy;  // a name of its own: two writers of one path never mix bytes
  result.temporary = path + ".tmp" + std::to_string(entropy());
  std::ofstream file(result.temporary, std::ios::binary | std::ios::trunc);
  if (!file) {
    result.failed = Failed::kCreate;
    result.reason = std::strerror(errno);
    return result;
  }
  write(file);
  file.close();
  std::error_code error;
  if (file) fs::rename(result.temporary, path, error);
  if (!file || error) {
    std::error_code ignored;
    fs::remove(result.temporary, ignored);
    result.failed = file ? Failed::kRename : Failed::kWrite;
    result.reason = error.message();
  }
  return result;
}

// stat() of `path`, through symlinks; nothing when there is no such file.
std::optional<struct stat> status_of(const std::string& path) {
  struct stat status {};
  if (stat(path.c_str(), &status) != 0) return std::nullopt;
  return status;
}

bool same_inode(const struct stat& a, const struct stat& b) { return a.st_dev == b.st_dev && a.st_ino == b.st_ino; }

}  // namespace

void write_atomically(const std::string& path, const std::function<void(std::ostream&)>& write) {
  const Replacement replaced = replace_through_temporary(path, write);
  switch (replaced.failed) {
    case Failed::kNothing: return;
    case Failed::kCreate: throw InputError("cannot create " + replaced.temporary + ": " + replaced.reason);
    case Failed::kWrite: throw InputError("cannot write " + replaced.temporary + " (disk full?)");
    case Failed::kRename:
      throw InputError("cannot rename " + replaced.temporary + " to " + path + ": " + replaced.reason);
  }
}

bool is_same_file(const std::string& output, const std::string& other) {
  const auto output_status = status_of(output);
  const auto other_status = status_of(other);
  if (output_status && other_status) {
    return S_ISREG(output_status->st_mode) && same_inode(*output_status, *other_status);
  }
  if (output_status || other_status) return false;
  // The path with its existing part resolved; empty when that fails.
  const auto resolved = [](const std::string& path) {
    std::error_code error;
    const auto result = fs::weakly_canonical(fs::absolute(path, error), error);
    return error ? fs::path() : result;
  };
  const auto output_path = resolved(output);
  return !output_path.empty() && output_path == resolved(other);
}

void require_writable(const OutputFile& out) {
  struct stat link {};
  if (lstat(out.path.c_str(), &link) == 0 && !S_ISREG(link.st_mode)) {
    if (S_ISDIR(link.st_mode)) {
      throw InputError(out.option + ": " + out.path + " is a directory: give the path of a file");
    }
    if (access(out.path.c_str(), W_OK) != 0) {
      throw InputError(out.option + ": cannot write " + out.path + ": " + std::strerror(errno));
    }
    return;
  }
  const fs::path parent = fs::path(out.path).parent_path();
  const std::string directory = parent.empty() ? "." : parent.string();
  if (access(directory.c_str(), W_OK) != 0) {
    throw InputError(out.option + ": cannot write " + out.path + ": no file can be created in " + directory + " (" +
                     std::strerror(errno) + "); choose a writable directory");
  }
}

void write_output(const OutputFile& out, const std::function<void(std::ostream&)>& write) {
  const auto target = status_of(out.path);
  struct stat standard_output {};
  if (target && fstat(STDOUT_FILENO, &standard_output) == 0 && same_inode(*target, standard_output)) {
    write(std::cout);
    std::cout.flush();
    if (!std::cout) throw InputError(out.option + ": writing " + out.path + " (standard output) failed");
    return;
  }
  struct stat link {};
  if (lstat(out.path.c_str(), &link) == 0 && !S_ISREG(link.st_mode)) {
    std::ofstream file(out.path, std::ios::binary);
    if (file) write(file);
    file.close();
    if (!file) throw InputError(out.option + ": writing " + out.path + " failed (disk full?)");
    return;
  }
  const Replacement replaced = replace_through_temporary(out.path, write);
  if (replaced.failed != Failed::kNothing) {
    throw InputError(out.option + ": writing " + out.path + " failed (" +
                     (replaced.failed == Failed::kRename ? replaced.reason : "disk full?") + "); " + out.path +
                     " is unchanged");
  }
}

}  // namespace sssp
