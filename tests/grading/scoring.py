"""A lab's report against its rubric (tests/<lab>/rubric.json): a result for
every graded item, its tests and its compute-sanitizer item, each run or
else skipped or failed with the reason. The rubric and the tests the
programs list must agree, or grading stops.
"""
from __future__ import annotations

from .judging import Runner, gtest_filter_matches, missing_for
from .model import GradingError, LabReport, Program, ProgramError, Result
from .sanitizer import SANITIZER_ITEM, SANITIZER_OFF, Sanitizer


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
    """Marks `result` skipped for `reason`, `missing` saying what was missing."""
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
