"""A lab's grading data: the one loader every Python tool of the course
reads it with.

    tests/<lab>/rubric.json        the lab's rubric entry: title, the points
                                   and visibility of each graded test, the
                                   task map, for a GPU lab its
                                   compute-sanitizer item
    solutions/<lab>/mutants.json   the lab's deliberately wrong versions of
                                   its solution, beside it (solution code:
                                   instructors only, never released)

The formats are described in docs/conventions.md ("A lab's rubric.json and
mutants.json"). Which labs exist is read in one place, course_labs(): the
top-level CMakeLists.txt's `sssp_add_lab(LAB CPU|GPU ...)` lines, in course
order (project.lab_folders holds every lab's folders to that list); a lab
without the file has no entry.

    course_labs()       {lab: "CPU" or "GPU"}, every lab of the course
    load_rubric()       {lab: rubric entry}, every lab with a rubric.json
    load_mutants()      {lab: [mutant, ...]}, every lab with a mutants.json
    lab_mutants(lab)    the lab's list of mutants ([] without the file)
    write_rubric(lab, entry)   rewrites the lab's rubric.json (check_tasks.py --write)
    rubric_path(lab), mutants_path(lab), labs_with(filename)

`tests` arguments name another tests/ folder (a release's, a test's copy);
the mutants are read from the solutions/ folder beside it.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]  # tests/, holding one folder per lab
RUBRIC_FILE = "rubric.json"
MUTANTS_FILE = "mutants.json"
LAB_DECLARATION = re.compile(r"^sssp_add_lab\((?P<lab>lab\d+_\w+)\s+(?P<kind>CPU|GPU)\b", re.M)


def course_labs(repo: Path | None = None) -> dict[str, str]:
    """Which labs exist: {lab: "CPU" or "GPU"}, in course order, as the top-level CMakeLists.txt declares them
    (sssp_add_lab(LAB CPU|GPU ...)): the one list every tool of the course reads."""
    text = ((repo or TESTS.parent) / "CMakeLists.txt").read_text()
    return {m["lab"]: m["kind"] for m in LAB_DECLARATION.finditer(text)}


def labs_with(filename: str, tests: Path | None = None) -> list[str]:
    """The labs with a `filename` (RUBRIC_FILE or MUTANTS_FILE) where the loaders read it, in course order."""
    tests = tests or TESTS
    where = mutants_path if filename == MUTANTS_FILE else rubric_path
    return [lab for lab in course_labs(tests.parent) if where(lab, tests).is_file()]


def rubric_path(lab: str, tests: Path | None = None) -> Path:
    return (tests or TESTS) / lab / RUBRIC_FILE


def mutants_path(lab: str, tests: Path | None = None) -> Path:
    return (tests or TESTS).parent / "solutions" / lab / MUTANTS_FILE


def load_rubric(tests: Path | None = None) -> dict[str, dict]:
    """{lab: the lab's rubric entry}, in lab order."""
    return {lab: json.loads(rubric_path(lab, tests).read_text()) for lab in labs_with(RUBRIC_FILE, tests)}


def load_mutants(tests: Path | None = None) -> dict[str, list[dict]]:
    """{lab: the lab's mutants}, in lab order."""
    return {lab: json.loads(mutants_path(lab, tests).read_text()) for lab in labs_with(MUTANTS_FILE, tests)}


def lab_mutants(lab: str, tests: Path | None = None) -> list[dict]:
    """The mutants of one lab; none when the lab has no mutants.json."""
    path = mutants_path(lab, tests)
    return json.loads(path.read_text()) if path.is_file() else []


def dumps(data) -> str:
    """The files' format: JSON indented by 2, ending with a newline (readable diffs)."""
    return json.dumps(data, indent=2) + "\n"


def write_rubric(lab: str, entry: dict, tests: Path | None = None) -> None:
    rubric_path(lab, tests).write_text(dumps(entry))
