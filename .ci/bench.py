#!/usr/bin/env python3
"""Time the reference solutions (sssp-ref) on the benchmark graphs and print a
Markdown table per lab, the tables the handouts quote.

    python3 .ci/bench.py --bin build/bin [--lab lab01] [--quick] [--out DIR] [--gapbs DIR]

Real graphs come from SSSP_DATA_DIR (skipped, with a note, when absent);
unweighted ones get weights uniform 1..1000 by seed 1, as in the handouts.
Every run is verified by the runner's certificate check.

--out DIR writes bench.json and, per lab, LAB.md (the table, with the machine,
the date and the command that made it; handouts include these files) and, when
matplotlib is installed, LAB.svg (median time per graph and algorithm).

--gapbs DIR (default ../shared/peers/gapbs when present; "none" to skip) adds a
CPU peer to the SSSP tables: gapbs's OpenMP delta-stepping, built in a
temporary directory outside the project, on the same weighted graph (written
by sssp-ref --write-graph) from the same source, on 1 thread and on all cores.
"""
import argparse
import json
import os
import platform
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
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
    # Lab 07: k-step waves and blind launches beside lab 02's one-arc rounds they improve on.
    ("lab07", "USA-road-NY", ["--graph", "USA-road-NY.pace.gr.gz"], ["lab01/dijkstra", "lab02/frontier-sssp", "lab07/"], 5),
    ("lab07", "USA-road-NE", ["--graph", "USA-road-NE.pace.gr.gz"], ["lab01/dijkstra", "lab02/frontier-sssp", "lab07/"], 5),
    ("lab07", "grid 2000x2000", ["--gen", "grid:2000x2000"], ["lab01/dijkstra", "lab02/frontier-sssp", "lab07/"], 3),
    # Lab 08: Chen's host-driven delta-stepping and GPU-driven Near-Far beside
    # the one-arc rounds of lab 02 and the k-step waves of lab 07. Delta and C
    # against time and work: delta-bench-ref (the handout's experiment).
    ("lab08", "USA-road-NY", ["--graph", "USA-road-NY.pace.gr.gz"],
     ["lab01/dijkstra", "lab02/frontier-sssp", "lab07/locality", "lab08/"], 5),
    ("lab08", "USA-road-NE", ["--graph", "USA-road-NE.pace.gr.gz"],
     ["lab01/dijkstra", "lab02/frontier-sssp", "lab07/locality", "lab08/"], 5),
    ("lab08", "grid 2000x2000", ["--gen", "grid:2000x2000"],
     ["lab01/dijkstra", "lab02/frontier-sssp", "lab07/locality", "lab08/"], 3),
    ("lab08", "rmat scale 20", ["--gen", "rmat:20:16"],
     ["lab01/dijkstra", "lab02/frontier-sssp", "lab07/locality", "lab08/"], 5),
    # Lab 09: ADDS beside lab 08's Near-Far (the paper's baseline), on the
    # issue's target graphs. Settings and ablations: adds-bench-ref.
    ("lab09", "USA-road-NY", ["--graph", "USA-road-NY.pace.gr.gz"], ["lab01/dijkstra", "lab08/near-far", "lab09/"], 5),
    ("lab09", "USA-road-NE", ["--graph", "USA-road-NE.pace.gr.gz"], ["lab01/dijkstra", "lab08/near-far", "lab09/"], 5),
    ("lab09", "grid 2000x2000", ["--gen", "grid:2000x2000"], ["lab01/dijkstra", "lab08/near-far", "lab09/"], 3),
    ("lab09", "rmat scale 20", ["--gen", "rmat:20:16"], ["lab01/dijkstra", "lab08/near-far", "lab09/"], 5),
]
# The CPU peer's rows in the SSSP tables: gapbs's bucket width (-d) by graph
# family, for weights 1..1000: road and grid as in ../shared/peers/README.md;
# R-MAT 1 (on rmat scale 18 as fast as 10, and 50 to 4000 slower). Other graphs:
# no peer rows.
GAPBS_LABS = ("lab01", "lab02", "lab06", "lab07", "lab08", "lab09")
GAPBS_DELTA = {"USA-road-": 4000, "grid ": 4000, "rmat ": 1}
TABLE_HEADER = ("| graph | vertices | arcs | algorithm | median ms | MTEPS | iterations | launches | syncs "
                "| us per iteration | speedup over lab01/dijkstra | vertices processed | edges relaxed | verified |\n"
                "|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")


def cpu_name() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def probe(command: list[str], pattern: str) -> str:
    """The first match of pattern's group 1 in command's output, or "unknown"."""
    try:
        out = subprocess.run(command, capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"
    match = re.search(pattern, out)
    return match.group(1).strip() if match else "unknown"


def machine(results: list) -> str:
    """One line naming the GPU, driver, CUDA, CPU and date of this run."""
    device = next((r["device"] for r in results if r["device"].get("available")), None)
    gpu = device["summary"] if device else "none"
    driver = probe(["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"], r"(.+)")
    cuda = probe(["nvcc", "--version"], r"release ([\d.]+)")
    return (f"GPU: {gpu}; driver {driver}; CUDA {cuda}. CPU: {cpu_name()} ({os.cpu_count()} threads). "
            f"Date: {time.strftime('%Y-%m-%d', time.gmtime())}.")


def build_gapbs(source: Path, workdir: Path) -> Path:
    """gapbs's sssp, built from a copy of source in workdir (never in the project)."""
    copy = workdir / "gapbs"
    shutil.copytree(source, copy, ignore=shutil.ignore_patterns(".git", "sssp", "*.o"))
    subprocess.run(["make", "-C", str(copy), "sssp", "CXX_FLAGS=-std=c++11 -O3 -Wall -fopenmp"],
                   check=True, stdout=subprocess.DEVNULL)
    return copy / "sssp"


def run_gapbs(binary: Path, graph: Path, source: int, delta: int, threads: int, trials: int) -> dict:
    """One row of the table: gapbs's median trial time, verified by its own checker (-v)."""
    command = [str(binary), "-f", str(graph), "-r", str(source), "-d", str(delta), "-n", str(trials), "-v"]
    print(f"+ OMP_NUM_THREADS={threads}", *command, file=sys.stderr, flush=True)
    proc = subprocess.run(command, capture_output=True, text=True, env={**os.environ, "OMP_NUM_THREADS": str(threads)})
    times = [float(t) for t in re.findall(r"^Trial Time:\s+([\d.]+)", proc.stdout, re.M)]
    name = f"gapbs delta-stepping {threads} threads (all cores)" if threads > 1 else "gapbs delta-stepping 1 thread"
    if proc.returncode != 0 or not times:
        return {"algorithm": name, "error": f"gapbs failed: {proc.stderr.strip() or proc.stdout[-200:]}"}
    return {"algorithm": name, "delta": delta, "median_ms": 1000 * statistics.median(times),
            "times_ms": [1000 * t for t in times],
            "verified": re.findall(r"^Verification:\s+(\w+)", proc.stdout, re.M) == ["PASS"] * len(times),
            "peer": True}


def table(lab: str, results: list) -> list[str]:
    """The Markdown rows of one lab's table."""
    rows = []
    for r in results:
        if r["lab"] != lab:
            continue
        baseline = next((run["median_ms"] for run in r["runs"]
                         if run["algorithm"] == "lab01/dijkstra" and "median_ms" in run), None)
        # The arcs leaving reached vertices, the same for every verified run from this source.
        traversed = next((run["edges_traversed"] for run in r["runs"] if "edges_traversed" in run), 0)
        for run in r["runs"]:
            if "median_ms" not in run:  # failed ("error") or did not run ("skipped")
                reason = run.get("error") or "skipped: " + run["skipped"]
                rows.append(f"| {r['label']} | | | {run['algorithm']} | {reason} | | | | | | | | | |")
                continue
            if lab != "lab01" and run["algorithm"].startswith("lab01/"):
                continue  # the baseline is shown in lab 01's table
            speedup = f"{baseline / run['median_ms']:.2f}x" if baseline and run["median_ms"] > 0 else ""
            algorithm = f"{run['algorithm']}, -d {run['delta']}" if run.get("peer") else run["algorithm"]
            graph = f"| {r['label']} | {r['graph']['vertices']:,} | {r['graph']['arcs']:,} | {algorithm} "
            verified = "yes" if run["verified"] else "NO"
            if run.get("peer"):
                mteps = f"{traversed / run['median_ms'] / 1000:.1f}" if run["median_ms"] > 0 else ""
                rows.append(f"{graph}| {run['median_ms']:.2f} | {mteps} | | | | | {speedup} | | | {verified} |")
                continue
            c = run["counters"]
            per_iteration = (f"{1000 * run['median_ms'] / c['iterations']:.1f}"
                             if c["kernel_launches"] and c["iterations"] else "")
            rows.append(f"{graph}| {run['median_ms']:.2f} | {run['mteps']:.1f} | {c['iterations']:,} "
                        f"| {c['kernel_launches']:,} | {c['host_syncs']:,} | {per_iteration} | {speedup} "
                        f"| {c['vertices_processed']:,} | {c['edges_relaxed']:,} | {verified} |")
    return rows


def plot(lab: str, results: list, path: Path) -> None:
    """A grouped bar chart of the median time per graph and algorithm (log scale)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    graphs = [r for r in results if r["lab"] == lab]
    algos = list(dict.fromkeys(run["algorithm"] for r in graphs for run in r["runs"] if "median_ms" in run))
    width = 0.8 / max(len(algos), 1)
    fig, ax = plt.subplots(figsize=(max(6, 1.6 * len(graphs)), 4.5))
    for i, algo in enumerate(algos):
        xs, ys = [], []
        for g, r in enumerate(graphs):
            ms = next((run["median_ms"] for run in r["runs"] if run["algorithm"] == algo and "median_ms" in run), None)
            if ms:
                xs.append(g + (i - (len(algos) - 1) / 2) * width)
                ys.append(ms)
        ax.bar(xs, ys, width, label=algo)
    ax.set_xticks(range(len(graphs)), [r["label"] for r in graphs], rotation=20, ha="right")
    ax.set_yscale("log")
    ax.set_ylabel("median time (ms, log scale)")
    ax.set_title(f"{lab}: time per graph and algorithm")
    ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1))
    fig.savefig(path, bbox_inches="tight")
    plt.close(fig)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", required=True, help="directory holding sssp-ref")
    parser.add_argument("--out", help="where to write bench.json, LAB.md and LAB.svg (default: print only)")
    parser.add_argument("--lab", action="append", help="only these labs (e.g. lab01)")
    parser.add_argument("--quick", action="store_true", help="one repetition each (a smoke test)")
    parser.add_argument("--gen", help="a smoke test: each lab's generated-graph rows on this graph instead "
                                      "(e.g. grid:200x200), each set of algorithms once")
    default_gapbs = Path(__file__).resolve().parents[2] / "shared" / "peers" / "gapbs"
    parser.add_argument("--gapbs", default=str(default_gapbs) if default_gapbs.is_dir() else "none",
                        help="a gapbs checkout to time beside the course (default: %(default)s; none: skip)")
    args = parser.parse_args()
    data_dir = os.environ.get("SSSP_DATA_DIR", "")
    labs = list(dict.fromkeys(lab for lab, *_ in BENCHMARKS if not args.lab or lab in args.lab))
    results, failed = [], False
    with tempfile.TemporaryDirectory(prefix="sssp-bench-") as tmp:
        workdir = Path(tmp)
        gapbs = None
        if args.gapbs != "none" and any(lab in GAPBS_LABS for lab in labs):
            print(f"building gapbs from {args.gapbs} in {workdir}", file=sys.stderr, flush=True)
            gapbs = build_gapbs(Path(args.gapbs), workdir)
        peer_rows = {}  # (graph arguments, source) -> gapbs rows, shared by the labs that time that graph
        smoked = set()  # with --gen: the (lab, algorithms) that ran
        for lab, label, graph_args, algos, reps in BENCHMARKS:
            if lab not in labs:
                continue
            if args.gen:
                if graph_args[0] != "--gen":
                    continue
                if (lab, tuple(algos)) in smoked:
                    continue  # this lab's earlier row already ran these algorithms on it
                smoked.add((lab, tuple(algos)))
                label, graph_args = args.gen.replace(":", " "), ["--gen", args.gen]
            elif graph_args[0] == "--graph":
                path = Path(data_dir) / graph_args[1]
                if not data_dir or not path.exists():
                    print(f"skipping {label}: {graph_args[1]} not in SSSP_DATA_DIR", file=sys.stderr)
                    continue
                graph_args = ["--graph", str(path)]
            reps = 1 if args.quick else reps
            delta = next((d for prefix, d in GAPBS_DELTA.items() if label.startswith(prefix)), None)
            peer = gapbs and lab in GAPBS_LABS and delta
            graph_file = workdir / "graph.gr"
            command = [str(Path(args.bin) / "sssp-ref"), *graph_args, "--weights", WEIGHTS, "--reps", str(reps),
                       "--random-sources", "1", "--output", "json"]
            if peer:
                command += ["--write-graph", str(graph_file)]
            for algo in algos:
                command += ["--algo", algo]
            print("+", shlex.join(command), file=sys.stderr, flush=True)
            proc = subprocess.run(command, capture_output=True, text=True)
            if proc.returncode != 0:
                print(proc.stdout, proc.stderr, file=sys.stderr)
                failed = True
                if not proc.stdout.strip().startswith("{"):
                    continue
            data = json.loads(proc.stdout)
            source = next((run["source"] for run in data["runs"] if "median_ms" in run), None)
            if peer and source is not None:
                key = (tuple(graph_args), source)
                if key not in peer_rows:
                    peer_rows[key] = [run_gapbs(gapbs, graph_file, source, delta, threads, reps)
                                      for threads in (1, os.cpu_count())]
                data["runs"] += peer_rows[key]
                failed = failed or any(not run.get("verified") for run in peer_rows[key])
            results.append({"lab": lab, "label": label, **data})
    about = machine(results)
    print(f"\n{about}")
    device = next((r["device"] for r in results if r["device"].get("round_trip_us", -1) >= 0), None)
    if device:
        print(f"GPU host round trip: {device['round_trip_us']:.1f} us")
    out = Path(args.out) if args.out else None
    if out:
        out.mkdir(parents=True, exist_ok=True)
        (out / "bench.json").write_text(json.dumps({"machine": about, "results": results}, indent=2))
    try:
        import matplotlib  # noqa: F401  (optional: only the plots need it)
        can_plot = True
    except ImportError:
        can_plot = False
        if out:
            print("matplotlib is not installed: tables only, no plots (pip install matplotlib)", file=sys.stderr)
    for lab in labs:
        rows = table(lab, results)
        if not rows:
            continue
        print(f"\n### {lab}\n\n{TABLE_HEADER}", *rows, sep="\n")
        if out:
            env = [f"SSSP_DATA_DIR={data_dir}"] if data_dir else []
            command = shlex.join([*env, "python3", ".ci/bench.py", *sys.argv[1:]])
            (out / f"{lab}.md").write_text(
                f"<!-- Written by .ci/bench.py; do not edit: run the command below again. -->\n"
                f"{about}\nCommand: `{command}`\n\n{TABLE_HEADER}\n" + "\n".join(rows) + "\n")
            if can_plot:
                plot(lab, results, out / f"{lab}.svg")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
