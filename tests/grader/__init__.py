"""The course's autograder, one package (the grader's wing of tests/), one
concern a module:

    __main__   the grading command: python3 -m tests.grader from the root, or
               its thin entry python3 tests/grade.py from anywhere
    bulk       many submissions of one assignment (tests/grade_bulk.py)
    gradescope  the Gradescope entry (run_autograder, setup.sh) and the zip's builder
    lab_data   each lab's rubric.json and mutants.json: the one loader, and the lab list
    sandbox    the bubblewrap sandbox where the student's code is compiled and runs
    cli        the command line: its options, the order of the steps, the exit status
    pipeline   grade(): lab by lab, the programs to run, built and scored
    intake     what grading takes in: a submission's files, the labs edited
               by hand, an instructor's hidden-graph directory
    build      the course's trusted build, and a lab's worker compiled from
               the student's files in the sandbox, under the compile's caps
    limits     the caps a test process runs under, and how one ended
    judging    the Runner: a few tests per process, each not passed run again
               alone, judged from GoogleTest's XML report and the exit
               status, never from what was printed
    sanitizer  a GPU lab's compute-sanitizer item
    perf       a GPU lab's performance item: its plan, the timed runs, their arithmetic
    perf_handout  the speed block of each handout, written from the item's rubric and runs
    plot       the performance item's plot (where matplotlib is installed)
    scoring    a lab's results from its rubric: every graded item, run or not
    reports    the console table, results.json (Gradescope) and JUnit XML
    model      the errors and records the others pass between them
    slurm      bulk's --slurm: the job array's script, sbatch, squeue, why a task ended

Beside the modules, runtime/rpc/ holds the C++ worker runtime (CMake's
sssp_rpc libraries): the worker process a lab's code is built into, and the
pipe through which the graded test programs call it.

The modules import one another relatively, so the package is the same
whether it is imported as `tests.grader` (python3 -m, the project's checks,
from the root) or as `grader` (tests/grade.py and tests/grade_bulk.py, run as
scripts: their folder tests/ is where Python looks first). Tests replace a step (build.configure,
build.build_student_worker, pipeline.gpu_present, ...) in its own module: the
callers look it up there.
"""
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]  # the course repository
