"""tests/grade.py's command line: its options, the checks of their
combinations, the order of the steps (intake, isolation, grading, stopping
every process grading started, reports) and the exit status.
tests/grader/__main__.py's docstring documents the command.

The reports are written last, once every process below grade.py is gone:
grade.py is a subreaper (PR_SET_CHILD_SUBREAPER), so a process the
submission leaves behind, even in a session of its own, is handed to it when
its parent ends, and is found and killed before a report is written. Without
the sandbox this is what stops a leftover process from rewriting the
reports; processes started by other means (a service of the system, another
login) are beyond it, which is one reason such a run is no grade.
"""
from __future__ import annotations

import argparse
import ctypes
import os
import re
import signal
import subprocess
import sys
import time
import traceback
from pathlib import Path

from . import lab_data  # each lab's rubric.json
from . import sandbox  # where the student's code is compiled and runs

from . import REPO, intake, pipeline
from .limits import GPU_TEST_JOBS, MEMORY_LIMIT_MIB, TEST_TIMEOUT, TESTS_PER_PROCESS
from .model import GradingConfig, GradingError, LabReport
from .reports import print_failures, print_table, print_times, write_gradescope, write_junit
from .sanitizer import SANITIZER_TIMEOUT


def flavour(value: str) -> str:
    """--flavour's type: student, solution or mutant:NAME."""
    if value in ("student", "solution") or re.fullmatch(r"mutant:\w+", value):
        return value
    raise argparse.ArgumentTypeError("student, solution or mutant:NAME (solutions/<lab>/mutants.json)")


def add_item_options(parser: argparse.ArgumentParser, flag: str, item: str, what: str, skipped_where: str) -> None:
    """--FLAG / --no-FLAG and --FLAG-only for one of the GPU labs' extra items
    (compute-sanitizer, performance): on by default, skipped with the reason
    where it cannot run."""
    parser.add_argument(f"--{flag}", action=argparse.BooleanOptionalAction, default=True,
                        help=f"grade each GPU lab's {item} item: {what} (default: on; skipped, with the reason, "
                             f"where {skipped_where} is found)")
    parser.add_argument(f"--{flag}-only", action="store_true",
                        help=f"grade only the {item} items (of the labs that have one)")


PR_SET_CHILD_SUBREAPER = 36  # <linux/prctl.h>
STOP_PATIENCE = 30.0  # seconds to wait for killed processes to be gone


def become_subreaper() -> None:
    """Makes the processes below this one that lose their parent this one's
    children, rather than init's, so that stop_descendants finds them."""
    if ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        raise GradingError(f"prctl(PR_SET_CHILD_SUBREAPER): {os.strerror(ctypes.get_errno())}")


def descendants() -> dict[int, tuple[int, str]]:
    """The processes below this one, each with its parent and state (/proc/PID/stat)."""
    processes = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:  # gone meanwhile
            continue
        state, parent = text[text.rindex(")") + 2:].split()[:2]
        processes[int(stat.parent.name)] = (int(parent), state)
    below: dict[int, tuple[int, str]] = {}
    parents = {os.getpid()}
    while parents:
        children = {pid: entry for pid, entry in processes.items() if entry[0] in parents and pid not in below}
        below.update(children)
        parents = set(children)
    return below


def stop_descendants(spared: set[int]) -> list[int]:
    """Kills every process below this one but `spared`, round after round
    (the children of a killed one are handed to this one, a subreaper), and
    reaps them; returns those still there after STOP_PATIENCE seconds."""
    deadline = time.monotonic() + STOP_PATIENCE
    while True:
        below = {pid: entry for pid, entry in descendants().items() if pid not in spared}
        for pid, (parent, state) in below.items():
            try:
                if state != "Z":
                    os.kill(pid, signal.SIGKILL)
                if parent == os.getpid():
                    os.waitpid(pid, os.WNOHANG)
            except (ProcessLookupError, ChildProcessError):
                pass
        alive = [pid for pid, (_, state) in below.items() if state != "Z"]
        if not alive or time.monotonic() > deadline:
            return alive
        time.sleep(0.05)


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


def main(argv: list[str], description: str) -> int:
    """Grades as `argv` asks; returns the exit status. `description`, the
    command's documentation, is what --help prints."""
    with_solutions = (REPO / "solutions").is_dir()
    if not with_solutions:
        # The student release: no reference to grade or time, so no option or example that needs one.
        description = "\n".join(line for line in description.splitlines()
                                 if "--flavour" not in line and "--perf-only" not in line)
    parser = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build-dir", default=str(REPO / "build"), help="build directory (default: build)")
    parser.add_argument("--no-build", action="store_true",
                        help="grade an existing build (a --submission's own code is still compiled, in the sandbox)")
    parser.add_argument("--build-only", action="store_true",
                        help="build what grading the labs needs (GPU test programs and the reference included, "
                             "GPU or not) and grade nothing: for runs with --no-build elsewhere (grade_bulk.py)")
    parser.add_argument("--work-dir", metavar="DIR",
                        help="where a --submission's files, its sandboxed worker build and the plots go (default: "
                             "the build directory); runs at the same time need one each (a second run in one "
                             "waits for the first to end), the build is only read")
    parser.add_argument("--lab", action="append", help="grade only this lab (repeatable)")
    parser.add_argument("--flavour", type=flavour, default="student",
                        help="grade labs/ (student, default), solutions/ (solution) or a mutant (mutant:NAME)"
                        if with_solutions else argparse.SUPPRESS)
    parser.add_argument("--data-dir", help="directory with the real graphs (default: the build's SSSP_DATA_DIR)")
    parser.add_argument("--hidden-graphs", help="directory of hidden graph files (instructors)")
    parser.add_argument("--submission", metavar="DIR",
                        help="grade the lab files in DIR (a student's submission) in place of labs/; other "
                             "files are ignored and listed; the labs graded are those submitted, or --lab")
    parser.add_argument("--timeout", type=float, default=TEST_TIMEOUT,
                        help=f"seconds per test (default {TEST_TIMEOUT:g})")
    parser.add_argument("--build-gpu-labs", action="store_true",
                        help="build and run the GPU test programs even where no NVIDIA GPU is found")
    add_item_options(parser, "sanitize", "compute-sanitizer",
                     "its rubric's small set of GPU tests under memcheck, racecheck and synccheck",
                     "no GPU or compute-sanitizer")
    add_item_options(parser, "perf", "performance",
                     "its solver timed against the reference solution's in the same run, on the rubric's graphs",
                     "no GPU or no reference solution")
    parser.add_argument("--sanitizer-timeout", type=float, default=SANITIZER_TIMEOUT, metavar="SECONDS",
                        help=f"seconds per compute-sanitizer tool run (default {SANITIZER_TIMEOUT:g})")
    parser.add_argument("--sanitizer-beside-tests", action=argparse.BooleanOptionalAction,
                        default=True,
                        help="run the compute-sanitizer item beside the GPU tests that share the GPU (default; never "
                             "beside a test that times the GPU, a hidden-graph test or the performance item); "
                             "--no-sanitizer-beside-tests runs it alone after the performance item, a longer grading")
    parser.add_argument("--gpu-jobs", type=int, metavar="N",
                        help=f"GPU test processes at a time (default: the lab's rubric \"gpu_jobs\", else "
                             f"{GPU_TEST_JOBS}); a test that times the GPU still runs alone")
    parser.add_argument("--tests-per-process", type=int, default=TESTS_PER_PROCESS, metavar="N",
                        help=f"graded tests run one after another in a test process (default {TESTS_PER_PROCESS}; "
                             "1: each in its own); a test that does not pass there runs again alone, and that run "
                             "decides it, unless it crashed or timed out while it ran first there")
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
    if args.gpu_jobs is not None and args.gpu_jobs < 1:
        parser.error("--gpu-jobs needs at least 1")
    if args.tests_per_process < 1:
        parser.error("--tests-per-process needs at least 1")
    spared = set(descendants())  # a caller's own processes (grade.main called as a library)
    build_dir = Path(args.build_dir).resolve()
    work_dir = Path(args.work_dir).resolve() if args.work_dir else build_dir
    results_json = Path(args.results_json) if args.results_json else build_dir / "grading" / "results.json"
    junit = Path(args.junit) if args.junit else build_dir / "grading" / "junit.xml"

    notes: list[str] = []  # for the top of results.json
    missing = ""  # the lab files a submission lacks: first in results.json, and said again under the table
    try:
        # A previous run's reports must not pass for this run's, should this one stop early.
        for report in (results_json, junit):
            report.unlink(missing_ok=True)
        become_subreaper()
        rubric = lab_data.load_rubric()
        all_labs = list(rubric)
        labs = args.lab or all_labs
        unknown = [lab for lab in labs if lab not in rubric]
        if unknown:
            raise GradingError(f"unknown lab '{unknown[0]}'; the rubric has: {', '.join(all_labs)}")
        if args.build_only:
            if args.no_build or args.submission or args.in_process:
                raise GradingError("--build-only builds for later runs: not with --no-build, --submission or "
                                   "--in-process")
            pipeline.build_for_grading(build_dir, args.data_dir, labs)
            print(f"built for grading {', '.join(labs)} in {build_dir}")
            return 0
        if args.in_process and (args.submission or args.results_json):
            raise GradingError("--in-process runs the lab's code inside the test programs, where it can decide "
                               "its own verdict: it is for debugging, never for grading a submission or writing "
                               "results.json")
        labs_dir = REPO / "labs"
        if args.submission:
            if args.flavour != "student":
                raise GradingError("--submission grades a student's files: it needs --flavour student")
            labs_dir = work_dir / "submission" / "labs"
            upload = intake.take_submission(Path(args.submission).resolve(), labs, labs_dir)
            if upload.missing:
                # First: a missing file costs the points of its tasks, and the student must see why.
                missing = (f"MISSING from the upload, so graded as the untouched skeleton: "
                           f"{', '.join(upload.missing)}")
                print(missing)
            if upload.ignored:
                shown = upload.ignored[:intake.LISTED_LIMIT]
                more = len(upload.ignored) - len(shown)
                notes.append("Ignored, not lab files a student edits: " + ", ".join(shown)
                             + (f" and {more} more" if more else ""))
                print(notes[-1])
            labs = args.lab or upload.labs
        if args.sanitize_only:
            if not args.sanitize:
                raise GradingError("--sanitize-only and --no-sanitize contradict each other")
            labs = [lab for lab in labs if "sanitizer" in rubric[lab]]
            if not labs:
                raise GradingError("--sanitize-only: none of these labs has a compute-sanitizer item")
        if args.perf_only:
            if not args.perf or args.sanitize_only:
                raise GradingError("--perf-only contradicts --no-perf and --sanitize-only")
            labs = [lab for lab in labs if "perf" in rubric[lab]]
            if not labs:
                raise GradingError("--perf-only: none of these labs has a performance item")
        if args.in_process:
            if args.flavour not in ("student", "solution"):
                raise GradingError(f"--in-process: {args.flavour} is built as a worker only (graded through it, "
                                   "as a submission is): drop --in-process")
            isolation = None
            notes.append("in-process run (debugging): the lab's code ran inside the test programs")
        else:
            isolation = sandbox.detect()
            notes.append(isolation.describe())
            if args.results_json and not isolation.sandboxed and not args.allow_unsandboxed:
                raise GradingError(f"grading for a platform needs a sandbox: {isolation.why} "
                                   "(--allow-unsandboxed grades anyway)")
        print(notes[-1], flush=True)
        if args.expect == "zero" and args.flavour == "student":
            # A student's own work is no untouched skeleton: say so instead of failing.
            edited = intake.hand_edited_labs(labs)
            for lab, files in edited.items():
                print(f"not checked: {lab} was edited by hand ({', '.join(files)})")
            labs = [lab for lab in labs if lab not in edited]
        config = GradingConfig(
            build_dir=build_dir, work_dir=work_dir, labs_dir=labs_dir, isolation=isolation, flavour=args.flavour,
            no_build=args.no_build, submission=bool(args.submission), data_dir=args.data_dir,
            hidden_graphs=args.hidden_graphs, timeout=args.timeout, memory_limit=args.memory_limit,
            build_gpu_labs=args.build_gpu_labs, sanitize=args.sanitize, sanitize_only=args.sanitize_only,
            sanitizer_timeout=args.sanitizer_timeout, sanitizer_beside_tests=args.sanitizer_beside_tests,
            gpu_jobs=args.gpu_jobs, tests_per_process=args.tests_per_process, perf=args.perf,
            perf_only=args.perf_only)
        reports = pipeline.grade(config, labs, rubric)
    except Exception as error:  # noqa: BLE001  (results.json must say why grading stopped)
        if not isinstance(error, (GradingError, OSError, subprocess.SubprocessError)):
            traceback.print_exc()
        print(f"grade.py: {error}", file=sys.stderr)
        stop_descendants(spared)
        fault = "UPLOAD NOT GRADED" if isinstance(error, intake.UploadError) else "AUTOGRADER ERROR, not a grade"
        write_gradescope([], results_json, f"{fault}: {error}")
        junit.unlink(missing_ok=True)  # one written meanwhile is no report of this run
        return 2
    left = stop_descendants(spared)
    if left:
        error = (f"AUTOGRADER ERROR, not a grade: processes started by grading could not be stopped "
                 f"(PIDs {', '.join(map(str, left))}), so they could rewrite any report")
        print(f"grade.py: {error}", file=sys.stderr)
        write_gradescope([], results_json, error)
        return 2

    print_failures(reports, args.show_failures)
    score, maximum = print_table(reports)
    print_times(reports)
    skips_refused = args.results_json and not args.allow_skips and any(
        r.status == "skipped" for rep in reports for r in rep.results)
    message = ("GRADING INCOMPLETE: this grader could not run every graded test, so the score below is "
               "partial. Instructors: grade on a machine with a GPU and compute-sanitizer, the datasets and "
               "--hidden-graphs, or "
               "pass --allow-skips to accept it." if skips_refused else "")
    if isolation is None:
        not_a_grade = "the lab's code ran inside the test programs (--in-process)"
    else:
        not_a_grade = "" if isolation.sandboxed else "the student's code ran without the sandbox"
    write_gradescope(reports, results_json, "\n\n".join(p for p in (missing, message, *notes) if p),
                     not_a_grade)
    write_junit(reports, junit)
    print(f"\nreports: {results_json}, {junit}" + (f"\nNOT A GRADE: {not_a_grade}" if not_a_grade else "")
          + (f"\n{missing}" if missing else ""))
    if skips_refused:
        print(f"grade.py: {message}", file=sys.stderr)
        return 2
    return check_expectation(args.expect, reports, score, maximum) if args.expect else 0
