#!/usr/bin/env python3
"""Tests of the runner (sssp-ref, and sssp on the skeleton): it runs on a fresh
clone with no arguments, its JSON and CSV parse, and every kind of bad input
gets a clear message and a non-zero exit, never a crash or a hang."""
import argparse
import csv
import gzip
import json
import os
import stat
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

BIN: Path
REPO: Path
TINY: Path  # the shipped tiny graphs


def run(*args, binary="sssp-ref", timeout=120, stdin=None):
    return subprocess.run([str(BIN / binary), *map(str, args)], capture_output=True, text=True,
                          timeout=timeout, input=stdin)


def gpu_labs_built() -> bool:
    """Whether the runner has the GPU labs, and with them their launch options (--block-size, ...)."""
    return "lab02/frontier-sssp" in run("--list").stdout


class Runs(unittest.TestCase):
    def test_default_graph_runs_and_verifies(self):
        # Every algorithm of every lab, the O(V^2) ones included: minutes when
        # other GPU tests share the device, hence the long timeout.
        proc = run("--reps", 1, timeout=900)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertIn("grid 256x256", proc.stdout)
        for name in ("lab01/dijkstra", "lab01/bellman-ford", "lab01/bellman-ford-queue", "lab01/bfs"):
            self.assertRegex(proc.stdout, rf"{name}\s.*yes")

    def test_json_output(self):
        proc = run("--gen", "rmat:10", "--random-sources", 2, "--reps", 2, "--output", "json", "--algo", "lab01/")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        data = json.loads(proc.stdout)
        self.assertEqual(data["graph"]["vertices"], 1024)
        self.assertEqual(len(data["runs"]), 4 * 2)
        for r in data["runs"]:
            self.assertTrue(r["verified"], r)
            self.assertEqual(len(r["times_ms"]), 2)
            self.assertGreater(r["counters"]["edges_relaxed"], 0)
            # One set of counters per timed run, the last of them the row's "counters".
            self.assertEqual(len(r["counters_per_run"]), 2, r)
            self.assertEqual(r["counters_per_run"][-1], r["counters"], r)

    def test_csv_output(self):
        proc = run("--gen", "chain:100", "--algo", "lab01/", "--output", "csv")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        lines = proc.stdout.strip().splitlines()
        self.assertTrue(lines[0].startswith("algorithm,source,median_ms"))
        self.assertEqual(len(lines), 1 + 4)

    def test_reads_a_shipped_graph_and_caches_it(self):
        with tempfile.TemporaryDirectory() as cache:
            graph = REPO / "datasets" / "tiny" / "clrs_dijkstra.gr"
            for _ in range(2):
                proc = run("--graph", graph, "--cache", cache, "--algo", "lab01/dijkstra")
                self.assertEqual(proc.returncode, 0, proc.stderr)
            self.assertTrue(list(Path(cache).iterdir()), "the cache directory stayed empty")

    def test_reads_a_pipe(self):
        # Format detection used to rewind the input, which a pipe cannot do.
        graph = (REPO / "datasets" / "tiny" / "clrs_dijkstra.gr").read_text()
        proc = run("--graph", "/dev/stdin", "--algo", "lab01/dijkstra", stdin=graph)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertRegex(proc.stdout, r"stdin: 5 vertices, 10 arcs")

    def test_unusable_cache_warns_and_runs(self):
        graph = (REPO / "datasets" / "tiny" / "clrs_dijkstra.gr").read_text()
        with tempfile.TemporaryDirectory() as tmp:
            blocker = Path(tmp) / "file"
            blocker.write_text("not a directory")
            for args, stdin in ((["--graph", REPO / "datasets" / "tiny" / "clrs_dijkstra.gr"], None),
                                (["--graph", "/dev/stdin"], graph)):
                proc = run(*args, "--cache", blocker / "cache", "--algo", "lab01/dijkstra", stdin=stdin)
                self.assertEqual(proc.returncode, 0, proc.stderr)
                self.assertIn("warning: ", proc.stderr)
                self.assertIn("going on without the graph cache", proc.stderr)

    def test_random_sources_are_distinct_vertices_with_out_arcs(self):
        # One vertex of a million has an out-arc: drawing must find it at once.
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "one.gr"
            path.write_text("p sp 1000000 1\na 1000000 1 5\n")
            proc = run("--graph", path, "--random-sources", 1, "--algo", "lab01/bfs", "--output", "json",
                       timeout=30)
            self.assertEqual(proc.returncode, 0, proc.stderr)
            self.assertEqual([r["source"] for r in json.loads(proc.stdout)["runs"]], [999999])
        proc = run("--gen", "star:50", "--random-sources", 50, "--algo", "lab01/bfs", "--output", "json")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(sorted(r["source"] for r in json.loads(proc.stdout)["runs"]), list(range(50)))

    def test_list(self):
        proc = run("--list")
        self.assertEqual(proc.returncode, 0)
        self.assertIn("lab01/dijkstra", proc.stdout)

    def test_the_cpu_runner_holds_the_cpu_labs_only(self):
        # sssp-cpu: lab 01's loop without compiling a GPU lab (common/runner/CMakeLists.txt).
        listed = run("--list", binary="sssp-cpu-ref")
        self.assertEqual(listed.returncode, 0, listed.stderr)
        self.assertIn("lab01/dijkstra", listed.stdout)
        self.assertNotIn("lab02/", listed.stdout)
        solved = run("--algo", "lab01/dijkstra", "--gen", "grid:20x20", binary="sssp-cpu-ref")
        self.assertEqual(solved.returncode, 0, solved.stderr)
        self.assertIn("yes", solved.stdout)
        unknown = run("--algo", "lab02/frontier-sssp", "--gen", "grid:20x20", binary="sssp-cpu-ref")
        self.assertNotEqual(unknown.returncode, 0)
        self.assertIn("unknown algorithm 'lab02/frontier-sssp'", unknown.stderr)

    def test_help_lists_every_option_and_the_labs_of_each_launch_option(self):
        proc = run("--help")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        for phrase in ("usage: sssp [options]", "--graph FILE", "--max-inflation X", "--write-graph FILE", "--help"):
            self.assertIn(phrase, proc.stdout)
        if gpu_labs_built():
            self.assertRegex(proc.stdout, r"--block-size N +threads per block \(lab02, lab03, lab04, lab06, lab07, lab08\)")
            self.assertRegex(proc.stdout, r"--delta N .*\(lab08, lab09\)")

    def test_option_values_after_equals(self):
        proc = run("--gen=chain:5", "--algo=lab01/bfs", "--source=4", "--output=json")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(json.loads(proc.stdout)["runs"][0]["source"], 4)

    def test_list_shows_each_algorithms_launch_options(self):
        lines = {line.split()[0]: line for line in run("--list").stdout.splitlines()}
        self.assertNotIn("--", lines["lab01/dijkstra"])
        if "lab04/extract-min-dijkstra" not in lines:
            self.skipTest("built without the GPU labs")
        self.assertTrue(lines["lab04/extract-min-dijkstra"].endswith("--block-size --rounds-per-check"))
        self.assertTrue(lines["lab07/locality"].endswith("--block-size --depth --vertices-per-thread"))
        self.assertTrue(lines["lab08/delta-stepping"].endswith("--block-size --delta"))
        self.assertTrue(lines["lab08/near-far"].endswith("--block-size --rounds-per-check --delta"))
        self.assertIn("lab05/gpu-naive-streams", lines)
        self.assertTrue(lines["lab09/adds"].endswith("--delta"))
        self.assertTrue(lines["lab09/adds-dynamic"].endswith("--delta"))

    def test_write_distances_writes_the_first_run(self):
        # The first algorithm of --list order that ran, from the first source:
        # lab01/dijkstra from x (CLRS Figure 24.6, hand-checked in the file).
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "dist.txt"
            proc = run("--graph", TINY / "clrs_dijkstra.gr", "--algo", "lab01/bellman-ford", "--algo",
                       "lab01/dijkstra", "--source", 2, "--source", 0, "--write-distances", out)
            self.assertEqual(proc.returncode, 0, proc.stderr)
            self.assertEqual(out.read_text(), "11\n19\n0\n16\n4\n")
            self.assertIn(f"distances of lab01/dijkstra from source 2 written to {out}", proc.stdout)
            # Unreachable vertices are INF; a BFS writes levels.
            proc = run("--gen", "chain:3", "--source", 1, "--algo", "lab01/bfs", "--write-distances", out)
            self.assertEqual(proc.returncode, 0, proc.stderr)
            self.assertEqual(out.read_text(), "INF\n0\n1\n")

    def test_write_distances_without_a_run_writes_nothing(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "dist.txt"
            proc = run("--gen", "chain:3", "--algo", "lab01/dijkstra", "--write-distances", out, binary="sssp")
            if "not implemented yet" not in proc.stdout:
                self.skipTest("labs/lab01_serial is no longer the untouched skeleton")
            self.assertEqual(proc.returncode, 1)
            self.assertIn("no algorithm ran", proc.stderr)
            self.assertFalse(out.exists())

    def test_write_graph_is_the_graph_the_runs_used(self):
        # A PACE topology weighted by --weights: the written DIMACS file holds
        # those weights, and read back it gives the same distances.
        with tempfile.TemporaryDirectory() as tmp:
            pace, written = Path(tmp) / "road.gr", Path(tmp) / "weighted.gr"
            first, again = Path(tmp) / "first.txt", Path(tmp) / "again.txt"
            pace.write_text("p tw 4 3\n1 2\n2 3\n3 4\n")
            proc = run("--graph", pace, "--weights", "7:7", "--algo", "lab01/dijkstra", "--write-graph", written,
                       "--write-distances", first)
            self.assertEqual(proc.returncode, 0, proc.stderr)
            arcs = [line for line in written.read_text().splitlines() if not line.startswith("c")]
            self.assertEqual(arcs[0], "p sp 4 6")
            self.assertEqual(sorted(arcs[1:]), ["a 1 2 7", "a 2 1 7", "a 2 3 7", "a 3 2 7", "a 3 4 7", "a 4 3 7"])
            proc = run("--graph", written, "--algo", "lab01/dijkstra", "--write-distances", again)
            self.assertEqual(proc.returncode, 0, proc.stderr)
            self.assertEqual(again.read_text(), "0\n7\n14\n21\n")
            self.assertEqual(first.read_text(), again.read_text())

    def test_weights_for_a_weighted_file_are_reported_as_ignored(self):
        # They used to be ignored without a word: the file's own weights win.
        proc = run("--graph", TINY / "clrs_dijkstra.gr", "--weights", "unit", "--algo", "lab01/dijkstra",
                   "--output", "json")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("sssp: warning: --weights unit ignored", proc.stderr)
        self.assertIn("has weights of its own", json.loads(proc.stdout)["graph"]["weights_ignored"])
        proc = run("--graph", TINY / "clrs_dijkstra.gr", "--algo", "lab01/dijkstra", "--output", "json")
        self.assertNotIn("warning", proc.stderr)
        self.assertNotIn("weights_ignored", json.loads(proc.stdout)["graph"])

    def test_the_weights_probe_reads_through_the_cache(self):
        # Whether a file keeps its own weights is found by reading it again
        # with other weights: with --cache, that read is cached too. Made
        # visible by giving both cache entries one content: the probe then
        # finds the weights of an unweighted file unchanged by --weights.
        with tempfile.TemporaryDirectory() as tmp:
            graph, cache = Path(tmp) / "unweighted.txt", Path(tmp) / "cache"
            graph.write_text("0 1\n1 2\n2 0\n")
            args = ("--graph", graph, "--weights", "5:9", "--cache", cache, "--algo", "lab01/dijkstra",
                    "--output", "json")
            first = run(*args)
            self.assertEqual(first.returncode, 0, first.stderr)
            self.assertNotIn("weights_ignored", json.loads(first.stdout)["graph"])
            entries = sorted(cache.iterdir())
            self.assertEqual(len(entries), 2, entries)
            entries[1].write_bytes(entries[0].read_bytes())
            second = run(*args)
            self.assertEqual(second.returncode, 0, second.stderr)
            self.assertIn("weights_ignored", json.loads(second.stdout)["graph"], "the probe parsed the file again")

    def test_a_gzip_bomb_is_refused_unless_the_bound_is_lifted(self):
        # A 1 MB gzip of "0 1" lines was read as 268M arcs (81 s, 5.25 GB).
        with tempfile.TemporaryDirectory() as tmp:
            bomb = Path(tmp) / "bomb.txt.gz"
            bomb.write_bytes(gzip.compress(b"0 1\n" * (1 << 20)))
            proc = run("--graph", bomb, "--algo", "lab01/bfs")
            self.assertEqual(proc.returncode, 2, proc.stdout + proc.stderr)
            self.assertIn("inflates more than 64 times", proc.stderr)
            proc = run("--graph", bomb, "--algo", "lab01/bfs", "--max-inflation", 0)
            self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)

    def test_a_graph_an_algorithm_does_not_take_is_skipped_not_an_error(self):
        proc = run("--gen", "chain:20001", "--algo", "lab01/bfs", "--algo", "lab05/cpu-naive", "--reps", 1,
                   "--output", "json")
        if "unknown algorithm" in proc.stderr:
            self.skipTest("built without the GPU labs")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        runs = {r["algorithm"]: r for r in json.loads(proc.stdout)["runs"]}
        self.assertIn("at most 20000 vertices", runs["lab05/cpu-naive"]["skipped"])
        self.assertNotIn("error", runs["lab05/cpu-naive"])
        self.assertNotIn("skipped", runs["lab01/bfs"])

    def assert_ran_or_all_skipped(self, proc):
        """Exit 0 when an algorithm ran; when every one skipped (no GPU), exit 1 saying so."""
        runs = json.loads(proc.stdout)["runs"]
        if all("skipped" in r for r in runs):
            self.assertEqual(proc.returncode, 1, proc.stderr)
            self.assertIn("no algorithm ran", proc.stderr)
        else:
            self.assertEqual(proc.returncode, 0, proc.stderr)

    def test_launch_options_reach_the_algorithms_that_have_them(self):
        # Valid values everywhere; without a GPU the algorithms are skipped,
        # with one they run with these values and must still be right.
        if not gpu_labs_built():
            self.skipTest("built without the GPU labs")
        proc = run("--gen", "grid:20x20", "--algo", "lab04/", "--algo", "lab06/", "--block-size", 64,
                   "--rounds-per-check", 3, "--reps", 1, "--output", "json")
        self.assert_ran_or_all_skipped(proc)
        for r in json.loads(proc.stdout)["runs"]:
            self.assertTrue("skipped" in r or r["verified"], r)

    def test_delta_reaches_lab08(self):
        # A fixed bucket width instead of each solver's rule: 1 (Dijkstra's
        # order) and one wider than every distance (a single bucket).
        if not gpu_labs_built():
            self.skipTest("built without the GPU labs")
        for delta in (1, 4294967295):
            proc = run("--gen", "grid:20x20", "--algo", "lab08/", "--delta", delta, "--block-size", 64, "--reps", 1,
                       "--output", "json")
            self.assert_ran_or_all_skipped(proc)
            runs = json.loads(proc.stdout)["runs"]
            self.assertEqual(sorted(r["algorithm"] for r in runs), ["lab08/delta-stepping", "lab08/near-far"])
            for r in runs:
                self.assertTrue("skipped" in r or r["verified"], r)
                if "skipped" not in r and delta == 1:
                    # Weights >= 1 and delta 1: each of the 400 vertices once, as Dijkstra.
                    self.assertEqual(r["counters"]["vertices_processed"], 400, r)

    def test_skeleton_runner_names_the_missing_task(self):
        proc = run("--algo", "lab01/dijkstra", "--gen", "chain:10", binary="sssp")
        if "not implemented yet" not in proc.stdout:
            self.skipTest("labs/lab01_serial is no longer the untouched skeleton")
        self.assertEqual(proc.returncode, 1)
        self.assertIn("Lab 01, task", proc.stdout)

    def test_a_failing_algorithm_costs_its_own_row_only(self):
        # No algorithm of a CPU build throws AlgorithmError (only GPU solvers
        # check such invariants); the skeleton's NotImplemented takes the same
        # path: each algorithm gets its row, with its message, in every format.
        probe = run("--gen", "chain:10", "--algo", "lab01/", "--output", "json", binary="sssp")
        if "not implemented yet" not in probe.stdout:
            self.skipTest("labs/lab01_serial is no longer the untouched skeleton")
        names = ["lab01/dijkstra", "lab01/bellman-ford", "lab01/bellman-ford-queue", "lab01/bfs"]
        self.assertEqual(probe.returncode, 1, probe.stderr)
        runs = json.loads(probe.stdout)["runs"]
        self.assertEqual([r["algorithm"] for r in runs], names)
        for r in runs:
            self.assertIn("not implemented yet", r["error"], r)
        proc = run("--gen", "chain:10", "--algo", "lab01/", "--output", "csv", binary="sssp")
        self.assertEqual(proc.returncode, 1, proc.stderr)
        rows = list(csv.DictReader(proc.stdout.splitlines()))
        self.assertEqual([r["algorithm"] for r in rows], names)
        for r in rows:
            self.assertIn("Lab 01, task", r["error"], r)  # a comma inside a quoted field
        proc = run("--gen", "chain:10", "--algo", "lab01/", binary="sssp")
        self.assertEqual(proc.returncode, 1, proc.stderr)
        for name in names:
            self.assertRegex(proc.stdout, rf"{name}\s+0\s+FAILED: Lab 01, task \d is not implemented yet")

    def test_csv_quotes_fields_as_rfc_4180(self):
        with tempfile.TemporaryDirectory() as tmp:
            graph = Path(tmp) / 'roads, "west".gr'
            graph.write_text((TINY / "clrs_dijkstra.gr").read_text())
            proc = run("--graph", graph, "--algo", "lab01/dijkstra", "--output", "csv")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn('"roads, ""west"".gr"', proc.stdout)
        header, *rows = list(csv.reader(proc.stdout.splitlines()))
        self.assertEqual(len(rows), 1)
        self.assertEqual(len(rows[0]), len(header), rows[0])
        self.assertTrue(rows[0][header.index("graph")].endswith('roads, "west".gr'), rows[0])
        self.assertEqual(rows[0][header.index("verified")], "yes")

    def test_outputs_are_written_only_after_the_runs_succeeded(self):
        with tempfile.TemporaryDirectory() as tmp:
            graph_out, dist_out = Path(tmp) / "graph.gr", Path(tmp) / "dist.txt"
            for path in (graph_out, dist_out):
                path.write_text("keep me\n")
            # A bad source fails after the graph was made: the files used to be truncated by then.
            proc = run("--gen", "chain:3", "--source", 5, "--algo", "lab01/bfs", "--write-graph", graph_out,
                       "--write-distances", dist_out)
            self.assertEqual(proc.returncode, 2, proc.stderr)
            self.assertEqual([graph_out.read_text(), dist_out.read_text()], ["keep me\n"] * 2)
            probe = run("--gen", "chain:3", "--algo", "lab01/bfs", binary="sssp")
            if "not implemented yet" in probe.stdout:  # a failed algorithm: nothing written either
                proc = run("--gen", "chain:3", "--algo", "lab01/bfs", "--write-graph", graph_out,
                           "--write-distances", dist_out, binary="sssp")
                self.assertEqual(proc.returncode, 1, proc.stderr)
                self.assertIn(f"--write-graph: {graph_out} not written", proc.stderr)
                self.assertEqual([graph_out.read_text(), dist_out.read_text()], ["keep me\n"] * 2)
            proc = run("--gen", "chain:3", "--algo", "lab01/bfs", "--write-graph", graph_out,
                       "--write-distances", dist_out)
            self.assertEqual(proc.returncode, 0, proc.stderr)
            self.assertEqual(dist_out.read_text(), "0\n1\n2\n")
            self.assertIn("p sp 3 2", graph_out.read_text())
            self.assertEqual(sorted(p.name for p in Path(tmp).iterdir()), ["dist.txt", "graph.gr"],
                             "a temporary file was left behind")

    def test_outputs_other_than_regular_files_are_written_in_place(self):
        with tempfile.TemporaryDirectory() as tmp:
            # A regular file is replaced by a new one, complete (temporary file and rename).
            regular = Path(tmp) / "dist.txt"
            regular.write_text("old\n")
            old_inode = regular.stat().st_ino
            proc = run("--gen", "chain:3", "--algo", "lab01/bfs", "--write-distances", regular)
            self.assertEqual(proc.returncode, 0, proc.stderr)
            self.assertEqual(regular.read_text(), "0\n1\n2\n")
            self.assertNotEqual(regular.stat().st_ino, old_inode)
            # A symlink stays a symlink; its target is written.
            target, link = Path(tmp) / "target.txt", Path(tmp) / "link.txt"
            target.write_text("old\n")
            link.symlink_to(target)
            proc = run("--gen", "chain:3", "--algo", "lab01/bfs", "--write-distances", link)
            self.assertEqual(proc.returncode, 0, proc.stderr)
            self.assertTrue(link.is_symlink())
            self.assertEqual(target.read_text(), "0\n1\n2\n")
            # A FIFO stays a FIFO, and its reader gets the graph.
            fifo = Path(tmp) / "fifo"
            os.mkfifo(fifo)
            reader = subprocess.Popen(["cat", str(fifo)], stdout=subprocess.PIPE, text=True)
            proc = run("--gen", "chain:3", "--algo", "lab01/bfs", "--write-graph", fifo, timeout=30)
            self.assertEqual(proc.returncode, 0, proc.stderr)
            self.assertIn("p sp 3 2", reader.communicate(timeout=30)[0])
            self.assertTrue(stat.S_ISFIFO(os.lstat(fifo).st_mode))
        # The runner's own standard output (what /dev/stdout links to): after the report.
        proc = run("--gen", "chain:3", "--algo", "lab01/bfs", "--write-distances", "/proc/self/fd/1")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertRegex(proc.stdout, r"(?s)verified.*lab01/bfs.*\n0\n1\n2\nlevels of lab01/bfs from source 0 written")

    def test_dense_algorithms_leave_the_default_set_on_larger_graphs(self):
        if "lab05/cpu-naive" not in run("--list").stdout:
            self.skipTest("built without the GPU labs")
        proc = run("--gen", "chain:1001", "--reps", 1, "--warmup", 0, "--output", "json", timeout=600)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertFalse([r for r in json.loads(proc.stdout)["runs"] if r["algorithm"].startswith("lab05/")])
        self.assertIn("left out lab05/cpu-naive", proc.stderr)
        self.assertIn("--algo lab05/cpu-naive", proc.stderr)
        proc = run("--gen", "chain:1001", "--algo", "lab05/cpu-naive", "--reps", 1, "--warmup", 0, "--output",
                   "json")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertTrue(json.loads(proc.stdout)["runs"][0]["verified"])

    def test_nothing_ran_is_an_error(self):
        if "lab05/cpu-naive" not in run("--list").stdout:
            self.skipTest("built without the GPU labs: no algorithm of a CPU build is ever skipped")
        proc = run("--gen", "chain:20001", "--algo", "lab05/", "--reps", 1, "--output", "json")
        self.assertEqual(proc.returncode, 1, proc.stderr)
        self.assertTrue(all("skipped" in r for r in json.loads(proc.stdout)["runs"]))
        self.assertIn("no algorithm ran", proc.stderr)


class BadInput(unittest.TestCase):
    def expect_error(self, args, phrase, files=None):
        with tempfile.TemporaryDirectory() as tmp:
            paths = []
            for name, content in (files or {}).items():
                path = Path(tmp) / name
                if name.endswith(".gz"):
                    path.write_bytes(gzip.compress(content.encode())[: -8])  # truncated stream
                else:
                    path.write_text(content)
                paths.append(path)
            proc = run(*[a.format(*paths) for a in args])
        self.assertEqual(proc.returncode, 2, f"{args}: exit {proc.returncode}\n{proc.stdout}{proc.stderr}")
        self.assertIn(phrase, proc.stderr, f"{args}: message was {proc.stderr!r}")
        self.assertTrue(proc.stderr.startswith("sssp: "), proc.stderr)

    def test_missing_file(self):
        self.expect_error(["--graph", "/nonexistent/graph.gr"], "/nonexistent/graph.gr")

    def test_malformed_file(self):
        self.expect_error(["--graph", "{}"], ":3:", {"bad.gr": "p sp 3 2\na 1 2 5\na 1 x 5\n"})

    def test_count_mismatch(self):
        self.expect_error(["--graph", "{}"], "3", {"short.gr": "p sp 3 3\na 1 2 5\na 2 3 1\n"})

    def test_id_out_of_range(self):
        self.expect_error(["--graph", "{}"], "4", {"range.gr": "p sp 3 1\na 1 4 5\n"})

    def test_absurd_size(self):
        self.expect_error(["--graph", "{}"], "4000000000", {"huge.gr": "p sp 4000000000 1\na 1 2 3\n"})

    def test_truncated_gzip(self):
        self.expect_error(["--graph", "{}"], "gz", {"cut.gr.gz": "p sp 3 2\na 1 2 5\na 2 3 1\n" * 50})

    def test_bad_source(self):
        self.expect_error(["--gen", "chain:10", "--source", "10"], "source vertex 10")

    def test_negative_source(self):
        self.expect_error(["--gen", "chain:10", "--source", "-1"], "--source")

    def test_bad_generator(self):
        self.expect_error(["--gen", "grid:0x5"], "grid:0x5")

    def test_bad_weights(self):
        self.expect_error(["--weights", "9:1"], "9:1")

    def test_unknown_algorithm(self):
        self.expect_error(["--algo", "lab99/magic"], "lab99/magic")

    def test_unknown_option(self):
        self.expect_error(["--frobnicate"], "--frobnicate")

    def test_empty_option_values(self):
        # An unset shell variable used to select the built-in grid.
        for option in ("--graph", "--gen", "--algo", "--cache", "--weights", "--format", "--output"):
            self.expect_error([option, ""], f"{option} needs a value, got an empty string")

    def test_numeric_options_take_digits_only(self):
        # std::stoull took " -3" and wrapped it to 2^64 - 3.
        launch_options = ("--block-size", "--rounds-per-check", "--depth", "--vertices-per-thread", "--delta")
        for option in ("--seed", "--source", "--random-sources", "--reps", "--warmup", "--max-inflation",
                       *(launch_options if gpu_labs_built() else ())):
            for bad in (" -3", "-3", "+3", "3 ", "1e3", "0x10", "18446744073709551616"):
                self.expect_error(["--gen", "chain:3", option, bad], f"{option} needs an integer")
        self.expect_error(["--gen", "chain:3", "--reps", "0"], "--reps needs an integer from 1")
        self.expect_error(["--gen", "chain:3", "--warmup", "100001"], "to 100000")
        # Used to fall back to source 0.
        self.expect_error(["--gen", "chain:3", "--random-sources", "0"], "--random-sources needs an integer from 1")

    def test_launch_option_an_algorithm_does_not_have(self):
        if not gpu_labs_built():
            # The launch options are the labs': a build without the labs that declare them has none.
            self.expect_error(["--algo", "lab01/dijkstra", "--block-size", "64"], "unknown option '--block-size'")
            return
        self.expect_error(["--algo", "lab01/dijkstra", "--block-size", "64"], "lab01/dijkstra has no --block-size")
        # All algorithms by default: lab 01's have no launch parameters.
        self.expect_error(["--depth", "2"], "lab01/dijkstra has no --depth")
        self.expect_error(["--delta", "10"], "lab01/dijkstra has no --delta")

    def test_launch_option_values(self):
        if not gpu_labs_built():
            self.skipTest("built without the GPU labs")
        self.expect_error(["--algo", "lab02/", "--rounds-per-check", "4"],
                          "lab02/frontier-sssp has no --rounds-per-check")
        self.expect_error(["--algo", "lab05/gpu-streams", "--block-size", "64"],
                          "lab05/gpu-streams has no --block-size")
        # Each lab's own check, with the lab's words, before the graph is loaded.
        for args, phrase in ((["lab02/", "--block-size", "0"],
                              "lab02/frontier-sssp refuses --block-size 0: block size must be 1..1024 threads"),
                             (["lab03/", "--block-size", "1025"], "block size must be 1..1024 threads, got 1025"),
                             (["lab04/", "--block-size", "96"], "a power of two from 32 to 1024, got 96"),
                             (["lab06/csr-vector", "--block-size", "48"], "must be a multiple of 32, got 48"),
                             (["lab06/", "--rounds-per-check", "0"], "rounds per check must be at least 1, got 0"),
                             (["lab07/", "--depth", "9"], "lab07/locality refuses --depth 9: depth k must be 1..8"),
                             (["lab07/", "--vertices-per-thread", "3"], "vertices per thread must be 1, 2 or 4, got 3"),
                             (["lab07/", "--delta", "10"], "lab07/locality has no --delta"),
                             (["lab08/", "--delta", "0"], "--delta needs an integer from 1"),
                             (["lab08/near-far", "--block-size", "48"], "lanes per item must be a power of two"),
                             (["lab08/", "--depth", "2"], "lab08/delta-stepping has no --depth"),
                             (["lab08/", "--rounds-per-check", "4"], "lab08/delta-stepping has no --rounds-per-check"),
                             (["lab09/", "--block-size", "64"], "lab09/adds has no --block-size"),
                             (["lab09/", "--delta", "0"], "--delta needs an integer from 1"),
                             (["lab09/", "--delta", str(2**62 + 1)], "ADDS: delta must be at most 2^62")):
            self.expect_error(["--algo", *args], phrase)


    def test_unwritable_output_files(self):
        for option in ("--write-distances", "--write-graph"):
            self.expect_error(["--gen", "chain:3", "--algo", "lab01/bfs", option, "/nonexistent/dir/file"],
                              "/nonexistent/dir/file")

    def test_an_output_that_is_an_input_or_the_other_output(self):
        with tempfile.TemporaryDirectory() as tmp:
            graph = Path(tmp) / "in.gr"
            graph.write_text((TINY / "clrs_dijkstra.gr").read_text())
            link = Path(tmp) / "link.gr"
            link.symlink_to(graph)
            for option in ("--write-distances", "--write-graph"):
                for path in (graph, link):
                    proc = run("--graph", graph, "--algo", "lab01/dijkstra", option, path)
                    self.assertEqual(proc.returncode, 2, proc.stdout + proc.stderr)
                    self.assertIn(f"{option} {path} is the same file as --graph {graph}", proc.stderr)
                    self.assertEqual(graph.read_text(), (TINY / "clrs_dijkstra.gr").read_text())
            # One new path twice, spelled two ways.
            proc = run("--gen", "chain:3", "--algo", "lab01/bfs", "--write-graph", Path(tmp) / "x",
                       "--write-distances", Path(tmp) / "." / "x")
            self.assertEqual(proc.returncode, 2, proc.stderr)
            self.assertIn("are the same file", proc.stderr)
            self.assertFalse((Path(tmp) / "x").exists())

    def test_generator_sizes_are_checked_before_allocating(self):
        # chain:4294967295 was killed by the OOM killer.
        self.expect_error(["--gen", "chain:4294967295"], "4294967295 vertices, more than the limit of 268435456")
        self.expect_error(["--gen", "rmat:29:1"], "536870912 vertices, more than the limit of 268435456")
        memory = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
        if memory > 70 << 30:
            self.skipTest("this machine could hold the 80 GiB graph the memory check is tried with")
        self.expect_error(["--gen", "random:1000:4294967295"], "of physical memory of this machine")

    def test_declared_vertex_count_is_not_trusted(self):
        # 25 bytes declaring 2^28 vertices: 3.67 GB of memory, 1 GiB of cache,
        # and with --random-sources over 400 s.
        with tempfile.TemporaryDirectory() as cache:
            self.expect_error(["--graph", "{}", "--cache", cache, "--random-sources", "1"],
                              "declares 268435456 vertices", {"huge.gr": "p sp 268435456 1\na 1 2 3\n"})
            self.assertEqual(list(Path(cache).iterdir()), [])

    def test_too_few_vertices_with_out_arcs(self):
        self.expect_error(["--graph", "{}", "--random-sources", "2"], "one.gr has only 1",
                          {"one.gr": "p sp 5 1\na 1 2 3\n"})
        self.expect_error(["--graph", "{}", "--random-sources", "1"], "has none", {"none.gr": "p sp 5 0\n"})

    def test_headerless_gr_file(self):
        # Read as SNAP, this PACE file lost half of its arcs.
        self.expect_error(["--graph", "{}"], "missing 'p sp' or 'p tw' header", {"road.gr": "1 2\n2 3\n3 1\n"})

    def test_an_option_given_twice(self):
        self.expect_error(["--gen", "chain:3", "--gen", "chain:4"], "--gen given twice ('chain:3' and 'chain:4')")
        self.expect_error(["--reps=2", "--reps", "3"], "--reps given twice")

    def test_sources_of_ten_digits_reach_the_graph_check(self):
        # Used to be refused as "more than 9 digits" by the bench programs.
        self.expect_error(["--gen", "chain:3", "--source", "4294967296"], "source vertex 4294967296")

    def test_delta_is_64_bits(self):
        if not gpu_labs_built():
            self.skipTest("built without the GPU labs")
        proc = run("--gen", "chain:3", "--algo", "lab08/", "--delta", str(2**40), "--output", "json")
        self.assertNotEqual(proc.returncode, 2, proc.stderr)

    def test_graph_and_gen(self):
        self.expect_error(["--graph", "x", "--gen", "chain:3"], "not both")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--repo", required=True)
    args, rest = parser.parse_known_args()
    BIN, REPO = Path(args.bin), Path(args.repo)
    TINY = REPO / "datasets" / "tiny"
    unittest.main(argv=[sys.argv[0], *rest], verbosity=2)
