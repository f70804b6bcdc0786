/// @file
/// @brief Lab 07, tasks 5 and 6 (designed by you): the launch policy, which
/// learns N, the launches to queue blind, and the batches after it, while the
/// solver runs; and the configuration tuner, which chooses k and the vertices
/// per thread of each run from the measured times of earlier runs. Only their
/// contracts are given; the handout states them and how they are measured.
///
/// A plain C++ header: the runner and the tests include it without nvcc.
#pragma once

#include <algorithm>
#include <limits>

#include "sssp/todo.hpp"

namespace lab07 {

/// Deepest wave a thread may run: the per-thread stack has this many frames.
inline constexpr unsigned kMaxDepth = 8;

/// Most launches a LaunchPolicy may ask for at once (first_batch, next_batch).
inline constexpr unsigned kMaxBatch = 1u << 16;

/// What the host saw at one look: what the policy's next_batch decides from.
struct Look {
  /// Launches queued so far in this run (they are numbered 1 .. queued), all finished now.
  unsigned queued = 0;
  /// The last launch that flagged a vertex: here always `queued`, since the
  /// driver asks for another batch only when the latest launch flagged.
  unsigned last_flagging = 0;
};

/// Task 5: decides how many relaxation launches the driver (task 3) queues
/// before each look, one LaunchPolicy per solver, kept from run to run.
///
/// The driver of one run calls first_batch() once, queues that many launches
/// (at least one), and looks: it waits for them and reads the last launch that
/// flagged. While the latest launch flagged something it calls
/// next_batch(look), queues that many more, and looks again. When a look finds
/// the latest launch quiet, the run is over and the solver calls
/// finished(needed, queued), where needed = the last flagging launch + 1 is the
/// fewest launches the run could have queued with a single look.
///
/// Contract (graded by the Policy tests through lab07::simulate_policy, which
/// drives the policy exactly as above without a GPU), for needs of at most
/// kMaxBatch launches (16 kMaxBatch for a cold start):
///  - bounds: first_batch() is at most kMaxBatch; next_batch() is 1 to kMaxBatch;
///  - cold start: on a fresh policy, a run that needs n launches looks at most
///    2 ceil(log2 n) + 2 times and queues at most 2n + 1 launches;
///  - steady need: on a fresh policy whose runs all need n launches, every
///    run after the first looks once and queues exactly n;
///  - varying need: when every run needs between a and b launches, each run
///    after the first 8 looks at most 2 ceil(log2(b - a + 1)) + 3 times and
///    queues at most needed + 2(b - a) + 1 launches;
///  - a lasting change: when the need changes to a new constant n, the runs
///    from the 9th of the new need on look once and queue exactly n; after a
///    fall to n, the first run queues no more than the most any of the 8 runs
///    before it needed, and the runs from the second on look once and queue
///    exactly n.
/// Correctness never depends on the policy: the driver stops only after a
/// quiet launch, however many launches the policy asks for.
class LaunchPolicy {
 public:
  // BEGIN SOLUTION task 5: the launch policy (designed from its contract)
  /// Launches the next run queues blind, before its first look: 0 to
  /// kMaxBatch (the driver queues at least one). The same until finished().
  [[nodiscard]] unsigned first_batch() const {
    // The fewest launches any of the last kWindow runs needed. The fewest,
    // not the mean: a launch past the end costs a scan of the flags, a look a
    // round trip, and what is left after N is found by doubling (a few looks);
    // the window lets N rise again when the runs come to need more.
    if (runs_ == 0) return 0;  // nothing learned yet: this run is the pre-run
    unsigned fewest = kMaxBatch;
    for (unsigned i = 0; i < std::min(runs_, kWindow); ++i) fewest = std::min(fewest, needed_[i]);
    return fewest;
  }

  /// After a look that found launch `look.queued` flagged: the launches to
  /// queue before the next look, 1 to kMaxBatch.
  [[nodiscard]] unsigned next_batch(const Look& look) {
    // Doubling, as in ski rental: the launches queued past the end are at
    // most those it took to find it, and the looks grow with the logarithm of
    // what is left after the blind batch.
    (void)look;
    const unsigned batch = batch_;
    batch_ = std::min(2 * batch_, kMaxBatch);
    return batch;
  }

  /// The run is over: it needed `needed` launches (its last flagging launch
  /// + 1) and queued `queued` (needed or more).
  void finished(unsigned needed, unsigned queued) {
    (void)queued;
    needed_[runs_ % kWindow] = std::min(needed, kMaxBatch);
    ++runs_;
    batch_ = 1;  // each run's doubling starts again
  }

 private:
  static constexpr unsigned kWindow = 8;  // runs remembered: the contract's "from the 9th run"
  unsigned needed_[kWindow] = {};         // launches the last runs needed, a ring
  unsigned runs_ = 0;                     // runs finished
  unsigned batch_ = 1;                    // this run's next batch after a look
  // SKELETON
  // // TODO(task 5): design the policy from its contract (above and in the
  // // handout): its state (members of your own) and these three decisions.
  // /// Launches the next run queues blind, 0 to kMaxBatch (the driver queues at least one).
  // [[nodiscard]] unsigned first_batch() const { SSSP_TODO(7, 5, "the launch policy: first_batch"); }
  // /// After a look that found the latest launch flagged: launches to queue before the next look, 1 to kMaxBatch.
  // [[nodiscard]] unsigned next_batch(const Look& /*look*/) { SSSP_TODO(7, 5, "the launch policy: next_batch"); }
  // /// The run is over: it needed `needed` launches and queued `queued`.
  // void finished(unsigned /*needed*/, unsigned /*queued*/) { SSSP_TODO(7, 5, "the launch policy: finished"); }
  // END SOLUTION
};

/// What a run is configured with, and what a ConfigTuner chooses: k and the
/// vertices per thread (every other option stays as the solver was built).
struct Config {
  unsigned depth = 2;                ///< k, 1 to kMaxDepth
  unsigned vertices_per_thread = 1;  ///< 1, 2 or 4
  friend bool operator==(const Config&, const Config&) = default;
};

/// How many configurations there are: every k with every vertices per thread.
inline constexpr unsigned kConfigs = 3 * kMaxDepth;

/// A valid configuration's place in a table of kConfigs entries (the tests'
/// cost tables): 1, 2, 4 vertices per thread in turn, k rising within each.
[[nodiscard]] constexpr unsigned config_index(Config c) {
  const unsigned p = c.vertices_per_thread == 4 ? 2 : c.vertices_per_thread - 1;
  return p * kMaxDepth + (c.depth - 1);
}

/// The configuration at place `i` (0 to kConfigs - 1) of such a table.
[[nodiscard]] constexpr Config config_at(unsigned i) { return Config{i % kMaxDepth + 1, 1u << (i / kMaxDepth)}; }

/// Whether `c` is a configuration the solver can run.
[[nodiscard]] constexpr bool valid_config(Config c) {
  const unsigned p = c.vertices_per_thread;
  return c.depth >= 1 && c.depth <= kMaxDepth && (p == 1 || p == 2 || p == 4);
}

/// Task 6: chooses the configuration (k, vertices per thread) of each run of
/// a solver built with Options::tune, from the times of the runs before it,
/// one ConfigTuner per solver, kept from run to run.
///
/// Before each run the solver calls next() and runs with what it returns;
/// after the run it calls measured(used, ms) with that configuration and the
/// run's time in milliseconds (its device_ms: launches and looks). A run's
/// cost depends on its configuration, but the time measured can be more than
/// the cost: another process on the GPU, or a source far from the others,
/// makes an outlier.
///
/// Contract (graded by the Tuner tests through lab07::simulate_tuner, which
/// drives the tuner exactly as above without a GPU, with a table that gives
/// each configuration's cost in ms, all positive and one cheapest); runs are
/// numbered from 0:
///  - bounds and start: every next() is a valid configuration (valid_config),
///    and run 0 uses the configuration the tuner was built with;
///  - settling: when every run measures exactly its configuration's cost,
///    every run from run 50 on uses the cheapest configuration;
///  - outliers: the same holds when some runs, never two in a row, measure
///    more than their cost, up to 4 times it: an outlier neither fools the choice nor moves
///    the tuner off the cheapest configuration once it uses it;
///  - a lasting rise: when from a run r >= 50 on the table changes for good (another
///    one, with one cheapest) and the configuration in use at r costs at least
///    twice what it did, every run from run r + 52 on uses the new cheapest.
/// Correctness never depends on the tuner: every configuration computes the
/// same distances.
class ConfigTuner {
 public:
  // BEGIN SOLUTION task 6: the configuration tuner (designed from its contract)
  /// A tuner whose first run uses `start` (a valid configuration).
  explicit ConfigTuner(Config start) {
    // The start is tried first: it is the user's guess, and run 0 must use it.
    order_[0] = config_index(start);
    for (unsigned i = 0, next = 1; i < kConfigs; ++i) {
      if (i != order_[0]) order_[next++] = i;
    }
    explore();
  }

  /// The configuration of the next run. The same until measured().
  [[nodiscard]] Config next() const {
    if (step_ < kExplore) return config_at(order_[step_ / kSamples]);
    return config_at(chosen_);
  }

  /// The run with configuration `used` (the last next()) took `ms`.
  void measured(Config used, double ms) {
    const unsigned i = config_index(used);
    // The least of a configuration's samples, not their mean: interference
    // only ever adds time, and of kSamples runs in a row at most one is an
    // outlier, so the least is the cost itself.
    fastest_[i] = std::min(fastest_[i], ms);
    if (step_ < kExplore) {
      if (++step_ == kExplore) {
        chosen_ = order_[0];
        for (unsigned c = 0; c < kConfigs; ++c) chosen_ = fastest_[c] < fastest_[chosen_] ? c : chosen_;
        slow_runs_ = 0;
      }
      return;
    }
    // One slow run is an outlier; kSamples in a row cannot all be, so the
    // cost itself has risen, and what was cheapest may be no longer: measure
    // every configuration again, from the one in use.
    slow_runs_ = ms > kRise * fastest_[i] ? slow_runs_ + 1 : 0;
    if (slow_runs_ < kSamples) return;
    std::swap(order_[0], *std::find(order_, order_ + kConfigs, chosen_));
    explore();
  }

 private:
  static constexpr unsigned kSamples = 2;                    // runs in a row per configuration
  static constexpr unsigned kExplore = kSamples * kConfigs;  // runs that measure every configuration
  static constexpr double kRise = 1.5;                       // a run this much slower than its best is slow

  void explore() {
    step_ = 0;
    std::fill(fastest_, fastest_ + kConfigs, std::numeric_limits<double>::infinity());
  }

  unsigned order_[kConfigs] = {};  // the order in which the configurations are measured
  double fastest_[kConfigs] = {};  // per configuration, its fastest run since measuring began
  unsigned step_ = 0;              // runs into the measuring; kExplore once it chose
  unsigned chosen_ = 0;            // the configuration chosen once all were measured
  unsigned slow_runs_ = 0;         // slow runs in a row of the chosen configuration
  // SKELETON
  // // TODO(task 6): design the tuner from its contract (above and in the
  // // handout): its state (members of your own) and these decisions.
  // /// A tuner whose first run uses `start` (a valid configuration).
  // explicit ConfigTuner(Config /*start*/) {}
  // /// The configuration of the next run. The same until measured().
  // [[nodiscard]] Config next() const { SSSP_TODO(7, 6, "the configuration tuner: next"); }
  // /// The run with configuration `used` (the last next()) took `ms`.
  // void measured(Config /*used*/, double /*ms*/) { SSSP_TODO(7, 6, "the configuration tuner: measured"); }
  // END SOLUTION
};

}  // namespace lab07
