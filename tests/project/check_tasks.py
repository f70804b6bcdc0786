#!/usr/bin/env python3
"""Check the task map of each lab's tests/<lab>/rubric.json: which graded tests
grade which task.

    python3 -m tests.project.check_tasks --static
        every task region of solutions/<lab>/ (// BEGIN SOLUTION task N) has
        an entry in the lab's "tasks", each names graded tests of the lab,
        and every graded test belongs to at least one task (no build needed)
    python3 -m tests.project.check_tasks --build-dir BUILD --lab LAB [--hidden-graphs DIR] [--write]
        grades the solution once per task N with only task N unfinished (as
        the skeleton has it): exactly the tests listed under task N must fail,
        every other test must pass. Needs the build configured with
        -DSSSP_TASK_REVERTS=LAB (or ALL), which builds these variants as
        flavour revert:N. --write records what it saw as the lab's task map.

A test that skips here (no GPU, no dataset) proves nothing; a task whose
listed tests all skipped is "not verifiable here". Exit status: 0 when the
map holds, 1 when it does not, 77 (CTest: skipped) when nothing was verifiable.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
from tests.project import check_mutants  # runs every variant\'s tests at once, as the grader does
from tests.grader import lab_data  # each lab's rubric.json and mutants.json
from common.tools import make_skeleton  # the task regions, the same TODOs
from tests.grader import REPO
from tests.grader.judging import Runner
from tests.grader.limits import TEST_TIMEOUT


def solution_tasks(lab: str) -> dict[int, str]:
    """Task number -> title of every task region of the lab's solution."""
    tasks: dict[int, str] = {}
    for source in sorted((REPO / "solutions" / lab).iterdir()):
        if source.is_file() and source.suffix in make_skeleton.SOURCE_SUFFIXES:
            for line in source.read_text().splitlines():
                if begin := make_skeleton.BEGIN.match(line):
                    tasks.setdefault(int(begin["task"]), begin["title"])
    return tasks


def static_problems(rubric: dict) -> list[str]:
    problems = []
    for lab, entry in rubric.items():
        tasks, mapped = solution_tasks(lab), entry.get("tasks", {})
        for task, title in tasks.items():
            if str(task) not in mapped:
                problems.append(f"{lab}: task {task} ({title}) has no entry in the rubric's \"tasks\"")
        for task, tests in mapped.items():
            if not task.isdigit() or int(task) not in tasks:
                problems.append(f"{lab}: \"tasks\" names task {task}, which solutions/{lab} has no region of")
            problems += [f"{lab}: task {task} names {test}, which is not a graded test of the lab"
                         for test in tests if test not in entry["tests"]]
        listed = {test for tests in mapped.values() for test in tests}
        problems += [f"{lab}: graded test {test} belongs to no task (list it under the tasks it grades)"
                     for test in entry["tests"] if test not in listed]
    return problems


def check_reverts(args: argparse.Namespace, rubric: dict) -> int:
    lab, entry = args.lab, rubric[args.lab]
    manifest = json.loads((Path(args.build_dir) / "graded_tests.json").read_text())
    runner = Runner(TEST_TIMEOUT, args.memory_limit, Path(args.hidden_graphs) if args.hidden_graphs else None,
                    tests_per_process=args.tests_per_process)
    results = {int(task): r for (_, task), r in
               check_mutants.run_variants(runner, check_mutants.variant_programs(manifest, "revert", [lab]),
                                          args.gpu_jobs).items()}
    missing = sorted(set(solution_tasks(lab)) - set(results))
    if missing:
        print(f"{lab}: no test program for task {', '.join(map(str, missing))} with that task reverted in "
              f"{args.build_dir}: configure it with -DSSSP_TASK_REVERTS={lab} and build", file=sys.stderr)
        return 1
    failing = {task: [t for t in entry["tests"] if t in r and r[t].status in ("failed", "timeout")]
               for task, r in sorted(results.items())}
    if args.write:
        entry["tasks"] = {str(task): tests for task, tests in failing.items()}
        lab_data.write_rubric(lab, entry)
        skipped = sorted({t for r in results.values() for t, res in r.items() if res.status == "skipped"})
        print(f"wrote the task map of {lab}; skipped here, so in no task: {', '.join(skipped) or 'none'}")
        return 0

    problems, verified, unverifiable = [], 0, 0
    for task, r in sorted(results.items()):
        listed = entry.get("tasks", {}).get(str(task), [])
        ran = [t for t in listed if t in r and r[t].status != "skipped"]
        problems += [f"{lab}: with task {task} unfinished, {t} still passes: it does not grade task {task} "
                     "(take it out of the task's list)" for t in ran if r[t].status == "passed"]
        problems += [f"{lab}: with only task {task} unfinished, {t} fails: list it under task {task}"
                     for t in failing[task] if t not in listed]
        if ran:
            verified += 1
        else:
            unverifiable += 1
        print(f"{lab} task {task}: {len(failing[task])} of {len(r)} graded tests fail with it unfinished, "
              f"{len(listed) - len(ran)} of its {len(listed)} skipped here")
    return check_mutants.summarise(f"{lab}, {len(results)} tasks", problems, verified, unverifiable)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--static", action="store_true", help="check the map against the solutions only")
    parser.add_argument("--build-dir")
    parser.add_argument("--lab")
    parser.add_argument("--write", action="store_true", help="record the failing tests as the lab's task map")
    check_mutants.add_variant_options(parser)
    args = parser.parse_args()
    if args.tests_per_process < 1:
        parser.error(f"--tests-per-process must be at least 1, got {args.tests_per_process}")
    rubric = lab_data.load_rubric()
    if args.static:
        problems = static_problems(rubric)
        for problem in problems:
            print(f"FAILED: {problem}", file=sys.stderr)
        print(f"task map of tests/<lab>/rubric.json, {len(rubric)} labs: {len(problems)} problems")
        return 1 if problems else 0
    if not args.build_dir or args.lab not in rubric:
        parser.error("give --static, or --build-dir and --lab with a lab that has a tests/<lab>/rubric.json")
    return check_reverts(args, rubric)


if __name__ == "__main__":
    sys.exit(main())
