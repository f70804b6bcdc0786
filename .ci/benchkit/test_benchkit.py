#!/usr/bin/env python3
"""Tests of .ci/bench.py (.ci/benchkit and the labs' tests/<lab>/benchmarks.py): reading
the programs' JSON reports, resolving data files, and (where matplotlib is
installed) drawing each plot from reports in the programs' own format. The
GPU runs themselves happen on a GPU machine; this checks the code that turns
their output into the files the handouts link."""
import json
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

from benchkit import labs, main, pages, plots, programs, runner, tables

REPO = Path(__file__).resolve().parents[2]

LABS = {lab.name: lab for lab in labs.load_all(REPO)}


def program_plot(lab: str):
    """The plot of lab's benchmark program, as (text, path) -> drawn."""
    return lambda text, path: LABS[lab].plot_program(LABS[lab].programs[0][0], text, path)

try:
    import matplotlib  # noqa: F401
    HAVE_MATPLOTLIB = True
except ImportError:
    HAVE_MATPLOTLIB = False

# Shortened JSON reports in the exact layout the programs write (--json FILE, sssp/bench_report.hpp).
REDUCE = {"program": "reduce-bench", "facts": {}, "tables": [
    {"title": "argmin_us", "columns": ["method", "1", "10", "100"],
     "rows": [["stage 1", 5.0, 5.1, 5.2], ["CUB DeviceReduce::ArgMin", 8.0, 8.1, 8.2], ["CPU loop", 0.0, 0.0, 0.1]]}]}
STREAMS = {"program": "stream-bench", "facts": {}, "tables": [
    {"title": "sizes", "columns": ["vertices", "matrix MB", "rounds (WE)", "CPU naive ms", "GPU naive ms",
                                   "CPU work-eff. ms", "GPU WE K=1 ms", "GPU WE K=2 ms", "WE+streams vs GPU naive",
                                   "vs CPU WE"],
     "rows": [[1000, 4, 11, "332.4", "10.5", 2.5, 0.30, 0.32, "35x", "8.2x"],
              [5000, 100, 7, "~20186.5", "212.5", 15.9, 2.16, 2.17, "98x", "7.3x"]]},
    {"title": "overlap", "columns": ["version", "K", "first copy starts", "copy", "tail", "round 1 ends", "run total"],
     "rows": [["naive", 1, 0.04, 29.21, 0.52, 29.78, 29.79], ["work-efficient", 2, 0.01, 29.14, 0.02, 29.18, 31.02]]}]}
_LOCALITY_COLUMNS = ["launch mode", "k", "v/t", "median ms", "launches", "syncs", "expanded", "verified"]


def locality(graph: str) -> dict:
    """A locality-bench report on graph."""
    return {"program": "locality-bench", "facts": {"graph": graph}, "tables": [
        {"title": "sweep", "columns": _LOCALITY_COLUMNS,
         "rows": [["blind, learned N", 1, 1, 28.150, 2091, 1, 47324619, "yes"],
                  ["blind, learned N", 1, 2, 29.033, 2091, 1, 47324619, "yes"],
                  ["blind, learned N", 2, 1, 24.329, 1046, 1, 52548673, "yes"],
                  ["blind, learned N", 2, 2, 24.974, 1046, 1, 52540391, "yes"]]},
        {"title": "launch_modes", "columns": _LOCALITY_COLUMNS,
         "rows": [["blind as a CUDA Graph", 2, 1, 23.361, 1046, 1, 52547246, "yes"]]}]}


class Tables(unittest.TestCase):
    def test_finds_a_report_table_by_its_title(self):
        columns, rows = tables.program_table(STREAMS, "overlap")
        self.assertEqual(columns[:2], ["version", "K"])
        self.assertEqual(rows[1][:2], ["work-efficient", 2])
        self.assertIsNone(tables.program_table(STREAMS, "missing"))

    def test_numbers_keep_extrapolated_values_and_refuse_words(self):
        self.assertEqual(tables.number(2.5), 2.5)
        self.assertEqual(tables.number(7), 7.0)
        self.assertEqual(tables.number("~20186.5"), 20186.5)
        self.assertEqual(tables.number("1,046"), 1046.0)
        self.assertEqual(tables.number("**3.5**"), 3.5)
        self.assertIsNone(tables.number("refused"))

    def test_missing_data_files_drop_their_graph_pair(self):
        with tempfile.TemporaryDirectory() as tmp:
            (Path(tmp) / "a.gr").write_text("")
            resolved, missing = programs.program_arguments(
                ["--graph", "@a.gr", "--graph", "@gone.gr", "--gen", "grid:4x4", "--repeats", "3"], tmp)
        self.assertEqual(resolved, ["--graph", str(Path(tmp) / "a.gr"), "--gen", "grid:4x4", "--repeats", "3"])
        self.assertEqual(missing, ["gone.gr"])

    def test_every_lab_describes_its_benchmarks(self):
        folders = sorted(path.name.split("_")[0] for path in REPO.glob("solutions/lab*_*") if path.is_dir())
        self.assertEqual(list(LABS), folders, "a lab without tests/<lab>/benchmarks.py")
        for name, lab in LABS.items():
            self.assertTrue(lab.rows or lab.programs, f"{name} has neither rows nor programs")
            for label, graph_args, algos, reps in lab.rows:
                self.assertIn(graph_args[0], ("--graph", "--gen"), f"{name}, {label}")
                self.assertTrue(any(a.startswith(name + "/") for a in algos), f"{name}, {label} runs none of {name}")
                self.assertGreaterEqual(reps, 1)
            for program, invocations in lab.programs:
                self.assertTrue(invocations, f"{program} has no invocation")
                self.assertTrue(any(REPO.glob(f"solutions/{name}_*/{program.replace('-', '_')}.cpp")),
                                f"{name}'s {program} is not one of its programs")


# One graph's runs as bench.json keeps them: the baseline, a lab's algorithm and gapbs's two rows.
def _run(algorithm: str, ms: float) -> dict:
    return {"algorithm": algorithm, "source": 3, "median_ms": ms, "mteps": 9.0, "edges_traversed": 730100,
            "verified": True, "counters": {"iterations": 10, "vertices_processed": 264346, "edges_relaxed": 730100,
                                           "kernel_launches": 10, "host_syncs": 1}}


STORED = {"machine": "GPU: X. Date: D.", "results": [{
    "lab": "lab09", "label": "USA-road-NY", "graph": {"vertices": 264346, "arcs": 730100},
    "runs": [_run("lab01/dijkstra", 40.0), _run("lab08/near-far", 6.0), _run("lab09/adds", 2.0),
             {"algorithm": "gapbs delta-stepping 1 thread", "delta": 4000, "median_ms": 16.0, "verified": True,
              "peer": True},
             {"algorithm": "gapbs delta-stepping 16 threads (all cores)", "delta": 4000, "median_ms": 4.0,
              "verified": True, "peer": True}]}]}
# The same run's table as the first pages showed it: 14 columns, no baseline row, gapbs's long names.
OLD_TABLE = """| graph | vertices | arcs | algorithm | median ms | MTEPS | iterations | launches | syncs \
| us per iteration | speedup over lab01/dijkstra | vertices processed | edges relaxed | verified |
|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|
| USA-road-NY | 264,346 | 730,100 | lab08/near-far | 6.00 | 9.0 | 10 | 10 | 1 | 600.0 | 6.67x | 264,346 | 730,100 \
| yes |
| USA-road-NY | 264,346 | 730,100 | lab09/adds | 2.00 | 9.0 | 10 | 10 | 1 | 200.0 | 20.00x | 264,346 | 730,100 | yes |
| USA-road-NY | 264,346 | 730,100 | gapbs delta-stepping 1 thread, -d 4000 | 16.00 | 45.6 | | | | | 2.50x | | | yes |
| USA-road-NY | 264,346 | 730,100 | gapbs delta-stepping 16 threads (all cores), -d 4000 | 4.00 | 182.5 | | | | \
| 10.00x | | | yes |"""  # (a backslash ends a line inside the string: the row goes on)


class Build(unittest.TestCase):
    def test_a_build_without_cuda_times_only_the_algorithms_it_has(self):
        built = {"lab01/dijkstra", "lab01/bfs"}
        self.assertEqual(main.in_build(["lab01/dijkstra", "lab02/", "lab03/edge-bfs"], built), ["lab01/dijkstra"])
        self.assertEqual(main.in_build(["lab01/"], built), ["lab01/"])
        self.assertEqual(main.in_build(["lab02/"], built), [])


class LabTables(unittest.TestCase):
    """A lab's table as its page shows it (benchkit/tables.py), and --pages-only's re-render."""

    def test_twelve_columns_the_graphs_apart_and_short_gapbs_labels_explained(self):
        table = tables.table("lab09", STORED["results"], "lab01/dijkstra")
        lines = table.splitlines()
        self.assertEqual(lines[:3], ["| graph | vertices | arcs |", "|---|---:|---:|",
                                     "| USA-road-NY | 264,346 | 730,100 |"])
        head = next(line for line in lines if line.startswith("| graph | algorithm"))
        self.assertEqual(head.count("|") - 1, 12)
        self.assertIn("| USA-road-NY | lab01/dijkstra | 40.00 |", table)  # the baseline's row, as in the plot
        self.assertIn("| USA-road-NY | gapbs x16, -d 4000 | 4.00 | 182.5 |", table)
        self.assertIn("| USA-road-NY | gapbs x1, -d 4000 | 16.00 |", table)
        self.assertNotIn("all cores", table.split("\n\n")[1])
        self.assertIn("speedup: the median time of lab01/dijkstra on the same graph over the row's.", table)
        self.assertIn("gapbs x1, gapbs x16: gapbs's OpenMP delta-stepping", table)
        self.assertEqual(tables.algorithm_name("gapbs x16"), "gapbs delta-stepping 16 threads (all cores)")
        self.assertEqual(tables.algorithm_name("gapbs x1"), "gapbs delta-stepping 1 thread")

    def test_every_graph_has_its_speedups(self):
        second = {**STORED["results"][0], "label": "USA-road-BAY"}
        rows = tables.cells("lab09", [STORED["results"][0], second], "lab01/dijkstra")
        self.assertEqual([row[10] for row in rows if row[3] == "lab09/adds"], ["20.00x", "20.00x"])

    def test_a_table_reads_back_as_it_was_made(self):
        rows = tables.cells("lab09", STORED["results"], "lab01/dijkstra")
        self.assertEqual(tables.parse(tables.render(rows, "lab01/dijkstra")), rows)
        # The first pages' 14 columns read as the same rows, less the baseline's.
        self.assertEqual(tables.parse(OLD_TABLE), rows[1:])
        with self.assertRaisesRegex(ValueError, "no table of runs"):
            tables.parse("| a |\n|---|\n| 1 |")

    def write_page(self, out: Path, about: str) -> Path:
        page = out / "lab09.md"
        page.write_text(pages.lab_page("lab09", about, "python3 .ci/bench.py --out /root/out/res", OLD_TABLE, out))
        (out / "bench.json").write_text(json.dumps(STORED))
        return page

    def test_pages_only_takes_the_table_from_bench_json_when_it_holds_the_pages_run(self):
        with tempfile.TemporaryDirectory() as tmp:
            page = self.write_page(Path(tmp), "GPU: X. Date: D.")
            self.assertEqual(main.rewrite_pages([LABS["lab09"]], Path(tmp)), 0)
            text = page.read_text()
            self.assertIn("| USA-road-NY | lab01/dijkstra | 40.00 |", text)
            self.assertIn("--out docs/results", text)
            self.assertNotIn("/root", text)
            svg = Path(tmp) / "lab09.svg"
            self.assertEqual(svg.exists(), HAVE_MATPLOTLIB)
            drawn = svg.read_text() if HAVE_MATPLOTLIB else None
            self.assertEqual(main.rewrite_pages([LABS["lab09"]], Path(tmp)), 0)
            self.assertEqual(page.read_text(), text, "rewriting a rewritten page changes nothing")
            if HAVE_MATPLOTLIB:
                self.assertEqual(svg.read_text(), drawn, "nor its plot")

    def test_pages_only_keeps_a_pages_own_run_when_bench_json_holds_another(self):
        with tempfile.TemporaryDirectory() as tmp:
            page = self.write_page(Path(tmp), "GPU: X. Date: a day later.")
            self.assertEqual(main.rewrite_pages([LABS["lab09"]], Path(tmp)), 0)
            text = page.read_text()
            self.assertNotIn("lab01/dijkstra |", text)  # that run's baseline row was not kept: not in its plot
            self.assertIn("(lab01/dijkstra's own rows were not kept from this run)", text)
            self.assertIn("| USA-road-NY | gapbs x16, -d 4000 | 4.00 | 182.5 |", text)
            self.assertIn("Date: a day later.", text)
            if HAVE_MATPLOTLIB:
                svg = (Path(tmp) / "lab09.svg").read_text()
                self.assertIn("gapbs x16", svg)
                self.assertNotIn("dijkstra", svg)


# Stands in for sssp-ref: JSON with a row per --algo, where "lab09/crash" beside other
# algorithms kills the process before its JSON (as an uncaught error or a crash did),
# alone it dies with a message, and "lab08/fails" gets an error row and exit status 1.
FAKE_RUNNER = """#!/usr/bin/env python3
import json, sys
algos = [sys.argv[i + 1] for i, arg in enumerate(sys.argv) if arg == "--algo"]
if "lab09/crash" in algos:
    sys.exit("sssp: ADDS: the queue's page pool overflowed" if len(algos) == 1 else -6)
runs = [{"algorithm": a, "source": 3, "error": "delta-stepping: bucket 2 is not empty"} if a == "lab08/fails"
        else {"algorithm": a, "source": 3, "median_ms": 1.5, "mteps": 4.0, "edges_traversed": 6, "verified": True,
              "counters": {"iterations": 4, "vertices_processed": 4, "edges_relaxed": 6, "kernel_launches": 0,
                           "host_syncs": 0}} for a in algos]
print(json.dumps({"graph": {"name": "g", "vertices": 4, "arcs": 6}, "device": {"available": True}, "runs": runs}))
sys.exit(1 if "lab08/fails" in algos else 0)
"""


class Runner(unittest.TestCase):
    def fake(self, tmp: str) -> list[str]:
        runner = Path(tmp) / "sssp-ref"
        runner.write_text(FAKE_RUNNER)
        runner.chmod(0o755)
        return [str(runner), "--gen", "grid:2x2", "--output", "json"]

    def test_a_runner_that_dies_costs_only_the_failing_algorithm(self):
        with tempfile.TemporaryDirectory() as tmp:
            data, failures = runner.run_runner(self.fake(tmp), ["lab01/dijkstra", "lab09/crash", "lab08/near-far"])
        self.assertEqual(data["graph"]["vertices"], 4)
        self.assertEqual([run["algorithm"] for run in data["runs"]],
                         ["lab01/dijkstra", "lab09/crash", "lab08/near-far"])
        self.assertTrue(data["runs"][0]["verified"] and data["runs"][2]["verified"])
        self.assertIn("page pool overflowed", data["runs"][1]["error"])
        self.assertEqual(len(failures), 2, failures)  # the run of all three, and lab09/crash alone
        self.assertIn("without its JSON", failures[0])
        self.assertTrue(failures[1].startswith("lab09/crash: "), failures)
        rows = tables.table("lab09", [{"lab": "lab09", "label": "grid 2x2", **data}], "lab01/dijkstra").splitlines()
        self.assertTrue(any("lab09/crash" in row and "page pool overflowed" in row for row in rows), rows)
        self.assertTrue(any("lab01/dijkstra" in row and "| 1.00x |" in row for row in rows), rows)  # the baseline
        self.assertTrue(any("lab08/near-far" in row and "| 1.50 |" in row for row in rows), rows)

    def test_an_error_row_is_kept_and_reported(self):
        with tempfile.TemporaryDirectory() as tmp:
            data, failures = runner.run_runner(self.fake(tmp), ["lab01/dijkstra", "lab08/fails"])
        self.assertEqual([run["algorithm"] for run in data["runs"]], ["lab01/dijkstra", "lab08/fails"])
        self.assertEqual(failures, ["sssp-ref exit 1: no message",
                                    "lab08/fails from source 3: delta-stepping: bucket 2 is not empty"])

    def test_nothing_ran_drops_the_graph_with_a_reason(self):
        with tempfile.TemporaryDirectory() as tmp:
            data, failures = runner.run_runner(self.fake(tmp), ["lab09/crash"])
        self.assertIsNone(data)
        self.assertIn("page pool overflowed", failures[0])


# Stands in for reduce-bench-ref: Markdown on stdout, REDUCE as its --json report.
FAKE_PROGRAM = f"""#!/usr/bin/env python3
import json, sys
print("| method | 1 |\\n|---|---|\\n| stage 1 | 5.0 |")
json.dump({json.dumps(REDUCE)}, open(sys.argv[sys.argv.index("--json") + 1], "w"))
"""


class Programs(unittest.TestCase):
    def test_markdown_page_json_report_and_plot(self):
        with tempfile.TemporaryDirectory() as tmp:
            bin_dir, out = Path(tmp) / "bin", Path(tmp) / "out"
            bin_dir.mkdir()
            out.mkdir()
            program = bin_dir / "reduce-bench-ref"
            program.write_text(FAKE_PROGRAM)
            program.chmod(0o755)
            failed = programs.run_programs([LABS["lab04"]], bin_dir, out, "", "GPU: test.", "bench", HAVE_MATPLOTLIB)
            self.assertFalse(failed)
            self.assertIn("| stage 1 | 5.0 |", (out / "lab04-reduce-bench.md").read_text())
            self.assertEqual(json.loads((out / "lab04-reduce-bench-1.json").read_text()), REDUCE)
            self.assertEqual((out / "lab04-reduce-bench.svg").exists(), HAVE_MATPLOTLIB)


@unittest.skipUnless(HAVE_MATPLOTLIB, "matplotlib is not installed (the plots are optional)")
class Pages(unittest.TestCase):
    """The results pages (benchkit/pages.py): what a reader and a student release see."""

    def test_a_page_has_a_title_its_plot_and_no_machine_path(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp)
            (out / "lab07.svg").write_text("<svg/>")
            page = pages.lab_page("lab07", "GPU: X. Date: D.",
                                  "SSSP_DATA_DIR=/home/me/graphs python3 .ci/bench.py --out /root/out/res",
                                  "| a |\n|---|\n| 1 |", out)
        self.assertTrue(page.startswith("# Lab 07 reference results"), page)
        self.assertIn("![Lab 07: median time per graph and algorithm](lab07.svg)", page)
        self.assertNotIn("/home/me", page)
        self.assertNotIn("/root/out", page)
        self.assertIn("SSSP_DATA_DIR=<datasets>", page)
        self.assertIn("--out docs/results", page)

    def test_a_program_page_names_the_reference_build_for_instructors_only(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp)
            page = pages.program_page("lab04", "reduce-bench", "GPU: X.", "python3 .ci/bench.py",
                                      "`reduce-bench-ref --block-size 512`\n\n| t |\n|---|", out)
            path = out / "lab04-reduce-bench.md"
            path.write_text(page)
            # The release drops instructor blocks and opens student ones (make_release.py, a module of
            # the repository's root, where it runs).
            released = subprocess.run(
                [sys.executable, "-c", "import sys; from common.tools.make_release import student_text; "
                 "sys.stdout.write(student_text(sys.stdin.read()))"],
                input=page, capture_output=True, text=True, cwd=REPO, check=True).stdout
            self.assertNotIn("-ref", released)
            self.assertNotIn(".ci/", released)
            self.assertIn("`reduce-bench --block-size 512` (the reference's build of it)", released)
            # --pages-only reads a page back as it was made: rewriting changes nothing.
            about, command, body = pages.earlier_page(path)
            self.assertEqual((about, command), ("GPU: X.", "python3 .ci/bench.py"))
            self.assertEqual(pages.program_page("lab04", "reduce-bench", about, command, body, out), page)

    def test_a_page_that_is_not_a_results_page_is_refused_by_name(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "lab04-reduce-bench.md"
            path.write_text("# notes\n\nnothing generated here\n")
            with self.assertRaisesRegex(ValueError, "lab04-reduce-bench.md: not a results page"):
                pages.earlier_page(path)


@unittest.skipUnless(HAVE_MATPLOTLIB, "matplotlib is not installed (the plots are optional)")
class Plots(unittest.TestCase):
    def check(self, draw, reports, name):
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / name
            self.assertTrue(draw(reports, path), f"nothing drawn for {name}")
            self.assertTrue(path.read_text().lstrip().startswith("<?xml"), f"{name} is not an SVG")

    def test_reduce_bench(self):
        self.check(program_plot("lab04"), [REDUCE], "reduce.svg")

    def test_stream_bench(self):
        self.check(program_plot("lab05"), [STREAMS], "streams.svg")

    def test_locality_bench_one_panel_per_graph(self):
        # A second invocation that failed before its sweep: no panel, no shifted names.
        failed = {"program": "locality-bench", "facts": {"graph": "road-B"}, "tables": []}
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "locality.svg"
            self.assertTrue(program_plot("lab07")([locality("road-A"), failed, locality("road-C")], path))
            svg = path.read_text()
            self.assertIn("road-A", svg)
            self.assertIn("road-C", svg)
            self.assertNotIn("road-B", svg, "a graph with no sweep gets no panel")

    def test_adds_trace_from_the_csv_beside_the_plot(self):
        with tempfile.TemporaryDirectory() as tmp:
            (Path(tmp) / "lab09-trace-NY.csv").write_text(
                "pass,delta_before,delta_after,utilisation,tail_share,repeat_share,items_held,buckets_open\n"
                "8,11607,11607,0.4,0.1,0.6,120,2\n16,11607,5803,0.7,0.2,0.3,300,2\n")
            report = {"program": "adds-bench", "facts": {"graph": "NY", "trace": "/elsewhere/lab09-trace-NY.csv"},
                      "tables": []}
            path = Path(tmp) / "trace.svg"
            self.assertTrue(program_plot("lab09")([report], path))
            self.assertTrue(path.read_text().lstrip().startswith("<?xml"))
            report["facts"]["trace"] = "lab09-trace-NE.csv"
            self.assertFalse(program_plot("lab09")([report], Path(tmp) / "none.svg"),
                             "a trace file that is not there draws nothing")

    def test_nothing_to_draw_is_said_not_drawn(self):
        with tempfile.TemporaryDirectory() as tmp:
            self.assertFalse(program_plot("lab04")([], Path(tmp) / "x.svg"))
            self.assertFalse(program_plot("lab05")([{"facts": {}, "tables": []}], Path(tmp) / "x.svg"))
            self.assertFalse(plots.plot_levels("lab02", [], Path(tmp) / "y.svg", "lab01/dijkstra"))


if __name__ == "__main__":
    sys.exit(0 if unittest.main(exit=False, verbosity=2).result.wasSuccessful() else 1)
