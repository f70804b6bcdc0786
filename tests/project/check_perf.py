#!/usr/bin/env python3
"""Checks the performance items on a GPU, through tests/grade.py as a
submission is graded (--perf-only, the isolated path, the trusted side's
clock), and that each scores what its design says (docs/design/perf-grading.md):

- the reference against itself earns full marks in every one of --runs runs;
- each right-but-slow mutant of solutions/<lab>/mutants.json ("caught_by": "perf")
  earns at most its "perf_share_at_most" of the item (a CPU solve: nothing),
  or, a calibration mutant (a known slow-down of the reference's solve), its
  "perf_share_expected" within "perf_share_tolerance";
- the untouched skeleton (labs/) earns nothing.

    python3 -m tests.project.check_perf --build-dir BUILD [--lab LAB]... [--runs 5] [--mutant-runs 1]
                  [--only REGEX] [--gpus 0,1,...] [--out DIR]

--mutant-runs N grades each perf mutant N times (a calibration must earn its
share in every run: issue 45 asks 5 of 5); --only REGEX keeps the mutants
whose name matches (e.g. ^calibration_). --gpus grades the labs in parallel,
one lab per GPU at a time (CUDA_VISIBLE_DEVICES), each GPU's runs in a work
directory of its own under BUILD/check-perf-gpuK: a timed run never shares its
GPU. Each grade.py run's numbers (perf-<lab>.json: medians, ratio, noise, the
worker's CPU share) are copied to --out as <lab>-<flavour>-<run>.json.
Exit status: 0 when everything scored as designed, 1 when something did not,
77 when nothing could be judged here (no GPU: the items skip).
"""
from __future__ import annotations

import argparse
import json
import os
import queue
import re
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
from tests.grader import lab_data  # each lab's rubric.json and mutants.json
from tests.grader.perf import PERF_ITEM


def grade(build: Path, lab: str, flavour: str, gpu: str | None = None) -> tuple[dict | None, str]:
    """One grade.py --perf-only run: the item's result in results.json (None if absent) and the output.
    With a GPU index, the run sees only that GPU and writes under a work directory of its own."""
    work = build if gpu is None else build / f"check-perf-gpu{gpu}"
    results = work / "grading" / "results.json"
    results.unlink(missing_ok=True)
    command = [sys.executable, str(REPO / "tests" / "grade.py"), "--build-dir", str(build), "--no-build",
               "--perf-only", "--no-sanitize", "--lab", lab, "--flavour", flavour]
    env = None
    if gpu is not None:
        command += ["--work-dir", str(work), "--results-json", str(results), "--allow-skips",
                    "--junit", str(work / "grading" / "junit.xml")]
        env = {**os.environ, "CUDA_VISIBLE_DEVICES": gpu}
    run = subprocess.run(command, capture_output=True, text=True, env=env)
    output = run.stdout + run.stderr
    if not results.exists():
        return None, output
    report = json.loads(results.read_text())
    item = next((t for t in report.get("tests", []) if t["name"] == f"{lab}: {PERF_ITEM}"), None)
    skipped = report.get("extra_data", {}).get("skipped", [])
    if item is None and any(s["name"] == f"{lab}: {PERF_ITEM}" for s in skipped):
        return {"skipped": True}, output
    return item, output


def share_range(mutant: dict) -> tuple[float, float]:
    """The share of the item a "caught_by": "perf" mutant must earn: at
    most "perf_share_at_most", and within "perf_share_tolerance" of
    "perf_share_expected" (a calibration: a known ratio on the lab's scale);
    with both, the two at once. ValueError when it gives neither, or
    an expected share without its tolerance."""
    low, high = 0.0, 1.0
    if "perf_share_at_most" in mutant:
        high = float(mutant["perf_share_at_most"])
    if "perf_share_expected" in mutant:
        if "perf_share_tolerance" not in mutant:
            raise ValueError(f"mutant {mutant['name']}: perf_share_expected without perf_share_tolerance")
        expected, tolerance = float(mutant["perf_share_expected"]), float(mutant["perf_share_tolerance"])
        low, high = max(low, expected - tolerance), min(high, expected + tolerance)
    elif "perf_share_at_most" not in mutant:
        raise ValueError(f"mutant {mutant['name']}: a perf mutant needs perf_share_at_most or perf_share_expected")
    if not 0.0 <= low <= high <= 1.0:
        raise ValueError(f"mutant {mutant['name']}: no share in [0, 1] meets its bounds ({low:g} to {high:g})")
    return low, high


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build-dir", required=True)
    parser.add_argument("--lab", action="append", help="check only this lab (repeatable)")
    parser.add_argument("--runs", type=int, default=5, help="runs of the reference against itself (default 5)")
    parser.add_argument("--mutant-runs", type=int, default=1, help="runs of each perf mutant (default 1)")
    parser.add_argument("--only", type=re.compile, metavar="REGEX", help="only the perf mutants whose name matches")
    parser.add_argument("--no-mutants", action="store_true", help="skip the slow mutants")
    parser.add_argument("--no-skeleton", action="store_true", help="skip the skeleton")
    parser.add_argument("--gpus", help="comma-separated GPU indices to grade labs on in parallel, one lab per GPU")
    parser.add_argument("--out", help="directory for each run's numbers")
    args = parser.parse_args()
    if args.runs < 0 or args.mutant_runs < 1:
        parser.error("--runs must be at least 0 and --mutant-runs at least 1")
    gpus = args.gpus.split(",") if args.gpus else [None]
    if args.gpus and not all(re.fullmatch(r"[0-9]+", g) for g in gpus):
        parser.error(f"--gpus needs GPU indices such as 0,1, got '{args.gpus}'")
    build = Path(args.build_dir).resolve()
    out = Path(args.out) if args.out else None
    rubric = lab_data.load_rubric()
    labs = [lab for lab in (args.lab or rubric) if "perf" in rubric[lab]]
    problems: list[str] = []
    judged = 0
    lock = threading.Lock()

    def check(lab: str, flavour: str, run: int, at_least: float, at_most: float, gpu: str | None) -> None:
        nonlocal judged
        start = time.monotonic()
        item, output = grade(build, lab, flavour, gpu)
        seconds = time.monotonic() - start
        where = "" if gpu is None else f" (GPU {gpu})"
        source = (build if gpu is None else build / f"check-perf-gpu{gpu}") / "grading" / f"perf-{lab}.json"
        with lock:
            if out is not None and source.exists():
                out.mkdir(parents=True, exist_ok=True)
                stem = f"{lab}-{flavour.replace(':', '-')}-{run}"
                shutil.copy(source, out / f"{stem}.json")
                plot = source.with_suffix(".svg")
                if plot.exists():
                    shutil.copy(plot, out / f"{stem}.svg")
            source.unlink(missing_ok=True)
            if item is None:
                problems.append(f"{lab} {flavour} run {run}{where}: no result\n{output[-3000:]}")
                print(f"{lab} {flavour} run {run}{where}: NO RESULT", flush=True)
                return
            if item.get("skipped"):
                print(f"{lab} {flavour} run {run}{where}: skipped here", flush=True)
                return
            judged += 1
            share = item["score"] / item["max_score"]
            verdict = "ok" if at_least - 1e-9 <= share <= at_most + 1e-9 else "WRONG"
            print(f"{lab} {flavour} run {run}{where}: {item['score']:.2f} / {item['max_score']:g} ({share:.0%}; "
                  f"expected {at_least:.0%} to {at_most:.0%}) {verdict}, {seconds:.0f} s", flush=True)
            if verdict != "ok":
                print(item.get("output", ""), flush=True)
                problems.append(f"{lab} {flavour} run {run}{where}: {share:.0%}, expected {at_least:.0%} to "
                                f"{at_most:.0%}\n{item.get('output', '')}")

    def check_lab(lab: str, gpu: str | None) -> None:
        for run in range(1, args.runs + 1):
            check(lab, "solution", run, 1.0, 1.0, gpu)
        if not args.no_mutants:
            for mutant in lab_data.lab_mutants(lab):
                if mutant.get("caught_by") == "perf" and (args.only is None or args.only.search(mutant["name"])):
                    for run in range(1, args.mutant_runs + 1):
                        check(lab, f"mutant:{mutant['name']}", run, *share_range(mutant), gpu)
        if not args.no_skeleton:
            check(lab, "student", 1, 0.0, 0.0, gpu)

    pending: queue.Queue[str] = queue.Queue()
    for lab in labs:
        pending.put(lab)

    def work_on(gpu: str | None) -> None:
        while True:
            try:
                lab = pending.get_nowait()
            except queue.Empty:
                return
            check_lab(lab, gpu)

    threads = [threading.Thread(target=work_on, args=(gpu,)) for gpu in gpus]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for problem in problems:
        print(f"\n--- {problem}", file=sys.stderr)
    print(f"\n{judged} runs judged, {len(problems)} problems")
    if problems:
        return 1
    return 0 if judged else 77


if __name__ == "__main__":
    sys.exit(main())
