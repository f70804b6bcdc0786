/// @file
/// @brief A lab's API across two processes: the graded tests call the lab's
/// functions and classes as usual, and each call is carried out by the worker
/// process, which runs the student's code.
///
/// A lab's binding (tests/<lab>/binding.cpp) is compiled twice from one file:
/// - in the worker (SSSP_RPC_WORKER is 1) it registers the student's functions
///   and classes with a Registry, by name;
/// - in the test program (SSSP_RPC_WORKER is 0) it defines the lab's API, each
///   function a call() and each class a Remote, so that the test sources
///   compile unchanged and never link the student's code.
///
/// A constructor's arguments live only during the call in the worker: a class
/// that keeps a reference to one needs a holder in its binding that owns both
/// (lab 05's DenseBellmanFord).
///
/// Parameters cross by value (a const reference, a value, a std::span or a
/// std::string_view); a non-const pointer or reference is also copied back
/// after the call (sssp::Counters* counters). An exception the student's code
/// throws is thrown again in the test, of the same kind and with the same
/// message. The test side checks everything that comes back (wire.hpp).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

#include "rpc/wire.hpp"

namespace sssp::rpc {

namespace detail {

template <typename T>
struct Stored {
  using type = std::remove_cvref_t<T>;
};
template <typename E>
struct Stored<std::span<const E>> {
  using type = std::vector<E>;
};
template <>
struct Stored<std::string_view> {
  using type = std::string;
};
template <typename T>
struct Stored<T*> {
  using type = std::optional<T>;
};

/// What the worker keeps of a parameter of type P while it calls the function.
template <typename P>
using stored_t = typename Stored<std::remove_cvref_t<P>>::type;

/// Parameters whose value goes back to the caller after the call.
template <typename P>
inline constexpr bool kIsOut = (std::is_pointer_v<P> && !std::is_const_v<std::remove_pointer_t<P>>) ||
                               (std::is_lvalue_reference_v<P> && !std::is_const_v<std::remove_reference_t<P>>);

template <typename P>
void put_param(Writer& out, const std::remove_cvref_t<P>& value) {
  if constexpr (std::is_pointer_v<std::remove_cvref_t<P>>) {
    static_assert(kIsOut<P>, "const pointer parameters are not supported: pass a const reference");
    rpc::put(out, value != nullptr);
    if (value != nullptr) rpc::put(out, *value);
  } else if constexpr (std::is_same_v<stored_t<P>, std::remove_cvref_t<P>>) {
    rpc::put(out, value);  // no copy of a graph to encode it
  } else if constexpr (std::is_same_v<std::remove_cvref_t<P>, std::string_view>) {
    rpc::put(out, std::string(value));
  } else {
    Codec<stored_t<P>>::put(out, value);  // a std::span, as the vector the worker keeps
  }
}

template <typename P>
decltype(auto) pass(stored_t<P>& stored) {
  if constexpr (std::is_pointer_v<std::remove_cvref_t<P>>) {
    return stored ? &*stored : nullptr;
  } else {
    return (stored);
  }
}

/// The value of an out parameter after the call: its pointee, or itself
/// (nothing for an in parameter).
template <typename P>
void put_back(Writer& out, const stored_t<P>& stored) {
  if constexpr (!kIsOut<P>) {
    return;
  } else if constexpr (std::is_pointer_v<std::remove_cvref_t<P>>) {
    if (stored) rpc::put(out, *stored);
  } else {
    rpc::put(out, stored);
  }
}

template <typename P>
void get_back(Reader& in, std::remove_reference_t<P>& arg) {
  if constexpr (!kIsOut<P>) {
    return;
  } else if constexpr (std::is_pointer_v<std::remove_cvref_t<P>>) {
    if (arg != nullptr) rpc::get(in, *arg);
  } else {
    rpc::get(in, arg);
  }
}

/// Reads the arguments, calls `f`, writes the result and the out parameters.
/// `out` keeps the result and the arguments: it references their large
/// blocks (the distances) until the answer is written, rather than copying.
template <typename R, typename... P, typename F>
void serve_call(Reader& in, Writer& out, F&& f) {
  std::tuple<stored_t<P>...> args;
  std::apply([&in](auto&... a) { (rpc::get(in, a), ...); }, args);
  in.expect_end();
  auto invoke = [&] { return std::apply([&](auto&... a) { return f(pass<P>(a)...); }, args); };
  const Writer::Referencing referencing(out);  // only what `out` keeps is put below
  if constexpr (std::is_void_v<R>) {
    invoke();
  } else {
    rpc::put(out, out.keep(std::remove_cvref_t<R>(invoke())));
  }
  const auto& kept = out.keep(std::move(args));
  [&]<std::size_t... I>(std::index_sequence<I...>) { (put_back<P>(out, std::get<I>(kept)), ...); }
  (std::index_sequence_for<P...>{});
}

}  // namespace detail

// ------------------------------------------------------------------ worker --

/// The worker's table of what it serves: free functions, constructors and
/// member functions, each by name.
class Registry {
 public:
  /// Serves the free function `f` as `name`.
  template <typename R, typename... P>
  void function(std::string name, R (*f)(P...)) {
    handlers_[std::move(name)] = [f](Reader& in, Writer& out) { detail::serve_call<R, P...>(in, out, f); };
  }

  /// Serves the constructor C(P...) as `name`: it answers with a handle.
  template <typename C, typename... P>
  void constructor(std::string name) {
    handlers_[std::move(name)] = [this](Reader& in, Writer& out) {
      detail::serve_call<std::uint64_t, P...>(in, out, [this](auto&&... args) {
        const std::uint64_t handle = next_handle_++;
        objects_[handle] = Object{std::make_shared<C>(std::forward<decltype(args)>(args)...), typeid(C).name()};
        return handle;
      });
    };
  }

  /// Serves the member function `m` of C as `name`: called with a handle first.
  template <typename C, typename R, typename... P>
  void method(std::string name, R (C::*m)(P...)) {
    add_method<C, R, P...>(std::move(name), [m](C& object, auto&&... a) -> R { return (object.*m)(a...); });
  }
  /// Serves the const member function `m` of C as `name`.
  template <typename C, typename R, typename... P>
  void method(std::string name, R (C::*m)(P...) const) {
    add_method<C, R, P...>(std::move(name), [m](C& object, auto&&... a) -> R { return (object.*m)(a...); });
  }

  /// Answers one request (name, then its arguments) into `out`: 0 and the
  /// results, or 1 and the exception the call threw.
  void answer(std::string_view request, Writer& out);

 private:
  struct Object {
    std::shared_ptr<void> object;
    const char* type;
  };

  template <typename C, typename R, typename... P, typename F>
  void add_method(std::string name, F call) {
    handlers_[std::move(name)] = [this, call](Reader& in, Writer& out) {
      std::uint64_t handle = 0;
      rpc::get(in, handle);
      C& object = *static_cast<C*>(find(handle, typeid(C).name()));
      detail::serve_call<R, P...>(in, out, [&](auto&&... a) -> R { return call(object, a...); });
    };
  }
  void* find(std::uint64_t handle, const char* type) const;

  std::map<std::string, std::function<void(Reader&, Writer&)>, std::less<>> handlers_;
  std::map<std::uint64_t, Object> objects_;
  std::uint64_t next_handle_ = 1;
};

/// What a lab's binding defines in the worker: registers the lab's API.
void register_lab(Registry& registry);

/// The worker's argument that asks it to create its CUDA context as it
/// starts, before the first call: a GPU test program's worker gets it, so
/// that the context is made while the test program sets up; a CPU test
/// program's does not (16 CPU tests at once each making a context took 3 s
/// a test instead of 0.05 s on an H100).
inline constexpr const char* kWarmGpuFlag = "--warm-gpu";

/// Creates the CUDA context (warm_gpu.cpp, in a GPU lab's worker; elsewhere
/// nothing to do).
void warm_up_gpu();

/// The runtime's own solver, served in a GPU lab's worker beside the lab's
/// API (null_solver.cu): constructed with a vertex count n, its run(source)
/// returns an SsspResult of n distances through sssp::cuda::timed_run, the
/// path of a lab's solve, without solving. The performance item times it on
/// the reference's worker only: the cost of a call that is not the solve.
inline constexpr const char* kNullSolver = "rpc.NullSolver";
/// Its run(source), called with the handle kNullSolver answered.
inline constexpr const char* kNullSolverRun = "rpc.NullSolver::run";

/// Registers what the runtime serves besides the lab's API (null_solver.cu,
/// in a GPU lab's worker; elsewhere nothing).
void register_runtime(Registry& registry);

// -------------------------------------------------------------------- test --

/// Sends one request to the worker and returns its answer (the results, or
/// throws the exception the student's code threw). The first call starts the
/// worker; a worker that dies (a crash, exit(), a kill) fails the call with a
/// WorkerDied naming how it ended, and the next call starts a fresh one.
/// What `request` references (Writer::bulk(): the call's arguments) is read
/// while it is sent, before this returns.
std::string round_trip(const Writer& request);

/// Starts the worker now, if none is running, so that its start-up (a GPU
/// lab's CUDA context) overlaps the test's own; the first call would start
/// it anyway. A worker that cannot start is reported by that call.
void start_worker() noexcept;

/// Returns once the worker (started if none runs) answers a request that
/// asks nothing of the lab's code: after its start-up, a GPU lab's CUDA
/// context included. The performance item times a solver's construction
/// from there.
void wait_for_worker();

/// The worker started when SSSP_WORKER is not set (default_worker.cpp).
const char* default_worker();

/// Whether this test program holds a lab's GPU tests (default_worker.cpp):
/// its worker is then asked to create its CUDA context at once.
bool runs_gpu_tests();

/// The CPU time, in seconds, that the running worker and every process it
/// started have used so far (user and system, all their threads, children
/// they have reaped included), as the kernel accounts it in /proc: the
/// worker cannot forge it. Negative when no worker runs or /proc cannot be
/// read. The performance item tells a GPU solve from a CPU one with it.
double worker_cpu_seconds();

/// How many workers this test process has started: a Remote belongs to the
/// worker that was running when it was made.
std::uint64_t worker_generation();

/// The worker process ended in the middle of a call.
class WorkerDied : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

namespace detail {

template <typename R, typename... P, typename... A>
R call_with(const std::optional<std::uint64_t>& handle, std::string_view name, A&&... args) {
  static_assert(sizeof...(P) == sizeof...(A), "call() needs every argument of the function");
  Writer request;
  rpc::put(request, std::string(name));
  if (handle) rpc::put(request, *handle);
  (put_param<P>(request, args), ...);
  const std::string answer = round_trip(request);
  Reader in(answer);
  std::conditional_t<std::is_void_v<R>, int, std::remove_cvref_t<R>> result{};
  if constexpr (!std::is_void_v<R>) rpc::get(in, result);
  (get_back<P>(in, args), ...);
  in.expect_end();
  if constexpr (!std::is_void_v<R>) return result;
}

}  // namespace detail

/// Calls the worker's function `name`, which has the signature of `f` (the
/// test side's own definition of it, used for its type only).
template <typename R, typename... P, typename... A>
R call(R (* /*f*/)(P...), std::string_view name, A&&... args) {
  return detail::call_with<R, P...>(std::nullopt, name, std::forward<A>(args)...);
}

/// An object that lives in the worker: the test side of a lab class's Impl.
/// Its destructor asks the worker to drop the object (if it still runs).
class Remote {
 public:
  /// Constructs the object in the worker with the constructor served as
  /// `name`, whose parameters are P... (given explicitly).
  template <typename... P, typename... A>
  static Remote make(std::string_view name, A&&... args) {
    return Remote(detail::call_with<std::uint64_t, P...>(std::nullopt, name, std::forward<A>(args)...));
  }
  Remote(Remote&& other) noexcept : handle_(std::exchange(other.handle_, 0)), generation_(other.generation_) {}
  Remote& operator=(Remote&&) = delete;
  Remote(const Remote&) = delete;
  ~Remote();

  /// Calls the member function served as `name`, whose signature is that of `m`.
  template <typename C, typename R, typename... P, typename... A>
  R call(R (C::* /*m*/)(P...), std::string_view name, A&&... args) const {
    return detail::call_with<R, P...>(handle_, name, std::forward<A>(args)...);
  }
  /// Calls the const member function served as `name`.
  template <typename C, typename R, typename... P, typename... A>
  R call(R (C::* /*m*/)(P...) const, std::string_view name, A&&... args) const {
    return detail::call_with<R, P...>(handle_, name, std::forward<A>(args)...);
  }

 private:
  explicit Remote(std::uint64_t handle) : handle_(handle), generation_(worker_generation()) {}
  std::uint64_t handle_;      // 0 once moved from
  std::uint64_t generation_;  // the worker that holds the object
};

}  // namespace sssp::rpc
