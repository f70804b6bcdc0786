#!/usr/bin/env python3
"""Grades attack submissions and requires each to score 0.

Each file of tests/project/attacks/ is an attack a dishonest student could
put in a submission (its first comment says what it tries): forging the
test report, rewriting it at exit, a GoogleTest listener, calling or
replacing the course's reference solver, #including a solution or a hidden
graph, reading secrets, leaving a process behind, editing the course's
files, spinning, exiting early, printing pass lines, killing processes,
faking the clock, #including the course's reference by a relative or
absolute path. For a lab, each attack is appended to the lab's first
source file a student edits (the skeleton's, so the honest share is 0), or,
when its first line is `// @REPLACES@ FILE`, is the whole of FILE (a
submission that would earn points if the attack worked; lab 01's files: on
another lab it is not applicable, and said so); each is graded
with tests/grade.py --submission through the isolated path. Passes when
every attack scores exactly 0, the reports show none of the secrets (a
solution's code, a hidden graph's text, an environment variable of the
grader) and say what each `// @REPORT-SAYS@ TEXT` line of the attack asks,
no hidden-graph test's report holds the TEXT of a `// @HIDDEN-REPORT-LACKS@`
line, no process it started is left, and the course's files are as they were.

    python3 -m tests.project.test_attacks --build-dir BUILD --lab LAB [--attack NAME ...] [--timeout S]

Needs a built BUILD (the lab's isolated test programs) and bubblewrap:
without a sandbox it exits 77 (skipped), saying why.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import secrets
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
ATTACKS = REPO / "tests" / "project" / "attacks"
HIDDEN = REPO / "datasets" / "tiny"
HIDDEN_MARKER = "Introduction to Algorithms"  # text of datasets/tiny/clrs_dijkstra.gr, never printed by a test
from tests.grader import sandbox  # how a worker is started and confined


def tree_digest() -> str:
    """A digest of every file of the course the grader's user could change."""
    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "common", "labs", "solutions", "tests"],
                            cwd=REPO, capture_output=True, text=True, check=True).stdout.split()
    digest = hashlib.sha256()
    for name in sorted(listed):
        path = REPO / name
        digest.update(name.encode() + (path.read_bytes() if path.is_file() else b"-"))
    return digest.hexdigest()


def survivors() -> list[str]:
    found = []
    for comm in Path("/proc").glob("[0-9]*/comm"):
        try:
            if comm.read_text().strip() == "sssp-survivor":
                found.append(comm.parent.name)
        except OSError:
            pass
    return found


def solution_marker(lab: str, name: str) -> str:
    """A line of the solution's task code, which the skeleton does not have."""
    text = (REPO / "solutions" / lab / name).read_text()
    region = re.search(r"// BEGIN SOLUTION task.*?\n(.*?)// END SOLUTION", text, re.S)
    lines = [line.strip() for line in (region.group(1) if region else "").splitlines()
             if len(line.strip()) > 25 and not line.strip().startswith("//")]
    return lines[0] if lines else ""


def graded_tests(report: str) -> list[dict]:
    """The tests of a results.json's text (none when it is not one)."""
    try:
        return list(json.loads(report)["tests"])
    except (ValueError, KeyError, TypeError):
        return []


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build-dir", required=True)
    parser.add_argument("--lab", required=True)
    parser.add_argument("--attack", action="append", help="only this attack (file stem; repeatable)")
    parser.add_argument("--timeout", type=float, default=3.0, help="seconds per test (a spinning attack costs it)")
    args = parser.parse_args(argv)
    isolation = sandbox.detect()
    if not isolation.sandboxed:
        print(f"skipped: no sandbox here ({isolation.why})")
        return 77
    student_files = (REPO / "labs" / args.lab / ".student-files").read_text().split()
    files = [line for line in student_files if line.endswith((".cpp", ".cu"))]
    target = files[0]
    skeleton = (REPO / "labs" / args.lab / target).read_text()
    marker = solution_marker(args.lab, target)
    attacks = sorted(p for p in ATTACKS.glob("*.cpp") if not args.attack or p.stem in args.attack)
    secret = secrets.token_hex(16)
    env = dict(os.environ, SSSP_GRADER_SECRET=secret)
    before = tree_digest()
    passed = failed = 0
    stage = Path(args.build_dir).resolve() / "isolation" / "src"  # tests/grader/build.py, WORKER_BUILD
    with tempfile.TemporaryDirectory(prefix="sssp-attacks-") as work:
        for attack in attacks:
            code = (attack.read_text().replace("@REPO@", str(REPO)).replace("@HIDDEN@", str(HIDDEN))
                    .replace("@LAB@", args.lab).replace("@FILE@", target).replace("@STAGE@", str(stage)))
            submission = Path(work) / attack.stem / "submission"
            submission.mkdir(parents=True)
            replaced = re.match(r"// @REPLACES@ (\S+)\n", code)
            if replaced and replaced.group(1) not in student_files:
                print(f"n/a    {args.lab}: {attack.stem} (replaces {replaced.group(1)}, not a file of this lab)")
                continue
            if replaced:
                (submission / replaced.group(1)).write_text(code)
            else:
                (submission / target).write_text(f"{skeleton}\n// ---- attack: {attack.stem} ----\n{code}")
            results = Path(work) / attack.stem / "results.json"
            graded = subprocess.run(
                [sys.executable, str(REPO / "tests" / "grade.py"), "--build-dir", args.build_dir, "--no-build",
                 "--submission", str(submission), "--lab", args.lab, "--results-json", str(results),
                 "--hidden-graphs", str(HIDDEN), "--allow-skips", "--no-sanitize", "--no-perf",
                 "--timeout", str(args.timeout), "--show-failures", "0"], env=env, capture_output=True, text=True, errors="replace", timeout=1800)
            problems = []
            report = results.read_text(errors="replace") if results.exists() else ""
            if graded.returncode != 0:
                problems.append(f"grade.py exited with status {graded.returncode}: {graded.stderr.strip()[-800:]}")
            try:
                tests = json.loads(report)["tests"]
                score = sum(t["score"] for t in tests)
                if score != 0 or not tests:
                    problems.append(f"scored {score:g} of {sum(t['max_score'] for t in tests):g}")
            except (ValueError, KeyError):
                problems.append("results.json is missing or was rewritten")
            shown = report + graded.stdout
            for said in re.findall(r"^// @REPORT-SAYS@ (.+)$", code, re.M):
                if said not in report:
                    problems.append(f"the report does not say: {said}")
            for lacked in re.findall(r"^// @HIDDEN-REPORT-LACKS@ (.+)$", code, re.M):
                hidden = [t["name"] for t in graded_tests(report)
                          if ".HiddenGraphs" in t["name"] and lacked in t.get("output", "")]
                if hidden:
                    problems.append(f"the report of {', '.join(hidden)} shows {lacked}")
            for what, text in (("the grader's environment", secret), ("a hidden graph", HIDDEN_MARKER),
                               ("the solution's code", marker)):
                if text and text in shown:
                    problems.append(f"the report shows {what}")
            if survivors():
                problems.append(f"processes left running: {', '.join(survivors())}")
            if tree_digest() != before:
                problems.append("the course's files changed")
            print(f"{'ok    ' if not problems else 'FAILED'} {args.lab}: {attack.stem}"
                  + "".join(f"\n    {p}" for p in problems), flush=True)
            passed, failed = passed + (not problems), failed + bool(problems)
    print(f"{isolation.describe()}\n{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
