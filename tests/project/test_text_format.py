#!/usr/bin/env python3
"""Every hand-written tracked text file keeps the whitespace rules of
.editorconfig: UTF-8, LF line ends, a final newline, no trailing whitespace,
no tab characters. Files tools write (docs/results/: .ci/bench.py, matplotlib,
check_perf.py) are left as written. The layout of C++ and CUDA files is
project.clang_format's (test_clang_format.py, docs/conventions.md, "Code style")."""
import subprocess
import sys
import unittest
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
TEXT_SUFFIXES = {".cpp", ".hpp", ".cu", ".cuh", ".h", ".py", ".md", ".txt", ".cmake", ".json", ".sh", ".in",
                 ".tsv", ".css", ".svg", ".gr", ".yml", ".yaml", ".dox"}
TEXT_NAMES = {"CMakeLists.txt", ".gitignore", ".clangd", ".clang-format", ".editorconfig", "run_autograder"}
GENERATED = ("docs/results/",)


def hand_written_text_files() -> list[str]:
    listed = subprocess.run(["git", "-C", str(REPO), "ls-files", "-z"], check=True, capture_output=True,
                            text=True).stdout.split("\0")
    return [p for p in listed if p and not p.startswith(GENERATED) and (REPO / p).is_file()
            and (Path(p).suffix in TEXT_SUFFIXES or Path(p).name in TEXT_NAMES or p.startswith(".ci/"))]


def problems(path: str, root: Path = REPO) -> list[str]:
    data = (root / path).read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        return [f"{path}: not UTF-8 ({error})"]
    found = []
    if "\r" in text:
        found.append(f"{path}: CR line ends (use LF)")
    if text and not text.endswith("\n"):
        found.append(f"{path}: no newline at the end")
    for number, line in enumerate(text.split("\n"), 1):
        if line != line.rstrip(" \t"):
            found.append(f"{path}:{number}: trailing whitespace")
        if "\t" in line and not path.endswith(".tsv"):  # a TSV's tabs are its columns
            found.append(f"{path}:{number}: a tab character (indent with spaces)")
    return found


class TextFormat(unittest.TestCase):
    def test_hand_written_files_keep_the_whitespace_rules(self):
        files = hand_written_text_files()
        self.assertGreater(len(files), 200, "the file list is wrong: too few files checked")
        found = [p for path in files for p in problems(path)]
        self.assertEqual(found[:40], [], f"{len(found)} whitespace problems (.editorconfig)")

    def test_each_rule_catches_its_problem(self):
        import tempfile
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            for name, data, phrase in (("a.cpp", b"int x;  \n", "trailing whitespace"),
                                       ("b.py", b"x = 1", "no newline at the end"),
                                       ("c.h", b"\tint y;\n", "a tab character"),
                                       ("d.md", b"line\r\n", "CR line ends"),
                                       ("e.cu", b"\xff\n", "not UTF-8")):
                (root / name).write_bytes(data)
                with self.subTest(name=name):
                    self.assertTrue(any(phrase in p for p in problems(name, root)), problems(name, root))
            (root / "f.tsv").write_bytes(b"a\tb\n")
            self.assertEqual(problems("f.tsv", root), [])


if __name__ == "__main__":
    sys.exit(0 if unittest.main(exit=False).result.wasSuccessful() else 1)
