#!/usr/bin/env python3
"""Write the student release of the course into DEST.

    python3 common/tools/make_release.py DEST [--force]

The release is the course's tracked files (`git ls-files`, as they are in the
working tree) minus what only an instructor may have: solutions/, every lab's
mutants (solutions/<lab>/mutants.json: wrong versions of the solution, kept
beside it), the project's own checks (tests/project/: mutant and task
revert checks, the skeleton and grader checks, all built on the solutions),
the instructor's tools (common/tools/: this one, make_skeleton.py), the
Gradescope autograder and its builder (tests/grader/gradescope/), the GPU CI scripts and the labs' design notes
(docs/design/, which describe the reference, with the figures that draw an
answer). Every exclusion is a whole folder. In Markdown files,
blocks between `<!-- instructor: begin -->` and `<!-- instructor: end -->`
lines (the README's sections for instructors and maintainers, a command that
runs the reference) are left out, and a block between a `<!-- student:` line
and a `-->` line, a comment in the course's own pages, is the release's text
in their place (what a student runs instead).
Downloaded and hidden graphs are never tracked, so never copied. Without solutions/ the
CMake build makes only the student flavour (SSSP_HAVE_SOLUTIONS in
common/cmake/SsspLabs.cmake); `python3 tests/grade.py` grades labs/ as usual.

DEST comes out as a fresh git repository on branch main with one commit of
the release (`git init`, `git add`, `git commit`), ready to push as a GitHub
Classroom template repository; --no-git leaves it a plain directory.

DEST must not exist, or be empty; --force replaces it.
"""
import argparse
import re
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

# Left out: a path equal to one of these or under it...
EXCLUDED = ("solutions", "tests/project", "common/tools", "tests/grader/gradescope", ".ci", "docs/design")
# ...except this, the CPU CI the student's repository runs.
KEPT = (".ci/run",)

def released(path: str) -> bool:
    return path in KEPT or not any(path == e or path.startswith(e + "/") for e in EXCLUDED)


INSTRUCTOR_BLOCK = re.compile(r"^<!-- instructor: begin\b.*?^<!-- instructor: end -->\n\n?", re.M | re.S)


STUDENT_BLOCK = re.compile(r"^<!-- student:\n(.*?)^-->\n", re.M | re.S)


def student_text(markdown: str) -> str:
    """markdown without its instructor-only blocks and with its student-only
    ones shown; an unclosed block is an error, not a leak."""
    text = INSTRUCTOR_BLOCK.sub("", markdown)
    if "<!-- instructor:" in text:
        raise ValueError("an '<!-- instructor: begin -->' block has no matching end line")
    text = STUDENT_BLOCK.sub(r"\1", text)
    if "<!-- student:" in text:
        raise ValueError("a '<!-- student:' block has no '-->' line of its own")
    return text


def released_bytes(path: str) -> bytes:
    """The course's file `path` as the release has it: a Markdown file through
    student_text (ValueError for an unclosed block), any other as it is."""
    data = (REPO / path).read_bytes()
    return student_text(data.decode()).encode() if path.endswith(".md") else data


def release_files() -> list[str]:
    listed = subprocess.run(["git", "-C", str(REPO), "ls-files", "-z"], check=True,
                            capture_output=True, text=True).stdout.split("\0")
    # A tracked file deleted in the working tree is not released.
    return [p for p in listed if p and released(p) and (REPO / p).is_file()]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dest", type=Path, help="directory to write the release into")
    parser.add_argument("--force", action="store_true", help="replace DEST if it exists")
    parser.add_argument("--no-git", action="store_true", help="do not make DEST a git repository")
    args = parser.parse_args()
    dest = args.dest.resolve()
    if dest == REPO or dest in REPO.parents or REPO in dest.parents:
        parser.error(f"{dest} overlaps the course repository {REPO}")
    if dest.exists() and (not dest.is_dir() or any(dest.iterdir())):
        if not args.force:
            parser.error(f"{dest} is not empty (--force replaces it)")
        shutil.rmtree(dest)
    files = release_files()
    for path in files:
        target = dest / path
        target.parent.mkdir(parents=True, exist_ok=True)
        try:
            target.write_bytes(released_bytes(path))
        except ValueError as error:
            sys.exit(f"make_release.py: {path}: {error}")
        shutil.copystat(REPO / path, target)  # keeps the scripts executable
    if not args.no_git:
        make_repository(dest)
    print(f"{len(files)} files released to {dest}" + ("" if args.no_git else ", committed on branch main"))
    return 0


def make_repository(dest: Path) -> None:
    """dest as a new repository whose first commit is the release."""
    identity = ["-c", "user.name=GPU shortest paths course", "-c", "user.email=course@invalid",
                "-c", "commit.gpgsign=false", "-c", "init.defaultBranch=main"]
    for command in (["init", "-q"], ["add", "-A"],
                    ["commit", "-q", "-m", "Student release of the GPU shortest paths course"]):
        subprocess.run(["git", *identity, "-C", str(dest), *command], check=True)


if __name__ == "__main__":
    sys.exit(main())
