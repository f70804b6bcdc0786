"""What grading takes in besides the course: a student's submission (only
the lab files a student edits, copied over labs/; everything else ignored and
listed), the labs a student has edited by hand (left out of the skeleton
check), and an instructor's hidden-graph directory (checked before any test
runs: a problem of the grader's input must not cost points).
"""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from . import REPO
from .model import GradingError


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


def hand_edited_labs(labs: list[str]) -> dict[str, list[str]]:
    """Labs whose skeleton files were changed since make_skeleton.py wrote them."""
    if not (REPO / "common" / "tools" / "make_skeleton.py").is_file():  # the student release has no generator
        raise GradingError("--expect zero compares labs/ with what make_skeleton.py generates: it needs the "
                           "course's repository, not the student release")
    sys.path.insert(0, str(REPO / "common" / "tools"))
    import make_skeleton  # noqa: E402  (the tool that knows what it generated)
    return {lab: edited for lab in labs if (edited := make_skeleton.check(lab)[1])}


def check_hidden_graphs(manifest: dict, directory: Path) -> None:
    """Stops grading when the instructor's hidden-graph directory would fail the
    HiddenGraphs tests: a problem of the grader's input must not cost points."""
    check = subprocess.run([manifest["hidden_graph_checker"], str(directory)], capture_output=True, text=True,
                           timeout=600)
    if check.returncode != 0:
        raise GradingError(f"--hidden-graphs: {check.stderr.strip() or check.stdout.strip()}")
    print(f"hidden graphs in {directory}:\n{check.stdout}", end="", flush=True)
