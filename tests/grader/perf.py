"""The performance item's arithmetic (docs/design/perf-grading.md): the
points a GPU lab's solver earns from times the trusted side measured, against
the reference solver timed the same way in the same grading run.

Nothing here reads what the student's process printed: every number comes
from the test program's own clock around each solve request, and every
answer was checked before its time counts. The rules, in order:

- a wrong answer in any timed repeat, or repeats that used more CPU time per
  second of solving than the item allows (PerfScale.cpu_limit: a GPU lab
  solved on the CPU), score 0 for that graph;
- what each side's code did before its first timed call (construction, the
  upload, the warm-up solves: its setup, timed by the same clock) is
  bounded: a student's round may take `setup_factor` times the reference's
  construction plus its warm-ups scaled by the student's own ratio (a
  solver's warm-ups cost what its timed solves do), plus `setup_slack_ms`;
  what is over that is added to every timed solve of the round, in full,
  not spread: work done before the clock may serve each of them (a table of
  all-pairs distances built in the constructor answers every one), and a
  charge spread over the repeats would get cheaper with more repeats;
- a call costs more than its solve: the request, the download of n
  distances, the answer over the worker's pipe. That cost is timed on the
  reference's worker only (its runtime's null solver, the solve's path
  without a solve, timed like a solve on the same graph in the same run),
  and its median taken out of both sides' times before any ratio: a side's
  time less the call's cost, but at least `call_floor` of its time (a
  noisy call cost can never make a time vanish). The student's worker
  never runs it, and nothing else of the student's is read for it;
- the two sides solve the same sources in the same order (one seed per
  round), so the i-th timed solves of a round make a pair; ratio = the
  median over the pairs of student time / reference time (each less the
  call's cost, and the student's with any setup charge). Paired, a graph
  whose sources take very different times (a source in a small component
  of an R-MAT graph, one in the giant component) compares like with like;
- noise = how far that median could be off: the relative spread
  (interquartile range / median) of the per-pair ratios over the square
  root of the number of pairs (about the median's standard error), and at
  least the scale's floor; the ratio is judged at ratio / (1 + noise), so a
  result within noise of a threshold gets the better side. Not the spread
  of single solves: a host loop's solves scatter by 20-70% from one run to
  the next on an H100, and a median of ten is known much better than that;
- a ratio of the timed solves alone (before any setup charge) under
  `refuse_under` even at the upper side of its noise (ratio * (1 + noise):
  the benefit of the doubt) is refused and scores 0: faster than an honest
  solver of the lab's algorithm can be against the course's tuned reference
  of the same algorithm (the reference against itself has read 0.70x at the
  lowest); an answer looked up rather than solved reads like this. Judged
  before the charge: a table cheap enough to build within the setup
  allowance (lab 04's all-pairs table on rome99, H100: 0.01x before the
  charge, 1.33x after it) is still a lookup;
- full points at or under `full_at`, none at or over `zero_at`, and between
  them the fraction falls linearly in log(ratio): each doubling of the time
  costs the same share;
- the item's points are the mean of the graphs' fractions times its points.
"""
from __future__ import annotations

import dataclasses
import json
import math
import os
import re
import secrets
import statistics
import tempfile
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

from .judging import last_step, test_output
from .limits import how_it_ended
from .model import GradingError

SCALE_KEYS = {"points", "full_at", "zero_at", "noise_floor", "noise_cap", "cpu_share_limit", "cpu_share_margin", "refuse_under",
              "setup_factor", "setup_slack_ms", "call_floor"}
PLAN_KEYS = {"graphs", "repeats", "warmup", "rounds", "visibility", "solver_graphs"}


@dataclass(frozen=True)
class PerfScale:
    """An item's scale, from the lab's rubric (the instructor's knobs)."""
    points: float
    full_at: float = 1.2  # ratio at or under which the graph earns everything
    zero_at: float = 4.0  # ratio at or over which it earns nothing
    noise_floor: float = 0.03  # the least relative spread assumed for either side
    noise_cap: float = 0.10  # the most noise that counts: the student's own calls widen the spread
    cpu_share_limit: float = 0.5  # worker CPU time per second of solving always allowed
    cpu_share_margin: float = 0.35  # and how far above the reference's own share a solve may go
    refuse_under: float = 0.25  # a ratio this far under the reference's is refused, not rewarded
    setup_factor: float = 2.0  # a setup up to this many times the reference's is not charged
    setup_slack_ms: float = 20.0  # plus this much (lazy module loading, allocator jitter)
    call_floor: float = 0.1  # a time less the call's cost is at least this share of the time

    def __post_init__(self):
        if not (self.points >= 0 and math.isfinite(self.points)):
            raise GradingError(f"perf item: points must be a finite number >= 0, got {self.points}")
        if not (1.0 <= self.full_at < self.zero_at and math.isfinite(self.zero_at)):
            raise GradingError(f"perf item: needs 1 <= full_at < zero_at, got full_at {self.full_at}, "
                               f"zero_at {self.zero_at}")
        if not 0.0 <= self.noise_floor < 0.5:
            raise GradingError(f"perf item: noise_floor must be in [0, 0.5), got {self.noise_floor}")
        if not self.noise_floor <= self.noise_cap < 0.5:
            raise GradingError(f"perf item: noise_cap must be in [noise_floor, 0.5), got {self.noise_cap}")
        if not self.cpu_share_limit > 0:
            raise GradingError(f"perf item: cpu_share_limit must be > 0, got {self.cpu_share_limit}")
        if not self.cpu_share_margin >= 0:
            raise GradingError(f"perf item: cpu_share_margin must be >= 0, got {self.cpu_share_margin}")
        if not 0.0 <= self.refuse_under < 1.0:
            raise GradingError(f"perf item: refuse_under must be in [0, 1) (1 or more would refuse the reference "
                               f"itself), got {self.refuse_under}")
        if not (self.setup_factor >= 1.0 and math.isfinite(self.setup_factor)):
            raise GradingError(f"perf item: setup_factor must be a finite number >= 1, got {self.setup_factor}")
        if not (self.setup_slack_ms >= 0.0 and math.isfinite(self.setup_slack_ms)):
            raise GradingError(f"perf item: setup_slack_ms must be a finite number >= 0, got {self.setup_slack_ms}")
        if not 0.0 < self.call_floor <= 1.0:
            raise GradingError(f"perf item: call_floor must be in (0, 1] (0 would let a time vanish), got "
                               f"{self.call_floor}")

    def counted_noise(self, noise: float) -> float:
        """The part of a measured noise that the verdict counts: at most
        `noise_cap`. The spread comes from the pairs, half of whose times are
        the student's: a solver that stalls a few of its calls on purpose
        widens it at will (three stalls in ten made a 3x solver's noise 237,
        judged at 3 / 238: full marks, 2026-11-29), so no spread may earn more
        than the cap, which the reference's own runs stay under (3-19% on
        H200s, 2026-11-28)."""
        return min(noise, self.noise_cap)

    def solve_ms(self, wall_ms: float, call_ms: float) -> float:
        """A call's time less the call's fixed cost `call_ms` (the reference
        worker's null solver): what its solve took, but at least `call_floor`
        of the call, so that a call cost measured high (noise) leaves a
        finite ratio that moves back towards the calls' own."""
        return max(wall_ms - call_ms, self.call_floor * wall_ms)

    def setup_allowed(self, setup: RoundSetup, ratio: float) -> float:
        """The most setup (ms before the first timed call) a student's round
        may take uncharged: the factor times the reference's construction and
        the reference's warm-ups scaled by the student's own time ratio `ratio`
        (a solver's warm-ups cost what its solves do: a slow solver's are not
        charged again, a table lookup's earn no room), plus the slack."""
        return (self.setup_factor * (setup.reference_construct_ms + ratio * setup.reference_warmup_ms)
                + self.setup_slack_ms)

    def cpu_limit(self, reference_share: float | None) -> float:
        """The most CPU time per second of solving a student's repeats may use:
        the floor, or the reference's own share in this run plus the margin
        (the floor alone when the reference's share is unknown).
        A host loop of many short launches keeps a core busy even on the GPU
        (labs 02 to 05's references measured 0.8 to 1.0 on an H100), so only
        a solve well above the reference's share is a CPU solve."""
        return max(self.cpu_share_limit, (reference_share or 0.0) + self.cpu_share_margin)


def parse_scale(entry: dict) -> PerfScale:
    """The scale of a rubric's "perf" entry; GradingError naming a bad or unknown key."""
    unknown = sorted(set(entry) - SCALE_KEYS - PLAN_KEYS)
    if unknown:
        raise GradingError(f"perf item: unknown keys {unknown} (known: {sorted(SCALE_KEYS | PLAN_KEYS)})")
    if "points" not in entry:
        raise GradingError("perf item: no points")
    try:
        return PerfScale(**{k: float(v) for k, v in entry.items() if k in SCALE_KEYS})
    except (TypeError, ValueError) as e:
        raise GradingError(f"perf item: {e}") from e


def noise_text(noise: float, scale: PerfScale) -> str:
    """A measured noise as a verdict names it, with the cap when it applies."""
    return f"noise {noise:.0%}" + (f", at most {scale.noise_cap:.0%} counted" if noise > scale.noise_cap else "")


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


@dataclass(frozen=True)
class RoundSetup:
    """One round of one graph: what each side's code did before its first
    timed call, by the test program's clock (its construction, the upload
    included, and its warm-up solves), and how many timed pairs followed it."""
    student_construct_ms: float
    student_warmup_ms: float
    reference_construct_ms: float
    reference_warmup_ms: float
    pairs: int  # the round's timed pairs, next in score_graph's lists

    @property
    def student_ms(self) -> float:
        return self.student_construct_ms + self.student_warmup_ms

    @property
    def reference_ms(self) -> float:
        return self.reference_construct_ms + self.reference_warmup_ms


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
    student_cpu_share: float | None = None  # the worker's CPU seconds per second of solving, when read
    reference_cpu_share: float | None = None
    student_setup_ms: float | None = None  # the sides' setups, summed over the rounds
    reference_setup_ms: float | None = None
    charged_ms: float = 0.0  # the student's setups over the allowance, summed over rounds (each added per solve)
    call_ms: float | None = None  # the call's fixed cost taken out of both sides (the reference's null solver)
    call_ratio: float | None = None  # the ratio of the whole calls, before the call's cost was taken out
    # Round by round (the pairs of one reference process and one student process):
    # {"reference_ms", "student_ms", "ratio"}, medians as above. Not judged apart:
    # shows a process that ran slow for its whole life, which moves every pair of its round.
    rounds: list[dict] = dataclasses.field(default_factory=list)
    refused: bool = False  # faster than an honest solver can be (refuse_under)


# The kernel's unit of CPU time accounting in /proc/<pid>/stat. Where the
# worker's nanosecond run times are not read (the H200 runs' readings were
# whole ticks, 0.00 exactly as often as not), each solve's reading is whole
# ticks: up to one tick over what it used.
CPU_TICK_MS = 1000.0 / os.sysconf("SC_CLK_TCK")


def cpu_share_at_least(solves: list[Solve]) -> float | None:
    """The least CPU share the repeats' readings allow (None when unread):
    each solve's reading may be up to a tick (CPU_TICK_MS) over its use, so
    the share is judged at (CPU time - a tick per solve) / wall time. Short
    solves then escape the check (10 solves of 2.5 ms read 0, 0.4 or 0.8
    by where the ticks fell: a correct submission was refused for 0.83 on an
    H200), where no tick-counted reading could tell a GPU solve from a CPU
    one anyway; a CPU solve of a graph worth timing is long enough to show."""
    if not solves or any(s.cpu_ms < 0 for s in solves):
        return None
    return max(0.0, sum(s.cpu_ms for s in solves) - len(solves) * CPU_TICK_MS) / sum(s.wall_ms for s in solves)


def cpu_share(solves: list[Solve]) -> float | None:
    """The worker's CPU time per unit of wall time over the repeats (None
    when the CPU time could not be read). Summed, not per repeat: the
    kernel counts CPU time in 10 ms ticks, too coarse for one short solve."""
    if not solves or any(s.cpu_ms < 0 for s in solves):
        return None
    return sum(s.cpu_ms for s in solves) / sum(s.wall_ms for s in solves)


def charges(student: list[Solve], reference: list[Solve], setups: list[RoundSetup], ratio: float,
            scale: PerfScale) -> list[float]:
    """Per round, the ms of the student's setup over the allowance
    (PerfScale.setup_allowed, with `ratio` the uncharged one): what
    score_graph adds to each timed solve of that round. No setups (a caller
    that has none): nothing charged."""
    if setups and (sum(r.pairs for r in setups) != len(student) or len(student) != len(reference)):
        raise GradingError(f"perf item: {sum(r.pairs for r in setups)} timed pairs in the rounds' setups, "
                           f"{len(student)} student and {len(reference)} reference solves")
    return [max(0.0, r.student_ms - scale.setup_allowed(r, ratio)) for r in setups]


def score_graph(graph: str, student: list[Solve], reference: list[Solve], scale: PerfScale,
                setups: list[RoundSetup] | None = None, call_ms: float | None = None) -> GraphScore:
    """Scores one graph's repeats: student[i] and reference[i] solved the same
    source (grade_item aligns the rounds; a side that stopped early pairs only
    what it ran), and `setups` says, round by round, what each side did
    before those solves (a setup over the allowance is charged to them).
    `call_ms` is the call's fixed cost, timed on the reference's worker
    (grade_item; None: not measured, the whole calls are compared): each
    side's times are taken less it (PerfScale.solve_ms) before the ratios.
    The reference side's failures are the course's problem, not the
    student's: GradingError."""
    if not reference or any(not s.correct or not s.wall_ms > 0 for s in reference):
        raise GradingError(f"perf item, {graph}: the reference's timed runs are missing or wrong")
    reference_share = cpu_share(reference)
    reference_ms = statistics.median(s.wall_ms for s in reference)
    if not student:
        return GraphScore(graph, 0.0, None, None, None, reference_ms, None, "no timed run of your solver")
    for i, s in enumerate(student, 1):
        if not s.correct:
            return GraphScore(graph, 0.0, None, None, None, reference_ms, None,
                              f"repeat {i} gave a wrong answer: a fast wrong answer earns nothing")
        if not s.wall_ms > 0:
            raise GradingError(f"perf item, {graph}: repeat {i} has no time ({s.wall_ms} ms)")
    share = cpu_share(student)
    least = cpu_share_at_least(student)
    # Judged against the reference's share in this run; unread on either side, not judged.
    if least is not None and reference_share is not None and least > scale.cpu_limit(reference_share):
        return GraphScore(graph, 0.0, None, None, None, reference_ms, None,
                          f"the worker used {share:.2f} s of CPU time per second of solving (at least {least:.2f} "
                          f"with a {CPU_TICK_MS:g} ms clock tick off each solve's reading), the reference "
                          f"{reference_share:.2f} (at most {scale.cpu_limit(reference_share):.2f} allowed): the "
                          "solver must do its work on the GPU and wait for it without spinning (the worker uses "
                          "blocking synchronisation: leave the device flags alone, do not poll host memory); "
                          "a host that synchronises after every short kernel reads like this too, each wake-up "
                          "costs CPU time")
    setups = setups or []
    call = call_ms or 0.0
    reference_solves = [scale.solve_ms(r.wall_ms, call) for r in reference]
    solve_ratios = [scale.solve_ms(s.wall_ms, call) / r for s, r in zip(student, reference_solves)]
    uncharged = statistics.median(solve_ratios)
    uncharged_noise = max(relative_spread(solve_ratios) / math.sqrt(len(solve_ratios)), scale.noise_floor)
    # The allowance scales the reference's warm-ups, whole calls, by the whole calls' ratio.
    excess = charges(student, reference, setups,
                     statistics.median(s.wall_ms / r.wall_ms for s, r in zip(student, reference)), scale)
    charged_ms = sum(excess)
    added = [e for e, r in zip(excess, setups) for _ in range(r.pairs)] or [0.0] * len(student)
    student_ms = statistics.median(s.wall_ms + a for s, a in zip(student, added))
    # A charge is work done for a solve: added to the solve's time, in full.
    pair_ratios = [(scale.solve_ms(s.wall_ms, call) + a) / r for s, a, r in zip(student, added, reference_solves)]
    ratio = statistics.median(pair_ratios)
    noise = max(relative_spread(pair_ratios) / math.sqrt(len(pair_ratios)), scale.noise_floor)
    judged = ratio / (1.0 + scale.counted_noise(noise))
    share = fraction(judged, scale)
    setup_note = ""
    if charged_ms > 0:
        student_setup = sum(r.student_ms for r in setups)
        reference_setup = sum(r.reference_ms for r in setups)
        setup_note = (f"; charged {charged_ms:.0f} ms: before its timed calls (construction and warm-up solves, "
                      f"{len(setups)} round{'s' if len(setups) != 1 else ''}) your code spent "
                      f"{student_setup:.0f} ms, the reference {reference_setup:.0f} ms; what was over "
                      f"{scale.setup_factor:g}x the reference's construction and its warm-ups at your ratio, plus "
                      f"{scale.setup_slack_ms:g} ms, was added to each timed solve of its round: work done before "
                      f"the clock starts still counts ({uncharged:.2f}x before the charge)")
    refused = uncharged * (1.0 + scale.counted_noise(uncharged_noise)) < scale.refuse_under
    if refused:
        share = 0.0
        reason = (f"refused: {uncharged:.2f}x the reference in the timed solves is faster than an honest solver "
                  f"can be ({noise_text(uncharged_noise, scale)}; the floor is {scale.refuse_under:g}x of the course's own solver of the same "
                  "algorithm, timed on the same GPU in the same run): each source is drawn after the previous "
                  "answer came back, so an answer looked up from work done before the call, or a different "
                  "algorithm than the lab's, reads like this. If your solver is honestly this fast, show your "
                  "instructor")
    elif share == 1.0:
        reason = f"{ratio:.2f}x the reference: full marks need at most {scale.full_at:g}x ({noise_text(noise, scale)})"
    elif share == 0.0:
        reason = f"{ratio:.2f}x the reference: {scale.zero_at:g}x or more earns nothing ({noise_text(noise, scale)})"
    else:
        reason = (f"{ratio:.2f}x the reference: {share:.0%} of the graph's share; full marks need at most "
                  f"{scale.full_at:g}x ({noise_text(noise, scale)})")
    call_note = ""
    call_ratio = None
    if call_ms is not None:
        call_ratio = statistics.median((s.wall_ms + a) / r.wall_ms for s, a, r in zip(student, added, reference))
        call_note = (f"; each time less {call_ms:.2f} ms, what a call that solves nothing cost on the reference's "
                     f"worker ({call_ratio:.2f}x in whole calls)")
    score = GraphScore(graph, share, ratio, judged, student_ms, reference_ms, noise, reason + setup_note + call_note,
                       charged_ms=charged_ms, call_ms=call_ms, call_ratio=call_ratio, refused=refused)
    if setups:
        score.student_setup_ms = sum(r.student_ms for r in setups)
        score.reference_setup_ms = sum(r.reference_ms for r in setups)
        start = 0
        for r in setups:
            end = start + r.pairs
            score.rounds.append({
                "reference_ms": statistics.median(s.wall_ms for s in reference[start:end]),
                "student_ms": statistics.median(s.wall_ms + a for s, a in zip(student[start:end], added[start:end])),
                "ratio": statistics.median(pair_ratios[start:end])})
            start = end
    return score


def item_points(scores: list[GraphScore], scale: PerfScale) -> float:
    """The item's points: the mean of the graphs' fractions times its points."""
    if not scores:
        return 0.0
    return scale.points * sum(s.fraction for s in scores) / len(scores)


# ----------------------------------------------------------- the timed runs --

PERF_ITEM = "performance: timed against the reference"
PERF_SUITE = "Perf."  # the GoogleTest suite of a lab's timed runs (tests/support/perf_test.hpp)
NO_REFERENCE = ("performance item skipped: it needs the course's reference solutions to time "
                "against (the instructor's grader); compare with the H100 times in your handout instead")


@dataclass(frozen=True)
class PerfPlan:
    """What the item runs: graphs, warm-up and timed solves per graph and
    side, and how many rounds of (reference, student) alternate."""
    graphs: tuple[str, ...]
    repeats: int = 5
    warmup: int = 2
    rounds: int = 2
    scale: PerfScale = PerfScale(points=0)
    # The solvers timed on some of the graphs only, each with its graphs (a
    # solver not named here is timed on every graph): lab 08 times Chen's
    # delta-stepping on R-MAT alone, where its own work is what takes the time.
    solver_graphs: tuple[tuple[str, tuple[str, ...]], ...] = ()

    def times(self, solver: str, graph: str) -> bool:
        """Whether the item times `solver` on `graph`."""
        only = dict(self.solver_graphs).get(solver)
        return graph in self.graphs and (only is None or graph in only)

    def solver_graphs_env(self) -> str:
        """SSSP_PERF_SOLVER_GRAPHS for the Perf.* tests: "<solver>=<index>,<index>" entries, ';'-separated."""
        return ";".join(f"{solver}=" + ",".join(str(self.graphs.index(g)) for g in graphs)
                        for solver, graphs in self.solver_graphs)


def parse_plan(entry: dict) -> PerfPlan:
    """The plan of a rubric's "perf" entry; GradingError naming what is wrong."""
    scale = parse_scale(entry)
    graphs = entry.get("graphs")
    if not isinstance(graphs, list) or not graphs or not all(isinstance(g, str) and g and ";" not in g
                                                            for g in graphs):
        raise GradingError("perf item: graphs must be a non-empty list of generator specs or file:NAME")
    counts = {}
    for key, least, default in (("repeats", 3, 5), ("warmup", 0, 2), ("rounds", 1, 2)):
        value = entry.get(key, default)
        if not isinstance(value, int) or not least <= value <= 100:
            raise GradingError(f"perf item: {key} must be a whole number from {least} to 100, got {value!r}")
        counts[key] = value
    solver_graphs = entry.get("solver_graphs", {})
    if not isinstance(solver_graphs, dict) or not all(
            isinstance(solver, str) and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", solver) and isinstance(only, list)
            and only and all(isinstance(g, str) and g in graphs for g in only) and len(set(only)) == len(only)
            for solver, only in solver_graphs.items()):
        raise GradingError("perf item: solver_graphs must map solver names (as the lab's Perf tests name them) to "
                           f"non-empty lists of distinct graphs from graphs, got {solver_graphs!r}")
    return PerfPlan(tuple(graphs), scale=scale, **counts,
                    solver_graphs=tuple((solver, tuple(only)) for solver, only in sorted(solver_graphs.items())))


@dataclass
class SideRun:
    """One run of the lab's Perf.* tests with one side's worker."""
    solves: dict[str, list[Solve]]  # "<solver> <graph>" -> timed repeats
    missing: dict[str, str]  # graphs whose data file is not here, with why
    failure: str  # '' when the test program reported every Perf test passed
    setups: dict[str, tuple[float, float]] = dataclasses.field(default_factory=dict)  # (construct, warm-up) ms
    calls: dict[str, list[float]] = dataclasses.field(default_factory=dict)  # the null solver's calls, ms
    reruns: int = 0  # 1 when this round of the student's ran again for a setup over its allowance
    rerun_why: str = ""  # then the first run's setups over their allowance (over_allowance)


@dataclass
class Record:
    """A graph's record from one run: the setup (construction and warm-up solves, ms), the timed repeats,
    and the timed calls of the worker runtime's null solver when the run was asked for them (ms)."""
    construct_ms: float
    warmup_ms: float
    solves: list[Solve]
    calls: list[float] = dataclasses.field(default_factory=list)


def parse_record(value: str) -> tuple[str, Record | str]:
    """A Perf test's property value: the graph, and its record or why it is missing."""
    graph, _, rest = value.partition(" | ")
    rest = rest.strip()
    if rest.startswith("missing: "):
        return graph, rest[len("missing: "):]
    setup, _, rest = rest.partition(" | ")
    rest, has_calls, calls = rest.partition(" | ")
    try:
        construct, warmup = setup.removeprefix("setup ").split("/")
        record = Record(float(construct), float(warmup), [])
        for word in rest.split():
            wall, cpu, ok = word.split("/")
            record.solves.append(Solve(wall_ms=float(wall), correct=ok == "1", cpu_ms=float(cpu)))
        if has_calls and not calls.startswith("call"):
            raise ValueError("a last field that is not the calls'")
        record.calls = [float(word) for word in calls.removeprefix("call").split()]
    except ValueError as e:
        raise GradingError(f"perf item: a timed run's record is not '<graph> | setup C/W | wall/cpu/ok ...' "
                           f"(then ' | call MS ...'): {value!r}") from e
    if not setup.startswith("setup "):
        raise GradingError(f"perf item: a timed run's record has no setup: {value!r}")
    return graph, record


def properties(case) -> dict[str, str]:
    """A GoogleTest XML testcase's recorded properties (as children or attributes, by version)."""
    found = {p.get("name", ""): p.get("value", "") for p in case.iter("property")}
    found.update({k: v for k, v in case.attrib.items() if k.startswith("perf_")})
    return {k: v for k, v in found.items() if k.startswith("perf_")}


def run_side(runner, program, plan: PerfPlan, seed: int, call_cost: bool = False) -> SideRun:
    """Runs `program`'s Perf.* tests with its worker; what its XML report recorded.
    With `call_cost` (the reference's runs) the test program also times the
    worker runtime's null solver on each graph after its timed solves."""
    env = {"SSSP_PERF_GRAPHS": ";".join(plan.graphs), "SSSP_PERF_SOLVER_GRAPHS": plan.solver_graphs_env(),
           "SSSP_PERF_WARMUP": str(plan.warmup),
           "SSSP_PERF_REPEATS": str(plan.repeats), "SSSP_PERF_SEED": str(seed),
           "SSSP_PERF_CALL_COST": "1" if call_cost else "0"}
    run = SideRun({}, {}, "")
    with tempfile.TemporaryDirectory(prefix="sssp-perf-", ignore_cleanup_errors=True) as work:
        report = Path(work) / f"{secrets.token_hex(16)}.xml"
        returncode, output = runner.execute_with_env(
            [program.path, f"--gtest_filter={PERF_SUITE}*", "--gtest_color=no"], report, Path(work),
            worker=program.worker, extra_env=env)
        try:
            cases = [c for c in ET.parse(report).getroot().iter("testcase")
                     if c.get("classname") == PERF_SUITE.rstrip(".")]
        except (OSError, ET.ParseError):
            cases = []
    if returncode is None:
        step = last_step(output)
        run.failure = f"the timed runs did not finish within {runner.timeout:g} s" + (
            f"\nwhile running: {step}" if step else "")
    elif not cases:
        run.failure = f"the test program ended before it reported the timed runs: {how_it_ended(returncode)}\n" \
                      f"--- its last output ---\n{test_output(output)}"
    for case in cases:
        solver = case.get("name", "")
        for value in properties(case).values():
            graph, got = parse_record(value)
            key = f"{solver} {graph}"
            if isinstance(got, str):
                run.missing[key] = got
            else:
                run.solves[key] = got.solves
                run.setups[key] = (got.construct_ms, got.warmup_ms)
                run.calls[key] = got.calls
        texts = [(f.text or f.get("message", "")).strip() for f in case.iter("failure")]
        if case.get("result") == "skipped" or case.find("skipped") is not None:
            skipped = case.find("skipped")
            run.failure = run.failure or (skipped.get("message", "") if skipped is not None else "skipped")
        if texts:
            run.failure = "\n\n".join([run.failure, *texts]).strip()
    if returncode not in (0, None) and cases and not run.failure:
        run.failure = f"the test program {how_it_ended(returncode)} after the timed runs"
    return run


def over_allowance(student: SideRun, reference: SideRun, scale: PerfScale) -> dict[str, tuple[RoundSetup, float]]:
    """One round's student setups over their allowance: per solver and graph,
    the setup and the allowance, each judged at that round's ratio of whole
    calls."""
    over = {}
    for key, solves in reference.solves.items():
        ran = student.solves.get(key, [])[:len(solves)]
        if not ran or key not in student.setups or key not in reference.setups:
            continue
        ratio = statistics.median(s.wall_ms / r.wall_ms for s, r in zip(ran, solves))
        setup = RoundSetup(*student.setups[key], *reference.setups[key], len(ran))
        allowed = scale.setup_allowed(setup, ratio)
        if setup.student_ms > allowed:
            over[key] = (setup, allowed)
    return over


def round_charge(student: SideRun, reference: SideRun, scale: PerfScale) -> float:
    """What one round's student setups are over their allowance, in ms summed
    over its graphs: the charge score_graph would make for this round (it
    judges at the ratio of every round, so the two can differ a little)."""
    return sum(setup.student_ms - allowed for setup, allowed in over_allowance(student, reference, scale).values())


def describe_over(over: dict[str, tuple[RoundSetup, float]]) -> str:
    """What over_allowance found, for the report: each setup's parts against
    its allowance and the reference's own."""
    return "; ".join(f"{key}: {setup.student_ms:.0f} ms (construction {setup.student_construct_ms:.0f}, warm-ups "
                     f"{setup.student_warmup_ms:.0f}) against {allowed:.0f} ms allowed, the reference's "
                     f"{setup.reference_ms:.0f} ms" for key, (setup, allowed) in over.items())


def student_round(runner, student, plan: PerfPlan, seed: int, reference: SideRun) -> SideRun:
    """The student's side of one round. A round whose setup is over its
    allowance runs once more, with the same seed (the same sources, so the
    reference's side still pairs) in a fresh process, and the run with the
    smaller charge counts; a run that failed counts whatever its charge.
    Work before the clock is charged in every run it is done in, so a kept
    run is always charged for its own setup; what a second run removes is
    the host's noise (2026-11-28, H200: lab 06's reference graded against
    itself, beside three other gradings, spent 2.5x the reference's setup in
    one round of road-NY, and lost 0.3 of 116 points to the charge)."""
    first = run_side(runner, student, plan, seed)
    over = over_allowance(first, reference, plan.scale)
    if first.failure or not over:
        return first
    again = run_side(runner, student, plan, seed)
    kept = (again if again.failure or round_charge(again, reference, plan.scale) < round_charge(first, reference, plan.scale)
            else first)
    kept.reruns, kept.rerun_why = 1, describe_over(over)
    return kept


def timed_pass(plan: PerfPlan, student, reference, runner) -> tuple[list[GraphScore], list[SideRun], dict, str]:
    """Times the student's and the reference's workers in alternating rounds
    (reference first) and scores each graph: the scores, the student's runs,
    the graphs left out (data missing here) and the student's first failure."""
    students: list[SideRun] = []
    references: list[SideRun] = []
    for _ in range(plan.rounds):
        seed = secrets.randbits(62)  # the same sources for both sides of a round; the worker never sees it
        references.append(run_side(runner, reference, plan, seed, call_cost=True))
        if references[-1].failure:
            raise GradingError(f"perf item: the reference's timed runs failed (the course's problem, not the "
                               f"student's):\n{references[-1].failure}")
        students.append(student_round(runner, student, plan, seed, references[-1]))
    # Pairs: the i-th solves of a round had the same source on both sides. A
    # student round that stopped early (a wrong answer ends it; a crash) pairs
    # what it ran, so its wrong answer is still seen and no later pair shifts.
    # Each round's setups go with the pairs they served.
    paired_reference: dict[str, list[Solve]] = {}
    paired_student: dict[str, list[Solve]] = {}
    setups: dict[str, list[RoundSetup]] = {}
    for reference_run, student_run in zip(references, students):
        for key, solves in reference_run.solves.items():
            ran = student_run.solves.get(key, [])[:len(solves)]
            paired_reference.setdefault(key, []).extend(solves[:len(ran)])
            paired_student.setdefault(key, []).extend(ran)
            if ran:
                setups.setdefault(key, []).append(
                    RoundSetup(*student_run.setups[key], *reference_run.setups[key], len(ran)))
    for key in paired_reference:
        if not paired_student[key]:  # nothing of the student's to pair: the reference's times, for the table
            paired_reference[key] = [s for run in references for s in run.solves[key]]
    missing = {k: v for run in references for k, v in run.missing.items()}
    scores = [score_graph(key, paired_student[key], solves, plan.scale, setups.get(key), call_cost(key, references))
              for key, solves in paired_reference.items()]
    for s in scores:
        s.student_cpu_share = cpu_share(paired_student[s.graph])
        s.reference_cpu_share = cpu_share(paired_reference[s.graph])
    return scores, students, missing, next((run.failure for run in students if run.failure), "")


def slow(score: GraphScore, scale: PerfScale) -> bool:
    """Whether a graph lost points to its time alone: right answers, a GPU's
    CPU share, no lookup, and a ratio over full marks."""
    return not score.refused and score.judged_ratio is not None and score.judged_ratio > scale.full_at


def kept(first: GraphScore, second: GraphScore, scale: PerfScale) -> GraphScore:
    """A graph slow in the first pass: the second pass's verdict if it is
    better, or if it is no verdict on time (a wrong answer, a CPU solve, a
    lookup: those count whenever they happen), else the first's."""
    return second if second.fraction > first.fraction or not (second.fraction >= 1.0 or slow(second, scale)) else first


def grade_item(item, plan: PerfPlan, student, reference, runner) -> list[GraphScore]:
    """Times the lab's solver against the reference (timed_pass), scores
    each graph into `item` (earned points, status, the table as output) and
    returns the graphs' scores. When a graph lost points to its time alone
    and the student's runs failed nowhere, the whole pass runs once more and
    each such graph keeps the better of its two verdicts: a pass the host
    slowed (2026-11-29, two H200s: lab 03's reference against itself read
    1.33x on soc-Slashdot0902 with another grading's compile on the host,
    14.81 of 15, and full marks in the next grading) costs a correct solver
    nothing, while a slow solver is slow in both. A second pass that fails
    (a wrong answer, a crash) counts, whatever the first gave."""
    scores, students, missing, failure = timed_pass(plan, student, reference, runner)
    passes = 1
    if not failure and any(slow(s, plan.scale) for s in scores):
        again, again_students, _, again_failure = timed_pass(plan, student, reference, runner)
        passes, students = 2, students + again_students
        if again_failure:
            scores, failure = again, again_failure
        else:
            second = {s.graph: s for s in again}
            scores = [kept(s, second[s.graph], plan.scale) if slow(s, plan.scale) and s.graph in second else s
                      for s in scores]
    if not scores:
        item.status = "skipped"
        item.output = "dataset test skipped: " + "; ".join(f"{k}: {v}" for k, v in missing.items())
        item.missing = "dataset missing"
        return scores
    item.earned = item_points(scores, plan.scale)
    item.status = ("passed" if item.earned >= plan.scale.points - 1e-9 else
                   "failed" if item.earned <= 1e-9 else "partial")
    item.output = table(scores, plan, item.earned, missing, failure)
    if passes == 2:
        item.output += ("\nThe item ran twice: a graph was under full marks for its time alone in the first pass, "
                        "so every graph was timed again, on new sources, and each such graph keeps the better of "
                        "its two passes (the host's noise can slow one pass; slow code is slow in both).")
    reruns = sum(run.reruns for run in students)
    if reruns:
        item.output += (f"\n{reruns} of {plan.rounds * passes} round{'s' if plan.rounds * passes != 1 else ''} of "
                        "yours ran twice: the first run's setup was over its allowance, so the round ran again on "
                        "the same sources and the run with the smaller charge counts (a charge that stays is work "
                        "your code did before the clock, not the machine's noise). Over the allowance in the first "
                        "run: " + " | ".join(run.rerun_why for run in students if run.reruns) + ".")
    return scores


def call_cost(key: str, references: list[SideRun]) -> float | None:
    """The call's fixed cost on `key`'s graph: the median of the reference's
    null-solver calls over all its rounds (None when none was timed). Only
    the reference's runs are read: the student's worker could make its own
    calls slow, and a larger cost taken out of both sides would shrink the
    ratio of a slow solver towards 1 (the reference runs the course's code)."""
    calls = [ms for run in references for ms in run.calls.get(key, [])]
    return statistics.median(calls) if calls else None


def table(scores: list[GraphScore], plan: PerfPlan, earned: float, missing: dict[str, str], failure: str) -> str:
    """What the student reads: per solver and graph, the two medians, the
    ratio and its share, then the scale and anything left out."""
    width = max(len(s.graph) for s in scores)
    lines = [f"{'solver and graph':<{width}}  reference ms  yours ms  call ms   ratio  noise  share",
             *(f"{s.graph:<{width}}  {fmt(s.reference_ms):>12}  {fmt(s.student_ms):>8}  {fmt(s.call_ms):>7}  "
               f"{(f'{s.ratio:.2f}x' if s.ratio is not None else '-'):>6}  "
               f"{(f'{s.noise:.0%}' if s.noise is not None else '-'):>5}  {s.fraction:>5.0%}" for s in scores),
             "",
             f"{earned:.2f} of {plan.scale.points:g} points: the mean share of the graphs. The ratio is the median "
             f"over {plan.repeats * plan.rounds} random sources, each solved by both sides, of your time over the "
             "reference's, each less the call ms: what a call that solves nothing (the request, the download of "
             "the distances, the answer's way back) cost the reference's worker on that graph, so that the ratio "
             f"compares the solves (a time keeps at least {plan.scale.call_floor:.0%} of itself). Full marks at or under {plan.scale.full_at:g}x, nothing at {plan.scale.zero_at:g}x or "
             "more, each doubling between costing the same; a ratio within the measured noise (counted up to "
             f"{plan.scale.noise_cap:.0%}) of a line gets the better side. Timed by the grader around each call (answers checked, every one) and around the work "
             f"before the first timed call (over {plan.scale.setup_factor:g}x the reference's plus "
             f"{plan.scale.setup_slack_ms:g} ms, charged to each timed solve); a ratio under "
             f"{plan.scale.refuse_under:g}x is refused.",
             *(f"  {s.graph}: {s.reason}" for s in scores if s.fraction < 1.0)]
    lines += [f"left out (not on this grader): {k}: {v}" for k, v in missing.items()]
    unread = [s.graph for s in scores if s.student_cpu_share is None or s.reference_cpu_share is None]
    if unread:
        lines.append(f"CPU time not readable here for {', '.join(unread)}: not checked for a CPU solve")
    if failure:
        lines += ["", "your timed runs reported:", failure]
    return "\n".join(lines)


def write_json(lab: str, scores: list[GraphScore], plan: PerfPlan, earned: float, path: Path) -> None:
    """The item's numbers for tools (tests/project/check_perf.py, the handouts' tables)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"lab": lab, "points": plan.scale.points, "earned": earned,
                                "full_at": plan.scale.full_at, "zero_at": plan.scale.zero_at,
                                "timed_per_side": plan.repeats * plan.rounds,
                                "graphs": [dataclasses.asdict(s) for s in scores]}, indent=2))


def fmt(ms: float | None) -> str:
    return "-" if ms is None else f"{ms:.2f}"


PERF_OFF = ("perf off", "performance item skipped: turned off (--no-perf)")
PERF_NO_GPU = ("no GPU", "GPU test skipped: no NVIDIA GPU found (nvidia-smi -L, /dev/nvidia*): the performance "
                         "item times the solver on one")
PERF_IN_PROCESS = ("perf off", "performance item skipped: timed through the worker only (drop --in-process)")
PERF_NO_REFERENCE = ("no reference solutions", NO_REFERENCE)


@dataclass(frozen=True)
class PerfSetup:
    """How a lab's performance item runs here: the reference's worker command
    (the same test program is timed with it), or the (missing, reason) of the
    item's skip, and where the plot goes."""
    reference_worker: tuple[str, ...] = ()
    skip: tuple[str, str] | None = PERF_OFF
    plots: Path | None = None
