#!/usr/bin/env python3
"""A stand-in for tests/grade.py in the tests of grade_bulk.py's scheduling
(test_grade_bulk_scheduler.py, test_grade_bulk_slurm.py): it takes grade.py's
options, appends a JSON line of what it was given and when to the file
$FAKE_GRADE_LOG, and acts on its submission's files:

    sleep      seconds to take (default 0.2)
    score      the score to report (default 7, of 10)
    crash      present: killed by SIGKILL before any report
    kill-task  present: kills its parent (the Slurm array task) and itself

It holds an exclusive lock on its --work-dir while it runs and fails if
another run holds it: two runs sharing a work directory would be an error.
"""
import argparse
import fcntl
import json
import os
import signal
import sys
import time
from pathlib import Path


def log(entry: dict) -> None:
    """Appends `entry` to $FAKE_GRADE_LOG in one write (O_APPEND: whole lines from concurrent runs)."""
    with open(os.environ["FAKE_GRADE_LOG"], "a") as out:
        out.write(json.dumps(entry) + "\n")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--build-only", action="store_true")
    parser.add_argument("--submission", type=Path)
    parser.add_argument("--results-json", type=Path)
    parser.add_argument("--work-dir", type=Path)
    args, _ = parser.parse_known_args()
    entry = {"argv": sys.argv[1:], "gpu": os.environ.get("CUDA_VISIBLE_DEVICES"), "start": time.time(),
             "pid": os.getpid(), "submission": args.submission.name if args.submission else None,
             "work_dir": str(args.work_dir) if args.work_dir else None}
    if args.build_only:
        log(entry)
        return 0
    args.work_dir.mkdir(parents=True, exist_ok=True)
    with open(args.work_dir / "fake.lock", "w") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            entry["shared_work_dir"] = True
            log(entry)
            return 3
        files = {p.name: p.read_text().strip() for p in args.submission.iterdir() if p.is_file()}
        time.sleep(float(files.get("sleep", "0.2")))
        entry["end"] = time.time()
        log(entry)
        if "kill-task" in files:
            os.kill(os.getppid(), signal.SIGKILL)
            os.kill(os.getpid(), signal.SIGKILL)
        if "crash" in files:
            os.kill(os.getpid(), signal.SIGKILL)
        score = float(files.get("score", "7"))
        args.results_json.write_text(json.dumps({"tests": [{"name": "t", "score": score, "max_score": 10}]}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
