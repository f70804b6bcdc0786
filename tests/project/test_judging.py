#!/usr/bin/env python3
"""How the grader runs and reports hidden-graph tests (tests/grader/judging.py,
issue 44, item 4), without building anything: such a test runs after every
other test, with nothing beside it (a test beside it could read what its
worker changes in host-wide figures, /proc/meminfo, and print it), and its
report is a fixed summary, whatever the student's code printed or threw.
And the README states the limits the sandbox and the compile set.

    python3 -m tests.project.test_judging
"""
import json
import re
import sys
import tempfile
import threading
import time
import unittest
from unittest import mock
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
from tests.grader import sandbox  # how a worker is started and confined
from tests.grader import build, judging
from tests.grader.model import GradingError, Program, Result


class RecordingRunner(judging.Runner):
    """A Runner whose tests only take a little time and record when they ran,
    each in a process of its own (a test's span is its process's)."""

    def __init__(self):
        super().__init__(timeout=5.0, memory_mib=0, hidden_graphs=None, tests_per_process=1)
        self.spans: dict[str, tuple[float, float]] = {}
        self.lock = threading.Lock()

    def run(self, program: Program, result: Result) -> Result:
        start = time.monotonic()
        time.sleep(0.05)
        with self.lock:
            self.spans[result.name] = (start, time.monotonic())
        return result


class HiddenGraphTests(unittest.TestCase):
    def test_a_hidden_graph_test_runs_alone_after_the_others(self):
        cpu, gpu = Program("cpu-tests", "cpu"), Program("gpu-tests", "gpu")
        names = [(cpu, "Lab01/Sssp.HiddenGraphs/Dijkstra"), (cpu, "Bfs.HiddenGraphs"), (gpu, "Gpu.HiddenGraphs")]
        names += [(cpu, f"Visible.Cpu{i}") for i in range(8)] + [(gpu, f"Visible.Gpu{i}") for i in range(3)]
        runner = RecordingRunner()
        runner.run_all([(program, Result("lab", name, 1.0, "visible")) for program, name in names])
        self.assertEqual(len(runner.spans), len(names), "every test ran")
        hidden = {name for _, name in names if ".HiddenGraphs" in name}
        for name, (start, end) in runner.spans.items():
            if name not in hidden:
                continue
            beside = [other for other, (s, e) in runner.spans.items() if other != name and s < end and e > start]
            self.assertEqual(beside, [], f"{name} ran beside other tests")
            later = [other for other, (s, _) in runner.spans.items() if other not in hidden and s >= end]
            self.assertEqual(later, [], f"visible tests ran after {name}")

    def test_gpu_tests_run_several_at_once_but_a_test_that_times_the_gpu_runs_alone(self):
        from tests.grader.limits import GPU_TEST_JOBS
        from tests.grader.scoring import gpu_alone
        from tests.grader.model import GradingError
        gpu = Program("gpu-tests", "gpu")
        names = [f"Visible.Gpu{i}" for i in range(8)] + ["Streams.CopiesOverlap"]
        runner = RecordingRunner()
        entry = {"tests": {name: {"points": 1} for name in names}, "gpu_alone": ["Streams.CopiesOverlap"]}
        runner.run_all([(gpu, Result("lab", name, 1.0, "visible")) for name in names], gpu_workers=GPU_TEST_JOBS,
                       alone=gpu_alone("lab", entry))
        spans = runner.spans
        start, end = spans["Streams.CopiesOverlap"]
        self.assertEqual([n for n, (s, e) in spans.items() if n != "Streams.CopiesOverlap" and s < end and e > start],
                         [], "a gpu_alone test ran beside others")
        most = max(sum(1 for s, e in spans.values() if s <= t < e) for t, _ in spans.values())
        self.assertEqual(most, GPU_TEST_JOBS, "the other GPU tests run GPU_TEST_JOBS at once")
        with self.assertRaisesRegex(GradingError, "gpu_alone .* names Streams.CopiesOverlaps"):
            gpu_alone("lab", {"tests": entry["tests"], "gpu_alone": ["Streams.CopiesOverlaps"]})

    def test_the_gpu_tests_of_the_suites_take_turns(self):
        from tests.grader.judging import spread_by_suite
        gpu = Program("gpu-tests", "gpu")
        names = ["A.1", "A.2", "A.3", "B.1", "C.1", "C.2"]
        spread = spread_by_suite([(gpu, Result("lab", name, 1.0, "visible")) for name in names])
        self.assertEqual([r.name for _, r in spread], ["A.1", "B.1", "C.1", "A.2", "C.2", "A.3"])
        runner = RecordingRunner()
        runner.run_all([(gpu, Result("lab", name, 1.0, "visible")) for name in names], gpu_workers=1)
        self.assertEqual(sorted(runner.spans, key=lambda n: runner.spans[n][0]),
                         ["A.1", "B.1", "C.1", "A.2", "C.2", "A.3"], "the GPU tests ran in turns")

    def test_a_lab_sets_how_many_gpu_tests_run_at_once(self):
        # A lab whose tests sync with the host in a loop loses more to the GPU's
        # time slicing between processes than it gains from running beside
        # others: its rubric's "gpu_jobs" says how many run at once.
        from tests.grader.limits import GPU_TEST_JOBS
        from tests.grader.model import GradingError
        from tests.grader.scoring import gpu_jobs_of
        self.assertEqual(gpu_jobs_of("lab", {"tests": {}}), GPU_TEST_JOBS)
        self.assertEqual(gpu_jobs_of("lab", {"tests": {}, "gpu_jobs": 2}), 2)
        for bad in (0, -1, 1.5, "2", True):
            with self.assertRaisesRegex(GradingError, "gpu_jobs in tests/lab/rubric.json must be a whole number"):
                gpu_jobs_of("lab", {"tests": {}, "gpu_jobs": bad})

    def test_the_sanitizer_item_can_run_beside_the_gpu_tests_that_share_the_gpu_only(self):
        # --sanitizer-beside-tests: the item overlaps the GPU tests run several
        # at a time, never a test that times the GPU or a hidden-graph test,
        # and the grading waits for it (and raises what it raised).
        gpu, cpu = Program("gpu-tests", "gpu"), Program("cpu-tests", "cpu")
        jobs = [(gpu, f"Visible.Gpu{i}") for i in range(8)] + [(gpu, "Streams.CopiesOverlap"),
                                                               (gpu, "Gpu.HiddenGraphs"), (cpu, "Visible.Cpu0")]
        runner = RecordingRunner()

        def sanitizer_item():
            start = time.monotonic()
            time.sleep(0.12)
            with runner.lock:
                runner.spans["sanitizer item"] = (start, time.monotonic())

        runner.run_all([(program, Result("lab", name, 1.0, "visible")) for program, name in jobs], gpu_workers=4,
                       alone=frozenset({"Streams.CopiesOverlap"}), beside=sanitizer_item)
        start, end = runner.spans.pop("sanitizer item")
        overlapping = {n for n, (s, e) in runner.spans.items() if s < end and e > start}
        self.assertTrue(overlapping, "it ran beside the GPU tests")
        self.assertLessEqual(overlapping, {f"Visible.Gpu{i}" for i in range(8)},
                             "only beside the GPU tests that share the GPU")
        most = max(sum(1 for s, e in runner.spans.values() if s <= t < e) for t, _ in runner.spans.values())
        self.assertEqual(most, 4, "the GPU tests still run four at a time beside it")

        def broken_item():
            raise GradingError("the rubric names no test")

        with self.assertRaisesRegex(GradingError, "names no test"):
            RecordingRunner().run_all([(gpu, Result("lab", "Visible.Gpu0", 1.0, "visible"))], beside=broken_item)

    def test_which_tests_are_hidden_graph_tests(self):
        for name in ("Lab01/Sssp.HiddenGraphs/Dijkstra", "Bfs.HiddenGraphs", "NearFar.HiddenGraphs"):
            self.assertTrue(judging.is_hidden_graph_test(name), name)
        for name in ("Bfs.Hidden", "HiddenGraphs.Bfs", "Bfs.HiddenGraphsToo"):
            self.assertFalse(judging.is_hidden_graph_test(name), name)

    def test_the_summary_quotes_nothing_of_the_run(self):
        for status in ("failed", "timeout"):
            summary = judging.hidden_summary(status, 60.0)
            self.assertIn("hidden graph", summary)
            self.assertLess(len(summary), 600, "a short fixed summary")

    def test_a_step_is_capped_and_lines_end_only_at_newlines(self):
        output = f"{judging.STEP}{'x' * 20000}\n[ worker   ] a\r{judging.STEP}forged\n"
        step = judging.last_step(output)
        self.assertLessEqual(len(step), judging.STEP_LIMIT + 20, "a step is capped")
        self.assertTrue(step.startswith("xxx"), "a worker's line with a carriage return is not a step")


# A stand-in for a GoogleTest program: runs the tests --gtest_filter names
# (its patterns are whole names here), each as BEHAVIOUR (a JSON file beside
# it) says, prints GoogleTest's RUN line for each, writes the XML report at
# the end as GoogleTest does, exits 1 if one failed, and logs each process's
# filter to RUNS.
FAKE_GTEST = r"""#!{python}
import json, os, sys, time
here = os.path.dirname(os.path.abspath(__file__))
behaviour = json.load(open(os.path.join(here, "behaviour.json")))
names = next(a for a in sys.argv if a.startswith("--gtest_filter="))[len("--gtest_filter="):].split(":")
report = next(a for a in sys.argv if a.startswith("--gtest_output=xml:"))[len("--gtest_output=xml:"):]
with open(os.path.join(here, "runs.log"), "a") as runs:
    runs.write(":".join(names) + "\n")
alone = len(names) == 1
cases, failed = [], False
for name in names:
    print("[ RUN      ] " + name, flush=True)
    what = behaviour.get(name, "pass")
    if what == "crash" and not alone:
        os.kill(os.getpid(), 9)
    if what == "hang" and not alone:
        for _ in range(20):  # the worker's lines come marked: they start no test
            time.sleep(1.5)
            print("[ worker   ] [ RUN      ] forged", flush=True)
    if what == "hang always":
        time.sleep(60)
    if what.startswith("sleep"):
        time.sleep(float(what.split()[1]))
        what = "pass"
    suite, test = name.split(".", 1)
    body = ""
    if what == "fail" or (what in ("crash", "hang") and alone) or (what == "fail in a batch" and not alone):
        failed = True
        body = '<failure message="m">' + ("failed alone" if alone else "failed in a batch") + "</failure>"
    elif what == "skip":
        body = '<skipped message="t.cpp:1&#x0A;GPU test skipped: no NVIDIA GPU or driver found"/>'
    elif what == "own skip":
        body = '<skipped message="t.cpp:1&#x0A;not today"/>'
    result = "skipped" if "skip" in what else "completed"
    cases.append('<testcase name="%s" classname="%s" status="run" result="%s" time="0.25">%s</testcase>'
                 % (test, suite, result, body))
    print("[       OK ] " + name, flush=True)
open(report, "w").write("<testsuites><testsuite>" + "".join(cases) + "</testsuite></testsuites>")
sys.exit(behaviour.get("exit", 1 if failed else 0))
"""


class Batches(unittest.TestCase):
    """A few tests to a process (Runner.run_batch): a batch decides the tests
    that passed or skipped for a course reason in a process that reported
    them all and ended as GoogleTest ends, and a test that ended the process
    while it ran first; every other test runs again, alone or (never
    started) in a batch (alone after a timeout), and a test's own run
    decides it."""

    def fake(self, behaviour: dict, kind: str = "gpu") -> tuple[Program, Path]:
        """The stand-in program, and its log of processes; a GPU program by
        default, whose batches run one at a time here (gpu_workers=1), so that
        the log's order is the grader's."""
        scratch = tempfile.TemporaryDirectory(prefix="batch-test-")
        self.addCleanup(scratch.cleanup)
        folder = Path(scratch.name)
        program = folder / "fake_gtest"
        program.write_text(FAKE_GTEST.replace("{python}", sys.executable))
        program.chmod(0o755)
        (folder / "behaviour.json").write_text(json.dumps(behaviour))
        return Program(str(program), kind), folder / "runs.log"

    @staticmethod
    def grade(program: Program, names: list[str], timeout: float = 30.0, per_process: int = 4) -> dict[str, Result]:
        runner = judging.Runner(timeout, 0, hidden_graphs=None, tests_per_process=per_process)
        results = [Result("lab", name, 1.0, "visible") for name in names]
        runner.run_all([(program, r) for r in results], gpu_workers=1)
        return {r.name: r for r in results}

    @staticmethod
    def processes(runs: Path) -> list[list[str]]:
        return [line.split(":") for line in runs.read_text().splitlines()]

    def test_tests_are_cut_into_batches_of_one_program_in_their_order(self):
        a, b = Program("a", "gpu"), Program("b", "gpu")
        other_worker = Program("a", "gpu", ("mutant_worker",))  # the same test program against another worker
        jobs = [(a, "A.1"), (b, "B.1"), (a, "A.2"), (other_worker, "A.1"), (a, "A.3"), (b, "B.2"), (a, "A.4")]
        batches = judging.in_batches(jobs, 2)
        self.assertEqual([[(program.worker, name) for program, name in batch] for batch in batches],
                         [[((), "A.1"), ((), "A.2")], [((), "B.1"), ((), "B.2")], [(("mutant_worker",), "A.1")],
                          [((), "A.3"), ((), "A.4")]])
        self.assertEqual(len(judging.in_batches(jobs, 1)), 7)

    def test_a_batch_that_passes_is_one_process(self):
        program, runs = self.fake({})
        names = [f"S.T{i}" for i in range(6)]
        results = self.grade(program, names)
        self.assertEqual({r.status for r in results.values()}, {"passed"})
        self.assertEqual(self.processes(runs), [names[:4], names[4:]], "two processes, four tests and two")
        program, runs = self.fake({}, kind="cpu")
        self.grade(program, names)
        self.assertEqual(sorted(self.processes(runs)), [names[:4], names[4:]], "CPU tests in batches too")
        self.assertEqual(results["S.T0"].seconds, 0.25, "a test's time is its report's")

    def test_a_failure_is_judged_alone_and_the_batchs_passes_stand(self):
        program, runs = self.fake({"S.T1": "fail"})
        results = self.grade(program, ["S.T0", "S.T1", "S.T2"])
        self.assertEqual(self.processes(runs), [["S.T0", "S.T1", "S.T2"], ["S.T1"]])
        self.assertEqual((results["S.T1"].status, results["S.T1"].output), ("failed", "failed alone"),
                         "the report is the lone run's")
        self.assertEqual((results["S.T0"].status, results["S.T2"].status), ("passed", "passed"))

    def test_a_test_that_fails_only_in_a_batch_passes(self):
        # What another test left in the worker must not cost a test its points.
        program, runs = self.fake({"S.T1": "fail in a batch"})
        results = self.grade(program, ["S.T0", "S.T1"])
        self.assertEqual(results["S.T1"].status, "passed")
        self.assertEqual(self.processes(runs), [["S.T0", "S.T1"], ["S.T1"]])

    def test_a_crash_runs_every_test_of_the_batch_again_alone(self):
        program, runs = self.fake({"S.T1": "crash"})
        results = self.grade(program, ["S.T0", "S.T1", "S.T2"])
        self.assertEqual(self.processes(runs), [["S.T0", "S.T1", "S.T2"], ["S.T0"], ["S.T1"], ["S.T2"]])
        self.assertEqual([results[n].status for n in ("S.T0", "S.T1", "S.T2")], ["passed", "failed", "passed"])
        self.assertEqual(results["S.T1"].output, "failed alone")

    def test_an_exit_status_gtest_does_not_give_runs_the_batch_again_alone(self):
        # Every test reported passed, yet the process exited 1: only a run alone can say which test it was.
        program, runs = self.fake({"exit": 1})
        results = self.grade(program, ["S.T0", "S.T1"])
        self.assertEqual(self.processes(runs), [["S.T0", "S.T1"], ["S.T0"], ["S.T1"]])
        self.assertEqual({r.status for r in results.values()}, {"failed"})
        self.assertIn("the test's checks passed, but then", results["S.T0"].output)

    def test_a_course_skip_stands_and_any_other_skip_is_judged_alone(self):
        program, runs = self.fake({"S.T0": "skip", "S.T1": "own skip"}, kind="gpu")
        results = self.grade(program, ["S.T0", "S.T1", "S.T2"])
        self.assertEqual((results["S.T0"].status, results["S.T0"].missing), ("skipped", "no GPU"))
        self.assertEqual(results["S.T1"].status, "failed")
        self.assertIn("a reason the course does not define: 'not today'", results["S.T1"].output)
        self.assertEqual(self.processes(runs), [["S.T0", "S.T1", "S.T2"], ["S.T1"]])

    def test_the_timeout_is_each_tests_and_the_workers_lines_start_no_test(self):
        # Four tests of 0.7 s each under a 1.5 s timeout: 2.8 s in all, never
        # killed. A second test that hangs is killed 2 s after it started
        # (0.5 s in); then the first and the second run alone, and so does
        # each of the two never started (after a timeout): about 3 s. Had
        # the forged RUN lines it prints every 1.5 s behind the worker's mark
        # counted as tests starting, it would have lived to 5.5 s.
        program, runs = self.fake({f"S.T{i}": "sleep 0.7" for i in range(4)})
        results = self.grade(program, [f"S.T{i}" for i in range(4)], timeout=1.5)
        self.assertEqual({r.status for r in results.values()}, {"passed"})
        self.assertEqual(len(self.processes(runs)), 1, "no test ran again")
        program, runs = self.fake({"S.T0": "sleep 0.5", "S.T1": "hang"})
        started = time.monotonic()
        results = self.grade(program, ["S.T0", "S.T1", "S.T2", "S.T3"], timeout=2.0)
        self.assertLess(time.monotonic() - started, 4.8, "the batch ran past its hanging test's timeout")
        self.assertEqual(self.processes(runs)[1:], [["S.T0"], ["S.T1"], ["S.T2"], ["S.T3"]])
        self.assertEqual(results["S.T1"].output, "failed alone")
        self.assertEqual({results[n].status for n in ("S.T0", "S.T2", "S.T3")}, {"passed"})

    def test_a_test_that_ends_its_batch_while_running_first_is_decided_there(self):
        # Nothing ran before it in that process: it ran as alone, and a
        # second run would cost its timeout again (a submission that hangs in
        # every test would take twice as long to grade).
        program, runs = self.fake({"S.T0": "hang"})
        started = time.monotonic()
        results = self.grade(program, ["S.T0", "S.T1", "S.T2"], timeout=1.5)
        self.assertLess(time.monotonic() - started, 2.9, "it ran once, to its timeout")
        self.assertEqual(self.processes(runs), [["S.T0", "S.T1", "S.T2"], ["S.T1"], ["S.T2"]])
        self.assertEqual(results["S.T0"].status, "timeout")
        self.assertIn("did not finish within 1.5 s", results["S.T0"].output)
        self.assertEqual((results["S.T1"].status, results["S.T2"].status), ("passed", "passed"))
        program, runs = self.fake({"S.T0": "crash"})
        results = self.grade(program, ["S.T0", "S.T1"])
        self.assertEqual(self.processes(runs), [["S.T0", "S.T1"], ["S.T1"]])
        self.assertEqual(results["S.T0"].status, "failed")
        self.assertIn("killed by signal 9", results["S.T0"].output)

    def test_after_a_timeout_the_tests_never_started_run_alone_side_by_side(self):
        # A submission that hangs in every test: the three tests left after
        # the first one's timeout, in a batch, would time out one after
        # another (6 s in all here); run alone, three at a time, they cost
        # one timeout (3 s in all).
        program, runs = self.fake({f"S.T{i}": "hang always" for i in range(4)}, kind="cpu")
        runner = judging.Runner(1.5, 0, hidden_graphs=None, tests_per_process=4)
        results = [Result("lab", f"S.T{i}", 1.0, "visible") for i in range(4)]
        started = time.monotonic()
        with mock.patch("os.cpu_count", return_value=3):
            runner.run_all([(program, r) for r in results])
        self.assertLess(time.monotonic() - started, 4.8, "the tests left ran one after another")
        self.assertEqual(sorted(self.processes(runs)), [["S.T0", "S.T1", "S.T2", "S.T3"], ["S.T1"], ["S.T2"], ["S.T3"]])
        self.assertEqual({r.status for r in results}, {"timeout"})
        # After a crash the tests never started still share a process: a crash costs no time.
        program, runs = self.fake({"S.T0": "crash"}, kind="cpu")
        self.grade(program, ["S.T0", "S.T1", "S.T2"])
        self.assertEqual(self.processes(runs), [["S.T0", "S.T1", "S.T2"], ["S.T1", "S.T2"]])

    def test_one_test_per_process_on_request(self):
        program, runs = self.fake({})
        self.grade(program, ["S.T0", "S.T1"], per_process=1)
        self.assertEqual(self.processes(runs), [["S.T0"], ["S.T1"]])


class LimitsAreDocumented(unittest.TestCase):
    def test_the_readme_states_the_limits_the_code_sets(self):
        readme = " ".join((REPO / "README.md").read_text().split())
        relay = (REPO / "tests" / "grader" / "runtime" / "rpc" / "transport.cpp").read_text()
        shown = int(re.search(r"kWorkerOutputLimit = std::size_t\{64\} << (\d+);", relay).group(1))
        stated = [f"at most {build.COMPILE_TIMEOUT:g} s in all",
                  f"{build.COMPILE_MEMORY_MIB >> 10} GiB of memory per compiler process",
                  f"{build.COMPILE_FILE_LIMIT >> 20} MiB per file",
                  f"hold at most {sandbox.TMP_SIZE >> 20} MiB each",
                  f"({sandbox.COMPILE_TMP_SIZE >> 30} GiB for `/tmp` while compiling)",
                  f"at most {64 << shown >> 10} KiB per test"]
        for text in stated:
            self.assertIn(text, readme, "README.md, How grading works, must state the limit the code sets")


if __name__ == "__main__":
    unittest.main()
