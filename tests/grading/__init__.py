"""The parts of tests/grade.py, the course's autograder, one concern each:

    cli        the command line: its options, the order of the steps, the exit status
    pipeline   grade(): lab by lab, the programs to run, built and scored
    intake     what grading takes in: a submission's files, the labs edited
               by hand, an instructor's hidden-graph directory
    build      the course's trusted build, and a lab's worker compiled from
               the student's files in the sandbox, under the compile's caps
    limits     the caps a test process runs under, and how one ended
    judging    the Runner: one test per process, judged from GoogleTest's XML
               report and the exit status, never from what was printed
    sanitizer  a GPU lab's compute-sanitizer item
    perf       a GPU lab's performance item: its plan, the timed runs, their arithmetic
    perf_handout  the speed block of each handout, written from the item's rubric and runs
    plot       the performance item's plot (where matplotlib is installed)
    scoring    a lab's results from its rubric: every graded item, run or not
    reports    the console table, results.json (Gradescope) and JUnit XML
    model      the errors and records the others pass between them
    slurm      grade_bulk.py --slurm: the job array's script, sbatch, squeue, why a task ended

The modules import tests/lab_data.py and tests/sandbox.py, so tests/ must be
on sys.path (grade.py puts it there). Tests replace a step (build.configure,
build.build_student_worker, pipeline.gpu_present, ...) in its own module: the
callers look it up there.
"""
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]  # the course repository
