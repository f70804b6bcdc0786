#!/usr/bin/env python3
"""How the grader runs and reports hidden-graph tests (tests/grader/judging.py,
issue 44, item 4), without building anything: such a test runs after every
other test, with nothing beside it (a test beside it could read what its
worker changes in host-wide figures, /proc/meminfo, and print it), and its
report is a fixed summary, whatever the student's code printed or threw.
And the README states the limits the sandbox and the compile set.

    python3 -m tests.project.test_judging
"""
import re
import threading
import time
import unittest
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
from tests.grader import sandbox  # how a worker is started and confined
from tests.grader import build, judging
from tests.grader.model import GradingError, Program, Result


class RecordingRunner(judging.Runner):
    """A Runner whose tests only take a little time and record when they ran."""

    def __init__(self):
        super().__init__(timeout=5.0, memory_mib=0, hidden_graphs=None)
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
