"""A lab's report against its rubric (tests/<lab>/rubric.json): a result for
every graded item, its tests and its compute-sanitizer item, each run or
else skipped or failed with the reason. The rubric and the tests the
programs list must agree, or grading stops.
"""
from __future__ import annotations

import dataclasses
import shutil
import time

from . import perf, plot
from .judging import Runner, gtest_filter_matches, missing_for
from .limits import GPU_TEST_JOBS
from .model import GradingError, LabReport, Program, ProgramError, Result
from .sanitizer import SANITIZER_ITEM, SanitizerSetup, tool_patterns

# The worker of a lab that did not compile: a program that exits at once, so
# that every call to the lab fails and no code of the lab runs.
NO_WORKER = (shutil.which("false") or "/bin/false",)


def rubric_results(lab: str, entry: dict) -> list[Result]:
    """A result per graded item of the lab's rubric entry: its tests, then its
    performance and compute-sanitizer items if it has them."""
    results = [Result(lab, name, float(e["points"]), e.get("visibility", "visible"))
               for name, e in entry["tests"].items()]
    if "perf" in entry:
        results.append(Result(lab, perf.PERF_ITEM, float(entry["perf"]["points"]),
                              entry["perf"].get("visibility", "visible")))
    if "sanitizer" in entry:
        item = entry["sanitizer"]
        results.append(Result(lab, SANITIZER_ITEM, float(item["points"]), item.get("visibility", "visible")))
    return results


def gpu_jobs_of(lab: str, entry: dict) -> int:
    """How many of the lab's GPU tests run at once: its rubric's "gpu_jobs",
    else GPU_TEST_JOBS. GradingError for a value that is not a whole number
    from 1 up."""
    jobs = entry.get("gpu_jobs", GPU_TEST_JOBS)
    if not isinstance(jobs, int) or isinstance(jobs, bool) or jobs < 1:
        raise GradingError(f"{lab}: gpu_jobs in tests/{lab}/rubric.json must be a whole number from 1 up, got {jobs!r}")
    return jobs


def gpu_alone(lab: str, entry: dict) -> frozenset[str]:
    """The graded tests of a rubric entry's "gpu_alone": tests that time the
    GPU (lab 05's copy/compute overlap reads event times), run with nothing
    beside them. GradingError for a name that is not a graded test: a typo
    would let that test run beside others, silently."""
    names = entry.get("gpu_alone", [])
    unknown = sorted(set(names) - set(entry["tests"]))
    if unknown:
        raise GradingError(f"{lab}: gpu_alone in tests/{lab}/rubric.json names {', '.join(unknown)}, "
                           "which are not graded tests of the lab")
    return frozenset(names)


def skip(result: Result, reason: str, missing: str) -> None:
    """Marks `result` skipped for `reason`, `missing` saying what was missing."""
    result.status, result.output, result.missing = "skipped", reason, missing


def item_skip(programs: list[Program], left_out: str, cannot_run: tuple[str, str] | None) -> tuple[str, str] | None:
    """Why a GPU lab's sanitizer or performance item is skipped here, as
    (missing, reason), or None when it runs: `cannot_run` is the item's own
    (no compute-sanitizer, no reference, turned off), else no GPU program built."""
    if cannot_run is not None:
        return cannot_run
    if not any(p.kind == "gpu" for p in programs):
        reason = left_out or "GPU test skipped: the lab's GPU test program was not built"
        return missing_for(reason) or "no GPU", reason
    return None


def grade_sanitizer_item(lab: str, entry: dict, item: Result, programs: list[Program], listed: dict,
                         unlisted: list[str], left_out: str, sanitizer: SanitizerSetup) -> None:
    """Runs the lab's compute-sanitizer item on its GPU test program, or says
    why not: `sanitizer.skip` where it cannot run here. `listed` has the tests
    of each program that could list them."""
    gpu = next((p for p in programs if p.kind == "gpu"), None)
    why = item_skip(programs, left_out, sanitizer.skip)
    if why is not None:
        skip(item, why[1], why[0])
    elif gpu not in listed:
        item.status, item.output = "failed", "\n".join(unlisted)
    else:
        tests = {}
        for tool, patterns in tool_patterns(entry["sanitizer"]).items():
            names = [name for name in listed[gpu] if gtest_filter_matches(patterns, name)]
            if not names:
                raise GradingError(f"{lab}: the {tool} tests of tests/{lab}/rubric.json ({':'.join(patterns)}) match "
                                   f"no test of {gpu.target}")
            tests[tool] = (patterns, names)
        sanitizer.tool.run(gpu, item, tests)
        runs = ", ".join(f"{r.tool} {r.status} on {len(tests[r.tool][1])} tests {r.seconds:.0f} s"
                         for r in item.sanitizer_runs)
        print(f"{lab}: {SANITIZER_ITEM} {item.status} ({runs})", flush=True)


def grade_perf_item(lab: str, entry: dict, item: Result, programs: list[Program], listed: dict,
                    unlisted: list[str], left_out: str, setup: perf.PerfSetup, runner: Runner) -> None:
    """Times the lab's solver against the reference (tests/grader/perf.py) into
    `item`, or says why not, and draws the plot where matplotlib is present."""
    gpu = next((p for p in programs if p.kind == "gpu"), None)
    why = item_skip(programs, left_out, setup.skip)
    if why is not None:
        skip(item, why[1], why[0])
        return
    if gpu not in listed:
        item.status, item.output = "failed", "\n".join(unlisted)
        return
    if not any(name.startswith(perf.PERF_SUITE) for name in listed[gpu]):
        raise GradingError(f"{lab}: tests/{lab}/rubric.json has a perf item but {gpu.target} has no "
                           f"{perf.PERF_SUITE}* test")
    plan = perf.parse_plan(entry["perf"])
    reference = Program(gpu.path, gpu.kind, setup.reference_worker)
    item.perf_scores = perf.grade_item(item, plan, gpu, reference, runner)
    print(f"{lab}: {perf.PERF_ITEM}: {item.score:.2f} / {item.points:g}\n{item.output}", flush=True)
    if setup.plots is not None and item.perf_scores:
        perf.write_json(lab, item.perf_scores, plan, item.score, setup.plots / f"perf-{lab}.json")
        drawn = plot.draw_perf(lab, item.perf_scores, plan, setup.plots / f"perf-{lab}.svg")
        if drawn:
            item.output += f"\nplot: {drawn}"


def lab_jobs(lab: str, entry: dict, programs: list[Program], runner: Runner, left_out: str, sanitizer_only: bool,
             perf_only: bool) -> tuple[LabReport, list[tuple[Program, Result]], dict, list[str]]:
    """A lab's report with a result per graded item, and its tests to run:
    each with the program that lists it; the rubric's tests no program lists
    skipped for `left_out`, or failed with why a program could not list its
    tests. Also each program's tests, and those whys."""
    report = LabReport(lab, entry.get("title", lab))
    report.results = rubric_results(lab, entry)
    item = next((r for r in report.results if r.name == SANITIZER_ITEM), None)
    perf_item = next((r for r in report.results if r.name == perf.PERF_ITEM), None)
    by_name = {r.name: r for r in report.results if r is not item and r is not perf_item}
    jobs, unlisted, listed = [], [], {}
    for program in programs:
        try:
            names = runner.list_tests(program)
        except ProgramError as error:
            unlisted.append(str(error))
            continue
        listed[program] = names
        for name in names:
            if name.startswith(perf.PERF_SUITE):
                continue  # the performance item's timed runs, graded below
            if name not in by_name:
                raise GradingError(f"{lab}: test {name} is not in tests/{lab}/rubric.json: give it points")
            jobs.append((program, by_name.pop(name)))
    if sanitizer_only:
        report.results, jobs, by_name = [item] if item else [], [], {}
    if perf_only:
        report.results, jobs, by_name = [perf_item] if perf_item else [], [], {}
    for result in by_name.values():
        if left_out and not unlisted:
            skip(result, left_out, missing_for(left_out) or "")
            continue
        if not unlisted:
            raise GradingError(f"{lab}: tests/{lab}/rubric.json lists tests that do not exist: {', '.join(by_name)}")
        result.status, result.output = "failed", "\n".join(unlisted)
    return report, jobs, listed, unlisted


def grade_lab(lab: str, entry: dict, programs: list[Program], runner: Runner, left_out: str = "", *,
              sanitizer: SanitizerSetup = SanitizerSetup(), sanitizer_only: bool = False,
              perf_setup: perf.PerfSetup = perf.PerfSetup(), perf_only: bool = False,
              sanitizer_beside_tests: bool = False, gpu_jobs: int | None = None) -> LabReport:
    """Grades a lab's built programs. `left_out`, when set, is the skip reason
    of the rubric's tests that no program lists (its GPU programs were not
    built). The performance item runs after the tests, as `perf_setup` says,
    then the compute-sanitizer item with `sanitizer` (or each is skipped for
    the reason it holds); `sanitizer_only` and `perf_only` grade that item only.
    With `sanitizer_beside_tests` the compute-sanitizer item runs beside the
    GPU tests that share the GPU instead of after the performance item (never
    beside a test that times the GPU, a hidden-graph test or the performance
    item). The GPU tests run `gpu_jobs` at a time (None: gpu_jobs_of(entry))."""
    report, jobs, listed, unlisted = lab_jobs(lab, entry, programs, runner, left_out, sanitizer_only, perf_only)
    item = next((r for r in report.results if r.name == SANITIZER_ITEM), None)
    perf_item = next((r for r in report.results if r.name == perf.PERF_ITEM), None)

    def sanitize() -> None:
        started = time.monotonic()
        grade_sanitizer_item(lab, entry, item, programs, listed, unlisted, left_out, sanitizer)
        report.seconds["compute-sanitizer"] = time.monotonic() - started

    beside = sanitizer_beside_tests and item is not None and not perf_only and not sanitizer_only
    started = time.monotonic()
    runner.run_all(jobs, gpu_workers=gpu_jobs or gpu_jobs_of(lab, entry), alone=gpu_alone(lab, entry),
                   beside=sanitize if beside else None)
    report.seconds["graded tests"] = time.monotonic() - started
    if perf_item is not None and not sanitizer_only:  # alone on the GPU: after the tests
        started = time.monotonic()
        grade_perf_item(lab, entry, perf_item, programs, listed, unlisted, left_out, perf_setup, runner)
        report.seconds["performance"] = time.monotonic() - started
    if item is not None and not perf_only and not beside:  # after the tests: it slows them on the same GPU
        sanitize()
    return report


def not_compiled(lab: str, entry: dict, programs: list[Program], runner: Runner, left_out: str, *,
                 sanitizer: SanitizerSetup, sanitizer_only: bool, perf_setup: perf.PerfSetup,
                 perf_only: bool) -> LabReport:
    """The report of a lab whose code did not compile: every graded item
    failed but those a compiled run would skip here, skipped as they would
    be, so that the maximum is the same. The course's test programs decide
    their own skips (a dataset, the hidden graphs or a GPU missing) before
    they call the lab: they run with a worker that cannot start (no code of
    the lab runs), and what they report is read for skips only."""
    programs = [dataclasses.replace(program, worker=NO_WORKER) for program in programs]
    report, jobs, _, _ = lab_jobs(lab, entry, programs, runner, left_out, sanitizer_only, perf_only)
    runner.run_all(jobs)
    item_reasons = {perf.PERF_ITEM: perf_setup.skip,
                    SANITIZER_ITEM: sanitizer.skip}
    for result in report.results:
        why = item_skip(programs, left_out, item_reasons[result.name]) if result.name in item_reasons else None
        if why is not None:
            skip(result, why[1], why[0])
        elif result.status != "skipped":
            result.status, result.output = "failed", f"not run: {lab} did not compile"
    return report


def not_run(lab: str, entry: dict, status: str, output: str, *, missing: str = "",
            sanitizer_skip: tuple[str, str] | None = None, sanitizer_only: bool = False,
            perf_only: bool = False) -> LabReport:
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
    if perf_only:
        report.results = [r for r in report.results if r.name == perf.PERF_ITEM]
    return report
