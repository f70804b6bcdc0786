#!/usr/bin/env python3
"""Build the labs and grade them: run every graded test, print a score table,
and write Gradescope results.json and JUnit XML.

    python3 tests/grade.py                    build in ./build, grade your labs/
    python3 tests/grade.py --lab lab01_serial grade one lab
    python3 tests/grade.py --hidden-graphs DIR   instructors: add hidden graphs
    python3 tests/grade.py --flavour solution    grade the reference solutions
    python3 tests/grade.py --build-gpu-labs      build the GPU tests on a machine without a GPU
    python3 tests/grade.py --submission DIR      instructors: grade a student's submitted lab files

Only what grading needs is built: the course's test support and, per lab,
the graded test programs of the flavour graded (for a student: labs/, never
the solutions or mutants). On a machine without an NVIDIA GPU the GPU test
programs are neither built nor run (their tests could only skip): their tests
are listed as skipped for "no GPU", and the CPU tests of every lab are graded.

Each lab is built on its own: a lab that does not compile scores 0, with the
compiler's messages in the reports, and the other labs are still graded. Each
test runs in its own process, in an empty scratch directory, with a timeout
and a memory cap, so a crash or an endless loop costs that test only. A test
passes only when GoogleTest's XML report, written to a fresh unpredictable
path, names it as run without failure and the process exits 0: what the code
under test prints cannot pass or skip a test. Points and visibility come from
tests/rubric.json.

A test may skip only for a reason the course defines (no GPU, a dataset
missing, no hidden graphs); the table lists each with its reason. On your own
machine skipped tests count toward neither score nor maximum. When grading for
a platform (an explicit --results-json) skipped graded tests are an error,
because the platform's total would silently shrink: exit status 2 and a
message in results.json, unless --allow-skips accepts them.

Exit status: 0 when grading completed (whatever the score); 2 when it could
not (the course's shared code failed to build, rubric and tests disagree, a
bad hidden-graph directory, or skips without --allow-skips when grading for a
platform). With --expect zero or --expect full (used by the project's own
tests), 1 when the result differs, and 77 (skipped) when no graded test could
run here (all skipped, or only labs edited by hand, a student's work, left to
check with --expect zero).
"""
from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import re
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
RUBRIC = REPO / "tests" / "rubric.json"
OUTPUT_LIMIT = 4000  # characters of a failing test's output kept in reports
MEMORY_LIMIT_MIB = 4096  # default data-segment cap of a test process
TEST_TIMEOUT = 60.0  # default seconds per test: what a student is graded under
FILE_SIZE_LIMIT = 64 << 20  # bytes a test process may write to one file (its output included)
SUPPORT_TARGET = "sssp_test_support"  # the course's code every graded test program links
CHECKER_TARGET = "check-hidden-graphs"  # tests/support/check_hidden_graphs.cpp
STEP = "[   STEP   ] "  # what sssp::test::announce_step prints before running student code

# The reasons a graded test may skip for: the prefix of its skip message
# (tests/support/sssp_test.hpp) and what was missing.
SKIP_REASONS = {
    "GPU test skipped: ": "no GPU",
    "dataset test skipped: ": "dataset missing",
    "hidden-graph test skipped: ": "no hidden graphs",
}

# Sets the limits of a test process, then becomes it. A trampoline rather than
# subprocess's preexec_fn, which is not safe in the grader's worker threads.
# RLIMIT_DATA rather than RLIMIT_AS: CUDA reserves far more address space than
# it uses, and caps on the data segment leave cudaMalloc, pinned and managed
# memory working (checked on an H100).
_EXEC_WITH_LIMITS = """
import os, resource, sys
data, size = int(sys.argv[1]), int(sys.argv[2])
if data:
    resource.setrlimit(resource.RLIMIT_DATA, (data, data))
resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))
os.execv(sys.argv[3], sys.argv[3:])
"""

SIGNAL_HINTS = {
    signal.SIGSEGV: "an invalid memory access: an index out of bounds or a dangling pointer",
    signal.SIGABRT: "abort(): a failed assert, or heap corruption found by malloc (a write out of bounds)",
    signal.SIGFPE: "an arithmetic error, such as an integer division by zero",
    signal.SIGXFSZ: f"it wrote more than {FILE_SIZE_LIMIT >> 20} MiB of output",
    signal.SIGKILL: "killed from outside, for example by the system running out of memory",
}


class GradingError(Exception):
    """Grading cannot go on, for a reason that is not the student's."""


class ProgramError(Exception):
    """A test program that cannot even list its tests (student code that fails at start-up)."""


@dataclass
class Result:
    lab: str
    name: str
    points: float
    visibility: str
    status: str = "not run"  # passed | failed | timeout | skipped
    output: str = ""
    seconds: float = 0.0
    missing: str = ""  # for a skipped test: what was missing (a value of SKIP_REASONS)

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
    compiler_errors: str = ""  # set when the lab did not compile


@dataclass(frozen=True)
class Program:
    """A graded test program, as graded_tests.json lists it."""
    path: str
    kind: str  # cpu | gpu

    @property
    def target(self) -> str:
        return Path(self.path).name  # sssp_add_lab_tests names each program after its target


def cut(text: str, limit: int = OUTPUT_LIMIT) -> str:
    return text if len(text) <= limit else text[:limit] + "\n... (output cut)"


def how_it_ended(returncode: int) -> str:
    if returncode < 0:
        sig = signal.Signals(-returncode)
        hint = SIGNAL_HINTS.get(sig)
        return f"it was killed by signal {-returncode} ({sig.name}" + (f": {hint})" if hint else ")")
    return (f"it exited with status {returncode} in the middle of the test: the code under test must "
            "not end the program (exit, _Exit, abort)")


def missing_for(reason: str) -> str | None:
    """What a skip reason says was missing, or None for a reason the course does not define."""
    return next((what for prefix, what in SKIP_REASONS.items() if reason.startswith(prefix)), None)


def last_step(output: str) -> str:
    steps = [line[len(STEP):] for line in output.splitlines() if line.startswith(STEP)]
    return steps[-1] if steps else ""


def test_output(output: str) -> str:
    """What a test printed from its start on (GoogleTest's banner left out)."""
    start = output.find("[ RUN      ]")
    return cut((output[start:] if start >= 0 else output).strip())


class Runner:
    """Runs graded test programs one test per process, and judges each from
    GoogleTest's XML report and the exit status, never from printed text."""

    def __init__(self, timeout: float, memory_mib: int, hidden_graphs: Path | None, data_dir: str | None = None):
        self.timeout = timeout
        self.memory_mib = memory_mib
        self.hidden_graphs = hidden_graphs is not None  # then "no hidden graphs" is no reason to skip
        self.env = dict(os.environ)
        if data_dir is not None:
            self.env["SSSP_DATA_DIR"] = str(Path(data_dir).resolve()) if data_dir else ""
        self.env.pop("SSSP_HIDDEN_GRAPHS", None)  # only a directory the grader was given reaches the tests
        if hidden_graphs is not None:
            self.env["SSSP_HIDDEN_GRAPHS"] = str(hidden_graphs.resolve())

    def _execute(self, argv: list[str], report: Path, work: Path) -> tuple[int | None, str]:
        """Runs argv in an empty directory under `work`; returns its exit status
        (None after a timeout) and the tail of its output."""
        scratch = work / "cwd"
        scratch.mkdir()
        command = [sys.executable, "-I", "-S", "-c", _EXEC_WITH_LIMITS, str(self.memory_mib << 20),
                   str(FILE_SIZE_LIMIT), *argv, f"--gtest_output=xml:{report}"]
        with tempfile.TemporaryFile() as log:
            try:
                returncode: int | None = subprocess.run(
                    command, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, cwd=scratch,
                    env=self.env, timeout=self.timeout).returncode
            except subprocess.TimeoutExpired:
                returncode = None
            log.seek(max(0, log.seek(0, os.SEEK_END) - 4 * OUTPUT_LIMIT))
            return returncode, log.read().decode(errors="replace")

    def list_tests(self, program: Program) -> list[str]:
        """The program's test names; ProgramError when it cannot list them."""
        with tempfile.TemporaryDirectory(prefix="sssp-list-", ignore_cleanup_errors=True) as work:
            report = Path(work) / f"{secrets.token_hex(16)}.xml"
            returncode, output = self._execute([program.path, "--gtest_list_tests"], report, Path(work))
            try:
                root = ET.parse(report).getroot()
            except (OSError, ET.ParseError):
                root = None
        if returncode != 0 or root is None:
            if returncode is None:
                why = f"it did not finish within {self.timeout:g} s"
            else:
                why = how_it_ended(returncode) if returncode else "it wrote no list"
            raise ProgramError(f"the test program could not list its tests: {why}\n"
                               f"--- its last output ---\n{cut(output.strip())}")
        return [f"{suite.get('name')}.{case.get('name')}" for suite in root.iter("testsuite")
                for case in suite.iter("testcase")]

    def run_all(self, jobs: list[tuple[Program, Result]], gpu_workers: int = 1) -> None:
        """Runs the CPU tests in parallel, then the GPU tests `gpu_workers` at a
        time: grading runs them one at a time, since they share the GPU and
        some time it."""
        for kind_jobs, workers in (([j for j in jobs if j[0].kind != "gpu"], os.cpu_count() or 1),
                                   ([j for j in jobs if j[0].kind == "gpu"], gpu_workers)):
            with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
                list(pool.map(lambda job: self.run(*job), kind_jobs))

    def run(self, program: Program, result: Result) -> Result:
        start = time.monotonic()
        with tempfile.TemporaryDirectory(prefix="sssp-test-", ignore_cleanup_errors=True) as work:
            report = Path(work) / f"{secrets.token_hex(16)}.xml"
            returncode, output = self._execute(
                [program.path, f"--gtest_filter={result.name}", "--gtest_color=no"], report, Path(work))
            case = None
            try:
                case = next((c for c in ET.parse(report).getroot().iter("testcase")
                             if f"{c.get('classname')}.{c.get('name')}" == result.name), None)
            except (OSError, ET.ParseError):
                pass
        result.status, result.output = self._judge(program, returncode, case, output)
        if result.status == "skipped":
            result.missing = missing_for(result.output) or ""
        result.seconds = time.monotonic() - start
        return result

    def _judge(self, program: Program, returncode: int | None, case: ET.Element | None,
               output: str) -> tuple[str, str]:
        step = last_step(output)
        during = f"\nwhile running: {step}" if step else ""
        if returncode is None:
            return "timeout", (f"the test did not finish within {self.timeout:g} s{during}\nlook for an "
                               "endless loop (a frontier or flag that never empties, a heap that never "
                               "shrinks)")
        if case is None or case.get("status") != "run":
            return "failed", (f"the test program ended before it reported this test: "
                              f"{how_it_ended(returncode)}{during}\n"
                              f"--- its last output ---\n{test_output(output)}")
        failures = "\n\n".join((f.text or f.get("message", "")).strip() for f in case.iter("failure"))
        if failures:
            if "thrown in the test body" in failures:
                failures += during
            if "std::bad_alloc" in failures and self.memory_mib:
                failures += (f"\nthe test program reached its memory cap of {self.memory_mib} MiB: look for "
                             "a heap, queue or frontier that grows without bound")
            return "failed", cut(failures)
        if returncode != 0:
            return "failed", (f"the test's checks passed, but then {how_it_ended(returncode)} (in a "
                              "destructor, or at exit?)")
        if case.get("result") == "skipped":
            skipped = case.find("skipped")
            message = skipped.get("message", "") if skipped is not None else ""
            reason = message.split("\n", 1)[-1].strip()  # the first line is the skip's location
            if self._valid_skip(reason, program):
                return "skipped", reason
            return "failed", (f"the test skipped itself for a reason the course does not define: "
                              f"'{reason}'\nonly a missing GPU, dataset or hidden graph set lets a graded "
                              "test skip")
        return "passed", ""

    def _valid_skip(self, reason: str, program: Program) -> bool:
        what = missing_for(reason)
        if what == "no GPU":
            return program.kind == "gpu"
        if what == "no hidden graphs":
            return not self.hidden_graphs
        return what is not None


def gpu_present() -> bool:
    """Whether the NVIDIA driver reports a GPU here (nvidia-smi -L; without
    nvidia-smi, a /dev/nvidiaN device node)."""
    smi = shutil.which("nvidia-smi")
    if smi is None:
        return any(Path("/dev").glob("nvidia[0-9]*"))
    try:
        listed = subprocess.run([smi, "-L"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return False
    return listed.returncode == 0 and "GPU" in listed.stdout


def build(build_dir: Path, targets: list[str]) -> str | None:
    """Builds `targets`, echoing the build; returns None on success, else its output."""
    command = ["cmake", "--build", str(build_dir), "--target", *targets]
    print("+", " ".join(command), flush=True)
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               errors="replace")
    lines = []
    for line in process.stdout:
        print(line, end="", flush=True)
        lines.append(line)
    return None if process.wait() == 0 else "".join(lines)


def compiler_errors(build_output: str) -> str:
    """The part of a failed build's output a student needs: from the first error on."""
    lines = build_output.splitlines()
    first = next((i for i, line in enumerate(lines) if re.search(r"\berror\b", line, re.IGNORECASE)), 0)
    return cut("\n".join(lines[first:]).strip())


def configure(build_dir: Path, data_dir: str | None, labs_dir: Path) -> None:
    command = ["cmake", "-S", str(REPO), "-B", str(build_dir), f"-DSSSP_LABS_DIR={labs_dir}"]
    if shutil.which("ninja") and not (build_dir / "CMakeCache.txt").exists():
        command += ["-G", "Ninja"]
    if data_dir is not None:
        command.append(f"-DSSSP_DATA_DIR={data_dir}")
    print("+", " ".join(command), flush=True)
    if subprocess.run(command).returncode != 0:
        raise GradingError("configuring the build failed (see the output above)")


def editable_files(lab: str) -> set[str]:
    """The files of labs/<lab>/ a student edits: those with a task region in the solution."""
    return {p.name for p in (REPO / "solutions" / lab).iterdir()
            if p.is_file() and "// BEGIN SOLUTION task" in p.read_text(errors="replace")}


def take_submission(submission: Path, labs: list[str], copy: Path) -> tuple[list[str], list[str]]:
    """Writes labs/ to `copy` with the submitted lab files over it. A file is
    taken at <lab>/<file> anywhere in the submission, or at its top level when
    one lab has a file of that name; anything else (a header, a test, a
    symbolic link) is ignored. Returns the labs submitted and the files ignored."""
    if not submission.is_dir():
        raise GradingError(f"--submission: {submission} is not a directory")
    editable = {lab: editable_files(lab) for lab in labs}
    owners: dict[str, list[str]] = {}
    for lab, names in editable.items():
        for name in names:
            owners.setdefault(name, []).append(lab)
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(REPO / "labs", copy)
    taken: set[tuple[str, str]] = set()
    ignored = []
    for path in sorted(submission.rglob("*")):
        relative = path.relative_to(submission)
        if path.is_dir() and not path.is_symlink():
            continue
        lab = relative.parent.name if relative.parent.name in editable else None
        if lab is None and relative.parent == Path(".") and len(owners.get(relative.name, [])) == 1:
            lab = owners[relative.name][0]
        if path.is_symlink() or lab is None or relative.name not in editable[lab] or (lab, relative.name) in taken:
            ignored.append(str(relative))
            continue
        taken.add((lab, relative.name))
        shutil.copyfile(path, copy / lab / relative.name)
    return sorted({lab for lab, _ in taken}, key=labs.index), ignored


def check_hidden_graphs(manifest: dict, directory: Path) -> None:
    """Stops grading when the instructor's hidden-graph directory would fail the
    HiddenGraphs tests: a problem of the grader's input must not cost points."""
    check = subprocess.run([manifest["hidden_graph_checker"], str(directory)], capture_output=True, text=True,
                           timeout=600)
    if check.returncode != 0:
        raise GradingError(f"--hidden-graphs: {check.stderr.strip() or check.stdout.strip()}")
    print(f"hidden graphs in {directory}:\n{check.stdout}", end="", flush=True)


def grade_lab(lab: str, entry: dict, programs: list[Program], runner: Runner, left_out: str = "") -> LabReport:
    """Grades a lab's built programs. `left_out`, when set, is the skip reason
    of the rubric's tests that no program lists (its GPU programs were not built)."""
    report = LabReport(lab, entry.get("title", lab))
    report.results = [Result(lab, name, float(e["points"]), e.get("visibility", "visible"))
                      for name, e in entry["tests"].items()]
    by_name = {r.name: r for r in report.results}
    jobs, unlisted = [], []
    for program in programs:
        try:
            names = runner.list_tests(program)
        except ProgramError as error:
            unlisted.append(str(error))
            continue
        for name in names:
            if name not in by_name:
                raise GradingError(f"{lab}: test {name} is not in tests/rubric.json: give it points")
            jobs.append((program, by_name.pop(name)))
    for result in by_name.values():
        if left_out and not unlisted:
            result.status, result.output, result.missing = "skipped", left_out, missing_for(left_out) or ""
            continue
        if not unlisted:
            raise GradingError(f"{lab}: tests/rubric.json lists tests that do not exist: {', '.join(by_name)}")
        result.status, result.output = "failed", "\n".join(unlisted)
    runner.run_all(jobs)
    return report


def not_run(lab: str, entry: dict, status: str, output: str, missing: str = "") -> LabReport:
    report = LabReport(lab, entry.get("title", lab))
    report.results = [Result(lab, name, float(e["points"]), e.get("visibility", "visible"), status, output,
                             missing=missing) for name, e in entry["tests"].items()]
    return report


def grade(args: argparse.Namespace, labs: list[str], rubric: dict) -> list[LabReport]:
    build_dir = Path(args.build_dir).resolve()
    hidden = Path(args.hidden_graphs).resolve() if args.hidden_graphs else None
    if hidden is not None and not hidden.is_dir():
        raise GradingError(f"--hidden-graphs: {hidden} is not a directory")
    if not args.no_build:
        configure(build_dir, args.data_dir, args.labs_dir)
    manifest_path = build_dir / "graded_tests.json"
    if not manifest_path.exists():
        raise GradingError(f"{manifest_path} is missing: build the project first (or drop --no-build)")
    manifest = json.loads(manifest_path.read_text())
    shared = [SUPPORT_TARGET] + ([CHECKER_TARGET] if hidden is not None else [])
    if not args.no_build and build(build_dir, shared) is not None:
        raise GradingError("the course's own code failed to build (see the output above): not a student error")
    if hidden is not None:
        check_hidden_graphs(manifest, hidden)

    data_dir = args.data_dir if args.data_dir is not None else manifest.get("data_dir", "")
    runner = Runner(args.timeout, args.memory_limit, hidden, data_dir)
    skip_gpu = not args.build_gpu_labs and manifest["cuda_built"] and not gpu_present()

    reports = []
    for lab in labs:
        programs = [Program(e["path"], e["kind"]) for e in manifest["executables"]
                    if e["lab"] == lab and e["flavour"] == args.flavour]
        left_out = ""
        if skip_gpu and any(p.kind == "gpu" for p in programs):
            programs = [p for p in programs if p.kind != "gpu"]
            left_out = ("GPU test skipped: no NVIDIA GPU found (nvidia-smi -L, /dev/nvidia*), so the GPU test "
                        "programs were not built; --build-gpu-labs builds and runs them anyway")
            if not programs:
                reports.append(not_run(lab, rubric[lab], "skipped", left_out, missing_for(left_out) or ""))
                continue
        if not programs:
            gpu_lab = manifest["labs"].get(lab) == "GPU" and not manifest["cuda_built"]
            reason = (f"GPU test skipped: GPU lab not built: {manifest['cuda_disabled_reason']}" if gpu_lab
                      else "no test program was built for this lab")
            reports.append(not_run(lab, rubric[lab], "skipped" if gpu_lab else "failed", reason,
                                   missing_for(reason) or ""))
            continue
        if not args.no_build:
            failed = build(build_dir, [p.target for p in programs])
            if failed is not None:
                report = not_run(lab, rubric[lab], "failed", f"not run: {lab} did not compile")
                report.compiler_errors = compiler_errors(failed)
                reports.append(report)
                continue
        missing = [p.path for p in programs if not Path(p.path).exists()]
        if missing:
            raise GradingError(f"{lab}: not built: {', '.join(missing)}")
        reports.append(grade_lab(lab, rubric[lab], programs, runner, left_out))
    return reports


def skipped_summary(reports: list[LabReport]) -> str:
    """The skipped tests by reason, with their points ('' when none skipped)."""
    by_reason: dict[str, list[Result]] = {}
    for result in (r for report in reports for r in report.results if r.status == "skipped"):
        by_reason.setdefault(result.output, []).append(result)
    if not by_reason:
        return ""
    skipped = [r for results in by_reason.values() for r in results]
    lines = [f"{len(skipped)} graded test{'s' if len(skipped) != 1 else ''} "
             f"({sum(r.points for r in skipped):g} points) could not run here and are not in the score:"]
    for reason, results in by_reason.items():
        lines.append(f"  {results[0].missing} ({sum(r.points for r in results):g} points): {reason}")
        lines.extend(f"    {r.lab}: {r.name} ({r.points:g})" for r in results)
    return "\n".join(lines)


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
        note = "  (did not compile)" if report.compiler_errors else ""
        print(f"{report.title:<{width}}  {passed:>6}  {failed:>6}  {skipped:>7}  {score:>4g} / {maximum:g}{note}")
    print(f"{'total':<{width}}  {'':>6}  {'':>6}  {'':>7}  {total_score:>4g} / {total_max:g}")
    summary = skipped_summary(reports)
    if summary:
        print(f"\n{summary}")
    return total_score, total_max


def print_failures(reports: list[LabReport], limit: int) -> None:
    for report in reports:
        if report.compiler_errors:
            points = sum(r.points for r in report.results)
            print(f"\n--- {report.lab} DID NOT COMPILE (0 of {points:g} points)\n{report.compiler_errors}")
    failures = [r for report in reports if not report.compiler_errors
                for r in report.results if r.status in ("failed", "timeout")]
    for r in failures[:limit]:
        print(f"\n--- FAILED {r.lab}: {r.name} ({r.points:g} points)\n{r.output}")
    if len(failures) > limit:
        print(f"\n... and {len(failures) - limit} more failing tests (see the JUnit or JSON report)")


def write_gradescope(reports: list[LabReport], path: Path, message: str) -> None:
    """Gradescope's results.json. A test has "passed" or "failed" only, so the
    skipped tests are listed in the top-level output (and extra_data) rather
    than shown as failures. There is no top-level score: Gradescope then totals
    the tests itself, and hides the total from students while any test is not
    yet visible to them (after_published), so the total reveals nothing early."""
    tests = []
    for report in reports:
        if report.compiler_errors:
            tests.append({"name": f"{report.lab}: compilation", "score": 0, "max_score": 0, "status": "failed",
                          "visibility": "visible",
                          "output": f"{report.lab} did not compile, so none of its tests ran:\n"
                                    f"{report.compiler_errors}"})
        for r in report.results:
            if r.status != "skipped":
                tests.append({"name": f"{r.lab}: {r.name}", "score": r.score, "max_score": r.points,
                              "status": "passed" if r.status == "passed" else "failed",
                              "visibility": r.visibility, "output": r.output})
    results: dict = {"tests": tests, "visibility": "visible"}
    output = "\n\n".join(part for part in (message, skipped_summary(reports)) if part)
    if output:
        results["output"] = output
    skipped = [{"name": f"{r.lab}: {r.name}", "points": r.points, "missing": r.missing, "reason": r.output}
               for report in reports for r in report.results if r.status == "skipped"]
    if skipped:
        results["extra_data"] = {"skipped": skipped}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(results, indent=2))


def write_junit(reports: list[LabReport], path: Path) -> None:
    suites = ET.Element("testsuites")
    for report in reports:
        suite = ET.SubElement(suites, "testsuite", name=report.lab, tests=str(len(report.results)),
                              failures=str(sum(r.status in ("failed", "timeout") for r in report.results)),
                              skipped=str(sum(r.status == "skipped" for r in report.results)))
        for r in report.results:
            case = ET.SubElement(suite, "testcase", classname=report.lab, name=r.name, time=f"{r.seconds:.3f}")
            if r.status in ("failed", "timeout"):
                text = f"{r.output}\n{report.compiler_errors}" if report.compiler_errors else r.output
                ET.SubElement(case, "failure", message=r.status).text = text
            elif r.status == "skipped":
                ET.SubElement(case, "skipped", message=r.output)
    path.parent.mkdir(parents=True, exist_ok=True)
    ET.ElementTree(suites).write(path, encoding="utf-8", xml_declaration=True)


def flavour(value: str) -> str:
    if value in ("student", "solution") or re.fullmatch(r"mutant:\w+", value):
        return value
    raise argparse.ArgumentTypeError("student, solution or mutant:NAME (tests/project/mutants.json)")


def hand_edited_labs(labs: list[str]) -> dict[str, list[str]]:
    """Labs whose skeleton files were changed since make_skeleton.py wrote them."""
    sys.path.insert(0, str(REPO / "common" / "tools"))
    import make_skeleton  # noqa: E402  (the tool that knows what it generated)
    return {lab: edited for lab in labs if (edited := make_skeleton.check(lab)[1])}


def check_expectation(expect: str, reports: list[LabReport], score: float, maximum: float) -> int:
    """1 when a test that ran contradicts `expect`; 77 (skipped) when no test
    could run here, for a skipped test proves nothing either way."""
    results = [r for rep in reports for r in rep.results]
    ran = [r for r in results if r.counted]
    wrong = [f"{r.lab}: {r.name} ({r.status})" for r in ran if (r.status == "passed") == (expect == "zero")]
    if wrong:
        what = ("fail, but these passed (a test that an untouched skeleton passes proves nothing)"
                if expect == "zero" else "pass, but")
        print(f"EXPECTED every graded test to {what}:\n  " + "\n  ".join(wrong), file=sys.stderr)
    elif ran:
        print(f"as expected: all {len(ran)} graded tests that ran "
              + ("fail on this code (score 0)" if expect == "zero" else f"pass (score {score:g} / {maximum:g})"))
    print(f"verified {len(ran) - len(wrong)}, not verifiable here {len(results) - len(ran)}")
    if wrong:
        return 1
    return 0 if ran else 77


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build-dir", default=str(REPO / "build"), help="build directory (default: build)")
    parser.add_argument("--no-build", action="store_true", help="grade an existing build")
    parser.add_argument("--lab", action="append", help="grade only this lab (repeatable)")
    parser.add_argument("--flavour", type=flavour, default="student",
                        help="grade labs/ (student, default), solutions/ (solution) or a mutant (mutant:NAME)")
    parser.add_argument("--data-dir", help="directory with the real graphs (default: the build's SSSP_DATA_DIR)")
    parser.add_argument("--hidden-graphs", help="directory of hidden graph files (instructors)")
    parser.add_argument("--submission", metavar="DIR",
                        help="grade the lab files in DIR (a student's submission) in place of labs/; other "
                             "files are ignored and listed; the labs graded are those submitted, or --lab")
    parser.add_argument("--timeout", type=float, default=TEST_TIMEOUT,
                        help=f"seconds per test (default {TEST_TIMEOUT:g})")
    parser.add_argument("--build-gpu-labs", action="store_true",
                        help="build and run the GPU test programs even where no NVIDIA GPU is found")
    parser.add_argument("--memory-limit", type=int, default=MEMORY_LIMIT_MIB, metavar="MIB",
                        help=f"data-segment cap per test process in MiB (default {MEMORY_LIMIT_MIB}; 0: none)")
    parser.add_argument("--results-json",
                        help="Gradescope results file; naming it means grading for a platform, where skipped "
                             "graded tests are an error (default: BUILD/grading/results.json)")
    parser.add_argument("--allow-skips", action="store_true",
                        help="with --results-json: accept skipped graded tests (recorded in results.json)")
    parser.add_argument("--junit", help="JUnit XML file (default: BUILD/grading/junit.xml)")
    parser.add_argument("--show-failures", type=int, default=5, help="failing tests to print in full")
    parser.add_argument("--expect", choices=["zero", "full"], help="check the outcome (project tests)")
    args = parser.parse_args(argv)
    build_dir = Path(args.build_dir).resolve()
    results_json = Path(args.results_json) if args.results_json else build_dir / "grading" / "results.json"
    junit = Path(args.junit) if args.junit else build_dir / "grading" / "junit.xml"

    notes: list[str] = []  # for the top of results.json
    try:
        rubric = json.loads(RUBRIC.read_text())
        all_labs = [lab for lab in rubric if not lab.startswith("_")]
        labs = args.lab or all_labs
        unknown = [lab for lab in labs if lab not in rubric]
        if unknown:
            raise GradingError(f"unknown lab '{unknown[0]}'; the rubric has: {', '.join(all_labs)}")
        args.labs_dir = REPO / "labs"
        if args.submission:
            if args.no_build or args.flavour != "student":
                raise GradingError("--submission grades a student's files: it needs a build and --flavour student")
            args.labs_dir = Path(args.build_dir).resolve() / "submission" / "labs"
            submitted, ignored = take_submission(Path(args.submission).resolve(), labs, args.labs_dir)
            if ignored:
                notes.append("Ignored, not lab files a student edits: " + ", ".join(ignored))
                print(notes[-1])
            if not submitted:
                editable = ", ".join(f"{lab}/{name}" for lab in labs for name in sorted(editable_files(lab)))
                raise GradingError(f"the submission holds no lab file to grade; expected any of: {editable}")
            labs = args.lab or submitted
        if args.expect == "zero" and args.flavour == "student":
            # A student's own work is no untouched skeleton: say so instead of failing.
            edited = hand_edited_labs(labs)
            for lab, files in edited.items():
                print(f"not checked: {lab} was edited by hand ({', '.join(files)})")
            labs = [lab for lab in labs if lab not in edited]
        reports = grade(args, labs, rubric)
    except Exception as error:  # noqa: BLE001  (results.json must say why grading stopped)
        if not isinstance(error, (GradingError, OSError, subprocess.SubprocessError)):
            traceback.print_exc()
        print(f"grade.py: {error}", file=sys.stderr)
        write_gradescope([], results_json, f"AUTOGRADER ERROR, not a grade: {error}")
        return 2

    print_failures(reports, args.show_failures)
    score, maximum = print_table(reports)
    skips_refused = args.results_json and not args.allow_skips and any(
        r.status == "skipped" for rep in reports for r in rep.results)
    message = ("GRADING INCOMPLETE: this grader could not run every graded test, so the score below is "
               "partial. Instructors: grade on a machine with a GPU, the datasets and --hidden-graphs, or "
               "pass --allow-skips to accept it." if skips_refused else "")
    write_gradescope(reports, results_json, "\n\n".join([message, *notes]).strip())
    write_junit(reports, junit)
    print(f"\nreports: {results_json}, {junit}")
    if skips_refused:
        print(f"grade.py: {message}", file=sys.stderr)
        return 2
    return check_expectation(args.expect, reports, score, maximum) if args.expect else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
