#!/usr/bin/env python3
"""A lab is a folder: everything lab-specific lives in solutions/<lab>/,
labs/<lab>/ (generated) and tests/<lab>/, and the generic tools find it there.
Outside those folders only the top-level CMakeLists.txt's lab list and the
README's lab table name a lab (docs/conventions.md, "Adding a lab").

The scan reads every tracked file outside the lab folders, skipping prose
(Markdown, docs/) and comment lines, and fails on any other mention of a lab
(its folder name, or its runner prefix as in "lab09/") that ALLOWED does not
list with a reason. A new entry there is a decision to review, not a fix.
"""
import re
import subprocess
import sys
import unittest
from pathlib import Path

from tests.grader import lab_data  # course_labs(): which labs exist

REPO = Path(__file__).resolve().parents[2]

# file -> {mention: why it is not a registration}
ALLOWED = {
    "CMakePresets.json": {"lab01_serial": "the test preset's task reverts run on the CPU lab (a choice of CI)"},
    ".ci/never-hangs.py": {"lab09/": "the tool's subject: lab 09's persistent kernel, its default --algo"},
    "tests/grader/__main__.py": {"lab01_serial": "an example in the usage text"},
    "tests/grader/bulk.py": {"lab01_serial": "an example in the usage text", "lab02_frontier": "an example in --help"},
    "tests/grader/gradescope/run_autograder": {"lab01_serial": "an example in the usage text"},
    "common/tools/make_skeleton.py": {"lab01_serial": "an example in the usage text"},
    "common/runner/main.cpp": {"lab01/": "an example in --help"},
    ".ci/bench-compare": {"lab09/": "an example in the usage text"},
}

# Prose and the project's own tests (which take a lab as the subject of a
# tool's test; the bench tool's sits beside it) may name labs; so may the lab
# list and the README table.
SKIPPED_PREFIXES = ("docs/", "tests/project/", ".ci/benchkit/test_benchkit.py")
COMMENT = re.compile(r"^\s*(#|//|/\*|\*)")


def lab_list() -> list[str]:
    """The labs in the top-level CMakeLists.txt, in order (the grader's one reader of the list)."""
    return list(lab_data.course_labs())


def tracked_files() -> list[str]:
    out = subprocess.run(["git", "ls-files"], cwd=REPO, capture_output=True, text=True, check=True).stdout
    return out.splitlines()


class LabFolders(unittest.TestCase):
    def setUp(self):
        self.labs = lab_list()
        self.assertGreater(len(self.labs), 0, "no sssp_add_lab( line in CMakeLists.txt")

    def test_every_listed_lab_has_its_folders_and_nothing_else_does(self):
        listed = set(self.labs)
        for root in ("solutions", "labs", "tests"):
            folders = {p.name for p in (REPO / root).glob("lab*") if p.is_dir()}
            self.assertEqual(folders, listed, f"{root}/ lab folders against CMakeLists.txt's lab list")

    def test_the_readme_table_names_every_lab(self):
        # Each row's name links its handout (the site's index links every handout).
        readme = (REPO / "README.md").read_text()
        rows = re.findall(r"^\| \[(lab\w+)\]\(labs/\1/README\.md\) \|", readme, flags=re.M)
        self.assertEqual(rows, self.labs, "README.md's lab table against CMakeLists.txt's lab list")

    def test_no_lab_is_registered_outside_its_folders(self):
        mentions = {}
        for lab in self.labs:
            short = lab.split("_")[0]
            mentions[lab] = lab
            mentions[short + "/"] = lab
        pattern = re.compile("|".join(re.escape(m) for m in sorted(mentions, key=len, reverse=True)))
        lab_folders = tuple(f"{root}/{lab}/" for root in ("solutions", "labs", "tests") for lab in self.labs)
        found = []
        for name in tracked_files():
            if name.startswith(lab_folders) or name.startswith(SKIPPED_PREFIXES) or name.endswith(".md"):
                continue
            path = REPO / name
            try:
                text = path.read_text()
            except (UnicodeDecodeError, IsADirectoryError, FileNotFoundError):
                continue  # binary data, a submodule or a file deleted but not yet committed
            c_family = path.suffix in (".cpp", ".hpp", ".cu", ".cuh", ".h")
            for number, line in enumerate(text.splitlines(), 1):
                if COMMENT.match(line):
                    continue
                if c_family:
                    line = line.split(" //")[0]  # a trailing comment
                if name == "CMakeLists.txt" and line.startswith("sssp_add_lab("):
                    continue  # the lab list
                for match in pattern.finditer(line):
                    if match.group(0) not in ALLOWED.get(name, {}):
                        found.append(f"{name}:{number}: {match.group(0)}: {line.strip()[:120]}")
        self.assertEqual(found, [], "a lab is named outside its folders (move it into the lab's folders, where a "
                                    "generic tool finds it, or add a reasoned entry to ALLOWED):\n" + "\n".join(found))

    def test_every_allowed_mention_is_still_there(self):
        for name, allowed in ALLOWED.items():
            text = (REPO / name).read_text()
            for mention in allowed:
                self.assertIn(mention, text, f"ALLOWED lists {mention!r} in {name}, which no longer has it")


if __name__ == "__main__":
    sys.exit(0 if unittest.main(exit=False).result.wasSuccessful() else 1)
