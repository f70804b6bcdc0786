/// @file
/// @brief What a lab gives the runner: its algorithms and the launch options
/// they take. Each lab registers them itself, in its own folder
/// (`<lab>/runner_entries.cpp` defining `void register_<lab>(Registry&)`),
/// compiled against the student's labs/ into `sssp` and against solutions/
/// into `sssp-ref`; the build calls every lab's function in the lab order.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "sssp/counters.hpp"
#include "sssp/graph.hpp"
#include "sssp/result.hpp"

namespace sssp::runner {

/// What one run of an algorithm produced.
struct RunOutput {
  std::vector<dist_t> dist;     ///< Distances (SSSP algorithms).
  std::vector<level_t> levels;  ///< Levels (BFS algorithms).
  Counters counters;            ///< Work done.
  /// GPU time of the run measured with CUDA events, in ms; negative for CPU
  /// algorithms, which the runner times with a host clock.
  double device_ms = -1.0;
};

/// Runs the algorithm from one source on the graph given to prepare().
using PreparedRun = std::function<RunOutput(vertex_t source)>;

/// A launch option a lab declares (`--block-size N`): the runner parses it
/// as an integer from `min` to `max` and hands it to the algorithms that
/// take it, whose own checks then apply.
struct LaunchOption {
  std::string flag;       ///< "--block-size".
  std::string metavar;    ///< "N", in the usage.
  std::string help;       ///< One line for the usage; the runner adds the labs that declared it.
  std::uint64_t min = 0;  ///< Smallest value parsed.
  std::uint64_t max = 0;  ///< Largest value parsed: at most the range of the lab's field, so none is narrowed.
};

/// The launch options given on the command line, by flag.
class Tuning {
 public:
  /// Stores `value` for `flag`.
  void set(const std::string& flag, std::uint64_t value) { values_[flag] = value; }

  /// The value given for `flag`, or `fallback` (the lab's default) if none was.
  /// The parser kept the value within the option's `max`, the range of `T`.
  template <typename T>
  [[nodiscard]] T value_or(std::string_view flag, T fallback) const {
    const auto it = values_.find(std::string(flag));
    return it == values_.end() ? fallback : static_cast<T>(it->second);
  }

  /// Every flag given, with its value.
  [[nodiscard]] const std::map<std::string, std::uint64_t>& values() const { return values_; }

 private:
  std::map<std::string, std::uint64_t> values_;
};

/// One runnable algorithm.
struct Algorithm {
  std::string name;     ///< "lab01/dijkstra": lab folder number and algorithm.
  std::string summary;  ///< One line for --list.
  bool gpu = false;     ///< Needs a GPU.
  bool bfs = false;     ///< Produces levels instead of distances.
  /// The launch options it takes (flags of the registry's options). The
  /// runner refuses any other given while it is chosen.
  std::vector<std::string> options;
  /// Throws InputError when the lab refuses the launch options' values; the
  /// runner calls it before it loads the graph (with or without a GPU).
  std::function<void(const Tuning&)> check = [](const Tuning&) {};
  /// Does the per-graph setup that is not timed (e.g. copying the graph to
  /// the GPU) and returns the timed part.
  std::function<PreparedRun(const CsrGraph&, const Tuning&)> prepare;
  /// Works on an adjacency matrix: O(V^2) memory and work per round, up to
  /// O(V^3) in all. The runner's default set leaves such algorithms out on
  /// all but small graphs.
  bool dense_matrix = false;
};

/// The algorithms and launch options of every lab built into the runner.
class Registry {
 public:
  /// Declares a launch option of lab `lab` (e.g. "lab02"). Labs share an
  /// option by declaring the same flag, metavar, min and max.
  void option(const std::string& lab, LaunchOption option);

  /// Adds an algorithm; its options must have been declared.
  void add(Algorithm algorithm);

  /// The algorithms, in the order added (the lab order).
  [[nodiscard]] const std::vector<Algorithm>& algorithms() const { return algorithms_; }

  /// The launch options, each with the labs that declared it, in the order declared.
  [[nodiscard]] const std::vector<std::pair<LaunchOption, std::vector<std::string>>>& options() const {
    return options_;
  }

 private:
  std::vector<Algorithm> algorithms_;
  std::vector<std::pair<LaunchOption, std::vector<std::string>>> options_;
};

/// Every lab's algorithms, registered once (the build generates the calls).
[[nodiscard]] const Registry& registry();

/// Wraps a CPU function `f(graph, source, counters)` returning distances
/// (SSSP) or levels (BFS, told apart by the type).
template <typename F>
Algorithm cpu_algorithm(std::string name, std::string summary, F f) {
  using Values = std::invoke_result_t<F, const CsrGraph&, vertex_t, Counters*>;
  constexpr bool kBfs = std::is_same_v<Values, std::vector<level_t>>;
  Algorithm a;
  a.name = std::move(name);
  a.summary = std::move(summary);
  a.bfs = kBfs;
  a.prepare = [f](const CsrGraph& graph, const Tuning&) -> PreparedRun {
    return [f, &graph](vertex_t source) {
      RunOutput out;
      if constexpr (kBfs) {
        out.levels = f(graph, source, &out.counters);
      } else {
        out.dist = f(graph, source, &out.counters);
      }
      return out;
    };
  };
  return a;
}

/// `options` with the command line's values of the launch fields most labs
/// share, each where the struct has the field: block_size (--block-size),
/// rounds_per_check (--rounds-per-check) and delta (--delta). A lab with
/// other fields writes its own (lab 07).
template <typename LabOptions>
LabOptions tuned_launch(LabOptions options, const Tuning& tuning) {
  if constexpr (requires { options.block_size; }) {
    options.block_size = tuning.value_or("--block-size", options.block_size);
  }
  if constexpr (requires { options.rounds_per_check; }) {
    options.rounds_per_check = tuning.value_or("--rounds-per-check", options.rounds_per_check);
  }
  if constexpr (requires { options.delta; }) options.delta = tuning.value_or("--delta", options.delta);
  return options;
}

/// Wraps a GPU solver class: its constructor `Solver(graph, options)` checks
/// the options and uploads the graph (untimed), and run(source) returns an
/// SsspResult or BfsResult with its own CUDA-event time. `tuned(defaults,
/// tuning)` is the lab's options with the command line's values; `validate`
/// the lab's own check of them, the one its constructor makes.
template <typename Solver, typename LabOptions>
Algorithm gpu_solver(std::string name, std::string summary, LabOptions defaults, std::vector<std::string> options,
                     LabOptions (*tuned)(LabOptions, const Tuning&), void (*validate)(const LabOptions&)) {
  using Result = decltype(std::declval<Solver&>().run(vertex_t{}));
  constexpr bool kBfs = std::is_same_v<Result, BfsResult>;
  Algorithm a;
  a.name = std::move(name);
  a.summary = std::move(summary);
  a.gpu = true;
  a.bfs = kBfs;
  a.options = std::move(options);
  a.check = [defaults, tuned, validate](const Tuning& tuning) { validate(tuned(defaults, tuning)); };
  a.prepare = [defaults, tuned](const CsrGraph& graph, const Tuning& tuning) -> PreparedRun {
    auto solver = std::make_shared<Solver>(graph, tuned(defaults, tuning));
    return [solver](vertex_t source) {
      Result result = solver->run(source);
      RunOutput out;
      if constexpr (kBfs) {
        out.levels = std::move(result.values);
      } else {
        out.dist = std::move(result.values);
      }
      out.counters = result.counters;
      out.device_ms = result.device_ms;
      return out;
    };
  };
  return a;
}

/// `--block-size`, which most GPU labs take.
inline LaunchOption block_size_option() { return {"--block-size", "N", "threads per block", 0, ~0u}; }

/// --rounds-per-check, as tuned_launch reads it (labs 04, 06, 08).
inline LaunchOption rounds_per_check_option() {
  return {"--rounds-per-check", "N", "rounds launched between two looks at the result", 0, ~0u};
}

/// --delta, as tuned_launch reads it. It starts at 1: 0 would mean "pick it by
/// the rule", as leaving the flag out already does.
inline LaunchOption delta_option() {
  return {"--delta", "N", "the bucket width (default: each solver's rule)", 1, ~std::uint64_t{0}};
}

}  // namespace sssp::runner
