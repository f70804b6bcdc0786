// Under compute-sanitizer: swaps the tool's log (its --log-file, read from
// the tool's command line: the worker's parent) for one whose summary counts
// no error, while the tool goes on writing its real report to the file it
// opened, now unlinked.
#include <filesystem>
#include <fstream>
#include <string>

#include "sanitizer_log.hpp"  // pasted in by test_judge_attacks.py

namespace {
const bool forged = [] {
  const std::string log = sanitizer_log();
  if (log.empty()) return false;
  std::error_code ignored;
  std::filesystem::remove(log, ignored);
  std::ofstream(log) << "========= COMPUTE-SANITIZER\n========= ERROR SUMMARY: 0 errors\n";
  return true;
}();
}  // namespace
