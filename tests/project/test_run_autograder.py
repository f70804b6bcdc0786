#!/usr/bin/env python3
"""The instructor's Gradescope example, end to end (tests/run_autograder), on
lab 01 (a CPU lab, so it runs anywhere): the course unpacked as the
autograder's source, then three submissions graded one after another as
Gradescope would, each from its own submission directory:

- the reference files of the lab's tasks: every graded test that ran passes;
- the untouched skeleton files: 0 points;
- a forging submission (the lab's forges_test_results mutant, moved into the
  files a student submits): 0 points, however it reports itself.

    test_run_autograder.py [--keep DIR]

Slow-ish (one configure and three builds of lab 01's graded tests).
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tests"))
from grading.intake import editable_files  # noqa: E402  (tests/grading/intake.py: what a submission may hold)

LAB = "lab01_serial"
SUBMITTED = tuple(sorted(editable_files(LAB)))  # the lab's files with tasks
ROOT: Path = Path()  # set by main()


def forging_files(out: Path) -> dict[str, str]:
    """The forges_test_results mutant's task files, each carrying the forging
    helper the mutant puts in lab01.hpp (a header a submission cannot replace)."""
    subprocess.run([sys.executable, str(REPO / "tests/project/make_mutant.py"), LAB, "forges_test_results",
                    str(REPO / "solutions" / LAB), str(out)], check=True, capture_output=True)
    header = (out / "lab01.hpp").read_text()
    helper = re.search(r"^inline void forge_result\(.*?^}\n", header, re.M | re.S).group(0)
    prelude = f"#include <cstdio>\n#include <cstdlib>\n#include \"lab01.hpp\"\nnamespace lab01 {{\n{helper}}}\n"
    return {name: prelude + (out / name).read_text() for name in SUBMITTED}


def grade(files: dict[str, str]) -> tuple[int, list[dict], str]:
    """Runs run_autograder on a submission of files; its status, results.json's tests, its output."""
    submission = ROOT / "submission"
    shutil.rmtree(submission, ignore_errors=True)
    (ROOT / "results").mkdir(exist_ok=True)
    (ROOT / "results" / "results.json").unlink(missing_ok=True)
    for name, text in files.items():
        (submission / "labs" / LAB).mkdir(parents=True, exist_ok=True)
        (submission / "labs" / LAB / name).write_text(text)
    env = dict(os.environ, AUTOGRADER_ROOT=str(ROOT), HIDDEN_GRAPHS=str(REPO / "datasets" / "tiny"), ALLOW_SKIPS="1",
               ASSIGNMENT=LAB)
    proc = subprocess.run(["bash", str(ROOT / "source" / "tests" / "run_autograder")], env=env,
                          capture_output=True, text=True, timeout=1200)
    report = ROOT / "results" / "results.json"
    if not report.exists():
        raise AssertionError(f"run_autograder (exit {proc.returncode}) wrote no results.json:\n"
                             + (proc.stdout + proc.stderr)[-3000:])
    results = json.loads(report.read_text())
    return proc.returncode, results.get("tests", []), proc.stdout + proc.stderr


class RunAutograder(unittest.TestCase):
    def check_graded(self, status: int, tests: list[dict], output: str) -> None:
        self.assertEqual(status, 0, output[-3000:])
        self.assertTrue(tests, "results.json lists no test")
        self.assertEqual({t["name"].split(": ")[0] for t in tests}, {LAB}, "only the submitted lab is graded")
        # A submission that did not compile would score 0 for no reason this test is about.
        self.assertEqual([t["output"][:2000] for t in tests if t["name"].endswith(": compilation")], [],
                         "the submission did not compile")

    def test_reference_files_score_every_test_that_ran(self):
        status, tests, output = grade({name: (REPO / "solutions" / LAB / name).read_text() for name in SUBMITTED})
        self.check_graded(status, tests, output)
        short = [f"{t['name']}: {t['score']} of {t['max_score']}" for t in tests if t["score"] != t["max_score"]]
        self.assertEqual(short, [], "the reference lost points")
        self.assertGreater(sum(t["score"] for t in tests), 0)

    def test_untouched_skeleton_scores_zero(self):
        status, tests, output = grade({name: (REPO / "labs" / LAB / name).read_text() for name in SUBMITTED})
        self.check_graded(status, tests, output)
        self.assertEqual([t["name"] for t in tests if t["score"] > 0], [], "the skeleton scored")

    def test_forging_submission_scores_zero(self):
        with tempfile.TemporaryDirectory() as tmp:
            files = forging_files(Path(tmp))
        status, tests, output = grade(files)
        self.check_graded(status, tests, output)
        self.assertEqual([t["name"] for t in tests if t["score"] > 0], [], "a forged result was believed")
        # The forging code runs in the worker, so its early exit is a worker that
        # died in the middle of a call, which the test program reports.
        self.assertTrue(any("in the middle of a call" in t.get("output", "") for t in tests),
                        "the forging code never ran: this submission proves nothing")


def main() -> int:
    global ROOT
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", type=Path, help="lay the autograder out here and keep it (default: a temporary dir)")
    args, rest = parser.parse_known_args()
    with tempfile.TemporaryDirectory(prefix="autograder-") as tmp:
        ROOT = args.keep.resolve() if args.keep else Path(tmp)
        # The course as an instructor unpacks it: its tracked files, solutions included.
        tracked = subprocess.run(["git", "-C", str(REPO), "ls-files", "-z"], check=True, capture_output=True,
                                 text=True).stdout.split("\0")
        for path in (p for p in tracked if p and (REPO / p).is_file()):
            (ROOT / "source" / path).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / path, ROOT / "source" / path)
        result = unittest.main(argv=[sys.argv[0], *rest], exit=False, verbosity=2).result
    return 0 if result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())
