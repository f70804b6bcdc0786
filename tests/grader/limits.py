"""The caps a graded test process runs under (time, memory, what it writes),
how they are applied, and how a process that ended under them is described.

The memory and file-size caps are set by a small trampoline that then becomes
the test program; the timeout is the Runner's (judging.py). Reports keep at
most OUTPUT_LIMIT characters of a test's output.
"""
from __future__ import annotations

import signal
import sys

OUTPUT_LIMIT = 4000  # characters of a failing test's output kept in reports
MEMORY_LIMIT_MIB = 4096  # default data-segment cap of a test process
TEST_TIMEOUT = 60.0  # default seconds per test: what a student is graded under
# Graded GPU test processes a grading runs at once on its GPU, each with its
# own worker: a process's fixed cost (the sandbox, the worker, a CUDA context)
# overlaps the others' solving. Contexts on one GPU take turns, so code that
# reads back after every launch runs many times slower beside others (lab 08's
# Chen tests: 2.9 s alone, 34.6 s as one of four), yet one process at a time,
# with the sanitizer item after the tests, was slower for labs 03 and 05-08
# (H200, 2026-11-30; docs/results/grading-time.md). A rubric's "gpu_jobs"
# changes it for its lab. The course's mutants are proven caught with
# as many at once (check_mutants --gpu-jobs 4, five runs in a row); a test
# that times the GPU runs alone (the rubric's "gpu_alone").
GPU_TEST_JOBS = 4
# Graded tests a test process runs, one after another, with one worker and
# one CUDA context: each process costs 0.3-0.6 s before its first test (the
# sandbox, the worker, the context; lab 08 on an H200), more than most tests
# take. A test that does not pass in its batch runs again in a process of its
# own, and that run decides it, unless it ended the process while it ran
# first there, as alone (judging.Runner.run_batch).
TESTS_PER_PROCESS = 4
FILE_SIZE_LIMIT = 64 << 20  # bytes a test process may write to one file (its output included)

# Sets the limits of a test process, then becomes it. A trampoline rather than
# subprocess's preexec_fn, which is not safe in the grader's worker threads.
# RLIMIT_DATA rather than RLIMIT_AS: CUDA reserves far more address space than
# it uses, and caps on the data segment leave cudaMalloc, pinned and managed
# memory working (checked on an H100).
_EXEC_WITH_LIMITS = """
import os, resource, sys
data, size = int(sys.argv[1]), int(sys.argv[2])
if data:
    resource.setrlimit(resource.RLIMIT_DATA, (data, data))
resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))
os.execv(sys.argv[3], sys.argv[3:])
"""

SIGNAL_HINTS = {
    signal.SIGSEGV: "an invalid memory access: an index out of bounds or a dangling pointer",
    signal.SIGABRT: "abort(): a failed assert, or heap corruption found by malloc (a write out of bounds)",
    signal.SIGFPE: "an arithmetic error, such as an integer division by zero",
    signal.SIGXFSZ: f"it wrote more than {FILE_SIZE_LIMIT >> 20} MiB of output",
    signal.SIGKILL: "killed from outside, for example by the system running out of memory",
}


def limited_command(memory_mib: int, argv: list[str], file_size: int = FILE_SIZE_LIMIT) -> list[str]:
    """The command that runs `argv` with a data segment of at most
    `memory_mib` MiB (0: no cap) and files of at most `file_size` bytes. The
    caps hold for every process it starts too."""
    return [sys.executable, "-I", "-S", "-c", _EXEC_WITH_LIMITS, str(memory_mib << 20), str(file_size), *argv]


def cut(text: str, limit: int = OUTPUT_LIMIT) -> str:
    """`text`, or its first `limit` characters and a note that it was cut."""
    return text if len(text) <= limit else text[:limit] + "\n... (output cut)"


def how_it_ended(returncode: int) -> str:
    """Why a test process with this exit status ended early (negative: the signal that killed it)."""
    if returncode < 0:
        sig = signal.Signals(-returncode)
        hint = SIGNAL_HINTS.get(sig)
        return f"it was killed by signal {-returncode} ({sig.name}" + (f": {hint})" if hint else ")")
    return (f"it exited with status {returncode} in the middle of the test: the code under test must "
            "not end the program (exit, _Exit, abort)")
