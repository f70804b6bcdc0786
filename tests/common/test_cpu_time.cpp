// The performance item's CPU clock (tests/grader/runtime/rpc/cpu_time.hpp) against
// processes whose CPU use is known: a child's busy work to well under a
// tick, a grandchild's whether alive or reaped, a sleeper's as nothing, and
// a process that does not exist refused. Busy work is counted in CPU time,
// not wall time, so a loaded machine cannot make a test fail.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <ctime>
#include <thread>

#include "rpc/cpu_time.hpp"

namespace {

constexpr double kBusySeconds = 0.150;

/// Spins until this thread has used `seconds` of CPU time.
void spin_cpu(double seconds) {
  timespec now{};
  volatile unsigned long sink = 0;
  do {
    for (int i = 0; i < 10000; ++i) sink = sink + 1;
    ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  } while (static_cast<double>(now.tv_sec) + now.tv_nsec * 1e-9 < seconds);
}

/// A forked child that runs `work`, then waits until the test closes the
/// pipe (so it stays in /proc while it is measured), then exits.
class Child {
 public:
  template <typename Work>
  explicit Child(Work work) {
    int fds[2];
    if (::pipe(fds) != 0) return;
    pid_ = ::fork();
    if (pid_ == 0) {
      ::close(fds[1]);
      work(fds[0]);  // a grandchild forked by `work` inherits the read end too
      char byte;
      (void)!::read(fds[0], &byte, 1);
      while (::wait(nullptr) > 0) {
      }
      ::_exit(0);
    }
    ::close(fds[0]);
    release_ = fds[1];
  }
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;
  ~Child() { finish(); }

  [[nodiscard]] pid_t pid() const { return pid_; }

  /// Lets it exit and reaps it.
  void finish() {
    if (release_ >= 0) ::close(release_);
    release_ = -1;
    if (pid_ > 0) ::waitpid(pid_, nullptr, 0);
    pid_ = -1;
  }

  /// Its tree's CPU time once it has reached `at_least` (polled for up to 10 s).
  [[nodiscard]] double cpu_seconds_reaching(double at_least) const {
    double seconds = -1.0;
    for (int tries = 0; tries < 1000; ++tries) {
      seconds = sssp::rpc::process_tree_cpu_seconds(pid_);
      if (seconds >= at_least) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return seconds;
  }

 private:
  pid_t pid_ = -1;
  int release_ = -1;
};

/// Forks a grandchild that spins, then waits on `release` like its parent.
void fork_busy_grandchild(int release, bool wait_for_release) {
  if (::fork() == 0) {
    spin_cpu(kBusySeconds);
    if (wait_for_release) {
      char byte;
      (void)!::read(release, &byte, 1);
    }
    ::_exit(0);
  }
}

TEST(CpuTime, SeesABusyChildToWellUnderATick) {
  const Child child([](int) { spin_cpu(kBusySeconds); });
  ASSERT_GT(child.pid(), 0);
  const double seconds = child.cpu_seconds_reaching(kBusySeconds);
  EXPECT_GE(seconds, kBusySeconds - 0.005) << "a child that spun 150 ms of CPU time";
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_LT(sssp::rpc::process_tree_cpu_seconds(child.pid()), kBusySeconds + 0.050) << "then slept";
}

TEST(CpuTime, SeesALiveGrandchild) {
  const Child child([](int release) { fork_busy_grandchild(release, true); });
  ASSERT_GT(child.pid(), 0);
  EXPECT_GE(child.cpu_seconds_reaching(kBusySeconds), kBusySeconds - 0.005) << "from the grandchild's own account";
}

TEST(CpuTime, SeesAGrandchildItsParentReaped) {
  const Child child([](int release) {
    fork_busy_grandchild(release, false);
    ::wait(nullptr);  // its time moves into this child's reaped-children account (whole ticks)
  });
  ASSERT_GT(child.pid(), 0);
  EXPECT_GE(child.cpu_seconds_reaching(kBusySeconds - 0.010), kBusySeconds - 0.010);
}

TEST(CpuTime, ASleepingChildUsesNearlyNothing) {
  const Child child([](int) {});
  ASSERT_GT(child.pid(), 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  const double seconds = sssp::rpc::process_tree_cpu_seconds(child.pid());
  EXPECT_GE(seconds, 0.0);
  EXPECT_LT(seconds, 0.020);
}

TEST(CpuTime, AProcessThatIsNotThereIsNegative) {
  Child child([](int) {});
  ASSERT_GT(child.pid(), 0);
  const pid_t gone = child.pid();
  child.finish();
  EXPECT_LT(sssp::rpc::process_tree_cpu_seconds(gone), 0.0);
}

}  // namespace
