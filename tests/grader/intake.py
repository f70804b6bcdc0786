"""What grading takes in besides the course: a student's submission (only
the lab files a student edits, found wherever they sit in the upload and
copied over labs/; everything else ignored and listed, the lab files it lacks
named), the labs a student has edited by hand (left out of the skeleton
check), and an instructor's hidden-graph directory (checked before any test
runs: a problem of the grader's input must not cost points).
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
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


UPLOAD_ENTRY_LIMIT = 10000  # files and folders of an upload looked at: the rest of a huge one is refused
LAB_FILE_LIMIT = 1 << 20  # bytes of one lab file: a source file, not a data set
LISTED_LIMIT = 20  # ignored paths named in the report (a whole project uploaded would bury the rest)


class UploadError(GradingError):
    """The upload cannot be graded as it is: the student's to fix, not the grader's."""


@dataclass
class Upload:
    """What take_submission found in an upload."""
    labs: list[str]  # the labs with at least one lab file in the upload
    ignored: list[str]  # the upload's other paths, relative
    missing: list[str]  # LAB/FILE of those labs that the upload lacks: graded as the untouched skeleton's


def where_files_go(editable: dict[str, set[str]]) -> str:
    """Where an upload's lab files must be, for a message that refuses one."""
    files = "; ".join(f"{lab}: {', '.join(sorted(names))}" for lab, names in editable.items())
    return (f"upload each lab file once, with its own name, at the top level of the upload or in a folder of any "
            f"name ({files})")


def upload_entries(submission: Path) -> list[tuple[Path, bool]]:
    """Every file of the upload but folders, relative, each with whether it is
    a plain file; links are listed, never followed. Dotfiles and __MACOSX (a
    Mac's zip metadata) are left out, folders and all."""
    entries, folders = [], [Path()]
    looked_at = 0
    while folders:
        folder = folders.pop()
        with os.scandir(submission / folder) as listing:
            for entry in listing:
                looked_at += 1
                if looked_at > UPLOAD_ENTRY_LIMIT:
                    raise UploadError(f"the upload holds more than {UPLOAD_ENTRY_LIMIT} files and folders: "
                                      "upload the lab files only")
                if entry.name.startswith(".") or entry.name == "__MACOSX":
                    continue
                if entry.is_dir(follow_symlinks=False):
                    folders.append(folder / entry.name)
                else:
                    entries.append((folder / entry.name, entry.is_file(follow_symlinks=False)))
    return sorted(entries)


def read_lab_file(path: Path, relative: Path) -> bytes:
    """A lab file's bytes, read without following a link; UploadError when it is too big to be one."""
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    with os.fdopen(fd, "rb") as file:
        data = file.read(LAB_FILE_LIMIT + 1)
    if len(data) > LAB_FILE_LIMIT:
        raise UploadError(f"{relative} is over {LAB_FILE_LIMIT >> 20} MiB, too big for a lab file")
    return data


def take_submission(submission: Path, labs: list[str], copy: Path) -> Upload:
    """Writes labs/ to `copy` with the submitted lab files over it. A lab file
    is taken wherever it sits in the upload, when its name is there once: at
    <lab>/<file>, or under any folder when one lab of `labs` has a file of
    that name. Anything else (a header, a test, a link, a fifo) is ignored.
    UploadError when a name is there more than once or no lab file is."""
    if not submission.is_dir():
        raise GradingError(f"--submission: {submission} is not a directory")
    editable = {lab: editable_files(lab) for lab in labs}
    owners: dict[str, list[str]] = {}
    for lab, names in editable.items():
        for name in names:
            owners.setdefault(name, []).append(lab)
    found: dict[tuple[str, str], list[Path]] = {}
    ignored = []
    for relative, plain in upload_entries(submission):
        name = relative.name
        if name in editable.get(relative.parent.name, ()):
            lab = relative.parent.name
        else:
            lab = owners[name][0] if len(owners.get(name, [])) == 1 else None
        if lab is None or not plain:
            ignored.append(str(relative))
        else:
            found.setdefault((lab, name), []).append(relative)
    twice = [f"{name} ({', '.join(map(str, paths))})" for (_, name), paths in found.items() if len(paths) > 1]
    if twice:
        raise UploadError(f"the upload holds more than one file of the same name, so which to grade is "
                          f"ambiguous: {'; '.join(twice)}. {where_files_go(editable)}")
    if not found:
        raise UploadError(f"the upload holds no lab file to grade: {where_files_go(editable)}")
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(REPO / "labs", copy)
    for (lab, name), [relative] in found.items():
        (copy / lab / name).write_bytes(read_lab_file(submission / relative, relative))
    submitted = [lab for lab in labs if any(key[0] == lab for key in found)]
    missing = [f"{lab}/{name}" for lab in submitted for name in sorted(editable[lab]) if (lab, name) not in found]
    return Upload(submitted, ignored, missing)


def hand_edited_labs(labs: list[str]) -> dict[str, list[str]]:
    """Labs whose skeleton files were changed since make_skeleton.py wrote them."""
    if not (REPO / "common" / "tools" / "make_skeleton.py").is_file():  # the student release has no generator
        raise GradingError("--expect zero compares labs/ with what make_skeleton.py generates: it needs the "
                           "course's repository, not the student release")
    # The tool that knows what it generated, imported from the repository's root in a process of its own (the
    # grader is imported as `grader` or `tests.grader`, and common/tools is no package of either).
    script = ("import json, sys\nfrom common.tools import make_skeleton\n"
              "print(json.dumps({lab: make_skeleton.check(lab)[1] for lab in sys.argv[1:]}))")
    found = subprocess.run([sys.executable, "-c", script, *labs], cwd=REPO, capture_output=True, text=True)
    if found.returncode != 0:
        raise GradingError(f"make_skeleton.py could not check labs/: {found.stderr.strip()}")
    return {lab: edited for lab, edited in json.loads(found.stdout).items() if edited}


def check_hidden_graphs(manifest: dict, directory: Path) -> None:
    """Stops grading when the instructor's hidden-graph directory would fail the
    HiddenGraphs tests: a problem of the grader's input must not cost points."""
    check = subprocess.run([manifest["hidden_graph_checker"], str(directory)], capture_output=True, text=True,
                           timeout=600)
    if check.returncode != 0:
        raise GradingError(f"--hidden-graphs: {check.stderr.strip() or check.stdout.strip()}")
    print(f"hidden graphs in {directory}:\n{check.stdout}", end="", flush=True)
