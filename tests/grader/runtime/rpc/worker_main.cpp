// The worker: the process that runs the student's code. It serves its lab's
// API (the lab's binding registers it) over two pipes, one request at a
// time, and decides nothing: the graded test checks every answer.
#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <string_view>

#include "rpc/api.hpp"
#include "rpc/frame.hpp"

namespace sssp::rpc {

void Registry::answer(std::string_view request, Writer& out) {
  Writer body;
  try {
    Reader in(request);
    std::string name;
    rpc::get(in, name);
    if (name == "rpc.drop") {
      std::uint64_t handle = 0;
      rpc::get(in, handle);
      in.expect_end();
      objects_.erase(handle);
    } else {
      const auto handler = handlers_.find(name);
      if (handler == handlers_.end()) throw ProtocolError("the worker serves no '" + name + "'");
      handler->second(in, body);
    }
    rpc::put(out, std::uint8_t{0});
  } catch (...) {
    body = Writer();
    rpc::put(out, std::uint8_t{1});
    put_current_exception(body);
  }
  out.append(std::move(body));  // its referenced blocks stay referenced
}

void* Registry::find(std::uint64_t handle, const char* type) const {
  const auto it = objects_.find(handle);
  if (it == objects_.end() || it->second.type != type) {
    throw ProtocolError("no object " + std::to_string(handle) + " of that class in the worker");
  }
  return it->second.object.get();
}

}  // namespace sssp::rpc

// A worker of a CPU lab has no GPU to warm up (warm_gpu.cpp overrides this).
[[gnu::weak]] void sssp::rpc::warm_up_gpu() {}

// A worker of a CPU lab serves no null solver (null_solver.cu overrides this).
[[gnu::weak]] void sssp::rpc::register_runtime(Registry& /*registry*/) {}

int main(int argc, char** argv) {
  constexpr int kRequestFd = 3;
  constexpr int kAnswerFd = 4;
  for (int i = 1; i < argc; ++i) {
    if (std::string_view(argv[i]) == sssp::rpc::kWarmGpuFlag) sssp::rpc::warm_up_gpu();
  }
  sssp::rpc::Registry registry;
  sssp::rpc::register_lab(registry);
  sssp::rpc::register_runtime(registry);
  while (const auto request = sssp::rpc::read_frame(kRequestFd)) {
    sssp::rpc::Writer answer;
    registry.answer(*request, answer);
    std::cout.flush();  // what the lab's code printed, before the test goes on
    std::fflush(nullptr);
    if (!sssp::rpc::write_frame(kAnswerFd, answer)) return 1;
  }
  return 0;
}
