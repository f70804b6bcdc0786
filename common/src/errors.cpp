#include "sssp/errors.hpp"

#include <cstdio>
#include <exception>
#include <new>
#include <string>

#include "sssp/todo.hpp"

namespace sssp {

InvalidSource::InvalidSource(unsigned long long source, unsigned long long num_vertices)
    : std::out_of_range(
          "source vertex " + std::to_string(source) + " is not a vertex of the graph (valid ids are 0.." +
          (num_vertices == 0 ? std::string("none: the graph is empty") : std::to_string(num_vertices - 1)) + ")") {}

InvalidSource::InvalidSource(const std::string& message) : std::out_of_range(message) {}

int guarded_main(const char* program, int (*run)(int, char**), int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "%s: out of host memory: the input is too large for this machine\n", program);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s\n", program, e.what());
  }
  return 2;
}

namespace detail {

void throw_todo(int lab, int task, const char* what, const char* file, int line) {
  char prefix[64];
  std::snprintf(prefix, sizeof prefix, "Lab %02d, task %d", lab, task);
  std::string base = file;
  if (const auto slash = base.find_last_of('/'); slash != std::string::npos) base.erase(0, slash + 1);
  const std::string where = line > 0 ? base + ":" + std::to_string(line) : base;
  throw NotImplemented(std::string(prefix) + " is not implemented yet: " + what + " (" + where + ")");
}

}  // namespace detail
}  // namespace sssp
