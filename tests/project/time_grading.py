"""How long grading takes on a GPU machine: seconds to grade one submission per
lab with a warm course build, and submissions per hour on one GPU against
several (docs/results/grading-time.md records the runs).

    python3 -m tests.project.time_grading --build-dir BUILD --lab LAB [--lab LAB ...]
                                          [--copies N] [--gpus all|I,J,...] --out DIR
                                          [--no-build] [grade.py options...]

Each lab's submission is the reference solution's student files (labs/<lab>/
.student-files taken from solutions/<lab>/): a correct submission, so every
graded test, the sanitizer item and the performance item run to the end, as
for a student who did every task. --copies N grades N copies of it (as N
students), through tests/grade_bulk.py with --gpus (one grading per GPU at a
time). The course build is made once first (grade.py --build-only for these
labs), as an instructor's is before a class is graded; --no-build reuses it.

Prints one row per lab: the wall time of the lab's bulk run, the seconds of
each grading (grade_bulk's bulk.json), their median, the score reached, and
submissions per hour at that wall time, then each grading's phases (worker
build, graded tests, performance, compute-sanitizer, from its results.json)
and its slowest graded tests (from its junit.xml: where a phase's time
goes); writes the rows to DIR/times.json.
Exit status 1 when a grading was not clean or did not reach full marks (then
its time is not that of grading a correct submission in full: give the
datasets and --hidden-graphs, on a machine with a GPU).
"""
from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from xml.etree import ElementTree as ET

from tests.grader import lab_data
from tests.grader.intake import editable_files

REPO = Path(__file__).resolve().parents[2]
SLOWEST = 5  # graded items listed per grading


def make_submissions(lab: str, copies: int, where: Path, source: str = "solutions") -> Path:
    """`copies` submissions of lab's student files from `source` (solutions/:
    the reference; labs/: the untouched skeleton) under where/<lab>/."""
    root = where / lab
    shutil.rmtree(root, ignore_errors=True)
    for k in range(1, copies + 1):
        folder = root / f"{source}-{k}"
        folder.mkdir(parents=True)
        for name in sorted(editable_files(lab)):
            shutil.copy2(REPO / source / lab / name, folder / name)
    return root


def time_lab(lab: str, args, passed_on: list[str], source: str = "solutions") -> dict:
    """Grades lab's copies with grade_bulk.py; its row."""
    submissions = make_submissions(lab, args.copies, args.out / "submissions", source)
    out = args.out / "graded" / lab
    shutil.rmtree(out, ignore_errors=True)
    command = [sys.executable, str(REPO / "tests" / "grade_bulk.py"), "--assignment", lab,
               "--submissions", str(submissions), "--out", str(out), "--build-dir", str(args.build_dir),
               "--no-build", *(["--gpus", args.gpus] if args.gpus else []), *passed_on]
    started = time.monotonic()
    status = subprocess.run(command).returncode
    wall = time.monotonic() - started
    records = [json.loads(p.read_text()) for p in sorted(out.glob("*/bulk.json"))]
    seconds = [r["seconds"] for r in records]
    phases = [phase_seconds(p.parent / "results.json", lab) for p in sorted(out.glob("*/bulk.json"))]
    slowest = [slowest_tests(p.parent / "junit.xml") for p in sorted(out.glob("*/bulk.json"))]
    full = [r for r in records if r["status"] == "graded" and r.get("score") is not None
            and r["score"] == r.get("max_score")]
    return {"lab": lab, "copies": args.copies, "gpus": args.gpus or "one at a time", "exit_status": status,
            "wall_s": round(wall, 1), "seconds": seconds, "phases": phases, "slowest": slowest,
            "median_s": round(statistics.median(seconds), 1) if seconds else None,
            "full_marks": f"{len(full)}/{len(records)}",
            "scores": [f"{r.get('score')}/{r.get('max_score')}" for r in records],
            "per_hour": round(3600 * len(records) / wall, 1) if records else None}


def phase_seconds(results_json: Path, lab: str) -> dict:
    """{phase: seconds} of lab's grading, as grade.py recorded it in the
    results (worker build, graded tests, performance, compute-sanitizer)."""
    try:
        return json.loads(results_json.read_text()).get("extra_data", {}).get("seconds", {}).get(lab, {})
    except (OSError, json.JSONDecodeError):
        return {}


def slowest_tests(junit: Path, count: int = SLOWEST) -> list[list]:
    """The `count` longest graded items of a grading, [name, seconds] each,
    longest first, from the JUnit report grade.py wrote ([] without one)."""
    try:
        cases = ET.parse(junit).getroot().iter("testcase")
        timed = [(case.get("name", ""), float(case.get("time", "0"))) for case in cases]
    except (OSError, ET.ParseError, ValueError):
        return []
    return [[name, round(seconds, 1)] for name, seconds in sorted(timed, key=lambda c: -c[1])[:count]]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build-dir", type=Path, required=True, help="the course build (made here unless --no-build)")
    parser.add_argument("--lab", action="append", required=True, choices=list(lab_data.course_labs()))
    parser.add_argument("--copies", type=int, default=1, help="submissions per lab (default 1)")
    parser.add_argument("--gpus", help="grade_bulk.py --gpus: all, or I,J,... (default: one at a time)")
    parser.add_argument("--no-build", action="store_true", help="the course build is already made")
    parser.add_argument("--out", type=Path, required=True, help="where the submissions, reports and times.json go")
    args, passed_on = parser.parse_known_args(argv)
    if args.copies < 1:
        parser.error("--copies needs at least 1")
    args.out = args.out.resolve()
    args.out.mkdir(parents=True, exist_ok=True)
    if not args.no_build:
        built = subprocess.run([sys.executable, str(REPO / "tests" / "grade.py"), "--build-dir", str(args.build_dir),
                                "--build-only", *[a for lab in args.lab for a in ("--lab", lab)]])
        if built.returncode != 0:
            print("time_grading: the course build failed", file=sys.stderr)
            return 2
    rows = []
    for lab in args.lab:
        rows.append(time_lab(lab, args, passed_on))
        (args.out / "times.json").write_text(json.dumps(rows, indent=2) + "\n")
        r = rows[-1]
        print(f"time_grading: {lab}: {r['copies']} submission(s) on {r['gpus']}: wall {r['wall_s']} s, "
              f"each {r['seconds']} s (median {r['median_s']}), full marks {r['full_marks']}, "
              f"{r['per_hour']} per hour", flush=True)
        for k, (phases, slowest) in enumerate(zip(r["phases"], r["slowest"]), 1):
            print(f"time_grading: {lab}: submission {k}: " + ", ".join(f"{n} {s} s" for n, s in phases.items()))
            print(f"time_grading: {lab}: submission {k}: slowest: " + ", ".join(f"{n} {s} s" for n, s in slowest))
    return 0 if all(r["full_marks"] == f"{r['copies']}/{r['copies']}" for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
