#!/usr/bin/env python3
"""Bulk grading (tests/grade_bulk.py) of lab 01 on a built tree: the
reference's files, then the untouched skeleton, then a forging submission,
graded in that order. Each must get its own honest score: the skeleton 0
right after the reference (a worker build that kept the previous
submission's objects once scored a skeleton 60), the forger 0.

    python3 -m tests.project.test_grade_bulk --build-dir BUILD
"""
import argparse
import csv
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
from tests.grader import bulk as grade_bulk  # tests/grade_bulk.py's main
from tests.project.test_run_autograder import LAB, SUBMITTED, forging_files


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build-dir", required=True)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bulk-") as tmp:
        root = Path(tmp)
        submissions = {
            "1-reference": {name: (REPO / "solutions" / LAB / name).read_text() for name in SUBMITTED},
            "2-skeleton": {name: (REPO / "labs" / LAB / name).read_text() for name in SUBMITTED},
            "3-forger": forging_files(root / "mutant"),
        }
        for name, files in submissions.items():
            for file, text in files.items():
                (root / "in" / name).mkdir(parents=True, exist_ok=True)
                (root / "in" / name / file).write_text(text)
        (root / "in" / "submission_metadata.yml").write_text("{}\n")  # as in a Gradescope export
        status = grade_bulk.main(["--assignment", LAB, "--submissions", str(root / "in"), "--out", str(root / "out"),
                                  "--build-dir", args.build_dir, "--no-build", "--allow-skips", "--allow-unsandboxed",
                                  "--hidden-graphs", str(REPO / "datasets" / "tiny")])
        with open(root / "out" / "summary.csv") as summary:
            rows = {row["submission"]: row for row in csv.DictReader(summary)}
        problems = []
        if status != 0:
            problems.append(f"grade_bulk.py exited {status}")
        if list(rows) != list(submissions):
            problems.append(f"summary.csv lists {list(rows)}, not {list(submissions)}")
        else:
            reference, skeleton, forger = (rows[name] for name in submissions)
            unsandboxed = reference["status"].startswith("not a grade")  # no bubblewrap here: a score of 0
            if not unsandboxed and (float(reference["score"]) <= 0 or reference["score"] != reference["max_score"]):
                problems.append(f"the reference scored {reference['score']} of {reference['max_score']}")
            if unsandboxed and float(reference["score"]) != 0:
                problems.append(f"an unsandboxed run counted: the reference scored {reference['score']}")
            for row in (skeleton, forger):
                if float(row["score"]) != 0 or float(row["max_score"]) <= 0:
                    problems.append(f"{row['submission']} scored {row['score']} of {row['max_score']}")
        for problem in problems:
            print(f"FAILED: {problem}", file=sys.stderr)
        if problems:
            for name in submissions:
                log = root / "out" / name / "grade.log"
                if log.exists():
                    print(f"--- {name}/grade.log (end)\n{log.read_text()[-3000:]}", file=sys.stderr)
        print("bulk grading OK" if not problems else f"{len(problems)} problems")
        return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
