#!/usr/bin/env python3
"""Show that the graded tests catch deliberately wrong solutions.

    python3 -m tests.project.check_mutants --build-dir BUILD [--hidden-graphs DIR] [--lab LAB]... [--mutant NAME]... [--repeat N]
                  [--must-fail-only] [--tests-per-process N]

For every mutant in the labs' solutions/<lab>/mutants.json (built by CMake as
flavour "mutant:<name>"), runs the lab's graded tests as the grader does (a few
to a process, a test not passed there again alone), with the grader's default
timeout and a memory cap (a mutant may
loop forever, or grow a heap without bound), and requires every test the
mutant lists under must_fail to fail. A timeout counts as caught only because it is
the grader's own: a student's code that slow scores nothing either.

A mutant with "caught_by": "perf" (right answers, slowly) is left to
tests/project/check_perf.py. A mutant with "caught_by": "sanitizer" (a race, a write out of bounds: bugs
the graded tests need not see) is instead checked with the lab's
compute-sanitizer item, as tests/grade.py grades it (the rubric's sanitizer
tests under memcheck, racecheck and synccheck): the item must fail with a
report of the tool named in "sanitizer_tool". Its graded tests are not run.

--repeat N checks N times in a row, for races: the first run is the full one
above, each later run repeats only the must_fail tests, and a mutant is
caught only if every run caught it (a race test that catches its mutant only
sometimes is not a test). Sanitizer mutants are checked once.

--must-fail-only runs only the must_fail tests in the first run too: the
verdict is the same, without the survey of which other tests catch each
mutant (on an H100, 2026-11-27, the survey of 23 mutants of labs 07-09 did not
end in 270 s: with this option a GPU session can afford the 5-run proof).

--tests-per-process N runs N tests to a process (default: the grader's
batch size). 1 runs a mutant's tests side by side: lab 02's flag_never_reset
loops forever in two tests, which in one batch time out one after the other
(120 s a run, 60 s with 1; H200, 2026-11-30).

A mutant is verified when every one of its must_fail tests ran and failed in
every run (or its sanitizer item ran and the tool reported it); a must_fail test that
skipped here (no GPU, no dataset), or a sanitizer item that could not run (no
GPU, no compute-sanitizer), proves nothing, so its mutant is "not verifiable
here" (with --require-all, a failure). The last line on stdout is the summary.
Exit status: 0 when every mutant is caught, 1 when a must_fail test passes or
is no test of the lab, 77 (CTest: skipped) when no mutant could be verified.
"""
from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import sys
import time
from pathlib import Path

from tests.grader import lab_data  # each lab's rubric.json and mutants.json
from tests.grader import sandbox  # how a worker is started and confined
# tests/grader/: the same test runner and compute-sanitizer item the grader uses.
# gpu_present is looked up in pipeline, where the tests replace it.
from tests.grader import pipeline
from tests.grader.judging import Runner, gtest_filter_matches
from tests.grader.limits import TEST_TIMEOUT, TESTS_PER_PROCESS
from tests.grader.model import Program, ProgramError, Result
from tests.grader.sanitizer import SANITIZER_ITEM, SANITIZER_TIMEOUT, SANITIZER_TOOLS, sanitizer_for, tool_patterns


GPU_JOBS = min(os.cpu_count() or 1, 4)


def add_variant_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--hidden-graphs")
    # Lower than the grader's default: CI runs two test processes at a time,
    # and a variant that grows without bound would take all of its cap. Not
    # lower than 2048: lab 05's CopiesOverlapRelaxation sends a 256 MiB matrix
    # to the worker, and at 1024 MiB it failed for memory alone (H100,
    # 2026-11-27), which would count a mutant as caught for the wrong reason.
    parser.add_argument("--memory-limit", type=int, default=2048, metavar="MIB",
                        help="data-segment cap per test process (default 2048 MiB)")
    parser.add_argument("--gpu-jobs", type=int, default=GPU_JOBS, metavar="N",
                        help=f"GPU test processes at a time (default {GPU_JOBS}; the grader runs one)")
    # 1 runs the tests of a mutant that hangs side by side: a batch of two
    # that hang costs two timeouts in a row, and --repeat 5 pays that 5 times.
    parser.add_argument("--tests-per-process", type=int, default=TESTS_PER_PROCESS, metavar="N",
                        help=f"tests run in one process, as the grader runs them (default {TESTS_PER_PROCESS})")


def variant_programs(manifest: dict, prefix: str, labs: list[str] | None) -> dict[tuple[str, str], list]:
    """The test programs of each variant of flavour PREFIX:NAME, by (lab, NAME):
    the lab's isolated test programs, their calls to the lab going to the
    variant's worker, as a submission's go to its worker when it is graded.
    A variant of a lab with cpu and gpu tests has two programs: its tests may
    be in either, so its results are pooled. The variants are the course's
    own code, so their workers run unsandboxed (the sandbox is no part of
    what a test checks)."""
    isolated = {}
    for exe in manifest["executables"]:
        if exe["flavour"] == "isolated":
            isolated.setdefault(exe["lab"], []).append(exe)
    unsandboxed = sandbox.Isolation("none")
    programs: dict[tuple[str, str], list[Program]] = {}
    for worker in manifest.get("workers", []):
        lab, flavour = worker["lab"], worker["flavour"]
        if flavour.startswith(f"{prefix}:") and (not labs or lab in labs):
            gpu_lab = manifest["labs"].get(lab) == "GPU"
            command = tuple(sandbox.worker_command(unsandboxed, Path(worker["path"]), gpu_lab))
            programs[(lab, flavour.split(":", 1)[1])] = [
                Program(exe["path"], exe["kind"], command, worker["path"]) for exe in isolated.get(lab, [])]
    return programs


def run_variants(runner: Runner, programs: dict[tuple[str, str], list], gpu_jobs: int,
                 only: dict[tuple[str, str], list[str]] | None = None
                 ) -> dict[tuple[str, str], dict[str, Result]]:
    """Runs every graded test of every variant (or, with only, those tests of
    each variant), all at once (independent processes: CPU tests by CPU
    count, GPU tests gpu_jobs at a time); returns the results by variant and
    test name."""
    every_program = [p for ps in programs.values() for p in ps]
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        names = dict(zip(every_program, pool.map(runner.list_tests, every_program)))
    jobs = {key: [(p, Result(key[0], test, 0.0, "visible")) for p in ps for test in names[p]
                  if only is None or test in only[key]]
            for key, ps in programs.items()}
    runner.run_all([job for variant_jobs in jobs.values() for job in variant_jobs], gpu_workers=gpu_jobs)
    return {key: {r.name: r for _, r in variant_jobs} for key, variant_jobs in jobs.items()}


def timed_out(results: dict[str, Result], caught: list[str]) -> str:
    """The note ", N of them by the grader's timeout" when some tests caught
    their mutant only by running out of time (each repeat of those costs the
    whole timeout: the first thing to look at when the runs are slow)."""
    slow = [t for t in caught if results[t].status == "timeout"]
    return f", {len(slow)} of them by the {TEST_TIMEOUT:g} s timeout ({', '.join(slow)})" if slow else ""


def run_line(number: int, runs: int, results: dict[tuple[str, str], dict[str, Result]],
             must_fail: dict[tuple[str, str], list[str]], seconds: float) -> str:
    """One run's progress line over the mutants' must_fail tests: how many
    mutants they all caught, how many escaped (one of them passed: named),
    how many could not be judged (a test skipped or did not run), and how
    long the run took."""
    caught = escaped = unjudged = slow = 0
    passed = []
    for key, by_test in results.items():
        statuses = [by_test[t].status if t in by_test else "not run" for t in must_fail[key]]
        slow += statuses.count("timeout")
        passed += [f"{key[0]}/{key[1]}: {t}" for t, st in zip(must_fail[key], statuses) if st == "passed"]
        if "passed" in statuses:
            escaped += 1
        elif statuses and all(st in ("failed", "timeout") for st in statuses):
            caught += 1
        else:
            unjudged += 1
    return (f"run {number} of {runs}: {caught} of {len(results)} mutants caught, {escaped} escaped, "
            f"{unjudged} not judged here (a must_fail test skipped or did not run)"
            + (f"; {slow} tests caught by the timeout" if slow else "") + f"; {seconds:.0f} s"
            + "".join(f"\n  passed: {e}" for e in sorted(passed)))


def summarise(what: str, problems: list[str], verified: int, unverifiable: int) -> int:
    """Prints the problems (stderr) and then the summary, last on stdout;
    returns the exit status: 1 on a problem, 77 when nothing was verified."""
    sys.stdout.flush()  # the problems follow the lines already printed
    for problem in problems:
        print(f"FAILED: {problem}", file=sys.stderr, flush=True)
    print(f"{what}: verified {verified}, not verifiable here {unverifiable}, {len(problems)} problems",
          flush=True)
    if problems:
        return 1
    return 0 if verified else 77


def check_sanitizer_mutants(args: argparse.Namespace, runner: Runner, mutants: dict,
                            programs: dict[tuple[str, str], list]) -> tuple[list[str], int, int]:
    """Runs the compute-sanitizer item of each sanitizer mutant; returns the
    problems and the counts of verified and unverifiable mutants."""
    if not programs:
        return [], 0, 0
    rubric = lab_data.load_rubric()
    sanitizer = sanitizer_for(args.sanitize, args.sanitizer_timeout, runner, pipeline.gpu_present())
    problems, verified, unverifiable = [], 0, 0
    for (lab, name), lab_programs in programs.items():
        mutant, entry = mutants[lab][name], rubric[lab]
        tool = mutant.get("sanitizer_tool")
        gpu = next((p for p in lab_programs if p.kind == "gpu"), None)
        if "sanitizer" not in entry or tool not in SANITIZER_TOOLS or gpu is None:
            problems.append(f"{lab}/{name}: a sanitizer mutant needs the lab's \"sanitizer\" entry in the rubric, "
                            f"a GPU test program and \"sanitizer_tool\" (one of {', '.join(SANITIZER_TOOLS)})")
            continue
        if sanitizer.skip is not None:
            unverifiable += 1
            print(f"{lab}/{name}: not verifiable here: {sanitizer.skip[1]}")
            continue
        try:
            listed = runner.list_tests(gpu)
        except ProgramError as error:
            problems.append(f"{lab}/{name}: {error}")
            continue
        tests = {t: (patterns, [n for n in listed if gtest_filter_matches(patterns, n)])
                 for t, patterns in tool_patterns(entry["sanitizer"]).items()}
        empty = [f"{t} ({':'.join(patterns)})" for t, (patterns, names) in tests.items() if not names]
        if empty:
            problems.append(f"{lab}/{name}: the rubric's sanitizer tests match no test: {', '.join(empty)}")
            continue
        result = sanitizer.tool.run(gpu, Result(lab, SANITIZER_ITEM, 0.0, "visible"), tests)
        runs = ", ".join(f"{r.tool} {r.status} on {len(tests[r.tool][1])} tests" + (f" ({r.errors})" if r.errors else "")
                         for r in result.sanitizer_runs)
        print(f"{lab}/{name}: {SANITIZER_ITEM} item {result.status} ({runs})"
              f" (must be reported by {tool})")
        if result.status == "skipped":
            unverifiable += 1
            print(f"  not verifiable here: {result.output}")
        elif any(r.tool == tool and r.status == "reported" for r in result.sanitizer_runs):
            verified += 1
        else:
            problems.append(f"{lab}/{name}: compute-sanitizer {tool} did not report this wrong solution "
                            f"(item {result.status}): the sanitizer tests of the rubric do not reach the bug"
                            + (f"\n{result.output}" if result.output else ""))
    return problems, verified, unverifiable


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build-dir", required=True)
    parser.add_argument("--lab", action="append", help="check only this lab's mutants (repeatable)")
    parser.add_argument("--mutant", action="append", help="check only the mutant of this name (repeatable)")
    add_variant_options(parser)
    parser.add_argument("--require-all", action="store_true",
                        help="a mutant not verifiable here is a failure (on a GPU machine every one must be)")
    parser.add_argument("--repeat", type=int, default=1, metavar="N",
                        help="check N times in a row; runs after the first repeat only the must_fail tests")
    parser.add_argument("--must-fail-only", action="store_true",
                        help="run only the must_fail tests in the first run too (no survey of the other tests)")
    parser.add_argument("--sanitizer-timeout", type=float, default=SANITIZER_TIMEOUT, metavar="SECONDS",
                        help=f"seconds per compute-sanitizer tool run (default {SANITIZER_TIMEOUT:g})")
    args = parser.parse_args()
    if args.tests_per_process < 1:
        parser.error(f"--tests-per-process must be at least 1, got {args.tests_per_process}")
    if args.repeat < 1:
        parser.error(f"--repeat must be at least 1, got {args.repeat}")
    args.sanitize = True
    manifest = json.loads((Path(args.build_dir) / "graded_tests.json").read_text())
    mutants = {lab: {m["name"]: m for m in entries} for lab, entries in lab_data.load_mutants().items()}
    hidden = Path(args.hidden_graphs) if args.hidden_graphs else None
    runner = Runner(TEST_TIMEOUT, args.memory_limit, hidden, tests_per_process=args.tests_per_process)
    # A mutant "caught_by": "perf" is right but slow: tests/project/check_perf.py checks it.
    programs = {key: ps for key, ps in variant_programs(manifest, "mutant", args.lab).items()
                if (not args.mutant or key[1] in args.mutant) and mutants[key[0]][key[1]].get("caught_by") != "perf"}
    if not programs:
        named = f" named {', '.join(args.mutant)}" if args.mutant else ""
        print(f"no mutants were built in {args.build_dir} (graded_tests.json lists none"
              f"{' of ' + ', '.join(args.lab) if args.lab else ''}{named})", file=sys.stderr)
        return 1
    missing = sorted({path for ps in programs.values() for p in ps for path in (p.path, p.worker_path)
                      if path and not Path(path).exists()})
    if missing:
        print(f"{len(missing)} programs the mutants need are not built in {args.build_dir}, e.g. {missing[0]}: "
              f"build them first (cmake --build {args.build_dir}, or name their targets)", file=sys.stderr)
        return 1
    by_sanitizer = {key: ps for key, ps in programs.items() if mutants[key[0]][key[1]].get("caught_by") == "sanitizer"}
    by_tests = {key: ps for key, ps in programs.items() if key not in by_sanitizer}
    must_fail_of = {key: mutants[key[0]][key[1]]["must_fail"] for key in by_tests}
    start = time.monotonic()
    jobs = run_variants(runner, by_tests, args.gpu_jobs, only=must_fail_of if args.must_fail_only else None)
    first_seconds = time.monotonic() - start

    problems, verified, unverifiable = check_sanitizer_mutants(args, runner, mutants, by_sanitizer)
    for (lab, name), results in jobs.items():
        must_fail = mutants[lab][name]["must_fail"]
        caught = [t for t, r in results.items() if r.status in ("failed", "timeout")]
        for test in must_fail:
            if test not in results:
                problems.append(f"{lab}/{name}: {test} is not a test of this lab (fix solutions/{lab}/mutants.json)")
        of = "of its must_fail tests" if args.must_fail_only else "graded tests"
        print(f"{lab}/{name}: caught by {len(caught)} of {len(results)} {of}{timed_out(results, caught)}"
              f" (must fail: {', '.join(must_fail)})", flush=True)
    # Each run's verdict on the must_fail tests; runs after the first repeat only
    # those. One line per run, as it ends: a machine that limits how long a
    # command may run shows how far it got, and what each run cost.
    runs = [jobs]
    if args.repeat > 1 and by_tests:
        print(run_line(1, args.repeat, jobs, must_fail_of, first_seconds), flush=True)
    for number in range(2, args.repeat + 1 if by_tests else 2):
        start = time.monotonic()
        runs.append(run_variants(runner, by_tests, args.gpu_jobs, only=must_fail_of))
        print(run_line(number, args.repeat, runs[-1], must_fail_of, time.monotonic() - start), flush=True)
    for lab, name in jobs:
        must_fail = [t for t in mutants[lab][name]["must_fail"] if t in jobs[(lab, name)]]
        if len(must_fail) < len(mutants[lab][name]["must_fail"]):
            continue  # a problem already
        passed_in = [i + 1 for i, run in enumerate(runs) if any(run[(lab, name)][t].status == "passed" for t in must_fail)]
        skipped = sorted({t for run in runs for t in must_fail if run[(lab, name)][t].status == "skipped"})
        if passed_in:
            weak = sorted({t for i in passed_in for t in must_fail if runs[i - 1][(lab, name)][t].status == "passed"})
            problems.append(f"{lab}/{name}: {', '.join(weak)} PASSES on this wrong solution in run"
                            f"{'s' if len(passed_in) > 1 else ''} {', '.join(map(str, passed_in))} of {len(runs)}: "
                            + ("the test is too weak" if len(passed_in) == len(runs)
                               else "the test catches it only sometimes (a race it must catch every time)"))
        elif skipped:
            unverifiable += 1
            reasons = sorted({run[(lab, name)][t].missing or run[(lab, name)][t].output
                              for run in runs for t in skipped if run[(lab, name)][t].status == "skipped"})
            print(f"{lab}/{name}: not verifiable here: {', '.join(skipped)} skipped ({'; '.join(reasons)})")
        elif all(run[(lab, name)][t].status in ("failed", "timeout") for run in runs for t in must_fail):
            verified += 1
        else:
            problems.append(f"{lab}/{name}: a must_fail test did not run: "
                            + ", ".join(sorted({f"{t} {run[(lab, name)][t].status}" for run in runs for t in must_fail})))
    what = f"{len(programs)} mutants" + (f", {args.repeat} runs in a row" if args.repeat > 1 else "")
    if args.require_all and unverifiable:
        problems.append(f"{unverifiable} mutants were not verifiable here (--require-all): see the lines above")
    return summarise(what, problems, verified, unverifiable)


if __name__ == "__main__":
    sys.exit(main())
