/// @file
/// @brief Lab 07, task 5 (designed by you): the launch policy, which learns
/// N, the launches to queue blind, and the batches after it, while the solver
/// runs. Only its contract is given; the handout states it and how it is
/// measured.
///
/// A plain C++ header: the runner and the tests include it without nvcc.
#pragma once

#include <algorithm>

#include "sssp/todo.hpp"

namespace lab07 {

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

}  // namespace lab07
