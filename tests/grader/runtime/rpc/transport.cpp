// The test side of the worker: starts it, sends it requests, and turns its
// death into an exception that names how it ended.
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "rpc/api.hpp"
#include "rpc/cpu_time.hpp"
#include "rpc/frame.hpp"

extern char** environ;

namespace sssp::rpc {

namespace {

// The fds the worker reads requests from and writes answers to (worker_main.cpp).
constexpr int kRequestFd = 3;
constexpr int kAnswerFd = 4;

// What the worker prints reaches this program's output with this mark before
// each line, so that nothing the lab's code prints can pass for a line of the
// test's own (the grader reads the test's step lines from that output), and
// at most this much of it, so that it cannot flood the test's log.
constexpr const char* kWorkerLineMark = "[ worker   ] ";
constexpr std::size_t kWorkerOutputLimit = std::size_t{64} << 10;

/// The command that starts the worker: the SSSP_WORKER environment variable
/// (its words one per line, as tests/grade.py writes it: the sandbox, then the
/// worker), else the lab's student worker this program was built beside.
std::vector<std::string> worker_command() {
  std::string text;
  if (const char* env = std::getenv("SSSP_WORKER"); env != nullptr && *env != '\0') {
    text = env;
  } else {
    text = default_worker();
  }
  std::vector<std::string> words;
  std::size_t start = 0;
  while (start <= text.size() && !text.empty()) {
    const std::size_t end = text.find('\n', start);
    const std::string word = text.substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (!word.empty()) words.push_back(word);
    if (end == std::string::npos) break;
    start = end + 1;
  }
  if (words.empty()) throw std::runtime_error("no worker to run the lab's code: set SSSP_WORKER");
  if (runs_gpu_tests()) words.emplace_back(kWarmGpuFlag);
  return words;
}

/// The environment the worker gets: this process's, less the performance
/// item's settings (tests/support/perf_test.hpp), so that the worker cannot
/// know the graphs, repeats or the seed of the sources it will be asked for.
std::vector<char*> worker_environment() {
  std::vector<char*> env;
  for (char** e = environ; *e != nullptr; ++e) {
    if (std::strncmp(*e, "SSSP_PERF_", 10) != 0) env.push_back(*e);
  }
  env.push_back(nullptr);
  return env;
}

int high_fd(int fd) {
  const int moved = ::fcntl(fd, F_DUPFD_CLOEXEC, 10);
  ::close(fd);
  if (moved < 0) throw std::runtime_error(std::string("fcntl: ") + std::strerror(errno));
  return moved;
}

std::string describe_status(int status) {
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    return "was killed by signal " + std::to_string(sig) + " (" + ::strsignal(sig) + ")";
  }
  const int code = WEXITSTATUS(status);
  std::string text = "exited with status " + std::to_string(code);
  if (code > 128 && code < 128 + 65) {
    // The sandbox reports a child killed by signal N as 128 + N.
    text += " (status 128 + " + std::to_string(code - 128) + ": killed by signal " + std::to_string(code - 128) + ", " +
            ::strsignal(code - 128) + "?)";
  }
  return text;
}

/// Copies what the worker prints (its stdout and stderr, one write-only pipe)
/// into this program's stdout, each line marked, up to kWorkerOutputLimit
/// bytes. The worker gets a pipe of its own rather than this program's stdout:
/// that is the grader's log of the test, opened for reading too, and the
/// worker must not read what the test printed (expected answers, graph names).
class OutputRelay {
 public:
  /// Starts relaying from `read_end`, which the relay owns.
  explicit OutputRelay(int read_end) : fd_(read_end), thread_([this] { run(); }) {}
  OutputRelay(const OutputRelay&) = delete;
  OutputRelay& operator=(const OutputRelay&) = delete;
  /// Relays what is left and stops; call once the worker is gone. A process
  /// the worker left behind may hold the pipe open, so this does not wait for
  /// its end, only for what is already there.
  ~OutputRelay() {
    stop_ = true;
    thread_.join();
    ::close(fd_);
  }

 private:
  void run() {
    std::string line;
    char buffer[4096];
    while (!(stop_ && shown_ >= kWorkerOutputLimit)) {
      pollfd ready{fd_, POLLIN, 0};
      const int polled = ::poll(&ready, 1, 50);
      if (polled < 0 && errno != EINTR) break;
      if (polled <= 0) {
        if (stop_) break;
        continue;
      }
      const ssize_t got = ::read(fd_, buffer, sizeof buffer);
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) break;
      for (ssize_t i = 0; i < got; ++i) {
        line += buffer[i];
        if (buffer[i] == '\n') emit(line);
      }
      if (line.size() > 1024) emit(line += '\n');  // a line with no end is shown in parts
    }
    if (!line.empty()) emit(line += '\n');
  }

  void emit(std::string& line) {
    if (shown_ < kWorkerOutputLimit) {
      const std::string marked = kWorkerLineMark + line;
      shown_ += line.size();
      write_all(marked);
      if (shown_ >= kWorkerOutputLimit) {
        write_all(std::string(kWorkerLineMark) + "... (the rest of the worker's output is not shown)\n");
      }
    }
    line.clear();
  }

  static void write_all(const std::string& text) {
    std::size_t done = 0;
    while (done < text.size()) {
      const ssize_t wrote = ::write(STDOUT_FILENO, text.data() + done, text.size() - done);
      if (wrote < 0 && errno == EINTR) continue;
      if (wrote <= 0) return;
      done += static_cast<std::size_t>(wrote);
    }
  }

  int fd_;
  std::atomic<bool> stop_{false};
  std::size_t shown_ = 0;
  std::thread thread_;
};

class Worker {
 public:
  Worker() {
    std::signal(SIGPIPE, SIG_IGN);  // a dead worker must fail a call, not kill the test
    int request[2], answer[2], output[2];
    if (::pipe(request) != 0 || ::pipe(answer) != 0 || ::pipe(output) != 0) throw std::runtime_error("pipe failed");
    for (int* end : {&request[0], &request[1], &answer[0], &answer[1], &output[0], &output[1]}) *end = high_fd(*end);
    const std::vector<std::string> words = worker_command();
    std::vector<char*> argv;
    for (const auto& w : words) argv.push_back(const_cast<char*>(w.c_str()));
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, request[0], kRequestFd);
    posix_spawn_file_actions_adddup2(&actions, answer[1], kAnswerFd);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, output[1], STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&actions, output[1], STDERR_FILENO);
    std::vector<char*> env = worker_environment();
    const int error = ::posix_spawnp(&pid_, argv[0], &actions, nullptr, argv.data(), env.data());
    posix_spawn_file_actions_destroy(&actions);
    ::close(request[0]);
    ::close(answer[1]);
    ::close(output[1]);
    output_ = std::make_unique<OutputRelay>(output[0]);
    to_worker_ = request[1];
    from_worker_ = answer[0];
    (void)::fcntl(from_worker_, F_SETPIPE_SZ, 1 << 20);  // big answers (distances) in fewer wake-ups
    if (error != 0) {
      ::close(to_worker_);
      ::close(from_worker_);
      throw std::runtime_error("could not start the worker '" + words[0] + "': " + std::strerror(error));
    }
  }
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;
  ~Worker() {
    // Closing the request pipe ends the worker's loop; a worker that does not
    // end is killed (the sandbox takes everything it started with it).
    ::close(to_worker_);
    ::close(from_worker_);
    if (pid_ > 0 && !reap(std::chrono::seconds(2))) {
      ::kill(pid_, SIGKILL);
      reap(std::chrono::seconds(10));
    }
  }

  /// The answer to `request`, or nullopt when the worker is gone.
  std::optional<std::string> ask(const Writer& request) {
    if (!write_frame(to_worker_, request)) return std::nullopt;
    return read_frame(from_worker_);
  }

  /// The worker's process, for its CPU time.
  [[nodiscard]] pid_t pid() const { return pid_; }

  /// How the worker ended (it is gone: waits a little, then kills it).
  std::string how_it_ended() {
    if (!reap(std::chrono::seconds(2))) {
      ::kill(pid_, SIGKILL);
      reap(std::chrono::seconds(10));
      return "stopped answering (it closed its pipe but went on running) and was killed";
    }
    return describe_status(status_);
  }

 private:
  bool reap(std::chrono::milliseconds patience) {
    if (pid_ <= 0) return true;
    const auto until = std::chrono::steady_clock::now() + patience;
    while (true) {
      const pid_t got = ::waitpid(pid_, &status_, WNOHANG);
      if (got == pid_ || (got < 0 && errno != EINTR)) {
        pid_ = -1;
        return true;
      }
      if (std::chrono::steady_clock::now() >= until) return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  }

  pid_t pid_ = -1;
  int status_ = 0;
  int to_worker_ = -1;
  int from_worker_ = -1;
  std::unique_ptr<OutputRelay> output_;  // declared last: destroyed first, once the worker is reaped
};

std::unique_ptr<Worker>& current() {
  static std::unique_ptr<Worker> worker;
  return worker;
}

std::uint64_t generation = 0;

}  // namespace

std::uint64_t worker_generation() { return generation; }

double worker_cpu_seconds() {
  const auto& worker = current();
  return worker && worker->pid() > 0 ? process_tree_cpu_seconds(worker->pid()) : -1.0;
}

void start_worker() noexcept {
  auto& worker = current();
  if (worker) return;
  try {
    worker = std::make_unique<Worker>();
    ++generation;
  } catch (const std::exception&) {
    // The first call tries again and reports why.
  }
}

std::string round_trip(const Writer& request) {
  auto& worker = current();
  if (!worker) {
    worker = std::make_unique<Worker>();
    ++generation;
  }
  std::optional<std::string> answer = worker->ask(request);
  if (!answer || answer->empty()) {
    const std::string ended = worker->how_it_ended();
    worker.reset();
    throw WorkerDied("the worker process running the lab's code " + ended +
                     " in the middle of a call: the lab's code crashed, or ended the program (exit, abort); "
                     "its output, if any, is above");
  }
  Reader in(*answer);
  std::uint8_t status = 0;
  rpc::get(in, status);
  if (status == 1) throw_exception(in);
  if (status != 0) throw ProtocolError("the worker answered with an unknown status");
  return answer->substr(1);
}

void wait_for_worker() {
  // Dropping handle 0, which no object has (a Remote without an object holds
  // 0), is a request the worker answers without running the lab's code.
  Writer request;
  rpc::put(request, std::string("rpc.drop"));
  rpc::put(request, std::uint64_t{0});
  (void)round_trip(request);
}

Remote::~Remote() {
  if (handle_ == 0 || generation_ != generation || !current()) return;
  try {
    Writer request;
    rpc::put(request, std::string("rpc.drop"));
    rpc::put(request, handle_);
    (void)round_trip(request);
  } catch (...) {
    // A worker that cannot drop the object will not be asked again.
  }
}

}  // namespace sssp::rpc
