#!/usr/bin/env python3
"""Tests of tests/grade.py, the autograder, on a built tree:

    python3 -m tests.project.test_grade --build-dir BUILD

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
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path
from unittest import mock
from xml.etree import ElementTree as ET

REPO = Path(__file__).resolve().parents[2]
from tests.grader import __main__ as grade  # the command (tests/grade.py's main)
import tests.grader.build
import tests.grader.intake
import tests.grader.pipeline
import tests.grader.sanitizer
from tests.grader import lab_data  # each lab's rubric.json and mutants.json
from tests.grader.judging import Runner, gtest_filter_matches
from tests.grader.limits import MEMORY_LIMIT_MIB
from tests.grader.model import GradingError, LabReport, Program, Result, ToolRun
from tests.grader.perf import PERF_ITEM
from tests.grader.sanitizer import (SANITIZER_ERROR_EXITCODE, SANITIZER_ITEM, SANITIZER_LOG,
                               SANITIZER_MISSING, SANITIZER_NO_GPU, SANITIZER_OFF, SANITIZER_TOOLS, Sanitizer,
                               judge_tool_run, parse_sanitizer_log, read_tool_log, recorded_exits,
                               sanitizer_verdict, tool_patterns)
from tests.grader.reports import write_gradescope, write_junit
from tests.grader.scoring import rubric_results
from tests.project import harness  # --build-dir and the unittest run

BUILD: Path = Path()  # set by main()
LAB = "lab01_serial"
TINY = REPO / "datasets" / "tiny"


def mutant_program(name: str) -> Program:
    """LAB's isolated test program calling the worker of mutant `name`, as
    the mutant checks run it (check_mutants.variant_programs)."""
    from tests.project import check_mutants  # runs every variant\'s tests at once, as the grader does
    manifest = json.loads((BUILD / "graded_tests.json").read_text())
    [program] = check_mutants.variant_programs(manifest, "mutant", [LAB])[(LAB, name)]
    return program


class GraderRun(unittest.TestCase):
    """Runs grade.py in a scratch directory that is also its working directory."""

    def setUp(self):
        scratch = tempfile.TemporaryDirectory(prefix="grade-test-")
        self.addCleanup(scratch.cleanup)
        self.scratch = Path(scratch.name)
        self.results_path = self.scratch / "results.json"

    def grade(self, *args: str, build: bool = False, env: dict | None = None) -> subprocess.CompletedProcess:
        command = [sys.executable, str(REPO / "tests" / "grade.py"), "--build-dir", str(BUILD),
                   "--junit", str(self.scratch / "junit.xml"), "--allow-unsandboxed", *args]
        if not build:
            command.append("--no-build")
        return subprocess.run(command, cwd=self.scratch, capture_output=True, text=True, env=env, timeout=600)

    def results(self) -> dict:
        return json.loads(self.results_path.read_text())

    def grade_recorded(self, *args: str, fail_worker_of: str = "") -> tuple[int, str, dict]:
        """Runs grade.main (building, not --no-build) with its build steps
        recorded instead of run (the tree is built already): the trusted
        builds' targets, the configure's labs directory, the labs whose
        student worker was asked for (each given the built one from labs/,
        or, for `fail_worker_of`, a compiler error) and whether the work
        directory's lock was held then, and the directories locked. Returns
        the exit status, what it printed and the record."""
        manifest = json.loads((BUILD / "graded_tests.json").read_text())
        built = {w["lab"]: w["path"] for w in manifest["workers"] if w["flavour"] == "student"}
        record: dict = {"targets": [], "labs_dir": None, "workers": [], "locked": [], "held": []}
        holding: list[Path] = []

        @contextlib.contextmanager
        def worker_build_lock(work_dir):
            record["locked"].append(work_dir)
            holding.append(work_dir)
            try:
                yield
            finally:
                holding.pop()

        def configure(_build_dir, _data_dir, labs_dir):
            record["labs_dir"] = labs_dir

        def build(_build_dir, targets):
            record["targets"] += targets

        def build_student_worker(_build_dir, labs_dir, lab, *_rest, **_options):
            record["workers"].append((lab, labs_dir))
            record["held"].append(bool(holding))
            if lab == fail_worker_of:
                return None, "dijkstra.cpp:12:5: error: expected ';' before '}' token"
            return built[lab], None

        out = io.StringIO()
        with mock.patch.object(tests.grader.build, "configure", configure), \
                mock.patch.object(tests.grader.build, "build", build), \
                mock.patch.object(tests.grader.build, "build_student_worker", build_student_worker), \
                mock.patch.object(tests.grader.build, "worker_build_lock", worker_build_lock), \
                contextlib.redirect_stdout(out):
            status = grade.main(["--build-dir", str(BUILD), "--junit", str(self.scratch / "junit.xml"),
                                 "--allow-unsandboxed", *args])
        return status, out.getvalue(), record


class ForgedResults(GraderRun):
    def test_a_forging_submission_scores_zero(self):
        # solutions/lab01_serial/mutants.json: every task prints GoogleTest's
        # pass or skip lines, writes a passing test_detail.xml in the working
        # directory and exits with status 0 or 77 before the test ends. It
        # runs in the worker, so all it ends is the worker.
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
        self.assertIn("exited with status 77 in the middle of a call", forged_skip["output"])
        self.assertFalse((self.scratch / "test_detail.xml").exists(), "a test wrote into the grader's directory")

    def test_in_process_runs_are_never_grades(self):
        for args in (["--results-json", str(self.results_path)], ["--submission", str(self.scratch)],
                     ["--flavour", "mutant:forges_test_results"]):
            proc = self.grade("--lab", LAB, "--in-process", *args)
            self.assertEqual(proc.returncode, 2, f"--in-process {' '.join(args)} was accepted")
            self.assertIn("--in-process", proc.stderr)


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
        if results.get("extra_data", {}).get("not_a_grade"):
            self.assertEqual(results["score"], 0, "a run without the sandbox is no grade")  # no bubblewrap here
        else:
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
        with mock.patch.object(tests.grader.intake, "hand_edited_labs", return_value=edited), \
                contextlib.redirect_stdout(out):
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


class UnbuiltWorker(GraderRun):
    def test_a_worker_the_build_lacks_stops_the_grading_with_its_name(self):
        # --no-build grades with the workers the course build made. One never
        # built failed every test as a crash of the student's code ("exited
        # with status 1": the sandbox found no program), and --expect zero
        # called that the untouched skeleton's 0 (H200, 2026-11-29).
        manifest = json.loads((BUILD / "graded_tests.json").read_text())
        absent = self.scratch / "lab01_serial_worker_student"
        for worker in manifest["workers"]:
            if (worker["lab"], worker["flavour"]) == ("lab01_serial", "student"):
                worker["path"] = str(absent)
        build_dir = self.scratch / "build"
        build_dir.mkdir()
        (build_dir / "graded_tests.json").write_text(json.dumps(manifest))
        run = subprocess.run([sys.executable, str(REPO / "tests" / "grade.py"), "--build-dir", str(build_dir),
                              "--no-build", "--lab", "lab01_serial", "--expect", "zero", "--allow-unsandboxed",
                              "--junit", str(self.scratch / "junit.xml")],
                             cwd=self.scratch, capture_output=True, text=True, timeout=600)
        self.assertNotEqual(run.returncode, 0, run.stdout)
        self.assertIn(f"lab01_serial: not built: {absent} (build it: drop --no-build)", run.stderr)
        self.assertNotIn("as expected", run.stdout)


class CountOptions(GraderRun):
    def test_counts_under_one_are_refused_with_the_option_named(self):
        # 0 tests a process would grade nothing and call it done; 0 GPU jobs would wait forever.
        for option in ("--tests-per-process", "--gpu-jobs"):
            proc = self.grade("--lab", "lab01_serial", option, "0")
            self.assertEqual(proc.returncode, 2, f"{option} 0 was accepted\n{proc.stdout}")
            self.assertIn(f"{option} needs at least 1", proc.stderr)


class SharedWorkDirectory(GraderRun):
    def test_a_second_grading_in_one_work_directory_waits_for_the_first(self):
        # Two gradings at once in one work directory: the second's compile would
        # replace the worker the first one's tests still run, one student's
        # tests running another's code (two attack runs side by side on one
        # build broke each other's CMake cache, H200, 2026-11-29).
        from tests.grader import build
        work = self.scratch / "work"
        second = ("import sys\nfrom pathlib import Path\nfrom tests.grader import build\n"
                  "with build.worker_build_lock(Path(sys.argv[1])):\n    print('held', flush=True)\n")
        with build.worker_build_lock(work):
            waiting = subprocess.Popen([sys.executable, "-c", second, str(work)], cwd=REPO, stdout=subprocess.PIPE,
                                       text=True)
            first_line = waiting.stdout.readline()
            self.assertIn(f"waiting: another grading compiles and runs students' code in {work / 'isolation'}",
                          first_line)
            self.assertIn("each need their own --work-dir", first_line)
        rest, _ = waiting.communicate(timeout=60)
        self.assertEqual(rest, "held\n", "it went on once the first grading ended")

    def test_a_grading_that_compiles_no_student_code_takes_no_lock(self):
        status, out, record = self.grade_recorded("--lab", LAB, "--flavour", "solution", "--hidden-graphs", str(TINY),
                                                  "--results-json", str(self.results_path), "--allow-skips")
        self.assertEqual(status, 0, out)
        self.assertEqual((record["workers"], record["locked"]), ([], []))


class CompileFailure(GraderRun):
    def test_a_lab_that_does_not_compile_scores_zero_and_the_others_are_graded(self):
        # LAB's worker fails to compile as a compiler would: grade.py must
        # build and grade lab by lab.
        manifest = json.loads((BUILD / "graded_tests.json").read_text())
        other = next((e["lab"] for e in manifest["executables"]
                      if e["lab"] != LAB and e["kind"] == "cpu" and e["flavour"] == "isolated"), None)
        if other is None:
            self.skipTest("needs a second lab with CPU tests (a build with the GPU labs)")
        status, out, record = self.grade_recorded("--lab", LAB, "--lab", other, "--hidden-graphs", str(TINY),
                                                  "--results-json", str(self.results_path), "--allow-skips",
                                                  fail_worker_of=LAB)
        self.assertEqual(status, 0, out)
        self.assertEqual([lab for lab, _ in record["workers"]], [LAB, other])
        self.assertIn(f"{LAB} DID NOT COMPILE", out)
        tests = {t["name"]: t for t in self.results()["tests"]}
        compilation = tests[f"{LAB}: compilation"]
        self.assertIn("error: expected ';'", compilation["output"])
        lab01 = [t for name, t in tests.items() if name.startswith(f"{LAB}: ") and t is not compilation]
        skipped = [s for s in self.results().get("extra_data", {}).get("skipped", []) if s["name"].startswith(LAB)]
        self.assertEqual(len(lab01) + len(skipped), len(lab_data.load_rubric()[LAB]["tests"]))
        self.assertTrue(all(t["score"] == 0 and "did not compile" in t["output"] for t in lab01))
        graded = [t for name, t in tests.items() if name.startswith(f"{other}: ")]
        self.assertTrue(graded and all("did not compile" not in t["output"] for t in graded),
                        f"{other} was not graded")


    def test_the_maximum_is_a_compiled_runs_whether_or_not_the_code_compiles(self):
        # Issue 47: 100 when the code did not compile, 82 when it did (the
        # road graph and hidden-graph tests skipped here): the same skips now.
        empty = self.scratch / "no-datasets"
        empty.mkdir()
        maxima, skipped = [], []
        for fail in ("", LAB):
            status, out, _ = self.grade_recorded("--lab", LAB, "--data-dir", str(empty), "--results-json",
                                                 str(self.results_path), "--allow-skips", fail_worker_of=fail)
            self.assertEqual(status, 0, out)
            results = self.results()
            maxima.append(sum(t["max_score"] for t in results["tests"]))
            listed = results.get("extra_data", {}).get("skipped", [])
            skipped.append(sorted((s["name"], s["missing"]) for s in listed))
        self.assertEqual(maxima[0], maxima[1], "the maximum changed with the compiler's verdict")
        self.assertEqual(skipped[0], skipped[1])
        self.assertEqual({missing for _, missing in skipped[0]}, {"dataset missing", "no hidden graphs"})
        self.assertIn("did not compile", "".join(t["output"] for t in results["tests"]), "the second run compiled")

class StudentBuild(GraderRun):
    def test_grading_builds_the_course_programs_and_the_students_worker_only_and_no_gpu_test_without_a_gpu(self):
        # Build steps recorded, and an nvidia-smi that finds no GPU, as on a
        # student's laptop.
        fake = self.scratch / "bin"
        fake.mkdir()
        (fake / "nvidia-smi").write_text("#!/bin/sh\necho 'NVIDIA-SMI has failed' >&2\nexit 9\n")
        (fake / "nvidia-smi").chmod(0o755)
        manifest = json.loads((BUILD / "graded_tests.json").read_text())
        kinds: dict[str, set[str]] = {}
        for e in manifest["executables"]:
            kinds.setdefault(e["lab"], set()).add(e["kind"])
        gpu_lab = next((lab for lab, k in kinds.items() if k == {"gpu"}), None)  # none in a CPU-only build
        labs = [LAB] + ([gpu_lab] if gpu_lab else [])
        with mock.patch.dict(os.environ, PATH=f"{fake}{os.pathsep}{os.environ['PATH']}"):
            status, out, record = self.grade_recorded(*[arg for lab in labs for arg in ("--lab", lab)],
                                                      "--hidden-graphs", str(TINY), "--results-json",
                                                      str(self.results_path), "--allow-skips")
        self.assertEqual(status, 0, out)
        targets = record["targets"]
        self.assertIn(f"test_{LAB}_cpu_isolated", targets)
        self.assertEqual([t for t in targets if any(w in t for w in ("solution", "mutant", "student", "worker"))],
                         [], "the trusted build holds no lab code: no solution, mutant or student program")
        self.assertEqual([lab for lab, _ in record["workers"]], [LAB], "the student's worker, of CPU labs only")
        gpu_programs = {Path(e["path"]).name for e in manifest["executables"] if e["kind"] == "gpu"}
        self.assertEqual(set(targets) & gpu_programs, set(), "GPU tests built on a machine without a GPU")
        if gpu_lab:
            skipped = {s["name"].split(": ", 1)[1]: s for s in self.results()["extra_data"]["skipped"]
                       if s["name"].startswith(f"{gpu_lab}: ")}
            entry = lab_data.load_rubric()[gpu_lab]
            self.assertEqual(set(skipped), {*entry["tests"], SANITIZER_ITEM, PERF_ITEM},
                             f"every test of {gpu_lab}, its sanitizer and performance items are skipped, not failed")
            item = skipped.pop(SANITIZER_ITEM)
            self.assertEqual((item["missing"], item["reason"], item["points"]),
                             (SANITIZER_NO_GPU[0], SANITIZER_NO_GPU[1], entry["sanitizer"]["points"]))
            self.assertTrue(all(s["missing"] == "no GPU" and "--build-gpu-labs" in s["reason"]
                                for s in skipped.values()))


class Submission(GraderRun):
    def test_only_the_files_a_student_edits_are_graded_and_the_rest_listed(self):
        submission = self.scratch / "submission"
        (submission / "labs" / LAB).mkdir(parents=True)
        (submission / "labs" / LAB / "dijkstra.cpp").write_text("// my Dijkstra\n")
        (submission / "bfs.cpp").write_text("// my BFS, at the top level\n")
        (submission / "labs" / LAB / "lab01.hpp").write_text("// a header the tests rely on\n")
        (submission / "NOTES.md").write_text("notes\n")
        status, out, record = self.grade_recorded("--submission", str(submission), "--results-json",
                                                  str(self.results_path), "--allow-skips")
        self.assertEqual(status, 0, out)
        copy = BUILD / "submission" / "labs"
        self.assertEqual(record["workers"], [(LAB, copy)], "the worker is built from the submission's copy")
        self.assertEqual((record["locked"], record["held"]), ([BUILD], [True]),
                         "the work directory is this grading's while it compiles the worker")
        self.assertEqual((copy / LAB / "dijkstra.cpp").read_text(), "// my Dijkstra\n")
        self.assertEqual((copy / LAB / "bfs.cpp").read_text(), "// my BFS, at the top level\n")
        self.assertEqual((copy / LAB / "lab01.hpp").read_text(), (REPO / "labs" / LAB / "lab01.hpp").read_text())
        self.assertIn("Ignored, not lab files a student edits: NOTES.md, labs/lab01_serial/lab01.hpp",
                      self.results()["output"])
        self.assertEqual({t["name"].split(": ")[0] for t in self.results()["tests"]}, {LAB}, "only labs submitted")


class Uploads(GraderRun):
    """Issue 47: the shapes a student's upload comes in, on Gradescope."""

    def upload(self, files: dict[str, str]) -> Path:
        submission = self.scratch / "submission"
        for name, text in files.items():
            (submission / name).parent.mkdir(parents=True, exist_ok=True)
            (submission / name).write_text(text)
        return submission

    def test_lab_files_in_a_folder_of_any_name_are_graded_and_zip_metadata_is_not_listed(self):
        submission = self.upload({f"my_lab01/{name}": f"// my {name}\n" for name in ("dijkstra.cpp", "bfs.cpp",
                                                                                      "bellman_ford.cpp")}
                                 | {"__MACOSX/my_lab01/._dijkstra.cpp": "", "my_lab01/.DS_Store": ""})
        status, out, record = self.grade_recorded("--submission", str(submission), "--lab", LAB, "--hidden-graphs",
                                                  str(TINY), "--results-json", str(self.results_path),
                                                  "--allow-skips")
        self.assertEqual(status, 0, out)
        copy = BUILD / "submission" / "labs"
        self.assertEqual(record["workers"], [(LAB, copy)])
        self.assertEqual((copy / LAB / "bfs.cpp").read_text(), "// my bfs.cpp\n")
        output = self.results()["output"]
        self.assertNotIn("MISSING", output)
        self.assertNotIn("Ignored", output, "zip metadata and dotfiles are no student's file")

    def test_every_lab_file_the_upload_lacks_is_named_first(self):
        submission = self.upload({"dijkstra.cpp": "// my Dijkstra\n"})
        status, out, _ = self.grade_recorded("--submission", str(submission), "--lab", LAB, "--hidden-graphs",
                                             str(TINY), "--results-json", str(self.results_path), "--allow-skips")
        self.assertEqual(status, 0, out)
        missing = f"MISSING from the upload, so graded as the untouched skeleton: {LAB}/bellman_ford.cpp, {LAB}/bfs.cpp"
        self.assertTrue(self.results()["output"].startswith(missing), self.results()["output"][:300])
        self.assertIn(missing, out)

    def test_an_upload_that_cannot_be_graded_gets_a_schema_valid_result_saying_where_the_files_go(self):
        (self.scratch / "junit.xml").write_text("<testsuites/>")  # a previous run's report
        outside = self.scratch / "secret.cpp"
        outside.write_text("// not the student's\n")
        where = f"at the top level of the upload or in a folder of any name ({LAB}: bellman_ford.cpp, bfs.cpp, " \
                "dijkstra.cpp)"
        for files, phrases in (({"a/dijkstra.cpp": "", "b/dijkstra.cpp": ""},
                                ["ambiguous: dijkstra.cpp (a/dijkstra.cpp, b/dijkstra.cpp)", where]),
                               ({"README.md": ""}, ["the upload holds no lab file to grade", where]),
                               ({"big/bfs.cpp": "x" * ((1 << 20) + 1)}, ["big/bfs.cpp is over 1 MiB"])):
            with self.subTest(phrases[0]):
                shutil.rmtree(self.scratch / "submission", ignore_errors=True)
                submission = self.upload(files)
                (submission / "bellman_ford.cpp").symlink_to(outside)  # a link is never followed
                status, out, _ = self.grade_recorded("--submission", str(submission), "--lab", LAB,
                                                     "--results-json", str(self.results_path))
                self.assertEqual(status, 2, out)
                results = self.results()
                self.assertEqual((results["tests"], results["score"]), ([], 0), "Gradescope's schema")
                self.assertTrue(results["output"].startswith("UPLOAD NOT GRADED: "), results["output"])
                for phrase in phrases:
                    self.assertIn(phrase, results["output"])
                self.assertFalse((self.scratch / "junit.xml").exists(), "the previous run's junit.xml was left")
        self.assertEqual(outside.read_text(), "// not the student's\n")

    def test_a_link_to_a_lab_file_is_ignored_not_followed(self):
        outside = self.scratch / "dijkstra.cpp"
        outside.write_text("// not the student's\n")
        submission = self.upload({"bfs.cpp": "// my BFS\n"})
        (submission / "dijkstra.cpp").symlink_to(outside)
        copy = self.scratch / "labs"
        upload = tests.grader.intake.take_submission(submission, [LAB], copy)
        self.assertEqual((upload.labs, upload.ignored, upload.missing),
                         ([LAB], ["dijkstra.cpp"], [f"{LAB}/bellman_ford.cpp", f"{LAB}/dijkstra.cpp"]))
        self.assertEqual((copy / LAB / "dijkstra.cpp").read_text(), (REPO / "labs" / LAB / "dijkstra.cpp").read_text())


class ReportFiles(unittest.TestCase):
    def test_a_link_in_a_reports_place_is_replaced_not_followed(self):
        scratch = tempfile.TemporaryDirectory(prefix="grade-test-")
        self.addCleanup(scratch.cleanup)
        target = Path(scratch.name) / "grader.py"
        target.write_text("# the grader's own file\n")
        for name, write in (("results.json", lambda path: write_gradescope([], path, "a message")),
                            ("junit.xml", lambda path: write_junit([], path))):
            with self.subTest(name):
                report = Path(scratch.name) / name
                report.symlink_to(target)
                write(report)
                self.assertFalse(report.is_symlink())
                self.assertEqual(target.read_text(), "# the grader's own file\n")
        self.assertEqual(sorted(p.name for p in Path(scratch.name).iterdir()),
                         ["grader.py", "junit.xml", "results.json"], "a temporary file was left")

    def test_a_run_without_the_sandbox_is_no_grade(self):
        scratch = tempfile.TemporaryDirectory(prefix="grade-test-")
        self.addCleanup(scratch.cleanup)
        path = Path(scratch.name) / "results.json"
        report = LabReport(LAB, "Lab 01", [Result(LAB, "S.T", 3, "visible", status="passed")])
        write_gradescope([report], path, "isolation: NONE", "the student's code ran without the sandbox")
        results = json.loads(path.read_text())
        self.assertEqual(results["score"], 0)
        self.assertEqual(results["extra_data"], {"not_a_grade": True, "tests_score": 3, "tests_max_score": 3})
        self.assertTrue(results["output"].startswith("NOT A GRADE: the student's code ran without the sandbox"))
        self.assertEqual(results["tests"][0]["score"], 3, "the tests' points are kept for reference")


class WrongSubmissions(unittest.TestCase):
    """Mutants of solutions/lab01_serial/mutants.json that crash, loop or grow without bound."""

    @staticmethod
    def run_test(mutant: str, name: str, timeout: float = 60, memory_mib: int = 0) -> Result:
        runner = Runner(timeout, memory_mib, hidden_graphs=None)
        return runner.run(mutant_program(mutant), Result(LAB, name, 1, "visible"))

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

    def skip_with(self, reason: str, kind: str) -> Result:
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
        return Runner(10, 0, hidden_graphs=None).run(Program(str(fake), kind),
                                                           Result(LAB, "S.T", 1, "visible"))

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
        gpu = next((Program(e["path"], e["kind"]) for e in manifest["executables"]
                    if e["kind"] == "gpu" and e["flavour"] == "solution"), None)
        if gpu is None or list(Path("/dev").glob("nvidia*")):
            self.skipTest("needs a CUDA build on a machine without an NVIDIA GPU or driver (/dev/nvidia*)")
        runner = Runner(60, MEMORY_LIMIT_MIB, hidden_graphs=None)
        jobs = [(gpu, Result("lab", name, 1, "visible")) for name in runner.list_tests(gpu)]
        runner.run_all(jobs)
        reasons = {r.output for _, r in jobs if r.status == "skipped"}
        self.assertTrue(reasons, "GPU tests must skip without a GPU")
        for reason in reasons:
            self.assertTrue(reason.startswith("GPU test skipped: no NVIDIA GPU or driver found"), reason)


# compute-sanitizer's own output (its --log-file) as CUDA 12-13 print it, abridged.
CLEAN_MEMCHECK = """========= COMPUTE-SANITIZER
========= ERROR SUMMARY: 0 errors
"""
CLEAN_RACECHECK = """========= COMPUTE-SANITIZER
========= RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)
"""
RACE = """========= COMPUTE-SANITIZER
========= Error: Race reported between Write access at lab04::argmin_interleaved(const unsigned long *, \
const unsigned int *, unsigned int, unsigned long *, unsigned int *)+0x3f0 in argmin_reduction.cu:78
=========     and Read access at lab04::argmin_interleaved(const unsigned long *, const unsigned int *, \
unsigned int, unsigned long *, unsigned int *)+0x3a0 in argmin_reduction.cu:78 [1984 hazards]
=========
========= RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)
"""
INVALID_WRITE = """========= COMPUTE-SANITIZER
========= Invalid __global__ write of size 1 bytes
=========     at lab02::relax_frontier(const unsigned int *, const unsigned int *, const unsigned int *, \
unsigned int, unsigned char *, const unsigned long *, unsigned long *)+0x2b0 in frontier_sssp.cu:43
=========     by thread (5,0,0) in block (0,0,0)
=========     Address 0x7f3a4c000205 is out of bounds
=========     and is 0 bytes after the nearest allocation at 0x7f3a4c000200 of size 5 bytes
=========     Saved host backtrace up to driver entry point at kernel launch time
=========         Host Frame: cudaLaunchKernel [0x4e2f1] in test_lab02_frontier_gpu_student
=========         Host Frame: lab02::FrontierSssp::run(unsigned int) [0x1c2a0] in test_lab02_frontier_gpu_student
=========
========= Program hit cudaErrorLaunchFailure (error 719) due to "unspecified launch failure" on CUDA API call \
to cudaStreamSynchronize.
=========
========= ERROR SUMMARY: 2 errors
"""


def gtest_report(cases: dict[str, str]) -> dict[str, ET.Element]:
    """testcase elements by full name, as the grader reads them: 'passed', 'failed' or 'skipped:REASON'."""
    found = {}
    for name, outcome in cases.items():
        suite, test = name.split(".", 1)
        case = ET.Element("testcase", name=test, classname=suite, status="run")
        if outcome == "failed":
            ET.SubElement(case, "failure", message="x").text = "t.cpp:9\ngraph 'tiny/clrs': vertex 3 expected 5, got 7"
        elif outcome.startswith("skipped:"):
            case.set("result", "skipped")
            ET.SubElement(case, "skipped", message="t.cpp:1\n" + outcome.split(":", 1)[1])
        found[name] = case
    return found


class SanitizerOutput(unittest.TestCase):
    """The sanitizer item's judgement of one tool run, on canned output."""
    NAMES = ["S.T", "S.U"]

    def judge(self, tool: str, log: str, returncode: int | None = 0, cases: dict | None = None,
              output: str = "", exits: list[int | None] | None = None, tampered: str = "") -> ToolRun:
        """A run judged from canned output; the tool's exit status is the
        program's (as in process) unless `exits` records the worker's."""
        report = gtest_report(cases if cases is not None else {n: "passed" for n in self.NAMES})
        if exits is None:
            exits = [] if returncode is None else [returncode]
        return judge_tool_run(tool, returncode, exits, log, report, self.NAMES, output, 120, tampered)

    def test_parser_reads_the_summaries_and_the_first_report_lines(self):
        self.assertEqual(parse_sanitizer_log(CLEAN_MEMCHECK).errors, 0)
        self.assertEqual(parse_sanitizer_log(CLEAN_RACECHECK).errors, 0)
        race = parse_sanitizer_log(RACE)
        self.assertEqual(race.errors, 1)
        self.assertTrue(race.lines[0].startswith("========= Error: Race reported between Write access"))
        write = parse_sanitizer_log(INVALID_WRITE)
        self.assertEqual(write.errors, 2)
        self.assertEqual(write.lines[0], "========= Invalid __global__ write of size 1 bytes")
        self.assertFalse([line for line in write.lines if "Host Frame" in line or "COMPUTE-SANITIZER" in line])
        self.assertIsNone(parse_sanitizer_log("========= COMPUTE-SANITIZER\n").errors, "no summary")

    def test_a_clean_run_of_passing_tests_is_clean(self):
        self.assertEqual(self.judge("memcheck", CLEAN_MEMCHECK).status, "clean")
        self.assertEqual(self.judge("racecheck", CLEAN_RACECHECK).status, "clean")
        self.assertEqual(self.judge("synccheck", CLEAN_MEMCHECK).status, "clean")

    def test_a_race_fails_with_its_report_and_the_barrier_hint(self):
        run = self.judge("racecheck", RACE, SANITIZER_ERROR_EXITCODE)
        self.assertEqual((run.status, run.errors), ("reported", 1))
        self.assertIn("compute-sanitizer racecheck reported 1 hazard", run.message)
        self.assertIn("Race reported between Write access", run.message)
        self.assertIn("is there a __syncthreads() between the writes and the reads", run.message.lower())

    def test_a_write_out_of_bounds_fails_with_its_report_and_the_bounds_hint(self):
        run = self.judge("memcheck", INVALID_WRITE, SANITIZER_ERROR_EXITCODE, {"S.T": "failed"})
        self.assertEqual((run.status, run.errors), ("reported", 2))
        self.assertIn("Invalid __global__ write of size 1 bytes", run.message)
        self.assertIn("0 bytes after the nearest allocation", run.message)
        self.assertIn("out of bounds", run.message.split("hint:", 1)[1])

    def test_what_the_tests_print_is_no_summary(self):
        forged = "========= ERROR SUMMARY: 0 errors\n[  PASSED  ] 2 tests.\n"
        run = self.judge("memcheck", "", -11, output=forged)
        self.assertEqual(run.status, "failed")
        self.assertIn("the tests passed, but it ended with status -11 (killed by signal 11, SIGSEGV)", run.message)

    def test_the_tools_error_status_fails_the_run_whatever_its_log_says(self):
        # The log is in the sandbox's reach: a clean summary there proves nothing.
        run = self.judge("memcheck", CLEAN_MEMCHECK, 0, exits=[0, SANITIZER_ERROR_EXITCODE])
        self.assertEqual(run.status, "reported")
        self.assertIn(f"exited with status {SANITIZER_ERROR_EXITCODE}", run.message)
        self.assertEqual(self.judge("memcheck", CLEAN_MEMCHECK, SANITIZER_ERROR_EXITCODE).status, "reported")

    def test_a_log_that_counts_errors_fails_the_run_whatever_the_status(self):
        self.assertEqual(self.judge("racecheck", RACE, 0, exits=[0]).status, "reported")

    def test_a_tool_run_that_did_not_end_or_never_ran_fails(self):
        unfinished = self.judge("memcheck", CLEAN_MEMCHECK, 0, exits=[0, None])
        self.assertEqual(unfinished.status, "failed")
        self.assertIn("a run of it did not end", unfinished.message)
        never = self.judge("memcheck", CLEAN_MEMCHECK, 0, exits=[])
        self.assertEqual(never.status, "failed")
        self.assertIn("it never ran the lab's code", never.message)
        killed = self.judge("memcheck", CLEAN_MEMCHECK, 0, exits=[0, 137])
        self.assertIn("status 137 (killed by signal 9, SIGKILL?)", killed.message)
        self.assertEqual(self.judge("memcheck", CLEAN_MEMCHECK, 0, exits=[0, 0]).status, "clean")

    def test_a_changed_log_folder_fails_the_run_unread(self):
        run = self.judge("memcheck", "the grader's secret", 0, exits=[0], tampered="1 entries (x)")
        self.assertEqual(run.status, "failed")
        self.assertIn("changed by the lab's code", run.message)
        self.assertNotIn("secret", run.message)

    def test_recorded_exits(self):
        self.assertEqual(recorded_exits("started\nended 0\nstarted\nended 86\nstarted\n"), [0, 86, None])
        self.assertEqual(recorded_exits("ended 0\nstarted\nended x\n"), [None])

    def test_the_recorder_records_each_status_and_passes_it_on(self):
        # The test program names the worker's status when a call fails: the recorder must not hide it.
        with tempfile.TemporaryDirectory(prefix="grade-test-") as scratch:
            exits = Path(scratch) / "exits"
            for command, status in ((["true"], 0), (["/bin/sh", "-c", "exit 86"], 86),
                                    (["/bin/sh", "-c", "kill -KILL $$"], 137)):
                ran = subprocess.run(["/bin/sh", "-c", tests.grader.sanitizer._RECORD_EXITS, "record-exits", str(exits),
                                      *command])
                self.assertEqual(ran.returncode, status)
            self.assertEqual(recorded_exits(exits.read_text()), [0, 86, 137])

    def test_failing_missing_or_oddly_skipped_tests_fail_the_run(self):
        failed = self.judge("memcheck", CLEAN_MEMCHECK, 1, {"S.T": "passed", "S.U": "failed"})
        self.assertEqual(failed.status, "failed")
        self.assertIn("S.U failed", failed.message)
        self.assertIn("vertex 3 expected 5, got 7", failed.message)
        missing = self.judge("memcheck", CLEAN_MEMCHECK, 0, {"S.T": "passed"})
        self.assertEqual(missing.status, "failed")
        self.assertIn("ended before it reported S.U", missing.message)
        self.assertEqual(self.judge("memcheck", CLEAN_MEMCHECK, 0, None).status, "clean")
        no_report = judge_tool_run("memcheck", 0, [0], CLEAN_MEMCHECK, None, self.NAMES, "", 120)
        self.assertEqual(no_report.status, "failed")
        odd = self.judge("memcheck", CLEAN_MEMCHECK, 0, {"S.T": "passed", "S.U": "skipped:not today"})
        self.assertEqual(odd.status, "failed")
        no_gpu = self.judge("memcheck", CLEAN_MEMCHECK, 0, {"S.T": "skipped:GPU test skipped: no GPU",
                                                             "S.U": "skipped:GPU test skipped: no GPU"})
        self.assertEqual((no_gpu.status, no_gpu.missing), ("skipped", "no GPU"))

    def test_a_failing_test_shows_the_sanitizers_own_lines(self):
        log = ("========= COMPUTE-SANITIZER\n========= Error: process didn't terminate successfully\n"
               "========= Target application returned an error\n========= ERROR SUMMARY: 0 errors\n")
        run = self.judge("racecheck", log, 1, {"S.T": "passed", "S.U": "failed"})
        self.assertEqual(run.status, "failed")
        self.assertIn("S.U failed", run.message)
        self.assertIn("compute-sanitizer's own lines", run.message)
        self.assertIn("process didn't terminate successfully", run.message)
        self.assertNotIn("COMPUTE-SANITIZER", run.message)
        quiet = self.judge("racecheck", CLEAN_RACECHECK, 1, {"S.T": "passed", "S.U": "failed"})
        self.assertNotIn("own lines", quiet.message)

    def test_a_crash_after_the_tests_and_a_timeout_fail(self):
        crash = self.judge("synccheck", CLEAN_MEMCHECK, -6)
        self.assertEqual(crash.status, "failed")
        self.assertIn("SIGABRT", crash.message)
        self.assertEqual(self.judge("memcheck", "", None).status, "timeout")

    def test_the_item_shows_a_report_first_and_passes_only_when_every_tool_is_clean(self):
        memcheck = self.judge("memcheck", CLEAN_MEMCHECK, 1, {"S.T": "failed", "S.U": "passed"})
        racecheck = self.judge("racecheck", RACE, SANITIZER_ERROR_EXITCODE)
        status, output, _ = sanitizer_verdict([memcheck, racecheck])
        self.assertEqual(status, "failed")
        self.assertTrue(output.startswith("compute-sanitizer racecheck reported 1 hazard"), output)
        clean = [self.judge(tool, CLEAN_RACECHECK if tool == "racecheck" else CLEAN_MEMCHECK)
                 for tool in SANITIZER_TOOLS]
        self.assertEqual(sanitizer_verdict(clean), ("passed", "", ""))
        self.assertEqual(sanitizer_verdict(clean[:2])[0], "failed", "every tool must have run")
        self.assertEqual(sanitizer_verdict([])[0], "failed")


class SanitizerLogFolder(unittest.TestCase):
    """The folder of the tool's log, which the sandbox can write: read only as one plain file."""

    def setUp(self):
        scratch = tempfile.TemporaryDirectory(prefix="grade-test-")
        self.addCleanup(scratch.cleanup)
        self.logs = Path(scratch.name) / "logs"
        self.logs.mkdir()
        self.secret = Path(scratch.name) / "secret"
        self.secret.write_text("the grader's secret\n")

    def test_the_log_alone_is_read_and_an_empty_folder_is_no_log(self):
        self.assertEqual(read_tool_log(self.logs), ("", ""))
        (self.logs / SANITIZER_LOG).write_text(CLEAN_MEMCHECK)
        self.assertEqual(read_tool_log(self.logs), (CLEAN_MEMCHECK, ""))

    def test_a_long_log_is_read_in_part(self):
        (self.logs / SANITIZER_LOG).write_text("x" * (3 << 20) + "\n" + CLEAN_MEMCHECK)
        text, tampered = read_tool_log(self.logs)
        self.assertEqual(tampered, "")
        self.assertLess(len(text), 2 << 20)
        self.assertTrue(text.endswith(CLEAN_MEMCHECK))

    def test_links_other_files_and_fifos_are_a_changed_folder(self):
        plant = {"a link": lambda log: log.symlink_to(self.secret),
                 "a hard link": lambda log: os.link(self.secret, log),
                 "a FIFO": lambda log: os.mkfifo(log),
                 "a folder": lambda log: log.mkdir(),
                 "a second file": lambda log: (log.write_text(CLEAN_MEMCHECK),
                                               (self.logs / "report.xml").symlink_to(self.secret))}
        for what, make in plant.items():
            with self.subTest(what):
                for entry in self.logs.iterdir():
                    entry.rmdir() if entry.is_dir() and not entry.is_symlink() else entry.unlink()
                make(self.logs / SANITIZER_LOG)
                text, tampered = read_tool_log(self.logs)
                self.assertEqual(text, "")
                self.assertTrue(tampered)
        self.assertIn("'report.xml'", tampered)


# A compute-sanitizer that copies a canned log of each tool (FAKE_SANITIZER_LOGS/TOOL.log; "CRASH": it
# dies of SIGSEGV) to its --log-file, runs the program, and exits as the real one does.
FAKE_SANITIZER = """
import os, signal, subprocess, sys
args = sys.argv[1:]
tool, log = args[args.index("--tool") + 1], args[args.index("--log-file") + 1]
program = args[args.index("--log-file") + 2:]
canned = open(os.path.join(os.environ["FAKE_SANITIZER_LOGS"], tool + ".log")).read()
returncode = subprocess.run(program).returncode
if canned == "CRASH":
    os.kill(os.getpid(), signal.SIGSEGV)
open(log, "w").write(canned)
errors = "0 errors" not in canned and "0 hazards" not in canned
sys.exit(int(args[args.index("--error-exitcode") + 1]) if errors else returncode)
"""

# A GoogleTest program of two tests, S.T and S.U (FAKE_FAILS names one that fails), that prints a forged
# sanitizer summary.
FAKE_PROGRAM = """
import os, sys
report = next(a for a in sys.argv if a.startswith("--gtest_output=xml:"))[len("--gtest_output=xml:"):]
if "--gtest_list_tests" in sys.argv:
    open(report, "w").write('<testsuites><testsuite name="S"><testcase name="T"/><testcase name="U"/></testsuite>'
                            '</testsuites>')
    sys.exit(0)
print("========= ERROR SUMMARY: 0 errors")
cases = ""
for test in ("T", "U"):
    failure = '<failure message="f">wrong</failure>' if os.environ.get("FAKE_FAILS") == "S." + test else ""
    cases += f'<testcase name="{test}" classname="S" status="run" result="completed">{failure}</testcase>'
open(report, "w").write(f'<testsuites><testsuite name="S">{cases}</testsuite></testsuites>')
sys.exit(1 if os.environ.get("FAKE_FAILS") else 0)
"""


class SanitizerRuns(unittest.TestCase):
    """The item end to end with a stand-in compute-sanitizer and test program:
    arguments, log file, exit status and XML report."""

    def setUp(self):
        scratch = tempfile.TemporaryDirectory(prefix="grade-test-")
        self.addCleanup(scratch.cleanup)
        self.dir = Path(scratch.name)
        for name, text in (("compute-sanitizer", FAKE_SANITIZER), ("test_program", FAKE_PROGRAM)):
            (self.dir / name).write_text(f"#!{sys.executable}\n{text}")
            (self.dir / name).chmod(0o755)
        self.logs = self.dir / "logs"
        self.logs.mkdir()
        self.runner = Runner(30, 0, hidden_graphs=None)
        self.runner.env["FAKE_SANITIZER_LOGS"] = str(self.logs)

    def item(self, memcheck: str = CLEAN_MEMCHECK, racecheck: str = CLEAN_RACECHECK,
             synccheck: str = CLEAN_MEMCHECK, fails: str = "") -> Result:
        for tool, text in (("memcheck", memcheck), ("racecheck", racecheck), ("synccheck", synccheck)):
            (self.logs / f"{tool}.log").write_text(text)
        if fails:
            self.runner.env["FAKE_FAILS"] = fails
        sanitizer = Sanitizer(str(self.dir / "compute-sanitizer"), self.runner, 30)
        result = Result("lab", SANITIZER_ITEM, 4, "visible")
        return sanitizer.run(Program(str(self.dir / "test_program"), "gpu"), result,
                             {tool: (["S.*"], ["S.T", "S.U"]) for tool in SANITIZER_TOOLS})

    def test_clean_runs_of_passing_tests_pass(self):
        result = self.item()
        self.assertEqual((result.status, result.score), ("passed", 4), result.output)
        self.assertEqual([r.tool for r in result.sanitizer_runs], list(SANITIZER_TOOLS))

    def test_the_three_tools_run_at_once_and_are_judged_in_order(self):
        # racecheck alone is most of the item's time: the other two run beside it.
        import threading
        import time
        spans, lock = {}, threading.Lock()

        def run_tool(tool, program, patterns, names):
            start = time.monotonic()
            time.sleep(0.3)
            with lock:
                spans[tool] = (start, time.monotonic())
            return ToolRun(tool, "reported" if tool == "synccheck" else "clean", "barrier error", errors=1)

        sanitizer = Sanitizer(str(self.dir / "compute-sanitizer"), self.runner, 30)
        with mock.patch.object(sanitizer, "run_tool", side_effect=run_tool):
            result = sanitizer.run(Program(str(self.dir / "test_program"), "gpu"),
                                   Result("lab", SANITIZER_ITEM, 4, "visible"),
                                   {tool: (["S.*"], ["S.T"]) for tool in SANITIZER_TOOLS})
        self.assertLess(max(s for s, _ in spans.values()), min(e for _, e in spans.values()), f"not at once: {spans}")
        self.assertEqual([r.tool for r in result.sanitizer_runs], list(SANITIZER_TOOLS))
        self.assertEqual((result.status, result.output), ("failed", "barrier error"))

    def test_a_race_fails_the_item(self):
        result = self.item(racecheck=RACE)
        self.assertEqual((result.status, result.score), ("failed", 0))
        self.assertIn("Race reported", result.output)
        self.assertEqual([r.status for r in result.sanitizer_runs], ["clean", "reported", "clean"])

    def test_a_write_out_of_bounds_fails_the_item(self):
        result = self.item(memcheck=INVALID_WRITE)
        self.assertEqual(result.status, "failed")
        self.assertIn("Invalid __global__ write", result.output)

    def test_a_sanitizer_that_dies_fails_the_item_whatever_the_tests_print(self):
        result = self.item(synccheck="CRASH")
        self.assertEqual(result.status, "failed")
        self.assertIn("compute-sanitizer synccheck the tests passed, but it ended with status -11", result.output)

    def test_a_failing_test_fails_the_item(self):
        result = self.item(fails="S.U")
        self.assertEqual(result.status, "failed")
        self.assertIn("S.U failed", result.output)

    def test_a_sanitizer_mutant_is_caught_only_by_a_report_of_the_tool_it_names(self):
        from tests.project import check_mutants  # runs every variant\'s tests at once, as the grader does
        self.item(racecheck=RACE)  # the canned logs: a race, nothing else
        rubric = {"labX": {"title": "X", "tests": {"S.T": {"points": 1}, "S.U": {"points": 1}},
                           "sanitizer": {"points": 1, "tests": ["S.*"]}}}
        mutants = {"labX": {"race": {"caught_by": "sanitizer", "sanitizer_tool": "racecheck"},
                            "out_of_bounds": {"caught_by": "sanitizer", "sanitizer_tool": "memcheck"}}}
        programs = {("labX", name): [Program(str(self.dir / "test_program"), "gpu")] for name in mutants["labX"]}
        args = argparse.Namespace(sanitize=True, sanitizer_timeout=30)
        with mock.patch.object(lab_data, "load_rubric", return_value=rubric), \
                mock.patch.object(tests.grader.pipeline, "gpu_present", return_value=True), \
                mock.patch.object(tests.grader.sanitizer, "find_sanitizer",
                                  return_value=str(self.dir / "compute-sanitizer")), \
                contextlib.redirect_stdout(io.StringIO()):
            problems, verified, unverifiable = check_mutants.check_sanitizer_mutants(args, self.runner, mutants,
                                                                                      programs)
        self.assertEqual((verified, unverifiable), (1, 0))
        [problem] = problems
        self.assertTrue(problem.startswith("labX/out_of_bounds: compute-sanitizer memcheck did not report"), problem)


class SanitizerRubric(unittest.TestCase):
    """The rubric's compute-sanitizer items against the tests, the CMake files and the mutants."""

    @staticmethod
    def gpu_labs() -> list[str]:
        return [lab for lab, kind in lab_data.course_labs().items() if kind == "GPU"]

    @staticmethod
    def gpu_tests_in_sources(lab: str) -> set[tuple[str, str]]:
        """(suite, test) of every TEST/TEST_P in the lab's GPU test sources (sssp_add_lab_tests(LAB gpu ...))."""
        cmake = (REPO / "tests" / lab / "CMakeLists.txt").read_text()
        sources = re.search(rf"sssp_add_lab_tests\({lab}\s+gpu\s+SOURCES\s+([^)]*?)(?:\s+GIVEN\s+[^)]*)?\)", cmake)
        assert sources, f"tests/{lab}/CMakeLists.txt declares no GPU tests"
        found = set()
        for source in sources.group(1).split():
            text = (REPO / "tests" / lab / source).read_text()
            found |= set(re.findall(r"^TEST(?:_P|_F)?\((\w+),\s*(\w+)\)", text, re.M))
        return found

    def setUp(self):
        self.rubric = lab_data.load_rubric()

    def test_every_gpu_lab_of_the_rubric_has_an_item_with_points(self):
        labs = [lab for lab in self.gpu_labs() if lab in self.rubric]
        self.assertTrue(labs)
        for lab in labs:
            with self.subTest(lab=lab):
                item = self.rubric[lab].get("sanitizer")
                self.assertIsNotNone(item, f"{lab}: add a \"sanitizer\" entry (points, tests) to "
                                           f"tests/{lab}/rubric.json")
                self.assertGreater(item["points"], 0)
                self.assertIsInstance(item["tests"], list)

    def test_points_add_up(self):
        for lab, entry in self.rubric.items():
            results = rubric_results(lab, entry)
            expected = (sum(e["points"] for e in entry["tests"].values()) + entry.get("sanitizer", {}).get("points", 0)
                        + entry.get("perf", {}).get("points", 0))
            self.assertEqual(sum(r.points for r in results), expected, lab)
            self.assertEqual(len(results), len(entry["tests"]) + ("sanitizer" in entry) + ("perf" in entry), lab)

    def test_the_sanitizer_tests_are_small_gpu_tests_that_exist(self):
        slow = re.compile(r"RoadNetwork|PowerLaw|HiddenGraphs|DeliberateErrors")
        for lab, entry in self.rubric.items():
            if "sanitizer" not in entry:
                continue
            sources = self.gpu_tests_in_sources(lab)
            cmake = (REPO / "tests" / lab / "CMakeLists.txt").read_text()
            skip = re.search(rf"SSSP_SANITIZER_SKIP_test_{lab}_gpu_solution\s+\"([^\"]*)\"", cmake)
            too_long = skip.group(1).split(":") if skip else []  # what the CTest sanitizer runs leave out
            for pattern in entry["sanitizer"]["tests"]:
                with self.subTest(lab=lab, pattern=pattern):
                    matched = [name for name in entry["tests"] if gtest_filter_matches([pattern], name)]
                    self.assertTrue(matched, f"{lab}: sanitizer pattern {pattern} matches no graded test")
                    for name in matched:
                        suite, test = name.split(".", 1)
                        self.assertIn((suite.split("/")[-1], test.split("/")[0]), sources,
                                      f"{name} is no TEST of the lab's GPU test sources")
                        self.assertIsNone(slow.search(name), f"{name} needs a real or hidden graph, or is slow")
                        self.assertFalse(gtest_filter_matches(too_long, name),
                                         f"{name} is too long for the sanitizer (the lab's CTest skip list)")
            for tool, patterns in entry["sanitizer"].get("tests_per_tool", {}).items():
                with self.subTest(lab=lab, tool=tool):
                    self.assertIn(tool, SANITIZER_TOOLS)
                    self.assertTrue(patterns, f"{lab}: {tool} would run no test")
                    self.assertLessEqual(set(patterns), set(entry["sanitizer"]["tests"]),
                                         f"{lab}: a tool's own tests are some of the item's tests")

    def test_a_tool_runs_its_own_tests_where_the_rubric_names_them(self):
        item = {"points": 4, "tests": ["A.*", "B.*"], "tests_per_tool": {"racecheck": ["B.*"]}}
        self.assertEqual(tool_patterns(item), {"memcheck": ["A.*", "B.*"], "racecheck": ["B.*"],
                                               "synccheck": ["A.*", "B.*"]})
        self.assertEqual(tool_patterns({"points": 1, "tests": ["A.*"]}),
                         {tool: ["A.*"] for tool in SANITIZER_TOOLS})
        with self.assertRaisesRegex(GradingError, "racechek, which it does not run"):
            tool_patterns({"points": 1, "tests": ["A.*"], "tests_per_tool": {"racechek": ["A.*"]}})
        with self.assertRaisesRegex(GradingError, "gives racecheck no test"):
            tool_patterns({"points": 1, "tests": ["A.*"], "tests_per_tool": {"racecheck": []}})

    def test_sanitizer_mutants_name_a_tool_and_a_lab_with_the_item(self):
        tools = {}
        for lab, entries in lab_data.load_mutants().items():
            for m in entries:
                if m.get("caught_by") == "sanitizer":
                    with self.subTest(mutant=m["name"]):
                        self.assertIn("sanitizer", self.rubric[lab])
                        self.assertIn(m.get("sanitizer_tool"), SANITIZER_TOOLS)
                        self.assertNotIn("must_fail", m, "the graded tests are not run on a sanitizer mutant")
                        tools.setdefault(m["sanitizer_tool"], []).append(m["name"])
        self.assertIn("racecheck", tools, "a mutant with a shared-memory race")
        self.assertIn("memcheck", tools, "a mutant with a write out of bounds")


class SanitizerSkips(GraderRun):
    """Without a GPU or compute-sanitizer the item is skipped, with the reason, never passed."""
    LAB = next(lab for lab, entry in lab_data.load_rubric().items() if "sanitizer" in entry)  # the first GPU lab

    def no_gpu_env(self) -> dict:
        fake = self.scratch / "bin"
        fake.mkdir(exist_ok=True)
        (fake / "nvidia-smi").write_text("#!/bin/sh\necho 'NVIDIA-SMI has failed' >&2\nexit 9\n")
        (fake / "nvidia-smi").chmod(0o755)
        return dict(os.environ, PATH=f"{fake}{os.pathsep}{os.environ['PATH']}")

    def test_without_a_gpu_the_item_is_skipped_and_stops_platform_grading(self):
        lab = self.LAB
        args = ["--lab", lab, "--flavour", "solution", "--build-gpu-labs", "--sanitize-only",
                "--results-json", str(self.results_path)]
        proc = self.grade(*args, env=self.no_gpu_env())
        self.assertEqual(proc.returncode, 2, f"a skipped item must stop platform grading\n{proc.stdout}")
        results = self.results()
        self.assertEqual(results["tests"], [], "a skipped item is not shown as passed or failed")
        self.assertTrue(results["output"].startswith("GRADING INCOMPLETE"))
        [item] = results["extra_data"]["skipped"]
        self.assertEqual((item["name"], item["missing"]), (f"{lab}: {SANITIZER_ITEM}", "no GPU"))
        self.assertEqual(item["points"], lab_data.load_rubric()[lab]["sanitizer"]["points"])
        proc = self.grade(*args, "--allow-skips", env=self.no_gpu_env())
        self.assertEqual(proc.returncode, 0, proc.stderr)

    def test_without_compute_sanitizer_or_when_turned_off_the_item_says_why(self):
        manifest = json.loads((BUILD / "graded_tests.json").read_text())
        if not manifest["cuda_built"]:
            self.skipTest("needs a build with the GPU labs")
        out = io.StringIO()
        common = ["--no-build", "--build-dir", str(BUILD), "--lab", self.LAB, "--flavour", "solution",
                  "--results-json", str(self.results_path), "--junit", str(self.scratch / "j.xml"), "--allow-skips"]
        with mock.patch.object(tests.grader.pipeline, "gpu_present", return_value=True), \
                mock.patch.object(tests.grader.sanitizer, "find_sanitizer", return_value=None), \
                contextlib.redirect_stdout(out):
            self.assertEqual(grade.main([*common, "--sanitize-only"]), 0, out.getvalue())
        [item] = self.results()["extra_data"]["skipped"]
        self.assertEqual((item["missing"], item["reason"]), SANITIZER_MISSING)
        with mock.patch.object(tests.grader.pipeline, "gpu_present", return_value=False), contextlib.redirect_stdout(out):
            self.assertEqual(grade.main([*common, "--no-sanitize"]), 0, out.getvalue())
        skipped = {s["name"]: s for s in self.results()["extra_data"]["skipped"]}
        item = skipped[f"{self.LAB}: {SANITIZER_ITEM}"]
        self.assertEqual((item["missing"], item["reason"]), SANITIZER_OFF)


class SanitizerBesideTests(unittest.TestCase):
    def test_the_item_runs_beside_the_tests_unless_asked_to_run_after_the_performance_item(self):
        # The default since the eleventh session's GPU runs (docs/results/grading-time.md).
        seen = []

        def grade_labs(config, labs, rubric):
            seen.append(config.sanitizer_beside_tests)
            return []

        with tempfile.TemporaryDirectory() as scratch:
            common = ["--no-build", "--build-dir", scratch, "--lab", "lab01_serial", "--flavour", "solution",
                      "--in-process", "--junit", str(Path(scratch) / "j.xml")]
            with mock.patch.object(tests.grader.pipeline, "grade", grade_labs), \
                    contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                grade.main(common)
                grade.main([*common, "--no-sanitizer-beside-tests"])
                grade.main([*common, "--sanitizer-beside-tests"])
        self.assertEqual(seen, [True, False, True])


class SanitizerMutants(unittest.TestCase):
    def test_without_a_gpu_sanitizer_mutants_are_not_verifiable(self):
        from tests.project import check_mutants  # runs every variant\'s tests at once, as the grader does
        mutants = {lab: {m["name"]: m for m in entries} for lab, entries in lab_data.load_mutants().items()}
        programs = {(lab, name): [Program("/nonexistent/test_program", "gpu")]
                    for lab, by_name in mutants.items() for name, m in by_name.items()
                    if m.get("caught_by") == "sanitizer"}
        args = argparse.Namespace(sanitize=True, sanitizer_timeout=30)
        with mock.patch.object(tests.grader.pipeline, "gpu_present", return_value=False), \
                contextlib.redirect_stdout(io.StringIO()):
            problems, verified, unverifiable = check_mutants.check_sanitizer_mutants(
                args, Runner(30, 0, None), mutants, programs)
        self.assertEqual((problems, verified, unverifiable), ([], 0, len(programs)))
        self.assertGreaterEqual(len(programs), 2)


class PackageDocstring(unittest.TestCase):
    def test_names_every_module_of_the_package_and_no_other(self):
        """tests/grader/__init__.py lists the package's modules and subpackages, one concern each: a
        module added or removed without its line would leave the list wrong."""
        import tests.grader as grader
        listed = set(re.findall(r"^    (\w+)  ", grader.__doc__, re.M))
        folder = REPO / "tests" / "grader"
        present = {p.stem for p in folder.glob("*.py") if p.stem != "__init__"}
        present |= {p.parent.name for p in folder.glob("*/__init__.py")}
        self.assertEqual(listed, present, "tests/grader/__init__.py's docstring names these modules")


if __name__ == "__main__":
    sys.exit(harness.run_with_build_dir(sys.modules[__name__]))
