#!/usr/bin/env python3
"""Every tracked C++/CUDA file is laid out as clang-format 14 lays it out with
the course's .clang-format (docs/conventions.md, "Code style"). The skeletons
in labs/ are checked too: make_skeleton.py generates them formatted, so a
student's format-on-save does not churn them.

Exits 77 (skipped) when clang-format-14 is not installed: other versions lay
out some constructs differently, so only the pinned one can judge. .ci/run
installs it. Set CLANG_FORMAT to use another path to the same version."""
import difflib
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SUFFIXES = ("*.cpp", "*.hpp", "*.h", "*.cu", "*.cuh")
VERSION = 14
SKIP = 77


def find_clang_format() -> tuple[str | None, str]:
    """The clang-format to use, or None and why there is none."""
    named = os.environ.get("CLANG_FORMAT")
    path = shutil.which(named or f"clang-format-{VERSION}")
    if path is None:
        return None, f"{named or f'clang-format-{VERSION}'} is not installed (apt-get install clang-format-{VERSION})"
    version = subprocess.run([path, "--version"], capture_output=True, text=True).stdout.strip()
    if f"clang-format version {VERSION}." not in version:
        return None, f"{path} is not clang-format {VERSION} ({version or 'no --version'})"
    return path, ""


def source_files() -> list[str]:
    listed = subprocess.run(["git", "-C", str(REPO), "ls-files", "-z", "--", *SUFFIXES], check=True,
                            capture_output=True, text=True).stdout.split("\0")
    return [p for p in listed if p and (REPO / p).is_file()]


def problems(clang_format: str, paths: list[str], root: Path = REPO) -> list[str]:
    """One entry per file clang-format would change: its name, the first lines
    that differ and the command that fixes it."""
    found = []
    for path in paths:
        text = (root / path).read_text(encoding="utf-8")
        # The style is the .clang-format above the file, found from the file's own name.
        run = subprocess.run([clang_format, "--style=file", f"--assume-filename={root / path}"], input=text,
                             capture_output=True, text=True, cwd=root)
        if run.returncode != 0:
            found.append(f"{path}: clang-format failed: {run.stderr.strip()}")
            continue
        if run.stdout == text:
            continue
        diff = list(difflib.unified_diff(text.splitlines(), run.stdout.splitlines(), lineterm="", n=0))
        hunk = [line for line in diff[2:] if not line.startswith("@@")][:8]
        first = next((line for line in diff if line.startswith("@@")), "")
        fix = f"{Path(clang_format).name} -i {path}"
        if path.startswith("labs/"):  # generated: fixed where it comes from
            fix = (f"{Path(clang_format).name} -i solutions/{path[len('labs/'):]} (or mend its SKELETON blocks), "
                   "then common/tools/make_skeleton.py")
        found.append(f"{path}: not formatted, first difference {first}\n" + "\n".join(f"    {line}" for line in hunk)
                     + f"\n  fix: {fix}")
    return found


class ClangFormat(unittest.TestCase):
    clang_format: str = ""

    def test_tracked_sources_are_formatted(self):
        files = source_files()
        self.assertGreater(len(files), 200, "the file list is wrong: too few files checked")
        self.assertTrue((REPO / ".clang-format").is_file(), "no .clang-format at the top of the tree")
        found = problems(self.clang_format, files)
        if found:
            self.fail(f"{len(found)} files not formatted as .clang-format says:\n" + "\n".join(found[:20]))

    def test_the_check_catches_a_badly_formatted_file(self):
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            shutil.copy(REPO / ".clang-format", root / ".clang-format")
            (root / "good.cu").write_text("__global__ void k(int* out) {\n  if (out) *out = 1;\n}\n")
            (root / "bad.cu").write_text("__global__ void k(int *out)\n{\n    *out = 1; }\n")
            (root / "long.cpp").write_text("int f(int a, int b) { return a; }\nint g() { return f(1111111111, "
                                           "2222222222) + f(3333333333, 4444444444) + f(5555555555, 6666666666) + "
                                           "f(7777777777, 8888888888); }\n")
            self.assertEqual(problems(self.clang_format, ["good.cu"], root), [])
            for name in ("bad.cu", "long.cpp"):
                with self.subTest(name=name):
                    found = problems(self.clang_format, [name], root)
                    self.assertEqual(len(found), 1, found)
                    self.assertIn(f"{name}: not formatted", found[0])
                    self.assertIn(f"-i {name}", found[0])


def main() -> int:
    clang_format, why = find_clang_format()
    if clang_format is None:
        print(f"skipped: {why}; the layout of the sources is not checked")
        return SKIP
    ClangFormat.clang_format = clang_format
    return 0 if unittest.main(exit=False).result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())
