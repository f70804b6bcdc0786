#!/usr/bin/env python3
"""The performance item's settings never reach the student's code: a test
program started with SSSP_PERF_* (the graphs, repeats and the seed of the
sources, which grade.py gives the test program only) starts its worker
without them (tests/grader/runtime/rpc/transport.cpp). Checked on lab 01's isolated
test program, whose worker is wrapped here in a shell that writes down the
environment it was given before it runs the real worker.

    python3 -m tests.project.test_perf_isolation --build-dir BUILD
"""
import json
import os
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

from tests.project import harness  # --build-dir and the unittest run

BUILD: Path


class WorkerEnvironment(unittest.TestCase):
    def test_the_worker_does_not_inherit_the_perf_settings(self):
        manifest = json.loads((BUILD / "graded_tests.json").read_text())
        program = next(e["path"] for e in manifest["executables"]
                       if e["lab"] == "lab01_serial" and e["flavour"] == "isolated")
        worker = next(w["path"] for w in manifest["workers"]
                      if w["lab"] == "lab01_serial" and w["flavour"] == "solution")
        with tempfile.TemporaryDirectory() as work:
            seen = Path(work) / "worker-environment.txt"
            wrapper = ["/bin/sh", "-c", f'env > "{seen}"; exec "$0" "$@"', worker]
            env = dict(os.environ, SSSP_WORKER="\n".join(wrapper), SSSP_PERF_SEED="1234567",
                       SSSP_PERF_GRAPHS="grid:8x8", SSSP_PERF_REPEATS="3", SSSP_PERF_WARMUP="1",
                       SSSP_PERF_CALL_COST="1")
            run = subprocess.run([program, "--gtest_filter=Heap.*"], env=env, capture_output=True, text=True,
                                 timeout=300)
            self.assertEqual(run.returncode, 0, run.stdout[-2000:] + run.stderr[-2000:])
            self.assertTrue(seen.exists(), "the wrapped worker never started: the check proved nothing")
            given = seen.read_text()
        self.assertIn("SSSP_WORKER=", given, "the worker's environment was written")
        leaked = [line for line in given.splitlines() if line.startswith("SSSP_PERF_")]
        self.assertEqual(leaked, [], "the worker must not know the performance item's sources or graphs")


if __name__ == "__main__":
    sys.exit(harness.run_with_build_dir(sys.modules[__name__]))
