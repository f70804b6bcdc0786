#!/usr/bin/env python3
"""tests/project/time_grading.py on a built tree, with lab 01 (no GPU
needed): two copies of the reference graded one after another give two
times, full marks, a rate per hour and each grading's slowest graded tests;
a submission short of full marks (the untouched skeleton) makes the tool
fail, so that a time it prints is always that of grading a correct
submission in full.

    python3 -m tests.project.test_time_grading --build-dir BUILD
"""
import argparse
import json
import sys
import tempfile
import unittest
from pathlib import Path

from tests.grader import lab_data  # each lab's rubric.json
from tests.project import harness  # --build-dir and the unittest run
from tests.project import time_grading

REPO = Path(__file__).resolve().parents[2]
BUILD: Path = Path()  # set by main()
LAB = "lab01_serial"
OPTIONS = ["--allow-skips", "--allow-unsandboxed", "--hidden-graphs", str(REPO / "datasets" / "tiny")]


class TimeGrading(unittest.TestCase):
    def test_two_copies_of_the_reference_give_two_times_and_full_marks(self):
        with tempfile.TemporaryDirectory(prefix="time-grading-") as tmp:
            status = time_grading.main(["--build-dir", str(BUILD), "--no-build", "--lab", LAB, "--copies", "2",
                                        "--out", tmp, *OPTIONS])
            rows = json.loads((Path(tmp) / "times.json").read_text())
        self.assertEqual(status, 0, rows)
        self.assertEqual(len(rows), 1)
        row = rows[0]
        self.assertEqual((row["lab"], row["copies"], row["full_marks"]), (LAB, 2, "2/2"))
        self.assertEqual(len(row["seconds"]), 2)
        self.assertTrue(all(s > 0 for s in row["seconds"]), row)
        self.assertGreater(row["per_hour"], 0)
        self.assertLessEqual(max(row["seconds"]), row["wall_s"], "one grading cannot outlast the whole run")
        self.assertEqual(len(row["phases"]), 2, row)
        for phases, seconds in zip(row["phases"], row["seconds"]):
            self.assertIn("graded tests", phases, row)
            self.assertLessEqual(sum(phases.values()), seconds, "the phases are parts of one grading")
        graded = set(lab_data.load_rubric()[LAB]["tests"])
        for slowest, seconds in zip(row["slowest"], row["seconds"]):
            self.assertEqual(len(slowest), time_grading.SLOWEST, row)
            self.assertTrue(all(name in graded or name.startswith(f"{LAB}: ") for name, _ in slowest), slowest)
            times = [s for _, s in slowest]
            self.assertEqual(times, sorted(times, reverse=True), "longest first")
            self.assertLessEqual(times[0], seconds, "one test cannot outlast its grading")

    def test_a_grading_short_of_full_marks_fails_the_tool(self):
        with tempfile.TemporaryDirectory(prefix="time-grading-") as tmp:
            args = argparse.Namespace(build_dir=BUILD, copies=1, gpus=None, out=Path(tmp))
            row = time_grading.time_lab(LAB, args, OPTIONS, source="labs")
        self.assertEqual(row["full_marks"], "0/1", row)
        score, maximum = row["scores"][0].split("/")
        self.assertLess(float(score), float(maximum), row)


if __name__ == "__main__":
    sys.exit(harness.run_with_build_dir(sys.modules[__name__]))
