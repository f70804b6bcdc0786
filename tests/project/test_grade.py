#!/usr/bin/env python3
"""Tests of tests/grade.py, the autograder, on a built tree:

    test_grade.py --build-dir BUILD

Each test is a way a student or an instructor can make the grader lie: a
forged pass, a skip that shrinks the grade, a stray file in the hidden-graph
directory, a lab that does not compile, a submission that loops or grows
without bound.
"""
import argparse
import contextlib
import io
import json
import os
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path
from unittest import mock

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tests"))
import grade  # noqa: E402

BUILD: Path = Path()  # set by main()
LAB = "lab01_serial"
TINY = REPO / "datasets" / "tiny"


def program(flavour: str) -> grade.Program:
    manifest = json.loads((BUILD / "graded_tests.json").read_text())
    exe = next(e for e in manifest["executables"] if e["lab"] == LAB and e["flavour"] == flavour)
    return grade.Program(exe["path"], exe["kind"])


class GraderRun(unittest.TestCase):
    """Runs grade.py in a scratch directory that is also its working directory."""

    def setUp(self):
        scratch = tempfile.TemporaryDirectory(prefix="grade-test-")
        self.addCleanup(scratch.cleanup)
        self.scratch = Path(scratch.name)
        self.results_path = self.scratch / "results.json"

    def grade(self, *args: str, build: bool = False, env: dict | None = None) -> subprocess.CompletedProcess:
        command = [sys.executable, str(REPO / "tests" / "grade.py"), "--build-dir", str(BUILD),
                   "--junit", str(self.scratch / "junit.xml"), *args]
        if not build:
            command.append("--no-build")
        return subprocess.run(command, cwd=self.scratch, capture_output=True, text=True, env=env, timeout=600)

    def results(self) -> dict:
        return json.loads(self.results_path.read_text())

    def recording_cmake(self) -> tuple[dict, Path]:
        """An environment whose cmake only appends its arguments to a log (the
        tree is built already), and that log."""
        fake, log = self.scratch / "bin", self.scratch / "cmake.log"
        fake.mkdir()
        (fake / "cmake").write_text(f"#!{sys.executable}\nimport sys\n"
                                    f"open({str(log)!r}, 'a').write(' '.join(sys.argv[1:]) + '\\n')\n")
        (fake / "cmake").chmod(0o755)
        return dict(os.environ, PATH=f"{fake}{os.pathsep}{os.environ['PATH']}"), log


class ForgedResults(GraderRun):
    def test_a_forging_submission_scores_zero(self):
        # tests/project/mutants.json: every task prints GoogleTest's pass or
        # skip lines, writes a passing test_detail.xml in the working
        # directory and exits with status 0 or 77 before the test ends.
        proc = self.grade("--lab", LAB, "--flavour", "mutant:forges_test_results", "--hidden-graphs", str(TINY),
                          "--results-json", str(self.results_path), "--allow-skips")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        tests = self.results()["tests"]
        passed = [t["name"] for t in tests if t["status"] == "passed" or t["score"] > 0]
        self.assertEqual(passed, [], "a forged pass was believed")
        skipped = [s for s in self.results().get("extra_data", {}).get("skipped", [])
                   if s["missing"] != "dataset missing"]
        self.assertEqual(skipped, [], "a forged skip was believed")
        forged_skip = next(t for t in tests if t["name"] == f"{LAB}: Lab01/Sssp.TinyHandCheckedGraphs/Dijkstra")
        self.assertIn("ended before it reported this test", forged_skip["output"])
        self.assertIn("exited with status 77", forged_skip["output"])
        self.assertFalse((self.scratch / "test_detail.xml").exists(), "a test wrote into the grader's directory")


class Skips(GraderRun):
    HIDDEN = ["Lab01/Sssp.HiddenGraphs/Dijkstra", "Lab01/Sssp.HiddenGraphs/BellmanFord",
              "Lab01/Sssp.HiddenGraphs/BellmanFordQueue", "Bfs.HiddenGraphs"]

    def skipped_names(self) -> set[str]:
        return {s["name"].split(": ", 1)[1] for s in self.results()["extra_data"]["skipped"]}

    def test_skips_are_an_error_when_grading_for_a_platform(self):
        proc = self.grade("--lab", LAB, "--flavour", "solution", "--results-json", str(self.results_path))
        self.assertEqual(proc.returncode, 2, "skipped graded tests must stop a platform grading run")
        results = self.results()
        self.assertTrue(results["output"].startswith("GRADING INCOMPLETE"), results["output"])
        self.assertIn("no hidden graphs (9 points)", results["output"])
        self.assertLessEqual(set(self.HIDDEN), self.skipped_names())

    def test_allow_skips_accepts_them_and_records_their_points(self):
        proc = self.grade("--lab", LAB, "--flavour", "solution", "--results-json", str(self.results_path),
                          "--allow-skips")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        results = self.results()
        self.assertNotIn("GRADING INCOMPLETE", results["output"])
        self.assertIn("(9 points)", results["output"])
        hidden = [s for s in results["extra_data"]["skipped"] if s["missing"] == "no hidden graphs"]
        self.assertEqual(sum(s["points"] for s in hidden), 9)

    def test_results_json_shows_no_skip_as_a_failure_and_no_total(self):
        self.grade("--lab", LAB, "--flavour", "solution", "--results-json", str(self.results_path),
                   "--allow-skips")
        results = self.results()
        self.assertNotIn("score", results, "Gradescope totals the tests itself and hides unpublished ones")
        self.assertEqual([t["name"] for t in results["tests"] if t["status"] != "passed"], [])
        shown = {t["name"].split(": ", 1)[1] for t in results["tests"]}
        self.assertEqual(shown & self.skipped_names(), set(), "a skipped test is listed, not shown failed")

    def test_a_students_own_run_lists_skips_and_succeeds(self):
        proc = self.grade("--lab", LAB, "--flavour", "solution")  # results.json in the build: no platform
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("could not run here and are not in the score", proc.stdout)
        self.assertIn("hidden-graph test skipped: SSSP_HIDDEN_GRAPHS is not set", proc.stdout)


class StudentEdits(GraderRun):
    def test_the_skeleton_check_leaves_out_a_lab_edited_by_hand(self):
        # As if the student had started on lab 01: its tests are no longer
        # expected to fail, and with nothing else to check the run is skipped.
        edited = {LAB: [f"labs/{LAB}/dijkstra.cpp"]}
        out = io.StringIO()
        with mock.patch.object(grade, "hand_edited_labs", return_value=edited), contextlib.redirect_stdout(out):
            status = grade.main(["--no-build", "--build-dir", str(BUILD), "--lab", LAB, "--expect", "zero",
                                 "--results-json", str(self.results_path), "--junit", str(self.scratch / "j.xml")])
        self.assertEqual(status, 77, out.getvalue())
        self.assertIn(f"not checked: {LAB} was edited by hand (labs/{LAB}/dijkstra.cpp)", out.getvalue())


class HiddenGraphDirectory(GraderRun):
    def expect_refusal(self, directory: Path, why: str) -> None:
        proc = self.grade("--lab", LAB, "--flavour", "solution", "--hidden-graphs", str(directory),
                          "--results-json", str(self.results_path))
        self.assertEqual(proc.returncode, 2, f"a bad hidden-graph directory must stop grading\n{proc.stdout}")
        self.assertIn(why, proc.stderr)
        results = self.results()
        self.assertEqual(results["tests"], [], "no test may be charged for the instructor's input")
        self.assertIn(why, results["output"])

    def test_stray_file(self):
        hidden = self.scratch / "hidden"
        hidden.mkdir()
        (hidden / "clrs_dijkstra.gr").write_bytes((TINY / "clrs_dijkstra.gr").read_bytes())
        (hidden / "NOTES.md").write_text("this directory holds the hidden graphs\n")
        self.expect_refusal(hidden, "NOTES.md")

    def test_misspelled_directory(self):
        self.expect_refusal(self.scratch / "hiden", "is not a directory")

    def test_empty_directory(self):
        (self.scratch / "hidden").mkdir()
        self.expect_refusal(self.scratch / "hidden", "holds no graph file")


class CompileFailure(GraderRun):
    def test_a_lab_that_does_not_compile_scores_zero_and_the_others_are_graded(self):
        # A cmake that builds nothing (the tree is built) and fails lab 01 as a
        # compiler would: grade.py must build and grade lab by lab.
        fake = self.scratch / "bin"
        fake.mkdir()
        (fake / "cmake").write_text(f"""#!{sys.executable}
import sys
if "--build" in sys.argv and any(a.startswith("test_{LAB}_") for a in sys.argv):
    sys.exit(print("dijkstra.cpp:12:5: error: expected ';' before '}}' token", file=sys.stderr) or 1)
""")
        (fake / "cmake").chmod(0o755)
        manifest = json.loads((BUILD / "graded_tests.json").read_text())
        other = next((e["lab"] for e in manifest["executables"]
                      if e["lab"] != LAB and e["kind"] == "cpu" and e["flavour"] == "solution"), "lab02_frontier")
        env = dict(os.environ, PATH=f"{fake}{os.pathsep}{os.environ['PATH']}")
        proc = self.grade("--lab", LAB, "--lab", other, "--flavour", "solution", "--hidden-graphs", str(TINY),
                          "--results-json", str(self.results_path), "--allow-skips", build=True, env=env)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn(f"{LAB} DID NOT COMPILE", proc.stdout)
        tests = {t["name"]: t for t in self.results()["tests"]}
        compilation = tests[f"{LAB}: compilation"]
        self.assertIn("error: expected ';'", compilation["output"])
        lab01 = [t for name, t in tests.items() if name.startswith(f"{LAB}: ") and t is not compilation]
        self.assertEqual(len(lab01), len(json.loads(grade.RUBRIC.read_text())[LAB]["tests"]))
        self.assertTrue(all(t["score"] == 0 and "did not compile" in t["output"] for t in lab01))
        graded = [t for name, t in tests.items() if name.startswith(f"{other}: ")]
        skipped = self.results().get("extra_data", {}).get("skipped", [])
        self.assertTrue(any(t["status"] == "passed" for t in graded) or
                        any(s["name"].startswith(f"{other}: ") for s in skipped),
                        f"{other} was not graded")


class StudentBuild(GraderRun):
    def test_grading_builds_the_students_programs_only_and_no_gpu_test_without_a_gpu(self):
        # A cmake that records what it is asked to build (the tree is built)
        # and an nvidia-smi that finds no GPU, as on a student's laptop.
        env, log = self.recording_cmake()
        (self.scratch / "bin" / "nvidia-smi").write_text("#!/bin/sh\necho 'NVIDIA-SMI has failed' >&2\nexit 9\n")
        (self.scratch / "bin" / "nvidia-smi").chmod(0o755)
        manifest = json.loads((BUILD / "graded_tests.json").read_text())
        kinds: dict[str, set[str]] = {}
        for e in manifest["executables"]:
            kinds.setdefault(e["lab"], set()).add(e["kind"])
        gpu_lab = next((lab for lab, k in kinds.items() if k == {"gpu"}), None)  # none in a CPU-only build
        labs = [LAB] + ([gpu_lab] if gpu_lab else [])
        proc = self.grade(*[arg for lab in labs for arg in ("--lab", lab)], "--hidden-graphs", str(TINY),
                          "--results-json", str(self.results_path), "--allow-skips", build=True, env=env)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        targets = [target for line in log.read_text().splitlines() if line.startswith("--build")
                   for target in line.split(" --target ", 1)[1].split()]
        self.assertIn(f"test_{LAB}_cpu_student", targets)
        self.assertEqual([t for t in targets if "solution" in t or "mutant" in t], [],
                         "a student's grading build must not build the solutions or the mutants")
        gpu_programs = {Path(e["path"]).name for e in manifest["executables"] if e["kind"] == "gpu"}
        self.assertEqual(set(targets) & gpu_programs, set(), "GPU tests built on a machine without a GPU")
        if gpu_lab:
            skipped = [s for s in self.results()["extra_data"]["skipped"] if s["name"].startswith(f"{gpu_lab}: ")]
            rubric = json.loads(grade.RUBRIC.read_text())[gpu_lab]["tests"]
            self.assertEqual(len(skipped), len(rubric), f"every test of {gpu_lab} is skipped, not failed")
            self.assertTrue(all(s["missing"] == "no GPU" and "--build-gpu-labs" in s["reason"] for s in skipped))


class Submission(GraderRun):
    def test_only_the_files_a_student_edits_are_graded_and_the_rest_listed(self):
        # A cmake that records its configure line (the tree is built): the
        # labs it is pointed at are the submission's.
        env, log = self.recording_cmake()
        submission = self.scratch / "submission"
        (submission / "labs" / LAB).mkdir(parents=True)
        (submission / "labs" / LAB / "dijkstra.cpp").write_text("// my Dijkstra\n")
        (submission / "bfs.cpp").write_text("// my BFS, at the top level\n")
        (submission / "labs" / LAB / "lab01.hpp").write_text("// a header the tests rely on\n")
        (submission / "NOTES.md").write_text("notes\n")
        proc = self.grade("--submission", str(submission), "--results-json", str(self.results_path),
                          "--allow-skips", build=True, env=env)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        copy = BUILD / "submission" / "labs"
        self.assertIn(f"-DSSSP_LABS_DIR={copy}", log.read_text().splitlines()[0])
        self.assertEqual((copy / LAB / "dijkstra.cpp").read_text(), "// my Dijkstra\n")
        self.assertEqual((copy / LAB / "bfs.cpp").read_text(), "// my BFS, at the top level\n")
        self.assertEqual((copy / LAB / "lab01.hpp").read_text(), (REPO / "labs" / LAB / "lab01.hpp").read_text())
        self.assertIn("Ignored, not lab files a student edits: NOTES.md, labs/lab01_serial/lab01.hpp",
                      self.results()["output"])
        self.assertEqual({t["name"].split(": ")[0] for t in self.results()["tests"]}, {LAB}, "only labs submitted")


class WrongSubmissions(unittest.TestCase):
    """Mutants of tests/project/mutants.json that crash, loop or grow without bound."""

    @staticmethod
    def run_test(mutant: str, name: str, timeout: float = 60, memory_mib: int = 0) -> grade.Result:
        runner = grade.Runner(timeout, memory_mib, hidden_graphs=None)
        return runner.run(program(f"mutant:{mutant}"), grade.Result(LAB, name, 1, "visible"))

    def test_memory_cap_stops_a_growing_heap_and_names_the_graph(self):
        # Dijkstra relaxing on <= pushes forever along zero-weight arcs.
        result = self.run_test("dijkstra_relaxes_on_equal_distance", "Lab01/Sssp.TinyHandCheckedGraphs/Dijkstra",
                               memory_mib=256)
        self.assertEqual(result.status, "failed")
        self.assertIn("memory cap of 256 MiB", result.output)
        self.assertIn("while running: graph 'tiny/", result.output)

    def test_timeout_names_the_graph(self):
        result = self.run_test("dijkstra_relaxes_on_equal_distance", "Lab01/Sssp.CornerCases/Dijkstra",
                               timeout=1.5)
        self.assertEqual(result.status, "timeout")
        self.assertIn("while running: graph 'zero-weight grid 6x6'", result.output)

    def test_missing_source_check_gets_its_hint_even_when_it_crashes(self):
        # Writing dist[source] out of bounds may crash the test program before
        # GoogleTest reports; either way the message carries the hint.
        result = self.run_test("dijkstra_without_source_check", "Lab01/Sssp.RejectsBadSource/Dijkstra")
        self.assertEqual(result.status, "failed")
        self.assertIn("call sssp::require_valid_source(graph, source) first", result.output)


class SkipReasons(unittest.TestCase):
    """A test program whose report says the test skipped, with a given reason."""

    def skip_with(self, reason: str, kind: str) -> grade.Result:
        scratch = tempfile.TemporaryDirectory(prefix="grade-test-")
        self.addCleanup(scratch.cleanup)
        fake = Path(scratch.name) / "skipping_test"
        fake.write_text(f"""#!{sys.executable}
import sys
report = next(a for a in sys.argv if a.startswith("--gtest_output=xml:"))[len("--gtest_output=xml:"):]
open(report, "w").write('<testsuites><testsuite name="S"><testcase name="T" classname="S" status="run" '
                        'result="skipped"><skipped message="t.cpp:1&#x0A;{reason}"/></testcase></testsuite>'
                        '</testsuites>')
""")
        fake.chmod(0o755)
        return grade.Runner(10, 0, hidden_graphs=None).run(grade.Program(str(fake), kind),
                                                           grade.Result(LAB, "S.T", 1, "visible"))

    def test_a_course_reason_is_a_skip(self):
        result = self.skip_with("GPU test skipped: no NVIDIA GPU or driver found", "gpu")
        self.assertEqual((result.status, result.missing), ("skipped", "no GPU"))

    def test_any_other_reason_fails(self):
        result = self.skip_with("not today", "cpu")
        self.assertEqual(result.status, "failed")
        self.assertIn("a reason the course does not define: 'not today'", result.output)

    def test_no_gpu_is_no_reason_for_a_cpu_test(self):
        self.assertEqual(self.skip_with("GPU test skipped: no GPU", "cpu").status, "failed")


class NoGpu(unittest.TestCase):
    def test_a_machine_without_driver_is_told_so_plainly(self):
        manifest = json.loads((BUILD / "graded_tests.json").read_text())
        gpu = next((grade.Program(e["path"], e["kind"]) for e in manifest["executables"]
                    if e["kind"] == "gpu" and e["flavour"] == "solution"), None)
        if gpu is None or list(Path("/dev").glob("nvidia*")):
            self.skipTest("needs a CUDA build on a machine without an NVIDIA GPU or driver (/dev/nvidia*)")
        runner = grade.Runner(60, grade.MEMORY_LIMIT_MIB, hidden_graphs=None)
        jobs = [(gpu, grade.Result("lab", name, 1, "visible")) for name in runner.list_tests(gpu)]
        runner.run_all(jobs)
        reasons = {r.output for _, r in jobs if r.status == "skipped"}
        self.assertTrue(reasons, "GPU tests must skip without a GPU")
        for reason in reasons:
            self.assertTrue(reason.startswith("GPU test skipped: no NVIDIA GPU or driver found"), reason)


def main() -> int:
    global BUILD
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--build-dir", required=True)
    args, rest = parser.parse_known_args()
    BUILD = Path(args.build_dir).resolve()
    return 0 if unittest.main(argv=[sys.argv[0], *rest], exit=False, verbosity=2).result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())
