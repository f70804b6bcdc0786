// Shared by the compute-sanitizer attacks: the path of the tool's log (its
// --log-file), read from the tool's command line, the worker's parent. An
// attack is one file appended to the lab's source, so test_judge_attacks.py
// pastes this fragment where an attack includes it.
#include <unistd.h>

#include <fstream>
#include <string>

namespace {
std::string sanitizer_log() {
  std::ifstream cmdline("/proc/" + std::to_string(getppid()) + "/cmdline");
  std::string arg, previous;
  while (std::getline(cmdline, arg, '\0')) {
    if (previous == "--log-file") return arg;
    previous = arg;
  }
  return "";
}
}  // namespace
