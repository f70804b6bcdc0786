#!/usr/bin/env python3
"""Time the reference solutions (sssp-ref) on the benchmark graphs and print a
Markdown table per lab, the form the handouts quote.

    python3 .ci/bench.py --bin build/bin [--out DIR] [--lab lab01]

Real graphs come from SSSP_DATA_DIR (skipped, with a note, when absent);
unweighted ones get weights uniform 1..1000 by seed 1, as in the handouts.
Every run is verified by the runner's certificate check.
"""
import argparse
import json
import os
import platform
import subprocess
import sys
from pathlib import Path

WEIGHTS = "1:1000:1"
# (lab prefix, graph label, graph arguments, algorithms, repetitions)
BENCHMARKS = [
    ("lab01", "USA-road-NY", ["--graph", "USA-road-NY.pace.gr.gz"], ["lab01/"], 3),
    ("lab01", "USA-road-BAY", ["--graph", "USA-road-BAY.pace.gr.gz"], ["lab01/"], 3),
    ("lab01", "grid 512x512", ["--gen", "grid:512x512"], ["lab01/"], 3),
    ("lab01", "rmat scale 18", ["--gen", "rmat:18:16"], ["lab01/"], 3),
    ("lab01", "soc-Slashdot0902", ["--graph", "soc-Slashdot0902.txt.gz"], ["lab01/"], 3),
    # GPU labs run beside lab 01's Dijkstra from the same source, for the speedup column.
    ("lab02", "USA-road-NY", ["--graph", "USA-road-NY.pace.gr.gz"], ["lab01/dijkstra", "lab02/"], 5),
    ("lab02", "USA-road-FLA", ["--graph", "USA-road-FLA.pace.gr.gz"], ["lab01/dijkstra", "lab02/"], 5),
    ("lab02", "USA-road-NE", ["--graph", "USA-road-NE.pace.gr.gz"], ["lab01/dijkstra", "lab02/"], 5),
    ("lab02", "grid 1000x1000", ["--gen", "grid:1000x1000"], ["lab01/dijkstra", "lab02/"], 5),
    ("lab02", "rmat scale 20", ["--gen", "rmat:20:16"], ["lab01/dijkstra", "lab02/"], 5),
    ("lab02", "soc-Slashdot0902", ["--graph", "soc-Slashdot0902.txt.gz"], ["lab01/dijkstra", "lab02/"], 5),
    # Lab 03: BFS beside lab 02's BFS on the same graphs. Edge-based Dijkstra
    # runs one round per distinct distance, so it gets the smaller graphs.
    ("lab03", "USA-road-NY", ["--graph", "USA-road-NY.pace.gr.gz"], ["lab01/dijkstra", "lab02/frontier-bfs", "lab03/edge-bfs"], 5),
    ("lab03", "grid 1000x1000", ["--gen", "grid:1000x1000"], ["lab01/dijkstra", "lab02/frontier-bfs", "lab03/edge-bfs"], 5),
    ("lab03", "rmat scale 20", ["--gen", "rmat:20:16"], ["lab01/dijkstra", "lab02/frontier-bfs", "lab03/edge-bfs"], 5),
    ("lab03", "soc-Slashdot0902", ["--graph", "soc-Slashdot0902.txt.gz"], ["lab01/dijkstra", "lab02/", "lab03/"], 5),
    ("lab03", "rome99", ["--graph", "rome99.gr.gz"], ["lab01/dijkstra", "lab02/", "lab03/"], 5),
    ("lab03", "grid 256x256", ["--gen", "grid:256x256"], ["lab01/dijkstra", "lab02/", "lab03/"], 3),
    ("lab03", "rmat scale 16", ["--gen", "rmat:16:16"], ["lab01/dijkstra", "lab02/", "lab03/"], 3),
    ("lab03", "USA-road-NY (edge Dijkstra)", ["--graph", "USA-road-NY.pace.gr.gz"], ["lab01/dijkstra", "lab02/frontier-sssp", "lab03/edge-dijkstra"], 1),
    # Lab 04 extracts one vertex per round: V rounds of an O(V) arg-min.
    ("lab04", "rome99", ["--graph", "rome99.gr.gz"], ["lab01/dijkstra", "lab03/edge-dijkstra", "lab04/"], 5),
    ("lab04", "grid 256x256", ["--gen", "grid:256x256"], ["lab01/dijkstra", "lab03/edge-dijkstra", "lab04/"], 3),
    ("lab04", "rmat scale 16", ["--gen", "rmat:16:16"], ["lab01/dijkstra", "lab03/edge-dijkstra", "lab04/"], 3),
    ("lab04", "soc-Slashdot0902", ["--graph", "soc-Slashdot0902.txt.gz"], ["lab01/dijkstra", "lab03/edge-dijkstra", "lab04/"], 3),
    ("lab04", "USA-road-NY", ["--graph", "USA-road-NY.pace.gr.gz"], ["lab01/dijkstra", "lab04/"], 1),
    # Lab 06: the three sparse formats of Chen's Table 5 on his road maps, a grid
    # and RMAT. ELL refuses RMAT (its hubs pad every row), so RMAT runs the CSRs.
    ("lab06", "USA-road-NY", ["--graph", "USA-road-NY.pace.gr.gz"], ["lab01/dijkstra", "lab06/"], 5),
    ("lab06", "USA-road-BAY", ["--graph", "USA-road-BAY.pace.gr.gz"], ["lab01/dijkstra", "lab06/"], 5),
    ("lab06", "USA-road-COL", ["--graph", "USA-road-COL.pace.gr.gz"], ["lab01/dijkstra", "lab06/"], 5),
    ("lab06", "USA-road-FLA", ["--graph", "USA-road-FLA.pace.gr.gz"], ["lab01/dijkstra", "lab06/"], 5),
    ("lab06", "USA-road-NW", ["--graph", "USA-road-NW.pace.gr.gz"], ["lab01/dijkstra", "lab06/"], 5),
    ("lab06", "USA-road-NE", ["--graph", "USA-road-NE.pace.gr.gz"], ["lab01/dijkstra", "lab06/"], 5),
    ("lab06", "grid 1000x1000", ["--gen", "grid:1000x1000"], ["lab01/dijkstra", "lab06/"], 3),
    ("lab06", "rmat scale 20", ["--gen", "rmat:20:16"], ["lab01/dijkstra", "lab06/csr-scalar", "lab06/csr-vector"], 5),
]


def cpu_name() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", required=True, help="directory holding sssp-ref")
    parser.add_argument("--out", default=".", help="where to write bench.json")
    parser.add_argument("--lab", action="append", help="only these labs (e.g. lab01)")
    parser.add_argument("--quick", action="store_true", help="one repetition each (a smoke test)")
    args = parser.parse_args()
    data_dir = os.environ.get("SSSP_DATA_DIR", "")
    results, failed = [], False
    for lab, label, graph_args, algos, reps in BENCHMARKS:
        if args.lab and lab not in args.lab:
            continue
        if graph_args[0] == "--graph":
            path = Path(data_dir) / graph_args[1]
            if not data_dir or not path.exists():
                print(f"skipping {label}: {graph_args[1]} not in SSSP_DATA_DIR", file=sys.stderr)
                continue
            graph_args = ["--graph", str(path)]
        command = [str(Path(args.bin) / "sssp-ref"), *graph_args, "--weights", WEIGHTS, "--reps", str(1 if args.quick else reps),
                   "--random-sources", "1", "--output", "json"]
        for algo in algos:
            command += ["--algo", algo]
        print("+", " ".join(command), file=sys.stderr, flush=True)
        proc = subprocess.run(command, capture_output=True, text=True)
        if proc.returncode != 0:
            print(proc.stdout, proc.stderr, file=sys.stderr)
            failed = True
            if not proc.stdout.strip().startswith("{"):
                continue
        data = json.loads(proc.stdout)
        results.append({"lab": lab, "label": label, **data})
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "bench.json").write_text(json.dumps({"cpu": cpu_name(), "results": results}, indent=2))
    print(f"\nCPU: {cpu_name()}")
    device = next((r["device"] for r in results if r["device"].get("round_trip_us", -1) >= 0), None)
    if device:
        print(f"GPU: {device['summary']}; host round trip {device['round_trip_us']:.1f} us")
    print()
    print("| graph | vertices | arcs | algorithm | median ms | MTEPS | iterations | launches | syncs "
          "| us per iteration | speedup over lab01/dijkstra | vertices processed | edges relaxed | verified |")
    print("|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for r in results:
        baseline = next((run["median_ms"] for run in r["runs"]
                         if run["algorithm"] == "lab01/dijkstra" and "median_ms" in run), None)
        for run in r["runs"]:
            if "median_ms" not in run:  # failed ("error") or did not run ("skipped")
                reason = run.get("error") or "skipped: " + run["skipped"]
                print(f"| {r['label']} | | | {run['algorithm']} | {reason} | | | | | | | | | |")
                continue
            if r["lab"] != "lab01" and run["algorithm"].startswith("lab01/"):
                continue  # the baseline is shown in lab 01's table
            c = run["counters"]
            per_iteration = (f"{1000 * run['median_ms'] / c['iterations']:.1f}"
                             if c["kernel_launches"] and c["iterations"] else "")
            speedup = f"{baseline / run['median_ms']:.2f}x" if baseline and run["median_ms"] > 0 else ""
            print(f"| {r['label']} | {r['graph']['vertices']:,} | {r['graph']['arcs']:,} | {run['algorithm']} "
                  f"| {run['median_ms']:.2f} | {run['mteps']:.1f} | {c['iterations']:,} | {c['kernel_launches']:,} "
                  f"| {c['host_syncs']:,} | {per_iteration} | {speedup} | {c['vertices_processed']:,} "
                  f"| {c['edges_relaxed']:,} | {'yes' if run['verified'] else 'NO'} |")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
