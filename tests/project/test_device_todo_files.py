#!/usr/bin/env python3
"""An unfinished device task must send the student to the file of its stub.

A kernel's stub (SSSP_DEVICE_TODO / SSSP_DEVICE_TODO_RETURN in a SKELETON
block of solutions/<lab>/) records its task in the device-TODO word of the
file that declares it (SSSP_DEVICE_TODO_STATE or _STATE_IN), and the host's
message names that file unless the declaration's table names another
({task, "file"} entries of SSSP_DEVICE_TODO_STATE_IN). For every stub and
every declaration that can see it (the same file, or one of the two includes
the other), the file the message names must be the stub's; and every table
entry must name a stub that exists there.
"""
import re
import sys
import unittest
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
STUB = re.compile(r"SSSP_DEVICE_TODO(?:_RETURN)?\((\d+),\s*(\d+),")
STATE = re.compile(r"SSSP_DEVICE_TODO_STATE(?:_IN)?\((\d+)((?:[^;])*?)\);", re.S)
ENTRY = re.compile(r'\{\s*(\d+)\s*,\s*"([^"]+)"\s*\}')
INCLUDE = re.compile(r'#include "([^"]+)"')


def lab_sources(lab: Path) -> dict[str, str]:
    return {p.name: p.read_text() for p in sorted(lab.iterdir()) if p.suffix in (".cu", ".cuh", ".cpp", ".hpp")}


def problems_of(lab: Path) -> list[str]:
    sources = lab_sources(lab)
    stubs = {}  # task -> file of its stub
    for name, text in sources.items():
        for lab_number, task in STUB.findall(text):
            stubs.setdefault(int(task), set()).add(name)
    includes = {name: set(INCLUDE.findall(text)) for name, text in sources.items()}
    problems = []
    for state_file, text in sources.items():
        for match in STATE.finditer(text):
            if "#define" in text[max(0, match.start() - 10):match.start()]:
                continue
            table = {int(task): file for task, file in ENTRY.findall(match.group(2))}
            for task, file in table.items():
                if file not in stubs.get(task, set()):
                    problems.append(f"{lab.name}/{state_file}: the entry {{{task}, \"{file}\"}} names no stub of "
                                    f"task {task} there (stubs: {sorted(stubs.get(task, []))})")
            for task, files in stubs.items():
                for stub_file in files:
                    sees = (stub_file == state_file or stub_file in includes[state_file]
                            or state_file in includes.get(stub_file, set()))
                    named = table.get(task, state_file)
                    if sees and named != stub_file:
                        problems.append(f"{lab.name}/{state_file}: an unfinished task {task} would be reported in "
                                        f"{named}, but its stub is in {stub_file}: add {{{task}, \"{stub_file}\"}}")
    return problems


class DeviceTodoFiles(unittest.TestCase):
    def test_every_lab(self):
        labs = sorted(p for p in (REPO / "solutions").iterdir() if p.is_dir())
        self.assertTrue(labs)
        problems = [problem for lab in labs for problem in problems_of(lab)]
        self.assertEqual(problems, [], "\n" + "\n".join(problems))

    def test_a_missing_entry_is_found(self):
        import tempfile
        with tempfile.TemporaryDirectory() as tmp:
            lab = Path(tmp) / "lab99_demo"
            lab.mkdir()
            (lab / "queue.cuh").write_text("SSSP_DEVICE_TODO_STATE_IN(9, {4, \"adds.cu\"});\n")
            (lab / "adds.cu").write_text('#include "queue.cuh"\n// SSSP_DEVICE_TODO(9, 4, "a");\n'
                                         '// SSSP_DEVICE_TODO(9, 7, "b");\n')
            self.assertEqual(len(problems_of(lab)), 1)
            self.assertIn('add {7, "adds.cu"}', problems_of(lab)[0])
            (lab / "queue.cuh").write_text("SSSP_DEVICE_TODO_STATE_IN(9, {4, \"adds.cu\"}, {5, \"adds.cu\"});\n")
            self.assertIn("names no stub of task 5", problems_of(lab)[0])


if __name__ == "__main__":
    sys.exit(unittest.main())
