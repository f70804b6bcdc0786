"""A GPU lab's compute-sanitizer item (the "sanitizer" entry of its rubric):
a small named set of its GPU tests run under memcheck, racecheck and
synccheck, one process per tool. Each run is judged from the tool's exit
status, GoogleTest's XML report and the test program's exit status; the
tool's log explains a failure and can fail a run, never pass it; what the
tests print only explains a failure. Where no GPU or no compute-sanitizer
is found, or with --no-sanitize, the item is skipped with the reason.

What the student's code can reach (issue 44). compute-sanitizer runs inside
the sandbox as the parent of the worker it watches, as the same user, so the
lab's code can do to the tool's files whatever the tool can:

- The verdict is the tool's exit status (--error-exitcode for errors found),
  recorded outside the sandbox: a shell between the test program and bwrap
  (_RECORD_EXITS) appends each start of the worker command and how it ended
  (bwrap passes the tool's status on, 128 + N for a signal) to a file of the
  grader's that the sandbox cannot see. A tool that is killed leaves a
  signal's status or no end at all: the run fails. Nothing the lab's code
  writes or prints makes a status 0.
- The log is the lab's code's to rewrite, so it is read for the message only:
  a report or a summary counting errors fails a run, a clean one proves
  nothing.
- The one folder the sandbox can write (logs/) holds the log alone. The test
  program's XML report and the recorded statuses sit beside it, in the
  grader's own folder, which is not bound in: nothing the grader writes or
  trusts is in the sandbox's reach. The log is opened without following a
  link and read only as a plain file of a single link, up to
  SANITIZER_LOG_LIMIT bytes; anything else in logs/ (a link, a second file, a
  folder) means the lab's code changed it, and the run fails unread.

Not ruled out: the lab's code runs inside the process the tool instruments
and could tamper with the tool's library there (or trace the tool where
ptrace is allowed) so that it reports nothing; a reader of the submission
sees that, the grader cannot. Without the sandbox (isolation none) the lab's
code reaches every file named here: such a run is no grade (reports.py).
"""
from __future__ import annotations

import concurrent.futures
import os
import re
import secrets
import shutil
import signal
import stat
import tempfile
import time
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

from . import sandbox  # where the student's code is compiled and runs

from .judging import Runner, last_step, missing_for, test_output
from .limits import OUTPUT_LIMIT, cut, how_it_ended
from .model import GradingError, Program, Result, ToolRun

# The compute-sanitizer item of a GPU lab (the lab's "sanitizer" entry in the rubric).
SANITIZER_ITEM = "compute-sanitizer"
SANITIZER_TOOLS = ("memcheck", "racecheck", "synccheck")  # run at once, judged and reported in this order
SANITIZER_TIMEOUT = 180.0  # default seconds per tool run (several tests, instrumented)
SANITIZER_ERROR_EXITCODE = 86  # --error-exitcode: the sanitizer found errors
SANITIZER_MEMORY_FACTOR = 4  # the sanitizer's own bookkeeping: its runs get this times the test cap
SANITIZER_REPORT_LINES = 15  # report lines shown in a failure message (each cut at 300 characters)
SANITIZER_LOG = "compute-sanitizer.log"  # the tool's --log-file, alone in the folder the sandbox can write
SANITIZER_LOG_LIMIT = 1 << 20  # bytes of the log read (its first and last half when longer)
# Runs between the test program and the sandbox, outside it: appends each
# start of the worker command ("$@") and its exit status to the file "$1",
# and exits with that status (the test program names it when a call fails).
_RECORD_EXITS = ('exits=$1; shift; echo started >>"$exits"; "$@"; status=$?; echo "ended $status" >>"$exits"; '
                 'exit $status')
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


def tool_patterns(item: dict) -> dict[str, list[str]]:
    """The gtest patterns each tool runs, from a rubric's "sanitizer" entry:
    its "tests", or for a tool named in its "tests_per_tool" those: a subset
    that still runs every kernel's code, for racecheck, which reports a
    shared-memory hazard whenever a launch makes the conflicting accesses,
    whatever their timing, and is slow per launch (lab 08: 95 s on the four
    tests, 16 s on two, H200). GradingError for a tool the item does not run
    or a tool given no test, which would otherwise pass having checked less."""
    own = item.get("tests_per_tool", {})
    unknown = sorted(set(own) - set(SANITIZER_TOOLS))
    if unknown:
        raise GradingError(f"compute-sanitizer item: tests_per_tool names {', '.join(unknown)}, which it does not run "
                           f"(it runs {', '.join(SANITIZER_TOOLS)})")
    empty = sorted(tool for tool, patterns in own.items() if not patterns)
    if empty:
        raise GradingError(f"compute-sanitizer item: tests_per_tool gives {', '.join(empty)} no test")
    return {tool: own.get(tool, item["tests"]) for tool in SANITIZER_TOOLS}


def parse_sanitizer_log(text: str) -> SanitizerReport:
    """Reads compute-sanitizer's log (its --log-file, which the code under
    test can rewrite: what it says can fail a run, never pass one): the
    summary lines (ERROR SUMMARY: N errors; racecheck's RACECHECK SUMMARY: N
    hazards displayed (E errors, W warnings)) and the first lines of its
    reports, backtraces left out. Only lines in the sanitizer's own
    "=========" format count."""
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
    """What a failure message of `tool` suggests, from the kind of its first report."""
    if tool == "memcheck" and report.lines and "Program hit" in report.lines[0]:
        return SANITIZER_HINTS["memcheck api"]
    return SANITIZER_HINTS[tool]


def find_sanitizer() -> str | None:
    """compute-sanitizer's path: on PATH, else in /usr/local/cuda/bin; None when neither has it."""
    found = shutil.which("compute-sanitizer")
    if found:
        return str(Path(found).resolve())
    return SANITIZER_FALLBACK if os.access(SANITIZER_FALLBACK, os.X_OK) else None


def read_plain_file(folder: int, name: str, limit: int = SANITIZER_LOG_LIMIT) -> tuple[str, str]:
    """The text of `name` in the open folder `folder` (its first and last
    limit/2 bytes when longer) and '', or ('', why not) when it is no plain
    file of a single link. A link is never followed, a FIFO never waited on."""
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=folder)
    except OSError as error:
        return "", f"{name} could not be opened as a plain file: {error.strerror}"
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_nlink != 1:
            return "", f"{name} is no plain file of a single link"
        if info.st_size <= limit:
            data = os.pread(fd, limit, 0)
        else:
            data = os.pread(fd, limit // 2, 0) + b"\n...\n" + os.pread(fd, limit // 2, info.st_size - limit // 2)
        return data.decode(errors="replace"), ""
    finally:
        os.close(fd)


def read_tool_log(logs: Path) -> tuple[str, str]:
    """The tool's log from `logs`, the folder the sandbox can write, and '';
    or ('', what shows that the lab's code changed the folder): anything but
    at most one plain file SANITIZER_LOG of a single link."""
    try:
        folder = os.open(logs, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError as error:
        return "", f"it could not be opened: {error.strerror}"
    try:
        names = os.listdir(folder)
        strays = sorted(name for name in names if name != SANITIZER_LOG)
        if strays:
            shown = ", ".join(ascii(name) for name in strays[:3])
            return "", f"{len(strays)} entr{'y' if len(strays) == 1 else 'ies'} the tool does not write: {shown}"
        return read_plain_file(folder, SANITIZER_LOG) if names else ("", "")
    finally:
        os.close(folder)


def recorded_exits(text: str) -> list[int | None]:
    """The tool's exit status for each start of the worker command that
    _RECORD_EXITS recorded; None for a start that did not end."""
    exits: list[int | None] = []
    for line in text.splitlines():
        if line == "started":
            exits.append(None)
        elif re.fullmatch(r"ended \d+", line) and exits and exits[-1] is None:
            exits[-1] = int(line.split()[1])
    return exits


def tool_status(status: int) -> str:
    """A recorded exit status of the tool in words: negative, the signal that
    killed it (in process); 128 + N, most likely signal N (bwrap's way)."""
    number = -status if status < 0 else status - 128 if 128 < status < 128 + 65 else 0
    if number:
        try:
            name = signal.Signals(number).name + ("?" if status > 0 else "")
            return f"status {status} (killed by signal {number}, {name})"
        except ValueError:
            pass
    return f"status {status}"


def judge_tool_run(tool: str, returncode: int | None, exits: list[int | None], log_text: str,
                   cases: dict[str, ET.Element] | None, names: list[str], output: str, timeout: float,
                   tampered: str = "") -> ToolRun:
    """Judges one compute-sanitizer run of the tests `names`: from the tool's
    exit status at each start of the worker (`exits`, recorded outside the
    sandbox; None for a run that did not end), GoogleTest's XML report
    (`cases` by full name, None when there was none) and the test program's
    exit status (`returncode`, None after a timeout). The tool's log
    (`log_text`) can fail the run, never pass it; `tampered` says what in its
    folder shows that the lab's code changed it. What the tests printed
    (`output`) only explains a failure."""
    what = f"compute-sanitizer {tool}"
    report = parse_sanitizer_log(log_text)
    step = last_step(output)
    during = f"\nwhile running: {step}" if step else ""
    if returncode is None:
        return ToolRun(tool, "timeout", f"{what} did not finish within {timeout:g} s{during}\nunder the sanitizer "
                       "the code runs many times slower, but these tests are small: look for an endless loop, or "
                       "far more kernel launches than the algorithm needs")
    if tampered:
        return ToolRun(tool, "failed", f"the folder of {what}'s log was changed by the lab's code ({tampered}): "
                       "the tool writes one plain file there. The item fails; the log was not read.")
    noun = "hazard" if tool == "racecheck" else "error"
    if report.errors:
        lines = "\n".join(report.lines)
        return ToolRun(tool, "reported", f"{what} reported {report.errors} {noun}{'s' if report.errors != 1 else ''} "
                       f"({report.summary}); its first report lines:\n{lines}\nhint: {sanitizer_hint(tool, report)}",
                       errors=report.errors)
    if SANITIZER_ERROR_EXITCODE in exits:
        return ToolRun(tool, "reported", f"{what} found {noun}s (it exited with status {SANITIZER_ERROR_EXITCODE}, "
                       f"its status for them), but its log holds no report of them: each start of the worker writes "
                       f"the log anew, or the lab's code changed it\nhint: {sanitizer_hint(tool, report)}")
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
            # The sanitizer's own lines (a process that did not end well, an
            # API error it saw) say what the test cannot: a worker that died
            # under the tool, for one.
            own = [line for line in report.lines if not _NOISE.match(line)]
            seen = ("\n--- compute-sanitizer's own lines ---\n" + "\n".join(own)) if own else ""
            return ToolRun(tool, "failed", f"under {what}, {name} failed. This item passes once the tests it runs "
                           f"pass and the sanitizer finds nothing; the test's own item says what is wrong:\n"
                           f"{cut(failures, OUTPUT_LIMIT // 2)}{seen}", errors=0)
        if case.get("result") == "skipped":
            skipped = case.find("skipped")
            reason = (skipped.get("message", "") if skipped is not None else "").split("\n", 1)[-1].strip()
            if missing_for(reason):
                return ToolRun(tool, "skipped", reason, errors=0, missing=missing_for(reason) or "")
            return ToolRun(tool, "failed", f"under {what}, {name} skipped itself for a reason the course does not "
                           f"define: '{reason}'", errors=0)
    # The tests passed: the run is clean only if every run of the tool ended with status 0.
    if not exits:
        how = "it never ran the lab's code"
    elif None in exits:
        how = ("a run of it did not end (the test program stops a worker that has not ended 2 s after its last "
               "call, or the lab's code killed the tool)")
    else:
        how = next((f"it ended with {tool_status(status)}" for status in exits if status), "")
    if how:
        return ToolRun(tool, "failed", f"under {what} the tests passed, but {how}{during}\n"
                       f"--- the sanitizer's last output ---\n{cut(log_text.strip()[-OUTPUT_LIMIT:])}", errors=0)
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
        also = [f"{r.tool} also reported {r.errors or 'errors'}" for r in reported[1:]]
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
    scratch directory and limits with its own timeout. The tool writes its
    text to a log file alone in the one folder the sandbox can write, apart
    from what the code under test prints; its exit status is recorded outside
    the sandbox."""

    def __init__(self, path: str, runner: Runner, timeout: float = SANITIZER_TIMEOUT,
                 isolation: sandbox.Isolation | None = None):
        self.path, self.runner, self.timeout, self.isolation = path, runner, timeout, isolation

    def run_tool(self, tool: str, program: Program, patterns: list[str], names: list[str]) -> ToolRun:
        """Runs `tool` on the tests `patterns` select (named `names`) and judges the run."""
        start = time.monotonic()
        with tempfile.TemporaryDirectory(prefix="sssp-sanitizer-", ignore_cleanup_errors=True) as work:
            # `work` is the grader's alone; only logs/ is bound into the sandbox.
            private, logs = Path(work), Path(work) / "logs"
            logs.mkdir()
            report, exits = private / f"{secrets.token_hex(16)}.xml", private / "exits"
            tool_argv = [self.path, "--tool", tool, "--error-exitcode", str(SANITIZER_ERROR_EXITCODE),
                         "--print-limit", "20", "--log-file", str(logs / SANITIZER_LOG)]
            tests = [program.path, f"--gtest_filter={':'.join(patterns)}", "--gtest_color=no"]
            worker: tuple[str, ...] = ()
            if program.worker_path:
                # Only the worker, which runs the lab's code, is instrumented, inside its sandbox.
                sandboxed = sandbox.worker_command(self.isolation or sandbox.Isolation("none"),
                                                   Path(program.worker_path), True, tool_argv, logs)
                worker = ("/bin/sh", "-c", _RECORD_EXITS, "record-exits", str(exits), *sandboxed)
                argv = tests
            else:
                argv = [*tool_argv, *tests]
            returncode, output = self.runner._execute(argv, report, private, self.timeout,
                                                      self.runner.memory_mib * SANITIZER_MEMORY_FACTOR, worker)
            log_text, tampered = read_tool_log(logs)
            if program.worker_path:
                folder = os.open(private, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
                try:
                    tool_exits = recorded_exits(read_plain_file(folder, exits.name)[0])
                finally:
                    os.close(folder)
            else:
                # In process (debugging), the tool is the process run: its status is the run's.
                tool_exits = [] if returncode is None else [returncode]
            try:
                cases: dict[str, ET.Element] | None = {
                    f"{c.get('classname')}.{c.get('name')}": c for c in ET.parse(report).getroot().iter("testcase")}
            except (OSError, ET.ParseError):
                cases = None
        run = judge_tool_run(tool, returncode, tool_exits, log_text, cases, names, output, self.timeout, tampered)
        run.seconds = time.monotonic() - start
        return run

    def run(self, program: Program, result: Result, tests: dict[str, tuple[list[str], list[str]]]) -> Result:
        """Runs every tool (all three, so that a test failing under one does
        not hide what another reports) on its tests, (patterns, the names they
        select) per tool, and judges the item. The three run at once, each in
        its own process: racecheck's time is mostly the tool's own work on the
        CPU (lab 08: 13 of the item's 17 s alone, as long beside four GPU
        tests, H200), so the item takes about racecheck's time, not the sum."""
        start = time.monotonic()
        with concurrent.futures.ThreadPoolExecutor(max_workers=len(SANITIZER_TOOLS)) as pool:
            runs = list(pool.map(lambda tool: self.run_tool(tool, program, *tests[tool]), SANITIZER_TOOLS))
        result.sanitizer_runs.extend(runs)
        result.status, result.output, result.missing = sanitizer_verdict(result.sanitizer_runs)
        result.seconds = time.monotonic() - start
        return result


@dataclass(frozen=True)
class SanitizerSetup:
    """How the compute-sanitizer items run here (as perf.PerfSetup says it of
    the performance items): the tool that runs them, or the (missing, reason)
    of their skip."""
    tool: Sanitizer | None = None
    skip: tuple[str, str] | None = SANITIZER_OFF


def sanitizer_for(sanitize: bool, timeout: float, runner: Runner, gpu: bool,
                  isolation: sandbox.Isolation | None = None) -> SanitizerSetup:
    """How the compute-sanitizer items run here (--sanitize, --sanitizer-timeout), or why they cannot."""
    if not sanitize:
        return SanitizerSetup(skip=SANITIZER_OFF)
    if not gpu:
        return SanitizerSetup(skip=SANITIZER_NO_GPU)
    path = find_sanitizer()
    if not path:
        return SanitizerSetup(skip=SANITIZER_MISSING)
    return SanitizerSetup(tool=Sanitizer(path, runner, timeout, isolation), skip=None)
