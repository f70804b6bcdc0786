// What a call's answer costs on its way back from the worker, without any
// solving: a child process answers each request with n distances the way
// the worker does (serve_call into a body, the status byte, the body
// appended, one frame), and the parent times the round trip and the decode,
// as a graded test's clock sees a call. Compares the worker's way (large
// blocks referenced, sent from where they lie) with every block copied into
// the message, the way answers went before 2026-11-29.
//
//   rpc-answer-bench [N...]     default: 264346 1524453 (road-NY's and road-NE's vertex counts)
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "rpc/api.hpp"
#include "rpc/frame.hpp"

namespace {

using Clock = std::chrono::steady_clock;
constexpr int kCalls = 21;

/// Answers requests on `requests` until it closes, each with n distances.
void answer_calls(int requests, int answers, std::size_t n, bool referencing) {
  while (const auto request = sssp::rpc::read_frame(requests)) {
    sssp::rpc::Reader in(*request);
    sssp::rpc::Writer body;
    auto solve = [n](std::uint64_t) {
      sssp::SsspResult result;
      result.values.assign(n, 5);  // a fresh answer each call, as timed_run's download makes one
      return result;
    };
    if (referencing) {
      sssp::rpc::detail::serve_call<sssp::SsspResult, std::uint64_t>(in, body, solve);
    } else {
      std::uint64_t source = 0;
      sssp::rpc::get(in, source);
      sssp::rpc::put(body, solve(source));  // outside a Referencing scope: copied
    }
    sssp::rpc::Writer out;
    sssp::rpc::put(out, std::uint8_t{0});
    out.append(std::move(body));
    if (!sssp::rpc::write_frame(answers, out)) return;
  }
}

/// The median milliseconds of a call answering n distances.
double median_call_ms(std::size_t n, bool referencing) {
  int requests[2];
  int answers[2];
  if (::pipe(requests) != 0 || ::pipe(answers) != 0) throw std::runtime_error("pipe failed");
  (void)::fcntl(answers[0], F_SETPIPE_SZ, 1 << 20);  // as the test side sets it
  const pid_t child = ::fork();
  if (child == 0) {
    ::close(requests[1]);
    ::close(answers[0]);
    answer_calls(requests[0], answers[1], n, referencing);
    ::_exit(0);
  }
  ::close(requests[0]);
  ::close(answers[1]);
  std::vector<double> ms;
  for (int call = 0; call < kCalls; ++call) {
    const auto start = Clock::now();
    sssp::rpc::Writer request;
    sssp::rpc::put(request, std::uint64_t{0});
    const auto answer = sssp::rpc::write_frame(requests[1], request) ? sssp::rpc::read_frame(answers[0]) : std::nullopt;
    if (!answer) throw std::runtime_error("the answering process ended");
    sssp::rpc::Reader in(*answer);
    std::uint8_t status = 1;
    sssp::SsspResult result;
    sssp::rpc::get(in, status);
    sssp::rpc::get(in, result);
    in.expect_end();
    if (status != 0 || result.values.size() != n) throw std::runtime_error("a wrong answer");
    ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
  }
  ::close(requests[1]);
  ::close(answers[0]);
  ::waitpid(child, nullptr, 0);
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::size_t> sizes;
  for (int i = 1; i < argc; ++i) sizes.push_back(std::stoul(argv[i]));
  if (sizes.empty()) sizes = {264346, 1524453};
  std::printf("%12s  %14s  %14s   (median of %d calls, ms)\n", "distances", "referenced", "all copied", kCalls);
  for (const std::size_t n : sizes) {
    const double referenced = median_call_ms(n, true);
    const double copied = median_call_ms(n, false);
    std::printf("%12zu  %14.2f  %14.2f\n", n, referenced, copied);
  }
  return 0;
}
