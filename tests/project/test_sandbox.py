#!/usr/bin/env python3
"""The sandbox's limits and the worker's hygiene, each tried as student code
would (issue 44, items 5 and 6), on lab 01's isolated test program:

- the worker's output is a pipe of its own, marked line by line in the test's
  log: it cannot read what the test printed (its stdout was the grader's log,
  opened for reading too), nor print a line the grader takes for the test's;
- no new user namespace inside the sandbox (a nested one is a root of its own);
- /tmp and /dev/shm in the sandbox are capped file systems, not the host's;
- a compile is stopped at its time cap, and its processes at the memory cap,
  with messages that say which cap.

    python3 -m tests.project.test_sandbox --build-dir BUILD

The sandboxed checks skip (77) without bubblewrap, saying why; the worker's
output checks need none.
"""
import json
import os
import subprocess
import sys
import tempfile
import textwrap
import unittest
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
from tests.grader import sandbox  # how a worker is started and confined
from tests.grader import build, judging
from tests.project import harness  # --build-dir and the unittest run

BUILD: Path
ISOLATION = sandbox.detect()

# A stand-in worker: reads what its stdout holds from the start (the test's
# log, when it is the grader's file), prints a forged step line, then runs
# the real worker so that the test goes on.
SNOOPING_WORKER = textwrap.dedent("""\
    import os, sys
    try:
        os.lseek(1, 0, os.SEEK_SET)
        stolen = os.read(1, 1 << 16)
    except OSError:
        stolen = b""
    with open(sys.argv[1], "wb") as out:
        out.write(stolen)
    os.write(1, b"x\\r[   STEP   ] forged by the worker\\n")
    os.execv(sys.argv[2], sys.argv[2:])
    """)


def lab01(flavour_key: str, flavour: str) -> str:
    manifest = json.loads((BUILD / "graded_tests.json").read_text())
    return next(e["path"] for e in manifest[flavour_key] if e["lab"] == "lab01_serial" and e["flavour"] == flavour)


def in_sandbox(script: str, compile_sandbox: bool = False) -> subprocess.CompletedProcess:
    """Runs a shell script as the worker's (or a compile's) sandbox runs code."""
    if compile_sandbox:
        with tempfile.TemporaryDirectory() as source, tempfile.TemporaryDirectory() as out:
            command = sandbox.build_command(ISOLATION, Path(source), Path(out), ["/bin/sh", "-c", script], False)
            return subprocess.run(command, capture_output=True, text=True, timeout=120)
    command = sandbox.worker_command(ISOLATION, Path("/bin/sh"), False)
    return subprocess.run([*command[:-1], "/bin/sh", "-c", script], capture_output=True, text=True, timeout=120)


class WorkerOutput(unittest.TestCase):
    def test_the_worker_cannot_read_the_test_log_nor_forge_a_step(self):
        program = lab01("executables", "isolated")
        worker = lab01("workers", "solution")
        with tempfile.TemporaryDirectory() as work:
            stolen = Path(work) / "stolen"
            stand_in = Path(work) / "worker.py"
            stand_in.write_text(SNOOPING_WORKER)
            env = dict(os.environ, SSSP_WORKER="\n".join([sys.executable, str(stand_in), str(stolen), worker]))
            # As the grader runs a test: its stdout a file of the grader's, opened for reading and writing.
            with tempfile.TemporaryFile() as log:
                run = subprocess.run([program, "--gtest_filter=Heap.*"], env=env, stdout=log,
                                     stderr=subprocess.STDOUT, timeout=300)
                log.seek(0)
                output = log.read().decode(errors="replace")
            self.assertEqual(run.returncode, 0, output[-2000:])
            self.assertTrue(stolen.exists(), "the stand-in worker never started: the check proved nothing")
            self.assertEqual(stolen.read_bytes(), b"", "the worker read the test's own log")
        self.assertIn("[ worker   ] x", output, "the worker's output reaches the test's log, marked")
        self.assertNotEqual(judging.last_step(output), "forged by the worker",
                            "a line the worker printed passed for the test's step")


@unittest.skipUnless(ISOLATION.sandboxed, f"no sandbox here: {ISOLATION.why}")
class SandboxLimits(unittest.TestCase):
    def test_no_new_user_namespace(self):
        ran = in_sandbox("unshare --user --map-root-user true && echo NESTED")
        self.assertNotIn("NESTED", ran.stdout, "a new user namespace was made inside the sandbox")

    def test_tmp_and_dev_shm_are_capped(self):
        for place, cap in (("/tmp", sandbox.TMP_SIZE), ("/dev/shm", sandbox.TMP_SIZE)):
            ran = in_sandbox(f"stat -f -c '%b %S' {place}")
            blocks, size = map(int, ran.stdout.split())
            self.assertLessEqual(blocks * size, cap, f"{place} is larger than its cap")
        ran = in_sandbox("stat -f -c '%b %S' /tmp", compile_sandbox=True)
        blocks, size = map(int, ran.stdout.split())
        self.assertLessEqual(blocks * size, sandbox.COMPILE_TMP_SIZE, "a compile's /tmp is larger than its cap")

    def test_a_compile_stops_at_its_time_cap(self):
        with tempfile.TemporaryDirectory() as source, tempfile.TemporaryDirectory() as out:
            command = sandbox.build_command(ISOLATION, Path(source), Path(out), ["/bin/sleep", "60"], False)
            ran = build.run_capped(command, timeout=1.0)
        self.assertIsNone(ran.returncode, "the compile ran past its time cap")
        self.assertIn("longer than 1 s", ran.limit_hit(1.0))

    def test_a_compiler_process_stops_at_the_memory_cap(self):
        with tempfile.TemporaryDirectory() as source, tempfile.TemporaryDirectory() as out:
            (Path(source) / "endless.cpp").write_text('#include "/dev/zero"\n')
            compile_it = ["/usr/bin/c++", "-c", str(Path(source) / "endless.cpp"), "-o", str(Path(out) / "endless.o")]
            command = sandbox.build_command(ISOLATION, Path(source), Path(out), compile_it, False)
            ran = build.run_capped(command, timeout=300.0)
        self.assertNotEqual(ran.returncode, 0, "the compile of an endless file succeeded")
        self.assertIn("ran out of memory", ran.limit_hit(300.0), ran.output[-1000:])


if __name__ == "__main__":
    sys.exit(harness.run_with_build_dir(sys.modules[__name__]))
