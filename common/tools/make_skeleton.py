#!/usr/bin/env python3
"""Derive each lab's student skeleton (labs/<lab>/) from its solution (solutions/<lab>/).

The solution is the single source of truth. In a solution source file, each
piece of student work is a marked region:

    // BEGIN SOLUTION task 2: Dijkstra with lazy deletion
    ...reference code...
    // SKELETON                       (optional)
    // ...lines the student starts from, each commented out here...
    // END SOLUTION

In the skeleton the region becomes the SKELETON lines (uncommented; a
preprocessor line at column 0, as clang-format places it) or, by
default, a TODO comment and SSSP_TODO(lab, task, "title"), which throws
sssp::NotImplemented naming the lab and task. Every region's skeleton must
contain SSSP_TODO (SSSP_DEVICE_TODO inside a kernel, given in a SKELETON
block), so an untouched skeleton fails at every task.

Files without regions are copied unchanged. labs/<lab>/README.md (the handout)
and labs/<lab>/questions.md (its written questions) are written by hand and
never touched; only source files are derived, so neither has a solutions/
copy. labs/<lab>/.skeleton-manifest records the sha256 of each file as
generated: a file whose content no longer matches it was changed by a student
and is never overwritten without --force.

    make_skeleton.py            regenerate every lab (refuses to clobber edits)
    make_skeleton.py lab01_serial --force
    make_skeleton.py --check    exit 1 if any skeleton is stale (its solution changed)

--check tells a stale skeleton (a file still as generated, whose solution has
changed since: regenerate it) from a file edited by hand since it was
generated (a student's work: reported, not checked).
"""
from __future__ import annotations

import argparse
import hashlib
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SOURCE_SUFFIXES = {".hpp", ".cpp", ".h", ".cu", ".cuh"}
HAND_WRITTEN = {"README.md", "questions.md"}  # never derived: labs/<lab>/ only, no solutions/ copy
MANIFEST = ".skeleton-manifest"
# The files a student edits and submits (those with task regions), one per
# line: what the grader takes from a submission, without needing solutions/.
STUDENT_FILES = ".student-files"
BEGIN = re.compile(r"^(?P<indent>\s*)// BEGIN SOLUTION task (?P<task>\d+): (?P<title>.+?)\s*$")
SKELETON = re.compile(r"^\s*// SKELETON\s*$")
END = re.compile(r"^\s*// END SOLUTION\s*$")
LAB_DIR = re.compile(r"^lab(?P<number>\d\d)_[a-z0-9_]+$")


class MarkerError(Exception):
    """A solution file whose regions are malformed."""


def derive(text: str, lab_number: int, origin: str) -> str:
    """Return the skeleton text for one solution file."""
    out: list[str] = []
    lines = text.splitlines(keepends=True)
    i = 0
    regions = 0
    while i < len(lines):
        line = lines[i]
        begin = BEGIN.match(line)
        if END.match(line) or SKELETON.match(line):
            raise MarkerError(f"{origin}:{i + 1}: marker outside a BEGIN SOLUTION region")
        if not begin:
            if "BEGIN SOLUTION" in line:
                raise MarkerError(f"{origin}:{i + 1}: malformed marker, expected "
                                  "'// BEGIN SOLUTION task N: title'")
            out.append(line)
            i += 1
            continue
        regions += 1
        indent, task, title = begin["indent"], int(begin["task"]), begin["title"]
        start = i
        i += 1
        skeleton: list[str] | None = None
        while i < len(lines) and not END.match(lines[i]):
            if BEGIN.match(lines[i]):
                raise MarkerError(f"{origin}:{i + 1}: nested BEGIN SOLUTION (region opened at line {start + 1})")
            if SKELETON.match(lines[i]):
                skeleton = []
            elif skeleton is not None:
                stripped = lines[i].lstrip()
                if not stripped.startswith("//"):
                    raise MarkerError(f"{origin}:{i + 1}: SKELETON lines must be comments")
                body = stripped[2:]
                body = body[1:] if body.startswith(" ") else body
                # A preprocessor directive goes to column 0, where clang-format puts it.
                lead = "" if body.startswith("#") else lines[i][: len(lines[i]) - len(stripped)]
                skeleton.append(lead + body if body.strip() else "\n")
            i += 1
        if i == len(lines):
            raise MarkerError(f"{origin}:{start + 1}: BEGIN SOLUTION without END SOLUTION")
        i += 1  # skip END
        if skeleton is None:
            skeleton = [f"{indent}// TODO(task {task}): {title}\n",
                        f'{indent}SSSP_TODO({lab_number}, {task}, "{title}");\n']
        if not any("SSSP_TODO" in s or "SSSP_DEVICE_TODO" in s for s in skeleton):
            raise MarkerError(f"{origin}:{start + 1}: the skeleton of task {task} has no SSSP_TODO "
                              "(or SSSP_DEVICE_TODO in a kernel)")
        out.extend(skeleton)
    if not regions:
        return text
    banner = (f"// Lab {lab_number:02d} skeleton, generated from {origin} by "
              "common/tools/make_skeleton.py.\n"
              "// This file is yours: replace each SSSP_TODO with your code.\n")
    return banner + "".join(out)


def sha256(data: str) -> str:
    return hashlib.sha256(data.encode()).hexdigest()


def read_manifest(path: Path) -> dict[str, str]:
    entries: dict[str, str] = {}
    if path.exists():
        for line in path.read_text().splitlines():
            if line.strip():
                digest, name = line.split(maxsplit=1)
                entries[name] = digest
    return entries


def expected_files(lab: str) -> dict[str, str]:
    """Map file name -> skeleton content for every derived file of a lab."""
    match = LAB_DIR.match(lab)
    if not match:
        raise MarkerError(f"{lab}: lab folders are named labNN_topic")
    files = {}
    for source in sorted((REPO / "solutions" / lab).iterdir()):
        if source.is_file() and source.suffix in SOURCE_SUFFIXES:
            origin = f"solutions/{lab}/{source.name}"
            files[source.name] = derive(source.read_text(), int(match["number"]), origin)
    return files


def student_files(lab: str) -> str:
    """The text of labs/<lab>/.student-files: the solution's files with a task region."""
    names = [p.name for p in sorted((REPO / "solutions" / lab).iterdir())
             if p.is_file() and p.suffix in SOURCE_SUFFIXES and "// BEGIN SOLUTION task" in p.read_text(errors="replace")]
    return "".join(f"{name}\n" for name in names)


def check(lab: str) -> tuple[list[str], list[str]]:
    """Compare labs/<lab> with what its solution generates. Returns the
    problems (stale or missing files) and the files edited by hand since they
    were generated, which are not checked."""
    problems, edited = [], []
    target = REPO / "labs" / lab
    wanted = expected_files(lab)
    manifest = read_manifest(target / MANIFEST)
    for name, content in wanted.items():
        path = target / name
        if not path.exists():
            problems.append(f"labs/{lab}/{name}: missing")
            continue
        current = path.read_text()
        if current != content and manifest.get(name) != sha256(current):
            edited.append(f"labs/{lab}/{name}")
        elif current != content:
            problems.append(f"labs/{lab}/{name}: stale, solutions/{lab}/{name} changed since it was generated")
        elif manifest.get(name) != sha256(content):
            problems.append(f"labs/{lab}/{MANIFEST}: entry for {name} is stale")
    for path in sorted(target.iterdir()) if target.exists() else []:
        if path.suffix in SOURCE_SUFFIXES and path.name not in wanted:
            if path.name in manifest:
                problems.append(f"labs/{lab}/{path.name}: stale, solutions/{lab}/{path.name} no longer exists")
            else:
                edited.append(f"labs/{lab}/{path.name}")
    for name in sorted(set(manifest) - set(wanted)):
        if not (target / name).exists():
            problems.append(f"labs/{lab}/{MANIFEST}: entry for {name}, which is gone, is stale")
    if not (target / "README.md").exists():
        problems.append(f"labs/{lab}/README.md: the handout is missing")
    listed = target / STUDENT_FILES
    if not listed.exists() or listed.read_text() != student_files(lab):
        problems.append(f"labs/{lab}/{STUDENT_FILES}: stale or missing (the files with task regions)")
    return problems, edited


def generate(lab: str, force: bool) -> list[str]:
    """Write labs/<lab>; return the files it refused to overwrite."""
    target = REPO / "labs" / lab
    target.mkdir(parents=True, exist_ok=True)
    manifest = read_manifest(target / MANIFEST)
    refused = []
    wanted = expected_files(lab)
    # A file the tool wrote whose solution file is gone: removed, unless a
    # student edited it since.
    for name in sorted(set(manifest) - set(wanted)):
        path = target / name
        if path.exists():
            if manifest[name] != sha256(path.read_text()) and not force:
                refused.append(f"labs/{lab}/{name}")
                continue
            path.unlink()
            print(f"removed labs/{lab}/{name} (solutions/{lab}/{name} no longer exists)")
        del manifest[name]
    for name, content in wanted.items():
        path = target / name
        if path.exists():
            current = path.read_text()
            if current == content:
                manifest[name] = sha256(content)
                continue
            if manifest.get(name) != sha256(current) and not force:
                refused.append(f"labs/{lab}/{name}")
                continue
        path.write_text(content)
        manifest[name] = sha256(content)
        print(f"wrote labs/{lab}/{name}")
    (target / MANIFEST).write_text("".join(f"{d}  {n}\n" for n, d in sorted(manifest.items())))
    (target / STUDENT_FILES).write_text(student_files(lab))
    return refused


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("labs", nargs="*", help="labs to process (default: every lab in solutions/)")
    parser.add_argument("--check", action="store_true", help="only check that labs/ is in sync")
    parser.add_argument("--force", action="store_true", help="overwrite files a student has changed")
    args = parser.parse_args(argv)
    labs = args.labs or sorted(p.name for p in (REPO / "solutions").iterdir() if p.is_dir())
    try:
        if args.check:
            results = [check(lab) for lab in labs]
            for path in (e for _, edited in results for e in edited):
                print(f"{path} was edited by hand (student work?): not checked")
            problems = [p for found, _ in results for p in found]
            for problem in problems:
                print(f"out of sync: {problem}", file=sys.stderr)
            if problems:
                print("run common/tools/make_skeleton.py to regenerate the stale skeletons (it never "
                      "overwrites a file edited by hand)", file=sys.stderr)
                return 1
            edited = sum(len(e) for _, e in results)
            print(f"skeletons in sync: {', '.join(labs)}" + (f" ({edited} edited by hand)" if edited else ""))
            return 0
        refused = [r for lab in labs for r in generate(lab, args.force)]
    except (MarkerError, FileNotFoundError) as error:
        print(f"make_skeleton: {error}", file=sys.stderr)
        return 2
    for path in refused:
        print(f"not overwritten (changed since generated): {path}; use --force to replace it",
              file=sys.stderr)
    return 1 if refused else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
