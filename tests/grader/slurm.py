"""grade_bulk.py --slurm: the job array that grades a class on a Slurm
cluster, one GPU per array task (--gres=gpu:1), and how the tool follows it.

The tool writes OUT/slurm/grade-STAMP.sbatch (kept beside the results, to
read or resubmit by hand) and the plan it runs (plan-STAMP.json: which
submissions each task grades), submits it with sbatch, and polls squeue
until no task is left. Each task runs grade_bulk.py --slurm-task PLAN, which
grades its submissions one after another with grade.py into OUT/NAME/, as on
one GPU of a local host, its output in OUT/slurm/grade-STAMP-JOB_TASK.log.
OUT and the course's build must be on a file system every node sees.

A task that ends without a report for a submission (killed, timed out, its
node lost) leaves that submission an error whose note says why: Slurm's
state of the task (sacct where the cluster keeps accounting, else scontrol)
and the message slurmstepd writes into the task's log (CANCELLED ... DUE TO
TIME LIMIT). A rerun resubmits only what is not cleanly graded; a rerun
while the job of an earlier one is still queued first waits for that job
(OUT/slurm/job.json names it).
"""
from __future__ import annotations

import argparse
import shlex
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable

from . import REPO


class SlurmError(Exception):
    """sbatch refused the job, or is not there."""


def add_options(parser: argparse.ArgumentParser) -> None:
    """grade_bulk.py's Slurm options."""
    group = parser.add_argument_group("Slurm", "grade as a job array on a Slurm cluster (this module's docstring)")
    group.add_argument("--slurm", action="store_true", help="submit a job array, wait for it, collect the results")
    group.add_argument("--per-task", type=int, default=1, metavar="N",
                       help="submissions one array task grades, one after another (default 1)")
    group.add_argument("--time", default="1:00:00", help="each task's time limit, sbatch --time (default 1:00:00)")
    group.add_argument("--gres", default="gpu:1",
                       help="the GPU each task gets, sbatch --gres (default gpu:1; 'none': no --gres)")
    group.add_argument("--partition", help="sbatch --partition")
    group.add_argument("--exclusive", action="store_true",
                       help="sbatch --exclusive: each task alone on its node (no other job beside the timing)")
    group.add_argument("--max-running", type=int, metavar="N", help="at most N tasks at once (--array=...%%N)")
    group.add_argument("--sbatch-option", action="append", default=[], metavar="OPTION",
                       help="a further sbatch option for the script, e.g. --sbatch-option=--account=cs101")
    group.add_argument("--poll", type=float, default=30.0, metavar="SECONDS",
                       help="seconds between squeue polls (default 30)")


def script_text(args: argparse.Namespace, plan: Path, tasks: int, log: Path, assignment: str) -> str:
    """The sbatch script: the options in #SBATCH lines, then one command."""
    options = [f"--job-name=grade-{assignment}",
               f"--array=0-{tasks - 1}" + (f"%{args.max_running}" if args.max_running else ""),
               f"--output={log}", f"--time={args.time}"]
    if args.gres != "none":
        options.append(f"--gres={args.gres}")
    if args.partition:
        options.append(f"--partition={args.partition}")
    if args.exclusive:
        options.append("--exclusive")
    options += args.sbatch_option
    command = [sys.executable, str(REPO / "tests" / "grade_bulk.py"), "--slurm-task", str(plan)]
    return "\n".join([
        "#!/bin/bash",
        f"# Written by tests/grade_bulk.py --slurm: grades {assignment} submissions, each array task those",
        f"# its entry of {plan.name} names, one after another with tests/grade.py on the one GPU Slurm",
        "# gives it (CUDA_VISIBLE_DEVICES). Reports go to OUT/<submission>/; sbatch this file to rerun it",
        "# as it is, or rerun grade_bulk.py --slurm to grade only what is not cleanly graded.",
        *(f"#SBATCH {option}" for option in options),
        "",
        "exec " + shlex.join(command),
        ""])


def submit(script: Path) -> str:
    """Submits `script`; its job ID."""
    try:
        done = subprocess.run(["sbatch", "--parsable", str(script)], capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.SubprocessError) as error:
        raise SlurmError(f"sbatch could not run: {error}") from None
    if done.returncode != 0:
        raise SlurmError(f"sbatch refused {script}: {done.stderr.strip() or done.stdout.strip()}")
    return done.stdout.strip().split(";")[0]  # "JOBID" or "JOBID;CLUSTER"


def queued(job: str) -> bool | None:
    """Whether any task of `job` is still pending or running; None where squeue could not say."""
    try:
        done = subprocess.run(["squeue", "--noheader", "--jobs", job, "--format=%i"], capture_output=True,
                              text=True, timeout=120)
    except (OSError, subprocess.SubprocessError):
        return None
    if done.returncode != 0:
        # A job gone from the controller's memory (MinJobAge) is an invalid ID: it is over.
        return False if "Invalid job id" in done.stderr else None
    return bool(done.stdout.strip())


def wait(job: str, poll: float, on_poll: Callable[[], None]) -> None:
    """Waits until no task of `job` is queued, calling `on_poll` after each look."""
    while True:
        state = queued(job)
        on_poll()
        if state is False:
            return
        if state is None:
            print(f"squeue could not tell about job {job}: trying again in {poll:g} s", flush=True)
        time.sleep(poll)


def task_state(job: str, task: int) -> str:
    """Slurm's state of task `task` of `job` (TIMEOUT, FAILED, ...): from sacct
    where the cluster keeps accounting, else from the controller while it
    still remembers the job (scontrol, MinJobAge); "" where neither knows."""
    looks = (["sacct", "--noheader", "--parsable2", "--allocations", "--jobs", f"{job}_{task}", "--format=State"],
             ["scontrol", "--oneliner", "show", "job", f"{job}_{task}"])
    for command in looks:
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=60)
        except (OSError, subprocess.SubprocessError):
            continue
        words = done.stdout.split() if done.returncode == 0 else []
        if command[0] == "scontrol":
            words = [w.split("=", 1)[1] for w in words if w.startswith("JobState=")]
        if words:
            return words[0]
    return ""


def why_ended(job: str, task: int, log: Path) -> str:
    """Why task `task` of `job` ended without a report for a submission it was given."""
    state = task_state(job, task)
    try:
        text = log.read_text(errors="replace")[-20000:]
    except OSError:
        text = ""
    where = f"Slurm task {job}_{task} (log: {log})"
    if state == "TIMEOUT" or "DUE TO TIME LIMIT" in text:
        return f"timed out: {where} hit its time limit (--time, shared by its --per-task submissions)"
    if state.startswith("CANCELLED") or "CANCELLED AT" in text:
        return f"cancelled: {where}"
    return f"ended without a report ({state or 'state unknown'}): {where}"
