"""What grading reports: the score table and the failures on the console,
Gradescope's results.json and JUnit XML. Skipped tests are listed with their
reason and points, never shown as passed or failed. A report file is written
whole, by a rename over the old one (a link planted in its place is
replaced, never followed); grade.py writes them once every process grading
started is gone (cli.py). A run where the student's code was not sandboxed
could have changed its own verdicts: its results.json says it is no grade.
"""
from __future__ import annotations

import json
import os
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

from .model import LabReport, Result


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
    """Prints each lab's counts and score, then the skipped tests; returns the total score and maximum."""
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


def print_times(reports: list[LabReport]) -> None:
    """One line per lab: the wall seconds of each grading phase that ran."""
    for report in reports:
        if report.seconds:
            phases = ", ".join(f"{phase} {seconds:.1f} s" for phase, seconds in report.seconds.items())
            print(f"{report.lab}: time: {phases}")


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


def replace_file(path: Path, data: bytes) -> None:
    """Makes `path` hold `data`: written to a new file beside it, then renamed
    over it, so that it is whole or not there, and a link in its place is
    replaced rather than followed."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "wb") as out:
            os.fchmod(out.fileno(), 0o644)
            out.write(data)
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


def write_gradescope(reports: list[LabReport], path: Path, message: str, not_a_grade: str = "") -> None:
    """Gradescope's results.json. A test has "passed" or "failed" only, so the
    skipped tests are listed in the top-level output (and extra_data) rather
    than shown as failures. There is no top-level score: Gradescope then totals
    the tests itself, and hides the total from students while any test is not
    yet visible to them (after_published), so the total reveals nothing early.
    `not_a_grade` says why the run is no grade (the student's code was not
    sandboxed): then the top-level score is 0, which Gradescope takes over
    the tests' total, the output starts with NOT A GRADE, and extra_data
    holds not_a_grade and the tests' total. With no test (grading stopped:
    `message` says why) the score is 0, which Gradescope's schema asks for."""
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
    extra: dict = {}
    if not_a_grade or not tests:  # Gradescope refuses a results.json with neither tests nor a score
        results["score"] = 0
    if not_a_grade:
        message = (f"NOT A GRADE: {not_a_grade}, so it could have changed its own results; the score is 0 "
                   "(the tests' points are shown for reference only)\n\n" + message).strip()
        extra.update(not_a_grade=True, tests_score=sum(t["score"] for t in tests),
                     tests_max_score=sum(t["max_score"] for t in tests))
    output = "\n\n".join(part for part in (message, skipped_summary(reports)) if part)
    if output:
        results["output"] = output
    skipped = [{"name": f"{r.lab}: {r.name}", "points": r.points, "missing": r.missing, "reason": r.output}
               for report in reports for r in report.results if r.status == "skipped"]
    if skipped:
        extra["skipped"] = skipped
    seconds = {report.lab: {phase: round(s, 1) for phase, s in report.seconds.items()}
               for report in reports if report.seconds}
    if seconds:
        extra["seconds"] = seconds
    if extra:
        results["extra_data"] = extra
    replace_file(path, json.dumps(results, indent=2).encode())


def write_junit(reports: list[LabReport], path: Path) -> None:
    """JUnit XML: a testsuite per lab, a testcase per graded item (with a compiler error, its messages)."""
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
    replace_file(path, ET.tostring(suites, encoding="utf-8", xml_declaration=True))
