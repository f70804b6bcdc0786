// Without the sandbox: leaves a process in a session of its own that waits
// for the grader's reports (their paths read from grade.py's command line,
// an ancestor's /proc/PID/cmdline) and rewrites them as a full score once
// the grader has written them.
#include <sys/prctl.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace {
struct Reports {
  std::string results, junit;
};

Reports find_reports() {
  for (pid_t pid = getppid(); pid > 1;) {
    const std::string proc = "/proc/" + std::to_string(pid);
    std::ifstream cmdline(proc + "/cmdline");
    std::string arg, previous;
    Reports found;
    while (std::getline(cmdline, arg, '\0')) {
      if (previous == "--results-json") found.results = arg;
      if (previous == "--junit") found.junit = arg;
      previous = arg;
    }
    if (!found.results.empty()) return found;
    std::ifstream stat(proc + "/stat");
    std::string line;
    std::getline(stat, line);
    const std::size_t end = line.rfind(')');
    if (end == std::string::npos || end + 4 > line.size()) break;
    pid = std::atoi(line.c_str() + end + 4);  // after ") S "
  }
  return {};
}

bool rewriter_running() {
  std::error_code ignored;
  for (const auto& entry : std::filesystem::directory_iterator("/proc", ignored)) {
    std::ifstream comm(entry.path() / "comm");
    std::string name;
    if (std::getline(comm, name) && name == "sssp-rewriter") return true;
  }
  return false;
}

const bool forked =
    [] {
      const Reports reports = find_reports();
      if (reports.results.empty() || rewriter_running()) return false;
      if (fork() == 0) {
        setsid();
        if (fork() != 0) _exit(0);
        prctl(PR_SET_NAME, "sssp-rewriter");
        std::ofstream(reports.results + ".rewriter") << getpid() << "\n";  // for the test: the attack ran
        close(3);  // the worker's request and answer pipes: the test must not wait for this process
        close(4);
        for (int i = 0; i < 600; ++i) {
          std::ifstream current(reports.results);
          const std::string text((std::istreambuf_iterator<char>(current)), std::istreambuf_iterator<char>());
          if (text.find("\"tests\"") != std::string::npos && text.find("FORGED") == std::string::npos) {
            usleep(300000);  // the JUnit file comes right after
            std::ofstream(reports.results)
                << R"({"tests": [{"name": "FORGED", "score": 100, "max_score": 100, "status": "passed"}]})";
            if (!reports.junit.empty())
              std::ofstream(reports.junit) << "<testsuites><testsuite name=\"FORGED\"/></testsuites>";
          }
          usleep(100000);
        }
        _exit(0);
      }
      return true;
    }();
}  // namespace
