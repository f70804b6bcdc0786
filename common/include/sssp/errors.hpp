/// @file
/// @brief Exception types. Every failure the course can diagnose is one of these,
/// so a runner or grader can print it and exit non-zero instead of crashing.
#pragma once

#include <stdexcept>
#include <string>

namespace sssp {

/// Malformed or out-of-range input: a graph file, a generator spec, a command
/// line. The message names the file and line where there is one.
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A source vertex id that is not a vertex of the graph.
class InvalidSource : public std::out_of_range {
 public:
  /// @param source the rejected id
  /// @param num_vertices the number of vertices of the graph it was used on
  InvalidSource(unsigned long long source, unsigned long long num_vertices);
  /// @param message the message of an InvalidSource thrown in another
  /// process (the grader's worker), thrown again as it was
  explicit InvalidSource(const std::string& message);
};

/// A task a student has not implemented yet. Thrown by skeleton code
/// (see SSSP_TODO in sssp/todo.hpp), never by a solution.
class NotImplemented : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

/// A failed CUDA runtime call or kernel launch, with file, line and the
/// runtime's error string.
class CudaError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The GPU has too little free memory for a run: the bytes it needs and the
/// bytes free are in the message. A CudaError, so whoever reports CUDA errors
/// reports it; a caller that can choose a smaller graph catches this one.
class DeviceMemoryError : public CudaError {
 public:
  using CudaError::CudaError;
};

/// A solver found one of its own invariants broken, for example a worklist
/// that deduplication should have kept within bounds overflowed. Reported
/// instead of a silently wrong answer; a correct solver never throws it.
class AlgorithmError : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

/// The one way a lab refuses a bad option: throws InputError("<option> must
/// be <rule>, got <value>") unless `ok`. Every solver checks all its options
/// this way in its constructor, before it touches the GPU, so a bad option
/// fails the same way (and is named) in every lab, with or without a GPU.
/// @param ok     whether the option is acceptable
/// @param option its name as the user knows it, e.g. "block size"
/// @param rule   what it must be, e.g. "1..1024 threads"
/// @param value  the value given (a number)
template <typename Value>
void require_option(bool ok, const std::string& option, const std::string& rule, Value value) {
  if (!ok) throw InputError(option + " must be " + rule + ", got " + std::to_string(value));
}

/// The main() of every course program: returns `run(argc, argv)`, and turns
/// an exception that escapes it (bad input, a bad source, out of memory, a
/// CUDA error, an unfinished task) into one line "program: message" on
/// stderr and exit status 2, instead of a crash.
int guarded_main(const char* program, int (*run)(int, char**), int argc, char** argv);

}  // namespace sssp
