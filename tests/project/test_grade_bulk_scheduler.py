#!/usr/bin/env python3
"""grade_bulk.py's scheduling over the GPUs of a host (issue 47), with a
stand-in grader (fake_grade.py) that records its GPU, work directory and
times: no two submissions on one GPU or in one work directory at once, every
GPU used, a grader's crash recorded as that student's error while the rest
are graded, resumed reruns (done ones skipped, changed ones regraded), GPU
discovery, and the Slurm task's missing-report reasons. Needs no build and
no GPU.

    python3 -m tests.project.test_grade_bulk_scheduler
"""
import contextlib
import csv
import io
import json
import os
import shutil
import sys
import tempfile
import unittest
from pathlib import Path
from unittest import mock

REPO = Path(__file__).resolve().parents[2]
from tests.grader import bulk as grade_bulk  # tests/grade_bulk.py's main
from tests.grader import slurm

FAKE = [sys.executable, str(Path(__file__).resolve().parent / "fake_grade.py")]


def overlaps(spans: list[tuple[float, float]]) -> bool:
    """Whether any two (start, end) spans overlap."""
    ordered = sorted(spans)
    return any(later[0] < earlier[1] for earlier, later in zip(ordered, ordered[1:]))


class BulkOnGpus(unittest.TestCase):
    def setUp(self) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="bulk-sched-"))
        self.addCleanup(shutil.rmtree, self.root, ignore_errors=True)
        self.log = self.root / "fake.log"
        environ = mock.patch.dict(os.environ, {"FAKE_GRADE_LOG": str(self.log)})
        environ.start()
        self.addCleanup(environ.stop)
        os.environ.pop("CUDA_VISIBLE_DEVICES", None)

    def submission(self, name: str, **files: str) -> None:
        folder = self.root / "in" / name
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "dijkstra.cpp").write_text(f"// {name}\n")
        for file, text in files.items():
            (folder / file.replace("_", "-")).write_text(text)

    def grade(self, *options: str) -> tuple[int, str, dict[str, dict], list[dict]]:
        """Runs grade_bulk.main; its status, output, summary rows and the fake's log lines of this run."""
        self.log.write_text("")
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            status = grade_bulk.main(["--assignment", "lab01_serial", "--submissions", str(self.root / "in"),
                                      "--out", str(self.root / "out"), *options], grader=FAKE)
        with open(self.root / "out" / "summary.csv") as summary:
            rows = {row["submission"]: row for row in csv.DictReader(summary)}
        runs = [json.loads(line) for line in self.log.read_text().splitlines()]
        return status, printed.getvalue(), rows, runs

    def test_one_per_gpu_all_used_crash_recorded_then_resumed(self) -> None:
        for number in range(8):
            self.submission(f"s{number}", sleep="0.4", score=str(number))
        self.submission("s3", crash="")
        status, printed, rows, runs = self.grade("--gpus", "0,1,2", "--allow-skips")
        self.assertEqual(status, 1, "a crashed grading must make the exit status 1")
        builds = [run for run in runs if run["submission"] is None]
        graded = [run for run in runs if run["submission"] is not None]
        self.assertEqual(len(builds), 1, "the course's build must be built once, before any grading")
        self.assertIn("--build-only", builds[0]["argv"])
        self.assertEqual(sorted(run["submission"] for run in graded), [f"s{n}" for n in range(8)])
        self.assertFalse(any(run.get("shared_work_dir") for run in graded), "two runs shared a work directory")
        for run in graded:
            self.assertIn("--no-build", run["argv"])
            self.assertIn("--allow-skips", run["argv"])
        by_gpu: dict[str, list] = {}
        by_work: dict[str, list] = {}
        for run in graded:
            by_gpu.setdefault(run["gpu"], []).append((run["start"], run["end"]))
            by_work.setdefault(run["work_dir"], []).append((run["start"], run["end"]))
        self.assertEqual(sorted(by_gpu), ["0", "1", "2"], "every GPU must be used, and only those named")
        for gpu, spans in by_gpu.items():
            self.assertFalse(overlaps(spans), f"two submissions graded on GPU {gpu} at once")
        for work, spans in by_work.items():
            self.assertFalse(overlaps(spans), f"two submissions graded in {work} at once")
        self.assertEqual(len(by_work), 3, "one work directory per GPU")
        # The work was spread: 8 runs of 0.4 s on 3 GPUs take 3 rounds, not 8.
        first = min(run["start"] for run in graded)
        last = max(run["end"] for run in graded)
        self.assertLess(last - first, 8 * 0.4, "the GPUs did not grade side by side")

        self.assertEqual(rows["s3"]["status"], "error")
        self.assertEqual(rows["s3"]["exit_status"], "-9")
        self.assertIn("signal 9", rows["s3"]["note"])
        for number in (0, 1, 2, 4, 5, 6, 7):
            row = rows[f"s{number}"]
            self.assertEqual((row["status"], row["score"], row["max_score"]), ("graded", str(number), "10"))
            self.assertIn(row["gpu"], ("0", "1", "2"))
            record = json.loads((self.root / "out" / f"s{number}" / "bulk.json").read_text())
            self.assertEqual(record["gpu"], row["gpu"], "each report must name the GPU that graded it")
            self.assertIn(f"GPU {row['gpu']}", (self.root / "out" / f"s{number}" / "grade.log").read_text())
        progress = [line for line in printed.splitlines() if line.startswith("[")]
        self.assertEqual(len(progress), 8, "a progress line per finished submission")
        self.assertTrue(all("ETA" in line and "left" in line for line in progress), progress)
        self.assertIn("[8/8]", progress[-1])

        # Resumed: s3 fixed, s5 changed; the others are kept as graded.
        (self.root / "in" / "s3" / "crash").unlink()
        (self.root / "in" / "s5" / "score").write_text("9")
        status, printed, rows, runs = self.grade("--gpus", "0,1,2", "--allow-skips")
        self.assertEqual(status, 0)
        self.assertEqual(sorted(run["submission"] for run in runs if run["submission"]), ["s3", "s5"],
                         "a rerun grades only what has no clean grade of its current files")
        self.assertEqual((rows["s3"]["status"], rows["s5"]["score"], rows["s0"]["score"]), ("graded", "9", "0"))
        self.assertIn("6 of 8 already graded", printed)

        # Nothing left: no build, no grading, the same summary.
        status, _, rows, runs = self.grade("--gpus", "0,1,2", "--allow-skips")
        self.assertEqual((status, runs, len(rows)), (0, [], 8))
        # Other grading options are another grading.
        status, _, rows, runs = self.grade("--gpus", "0,1,2", "--allow-skips", "--timeout", "30")
        self.assertEqual(len([run for run in runs if run["submission"]]), 8)

    def test_without_gpus_one_at_a_time_environment_untouched(self) -> None:
        for number in range(3):
            self.submission(f"s{number}", sleep="0.1")
        status, _, rows, runs = self.grade("--no-build")
        self.assertEqual(status, 0)
        self.assertEqual([run["gpu"] for run in runs], [None] * 3, "without --gpus, no GPU is chosen")
        self.assertFalse(overlaps([(run["start"], run["end"]) for run in runs]))
        self.assertEqual({row["status"] for row in rows.values()}, {"graded"})

    def test_grader_that_cannot_start_is_an_error_each(self) -> None:
        self.submission("s0")
        self.root.joinpath("out").mkdir()
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            status = grade_bulk.main(["--assignment", "lab01_serial", "--submissions", str(self.root / "in"),
                                      "--out", str(self.root / "out"), "--no-build"],
                                     grader=[str(self.root / "no-such-grader")])
        self.assertEqual(status, 1)
        record = json.loads((self.root / "out" / "s0" / "bulk.json").read_text())
        self.assertEqual(record["status"], "error")
        self.assertIn("could not start", record["note"])

    def test_gpu_discovery(self) -> None:
        uuids = {"0": "GPU-a", "GPU-a": "GPU-a", "1": "GPU-b", "GPU-b": "GPU-b"}
        self.assertEqual(grade_bulk.discover_gpus(None, {}, uuids), [None])
        self.assertEqual(grade_bulk.discover_gpus("all", {}, uuids),
                         [grade_bulk.Gpu("0", "GPU-a"), grade_bulk.Gpu("1", "GPU-b")])
        self.assertEqual(grade_bulk.discover_gpus("all", {}, {}), [None], "no GPU: the current behaviour")
        visible = {"CUDA_VISIBLE_DEVICES": "1,GPU-a"}
        self.assertEqual(grade_bulk.discover_gpus("all", visible, uuids),
                         [grade_bulk.Gpu("1", "GPU-b"), grade_bulk.Gpu("GPU-a", "GPU-a")])
        self.assertEqual(grade_bulk.discover_gpus("1", visible, uuids), [grade_bulk.Gpu("GPU-a", "GPU-a")],
                         "--gpus indices are positions in CUDA_VISIBLE_DEVICES where it is set")
        with self.assertRaises(ValueError):
            grade_bulk.discover_gpus("2", visible, uuids)
        with self.assertRaises(ValueError):
            grade_bulk.discover_gpus("0,0", {}, uuids)

    def test_options_it_sets_are_refused(self) -> None:
        self.submission("s0")
        for option in ("--work-dir=x", "--results-json", "--lab"):
            with self.assertRaises(SystemExit), contextlib.redirect_stderr(io.StringIO()):
                grade_bulk.main(["--assignment", "lab01_serial", "--submissions", str(self.root / "in"),
                                 "--out", str(self.root / "out"), option, "x"], grader=FAKE)


class SlurmReasons(unittest.TestCase):
    """Why a Slurm task ended without a report, from its log where sacct has nothing."""

    def test_reasons_from_the_log(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            log = Path(tmp) / "task.log"
            with mock.patch.object(slurm.subprocess, "run", side_effect=OSError("no sacct")):
                log.write_text("slurmstepd: error: *** JOB 12 ON n1 CANCELLED AT 2026-01-01T00:00:00 DUE TO TIME "
                               "LIMIT ***\n")
                self.assertTrue(slurm.why_ended("11", 1, log).startswith("timed out"))
                log.write_text("slurmstepd: error: *** JOB 12 ON n1 CANCELLED AT 2026-01-01T00:00:00 ***\n")
                self.assertTrue(slurm.why_ended("11", 1, log).startswith("cancelled"))
                log.unlink()
                self.assertIn("ended without a report", slurm.why_ended("11", 1, log))


if __name__ == "__main__":
    unittest.main()
