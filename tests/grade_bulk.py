#!/usr/bin/env python3
"""Grade many submissions of one assignment, one after another, as
tests/grade.py --submission grades one: each submission's code compiled and
run in a fresh sandbox, from the course's pristine worker build (nothing one
submission compiled or left is seen by the next), its results written apart.

    python3 tests/grade_bulk.py --assignment lab01_serial --submissions DIR --out DIR
                                [--hidden-graphs DIR] [--build-dir BUILD] [grade.py options...]

DIR holds one directory per submission (a Gradescope export, or one folder
per student); files at its top level (submission_metadata.yml) are skipped.
For each submission NAME, OUT/NAME/ gets results.json, junit.xml and
grade.log; OUT/summary.csv lists every submission's score, maximum and
status ("graded", "incomplete" or "error" with grade.py's exit status).
Further options are passed to grade.py (e.g. --allow-skips, --timeout).

Exit status: 0 when every submission was graded, 1 when any was not
(see its grade.log), 2 on bad arguments.
"""
from __future__ import annotations

import argparse
import csv
import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def score_of(results: Path) -> tuple[float, float, bool]:
    """The score and maximum a results.json adds up to (Gradescope totals its
    tests, or takes its top-level score where there is one), and whether it
    is a grade (a run without the sandbox is not: reports.py)."""
    try:
        report = json.loads(results.read_text())
        tests = report.get("tests", [])
    except (OSError, ValueError, AttributeError):
        return 0.0, 0.0, False
    maximum = sum(t.get("max_score", 0) for t in tests)
    score = report.get("score", sum(t.get("score", 0) for t in tests))
    return score, maximum, not report.get("extra_data", {}).get("not_a_grade", False)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--assignment", required=True, help="the lab graded, e.g. lab02_frontier")
    parser.add_argument("--submissions", required=True, type=Path, help="a directory of submission directories")
    parser.add_argument("--out", required=True, type=Path, help="where each submission's reports go")
    parser.add_argument("--build-dir", default=str(REPO / "build"), help="the course build (default: build)")
    args, passed_on = parser.parse_known_args(argv)
    if not args.submissions.is_dir():
        parser.error(f"--submissions: {args.submissions} is not a directory")
    submissions = sorted(p for p in args.submissions.iterdir() if p.is_dir() and not p.is_symlink())
    if not submissions:
        parser.error(f"--submissions: {args.submissions} holds no submission directory")
    names = [p.name for p in submissions]
    args.out.mkdir(parents=True, exist_ok=True)
    rows, failed = [], 0
    for number, submission in enumerate(submissions, 1):
        out = args.out / submission.name
        out.mkdir(parents=True, exist_ok=True)
        (out / "results.json").unlink(missing_ok=True)
        command = [sys.executable, str(REPO / "tests" / "grade.py"), "--build-dir", args.build_dir,
                   "--submission", str(submission), "--lab", args.assignment,
                   "--results-json", str(out / "results.json"), "--junit", str(out / "junit.xml"), *passed_on]
        with open(out / "grade.log", "w") as log:
            status = subprocess.run(command, stdout=log, stderr=subprocess.STDOUT).returncode
        score, maximum, a_grade = score_of(out / "results.json")
        state = "graded" if status == 0 else ("incomplete" if (out / "results.json").exists() else "error")
        if status == 0 and not a_grade:
            state = "not a grade (no sandbox)"
        failed += status != 0
        rows.append({"submission": submission.name, "score": f"{score:g}", "max_score": f"{maximum:g}",
                     "status": state, "exit_status": status})
        print(f"[{number}/{len(names)}] {submission.name}: {score:g} / {maximum:g} ({state})", flush=True)
    with open(args.out / "summary.csv", "w", newline="") as summary:
        writer = csv.DictWriter(summary, fieldnames=list(rows[0]), quoting=csv.QUOTE_MINIMAL)
        writer.writeheader()
        writer.writerows(rows)
    print(f"summary: {args.out / 'summary.csv'}" + (f"; {failed} not graded cleanly (see their grade.log)"
                                                     if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
