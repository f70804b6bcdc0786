// Under compute-sanitizer: plants symbolic links in the folder of the tool's
// log (its --log-file, read from the tool's command line: the worker's
// parent), so that the grader, outside the sandbox, writes the test
// program's XML report (the log's name with .xml) over a file of its own
// (@CANARY@) and quotes a file the sandbox cannot read (@SECRET@) as the log.
#include <filesystem>
#include <fstream>
#include <string>

#include "sanitizer_log.hpp"  // pasted in by test_judge_attacks.py

namespace {
const bool planted = [] {
  const std::filesystem::path log = sanitizer_log();
  if (log.empty()) return false;
  std::error_code ignored;
  std::filesystem::create_symlink("@CANARY@", std::filesystem::path(log).replace_extension(".xml"), ignored);
  std::filesystem::remove(log, ignored);
  std::filesystem::create_symlink("@SECRET@", log, ignored);
  return true;
}();
}  // namespace
