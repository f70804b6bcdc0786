#!/usr/bin/env python3
"""Build the labs and grade them: run every graded test, print a score table,
and write Gradescope results.json and JUnit XML.

    python3 tests/grade.py                    build in ./build, grade your labs/
    python3 tests/grade.py --lab lab01_serial grade one lab
    python3 tests/grade.py --hidden-graphs DIR   instructors: add hidden graphs
    python3 tests/grade.py --flavour solution    grade the reference solutions
    python3 tests/grade.py --build-gpu-labs      build the GPU tests on a machine without a GPU
    python3 tests/grade.py --submission DIR      instructors: grade a student's submitted lab files
    python3 tests/grade.py --no-sanitize         leave out the compute-sanitizer items (on with a GPU)
    python3 tests/grade.py --in-process          debugging: the test programs that link your code

The lab's code never runs inside a graded test program. Each test program
holds the tests and the course's support only and calls the lab through a
worker process (tests/support/rpc) built from the lab's files and run in a
bubblewrap sandbox (tests/sandbox.py): whatever the worker answers is data
the test checks, and the worker cannot reach the test's verdict, report or
timer. Where bubblewrap cannot run, the worker still runs apart, unsandboxed,
and the report says so (grading for a platform then stops unless
--allow-unsandboxed). --in-process runs the test programs that link the
lab's code instead, as gdb, cuda-gdb and compute-sanitizer see them: for
debugging, never for grading a submission.

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
each lab's tests/<lab>/rubric.json (read by tests/lab_data.py).

Each GPU lab also has a compute-sanitizer item (the "sanitizer" entry of
tests/<lab>/rubric.json: its points and a small named set of its GPU tests):
those tests run under compute-sanitizer memcheck, racecheck and synccheck, in
the build graded, and the item passes only when every run's own summary line
reports no error or hazard, the sanitizer exits 0, and GoogleTest's report
has every test of the set passed. It is on by default where a GPU is found
(--sanitize, --no-sanitize); without a GPU or without compute-sanitizer (PATH,
/usr/local/cuda/bin) it is listed as skipped with the reason, like a test.

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
import fnmatch
import hashlib
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

sys.path.insert(0, str(Path(__file__).resolve().parent))
import lab_data  # noqa: E402  (tests/lab_data.py: each lab's rubric.json)
import sandbox  # noqa: E402  (tests/sandbox.py: where the student's code runs)

REPO = Path(__file__).resolve().parents[1]
OUTPUT_LIMIT = 4000  # characters of a failing test's output kept in reports
MEMORY_LIMIT_MIB = 4096  # default data-segment cap of a test process
TEST_TIMEOUT = 60.0  # default seconds per test: what a student is graded under
FILE_SIZE_LIMIT = 64 << 20  # bytes a test process may write to one file (its output included)
SUPPORT_TARGET = "sssp_test_support"  # the course's code every graded test program links
CHECKER_TARGET = "check-hidden-graphs"  # tests/support/check_hidden_graphs.cpp
STEP = "[   STEP   ] "  # what sssp::test::announce_step prints before running student code

# The compute-sanitizer item of a GPU lab (the lab's "sanitizer" entry in the rubric).
SANITIZER_ITEM = "compute-sanitizer"
SANITIZER_TOOLS = ("memcheck", "racecheck", "synccheck")  # run in this order on the same tests
SANITIZER_TIMEOUT = 180.0  # default seconds per tool run (several tests, instrumented)
SANITIZER_ERROR_EXITCODE = 86  # --error-exitcode: the sanitizer found errors
SANITIZER_MEMORY_FACTOR = 4  # the sanitizer's own bookkeeping: its runs get this times the test cap
SANITIZER_REPORT_LINES = 15  # report lines shown in a failure message (each cut at 300 characters)
SANITIZER_FALLBACK = "/usr/local/cuda/bin/compute-sanitizer"
# Skip reasons of the item (what was missing, then why). Not in SKIP_REASONS:
# no test may skip itself for these.
SANITIZER_OFF = ("sanitizer off", "compute-sanitizer item skipped: turned off (--no-sanitize)")
SANITIZER_NO_GPU = ("no GPU", "GPU test skipped: no NVIDIA GPU found (nvidia-smi -L, /dev/nvidia*): "
                              "compute-sanitizer needs one")
SANITIZER_MISSING = ("no compute-sanitizer", "compute-sanitizer item skipped: compute-sanitizer not found on "
                                             "PATH or in /usr/local/cuda/bin (it comes with the CUDA Toolkit)")
# What a failure message suggests, by tool (memcheck by the kind of its first report).
SANITIZER_HINTS = {
    "racecheck": "a shared-memory race: two threads of a block touch the same __shared__ word, one of them "
                 "writing, with no barrier between. Is there a __syncthreads() between the writes and the reads "
                 "of the reduction (after every step, reached by every thread of the block)?",
    "synccheck": "a barrier that not every thread of the block reaches: a __syncthreads() inside a branch, or in "
                 "a loop that some threads leave early (a return before it). Let threads with no work skip the "
                 "work, not the barrier.",
    "memcheck": "an access out of bounds: an index past the end of an array (a loop bound of <= n, a thread "
                "whose index is n or more that is not turned away, offsets[u + 1] read for u = n) or a pointer "
                "to memory already freed. The report names the kernel, the thread and how far past the "
                "allocation the address is.",
    "memcheck api": "a CUDA call failed (the report names it): a launch with a bad configuration, or a copy or "
                    "memset of the wrong size or direction.",
}

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
class ToolRun:
    """One compute-sanitizer tool's run of a lab's sanitizer tests."""
    tool: str
    status: str  # clean | reported (the sanitizer found errors) | failed | timeout | skipped
    message: str = ""
    errors: int | None = None  # what its summary counted
    seconds: float = 0.0
    missing: str = ""  # for a skipped run: what was missing


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
    sanitizer_runs: list[ToolRun] = field(default_factory=list)  # the compute-sanitizer item's runs

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
    """A graded test program, as graded_tests.json lists it, and the worker
    command its calls to the lab go to (empty for an in-process program,
    which links the lab's code itself)."""
    path: str
    kind: str  # cpu | gpu
    worker: tuple[str, ...] = ()
    worker_path: str = ""  # the worker program, for the compute-sanitizer item

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


@dataclass
class SanitizerReport:
    """What a compute-sanitizer log says: the errors (or hazards) its summary
    lines count, None when it has no summary (the sanitizer did not finish),
    and its first report lines."""
    errors: int | None
    summary: str
    lines: list[str]


_SUMMARY = re.compile(r"^(?:=+ )?(ERROR SUMMARY: (\d+) errors?|RACECHECK SUMMARY: (\d+) hazards? displayed.*)$")
_NOISE = re.compile(r"^=+\s*(COMPUTE-SANITIZER|Host Frame|Saved host backtrace|in /|$)")


def parse_sanitizer_log(text: str) -> SanitizerReport:
    """Reads compute-sanitizer's own output (its --log-file, which the code
    under test does not write to): the summary lines (ERROR SUMMARY: N
    errors; racecheck's RACECHECK SUMMARY: N hazards displayed (E errors, W
    warnings)) and the first lines of its reports, backtraces left out. Only
    lines in the sanitizer's own "=========" format count."""
    counts, summaries, lines, plain = [], [], [], []
    for line in text.splitlines():
        line = line.rstrip()
        summary = _SUMMARY.match(line)
        if summary:
            counts.append(int(summary.group(2) or summary.group(3)))
            summaries.append(summary.group(1))
        elif line.startswith("=========") and not _NOISE.match(line):
            lines.append(line)
        elif line.strip():
            plain.append(line)
    # A log without the prefix (a sanitizer version that leaves it out of files): its first lines.
    shown = [line if len(line) <= 300 else line[:300] + " ..." for line in (lines or plain)[:SANITIZER_REPORT_LINES]]
    return SanitizerReport(max(counts) if counts else None, "; ".join(summaries), shown)


def sanitizer_hint(tool: str, report: SanitizerReport) -> str:
    if tool == "memcheck" and report.lines and "Program hit" in report.lines[0]:
        return SANITIZER_HINTS["memcheck api"]
    return SANITIZER_HINTS[tool]


def find_sanitizer() -> str | None:
    """compute-sanitizer's path: on PATH, else in /usr/local/cuda/bin; None when neither has it."""
    found = shutil.which("compute-sanitizer")
    if found:
        return str(Path(found).resolve())
    return SANITIZER_FALLBACK if os.access(SANITIZER_FALLBACK, os.X_OK) else None


def gtest_filter_matches(patterns: list[str], name: str) -> bool:
    """Whether GoogleTest's --gtest_filter with these positive patterns (* and ?) selects `name`."""
    return any(fnmatch.fnmatchcase(name, pattern) for pattern in patterns)


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
        self.env.pop("SSSP_WORKER", None)  # each program is given its own worker
        self.env.pop("SSSP_HIDDEN_GRAPHS", None)  # only a directory the grader was given reaches the tests
        if hidden_graphs is not None:
            self.env["SSSP_HIDDEN_GRAPHS"] = str(hidden_graphs.resolve())

    def _execute(self, argv: list[str], report: Path, work: Path, timeout: float | None = None,
                 memory_mib: int | None = None, worker: tuple[str, ...] = ()) -> tuple[int | None, str]:
        """Runs argv in an empty directory under `work` (with the runner's
        timeout and memory cap unless given), its calls to the lab going to
        the `worker` command; returns its exit status (None after a timeout)
        and the tail of its output. It runs in a session of its own, which is
        killed whole when it ends or times out: nothing it started outlives it."""
        scratch = work / "cwd"
        scratch.mkdir()
        memory_mib = self.memory_mib if memory_mib is None else memory_mib
        command = [sys.executable, "-I", "-S", "-c", _EXEC_WITH_LIMITS, str(memory_mib << 20),
                   str(FILE_SIZE_LIMIT), *argv, f"--gtest_output=xml:{report}"]
        env = dict(self.env, SSSP_WORKER="\n".join(worker)) if worker else self.env
        with tempfile.TemporaryFile() as log:
            process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                                       cwd=scratch, env=env, start_new_session=True)
            try:
                returncode: int | None = process.wait(timeout=self.timeout if timeout is None else timeout)
            except subprocess.TimeoutExpired:
                returncode = None
            finally:
                try:
                    os.killpg(process.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                process.wait()
            log.seek(max(0, log.seek(0, os.SEEK_END) - 4 * OUTPUT_LIMIT))
            return returncode, log.read().decode(errors="replace")

    def list_tests(self, program: Program) -> list[str]:
        """The program's test names; ProgramError when it cannot list them."""
        with tempfile.TemporaryDirectory(prefix="sssp-list-", ignore_cleanup_errors=True) as work:
            report = Path(work) / f"{secrets.token_hex(16)}.xml"
            returncode, output = self._execute([program.path, "--gtest_list_tests"], report, Path(work),
                                               worker=program.worker)
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
                [program.path, f"--gtest_filter={result.name}", "--gtest_color=no"], report, Path(work),
                worker=program.worker)
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


def judge_tool_run(tool: str, returncode: int | None, log_text: str, cases: dict[str, ET.Element] | None,
                   names: list[str], output: str, timeout: float) -> ToolRun:
    """Judges one compute-sanitizer run of the tests `names`: from the
    sanitizer's own log (its summary lines), its exit status and GoogleTest's
    XML report (`cases` by full name, None when there was none); what the
    tests printed (`output`) only explains a failure."""
    what = f"compute-sanitizer {tool}"
    report = parse_sanitizer_log(log_text)
    step = last_step(output)
    during = f"\nwhile running: {step}" if step else ""
    if returncode is None:
        return ToolRun(tool, "timeout", f"{what} did not finish within {timeout:g} s{during}\nunder the sanitizer "
                       "the code runs many times slower, but these tests are small: look for an endless loop, or "
                       "far more kernel launches than the algorithm needs")
    if report.errors:
        noun = "hazard" if tool == "racecheck" else "error"
        lines = "\n".join(report.lines)
        return ToolRun(tool, "reported", f"{what} reported {report.errors} {noun}{'s' if report.errors != 1 else ''} "
                       f"({report.summary}); its first report lines:\n{lines}\nhint: {sanitizer_hint(tool, report)}",
                       errors=report.errors)
    if report.errors is None:
        ended = how_it_ended(returncode) if returncode else "it exited with status 0"
        return ToolRun(tool, "failed", f"{what} ended without its summary line ({ended}){during}\n"
                       f"--- the sanitizer's last output ---\n{cut(log_text.strip()[-OUTPUT_LIMIT:])}\n"
                       f"--- the tests' last output ---\n{test_output(output)}")
    if returncode == SANITIZER_ERROR_EXITCODE:
        return ToolRun(tool, "failed", f"{what} exited with status {returncode}, its status for errors found, but "
                       f"its summary counts none ({report.summary})\n--- the tests' last output ---\n"
                       f"{test_output(output)}", errors=0)
    if cases is None:
        return ToolRun(tool, "failed", f"under {what} the test program ended before it wrote its report: "
                       f"{how_it_ended(returncode) if returncode else 'it exited with status 0'}{during}\n"
                       f"--- its last output ---\n{test_output(output)}", errors=0)
    for name in names:
        case = cases.get(name)
        if case is None or case.get("status") != "run":
            return ToolRun(tool, "failed", f"under {what} the test program ended before it reported {name}: "
                           f"{how_it_ended(returncode) if returncode else 'it exited with status 0'}{during}\n"
                           f"--- its last output ---\n{test_output(output)}", errors=0)
        failures = "\n\n".join((f.text or f.get("message", "")).strip() for f in case.iter("failure"))
        if failures:
            return ToolRun(tool, "failed", f"under {what}, {name} failed. This item passes once the tests it runs "
                           f"pass and the sanitizer finds nothing; the test's own item says what is wrong:\n"
                           f"{cut(failures, OUTPUT_LIMIT // 2)}", errors=0)
        if case.get("result") == "skipped":
            skipped = case.find("skipped")
            reason = (skipped.get("message", "") if skipped is not None else "").split("\n", 1)[-1].strip()
            if missing_for(reason):
                return ToolRun(tool, "skipped", reason, errors=0, missing=missing_for(reason) or "")
            return ToolRun(tool, "failed", f"under {what}, {name} skipped itself for a reason the course does not "
                           f"define: '{reason}'", errors=0)
    if returncode != 0:
        return ToolRun(tool, "failed", f"under {what} the tests passed, but then {how_it_ended(returncode)} (in a "
                       "destructor, or at exit?)", errors=0)
    return ToolRun(tool, "clean", errors=0)


def sanitizer_verdict(runs: list[ToolRun]) -> tuple[str, str, str]:
    """The item's status, output and what was missing, from its tool runs: a
    report of the sanitizer first (it says what to fix), then a timeout, a
    failure, a skip; passed only when every tool ran clean."""
    reported = [r for r in runs if r.status == "reported"]
    if reported:
        also = [f"{r.tool} also reported {r.errors}" for r in reported[1:]]
        return "failed", cut("\n".join([reported[0].message, *also])), ""
    for status in ("timeout", "failed", "skipped"):
        run = next((r for r in runs if r.status == status), None)
        if run is not None:
            return status, cut(run.message), run.missing
    if {r.tool for r in runs if r.status == "clean"} != set(SANITIZER_TOOLS):
        return "failed", f"compute-sanitizer did not run all of {', '.join(SANITIZER_TOOLS)}", ""
    return "passed", "", ""


class Sanitizer:
    """Runs a lab's compute-sanitizer item: its tests under memcheck,
    racecheck and synccheck, one process per tool, each in the runner's
    scratch directory and limits with its own timeout. The sanitizer writes
    its text to a log file of a fresh unpredictable name, apart from what the
    code under test prints."""

    def __init__(self, path: str, runner: Runner, timeout: float = SANITIZER_TIMEOUT,
                 isolation: sandbox.Isolation | None = None):
        self.path, self.runner, self.timeout, self.isolation = path, runner, timeout, isolation

    def run_tool(self, tool: str, program: Program, patterns: list[str], names: list[str]) -> ToolRun:
        start = time.monotonic()
        with tempfile.TemporaryDirectory(prefix="sssp-sanitizer-", ignore_cleanup_errors=True) as work:
            token = secrets.token_hex(16)
            report, log = Path(work) / f"{token}.xml", Path(work) / f"{token}.log"
            tool_argv = [self.path, "--tool", tool, "--error-exitcode", str(SANITIZER_ERROR_EXITCODE),
                         "--print-limit", "20", "--log-file", str(log)]
            tests = [program.path, f"--gtest_filter={':'.join(patterns)}", "--gtest_color=no"]
            worker: tuple[str, ...] = ()
            if program.worker_path:
                # Only the worker, which runs the lab's code, is instrumented, inside its sandbox.
                worker = tuple(sandbox.worker_command(self.isolation or sandbox.Isolation("none"),
                                                      Path(program.worker_path), True, tool_argv, Path(work)))
                argv = tests
            else:
                argv = [*tool_argv, *tests]
            returncode, output = self.runner._execute(argv, report, Path(work), self.timeout,
                                                      self.runner.memory_mib * SANITIZER_MEMORY_FACTOR, worker)
            try:
                log_text = log.read_text(errors="replace")
            except OSError:
                log_text = ""
            try:
                cases: dict[str, ET.Element] | None = {
                    f"{c.get('classname')}.{c.get('name')}": c for c in ET.parse(report).getroot().iter("testcase")}
            except (OSError, ET.ParseError):
                cases = None
        run = judge_tool_run(tool, returncode, log_text, cases, names, output, self.timeout)
        run.seconds = time.monotonic() - start
        return run

    def run(self, program: Program, result: Result, patterns: list[str], names: list[str]) -> Result:
        """Runs every tool (all three, so that a test failing under one does
        not hide what another reports), stopping early only at a timeout or a
        skip, and judges the item."""
        start = time.monotonic()
        for tool in SANITIZER_TOOLS:
            run = self.run_tool(tool, program, patterns, names)
            result.sanitizer_runs.append(run)
            if run.status in ("timeout", "skipped"):
                break
        result.status, result.output, result.missing = sanitizer_verdict(result.sanitizer_runs)
        result.seconds = time.monotonic() - start
        return result


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
    """The files of labs/<lab>/ a student edits (labs/<lab>/.student-files,
    which make_skeleton.py writes: the files with task regions)."""
    listed = REPO / "labs" / lab / ".student-files"
    if not listed.is_file():
        raise GradingError(f"{listed} is missing: run common/tools/make_skeleton.py")
    return {line.strip() for line in listed.read_text().splitlines() if line.strip()}


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


def rubric_results(lab: str, entry: dict) -> list[Result]:
    """A result per graded item of the lab's rubric entry: its tests, then its
    compute-sanitizer item if it has one."""
    results = [Result(lab, name, float(e["points"]), e.get("visibility", "visible"))
               for name, e in entry["tests"].items()]
    if "sanitizer" in entry:
        item = entry["sanitizer"]
        results.append(Result(lab, SANITIZER_ITEM, float(item["points"]), item.get("visibility", "visible")))
    return results


def skip(result: Result, reason: str, missing: str) -> None:
    result.status, result.output, result.missing = "skipped", reason, missing


def grade_sanitizer_item(lab: str, entry: dict, item: Result, programs: list[Program], listed: dict,
                         unlisted: list[str], left_out: str, sanitizer: Sanitizer | tuple[str, str]) -> None:
    """Runs the lab's compute-sanitizer item on its GPU test program, or says
    why not: `sanitizer` is the (missing, reason) of its skip where it cannot
    run here. `listed` has the tests of each program that could list them."""
    gpu = next((p for p in programs if p.kind == "gpu"), None)
    if isinstance(sanitizer, tuple):
        skip(item, sanitizer[1], sanitizer[0])
    elif gpu is None:  # the GPU test program was not built here
        reason = left_out or "GPU test skipped: the lab's GPU test program was not built"
        skip(item, reason, missing_for(reason) or "no GPU")
    elif gpu not in listed:
        item.status, item.output = "failed", "\n".join(unlisted)
    else:
        patterns = entry["sanitizer"]["tests"]
        names = [name for name in listed[gpu] if gtest_filter_matches(patterns, name)]
        if not names:
            raise GradingError(f"{lab}: the sanitizer tests of tests/{lab}/rubric.json ({':'.join(patterns)}) match no "
                               f"test of {gpu.target}")
        sanitizer.run(gpu, item, patterns, names)
        runs = ", ".join(f"{r.tool} {r.status} {r.seconds:.0f} s" for r in item.sanitizer_runs)
        print(f"{lab}: {SANITIZER_ITEM} {item.status} on {len(names)} tests ({runs})", flush=True)


def grade_lab(lab: str, entry: dict, programs: list[Program], runner: Runner, left_out: str = "",
              sanitizer: Sanitizer | tuple[str, str] = SANITIZER_OFF, sanitizer_only: bool = False) -> LabReport:
    """Grades a lab's built programs. `left_out`, when set, is the skip reason
    of the rubric's tests that no program lists (its GPU programs were not
    built). The compute-sanitizer item runs after the tests, with `sanitizer`
    (or is skipped for the reason it holds); `sanitizer_only` grades that item only."""
    report = LabReport(lab, entry.get("title", lab))
    report.results = rubric_results(lab, entry)
    item = next((r for r in report.results if r.name == SANITIZER_ITEM), None)
    by_name = {r.name: r for r in report.results if r is not item}
    jobs, unlisted, listed = [], [], {}
    for program in programs:
        try:
            names = runner.list_tests(program)
        except ProgramError as error:
            unlisted.append(str(error))
            continue
        listed[program] = names
        for name in names:
            if name not in by_name:
                raise GradingError(f"{lab}: test {name} is not in tests/{lab}/rubric.json: give it points")
            jobs.append((program, by_name.pop(name)))
    if sanitizer_only:
        report.results, jobs, by_name = [item] if item else [], [], {}
    for result in by_name.values():
        if left_out and not unlisted:
            skip(result, left_out, missing_for(left_out) or "")
            continue
        if not unlisted:
            raise GradingError(f"{lab}: tests/{lab}/rubric.json lists tests that do not exist: {', '.join(by_name)}")
        result.status, result.output = "failed", "\n".join(unlisted)
    runner.run_all(jobs)
    if item is not None:  # after the tests: it would slow them down on the same GPU
        grade_sanitizer_item(lab, entry, item, programs, listed, unlisted, left_out, sanitizer)
    return report


def not_run(lab: str, entry: dict, status: str, output: str, missing: str = "",
            sanitizer_skip: tuple[str, str] | None = None, sanitizer_only: bool = False) -> LabReport:
    """The report of a lab none of whose tests ran, each with this status and
    output; its compute-sanitizer item too, unless `sanitizer_skip` (missing,
    reason) says it would have been skipped anyway."""
    report = LabReport(lab, entry.get("title", lab))
    report.results = rubric_results(lab, entry)
    for result in report.results:
        if result.name == SANITIZER_ITEM and sanitizer_skip is not None:
            skip(result, sanitizer_skip[1], sanitizer_skip[0])
        else:
            result.status, result.output, result.missing = status, output, missing
    if sanitizer_only:
        report.results = [r for r in report.results if r.name == SANITIZER_ITEM]
    return report


def sanitizer_for(args: argparse.Namespace, runner: Runner, gpu: bool,
                  isolation: sandbox.Isolation | None = None) -> Sanitizer | tuple[str, str]:
    """What runs the compute-sanitizer items here, or (missing, reason) of their skip."""
    if not args.sanitize:
        return SANITIZER_OFF
    if not gpu:
        return SANITIZER_NO_GPU
    path = find_sanitizer()
    return Sanitizer(path, runner, args.sanitizer_timeout, isolation) if path else SANITIZER_MISSING


WORKER_BUILD = "isolation"  # under the build directory: the staged sources and the sandboxed build of workers
# The course build's settings the sandboxed worker build is configured with.
WORKER_BUILD_SETTINGS = ("SSSP_ENABLE_CUDA", "CMAKE_CUDA_ARCHITECTURES", "CMAKE_CUDA_COMPILER", "CMAKE_BUILD_TYPE")


def cache_value(build_dir: Path, name: str) -> str | None:
    """A variable of the build's CMakeCache.txt, or None."""
    try:
        for line in (build_dir / "CMakeCache.txt").read_text().splitlines():
            if line.startswith(f"{name}:"):
                return line.split("=", 1)[1]
    except OSError:
        pass
    return None


def worker_sources(labs_dir: Path) -> dict[Path, Path]:
    """What a worker build needs (and nothing of the solutions, the tests or
    the graphs), by its path in the stage: the top CMakeLists.txt, common/'s
    library, the rpc layer, each lab's binding, and the labs graded from."""
    wanted: dict[Path, Path] = {Path("CMakeLists.txt"): REPO / "CMakeLists.txt"}
    for part in ("CMakeLists.txt", "cmake", "include", "src"):
        source = REPO / "common" / part
        for path in ([source] if source.is_file() else sorted(p for p in source.rglob("*") if p.is_file())):
            wanted[path.relative_to(REPO)] = path
    rpc = REPO / "tests" / "support" / "rpc"
    wanted.update({p.relative_to(REPO): p for p in sorted(rpc.iterdir()) if p.is_file()})
    wanted.update({b.relative_to(REPO): b for b in sorted(REPO.glob("tests/lab*/binding.cpp"))})
    for path in sorted(p for p in labs_dir.rglob("*") if p.is_file() and not p.is_symlink()):
        wanted[Path("labs") / path.relative_to(labs_dir)] = path
    return wanted


def stage_worker_sources(labs_dir: Path, stage: Path) -> None:
    """Makes `stage` hold worker_sources(labs_dir) and nothing else. A file is
    rewritten only when its content changed, so that its new time makes the
    build recompile it, and only then (build tools compare times, not
    contents: a copy that kept an older time would be taken as built)."""
    wanted = worker_sources(labs_dir)
    for relative, source in wanted.items():
        target = stage / relative
        content = source.read_bytes()
        if not target.is_file() or target.read_bytes() != content:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(content)
    for path in sorted((p for p in stage.rglob("*") if p.is_file()), reverse=True):
        if path.relative_to(stage) not in wanted:
            path.unlink()


def cmake_path() -> str:
    """CMake's resolved path: the sandbox has no PATH of the grader's."""
    found = shutil.which("cmake")
    return str(Path(found).resolve()) if found else "cmake"


def _configure_worker_build(build_dir: Path, stage: Path, out: Path, isolation: sandbox.Isolation,
                            gpu: bool) -> None:
    """Configures the sandboxed worker build of `stage` in `out` (once)."""
    if (out / "CMakeCache.txt").exists():
        return
    out.mkdir(parents=True, exist_ok=True)
    command = [cmake_path(), "-S", str(stage), "-B", str(out), "-G", "Ninja", "-DSSSP_WORKERS_ONLY=ON",
               f"-DCMAKE_MAKE_PROGRAM={shutil.which('ninja') or 'ninja'}",
               "-DSSSP_BUILD_TESTS=OFF", f"-DSSSP_LABS_DIR={stage / 'labs'}"]
    for name in WORKER_BUILD_SETTINGS:
        value = cache_value(build_dir, name)
        if value:
            command.append(f"-D{name}={value}")
    configured = subprocess.run(sandbox.build_command(isolation, stage, out, command, gpu),
                                capture_output=True, text=True, errors="replace")
    if configured.returncode != 0:
        raise GradingError("configuring the sandboxed worker build failed:\n"
                           + cut(configured.stdout + configured.stderr))


def _build_worker_target(stage: Path, out: Path, lab: str, isolation: sandbox.Isolation,
                         gpu: bool) -> subprocess.CompletedProcess:
    command = [cmake_path(), "--build", str(out), "--target", f"{lab}_worker_student"]
    print("+ (sandbox)", " ".join(command), flush=True)
    return subprocess.run(sandbox.build_command(isolation, stage, out, command, gpu), capture_output=True,
                          text=True, errors="replace")


def _start_from_pristine(build_dir: Path, root: Path, lab: str, isolation: sandbox.Isolation, gpu: bool) -> None:
    """Makes the stage and worker build of `root` the course's own: labs/ as
    shipped, built (the worker of `lab` and all it links), and nothing any
    submission compiled or left there. The first time builds that state and
    keeps a copy in root/pristine; later times restore the copy, at the same
    paths (CMake and Ninja record them) and with the same file times, so a
    submission recompiles only what it changed."""
    stage, out, pristine = root / "src", root / "build", root / "pristine"
    shutil.rmtree(stage, ignore_errors=True)
    shutil.rmtree(out, ignore_errors=True)
    # The copy is the course's code as it is now, built the way the course's
    # build is configured: anything else (a course update) builds it anew.
    digest = hashlib.sha256()
    for relative, source in sorted(worker_sources(REPO / "labs").items()):
        content = source.read_bytes()
        digest.update(f"{relative}\0{len(content)}\0".encode() + content)
    for name in WORKER_BUILD_SETTINGS:
        digest.update(f"{name}={cache_value(build_dir, name)}\0".encode())
    stamp = pristine / "course.sha256"
    if stamp.is_file() and stamp.read_text() == digest.hexdigest():
        shutil.copytree(pristine / "src", stage, symlinks=True)
        shutil.copytree(pristine / "build", out, symlinks=True)
        return
    shutil.rmtree(pristine, ignore_errors=True)
    stage_worker_sources(REPO / "labs", stage)
    _configure_worker_build(build_dir, stage, out, isolation, gpu)
    built = _build_worker_target(stage, out, lab, isolation, gpu)
    if built.returncode != 0:
        raise GradingError("the course's own worker code failed to build in the sandbox (not a student error):\n"
                           + cut(built.stdout + built.stderr))
    shutil.copytree(stage, pristine / "src", symlinks=True)
    shutil.copytree(out, pristine / "build", symlinks=True)
    stamp.write_text(digest.hexdigest())


def build_student_worker(build_dir: Path, labs_dir: Path, lab: str, isolation: sandbox.Isolation,
                         gpu: bool, state: dict) -> tuple[str | None, str | None]:
    """Compiles `lab`'s worker from the student's files inside the sandbox, in
    a build directory of its own; returns (the worker's path, None) or (None,
    the compiler's messages, with the staged paths made relative). With
    state["fresh"] (a submission) the build starts from the course's pristine
    one, so no submission sees what another compiled."""
    root = build_dir / WORKER_BUILD
    stage, out = root / "src", root / "build"
    if not state.get("staged"):
        if state.get("fresh"):
            _start_from_pristine(build_dir, root, lab, isolation, gpu)
        stage_worker_sources(labs_dir, stage)
        state["staged"] = True
    _configure_worker_build(build_dir, stage, out, isolation, gpu)
    built = _build_worker_target(stage, out, lab, isolation, gpu)
    text = (built.stdout + built.stderr).replace(f"{stage}/", "").replace(str(out), "<build>")
    print(text, end="", flush=True)
    if built.returncode != 0:
        return None, text
    return str(out / "workers" / f"{lab}_worker_student"), None


def grade(args: argparse.Namespace, labs: list[str], rubric: dict) -> list[LabReport]:
    build_dir = Path(args.build_dir).resolve()
    hidden = Path(args.hidden_graphs).resolve() if args.hidden_graphs else None
    if hidden is not None and not hidden.is_dir():
        raise GradingError(f"--hidden-graphs: {hidden} is not a directory")
    if not args.no_build:
        # Graded through workers, the build holds no student code: it keeps to labs/.
        configure(build_dir, args.data_dir, args.labs_dir if args.isolation is None else REPO / "labs")
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
    gpu = manifest["cuda_built"] and gpu_present()
    skip_gpu = not args.build_gpu_labs and manifest["cuda_built"] and not gpu
    isolation = args.isolation
    sanitizer = sanitizer_for(args, runner, gpu, isolation)
    workers = {(w["lab"], w["flavour"]): w["path"] for w in manifest.get("workers", [])}
    worker_state: dict = {"fresh": bool(args.submission)}
    sanitizer_skip = sanitizer if isinstance(sanitizer, tuple) else None
    only = args.sanitize_only

    reports = []
    for lab in labs:
        wanted = args.flavour if isolation is None else "isolated"
        programs = [Program(e["path"], e["kind"]) for e in manifest["executables"]
                    if e["lab"] == lab and e["flavour"] == wanted and (not only or e["kind"] == "gpu")]
        left_out = ""
        if skip_gpu and any(p.kind == "gpu" for p in programs):
            programs = [p for p in programs if p.kind != "gpu"]
            left_out = ("GPU test skipped: no NVIDIA GPU found (nvidia-smi -L, /dev/nvidia*), so the GPU test "
                        "programs were not built; --build-gpu-labs builds and runs them anyway")
            if not programs:
                reports.append(not_run(lab, rubric[lab], "skipped", left_out, missing_for(left_out) or "",
                                       sanitizer_skip, only))
                continue
        if not programs:
            gpu_lab = manifest["labs"].get(lab) == "GPU" and not manifest["cuda_built"]
            reason = (f"GPU test skipped: GPU lab not built: {manifest['cuda_disabled_reason']}" if gpu_lab
                      else "no test program was built for this lab")
            reports.append(not_run(lab, rubric[lab], "skipped" if gpu_lab else "failed", reason,
                                   missing_for(reason) or "", sanitizer_only=only))
            continue
        failed = None
        worker_path = ""
        if isolation is not None:
            # The test programs hold no student code: a failure to build them is the course's.
            trusted = [p.target for p in programs]
            if args.flavour != "student" or (args.no_build and not args.submission):
                worker_path = workers.get((lab, args.flavour), "")
                if not worker_path:
                    raise GradingError(f"{lab}: no worker for flavour {args.flavour} in {manifest_path}")
                trusted.append(Path(worker_path).name)
            if not args.no_build and build(build_dir, trusted) is not None:
                raise GradingError(f"{lab}: the course's test programs failed to build (see the output above)")
            if not worker_path:
                path, failed = build_student_worker(build_dir, Path(args.labs_dir), lab, isolation, False,
                                                    worker_state)
                worker_path = path or ""
            gpu_lab = manifest["labs"].get(lab) == "GPU"
            programs = [Program(p.path, p.kind, tuple(sandbox.worker_command(isolation, Path(worker_path), gpu_lab)),
                                worker_path) for p in programs]
        elif not args.no_build:
            failed = build(build_dir, [p.target for p in programs])
        if failed is not None:
            report = not_run(lab, rubric[lab], "failed", f"not run: {lab} did not compile", "",
                             sanitizer_skip, only)
            report.compiler_errors = compiler_errors(failed)
            reports.append(report)
            continue
        missing = [p.path for p in programs if not Path(p.path).exists()]
        if missing:
            raise GradingError(f"{lab}: not built: {', '.join(missing)}")
        reports.append(grade_lab(lab, rubric[lab], programs, runner, left_out, sanitizer, only))
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
    raise argparse.ArgumentTypeError("student, solution or mutant:NAME (tests/<lab>/mutants.json)")


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
    parser.add_argument("--no-build", action="store_true",
                        help="grade an existing build (a --submission's own code is still compiled, in the sandbox)")
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
    parser.add_argument("--sanitize", action=argparse.BooleanOptionalAction, default=True,
                        help="grade each GPU lab's compute-sanitizer item: its rubric's small set of GPU tests "
                             "under memcheck, racecheck and synccheck (default: on; skipped, with the reason, "
                             "where no GPU or compute-sanitizer is found)")
    parser.add_argument("--sanitize-only", action="store_true",
                        help="grade only the compute-sanitizer items (of the labs that have one)")
    parser.add_argument("--sanitizer-timeout", type=float, default=SANITIZER_TIMEOUT, metavar="SECONDS",
                        help=f"seconds per compute-sanitizer tool run (default {SANITIZER_TIMEOUT:g})")
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
    parser.add_argument("--in-process", action="store_true",
                        help="debugging only: run the in-process test programs, which link the lab's code as gdb, "
                             "cuda-gdb and compute-sanitizer see it; refused with --submission and --results-json "
                             "(the default grades through the worker: the test programs hold no student code, "
                             "which is compiled and run in a bubblewrap sandbox)")
    parser.add_argument("--allow-unsandboxed", action="store_true",
                        help="with --results-json: grade even where bubblewrap cannot sandbox the student's code")
    args = parser.parse_args(argv)
    build_dir = Path(args.build_dir).resolve()
    results_json = Path(args.results_json) if args.results_json else build_dir / "grading" / "results.json"
    junit = Path(args.junit) if args.junit else build_dir / "grading" / "junit.xml"

    notes: list[str] = []  # for the top of results.json
    try:
        rubric = lab_data.load_rubric()
        all_labs = list(rubric)
        labs = args.lab or all_labs
        unknown = [lab for lab in labs if lab not in rubric]
        if unknown:
            raise GradingError(f"unknown lab '{unknown[0]}'; the rubric has: {', '.join(all_labs)}")
        if args.in_process and (args.submission or args.results_json):
            raise GradingError("--in-process runs the lab's code inside the test programs, where it can decide "
                               "its own verdict: it is for debugging, never for grading a submission or writing "
                               "results.json")
        args.labs_dir = REPO / "labs"
        if args.submission:
            if args.flavour != "student":
                raise GradingError("--submission grades a student's files: it needs --flavour student")
            args.labs_dir = Path(args.build_dir).resolve() / "submission" / "labs"
            submitted, ignored = take_submission(Path(args.submission).resolve(), labs, args.labs_dir)
            if ignored:
                notes.append("Ignored, not lab files a student edits: " + ", ".join(ignored))
                print(notes[-1])
            if not submitted:
                editable = ", ".join(f"{lab}/{name}" for lab in labs for name in sorted(editable_files(lab)))
                raise GradingError(f"the submission holds no lab file to grade; expected any of: {editable}")
            labs = args.lab or submitted
        if args.sanitize_only:
            if not args.sanitize:
                raise GradingError("--sanitize-only and --no-sanitize contradict each other")
            labs = [lab for lab in labs if "sanitizer" in rubric[lab]]
            if not labs:
                raise GradingError("--sanitize-only: none of these labs has a compute-sanitizer item")
        if args.in_process:
            if args.flavour not in ("student", "solution"):
                raise GradingError(f"--in-process: {args.flavour} is built as a worker only (graded through it, "
                                   "as a submission is): drop --in-process")
            args.isolation = None
            notes.append("in-process run (debugging): the lab's code ran inside the test programs")
        else:
            args.isolation = sandbox.detect()
            notes.append(args.isolation.describe())
            if args.results_json and not args.isolation.sandboxed and not args.allow_unsandboxed:
                raise GradingError(f"grading for a platform needs a sandbox: {args.isolation.why} "
                                   "(--allow-unsandboxed grades anyway)")
        print(notes[-1], flush=True)
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
               "partial. Instructors: grade on a machine with a GPU and compute-sanitizer, the datasets and "
               "--hidden-graphs, or "
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
