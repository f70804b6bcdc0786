#!/usr/bin/env python3
"""Run one algorithm (by default lab 09's ADDS, static and dynamic delta) on
every graph the course has that stresses a persistent kernel, several times in
a row, each under a wall-clock limit, and print one Markdown row per graph:
the issue's "never hangs" check, repeatable by anyone with a GPU.

    python3 .ci/never-hangs.py --bin build-gpu/bin [--algo lab09/] [--runs 5] [--part small|rmat|road]
                               [--timeout 300] [--out FILE.md]

Each graph runs in one sssp-ref process: one warm-up and --runs timed runs
from the graph's own source (the chain's first vertex) or one drawn with
out-degree > 0 (seed 1: on a scrambled R-MAT, vertex 0 may have no arc at
all), every answer verified by the runner's
certificate check. A
process that passes --timeout is killed and reported as a hang; any failure
or hang makes the exit status 1; 77 when nothing ran (no GPU). Road graphs
come from SSSP_DATA_DIR (skipped, with a note, when absent).
"""
import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

# (part, label, graph arguments)
GRAPHS = [
    ("small", "star of 60,000 (60,000-way in-degree)", ["--gen", "star:60000"]),
    ("small", "chain of 150,000 (from its first vertex)", ["--gen", "chain:150000", "--source", "0"]),
    ("small", "grid 2000x2000", ["--gen", "grid:2000x2000"]),
    ("small", "random 100,000 x 300,000 (unreachable parts)", ["--gen", "random:100000:300000"]),
    ("small", "single vertex", ["--gen", "chain:1", "--source", "0"]),
    ("small", "zero weights, grid 300x300", ["--gen", "grid:300x300", "--weights", "0:0"]),
    ("small", "tiny: zero-weight ties", ["--graph", "datasets/tiny/zero_weights_ties.gr"]),
    ("rmat", "R-MAT scale 18", ["--gen", "rmat:18:16"]),
    ("rmat", "R-MAT scale 20", ["--gen", "rmat:20:16"]),
    ("rmat", "R-MAT scale 22", ["--gen", "rmat:22:16"]),
    ("road", "USA-road-NY", ["--graph", "USA-road-NY.pace.gr.gz"]),
    ("road", "USA-road-NE", ["--graph", "USA-road-NE.pace.gr.gz"]),
    ("road", "USA-road-USA", ["--graph", "USA-road-USA.pace.gr.gz"]),
]


def graph_args(args: list[str], data_dir: str) -> list[str] | None:
    """The arguments with a dataset file resolved, or None when it is absent."""
    if args[0] != "--graph" or args[1].startswith("datasets/"):
        return args
    path = Path(data_dir) / args[1] if data_dir else None
    return ["--graph", str(path)] if path and path.exists() else None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", required=True, help="directory with sssp-ref")
    parser.add_argument("--algo", default="lab09/", help="algorithm or prefix (default lab09/)")
    parser.add_argument("--runs", type=int, default=5, help="timed runs per graph (default 5)")
    parser.add_argument("--part", choices=["small", "rmat", "road"], action="append",
                        help="only these groups of graphs (repeatable; default all)")
    parser.add_argument("--timeout", type=int, default=300, help="seconds per graph, all runs (default 300)")
    parser.add_argument("--out", help="also write the table to this file")
    args = parser.parse_args()
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    runner = Path(args.bin) / "sssp-ref"
    if not runner.exists():
        parser.error(f"{runner} does not exist: build sssp-ref first")
    data_dir = os.environ.get("SSSP_DATA_DIR", "")
    lines = [f"# Never-hangs check: {args.algo} on graphs built to stall it", "",
             f"Never-hangs check of {args.algo}: {args.runs} runs per graph after 1 warm-up, one random source "
             "with out-degree > 0 (seed 1) unless the graph names one, "
             f"{args.timeout} s per graph; every answer verified.", "",
             "| graph | algorithm | source | runs | median ms | slowest ms | verified | result |",
             "|---|---|---:|---:|---:|---:|---|---|"]
    failed = False
    ran_any = False
    for part, label, graph in GRAPHS:
        if args.part and part not in args.part:
            continue
        resolved = graph_args(graph, data_dir)
        if resolved is None:
            lines.append(f"| {label} | {args.algo} | | 0 | | | | skipped: {graph[1]} not in SSSP_DATA_DIR |")
            continue
        source = [] if "--source" in resolved else ["--random-sources", "1"]
        command = [str(runner), *resolved, "--algo", args.algo, "--reps", str(args.runs), "--warmup", "1",
                   *source, "--output", "json"]
        start = time.monotonic()
        try:
            proc = subprocess.run(command, capture_output=True, text=True, timeout=args.timeout)
        except subprocess.TimeoutExpired:
            lines.append(f"| {label} | {args.algo} | | | | | | HANG: killed after {args.timeout} s |")
            failed = True
            continue
        if proc.returncode != 0:
            reason = (proc.stderr.strip().splitlines() or ["no message"])[-1].replace("|", "/")
            lines.append(f"| {label} | {args.algo} | | | | | | FAILED (exit {proc.returncode}): {reason} |")
            failed = True
            continue
        for run in json.loads(proc.stdout)["runs"]:
            if "skipped" in run or "error" in run:
                why = str(run.get("skipped") or run.get("error")).replace("|", "/")
                lines.append(f"| {label} | {run['algorithm']} | {run.get('source', '')} | 0 | | | | not run: {why} |")
                failed = failed or "error" in run
                continue
            ran_any = True
            times = sorted(run.get("times_ms") or [run.get("median_ms", 0.0)])
            verified = run.get("verified")
            ok = verified is True or verified == "yes"
            failed = failed or not ok
            lines.append(f"| {label} | {run['algorithm']} | {run.get('source', '')} | {len(times)} | "
                         f"{run.get('median_ms', 0.0):.3f} | "
                         f"{times[-1]:.3f} | {verified} | {'ok' if ok else 'WRONG'} |")
        print(f"{label}: {time.monotonic() - start:.0f} s", file=sys.stderr)
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        Path(args.out).write_text(text)
    if failed:
        return 1
    if not ran_any:
        print("nothing ran (no GPU?): this proves nothing", file=sys.stderr)
        return 77
    return 0


if __name__ == "__main__":
    sys.exit(main())
