#!/usr/bin/env python3
"""Write a variant of a lab's solution sources to OUT_DIR.

    python3 -m tests.project.make_mutant LAB NAME SOLUTION_DIR OUT_DIR
      mutant NAME of tests/LAB/mutants.json: one snippet replaced ("file",
      "find", "replace"), or several ("changes": a list of such objects). Fails
      if a snippet to replace is not found exactly once (the solution changed:
      update tests/LAB/mutants.json).
    python3 -m tests.project.make_mutant --revert-task LAB N SOLUTION_DIR OUT_DIR
      the solution with task N as the skeleton has it (make_skeleton.py) and
      every other task solved: what tests/project/check_tasks.py grades.
"""
from __future__ import annotations

import sys
from pathlib import Path

from tests.grader import lab_data  # each lab's rubric.json and mutants.json
from common.tools import make_skeleton  # the task regions, the same TODOs


def mutate(lab: str, name: str, solution_dir: str) -> dict[str, str] | None:
    mutant = next((m for m in lab_data.lab_mutants(lab) if m["name"] == name), None)
    if mutant is None:
        print(f"{lab} has no mutant {name} in {lab_data.mutants_path(lab)}", file=sys.stderr)
        return None
    changes: dict[str, list[dict]] = {}
    for change in mutant.get("changes", [mutant]):
        changes.setdefault(change["file"], []).append(change)
    files = {}
    for source in sources(solution_dir):
        text = source.read_text()
        for change in changes.pop(source.name, []):
            count = text.count(change["find"])
            if count != 1:
                print(f"mutant {name}: '{change['find']}' occurs {count} times in {source}, expected once",
                      file=sys.stderr)
                return None
            text = text.replace(change["find"], change["replace"])
        files[source.name] = text
    if changes:
        print(f"mutant {name}: {', '.join(changes)} is not a source file of {solution_dir}", file=sys.stderr)
        return None
    return files


def solve_other_tasks(text: str, task: int) -> tuple[str, int]:
    """The text with every region of a task other than `task` replaced by its
    solution, and the number of regions of `task` left in it."""
    out, regions, state = [], 0, "outside"  # outside | solution | skeleton (of another task's region)
    for line in text.splitlines(keepends=True):
        begin = make_skeleton.BEGIN.match(line)
        if begin:
            if int(begin["task"]) != task:
                state = "solution"
                continue
            regions += 1
        elif state != "outside" and make_skeleton.END.match(line):
            state = "outside"
            continue
        elif state == "solution" and make_skeleton.SKELETON.match(line):
            state = "skeleton"
        if state != "skeleton":
            out.append(line)
    return "".join(out), regions


def revert(lab: str, task: int, solution_dir: str) -> dict[str, str] | None:
    number = int(make_skeleton.LAB_DIR.match(lab)["number"])
    files, regions = {}, 0
    for source in sources(solution_dir):
        text, count = solve_other_tasks(source.read_text(), task)
        files[source.name] = make_skeleton.derive(text, number, f"solutions/{lab}/{source.name}")
        regions += count
    if not regions:
        print(f"{lab} has no region of task {task} (// BEGIN SOLUTION task {task}: ...)", file=sys.stderr)
        return None
    return files


def sources(solution_dir: str) -> list[Path]:
    return [p for p in Path(solution_dir).iterdir() if p.is_file() and p.suffix in make_skeleton.SOURCE_SUFFIXES]


def main(argv: list[str]) -> int:
    if argv[:1] in (["-h"], ["--help"]):
        print(__doc__)
        return 0
    if len(argv) != (5 if argv[:1] == ["--revert-task"] else 4):
        print(f"make_mutant.py: wrong arguments {argv}\n{__doc__}", file=sys.stderr)
        return 2
    if argv[0] == "--revert-task":
        lab, task, solution_dir, out_dir = argv[1:]
        files = revert(lab, int(task), solution_dir)
    else:
        lab, name, solution_dir, out_dir = argv
        files = mutate(lab, name, solution_dir)
    if files is None:
        return 1
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        target = out / name
        if not target.exists() or target.read_text() != text:  # unchanged files keep their build
            target.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
