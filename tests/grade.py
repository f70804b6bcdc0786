#!/usr/bin/env python3
"""Build the labs and grade them: run every graded test, print a score table,
and write Gradescope results.json and JUnit XML.

    python3 tests/grade.py                    build in ./build, grade your labs/
    python3 tests/grade.py --lab lab01_serial grade one lab
    python3 tests/grade.py --hidden-graphs DIR   instructors: add hidden graphs
    python3 tests/grade.py --flavour solution    grade the reference solutions

Each test runs in its own process with a timeout, so a crash or an endless
loop costs that test only. Points and visibility come from tests/rubric.json.
A test that skips (no GPU, no dataset, no hidden graphs) counts toward neither
the score nor the maximum, and the table says why it was skipped.

Exit status: 0 when grading completed (whatever the score); 2 when it could
not (build failed, rubric and tests disagree). With --expect zero or
--expect full (used by the project's own tests), 1 when the result differs.
"""
from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
RUBRIC = REPO / "tests" / "rubric.json"
OUTPUT_LIMIT = 4000  # characters of a failing test's output kept in reports


class GradingError(Exception):
    """Grading cannot go on (build failure, inconsistent rubric)."""


@dataclass
class Result:
    lab: str
    name: str
    points: float
    visibility: str
    status: str = "not run"  # passed | failed | timeout | skipped
    output: str = ""
    seconds: float = 0.0

    @property
    def counted(self) -> bool:
        return self.status != "skipped"

    @property
    def score(self) -> float:
        return self.points if self.status == "passed" else 0.0


@dataclass
class LabReport:
    lab: str
    title: str
    results: list[Result] = field(default_factory=list)
    note: str = ""


def run_build(build_dir: Path, data_dir: str | None) -> None:
    configure = ["cmake", "-S", str(REPO), "-B", str(build_dir)]
    if shutil.which("ninja") and not (build_dir / "CMakeCache.txt").exists():
        configure += ["-G", "Ninja"]
    if data_dir is not None:
        configure.append(f"-DSSSP_DATA_DIR={data_dir}")
    for command in (configure, ["cmake", "--build", str(build_dir)]):
        print("+", " ".join(command), flush=True)
        if subprocess.run(command).returncode != 0:
            raise GradingError("the build failed (see the compiler output above); "
                               "fix compile errors first: a lab that does not build scores 0")


def list_tests(executable: str) -> list[str]:
    listing = subprocess.run([executable, "--gtest_list_tests"], capture_output=True, text=True,
                             timeout=60)
    if listing.returncode != 0:
        raise GradingError(f"{executable} --gtest_list_tests failed:\n{listing.stderr}")
    names, suite = [], ""
    for line in listing.stdout.splitlines():
        if not line.strip():
            continue
        if not line.startswith(" "):
            suite = line.split("#")[0].strip()
        else:
            names.append(suite + line.split("#")[0].strip())
    return names


def test_body(output: str) -> list[str]:
    """The lines a test printed between its RUN and its verdict line."""
    lines = output.splitlines()
    start = next((i + 1 for i, l in enumerate(lines) if l.startswith("[ RUN      ]")), 0)
    end = next((i for i in range(start, len(lines))
                if lines[i].startswith(("[  FAILED  ]", "[  SKIPPED ]", "[       OK ]"))), len(lines))
    return lines[start:end]


def failure_text(output: str) -> str:
    """The part of a test's output that explains the failure."""
    text = "\n".join(test_body(output)).strip() or output.strip()
    return text if len(text) <= OUTPUT_LIMIT else text[:OUTPUT_LIMIT] + "\n... (output cut)"


def skip_reason(output: str) -> str:
    """The message a test gave to GTEST_SKIP, without gtest's location line."""
    body = [l for l in test_body(output) if not l.endswith(": Skipped")]
    return " ".join(l.strip() for l in body if l.strip()) or "skipped"


def run_one(executable: str, result: Result, timeout: float, env: dict[str, str]) -> Result:
    import time
    start = time.monotonic()
    try:
        proc = subprocess.run([executable, f"--gtest_filter={result.name}", "--gtest_color=no"],
                              capture_output=True, text=True, timeout=timeout, env=env)
        output = proc.stdout + proc.stderr
        if "[  SKIPPED ]" in output and proc.returncode == 0:
            result.status = "skipped"
            result.output = skip_reason(output)
        elif proc.returncode == 0 and "[  PASSED  ] 1 test" in output:
            result.status = "passed"
        else:
            result.status = "failed"
            result.output = failure_text(output) or f"the test process exited with status {proc.returncode}"
            if proc.returncode < 0:
                result.output += f"\n(the test crashed with signal {-proc.returncode})"
    except subprocess.TimeoutExpired:
        result.status = "timeout"
        result.output = (f"the test did not finish within {timeout:g} s: look for an endless loop "
                         "(a frontier or flag that never empties, a heap that never shrinks)")
    result.seconds = time.monotonic() - start
    return result


def grade(args: argparse.Namespace) -> list[LabReport]:
    build_dir = Path(args.build_dir).resolve()
    if not args.no_build:
        run_build(build_dir, args.data_dir)
    manifest_path = build_dir / "graded_tests.json"
    if not manifest_path.exists():
        raise GradingError(f"{manifest_path} is missing: build the project first (or drop --no-build)")
    manifest = json.loads(manifest_path.read_text())
    rubric = json.loads(RUBRIC.read_text())
    labs = args.lab or [lab for lab in rubric if not lab.startswith("_")]

    env = dict(os.environ)
    data_dir = args.data_dir if args.data_dir is not None else manifest.get("data_dir", "")
    env["SSSP_DATA_DIR"] = str(Path(data_dir).resolve()) if data_dir else ""
    if args.hidden_graphs:
        env["SSSP_HIDDEN_GRAPHS"] = str(Path(args.hidden_graphs).resolve())

    reports = []
    for lab in labs:
        if lab not in rubric:
            raise GradingError(f"unknown lab '{lab}'; the rubric has: {', '.join(k for k in rubric if not k.startswith('_'))}")
        entries = rubric[lab]["tests"]
        report = LabReport(lab, rubric[lab].get("title", lab))
        report.results = [Result(lab, name, float(e["points"]), e.get("visibility", "visible"))
                          for name, e in entries.items()]
        executables = [e for e in manifest["executables"]
                       if e["lab"] == lab and e["flavour"] == args.flavour]
        if not executables:
            reason = (f"GPU lab not built: {manifest['cuda_disabled_reason']}"
                      if manifest["labs"].get(lab) == "GPU" and not manifest["cuda_built"]
                      else "no test executable was built for this lab")
            for r in report.results:
                r.status, r.output = "skipped", reason
            report.note = reason
            reports.append(report)
            continue
        by_name = {r.name: r for r in report.results}
        jobs = []
        for exe in executables:
            for name in list_tests(exe["path"]):
                if name not in by_name:
                    raise GradingError(f"{lab}: test {name} is not in tests/rubric.json: give it points")
                jobs.append((exe["path"], by_name.pop(name), exe["kind"]))
        if by_name:
            raise GradingError(f"{lab}: tests/rubric.json lists tests that do not exist: {', '.join(by_name)}")
        cpu_jobs = [j for j in jobs if j[2] != "gpu"]
        gpu_jobs = [j for j in jobs if j[2] == "gpu"]  # one at a time: they share the GPU
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, os.cpu_count() or 1)) as pool:
            list(pool.map(lambda j: run_one(j[0], j[1], args.timeout, env), cpu_jobs))
        for exe, result, _ in gpu_jobs:
            run_one(exe, result, args.timeout, env)
        reports.append(report)
    return reports


def print_table(reports: list[LabReport]) -> tuple[float, float]:
    total_score = total_max = 0.0
    width = max([len(r.title) for r in reports] + [10])
    print()
    print(f"{'lab':<{width}}  passed  failed  skipped     score")
    for report in reports:
        counted = [r for r in report.results if r.counted]
        score, maximum = sum(r.score for r in counted), sum(r.points for r in counted)
        total_score, total_max = total_score + score, total_max + maximum
        passed = sum(r.status == "passed" for r in report.results)
        failed = sum(r.status in ("failed", "timeout") for r in report.results)
        skipped = sum(r.status == "skipped" for r in report.results)
        print(f"{report.title:<{width}}  {passed:>6}  {failed:>6}  {skipped:>7}  {score:>4g} / {maximum:g}")
    print(f"{'total':<{width}}  {'':>6}  {'':>6}  {'':>7}  {total_score:>4g} / {total_max:g}")
    skipped_reasons: dict[str, list[str]] = {}
    for report in reports:
        for r in report.results:
            if r.status == "skipped":
                skipped_reasons.setdefault(r.output, []).append(f"{r.lab}: {r.name}")
    for reason, names in skipped_reasons.items():
        print(f"\nskipped ({len(names)} test{'s' if len(names) != 1 else ''}, not counted): {reason}")
    return total_score, total_max


def print_failures(reports: list[LabReport], limit: int) -> None:
    failures = [r for report in reports for r in report.results if r.status in ("failed", "timeout")]
    for r in failures[:limit]:
        print(f"\n--- FAILED {r.lab}: {r.name} ({r.points:g} points)\n{r.output}")
    if len(failures) > limit:
        print(f"\n... and {len(failures) - limit} more failing tests (see the JUnit or JSON report)")


def write_gradescope(reports: list[LabReport], path: Path) -> None:
    tests = []
    for report in reports:
        for r in report.results:
            entry = {"name": f"{r.lab}: {r.name}", "max_score": r.points, "visibility": r.visibility,
                     "status": "passed" if r.status == "passed" else "failed"}
            if r.counted:
                entry["score"] = r.score
            else:
                entry["score"], entry["max_score"] = 0, 0
            entry["output"] = r.output if r.status != "passed" else ""
            tests.append(entry)
    score = sum(r.score for rep in reports for r in rep.results if r.counted)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"score": score, "tests": tests, "visibility": "visible"}, indent=2))


def write_junit(reports: list[LabReport], path: Path) -> None:
    suites = ET.Element("testsuites")
    for report in reports:
        suite = ET.SubElement(suites, "testsuite", name=report.lab, tests=str(len(report.results)),
                              failures=str(sum(r.status in ("failed", "timeout") for r in report.results)),
                              skipped=str(sum(r.status == "skipped" for r in report.results)))
        for r in report.results:
            case = ET.SubElement(suite, "testcase", classname=report.lab, name=r.name, time=f"{r.seconds:.3f}")
            if r.status in ("failed", "timeout"):
                ET.SubElement(case, "failure", message=r.status).text = r.output
            elif r.status == "skipped":
                ET.SubElement(case, "skipped", message=r.output)
    path.parent.mkdir(parents=True, exist_ok=True)
    ET.ElementTree(suites).write(path, encoding="utf-8", xml_declaration=True)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build-dir", default=str(REPO / "build"), help="build directory (default: build)")
    parser.add_argument("--no-build", action="store_true", help="grade an existing build")
    parser.add_argument("--lab", action="append", help="grade only this lab (repeatable)")
    parser.add_argument("--flavour", choices=["student", "solution"], default="student",
                        help="grade labs/ (student, default) or solutions/")
    parser.add_argument("--data-dir", help="directory with the real graphs (default: the build's SSSP_DATA_DIR)")
    parser.add_argument("--hidden-graphs", help="directory of hidden graph files (instructors)")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per test (default 60)")
    parser.add_argument("--results-json", help="Gradescope results file (default: BUILD/grading/results.json)")
    parser.add_argument("--junit", help="JUnit XML file (default: BUILD/grading/junit.xml)")
    parser.add_argument("--show-failures", type=int, default=5, help="failing tests to print in full")
    parser.add_argument("--expect", choices=["zero", "full"], help="check the outcome (project tests)")
    args = parser.parse_args(argv)
    try:
        reports = grade(args)
    except (GradingError, subprocess.TimeoutExpired, OSError) as error:
        print(f"grade.py: {error}", file=sys.stderr)
        return 2
    print_failures(reports, args.show_failures)
    score, maximum = print_table(reports)
    build_dir = Path(args.build_dir).resolve()
    results_json = Path(args.results_json) if args.results_json else build_dir / "grading" / "results.json"
    junit = Path(args.junit) if args.junit else build_dir / "grading" / "junit.xml"
    write_gradescope(reports, results_json)
    write_junit(reports, junit)
    print(f"\nreports: {results_json}, {junit}")
    ran = [r for rep in reports for r in rep.results if r.counted]
    if args.expect == "zero":
        passing = [f"{r.lab}: {r.name}" for r in ran if r.status == "passed"]
        if passing or not ran:
            print("EXPECTED every graded test to fail, but these passed (a test that an untouched "
                  "skeleton passes proves nothing):\n  " + "\n  ".join(passing or ["(no test ran)"]),
                  file=sys.stderr)
            return 1
        print(f"as expected: all {len(ran)} graded tests that ran fail on this code (score 0)")
    elif args.expect == "full":
        failing = [f"{r.lab}: {r.name} ({r.status})" for r in ran if r.status != "passed"]
        if failing or not ran:
            print("EXPECTED every graded test to pass, but:\n  " + "\n  ".join(failing or ["(no test ran)"]),
                  file=sys.stderr)
            return 1
        print(f"as expected: all {len(ran)} graded tests that ran pass (score {score:g} / {maximum:g})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
