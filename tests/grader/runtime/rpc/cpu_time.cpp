// The CPU time of a process tree, as the kernel accounts it in /proc.
#include "rpc/cpu_time.hpp"

#include <dirent.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace sssp::rpc {

namespace {

/// A process's CPU time in seconds, and its parent, from /proc; false when
/// it is gone. /proc/<pid>/stat counts whole clock ticks (10 ms), too coarse
/// for a 2 ms solve, so the live threads' nanosecond run times
/// (/proc/<pid>/task/<tid>/schedstat) are summed too, and the larger of the
/// two is taken (the ticks also hold threads that have ended). The time of
/// reaped children (cutime, cstime) is added in ticks.
bool read_process(const std::string& pid, double& seconds, long& parent) {
  std::ifstream in("/proc/" + pid + "/stat");
  std::string text;
  if (!std::getline(in, text)) return false;
  const std::size_t close = text.rfind(')');  // the command name may hold spaces and parentheses
  if (close == std::string::npos) return false;
  std::istringstream fields(text.substr(close + 1));
  std::string state;
  fields >> state >> parent;
  std::string skip;
  for (int field = 5; field < 14; ++field) fields >> skip;
  unsigned long long utime = 0, stime = 0;
  long long cutime = 0, cstime = 0;
  fields >> utime >> stime >> cutime >> cstime;
  if (!fields) return false;
  const double tick = 1.0 / static_cast<double>(::sysconf(_SC_CLK_TCK));
  double threads = 0.0;
  if (DIR* tasks = ::opendir(("/proc/" + pid + "/task").c_str())) {
    while (const dirent* task = ::readdir(tasks)) {
      if (task->d_name[0] == '.') continue;
      std::ifstream schedstat("/proc/" + pid + "/task/" + task->d_name + "/schedstat");
      unsigned long long on_cpu_ns = 0;
      if (schedstat >> on_cpu_ns) threads += static_cast<double>(on_cpu_ns) * 1e-9;
    }
    ::closedir(tasks);
  }
  seconds = std::max(threads, static_cast<double>(utime + stime) * tick) +
            static_cast<double>(std::max(0LL, cutime) + std::max(0LL, cstime)) * tick;
  return true;
}

}  // namespace

double process_tree_cpu_seconds(pid_t root) {
  DIR* proc = ::opendir("/proc");
  if (proc == nullptr) return -1.0;
  std::map<long, std::vector<long>> children;
  std::map<long, double> seconds;
  while (const dirent* entry = ::readdir(proc)) {
    const std::string name = entry->d_name;
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    double used = 0.0;
    long parent = 0;
    if (!read_process(name, used, parent)) continue;
    const long pid = std::stol(name);
    seconds[pid] = used;
    children[parent].push_back(pid);
  }
  ::closedir(proc);
  if (!seconds.contains(root)) return -1.0;
  double total = 0.0;
  std::vector<long> stack{root};
  while (!stack.empty()) {
    const long pid = stack.back();
    stack.pop_back();
    total += seconds[pid];
    for (const long child : children[pid]) stack.push_back(child);
  }
  return total;
}

}  // namespace sssp::rpc
