#!/usr/bin/env python3
"""The performance item's arithmetic and refusals (tests/grader/perf.py),
without a GPU: the scale, the noise rule, wrong answers, CPU solves, work
done before the timed calls, impossibly fast answers, and the reference's
own failures, each with the verdict a student would read."""
import json
import math
import re
import sys
import unittest
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
from tests.grader.model import GradingError
from tests.grader import perf
from tests.grader.perf import (PerfScale, Solve, cpu_share, cpu_share_at_least, fraction, item_points, parse_plan,
                               parse_record, parse_scale, properties, relative_spread, score_graph, table)
from tests.grader.plot import bench_graph_prefix

SCALE = PerfScale(points=10, full_at=1.2, zero_at=4.0, noise_floor=0.03)


def runs(*ms: float, cpu: float = 0.0, correct: bool = True) -> list[Solve]:
    return [Solve(wall_ms=t, correct=correct, cpu_ms=cpu) for t in ms]


class Scale(unittest.TestCase):
    def test_full_at_and_under_the_threshold_none_at_and_over_zero_at(self):
        self.assertEqual(fraction(0.5, SCALE), 1.0)
        self.assertEqual(fraction(1.2, SCALE), 1.0)
        self.assertEqual(fraction(4.0, SCALE), 0.0)
        self.assertEqual(fraction(40.0, SCALE), 0.0)

    def test_each_doubling_costs_the_same_share(self):
        scale = PerfScale(points=10, full_at=1.0, zero_at=8.0)
        self.assertAlmostEqual(fraction(2.0, scale), 2 / 3)
        self.assertAlmostEqual(fraction(4.0, scale), 1 / 3)
        between = [fraction(r, SCALE) for r in (1.3, 2.0, 3.0, 3.9)]
        self.assertEqual(between, sorted(between, reverse=True), "slower must never earn more")

    def test_bad_scales_are_refused_with_the_key_named(self):
        for entry, phrase in (({"points": -1}, "points"), ({"points": 5, "full_at": 0.9}, "full_at"),
                              ({"points": 5, "full_at": 3, "zero_at": 2}, "full_at < zero_at"),
                              ({"points": 5, "noise_floor": 0.7}, "noise_floor"),
                              ({"points": 5, "noise_cap": 0.01}, "noise_cap"), ({"points": 5, "noise_cap": 0.6}, "noise_cap"),
                              ({"points": 5, "cpu_share_limit": 0}, "cpu_share_limit"),
                              ({"points": 5, "cpu_share_margin": -1}, "cpu_share_margin"),
                              ({"points": 5, "ful_at": 1.5}, "unknown keys ['ful_at']"),
                              ({"full_at": 1.5}, "no points"), ({"points": "ten"}, "perf item")):
            with self.subTest(entry=entry), self.assertRaises(GradingError) as caught:
                parse_scale(entry)
            self.assertIn(phrase, str(caught.exception))

    def test_a_rubric_entry_with_graphs_and_repeats_parses(self):
        scale = parse_scale({"points": 12, "full_at": 1.5, "graphs": ["grid:512x512"], "repeats": 7, "warmup": 2})
        self.assertEqual((scale.points, scale.full_at, scale.zero_at), (12, 1.5, 4.0))


class Graphs(unittest.TestCase):
    def test_as_fast_as_the_reference_earns_everything(self):
        s = score_graph("grid", runs(10, 10.2, 9.9), runs(10, 10.1, 9.8), SCALE)
        self.assertEqual(s.fraction, 1.0)
        self.assertIn("full marks need at most 1.2x", s.reason)

    def test_noise_gives_the_better_side_of_a_threshold(self):
        # 1.25x with 10% spread on the student's side: judged at 1.25 / 1.1 < 1.2.
        student = runs(11.25, 12.5, 13.75, 12.5, 12.5)
        quiet = runs(10, 10, 10, 10, 10)
        self.assertAlmostEqual(relative_spread([s.wall_ms for s in student]), 0.0, places=6)
        noisy = runs(11.25, 12.5, 13.75, 11.25, 13.75)
        self.assertGreater(relative_spread([s.wall_ms for s in noisy]), 0.09)
        self.assertEqual(score_graph("g", noisy, quiet, SCALE).fraction, 1.0)
        # The same median with quiet repeats is judged at 1.25 / 1.03 > 1.2.
        self.assertLess(score_graph("g", student, quiet, SCALE).fraction, 1.0)

    def test_sources_of_very_different_cost_are_compared_source_by_source(self):
        # An R-MAT graph: a source in a small component takes 5 ms, one in the
        # giant component 80 ms. Both sides solve the same sources in order;
        # the student is 1.6x on every one of them.
        reference = runs(5, 80, 5, 80, 80, 5, 80, 5, 5, 80)
        student = runs(*(1.6 * s.wall_ms for s in reference))
        self.assertGreater(relative_spread([s.wall_ms for s in reference]), 1.0, "unpaired, the noise would hide it")
        s = score_graph("rmat", student, reference, SCALE)
        self.assertAlmostEqual(s.ratio, 1.6)
        self.assertAlmostEqual(s.noise, SCALE.noise_floor)
        self.assertLess(s.fraction, 0.8)
        self.assertIn("1.60x the reference", s.reason)

    def test_noise_is_the_medians_uncertainty_not_the_scatter_of_single_solves(self):
        # Ten pairs at 1.5x, single solves scattered by about 30% (a host
        # loop's run-to-run jitter): the median of ten is known to about 10%.
        reference = runs(*[10.0] * 10)
        student = runs(10, 11, 12.5, 13, 15, 15, 17, 17.5, 19, 20)
        spread = relative_spread([s.wall_ms for s in student])
        self.assertGreater(spread, 0.25)
        s = score_graph("g", student, reference, SCALE)
        self.assertAlmostEqual(s.noise, spread / 10 ** 0.5)
        self.assertAlmostEqual(s.judged_ratio, 1.5 / (1 + SCALE.counted_noise(spread / 10 ** 0.5)))
        self.assertLess(s.fraction, 0.9, "judged at 1.5 / 1.2 it would have full marks")

    def test_stalling_a_few_calls_buys_no_noise_credit(self):
        # Attack: a solver 3x the reference's on every source, which also
        # stalls three of its ten calls a thousandfold (a sleep, a spin on the
        # GPU's clock). The median pair is still 3x, but the stalls make the
        # pairs' interquartile range as wide as the student likes; an
        # unbounded noise term judged it at 3x / (1 + 100) and gave full marks.
        reference = runs(*[10.0] * 10)
        honest = score_graph("g", runs(*[30.0] * 10), reference, SCALE)
        stalling = score_graph("g", runs(*[30.0] * 7, 30000.0, 30000.0, 30000.0), reference, SCALE)
        self.assertAlmostEqual(stalling.ratio, 3.0)
        self.assertGreater(stalling.noise, 10.0, "the spread the stalls make is still reported")
        self.assertLessEqual(stalling.fraction, fraction(3.0 / (1 + SCALE.noise_cap), SCALE) + 1e-9)
        self.assertLess(stalling.fraction - honest.fraction, 0.06, "the noise credit is capped")
        self.assertIn(f"at most {SCALE.noise_cap:.0%} counted", stalling.reason)

    def test_stalling_a_few_calls_does_not_escape_the_lookup_floor(self):
        # The same stalls on a lookup (0.05x on the other calls): an unbounded
        # noise term gave it the benefit of the doubt at 0.05 * (1 + noise) and
        # then full marks; the floor is judged with the capped noise.
        reference = runs(*[10.0] * 10)
        s = score_graph("g", runs(*[0.5] * 7, 30000.0, 30000.0, 30000.0), reference, SCALE)
        self.assertEqual(s.fraction, 0.0)
        self.assertIn("refused", s.reason)

    def test_slow_earns_part_very_slow_nothing(self):
        part = score_graph("g", runs(20, 20, 20), runs(10, 10, 10), SCALE)
        self.assertTrue(0.0 < part.fraction < 1.0, part)
        self.assertIn("2.00x the reference", part.reason)
        none = score_graph("g", runs(50, 50, 50), runs(10, 10, 10), SCALE)
        self.assertEqual(none.fraction, 0.0)
        self.assertIn("earns nothing", none.reason)

    def test_one_wrong_repeat_scores_zero_however_fast(self):
        student = runs(1, 1) + runs(1, correct=False)
        s = score_graph("g", student, runs(10, 10, 10), SCALE)
        self.assertEqual(s.fraction, 0.0)
        self.assertIn("repeat 3 gave a wrong answer", s.reason)

    def test_a_solve_on_the_cpu_scores_zero(self):
        s = score_graph("g", runs(100, 100, cpu=90.0), runs(100, 100), SCALE)
        self.assertEqual(s.fraction, 0.0)
        self.assertIn("must do its work on the GPU", s.reason)
        # A GPU solve whose host thread waits on the GPU (little CPU time) is fine.
        self.assertEqual(score_graph("g", runs(100, 100, cpu=10.0), runs(100, 100), SCALE).fraction, 1.0)

    def test_cpu_time_is_judged_over_all_repeats_and_unreadable_time_is_not_judged(self):
        # 10 ms ticks: one repeat may show a whole tick in a short solve; the sum is what counts.
        self.assertAlmostEqual(cpu_share(runs(10, 10, 10, 10, cpu=0.0) + runs(10, cpu=10.0)), 0.2)
        self.assertEqual(score_graph("g", runs(10, 10, 10, 10) + runs(10, cpu=10.0), runs(10), SCALE).fraction, 1.0)
        self.assertIsNone(cpu_share(runs(10, cpu=-1.0)))
        self.assertEqual(score_graph("g", runs(10, 10, cpu=-1.0), runs(10, 10), SCALE).fraction, 1.0)
        # Without the reference's share there is nothing to judge a student's against.
        self.assertEqual(score_graph("g", runs(100, 100, cpu=90.0), runs(100, 100, cpu=-1.0), SCALE).fraction, 1.0)

    def test_a_tick_per_solve_is_the_readings_doubt_not_the_students(self):
        # The H200 case (issue 47): the reference itself, 10 solves of 2.5 ms, read two ticks (0.8 s per
        # second) against the reference's none. Each reading may be a tick over: not judged a CPU solve.
        tick = perf.CPU_TICK_MS
        short = runs(2.5, 2.5, 2.5, 2.5, 2.5, 2.5, 2.5, 2.5) + runs(2.5, 2.5, cpu=tick)
        self.assertAlmostEqual(cpu_share(short), 2 * tick / 25.0)
        self.assertEqual(cpu_share_at_least(short), 0.0)
        self.assertEqual(score_graph("g", short, runs(2.5, 2.5, 2.5, 2.5, 2.5, 2.5, 2.5, 2.5, 2.5, 2.5), SCALE).fraction,
                         1.0)
        # A long CPU solve still shows through the doubt: 10 x 100 ms at 0.9 s per second is at least 0.8.
        long = runs(*[100.0] * 10, cpu=90.0)
        self.assertAlmostEqual(cpu_share_at_least(long), (900.0 - 10 * tick) / 1000.0)
        s = score_graph("g", long, runs(*[100.0] * 10), SCALE)
        self.assertEqual(s.fraction, 0.0)
        self.assertIn("at least 0.80 with a 10 ms clock tick off each solve's reading", s.reason)

    def test_the_cpu_limit_follows_a_reference_whose_host_loop_keeps_a_core_busy(self):
        # Reference at 0.9 s per second (many short launches): 0.95 is a GPU solve, 1.4 is not.
        self.assertEqual(score_graph("g", runs(100, 100, cpu=95.0), runs(100, 100, cpu=90.0), SCALE).fraction, 1.0)
        s = score_graph("g", runs(100, 100, cpu=140.0), runs(100, 100, cpu=90.0), SCALE)
        self.assertEqual(s.fraction, 0.0)
        self.assertIn("the reference 0.90 (at most 1.25 allowed)", s.reason)
        self.assertAlmostEqual(SCALE.cpu_limit(None), 0.5)

    def test_no_timed_run_scores_zero_with_the_reason(self):
        s = score_graph("g", [], runs(10), SCALE)
        self.assertEqual((s.fraction, s.reason), (0.0, "no timed run of your solver"))

    def test_the_references_failure_is_an_autograder_error_not_a_zero(self):
        for reference in ([], runs(10, correct=False), runs(0.0)):
            with self.subTest(reference=reference), self.assertRaises(GradingError):
                score_graph("g", runs(10), reference, SCALE)

    def test_item_points_are_the_mean_fraction_times_the_points(self):
        scores = [score_graph("a", runs(10), runs(10), SCALE), score_graph("b", runs(50), runs(10), SCALE)]
        self.assertAlmostEqual(item_points(scores, SCALE), 5.0)
        self.assertEqual(item_points([], SCALE), 0.0)


class Rounds(unittest.TestCase):
    """grade_item: rounds alternate (reference, student) with one seed each;
    the i-th solves of a round pair up, whatever a round left out."""

    def grade(self, reference_rounds, student_rounds):
        from types import SimpleNamespace
        from unittest import mock
        import tests.grader.perf as perf
        sides = iter(side for pair in zip(reference_rounds, student_rounds) for side in pair)

        def run_side(runner, program, plan, seed, call_cost=False):
            failure = "" if program == "reference" else "stopped"
            return perf.SideRun({"S g": next(sides)}, {}, failure, setups={"S g": (1.0, 0.0)})
        item = SimpleNamespace(earned=0.0, status="", output="", missing="")
        plan = parse_plan({"points": 10, "graphs": ["g"], "repeats": 3, "rounds": len(reference_rounds)})
        with mock.patch.object(perf, "run_side", run_side):
            return perf.grade_item(item, plan, "student", "reference", runner=None)[0], item

    def test_a_round_that_stopped_early_pairs_what_it_ran(self):
        # Round 1: the student's run crashed after one solve; round 2 ran all three.
        score, item = self.grade([runs(10, 100, 10), runs(100, 10, 100)], [runs(20), runs(200, 20, 200)])
        self.assertAlmostEqual(score.ratio, 2.0, msg="every pair is 2x; a shifted pairing would not be")
        self.assertEqual(item.status, "partial")
        self.assertIn("your timed runs reported:\nstopped", item.output)
        score, _ = self.grade([runs(10, 100, 10), runs(100, 10, 100)], [[], runs(200, 20, 200)])
        self.assertAlmostEqual(score.ratio, 2.0)
        self.assertAlmostEqual(score.noise, SCALE.noise_floor)

    def test_no_solve_at_all_scores_zero_against_the_references_times(self):
        score, item = self.grade([runs(10, 100, 10)], [[]])
        self.assertEqual((score.fraction, score.reason, item.status), (0.0, "no timed run of your solver", "failed"))
        self.assertEqual(score.reference_ms, 10)

    def test_a_wrong_answer_in_any_round_scores_zero(self):
        score, _ = self.grade([runs(10, 10, 10), runs(10, 10, 10)],
                              [runs(1, 1, 1), runs(1) + runs(1, correct=False)])
        self.assertEqual(score.fraction, 0.0)
        self.assertIn("repeat 5 gave a wrong answer", score.reason)

    def test_each_round_is_reported_and_one_slow_process_does_not_move_the_median(self):
        # Round 2's reference process ran 1.5x slow for its whole life (seen on
        # an H200: lab 02's reference read 42 ms on road-NY in one run, 27-31 in
        # the others): every pair of its round reads low; the median is the others'.
        score, _ = self.grade([runs(10, 10, 10), runs(15, 15, 15), runs(10, 10, 10)],
                              [runs(20, 20, 20), runs(20, 20, 20), runs(20, 20, 20)])
        self.assertEqual([r["ratio"] for r in score.rounds], [2.0, 20 / 15, 2.0])
        self.assertEqual([(r["reference_ms"], r["student_ms"]) for r in score.rounds],
                         [(10, 20), (15, 20), (10, 20)])
        self.assertAlmostEqual(score.ratio, 2.0)


# Lab 04 on an H100 (issue 44): the reference's ExtractMin Dijkstra takes
# about 38 ms per solve on rome99 (3,353 vertices); its setup is its
# construction (about 2 ms) and 2 warm-up solves.
ROME_SOLVE_MS = 38.0
ROME_SETUP_MS = 2.0 + 2 * ROME_SOLVE_MS


class FakeRunner:
    """Stands in for judging.Runner: each execute_with_env writes the
    GoogleTest XML report a lab's Perf test would have written, one record
    per call from `records[worker]` in turn (the trusted path run_side reads);
    past the list, its last record again (a round that runs once more, as
    the same code would report it)."""
    timeout = 60.0

    def __init__(self, records: dict[str, list[str]]):
        self.records = {side: list(values) for side, values in records.items()}
        self.served = {side: 0 for side in records}
        self.call_cost: dict[str, str] = {}  # the SSSP_PERF_CALL_COST each side's test program got

    def execute_with_env(self, argv, report, work, worker, extra_env):
        import xml.sax.saxutils as saxutils
        side = worker[0]
        self.call_cost[side] = extra_env["SSSP_PERF_CALL_COST"]
        values = self.records[side]
        value = saxutils.quoteattr(values[min(self.served[side], len(values) - 1)])
        self.served[side] += 1
        report.write_text(f'<testsuites><testsuite name="Perf"><testcase name="ExtractMinDijkstra" classname="Perf">'
                          f'<properties><property name="perf_ExtractMinDijkstra_0" value={value}/></properties>'
                          '</testcase></testsuite></testsuites>')
        return 0, ""


def record(setup_ms: float, *wall_ms: float, warmups: int = 2) -> str:
    """A Perf test's record of one round: construction 2 ms, the rest of the setup in the warm-ups."""
    return (f"file:rome99.gr.gz | setup 2.0000/{setup_ms - 2.0:.4f} | "
            + " ".join(f"{w:.4f}/{0.9 * w:.4f}/1" for w in wall_ms))


class WorkBeforeTheClock(unittest.TestCase):
    """Issue 44: a solver that computes all-pairs distances in its constructor
    (not timed then) and answers every timed solve from that table earned
    15 of 15 at "0.00x". What a solver does before its timed calls is timed
    and bounded, and an answer faster than an honest solver is refused."""

    def grade(self, student_rounds: list[str], reference_rounds: list[str], repeats: int = 5):
        score, item, _ = self.grade_with_runner(student_rounds, reference_rounds, repeats)
        return score, item

    @staticmethod
    def grade_with_runner(student_rounds: list[str], reference_rounds: list[str], repeats: int = 5):
        """The item graded from these records (a side's last one repeated past
        its list; as many rounds as the reference has records): its score,
        the item, and the runner that served them."""
        from types import SimpleNamespace
        import tests.grader.perf as perf
        runner = FakeRunner({"student": student_rounds, "reference": reference_rounds})
        plan = parse_plan({"points": 15, "graphs": ["file:rome99.gr.gz"], "repeats": repeats, "warmup": 2,
                           "rounds": len(reference_rounds)})
        item = SimpleNamespace(earned=0.0, status="", output="", missing="")
        program = lambda side: SimpleNamespace(path="test_lab04_extract_min_gpu_isolated", worker=(side,))  # noqa: E731
        scores = perf.grade_item(item, plan, program("student"), program("reference"), runner)
        return scores[0], item, runner

    def test_answers_from_a_table_built_in_the_constructor_earn_nothing(self):
        # All-pairs in the constructor: 3,353 of the student's own solves
        # (about 4x the reference's), then every timed solve a table lookup.
        reference = [record(ROME_SETUP_MS, *[ROME_SOLVE_MS] * 5)] * 3
        student = [record(3353 * 4 * ROME_SOLVE_MS, *[0.08] * 5)] * 3
        score, item = self.grade(student, reference)
        self.assertEqual(score.fraction, 0.0, score.reason)
        self.assertEqual(item.earned, 0.0)
        self.assertIn("charged", score.reason)
        self.assertIn("before its timed calls", score.reason)
        self.assertGreater(score.ratio, 4.0, "the setup, added to each solve it served, is the time")
        self.assertGreater(score.charged_ms, 3 * 3353 * 3.5 * ROME_SOLVE_MS)
        self.assertAlmostEqual(score.reference_setup_ms, 3 * ROME_SETUP_MS)

    def test_a_table_built_in_the_first_warm_up_is_charged_the_same(self):
        # A lazy constructor, all-pairs on the first call: the warm-ups are setup too.
        reference = [record(ROME_SETUP_MS, *[ROME_SOLVE_MS] * 5)] * 3
        student = [record(2.0 + 3353 * ROME_SOLVE_MS, *[0.08] * 5)] * 3
        score, _ = self.grade(student, reference)
        self.assertEqual(score.fraction, 0.0, score.reason)
        self.assertIn("charged", score.reason)

    def test_a_table_cheap_enough_to_go_uncharged_is_refused_by_the_floor(self):
        # Built within the allowance (2 x 2 ms of construction + 20 ms: a
        # lookup's ratio earns its warm-ups no room): not charged, but 0.00x.
        reference = [record(ROME_SETUP_MS, *[ROME_SOLVE_MS] * 5)] * 3
        student = [record(20.0, *[0.08] * 5)] * 3
        score, _ = self.grade(student, reference)
        self.assertEqual((score.fraction, score.charged_ms), (0.0, 0.0), score.reason)
        self.assertTrue(score.reason.startswith("refused: 0.00x"), score.reason)

    def test_lookups_are_refused_even_when_the_charge_lifts_the_ratio(self):
        # As lab 04's precompute_all_pairs_in_constructor read on an H100
        # (rome99): its table cost about what the reference's setup does, the
        # charge lifted its ratio to 1.33x (94% of the graph), but its timed
        # solves alone were 0.01x: lookups, refused.
        reference = [record(73.0, *[28.0] * 5)] * 3
        student = [record(62.0, *[0.25] * 5)] * 3
        score, _ = self.grade(student, reference)
        self.assertEqual(score.fraction, 0.0, score.reason)
        self.assertTrue(score.reason.startswith("refused: 0.01x the reference in the timed solves"), score.reason)

    def test_the_charge_does_not_shrink_with_more_repeats(self):
        # Work before the clock is added to each solve it could serve, so a
        # rubric with more repeats does not make a table cheaper per solve.
        reference = [record(ROME_SETUP_MS, *[ROME_SOLVE_MS] * 20)]
        ratios = [self.grade([record(1000.0, *[0.08] * repeats)], reference, repeats)[0].ratio for repeats in (5, 20)]
        self.assertAlmostEqual(ratios[0], ratios[1])

    def test_an_impossibly_fast_ratio_is_refused_and_named(self):
        # The same lookups with the table built for free (a setup as cheap as
        # the reference's): 0.00x, which no honest solver of the lab reaches.
        s = score_graph("ExtractMinDijkstra file:rome99.gr.gz", runs(*[0.08] * 15), runs(*[ROME_SOLVE_MS] * 15),
                        SCALE)
        self.assertEqual(s.fraction, 0.0, s.reason)
        self.assertTrue(s.reason.startswith("refused: 0.00x the reference in the timed solves is faster than an "
                                            "honest solver can be"), s.reason)
        self.assertIn("show your instructor", s.reason)
        scores = [s, score_graph("ExtractMinDijkstra rmat:14", runs(0.2, 0.2, 0.2), runs(120, 120, 120), SCALE)]
        self.assertEqual(item_points(scores, SCALE), 0.0, "every graph refused: nothing for the item")

    def test_the_floor_is_judged_at_the_better_side_of_the_noise(self):
        # 0.2x, quiet: refused. 0.24x with the floor's 3% noise: 0.2472 < 0.25, refused.
        for ratio in (0.2, 0.24):
            with self.subTest(ratio=ratio):
                s = score_graph("g", runs(*[10 * ratio] * 5), runs(*[10.0] * 5), SCALE)
                self.assertTrue(s.reason.startswith("refused"), s.reason)
        # 0.245x with 3% noise: 0.25235 >= 0.25, full marks (fast, but within noise of possible).
        self.assertEqual(score_graph("g", runs(*[2.45] * 5), runs(*[10.0] * 5), SCALE).fraction, 1.0)
        # The fastest the reference has read against itself on an H100: 0.70x.
        self.assertEqual(score_graph("g", runs(*[7.0] * 5), runs(*[10.0] * 5), SCALE).fraction, 1.0)

    def test_an_honest_setup_is_not_charged(self):
        reference = [record(ROME_SETUP_MS, *[ROME_SOLVE_MS] * 5)] * 3
        # A constructor that allocates more, and first launches that load more kernels: within 2x + 20 ms.
        slower_setup = [record(2 * ROME_SETUP_MS + 15, *[ROME_SOLVE_MS] * 5)] * 3
        score, _ = self.grade(slower_setup, reference)
        self.assertEqual((score.fraction, score.charged_ms), (1.0, 0.0), score.reason)
        # A solver 3x slower at everything, its warm-ups included: its ratio
        # scores that once; its setup is not charged again.
        slow = [record(3 * ROME_SETUP_MS, *[3 * ROME_SOLVE_MS] * 5)] * 3
        score, _ = self.grade(slow, reference)
        self.assertEqual(score.charged_ms, 0.0, score.reason)
        self.assertAlmostEqual(score.ratio, 3.0)
        self.assertNotIn("charged", score.reason)

    def test_the_charge_is_the_excess_added_to_each_solve_of_its_round(self):
        # Allowed at ratio 1: 2 x (2 ms + 1 x 76 ms) + 20 ms = 176 ms. A 276 ms
        # setup: 100 ms over, on each of the round's 5 solves: 138 / 38 = 3.63x.
        reference = [record(ROME_SETUP_MS, *[ROME_SOLVE_MS] * 5)]
        student = [record(276.0, *[ROME_SOLVE_MS] * 5)]
        score, item = self.grade(student, reference)
        self.assertAlmostEqual(score.charged_ms, 100.0, places=3)
        self.assertAlmostEqual(score.ratio, 138 / 38)
        self.assertTrue(0.0 < score.fraction < 0.2, score.reason)
        self.assertIn("charged 100 ms", score.reason)
        self.assertIn("charged 100 ms", item.output, "the table names the charge")

    def test_a_round_charged_by_the_hosts_noise_alone_runs_again(self):
        # Lab 06's reference against itself on an H200 beside three other
        # gradings: one round's setup 2.5x the reference's. The round runs
        # again on the same sources; the clean run counts, and nothing is charged.
        reference = [record(ROME_SETUP_MS, *[ROME_SOLVE_MS] * 5)] * 2
        spiked, clean = record(2.5 * ROME_SETUP_MS + 30, *[ROME_SOLVE_MS] * 5), record(ROME_SETUP_MS, *[ROME_SOLVE_MS] * 5)
        score, item = self.grade([spiked, clean, clean], reference)
        self.assertEqual((score.fraction, score.charged_ms), (1.0, 0.0), score.reason)
        self.assertIn("1 of 2 rounds of yours ran twice", item.output)
        # Which setup, by how much: 2.5 x 78 + 30 = 225 ms against 2 x 78 + 20 = 176 allowed (ratio 1).
        self.assertIn("Over the allowance in the first run: ", item.output)
        self.assertIn(" file:rome99.gr.gz: 225 ms (construction 2, warm-ups 223) against 176 ms allowed, "
                      "the reference's 78 ms.", item.output)
        # The spike in both runs of its round: charged, and the item runs a
        # second pass, whose clean rounds count. A spike in every run is
        # charged in both passes: a spike the rule sees.
        score, item = self.grade([spiked, spiked, clean], reference)
        self.assertEqual((score.fraction, score.charged_ms), (1.0, 0.0), score.reason)
        self.assertIn("The item ran twice", item.output)
        score, _ = self.grade([spiked], reference)
        self.assertGreater(score.charged_ms, 0.0, score.reason)

    def test_work_before_the_clock_stays_charged_when_its_round_runs_again(self):
        # A table built in every run: the second run is charged as the first.
        reference = [record(ROME_SETUP_MS, *[ROME_SOLVE_MS] * 5)]
        score, item = self.grade([record(276.0, *[ROME_SOLVE_MS] * 5)] * 2, reference)
        self.assertAlmostEqual(score.charged_ms, 100.0, places=3)
        self.assertIn("2 of 2 rounds of yours ran twice", item.output, "in both passes")
        self.assertIn("The item ran twice", item.output)

    def test_a_second_run_that_gives_a_wrong_answer_counts(self):
        reference = [record(ROME_SETUP_MS, *[ROME_SOLVE_MS] * 5)]
        wrong = "file:rome99.gr.gz | setup 2.0000/76.0000 | " + " ".join([f"{ROME_SOLVE_MS:.4f}/1.0/1"] * 4 +
                                                                         [f"{ROME_SOLVE_MS:.4f}/1.0/0"])
        score, _ = self.grade([record(276.0, *[ROME_SOLVE_MS] * 5), wrong], reference)
        self.assertEqual(score.fraction, 0.0, score.reason)
        self.assertIn("wrong answer", score.reason)

    def test_a_graph_slowed_in_one_pass_keeps_the_better_pass(self):
        # Lab 03's reference against itself on two H200s, another grading's
        # compile on the host: 1.33x on soc-Slashdot0902 in one grading, full
        # marks in the next. A graph under full marks for its time alone runs
        # a second pass (new rounds, both sides), and keeps the better one.
        reference = [record(ROME_SETUP_MS, *[ROME_SOLVE_MS] * 5)] * 2
        slowed, honest = record(ROME_SETUP_MS, *[1.4 * ROME_SOLVE_MS] * 5), record(ROME_SETUP_MS, *[ROME_SOLVE_MS] * 5)
        score, item = self.grade([slowed, slowed, honest, honest], reference)
        self.assertEqual(score.fraction, 1.0, score.reason)
        self.assertIn("The item ran twice", item.output)

    def test_slow_code_is_slow_in_both_passes(self):
        reference = [record(ROME_SETUP_MS, *[ROME_SOLVE_MS] * 5)] * 2
        slow = record(ROME_SETUP_MS, *[2.0 * ROME_SOLVE_MS] * 5)
        score, item = self.grade([slow], reference)
        self.assertAlmostEqual(score.ratio, 2.0, places=2)
        self.assertLess(score.fraction, 1.0)
        self.assertIn("The item ran twice", item.output)

    def test_full_marks_and_failures_run_one_pass(self):
        # Full marks need no second look; a wrong answer or a lookup is no
        # matter of the host's noise.
        reference = [record(ROME_SETUP_MS, *[ROME_SOLVE_MS] * 5)] * 2
        runner = None
        for student in ([record(ROME_SETUP_MS, *[ROME_SOLVE_MS] * 5)],
                        ["file:rome99.gr.gz | setup 2.0000/76.0000 | " + f"{2 * ROME_SOLVE_MS:.4f}/1.0/0"],
                        [record(ROME_SETUP_MS, *[0.01 * ROME_SOLVE_MS] * 5)]):
            score, item, runner = self.grade_with_runner(student, reference)
            self.assertEqual(runner.served["reference"], 2, f"{score.reason}: one pass of two rounds")
            self.assertNotIn("The item ran twice", item.output)

    def test_a_wrong_answer_in_the_second_pass_counts(self):
        reference = [record(ROME_SETUP_MS, *[ROME_SOLVE_MS] * 5)] * 2
        slowed = record(ROME_SETUP_MS, *[1.4 * ROME_SOLVE_MS] * 5)
        wrong = "file:rome99.gr.gz | setup 2.0000/76.0000 | " + " ".join([f"{ROME_SOLVE_MS:.4f}/1.0/1"] * 4 +
                                                                         [f"{ROME_SOLVE_MS:.4f}/1.0/0"])
        score, item = self.grade([slowed, slowed, wrong], reference)
        self.assertEqual(score.fraction, 0.0, score.reason)
        self.assertIn("wrong answer", score.reason)
        self.assertIn("The item ran twice", item.output)

    def test_the_setup_knobs_are_checked_by_name(self):
        scale = parse_scale({"points": 15, "refuse_under": 0.1, "setup_factor": 3, "setup_slack_ms": 20})
        self.assertEqual((scale.refuse_under, scale.setup_factor, scale.setup_slack_ms), (0.1, 3.0, 20.0))
        for entry, phrase in (({"points": 5, "refuse_under": 1.0}, "refuse_under must be in"),
                              ({"points": 5, "setup_factor": 0.5}, "setup_factor must be"),
                              ({"points": 5, "setup_slack_ms": -1}, "setup_slack_ms must be")):
            with self.subTest(entry=entry), self.assertRaisesRegex(GradingError, phrase):
                parse_scale(entry)


# Lab 09 on an H100 (issue 45): ADDS on road-NY read 7.4 ms a call in the
# item against a 2.7 ms solve; the rest (about 4.7 ms) is the call's own: the
# request, the download of 264,346 distances, the answer over the pipe.
ROAD_CALL_MS = 7.4
ROAD_SOLVE_MS = 2.7
ROAD_FIXED_MS = ROAD_CALL_MS - ROAD_SOLVE_MS


def road_record(*wall_ms: float, calls: tuple[float, ...] = ()) -> str:
    """A Perf test's record of one round on road-NY, with the null solver's calls when given."""
    return (f"file:USA-road-NY.pace.gr.gz | setup 2.0000/{2 * ROAD_CALL_MS:.4f} | "
            + " ".join(f"{w:.4f}/{0.4 * w:.4f}/1" for w in wall_ms)
            + (" | call " + " ".join(f"{c:.4f}" for c in calls) if calls else ""))


class CallCost(unittest.TestCase):
    """Issue 45: the item timed whole calls, so a solver whose kernels were
    twice as slow kept about 90% of the item where the call's own cost is
    most of a call. That cost, timed on the reference's worker, is taken out
    of both sides' times; the student's worker never supplies it."""

    def grade(self, student_rounds: list[str], reference_rounds: list[str]):
        from types import SimpleNamespace
        import tests.grader.perf as perf
        runner = FakeRunner({"student": student_rounds, "reference": reference_rounds})
        plan = parse_plan({"points": 15, "graphs": ["file:USA-road-NY.pace.gr.gz"], "repeats": 5, "warmup": 2,
                           "rounds": len(reference_rounds)})
        item = SimpleNamespace(earned=0.0, status="", output="", missing="")
        program = lambda side: SimpleNamespace(path="test_lab09_adds_gpu_isolated", worker=(side,))  # noqa: E731
        return perf.grade_item(item, plan, program("student"), program("reference"), runner)[0], item, runner

    def test_kernels_twice_as_slow_read_2x_not_the_whole_calls_ratio(self):
        reference = runs(*[ROAD_CALL_MS] * 10)
        student = runs(*[ROAD_FIXED_MS + 2 * ROAD_SOLVE_MS] * 10)
        whole = score_graph("Adds road-NY", student, reference, SCALE)
        self.assertAlmostEqual(whole.ratio, 10.1 / 7.4)
        self.assertGreater(whole.fraction, 0.85, "the old rule: most of the graph for twice the solve")
        s = score_graph("Adds road-NY", student, reference, SCALE, call_ms=ROAD_FIXED_MS)
        self.assertAlmostEqual(s.ratio, 2.0)
        self.assertAlmostEqual(s.call_ratio, 10.1 / 7.4)
        self.assertAlmostEqual(s.fraction, fraction(2.0 / 1.03, SCALE))
        self.assertEqual([round(ms, 6) for ms in (s.reference_ms, s.student_ms, s.call_ms)], [7.4, 10.1, 4.7])
        self.assertIn(f"each time less {ROAD_FIXED_MS:.2f} ms", s.reason)
        self.assertIn("1.36x in whole calls", s.reason)

    def test_the_reference_against_itself_keeps_full_marks(self):
        reference = runs(*[ROAD_CALL_MS] * 10)
        s = score_graph("g", runs(*[ROAD_CALL_MS] * 10), reference, SCALE, call_ms=ROAD_FIXED_MS)
        self.assertEqual((s.ratio, s.fraction), (1.0, 1.0))

    def test_a_time_less_the_calls_cost_keeps_the_floors_share_of_itself(self):
        # A call cost measured over the calls themselves (noise): the times
        # keep 10% of themselves, so the ratio stays the whole calls' one.
        self.assertAlmostEqual(SCALE.solve_ms(10.0, 4.0), 6.0)
        self.assertAlmostEqual(SCALE.solve_ms(10.0, 25.0), 1.0)
        s = score_graph("g", runs(*[20.0] * 5), runs(*[10.0] * 5), SCALE, call_ms=25.0)
        self.assertAlmostEqual(s.ratio, 2.0)
        self.assertTrue(math.isfinite(s.ratio))

    def test_no_call_cost_however_noisy_earns_a_slow_solver_more_than_whole_calls(self):
        # Taken out of both sides, a cost moves a ratio over 1 away from 1,
        # never towards it; the floor only moves it back to the calls' own.
        for reference_ms in (5.0, 7.4, 40.0):
            for slower in (1.0, 1.1, 1.5, 2.0, 3.0, 5.0):
                for call in (0.0, 0.5, 2.0, 4.7, 7.0, 7.4, 12.0, 100.0):
                    with self.subTest(reference_ms=reference_ms, slower=slower, call=call):
                        student = runs(*[slower * reference_ms] * 5)
                        whole = score_graph("g", student, runs(*[reference_ms] * 5), SCALE)
                        less = score_graph("g", student, runs(*[reference_ms] * 5), SCALE, call_ms=call)
                        self.assertGreaterEqual(less.ratio, whole.ratio - 1e-12)
                        self.assertLessEqual(less.fraction, whole.fraction + 1e-12)

    def test_only_the_references_calls_are_used_and_only_it_is_asked_for_them(self):
        student_ms = ROAD_FIXED_MS + 2 * ROAD_SOLVE_MS
        reference = [road_record(*[ROAD_CALL_MS] * 5, calls=(4.6, 4.7, 4.8, 4.7, 4.7))] * 2
        for student_calls in ((), (0.001,) * 5, (100.0,) * 5):
            with self.subTest(student_calls=student_calls):
                student = [road_record(*[student_ms] * 5, calls=student_calls)] * 2
                score, _, runner = self.grade(student, reference)
                self.assertAlmostEqual(score.call_ms, 4.7)
                self.assertAlmostEqual(score.ratio, (student_ms - 4.7) / (ROAD_CALL_MS - 4.7))
                self.assertEqual(runner.call_cost, {"reference": "1", "student": "0"})

    def test_without_the_references_calls_the_whole_calls_are_compared(self):
        score, item, _ = self.grade([road_record(*[10.1] * 5)], [road_record(*[ROAD_CALL_MS] * 5)])
        self.assertIsNone(score.call_ms)
        self.assertAlmostEqual(score.ratio, 10.1 / 7.4)
        self.assertNotIn("each time less", score.reason)

    def test_the_report_shows_the_calls_cost_per_graph(self):
        import json
        import tempfile
        import tests.grader.perf as perf
        reference = [road_record(*[ROAD_CALL_MS] * 5, calls=(ROAD_FIXED_MS,) * 5)]
        score, item, _ = self.grade([road_record(*[10.1] * 5)], reference)
        header, row = item.output.splitlines()[:2]
        self.assertIn("call ms", header)
        self.assertIn(f"{ROAD_FIXED_MS:.2f}", row)
        self.assertIn("each less the call ms", item.output)
        with tempfile.TemporaryDirectory() as work:
            path = Path(work) / "perf-lab09_adds.json"
            perf.write_json("lab09_adds", [score], parse_plan({"points": 15, "graphs": ["g"]}), item.earned, path)
            graph = json.loads(path.read_text())["graphs"][0]
        self.assertAlmostEqual(graph["call_ms"], ROAD_FIXED_MS)
        self.assertAlmostEqual(graph["call_ratio"], 10.1 / 7.4)
        self.assertAlmostEqual(graph["ratio"], 2.0)

    def test_the_floor_refuses_lookups_that_the_calls_cost_hid(self):
        # Answers looked up and sent back (a call's cost and a little): 0.65x
        # in whole calls, under no floor; less the call's cost, 0.04x: refused.
        reference = runs(*[ROAD_CALL_MS] * 10)
        lookups = runs(*[ROAD_FIXED_MS + 0.1] * 10)
        self.assertEqual(score_graph("g", lookups, reference, SCALE).fraction, 1.0)
        s = score_graph("g", lookups, reference, SCALE, call_ms=ROAD_FIXED_MS)
        self.assertEqual(s.fraction, 0.0)
        self.assertTrue(s.reason.startswith("refused: 0.18x"), s.reason)
        # A solve twice as fast as the reference's is not refused.
        fast = score_graph("g", runs(*[ROAD_FIXED_MS + ROAD_SOLVE_MS / 2] * 10), reference, SCALE,
                           call_ms=ROAD_FIXED_MS)
        self.assertEqual((round(fast.ratio, 6), fast.fraction), (0.5, 1.0))

    def test_a_setup_charge_is_added_to_the_solve_less_the_calls_cost(self):
        # Same calls as the reference; a setup 2.7 ms over the allowance,
        # added in full to each solve's 2.7 ms: twice the reference's.
        allowed = 2 * (2.0 + 1.0 * 2 * ROAD_CALL_MS) + 20.0
        student = [road_record(*[ROAD_CALL_MS] * 5).replace(f"setup 2.0000/{2 * ROAD_CALL_MS:.4f}",
                                                            f"setup 2.0000/{allowed - 2.0 + 2.7:.4f}")]
        reference = [road_record(*[ROAD_CALL_MS] * 5, calls=(ROAD_FIXED_MS,) * 5)]
        score, _, _ = self.grade(student, reference)
        self.assertAlmostEqual(score.charged_ms, 2.7, places=3)
        self.assertAlmostEqual(score.ratio, 2.0, places=4)

    def test_the_floor_knob_is_checked_by_name(self):
        self.assertEqual(parse_scale({"points": 15, "call_floor": 0.2}).call_floor, 0.2)
        for bad in (0, -0.1, 1.5):
            with self.subTest(call_floor=bad), self.assertRaisesRegex(GradingError, "call_floor must be in"):
                parse_scale({"points": 5, "call_floor": bad})


class Records(unittest.TestCase):
    """What the Perf.* tests record (tests/support/perf_test.cpp) and the rubric's plan."""

    def test_a_record_reads_back_as_setup_and_repeats_or_a_missing_file(self):
        graph, record = parse_record("grid:64x64 | setup 12.5000/80.2500 | 1.5000/0.2000/1 2.0000/-1.0000/0")
        self.assertEqual(graph, "grid:64x64")
        self.assertEqual(record.solves, [Solve(1.5, True, 0.2), Solve(2.0, False, -1.0)])
        self.assertEqual((record.construct_ms, record.warmup_ms), (12.5, 80.25))
        self.assertEqual(parse_record("file:x.gr.gz | missing: no such file"), ("file:x.gr.gz", "no such file"))
        graph, record = parse_record("g | setup 1/2 | 1.5000/0.2000/1 | call 4.7000 4.8000")
        self.assertEqual((record.solves, record.calls), ([Solve(1.5, True, 0.2)], [4.7, 4.8]))
        for bad in ("g | 1.5/0.2/1", "g | setup 12.5 | 1.5/0.2/1", "g | setup 1/2 | 1.5/0.2",
                    "g | setup 1/2 | 1.5/0.2/1 | calls 4.7", "g | setup 1/2 | 1.5/0.2/1 | call fast"):
            with self.subTest(record=bad), self.assertRaisesRegex(GradingError, "record"):
                parse_record(bad)

    def test_timed_runs_that_do_not_finish_name_the_graph_they_were_on(self):
        # Issue 47: the item's timeout said how long, not on what, unlike a test's.
        from types import SimpleNamespace
        from tests.grader.perf import run_side

        class Stuck:
            timeout = 60.0

            def execute_with_env(self, *_args, **_kwargs):
                return None, "[   STEP   ] graph 'file:rome99.gr.gz' (3353 vertices), source 7: timed\n"

        plan = parse_plan({"points": 5, "graphs": ["file:rome99.gr.gz"]})
        run = run_side(Stuck(), SimpleNamespace(path="test", worker=()), plan, 1)
        self.assertIn("did not finish within 60 s", run.failure)
        self.assertIn("while running: graph 'file:rome99.gr.gz' (3353 vertices), source 7: timed", run.failure)

    def test_properties_are_read_as_children_or_attributes(self):
        import xml.etree.ElementTree as ET
        case = ET.fromstring('<testcase name="Adds" perf_Adds_1="b | 1/0/1"><properties>'
                             '<property name="perf_Adds_0" value="a | 2/0/1"/><property name="other" value="x"/>'
                             '</properties></testcase>')
        self.assertEqual(properties(case), {"perf_Adds_0": "a | 2/0/1", "perf_Adds_1": "b | 1/0/1"})

    def test_the_plan_refuses_what_would_measure_nothing(self):
        plan = parse_plan({"points": 15, "graphs": ["grid:8x8"]})
        self.assertEqual((plan.repeats, plan.warmup, plan.rounds), (5, 2, 2))
        for entry, phrase in (({"points": 1}, "graphs"), ({"points": 1, "graphs": []}, "graphs"),
                              ({"points": 1, "graphs": ["a;b"]}, "graphs"),
                              ({"points": 1, "graphs": ["g"], "repeats": 1}, "repeats"),
                              ({"points": 1, "graphs": ["g"], "rounds": 0}, "rounds"),
                              ({"points": 1, "graphs": ["g"], "speed": 2}, "unknown keys")):
            with self.subTest(entry=entry), self.assertRaisesRegex(GradingError, phrase):
                parse_plan(entry)

    def test_solver_graphs_time_a_named_solver_on_its_graphs_only(self):
        from types import SimpleNamespace
        from tests.grader.perf import run_side
        plan = parse_plan({"points": 15, "graphs": ["file:NY.gr.gz", "rmat:18:16"],
                           "solver_graphs": {"Chen": ["rmat:18:16"]}})
        self.assertFalse(plan.times("Chen", "file:NY.gr.gz"))
        self.assertTrue(plan.times("Chen", "rmat:18:16"))
        self.assertTrue(plan.times("NearFar", "file:NY.gr.gz"), "a solver not named is timed on every graph")
        self.assertEqual(plan.solver_graphs_env(), "Chen=1")
        self.assertEqual(parse_plan({"points": 1, "graphs": ["g"]}).solver_graphs_env(), "")

        class Recording:
            timeout = 60.0
            env: dict = {}

            def execute_with_env(self, *_args, extra_env, **_kwargs):
                Recording.env = extra_env
                return 0, ""

        run_side(Recording(), SimpleNamespace(path="test", worker=()), plan, 1)
        self.assertEqual(Recording.env["SSSP_PERF_SOLVER_GRAPHS"], "Chen=1")
        for bad in ({"Chen": ["grid:8x8"]}, {"Chen": []}, {"Chen": "rmat:18:16"}, {"": ["rmat:18:16"]},
                    {"Chen=1": ["rmat:18:16"]}, ["Chen"], {"Chen": ["rmat:18:16", "rmat:18:16"]}):
            with self.subTest(bad=bad), self.assertRaisesRegex(GradingError, "solver_graphs"):
                parse_plan({"points": 1, "graphs": ["file:NY.gr.gz", "rmat:18:16"], "solver_graphs": bad})

    def test_every_solver_a_rubric_names_is_one_its_perf_tests_time(self):
        # A name the Perf tests do not use would leave that solver timed on every graph, silently.
        from tests.grader import lab_data
        for lab, entry in lab_data.load_rubric().items():
            named = entry.get("perf", {}).get("solver_graphs", {})
            if named:
                sources = "".join(p.read_text() for p in (REPO / "tests" / lab).glob("*perf*.cpp"))
                timed = set(re.findall(r'time_solver_on_perf_graphs\("(\w+)"', sources))
                with self.subTest(lab=lab):
                    self.assertLessEqual(set(named), timed, f"{lab}: the Perf tests time {sorted(timed)}")

    def test_the_handouts_quote_the_newest_runs_of_the_item_as_it_is_now(self):
        # Quoting a run of another item (a graph or solver since dropped, other rounds) or an older
        # set as the newest would put numbers in a handout that its rubric no longer produces.
        import tempfile
        from unittest import mock
        from tests.grader import perf_handout
        plan = parse_plan({"points": 16, "graphs": ["file:NY.gr", "rmat:18:16"], "rounds": 2, "repeats": 5,
                           "solver_graphs": {"Chen": ["rmat:18:16"]}})
        now = [("NearFar", "file:NY.gr"), ("NearFar", "rmat:18:16"), ("Chen", "rmat:18:16")]
        with tempfile.TemporaryDirectory() as folder:
            runs = Path(folder)
            devices = runs / "devices.json"
            devices.write_text(json.dumps({"runs": {"h200s9": "H200", "h200s10": "H200", "h200s11": "H200"},
                                           "continues": {"h200s11": "h200s10"}}))

            def run(name, keys, rounds=2, per_side=10):
                path = runs / f"{name}-lab08_delta_stepping-mutant-m-{len(list(runs.glob(name + '-*'))) + 1}.json"
                path.write_text(json.dumps({"timed_per_side": per_side, "earned": 8, "points": 16, "graphs": [
                    {"graph": f"{solver} {graph}", "rounds": [{}] * rounds} for solver, graph in keys]}))
                return path

            with mock.patch.object(perf_handout, "DEVICES", devices):
                old = run("h200s9", now)
                with_chen_on_ny = run("h200s10", now + [("Chen", "file:NY.gr")])
                other_rounds = run("h200s10", now, rounds=5, per_side=15)
                kept_10 = run("h200s10", now)
                kept_11 = [run("h200s11", now), run("h200s11", now)]
                self.assertTrue(perf_handout.measures(kept_10, plan))
                self.assertFalse(perf_handout.measures(with_chen_on_ny, plan), "Chen is no longer timed on NY")
                self.assertFalse(perf_handout.measures(other_rounds, plan), "other rounds: another item")
                paths = sorted(runs.glob("*-lab08_*.json"))
                self.assertEqual(perf_handout.newest_set(paths), "h200s11", "devices.json's order, not the name's")
                # h200s11 continues h200s10, which does not continue h200s9.
                self.assertEqual(perf_handout.newest_runs(paths, plan), [kept_10, *kept_11])
                self.assertNotIn(old, perf_handout.newest_runs(paths, plan))
                (runs / "h200s12-lab08_delta_stepping-mutant-m-1.json").write_text(kept_10.read_text())
                with self.assertRaises(SystemExit):  # a set that names no GPU
                    perf_handout.newest_set(sorted(runs.glob("*-lab08_*.json")))

    def test_every_gpu_lab_rubric_has_a_valid_plan(self):
        from tests.grader import lab_data
        rubric = lab_data.load_rubric()
        gpu_labs = [lab for lab in rubric if lab != "lab01_serial"]
        for lab in gpu_labs:
            with self.subTest(lab=lab):
                self.assertIn("perf", rubric[lab], f"{lab}: a GPU lab grades its speed")
                plan = parse_plan(rubric[lab]["perf"])
                total = sum(e["points"] for e in rubric[lab]["tests"].values()) + plan.scale.points
                self.assertTrue(0.10 <= plan.scale.points / total <= 0.20, f"{lab}: perf is 10-20% of the lab")

    def test_the_table_states_the_scale_and_each_lost_point(self):
        plan = parse_plan({"points": 10, "graphs": ["a", "b"]})
        scores = [score_graph("S a", runs(10), runs(10), plan.scale),
                  score_graph("S b", runs(30), runs(10), plan.scale)]
        text = table(scores, plan, item_points(scores, plan.scale), {"S c": "no such file"}, "")
        self.assertIn("Full marks at or under 1.2x", text)
        self.assertIn("S b: 3.00x the reference", text)
        self.assertIn("left out (not on this grader): S c: no such file", text)

    def test_the_handouts_state_the_item_as_the_rubric_and_the_h100_runs_say(self):
        import subprocess
        check = subprocess.run([sys.executable, "-m", "tests.grader.perf_handout", "--check"], cwd=REPO,
                               capture_output=True, text=True)
        self.assertEqual(check.returncode, 0, check.stdout + check.stderr)

    def test_the_calibration_page_and_its_figure_show_the_kept_runs(self):
        import subprocess
        check = subprocess.run([sys.executable, "-m", "tests.project.calibration_page", "--check"], cwd=REPO,
                               capture_output=True, text=True)
        self.assertEqual(check.returncode, 0, check.stdout + check.stderr)

    def test_the_handout_block_leaves_no_placeholder_unfilled(self):
        # A line of the block that is not an f-string shows students '{s.refuse_under:g}x' (it did).
        from tests.grader import lab_data
        from tests.grader.perf_handout import block
        for lab, entry in lab_data.load_rubric().items():
            if "perf" in entry:
                with self.subTest(lab=lab):
                    text = block(lab, entry)
                    self.assertNotRegex(text, r"\{[a-z_.]+(:[^}]*)?\}", f"{lab}: a placeholder was left in the block")
                    self.assertIn(f"A ratio under {parse_plan(entry['perf']).scale.refuse_under:g}x", text)

    def test_published_gapbs_times_are_found_for_the_perf_graphs(self):
        self.assertEqual(bench_graph_prefix("grid:1000x1000"), "grid 1000x1000 (")
        self.assertEqual(bench_graph_prefix("rmat:18"), "rmat scale 18 edge factor 16 ")
        self.assertEqual(bench_graph_prefix("file:USA-road-NY.pace.gr.gz"), "USA-road-NY.pace.gr.gz")
        self.assertIsNone(bench_graph_prefix("complete:64"))


if __name__ == "__main__":
    sys.exit(0 if unittest.main(exit=False).result.wasSuccessful() else 1)
