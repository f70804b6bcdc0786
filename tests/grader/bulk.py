#!/usr/bin/env python3
"""Grade many submissions of one assignment, each as tests/grade.py
--submission grades one: its code compiled and run in a fresh sandbox, from
the course's pristine worker build (nothing one submission compiled or left
is seen by the next), its results written apart. One at a time, one per GPU
of this host at a time (--gpus), or as a Slurm job array (--slurm).

    python3 tests/grade_bulk.py --assignment lab01_serial --submissions DIR --out DIR
                                [--gpus all|0,1,...] [--slurm [Slurm options]]
                                [--hidden-graphs DIR] [--build-dir BUILD] [grade.py options...]

DIR holds one directory per submission (a Gradescope export, or one folder
per student); files at its top level (submission_metadata.yml) are skipped.
For each submission NAME, OUT/NAME/ gets results.json, junit.xml, grade.log
and bulk.json (what was graded, its files' hash, the host and GPU, the time
taken); OUT/summary.csv lists every submission's score, maximum, status
("graded", "incomplete" or "error" with grade.py's exit status) and GPU.
Further options are passed to grade.py (e.g. --allow-skips, --timeout).

The course's build is built once (grade.py --build-only; skipped with
--no-build) and then only read: every grading run gets --no-build and a
work directory of its own (OUT/.work/SLOT: the submission's staged files and
its sandboxed worker build), so runs at the same time share nothing they write.

--gpus grades one submission per GPU at a time, each grade.py run seeing
only its GPU (CUDA_VISIBLE_DEVICES), so its performance item runs on a GPU
nothing else of this tool uses meanwhile; other users' jobs on those GPUs
are the instructor's to keep away. "all" takes CUDA_VISIBLE_DEVICES where
set, else every GPU nvidia-smi -L lists; indices are CUDA_VISIBLE_DEVICES's
positions where it is set. Without --gpus, or without a GPU, one at a time
as before (the GPU tests skip, with the reason).

Reruns are resumable: a submission is graded again only when it has no
clean grade (grade.py exit status 0) from its current files and options;
delete OUT/NAME to regrade one anyway. --slurm: see tests/grader/slurm.py.

Exit status: 0 when every submission was graded, 1 when any was not
(see its grade.log), 2 on bad arguments.
"""
from __future__ import annotations

import argparse
import csv
import fcntl
import hashlib
import json
import os
import queue
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from . import slurm  # the --slurm mode

from . import REPO
GRADE_PY = [sys.executable, str(REPO / "tests" / "grade.py")]
RECORD = "bulk.json"  # per submission, beside its reports: what was graded, where, how it ended
WORK = ".work"  # under OUT: one work directory per grading slot (GPU, or Slurm array task)
# grade.py options this tool sets per run: passing them too would make the runs share a file.
OWN_OPTIONS = ("--submission", "--results-json", "--junit", "--work-dir", "--build-only", "--lab")


@dataclass(frozen=True)
class Submission:
    """A submission directory, and the hash of its files and the grading options."""
    name: str
    path: Path
    digest: str


@dataclass(frozen=True)
class Gpu:
    """A GPU a grading run is given: its CUDA_VISIBLE_DEVICES value and UUID (where known)."""
    visible: str
    uuid: str = ""


@dataclass(frozen=True)
class Settings:
    """What every grading run of this call shares."""
    assignment: str
    build_dir: str
    out: Path
    grader: list[str]  # the grading command (grade.py; the tests put a stand-in here)
    passed_on: list[str]  # grade.py options from the command line


def submission_digest(path: Path, options: list[str]) -> str:
    """SHA-256 of every file under `path` (names and contents, links as their
    target, nothing followed) and of the grading options: a rerun regrades a
    submission whose files or options changed."""
    digest = hashlib.sha256(json.dumps(options).encode() + b"\0")
    for item in sorted(path.rglob("*")):
        relative = str(item.relative_to(path)).encode()
        if item.is_symlink():
            digest.update(b"L" + relative + b"\0" + os.readlink(item).encode() + b"\0")
        elif item.is_file():
            content = item.read_bytes()
            digest.update(b"F" + relative + b"\0" + str(len(content)).encode() + b"\0" + content)
    return digest.hexdigest()


def score_of(results: Path) -> tuple[float, float, bool]:
    """The score and maximum a results.json adds up to (Gradescope totals its
    tests, or takes its top-level score where there is one), and whether it
    is a grade (a run without the sandbox is not: reports.py)."""
    try:
        report = json.loads(results.read_text())
        tests = report.get("tests", [])
    except (OSError, ValueError, AttributeError):
        return 0.0, 0.0, False
    maximum = sum(t.get("max_score", 0) for t in tests)
    score = report.get("score", sum(t.get("score", 0) for t in tests))
    return score, maximum, not report.get("extra_data", {}).get("not_a_grade", False)


def read_record(out: Path, name: str) -> dict | None:
    """OUT/NAME/bulk.json, or None where there is none (or a torn one)."""
    try:
        return json.loads((out / name / RECORD).read_text())
    except (OSError, ValueError):
        return None


def write_record(out: Path, name: str, record: dict) -> None:
    """Writes OUT/NAME/bulk.json whole (a collector may read it meanwhile)."""
    path = out / name / RECORD
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{RECORD}.{os.getpid()}")
    partial.write_text(json.dumps(record, indent=1) + "\n")
    partial.replace(path)


def needs_grading(out: Path, submission: Submission) -> bool:
    """Whether `submission` lacks a clean grade of its current files and options."""
    record = read_record(out, submission.name)
    return not (record and record.get("digest") == submission.digest and record.get("exit_status") == 0)


def error_record(submission: Submission, note: str) -> dict:
    """The record of a submission whose grading ended without a report."""
    return {"submission": submission.name, "digest": submission.digest, "score": 0, "max_score": 0,
            "status": "error", "exit_status": None, "note": note, "gpu": "", "gpu_uuid": "", "host": "",
            "seconds": 0}


def gpu_uuids() -> dict[str, str]:
    """nvidia-smi -L's GPUs: index and UUID, each mapped to the UUID (empty without nvidia-smi)."""
    try:
        listed = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.SubprocessError):
        return {}
    found = {}
    for line in listed.splitlines():  # GPU 0: NVIDIA H200 (UUID: GPU-0f1e...)
        if line.startswith("GPU ") and "(UUID: " in line:
            index, uuid = line[4:line.index(":")], line.split("(UUID: ", 1)[1].rstrip(")")
            found[index] = found[uuid] = uuid
    return found


def discover_gpus(spec: str | None, environ: dict[str, str], uuids: dict[str, str]) -> list[Gpu | None]:
    """The GPUs --gpus names, one grading slot each; [None] (one slot, the
    environment as it is) without --gpus or where no GPU is found. Entries of
    CUDA_VISIBLE_DEVICES may be indices or UUIDs; where it is set, --gpus
    indices are positions in it, as CUDA numbers the GPUs it shows."""
    if spec is None:
        return [None]
    visible = [v.strip() for v in environ.get("CUDA_VISIBLE_DEVICES", "").split(",") if v.strip()]
    if spec == "all":
        names = visible or sorted({k for k in uuids if not k.startswith("GPU-")}, key=int)
        if not names:
            print("--gpus all: no GPU found (nvidia-smi -L, CUDA_VISIBLE_DEVICES): grading one at a time, "
                  "the GPU tests skipped", flush=True)
            return [None]
    else:
        names = [n.strip() for n in spec.split(",") if n.strip()]
        if visible:
            try:
                names = [visible[int(n)] for n in names]
            except (ValueError, IndexError):
                raise ValueError(f"--gpus {spec}: CUDA_VISIBLE_DEVICES={','.join(visible)} shows "
                                 f"{len(visible)} GPUs, numbered from 0") from None
    if len(set(names)) != len(names):
        raise ValueError(f"--gpus {spec} names a GPU twice: one submission per GPU at a time")
    return [Gpu(name, uuids.get(name, "")) for name in names]


def grade_one(settings: Settings, submission: Submission, gpu: Gpu | None, work: Path) -> dict:
    """Grades `submission` with the grading command, on `gpu` only (None: the
    GPUs this process sees), in the work directory `work`; writes its
    reports, grade.log and bulk.json under OUT/NAME/ and returns the record.
    A grader that crashes or cannot start is that submission's error."""
    out = settings.out / submission.name
    out.mkdir(parents=True, exist_ok=True)
    for stale in (RECORD, "results.json", "junit.xml"):  # a previous run's must not pass for this one's
        (out / stale).unlink(missing_ok=True)
    passed_on = [option for option in settings.passed_on if option != "--no-build"]
    command = [*settings.grader, "--build-dir", settings.build_dir, "--submission", str(submission.path),
               "--lab", settings.assignment, "--results-json", str(out / "results.json"),
               "--junit", str(out / "junit.xml"), "--work-dir", str(work), "--no-build", *passed_on]
    env = dict(os.environ)
    if gpu is not None:
        env["CUDA_VISIBLE_DEVICES"] = gpu.visible
    host = socket.gethostname()
    where = f"GPU {gpu.visible}" + (f" ({gpu.uuid})" if gpu.uuid else "") if gpu else "the GPUs in view, if any"
    note = ""
    started = time.time()
    with open(out / "grade.log", "w") as log:
        log.write(f"grade_bulk.py: {submission.name} graded on {host}, {where}, in {work}\n")
        log.flush()
        try:
            status = subprocess.run(command, stdout=log, stderr=subprocess.STDOUT, env=env).returncode
            if status < 0:
                note = f"the grader was killed by signal {-status}"
        except OSError as error:
            status, note = 127, f"the grader could not start: {error}"
    score, maximum, a_grade = score_of(out / "results.json")
    state = "graded" if status == 0 else ("incomplete" if (out / "results.json").exists() else "error")
    if status == 0 and not a_grade:
        state = "not a grade (no sandbox)"
    record = {"submission": submission.name, "digest": submission.digest, "score": score, "max_score": maximum,
              "status": state, "exit_status": status, "note": note, "gpu": gpu.visible if gpu else "",
              "gpu_uuid": gpu.uuid if gpu else "", "host": host, "seconds": round(time.time() - started, 1)}
    write_record(settings.out, submission.name, record)
    return record


class Progress:
    """A line per finished submission: its score, the counts so far and the ETA."""

    def __init__(self, total: int, already: int) -> None:
        self.total, self.done, self.to_grade = total, already, total - already
        self.finished, self.failed = 0, 0
        self.started = time.monotonic()
        self.lock = threading.Lock()

    def report(self, record: dict) -> None:
        with self.lock:
            self.done += 1
            self.finished += 1
            self.failed += record["exit_status"] != 0
            left = self.to_grade - self.finished
            # The rate so far includes the parallelism: finished submissions per second of wall time.
            eta = (time.monotonic() - self.started) / self.finished * left
            where = f" on GPU {record['gpu']}" if record["gpu"] else ""
            why = f": {record['note']}" if record["note"] else ""
            print(f"[{self.done}/{self.total}] {record['submission']}: {record['score']:g} / "
                  f"{record['max_score']:g} ({record['status']}{why}){where} in {record['seconds']:.0f} s; "
                  f"{self.finished - self.failed} graded, {self.failed} not; {left} left, "
                  f"ETA {eta / 60:.1f} min", flush=True)


def grade_locally(settings: Settings, submissions: list[Submission], gpus: list[Gpu | None],
                  on_done: Callable[[dict], None]) -> None:
    """Grades `submissions`, one per GPU slot at a time: a thread per slot
    takes the next submission when its last one is done, so no two share a
    GPU or a work directory, and every slot is kept busy."""
    todo: queue.SimpleQueue[Submission] = queue.SimpleQueue()
    for submission in submissions:
        todo.put(submission)

    def slot(gpu: Gpu | None, work: Path) -> None:
        while True:
            try:
                submission = todo.get_nowait()
            except queue.Empty:
                return
            on_done(grade_one(settings, submission, gpu, work))

    threads = [threading.Thread(target=slot, args=(gpu, settings.out / WORK / f"slot-{number}"))
               for number, gpu in enumerate(gpus)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def build_once(settings: Settings) -> bool:
    """Builds what grading the assignment needs (grade.py --build-only) into
    the shared build, output in OUT/build.log; whether it succeeded."""
    command = [*settings.grader, "--build-only", "--build-dir", settings.build_dir, "--lab", settings.assignment,
               *settings.passed_on]
    print(f"building for grading: {settings.build_dir} (log: {settings.out / 'build.log'})", flush=True)
    with open(settings.out / "build.log", "w") as log:
        status = subprocess.run(command, stdout=log, stderr=subprocess.STDOUT).returncode
    if status != 0:
        print(f"grade_bulk.py: building failed (exit status {status}): see {settings.out / 'build.log'}; "
              "no submission was graded", file=sys.stderr)
    return status == 0


def write_summary(out: Path, submissions: list[Submission]) -> int:
    """OUT/summary.csv from each submission's bulk.json; how many lack a clean grade."""
    columns = ["submission", "score", "max_score", "status", "exit_status", "note", "gpu", "gpu_uuid", "host",
               "seconds"]
    rows, failed = [], 0
    for submission in submissions:
        record = read_record(out, submission.name) or error_record(submission, "not graded yet")
        failed += record["exit_status"] != 0
        rows.append({column: record.get(column, "") for column in columns}
                    | {"score": f"{record['score']:g}", "max_score": f"{record['max_score']:g}"})
    with open(out / "summary.csv", "w", newline="") as summary:
        writer = csv.DictWriter(summary, fieldnames=columns, quoting=csv.QUOTE_MINIMAL)
        writer.writeheader()
        writer.writerows(rows)
    print(f"summary: {out / 'summary.csv'}" + (f"; {failed} not graded cleanly (see their grade.log)"
                                               if failed else ""), flush=True)
    return failed


def run_slurm_task(plan_path: Path) -> int:
    """An array task of --slurm (the generated script runs it): grades its
    share of the plan one after another on the GPU Slurm gave it."""
    plan = json.loads(plan_path.read_text())
    index = int(os.environ["SLURM_ARRAY_TASK_ID"])
    settings = Settings(plan["assignment"], plan["build_dir"], Path(plan["out"]), plan["grader"], plan["passed_on"])
    visible = os.environ.get("CUDA_VISIBLE_DEVICES", "")
    gpu = Gpu(visible, gpu_uuids().get(visible, "")) if visible else None
    for name in plan["tasks"][index]:
        path = Path(plan["submissions"][name])
        submission = Submission(name, path, submission_digest(path, plan["options"]))
        record = grade_one(settings, submission, gpu, settings.out / WORK / f"task-{index}")
        print(f"{name}: {record['score']:g} / {record['max_score']:g} ({record['status']})", flush=True)
    return 0


def collect_slurm_job(out: Path, job: dict) -> None:
    """Records, as that submission's error with the reason, every submission
    of the finished Slurm `job` (OUT/slurm/job.json) that has no report."""
    plan = json.loads(Path(job["plan"]).read_text())
    for index, names in enumerate(plan["tasks"]):
        for name in names:
            if read_record(out, name) is None:
                submission = Submission(name, Path(plan["submissions"][name]), plan["digests"][name])
                log = Path(job["log"].replace("%A", job["job"]).replace("%a", str(index)))
                write_record(out, name, error_record(submission, slurm.why_ended(job["job"], index, log)))


def grade_on_slurm(args: argparse.Namespace, settings: Settings, submissions: list[Submission],
                   options: list[str]) -> int:
    """--slurm: submits the submissions that need grading as a job array
    (tests/grader/slurm.py), follows it and writes the summary."""
    out = settings.out
    directory = out / "slurm"
    directory.mkdir(exist_ok=True)
    running = directory / "job.json"
    if running.exists():  # an earlier run stopped while its job went on: its results first
        earlier = json.loads(running.read_text())
        print(f"waiting for Slurm job {earlier['job']} of an earlier run", flush=True)
        slurm.wait(earlier["job"], args.poll, lambda: None)
        collect_slurm_job(out, earlier)
        running.unlink()
    todo = [s for s in submissions if needs_grading(out, s)]
    if todo:
        if "--no-build" not in settings.passed_on and not build_once(settings):
            return 1
        for submission in todo:
            for stale in (RECORD, "results.json", "junit.xml"):
                (out / submission.name / stale).unlink(missing_ok=True)
        stamp = time.strftime("%Y%m%d-%H%M%S")
        tasks = [[s.name for s in todo[i:i + args.per_task]] for i in range(0, len(todo), args.per_task)]
        plan = directory / f"plan-{stamp}.json"
        plan.write_text(json.dumps({
            "assignment": settings.assignment, "build_dir": settings.build_dir, "out": str(out),
            "grader": settings.grader, "passed_on": settings.passed_on, "options": options, "tasks": tasks,
            "submissions": {s.name: str(s.path) for s in todo}, "digests": {s.name: s.digest for s in todo}},
            indent=1) + "\n")
        log = directory / f"grade-{stamp}-%A_%a.log"
        script = directory / f"grade-{stamp}.sbatch"
        script.write_text(slurm.script_text(args, plan, len(tasks), log, settings.assignment))
        try:
            job = slurm.submit(script)
        except slurm.SlurmError as error:
            print(f"grade_bulk.py: {error}", file=sys.stderr)
            return 1
        running.write_text(json.dumps({"job": job, "plan": str(plan), "log": str(log)}) + "\n")
        print(f"submitted Slurm job {job}: {len(tasks)} tasks for {len(todo)} submissions ({script})", flush=True)
        progress = Progress(len(submissions), len(submissions) - len(todo))
        reported: set[str] = set()

        def report_finished() -> None:
            for submission in todo:
                record = read_record(out, submission.name) if submission.name not in reported else None
                if record is not None:
                    reported.add(submission.name)
                    progress.report(record)

        slurm.wait(job, args.poll, report_finished)
        collect_slurm_job(out, json.loads(running.read_text()))
        report_finished()
        running.unlink()
    return 1 if write_summary(out, submissions) else 0


def main(argv: list[str], grader: list[str] | None = None) -> int:
    """Grades as `argv` asks; returns the exit status described above.
    `grader` replaces grade.py as the grading command (the project's tests)."""
    # No abbreviations: an option of grade.py's must not be taken for a prefix of one of this tool's.
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter,
                                     allow_abbrev=False)
    parser.add_argument("--assignment", help="the lab graded, e.g. lab02_frontier")
    parser.add_argument("--submissions", type=Path, help="a directory of submission directories")
    parser.add_argument("--out", type=Path, help="where each submission's reports go")
    parser.add_argument("--build-dir", default=str(REPO / "build"), help="the course build (default: build)")
    parser.add_argument("--gpus", metavar="all|I,J,...",
                        help="grade one submission per GPU at a time on these GPUs of this host")
    parser.add_argument("--slurm-task", type=Path, metavar="PLAN", help=argparse.SUPPRESS)  # the sbatch script's
    slurm.add_options(parser)
    args, passed_on = parser.parse_known_args(argv)
    if args.slurm_task:
        return run_slurm_task(args.slurm_task)
    for name in ("assignment", "submissions", "out"):
        if getattr(args, name) is None:
            parser.error(f"--{name} is required")
    own = [option for option in passed_on if option.split("=")[0] in OWN_OPTIONS]
    if own:
        parser.error(f"{own[0]} is set for each grading run by grade_bulk.py")
    if args.per_task < 1 or (args.max_running is not None and args.max_running < 1):
        parser.error("--per-task and --max-running count tasks: 1 or more")
    if args.slurm and args.gpus:
        parser.error("--gpus and --slurm exclude each other: under Slurm, each array task gets its GPU from Slurm")
    if not args.submissions.is_dir():
        parser.error(f"--submissions: {args.submissions} is not a directory")
    paths = sorted(p for p in args.submissions.iterdir() if p.is_dir() and not p.is_symlink())
    if not paths:
        parser.error(f"--submissions: {args.submissions} holds no submission directory")
    try:
        gpus = discover_gpus(args.gpus, dict(os.environ), gpu_uuids() if args.gpus else {})
    except ValueError as error:
        parser.error(str(error))
    options = [args.assignment, *passed_on]
    submissions = [Submission(p.name, p.resolve(), submission_digest(p, options)) for p in paths]
    out = args.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    settings = Settings(args.assignment, str(Path(args.build_dir).resolve()), out, grader or GRADE_PY, passed_on)

    with open(out / ".grade_bulk.lock", "w") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            print(f"grade_bulk.py: another grade_bulk.py is grading into {out}", file=sys.stderr)
            return 2
        if args.slurm:
            return grade_on_slurm(args, settings, submissions, options)
        todo = [s for s in submissions if needs_grading(out, s)]
        if len(todo) < len(submissions):
            print(f"{len(submissions) - len(todo)} of {len(submissions)} already graded from their current files "
                  f"(kept); grading {len(todo)}", flush=True)
        if todo and "--no-build" not in passed_on and not build_once(settings):
            return 1
        slots = ", ".join(f"GPU {g.visible}" for g in gpus if g) or "one at a time"
        if todo:
            print(f"grading {len(todo)} submissions of {args.assignment}: {slots}", flush=True)
        grade_locally(settings, todo, gpus, Progress(len(submissions), len(submissions) - len(todo)).report)
        return 1 if write_summary(out, submissions) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
