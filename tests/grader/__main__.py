#!/usr/bin/env python3
"""Build the labs and grade them: run every graded test, print a score table,
and write Gradescope results.json and JUnit XML.

    python3 tests/grade.py                    build in ./build, grade your labs/
    python3 tests/grade.py --lab lab01_serial grade one lab
    python3 tests/grade.py --hidden-graphs DIR   instructors: add hidden graphs
    python3 tests/grade.py --flavour solution    grade the reference solutions
    python3 tests/grade.py --build-gpu-labs      build the GPU tests on a machine without a GPU
    python3 tests/grade.py --submission DIR      instructors: grade a student's submitted lab files
    python3 tests/grade.py --no-sanitize         leave out the compute-sanitizer items (on with a GPU)
    python3 tests/grade.py --lab LAB --perf-only time the lab's solver against the reference only
    python3 tests/grade.py --in-process          debugging: the test programs that link your code
    python3 tests/grade.py --build-only --lab LAB   instructors: build once for runs with --no-build
                                                 and a --work-dir each (tests/grade_bulk.py)

The lab's code never runs inside a graded test program. Each test program
holds the tests and the course's support only and calls the lab through a
worker process (tests/grader/runtime/rpc) built from the lab's files and run in a
bubblewrap sandbox (tests/grader/sandbox.py): whatever the worker answers is data
the test checks, and the worker cannot reach the test's verdict, report or
timer. Where bubblewrap cannot run, the worker still runs apart, unsandboxed,
and the report says so (grading for a platform then stops unless
--allow-unsandboxed). --in-process runs the test programs that link the
lab's code instead, as gdb, cuda-gdb and compute-sanitizer see them: for
debugging, never for grading a submission. Either way the lab's code could
reach its own results, so such a run is no grade: results.json starts with
NOT A GRADE and has a score of 0 (the tests' points kept for reference).
The reports are written last, each whole, after every process grading
started is stopped (one left behind in a session of its own included).

Only what grading needs is built: the course's test support and, per lab,
the graded test programs of the flavour graded (for a student: labs/, never
the solutions or mutants). On a machine without an NVIDIA GPU the GPU test
programs are neither built nor run (their tests could only skip): their tests
are listed as skipped for "no GPU", and the CPU tests of every lab are graded.

Each lab is built on its own: a lab that does not compile scores 0, with the
compiler's messages in the reports, and the other labs are still graded. The
tests run a few to a process; one that does not pass there runs again in a
process of its own, in an empty scratch directory, with a timeout and a memory
cap, so a crash or an endless loop costs that test only. A test passes only
when GoogleTest's XML report, written to a fresh unpredictable path, names it
as run without failure and the process ends as GoogleTest ends it: what the
code under test prints cannot pass or skip a test. Points and visibility come from
each lab's tests/<lab>/rubric.json (read by tests/grader/lab_data.py).

Each GPU lab also has a compute-sanitizer item (the "sanitizer" entry of
tests/<lab>/rubric.json: its points and a small named set of its GPU tests):
those tests run under compute-sanitizer memcheck, racecheck and synccheck, in
the build graded, and the item passes only when the sanitizer exits 0 at
every run (recorded outside the sandbox), its log reports no error or hazard
(the log can fail the item, never pass it: the worker could rewrite it), and
GoogleTest's report has every test of the set passed. It is on by default where a GPU is found
(--sanitize, --no-sanitize); without a GPU or without compute-sanitizer (PATH,
/usr/local/cuda/bin) it is listed as skipped with the reason, like a test.

Each GPU lab also has a performance item (the "perf" entry of its rubric:
points, graphs, repeats, the scale): after the tests, the lab's Perf.* tests
time the student's worker and the reference solution's worker, in the same
sandbox, alternating rounds with the same random sources, by the test
program's own clock around each call, every answer checked, and the worker's
CPU time read from /proc (tests/grader/perf.py).
The item earns its points in parts and shows a table and a plot
(BUILD/grading/perf-<lab>.svg, where matplotlib is found). --no-perf leaves it
out; without a GPU, or without the reference solutions (the student release),
it is skipped with the reason.

A test may skip only for a reason the course defines (no GPU, a dataset
missing, no hidden graphs); the table lists each with its reason. On your own
machine skipped tests count toward neither score nor maximum. When grading for
a platform (an explicit --results-json) skipped graded tests are an error,
because the platform's total would silently shrink: exit status 2 and a
message in results.json, unless --allow-skips accepts them.

Exit status: 0 when grading completed (whatever the score); 2 when it could
not (the course's shared code failed to build, rubric and tests disagree, a
bad hidden-graph directory, or skips without --allow-skips when grading for a
platform). With --expect zero or --expect full (used by the project's own
tests), 1 when the result differs, and 77 (skipped) when no graded test could
run here (all skipped, or only labs edited by hand, a student's work, left to
check with --expect zero).
"""
from __future__ import annotations

import sys

from . import cli


def main(argv: list[str]) -> int:
    """Grades as `argv` asks; returns the exit status described above."""
    return cli.main(argv, __doc__)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
