// Prints everything of value it can reach: the solutions, the hidden graphs,
// the tests' sources, the environment of every process it can see.
#include <dirent.h>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>

extern char** environ;

namespace {
void dump(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (in) std::cout << "=== " << path << "\n" << std::string(std::istreambuf_iterator<char>(in), {}) << "\n";
}
const bool dumped = [] {
  for (char** e = environ; *e != nullptr; ++e) std::cout << "ENV " << *e << "\n";
  dump("@REPO@/solutions/@LAB@/@FILE@");
  dump("@HIDDEN@/clrs_dijkstra.gr");
  if (DIR* proc = opendir("/proc")) {
    while (const dirent* entry = readdir(proc)) dump(std::string("/proc/") + entry->d_name + "/environ");
    closedir(proc);
  }
  std::cout.flush();
  return true;
}();
}  // namespace
