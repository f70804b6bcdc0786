#!/usr/bin/env python3
"""Tests of check_mutants.py's verdict over runs in a row (--repeat), on lab 01
(CPU) mutants of a built tree: a mutant every run catches is verified; one
whose must-fail test passes in a single run is reported as caught only
sometimes, and one never caught as a test too weak; a mutant whose test
program was not built is named as such. The runs themselves are
simulated (a real race needs a GPU; check_mutants.py's runs are the
grader's, tested in test_grade.py): this tests the verdict over them.

    python3 -m tests.project.test_check_mutants --build-dir BUILD
"""
import contextlib
import io
import sys
import unittest
import unittest.mock
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
from tests.grader.limits import TEST_TIMEOUT
from tests.grader.model import Program, Result
from tests.project import check_mutants
from tests.project import harness  # --build-dir and the unittest run

BUILD: Path = Path()  # set by main()
MUTANT = ("lab01_serial", "bellman_ford_without_early_exit")


class Repeat(unittest.TestCase):
    def check(self, passes_in_runs: set[int], repeat: int = 3, timeouts_in_runs: frozenset[int] = frozenset(),
              skips_in_runs: frozenset[int] = frozenset(), extra: tuple[str, ...] = ()) -> tuple[int, str, str]:
        """check_mutants on MUTANT with --repeat; in the runs numbered in passes_in_runs
        (1-based) its tests are made to pass, in those of timeouts_in_runs to run
        out of time, in those of skips_in_runs to skip. Returns the status, stdout
        and stderr."""
        calls = [0]
        surveys = [0]  # runs asked for every graded test (only=None), not just the must_fail ones
        must_fail = next(m for m in check_mutants.lab_data.lab_mutants(MUTANT[0])
                         if m["name"] == MUTANT[1])["must_fail"]

        def run_variants(runner, programs, gpu_jobs, only=None):
            # The mutant's must-fail tests, failing as a caught mutant's do, or passing in the chosen runs.
            self.assertEqual(list(programs), [MUTANT])
            calls[0] += 1
            if only is None:
                surveys[0] += 1
            else:
                self.assertEqual(only, {MUTANT: must_fail})
            status = ("passed" if calls[0] in passes_in_runs
                      else "timeout" if calls[0] in timeouts_in_runs
                      else "skipped" if calls[0] in skips_in_runs else "failed")
            return {MUTANT: {t: Result(MUTANT[0], t, 0.0, "visible", status=status)
                             for t in must_fail}}

        argv = ["check_mutants.py", "--build-dir", str(BUILD), "--hidden-graphs", str(REPO / "datasets" / "tiny"),
                "--lab", MUTANT[0], "--mutant", MUTANT[1], "--repeat", str(repeat), *extra]
        out, err = io.StringIO(), io.StringIO()
        with unittest.mock.patch.object(check_mutants, "run_variants", run_variants), \
                unittest.mock.patch.object(sys, "argv", argv), \
                contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = check_mutants.main()
        self.assertEqual(calls[0], repeat, "one set of test runs per --repeat")
        self.assertEqual(surveys[0], 0 if "--must-fail-only" in extra else 1,
                         "the first run surveys every graded test, unless --must-fail-only")
        return status, out.getvalue(), err.getvalue()

    def test_caught_in_every_run_is_verified(self):
        status, out, err = self.check(set())
        self.assertEqual(status, 0, out + err)
        self.assertIn("3 runs in a row: verified 1, not verifiable here 0, 0 problems", out)

    def test_passing_in_one_run_is_caught_only_sometimes(self):
        status, out, err = self.check({2})
        self.assertEqual(status, 1, out + err)
        self.assertIn("in run 2 of 3: the test catches it only sometimes", err)
        self.assertIn("verified 0", out)

    def test_passing_in_every_run_is_a_test_too_weak(self):
        status, _, err = self.check({1, 2, 3})
        self.assertEqual(status, 1)
        self.assertIn("in runs 1, 2, 3 of 3: the test is too weak", err)

    def test_each_run_reports_as_it_ends(self):
        # A run cut short by a machine's time limit still shows how far it got.
        _, out, _ = self.check({2})
        self.assertIn("run 1 of 3: 1 of 1 mutants caught, 0 escaped, 0 not judged here", out)
        self.assertIn("run 2 of 3: 0 of 1 mutants caught, 1 escaped, 0 not judged here", out)
        self.assertIn(f"  passed: {MUTANT[0]}/{MUTANT[1]}: ", out)
        self.assertLess(out.index("run 2 of 3"), out.index("run 3 of 3"))

    def test_catches_by_the_timeout_are_counted(self):
        # Each repeat of a test that catches its mutant only by timing out costs the whole timeout.
        status, out, err = self.check(set(), timeouts_in_runs=frozenset({1, 2, 3}))
        self.assertEqual(status, 0, out + err)
        self.assertIn(f"by the {TEST_TIMEOUT:g} s timeout", out)
        self.assertRegex(out, r"run 3 of 3: 1 of 1 mutants caught, 0 escaped, 0 not judged here .*; \d+ tests caught by the timeout")

    def test_must_fail_only_skips_the_survey_and_keeps_the_verdict(self):
        status, out, err = self.check(set(), extra=("--must-fail-only",))
        self.assertEqual(status, 0, out + err)
        self.assertIn("of its must_fail tests", out)
        self.assertIn("3 runs in a row: verified 1, not verifiable here 0, 0 problems", out)
        status, _, err = self.check({3}, extra=("--must-fail-only",))
        self.assertEqual(status, 1)
        self.assertIn("in run 3 of 3: the test catches it only sometimes", err)

    def test_a_skipped_run_is_not_judged_not_escaped(self):
        # A must_fail test that skipped (no GPU here) neither caught nor freed the mutant.
        _, out, _ = self.check(set(), repeat=2, skips_in_runs=frozenset({2}))
        self.assertIn("run 2 of 2: 0 of 1 mutants caught, 0 escaped, 1 not judged here", out)
        self.assertIn("not verifiable here", out)

    def test_a_mutant_not_built_is_named(self):
        # Not a crash inside the grader's program listing: which program is missing, and what to do.
        absent = {MUTANT: [Program(str(BUILD / "no-such-mutant-test-program"), "cpu")]}
        argv = ["check_mutants.py", "--build-dir", str(BUILD), "--lab", MUTANT[0], "--mutant", MUTANT[1]]
        err = io.StringIO()
        with unittest.mock.patch.object(check_mutants, "variant_programs", lambda *args: absent), \
                unittest.mock.patch.object(sys, "argv", argv), contextlib.redirect_stderr(err):
            status = check_mutants.main()
        self.assertEqual(status, 1)
        self.assertIn("not built", err.getvalue())
        self.assertIn("no-such-mutant-test-program", err.getvalue())

    def test_repeat_must_be_positive(self):
        with unittest.mock.patch.object(sys, "argv", ["check_mutants.py", "--build-dir", str(BUILD), "--repeat", "0"]), \
                contextlib.redirect_stderr(io.StringIO()), self.assertRaises(SystemExit) as exit_:
            check_mutants.main()
        self.assertEqual(exit_.exception.code, 2)


if __name__ == "__main__":
    sys.exit(harness.run_with_build_dir(sys.modules[__name__]))
