#!/usr/bin/env python3
"""The student release (common/tools/make_release.py): no solutions, mutants
or solution regions in it; its pages and grade.py's help name nothing the
release lacks; it is a git repository with one commit and a clean tree; its
grader starts, it configures without solutions/, and its quick start (grading
lab 01's untouched skeleton) runs and scores 0.

Run:  python3 -m tests.project.test_release --generator GENERATOR

Configuring (CUDA off) and lab 01's grading only: a full build of the release
is too slow for CI.
"""
import argparse
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
from tests.grader import lab_data  # each lab's rubric.json and mutants.json
from tests.grader.intake import editable_files

# A line opening a solution region, as make_skeleton.py reads it (code, not
# the quoted example in docs/conventions.md).
REGION = re.compile(r"^\s*// BEGIN SOLUTION task \d+:")
SOURCE_SUFFIXES = {".cpp", ".hpp", ".cu", ".cuh", ".h"}


def problems(release: Path) -> list[str]:
    files = [p for p in release.rglob("*") if p.is_file()]
    # Every lab's mutants (solution code), and any mutants.json wherever it is.
    mutants = [lab_data.mutants_path(lab, release / "tests").relative_to(release)
               for lab in lab_data.labs_with(lab_data.MUTANTS_FILE)]
    found = [f"{rel} is released" for rel in ("solutions", *mutants, "tests/project/make_mutant.py",
                                              "common/tools/make_skeleton.py")
             if (release / rel).exists()]
    found += [f"{p.relative_to(release)} is released" for p in files
              if p.name == lab_data.MUTANTS_FILE and p.relative_to(release) not in mutants]
    for p in files:
        if p.suffix in SOURCE_SUFFIXES and any(REGION.match(line) for line in p.read_text(errors="replace").splitlines()):
            found.append(f"{p.relative_to(release)} holds a solution region")
    readme = (release / "README.md").read_text()
    for heading in ("## For instructors", "## For maintainers"):
        if heading in readme:
            found.append(f"the released README keeps its instructor-only section '{heading}'")
    if "## Quick start" not in readme:
        found.append("the released README lost its quick start")
    found += [f"{p.relative_to(release)} keeps an instructor marker" for p in files
              if p.suffix == ".md" and "<!-- instructor:" in p.read_text(errors="replace")]
    if (release / "docs" / "design").exists():
        found.append("docs/design (notes on the reference) is released")
    # What a student's own grade.py run reads: the loader, every lab's rubric
    # and the files a student edits in it (the grader's own modules: grader_starts).
    rubric = lab_data.load_rubric()
    found += [f"{rel} is missing" for rel in ["tests/grader/lab_data.py", *(f"tests/{lab}/rubric.json" for lab in rubric),
                                              *(f"labs/{lab}/{name}" for lab in rubric for name in editable_files(lab))]
              if not (release / rel).is_file()]
    return found


# Names of what the release leaves out (make_release.py's EXCLUDED), as a page
# or a help text would name them.
INSTRUCTOR_ONLY = re.compile(r"sssp(-cpu)?-ref\b|\b[a-z]+-bench-ref\b|\bsolutions/|--flavour solution|docs/design"
                             r"|\.ci/(?!run\b)|mutants\.json|tests/project/|make_skeleton|make_release|make_gradescope"
                             r"|run_autograder|tests/grader/gradescope|gradescope\.package")


def pages_naming_what_it_lacks(release: Path) -> list[str]:
    found = []
    for page in sorted(release.rglob("*.md")):
        rel = page.relative_to(release)
        for number, line in enumerate(page.read_text(errors="replace").splitlines(), 1):
            if (match := INSTRUCTOR_ONLY.search(line)):
                found.append(f"{rel}:{number} names '{match.group(0)}', which the release does not have: {line.strip()}")
    return found


def the_search_can_fail() -> list[str]:
    """The page search finds a name planted in a page (a check that cannot fail proves nothing)."""
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "page.md").write_text("Run `build/bin/sssp-ref --algo lab01/` to compare.\n")
        return [] if pages_naming_what_it_lacks(Path(tmp)) else ["the page search missed a planted 'sssp-ref'"]


# A student block replaces a phrase or a sentence: the text both audiences read is
# written once, outside the blocks, so that nothing is kept in two copies.
STUDENT_BLOCK_WORDS = 40
STUDENT_BLOCK = re.compile(r"^<!-- student:\n(.*?)^-->$", re.M | re.S)


def student_blocks_are_short() -> list[str]:
    tracked = subprocess.run(["git", "-C", str(REPO), "ls-files", "*.md"], capture_output=True, text=True,
                             check=True).stdout.split()
    found = []
    for name in tracked:
        text = (REPO / name).read_text(errors="replace")
        for block in STUDENT_BLOCK.finditer(text):
            if len(block.group(1).split()) > STUDENT_BLOCK_WORDS:
                line = text[:block.start()].count("\n") + 1
                found.append(f"{name}:{line}: a student block of {len(block.group(1).split())} words (at most "
                             f"{STUDENT_BLOCK_WORDS}): write the shared text once, outside the blocks")
    return found


def names_what_it_lacks(release: Path) -> list[str]:
    found = pages_naming_what_it_lacks(release)
    help_text = subprocess.run([sys.executable, str(release / "tests" / "grade.py"), "--help"], capture_output=True,
                               text=True).stdout
    found += [f"grade.py --help names '{m.group(0)}'" for m in INSTRUCTOR_ONLY.finditer(help_text)]
    return found


def is_a_fresh_repository(release: Path) -> list[str]:
    def git(*args: str) -> str:
        return subprocess.run(["git", "-C", str(release), *args], capture_output=True, text=True).stdout.strip()
    found = []
    if git("rev-list", "--count", "HEAD") != "1":
        found.append(f"the release is not a repository with one commit: {git('log', '--oneline') or 'no git log'}")
    if git("status", "--porcelain"):
        found.append(f"the release's tree differs from its commit:\n{git('status', '--porcelain')}")
    if git("branch", "--show-current") != "main":
        found.append("the release's branch is not main")
    return found


def quick_start_runs(release: Path, build: Path) -> list[str]:
    """The README's quick start in the release: grade lab 01, the untouched skeleton scores 0."""
    run = subprocess.run([sys.executable, str(release / "tests" / "grade.py"), "--lab", "lab01_serial",
                          "--build-dir", str(build)], capture_output=True, text=True, timeout=1500)
    if run.returncode != 0:
        return [f"the release's quick start failed (exit {run.returncode}):\n{(run.stdout + run.stderr)[-3000:]}"]
    tests = json.loads((build / "grading" / "results.json").read_text()).get("tests", [])
    if not tests:
        return ["the release's quick start graded no test"]
    return [f"the untouched skeleton scored in the release: {t['name']}" for t in tests if t.get("score", 0) > 0]


def grader_starts(release: Path) -> list[str]:
    """grade.py --help in the release: it imports every module of the grader
    (tests/grader/), so a module the release left out stops it."""
    run = subprocess.run([sys.executable, str(release / "tests" / "grade.py"), "--help"], capture_output=True,
                         text=True)
    return [] if run.returncode == 0 else [f"the released grade.py does not start:\n{run.stderr}"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--generator", required=True, help="CMake generator to configure the release with")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="sssp-release-") as tmp:
        release = Path(tmp) / "release"
        subprocess.run([sys.executable, str(REPO / "common/tools/make_release.py"), str(release)], check=True)
        found = problems(release) + grader_starts(release) + names_what_it_lacks(release) \
            + is_a_fresh_repository(release) + the_search_can_fail() + student_blocks_are_short()
        build = Path(tmp) / "build"
        configure = subprocess.run(["cmake", "-S", str(release), "-B", str(build), "-G", args.generator,
                                    "-DSSSP_ENABLE_CUDA=OFF"], capture_output=True, text=True)
        if configure.returncode != 0:
            found.append(f"the release does not configure:\n{configure.stdout}{configure.stderr}")
        else:
            graded = json.loads((build / "graded_tests.json").read_text())["executables"]
            # Student code only: in-process, or behind the worker boundary (isolated).
            found += [f"the release builds {exe['path']} ({exe['flavour']})"
                      for exe in graded if exe["flavour"] not in ("student", "isolated")]
            if not graded:
                found.append("the release builds no graded tests")
        found += quick_start_runs(release, Path(tmp) / "grading")
    print("\n".join(found) or "release OK")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
