"""The performance item's arithmetic (docs/design/perf-grading.md): the
points a GPU lab's solver earns from times the trusted side measured, against
the reference solver timed the same way in the same grading run.

Nothing here reads what the student's process printed: every number comes
from the test program's own clock around each solve request, and every
answer was checked before its time counts. The rules, in order:

- a wrong answer in any timed repeat, or a solve that used more CPU time than
  the item allows (a GPU lab solved on the CPU), scores 0 for that graph;
- ratio = median(student) / median(reference) over the repeats;
- noise = the larger relative spread (interquartile range / median) of the
  two sides, and at least the scale's floor; the ratio is judged at
  ratio / (1 + noise), so a result within noise of a threshold gets the
  better side;
- full points at or under `full_at`, none at or over `zero_at`, and between
  them the fraction falls linearly in log(ratio): each doubling of the time
  costs the same share;
- the item's points are the mean of the graphs' fractions times its points.
"""
from __future__ import annotations

import math
import statistics
from dataclasses import dataclass

from .model import GradingError

SCALE_KEYS = {"points", "full_at", "zero_at", "noise_floor", "cpu_share_limit"}


@dataclass(frozen=True)
class PerfScale:
    """An item's scale, from the lab's rubric (the instructor's knobs)."""
    points: float
    full_at: float = 1.2  # ratio at or under which the graph earns everything
    zero_at: float = 4.0  # ratio at or over which it earns nothing
    noise_floor: float = 0.03  # the least relative spread assumed for either side
    cpu_share_limit: float = 0.5  # most worker CPU time per second of a solve

    def __post_init__(self):
        if not (self.points >= 0 and math.isfinite(self.points)):
            raise GradingError(f"perf item: points must be a finite number >= 0, got {self.points}")
        if not (1.0 <= self.full_at < self.zero_at and math.isfinite(self.zero_at)):
            raise GradingError(f"perf item: needs 1 <= full_at < zero_at, got full_at {self.full_at}, "
                               f"zero_at {self.zero_at}")
        if not 0.0 <= self.noise_floor < 0.5:
            raise GradingError(f"perf item: noise_floor must be in [0, 0.5), got {self.noise_floor}")
        if not self.cpu_share_limit > 0:
            raise GradingError(f"perf item: cpu_share_limit must be > 0, got {self.cpu_share_limit}")


def parse_scale(entry: dict) -> PerfScale:
    """The scale of a rubric's "perf" entry; GradingError naming a bad or unknown key."""
    unknown = sorted(set(entry) - SCALE_KEYS - {"graphs", "repeats", "warmup", "visibility"})
    if unknown:
        raise GradingError(f"perf item: unknown keys {unknown} (known: {sorted(SCALE_KEYS)}, graphs, repeats, "
                           "warmup, visibility)")
    if "points" not in entry:
        raise GradingError("perf item: no points")
    try:
        return PerfScale(**{k: float(v) for k, v in entry.items() if k in SCALE_KEYS})
    except (TypeError, ValueError) as e:
        raise GradingError(f"perf item: {e}") from e


def relative_spread(times_ms: list[float]) -> float:
    """Interquartile range over the median: how much the repeats disagree."""
    if len(times_ms) < 2:
        return 0.0
    q1, _, q3 = statistics.quantiles(times_ms, n=4, method="inclusive")
    return (q3 - q1) / statistics.median(times_ms)


def fraction(ratio: float, scale: PerfScale) -> float:
    """The share of a graph's points at time ratio `ratio` (already noise-adjusted)."""
    if ratio <= scale.full_at:
        return 1.0
    if ratio >= scale.zero_at:
        return 0.0
    return math.log(scale.zero_at / ratio) / math.log(scale.zero_at / scale.full_at)


@dataclass
class Solve:
    """One timed repeat on one side, as the trusted side saw it."""
    wall_ms: float  # the test program's clock around the solve request, answer included
    correct: bool  # the answer matched the reference distances and passed the certificate
    cpu_ms: float = 0.0  # the worker's CPU time (user + system, all its threads) during the request


@dataclass
class GraphScore:
    """A graph's verdict: its fraction of the item and why."""
    graph: str
    fraction: float
    ratio: float | None
    judged_ratio: float | None
    student_ms: float | None
    reference_ms: float | None
    noise: float | None
    reason: str


def score_graph(graph: str, student: list[Solve], reference: list[Solve], scale: PerfScale) -> GraphScore:
    """Scores one graph's repeats. The reference side's failures are the
    course's problem, not the student's: GradingError."""
    if not reference or any(not s.correct or not s.wall_ms > 0 for s in reference):
        raise GradingError(f"perf item, {graph}: the reference's timed runs are missing or wrong")
    reference_ms = statistics.median(s.wall_ms for s in reference)
    if not student:
        return GraphScore(graph, 0.0, None, None, None, reference_ms, None, "no timed run of your solver")
    for i, s in enumerate(student, 1):
        if not s.correct:
            return GraphScore(graph, 0.0, None, None, None, reference_ms, None,
                              f"repeat {i} gave a wrong answer: a fast wrong answer earns nothing")
        if not s.wall_ms > 0:
            raise GradingError(f"perf item, {graph}: repeat {i} has no time ({s.wall_ms} ms)")
        if s.cpu_ms > scale.cpu_share_limit * s.wall_ms:
            return GraphScore(graph, 0.0, None, None, None, reference_ms, None,
                              f"repeat {i} used {s.cpu_ms:.1f} ms of CPU time in {s.wall_ms:.1f} ms: the "
                              "solver must do its work on the GPU")
    student_ms = statistics.median(s.wall_ms for s in student)
    ratio = student_ms / reference_ms
    noise = max(relative_spread([s.wall_ms for s in student]), relative_spread([s.wall_ms for s in reference]),
                scale.noise_floor)
    judged = ratio / (1.0 + noise)
    share = fraction(judged, scale)
    if share == 1.0:
        reason = f"{ratio:.2f}x the reference: full marks need at most {scale.full_at:g}x (noise {noise:.0%})"
    elif share == 0.0:
        reason = f"{ratio:.2f}x the reference: {scale.zero_at:g}x or more earns nothing (noise {noise:.0%})"
    else:
        reason = (f"{ratio:.2f}x the reference: {share:.0%} of the graph's share; full marks need at most "
                  f"{scale.full_at:g}x (noise {noise:.0%})")
    return GraphScore(graph, share, ratio, judged, student_ms, reference_ms, noise, reason)


def item_points(scores: list[GraphScore], scale: PerfScale) -> float:
    """The item's points: the mean of the graphs' fractions times its points."""
    if not scores:
        return 0.0
    return scale.points * sum(s.fraction for s in scores) / len(scores)
