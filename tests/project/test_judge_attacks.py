#!/usr/bin/env python3
"""Attacks on what the grader itself writes and reads (issue 44), each a
submission of tests/project/attacks/judge/ appended to a lab 01 file:

- the compute-sanitizer item's scratch folder: under a stand-in
  compute-sanitizer (this machine needs no GPU), the worker plants links
  where the grader would write the test program's XML report and read the
  tool's log, or swaps the log for a clean one while the tool reports an
  error. The grader must write no file of its own through a link, quote no
  file the sandbox cannot read, and never pass the item when the tool
  reported an error. Needs bubblewrap (skipped without).
- without the sandbox (--allow-unsandboxed, a bubblewrap that cannot start):
  the worker leaves a process behind that rewrites results.json and the
  JUnit file once the grader has written them. The grader's reports must be
  the last word, and results.json must say the run is not a grade.

    python3 -m tests.project.test_judge_attacks --build-dir BUILD

Needs a built BUILD (lab 01's isolated test program and its solution worker).
"""
import json
import os
import re
import secrets
import signal
import subprocess
import sys
import tempfile
import time
import unittest
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
ATTACKS = REPO / "tests" / "project" / "attacks" / "judge"
LAB = "lab01_serial"
TARGET = "dijkstra.cpp"  # the lab file each attack is appended to
from tests.grader import sandbox  # how a worker is started and confined
from tests.grader import build, intake
from tests.grader.judging import Runner
from tests.grader.model import Program, Result
from tests.grader.sanitizer import SANITIZER_ITEM, SANITIZER_TOOLS, Sanitizer
from tests.project import harness  # --build-dir and the unittest run

BUILD: Path = Path()  # set by main()

# A compute-sanitizer as far as the grader can tell: it opens its --log-file
# first, runs the program after its options (passing on the worker's pipes),
# then writes its summary to the file it opened, counting the errors that
# the file "errors" beside its bin/ folder names (the sandbox passes no
# environment), and exits with --error-exitcode when there are any.
STAND_IN = """#!/usr/bin/env python3
import pathlib, subprocess, sys
args = sys.argv[1:]
log = open(args[args.index("--log-file") + 1], "w")
log.write("========= COMPUTE-SANITIZER\\n")
log.flush()
program = args[args.index("--log-file") + 2:]
returncode = subprocess.run(program, close_fds=False).returncode
errors = int((pathlib.Path(__file__).resolve().parents[1] / "errors").read_text())
if errors:
    log.write("========= Invalid __global__ write of size 4 bytes\\n")
log.write(f"========= ERROR SUMMARY: {errors} error{'s' if errors != 1 else ''}\\n")
log.close()
sys.exit(int(args[args.index("--error-exitcode") + 1]) if errors else returncode)
"""

# Small tests of the lab that pass on the reference solution.
PATTERNS = ["Lab01/Sssp.TinyHandCheckedGraphs/Dijkstra", "Heap.PopsInKeyOrder"]


def submission_of(directory: Path, attack: str, base: Path, **values: str) -> Path:
    """A submission of TARGET: `base`'s text with the attack appended, its @NAME@ placeholders filled and
    the fragments of ATTACKS it includes (#include "NAME.hpp") pasted in: a submission is that one file."""
    code = re.sub(r'^#include "(\w+\.hpp)".*$', lambda m: (ATTACKS / m[1]).read_text(),
                  (ATTACKS / f"{attack}.cpp").read_text(), flags=re.M)
    for name, value in values.items():
        code = code.replace(f"@{name}@", value)
    submission = directory / "submission"
    submission.mkdir(parents=True)
    (submission / TARGET).write_text(f"{base.read_text()}\n// ---- attack: {attack} ----\n{code}")
    return submission


def processes_named(name: str) -> list[int]:
    found = []
    for comm in Path("/proc").glob("[0-9]*/comm"):
        try:
            if comm.read_text().strip() == name:
                found.append(int(comm.parent.name))
        except OSError:
            pass
    return found


class SanitizerScratch(unittest.TestCase):
    """The compute-sanitizer item run by the grader's Sanitizer on lab 01's
    tests, with a stand-in tool in the sandbox."""

    @classmethod
    def setUpClass(cls):
        cls.isolation = sandbox.detect()
        if not cls.isolation.sandboxed:
            raise unittest.SkipTest(f"no sandbox here ({cls.isolation.why})")
        cls.manifest = json.loads((BUILD / "graded_tests.json").read_text())

    def setUp(self):
        scratch = tempfile.TemporaryDirectory(prefix="judge-attack-")
        self.addCleanup(scratch.cleanup)
        self.dir = Path(scratch.name)
        # As the CUDA Toolkit lays it out: the sandbox sees the folder above bin/, read-only.
        self.tool = self.dir / "cuda" / "bin" / "compute-sanitizer"
        self.tool.parent.mkdir(parents=True)
        self.tool.write_text(STAND_IN)
        self.tool.chmod(0o755)
        self.program = next(e["path"] for e in self.manifest["executables"]
                            if e["lab"] == LAB and e["flavour"] == "isolated")

    def worker_of(self, submission: Path) -> str:
        """The lab's worker compiled from `submission` in the sandbox, as grading compiles it (a copy)."""
        labs = self.dir / "labs"
        intake.take_submission(submission, [LAB], labs)
        path, failed = build.build_student_worker(BUILD, labs, LAB, self.isolation, False, {"fresh": True})
        self.assertIsNone(failed, failed)
        copy = self.dir / "worker"
        copy.write_bytes(Path(path).read_bytes())
        copy.chmod(0o755)
        return str(copy)

    def item(self, worker: str, errors: int, isolation: sandbox.Isolation | None = None) -> Result:
        """The item on PATTERNS, the stand-in counting `errors` errors."""
        (self.dir / "cuda" / "errors").write_text(str(errors))
        sanitizer = Sanitizer(str(self.tool), Runner(60, 0, hidden_graphs=None), 120, isolation or self.isolation)
        return sanitizer.run(Program(self.program, "gpu", (), worker), Result(LAB, SANITIZER_ITEM, 4, "visible"),
                             {tool: (PATTERNS, PATTERNS) for tool in SANITIZER_TOOLS})

    def test_the_stand_in_passes_the_reference_and_fails_it_when_it_reports_an_error(self):
        reference = next(w["path"] for w in self.manifest["workers"] if w["lab"] == LAB and w["flavour"] == "solution")
        # Unsandboxed too, as tests/project/check_mutants.py runs the item.
        for isolation in (self.isolation, sandbox.Isolation("none", "a check of the course's own code")):
            with self.subTest(isolation=isolation.kind):
                clean = self.item(reference, 0, isolation)
                self.assertEqual(clean.status, "passed", clean.output)
                reported = self.item(reference, 1, isolation)
                self.assertEqual(reported.status, "failed")
                self.assertIn("Invalid __global__ write", reported.output)

    def test_links_in_the_scratch_folder_reach_no_file_of_the_grader(self):
        canary = self.dir / "canary.py"
        canary.write_text("print('the grader ran this')\n")
        secret = self.dir / "secret.txt"
        secret.write_text(f"not for students: {secrets.token_hex(16)}\n")
        submission = submission_of(self.dir / "links", "sanitizer_plant_links", REPO / "solutions" / LAB / TARGET,
                                   CANARY=str(canary), SECRET=str(secret))
        result = self.item(self.worker_of(submission), 0)
        self.assertEqual(canary.read_text(), "print('the grader ran this')\n", "the grader wrote through a link")
        shown = result.output + "".join(r.message for r in result.sanitizer_runs)
        self.assertNotIn(secret.read_text().strip(), shown, "the grader quoted a file the sandbox cannot read")
        self.assertEqual(result.status, "failed", result.output)
        self.assertIn("changed by the lab's code", result.output)

    def test_a_forged_clean_log_does_not_pass_an_item_the_tool_failed(self):
        submission = submission_of(self.dir / "forged", "sanitizer_forge_clean_log",
                                   REPO / "solutions" / LAB / TARGET)
        result = self.item(self.worker_of(submission), 1)
        self.assertEqual(result.status, "failed", "the item passed while the tool reported an error")
        self.assertEqual(result.score, 0)
        self.assertEqual([r.status for r in result.sanitizer_runs], ["reported"] * 3, result.output)
        self.assertIn("exited with status 86", result.output)


class Unsandboxed(unittest.TestCase):
    """grade.py --allow-unsandboxed where bubblewrap cannot start (a stand-in bwrap that fails)."""

    def setUp(self):
        scratch = tempfile.TemporaryDirectory(prefix="judge-attack-")
        self.addCleanup(scratch.cleanup)
        self.dir = Path(scratch.name)
        self.addCleanup(self.stop_rewriters)

    @staticmethod
    def stop_rewriters():
        for pid in processes_named("sssp-rewriter"):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

    def test_a_process_left_behind_cannot_rewrite_the_reports_and_the_run_is_no_grade(self):
        fake = self.dir / "bin"
        fake.mkdir()
        (fake / "bwrap").write_text("#!/bin/sh\necho 'bwrap: no user namespaces here' >&2\nexit 1\n")
        (fake / "bwrap").chmod(0o755)
        env = dict(os.environ, PATH=f"{fake}{os.pathsep}{os.environ['PATH']}")
        submission = submission_of(self.dir, "rewrite_reports_unsandboxed", REPO / "labs" / LAB / TARGET)
        results, junit = self.dir / "results.json", self.dir / "junit.xml"
        graded = subprocess.run(
            [sys.executable, str(REPO / "tests" / "grade.py"), "--build-dir", str(BUILD), "--no-build",
             "--submission", str(submission), "--lab", LAB, "--results-json", str(results), "--junit", str(junit),
             "--allow-unsandboxed", "--allow-skips", "--no-sanitize", "--no-perf", "--timeout", "10",
             "--hidden-graphs", str(REPO / "datasets" / "tiny"), "--show-failures", "0"],
            env=env, capture_output=True, text=True, errors="replace", timeout=1200)
        self.assertEqual(graded.returncode, 0, graded.stdout[-3000:] + graded.stderr[-3000:])
        self.assertIn("isolation: NONE", graded.stdout, "the stand-in bwrap did not turn the sandbox off")
        self.assertTrue(Path(f"{results}.rewriter").exists(), "the attack never ran: this test proves nothing")
        time.sleep(3)  # the rewriter looks every 0.1 s
        left = processes_named("sssp-rewriter")
        report = json.loads(results.read_text())
        self.assertNotIn("FORGED", results.read_text() + junit.read_text(), "a report was rewritten")
        self.assertEqual(left, [], "a process of the submission outlived grading")
        self.assertTrue(report["extra_data"]["not_a_grade"], "an unsandboxed run must say it is no grade")
        self.assertEqual(report["score"], 0, "an unsandboxed run's total must not count")
        self.assertTrue(report["output"].startswith("NOT A GRADE"), report["output"][:200])


if __name__ == "__main__":
    sys.exit(harness.run_with_build_dir(sys.modules[__name__]))
