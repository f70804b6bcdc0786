#!/usr/bin/env python3
"""Time the reference solutions (sssp-ref) on the benchmark graphs and print a
Markdown table per lab, the tables the handouts quote.

    python3 .ci/bench.py --bin build/bin [--lab lab01] [--quick] [--out DIR] [--gapbs DIR] [--no-programs]

Real graphs come from SSSP_DATA_DIR (skipped, with a note, when absent);
unweighted ones get weights uniform 1..1000 by seed 1, as in the handouts.
Every run is verified by the runner's certificate check.

--out DIR writes bench.json and, per lab, LAB.md (the table, with the machine,
the date and the command that made it; handouts include these files) and, when
matplotlib is installed, LAB.svg (median time per graph and algorithm).

With --out on a machine with a GPU (not with --quick or --gen), it also runs
each lab's own benchmark program (PROGRAMS: reduce-bench, stream-bench,
spmv-bench, locality-bench, delta-bench, adds-bench) and writes its output to
LAB-PROGRAM.md, with a plot for labs 04, 05, 07 and 09 (the manager's delta
trace, from adds-bench --trace CSV files beside it); labs 02 and 03 get
LAB-levels.svg, the time per iteration against the vertices it expanded.

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
# The labs' own benchmark programs (reference builds), in the shapes of the
# papers' tables: (lab, program, one argument list per invocation). "@FILE"
# names a file of SSSP_DATA_DIR; a missing one drops its "--graph @FILE" pair
# (an invocation left with no graph is skipped); "{out}" is the --out directory. Their output, Markdown
# already, goes to LAB-PROGRAM.md, with a plot where one reads better.
ROAD = [f"USA-road-{name}.pace.gr.gz" for name in ("NY", "BAY", "COL", "FLA", "NW", "NE")]
PROGRAMS = [
    ("lab04", "reduce-bench", [[]]),
    ("lab05", "stream-bench", [[]]),
    ("lab06", "spmv-bench", [
        [*(arg for name in ROAD for arg in ("--graph", "@" + name)), "--gen", "rmat:20:16", "--gen", "grid:1448x1448",
         "--weights", WEIGHTS, "--repeats", "7"],
        ["--gen", "grid:2048x2048", "--gen", "rmat:21:8", "--weights", WEIGHTS, "--repeats", "9", "--sweeps-only"]]),
    ("lab07", "locality-bench", [
        ["--graph", "@USA-road-NY.pace.gr.gz", "--weights", WEIGHTS, "--repeats", "5"],
        ["--graph", "@USA-road-NE.pace.gr.gz", "--weights", WEIGHTS, "--repeats", "5"],
        ["--gen", "grid:2000x2000", "--weights", WEIGHTS, "--repeats", "3"]]),
    ("lab08", "delta-bench", [
        ["--graph", "@USA-road-NY.pace.gr.gz", "--weights", WEIGHTS, "--repeats", "3"],
        ["--gen", "rmat:20:16", "--weights", WEIGHTS, "--repeats", "3"],
        ["--gen", "grid:2000x2000", "--weights", WEIGHTS, "--repeats", "3"]]),
    ("lab09", "adds-bench", [
        ["--gen", "grid:1000x1000", "--weights", WEIGHTS, "--repeats", "5", "--trace", "{out}/lab09-trace-grid.csv"],
        ["--graph", "@USA-road-NY.pace.gr.gz", "--weights", WEIGHTS, "--repeats", "5",
         "--trace", "{out}/lab09-trace-NY.csv"],
        ["--graph", "@USA-road-NE.pace.gr.gz", "--weights", WEIGHTS, "--repeats", "5",
         "--trace", "{out}/lab09-trace-NE.csv"]]),
]
# Level-synchronous algorithms whose time per iteration is plotted against
# the vertices each iteration expanded (labs 02 and 03).
LEVEL_PLOTS = ("lab02", "lab03")
# The CPU peer's rows in the SSSP tables: gapbs's bucket width (-d) by graph
# family, for weights 1..1000: road and grid as in ../shared/peers/README.md;
# R-MAT 1 (on rmat scale 18 as fast as 10, and 50 to 4000 slower). Other graphs:
# no peer rows.
# Lab 03's tables are mostly BFS, where an SSSP peer would mislead; lab 05's graphs are dense matrices.
GAPBS_LABS = ("lab01", "lab02", "lab04", "lab06", "lab07", "lab08", "lab09")
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
    """The first match of pattern's group 1 in command's output, or "unknown" (also when the
    command fails: a broken nvidia-smi prints its error on stdout)."""
    try:
        proc = subprocess.run(command, capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"
    if proc.returncode != 0:
        return "unknown"
    match = re.search(pattern, proc.stdout)
    return match.group(1).strip() if match else "unknown"


def machine(results: list) -> str:
    """One line naming the GPU, driver, CUDA, CPU and date of this run."""
    device = next((r["device"] for r in results if r["device"].get("available")), None)
    gpu = device["summary"] if device else probe(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"], r"(.+)")
    gpu = "none" if gpu == "unknown" else gpu
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


def runner_json(command: list[str]) -> tuple[dict | None, list[str]]:
    """One sssp-ref run (its command is printed on stderr): (its JSON, None when it printed
    none; what failed, one line each)."""
    print("+", shlex.join(command), file=sys.stderr, flush=True)
    proc = subprocess.run(command, capture_output=True, text=True)
    message = (proc.stderr.strip().splitlines() or ["no message"])[-1]
    try:
        data = json.loads(proc.stdout)
    except json.JSONDecodeError:
        return None, [f"sssp-ref died (exit {proc.returncode}) without its JSON: {message}"]
    failures = [f"sssp-ref exit {proc.returncode}: {message}"] if proc.returncode != 0 else []
    for run in data["runs"]:
        if "error" in run:
            failures.append(f"{run['algorithm']} from source {run['source']}: {run['error']}")
        elif run.get("verified") is False:
            failures.append(f"{run['algorithm']} from source {run['source']}: wrong answer: {run['verdict']}")
    return data, failures


def run_runner(command: list[str], algos: list[str]) -> tuple[dict | None, list[str]]:
    """sssp-ref's command with algos: (the JSON of every run, None when none ran; what failed).
    A runner that dies without its JSON (a crash, an error it did not catch) is run again once
    per algorithm, so that a failing algorithm costs its own row, not the whole graph's."""
    data, failures = runner_json([*command, *(arg for algo in algos for arg in ("--algo", algo))])
    if data is not None or len(algos) == 1:
        return data, failures
    first, runs = None, []
    for algo in algos:
        alone, alone_failures = runner_json([*command, "--algo", algo])
        first = first or alone
        if alone:
            failures += alone_failures
            runs += alone["runs"]
        else:
            failures.append(f"{algo}: {alone_failures[0]}")
            runs.append({"algorithm": algo, "error": alone_failures[0]})
    return ({**first, "runs": runs} if first else None), failures


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


def pyplot():
    """matplotlib's pyplot on its file-only backend (imported when a plot is drawn: it is optional)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def save(fig, path: Path) -> None:
    """Writes fig to path (the format from its suffix) and frees it."""
    fig.savefig(path, bbox_inches="tight")
    pyplot().close(fig)


def log_log(ax, xlabel: str, ylabel: str, title: str) -> None:
    """Log scales on both axes, their labels, the title and the legend."""
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend(fontsize="small")


def plot(lab: str, results: list, path: Path) -> None:
    """A grouped bar chart of the median time per graph and algorithm (log scale)."""
    plt = pyplot()

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
    save(fig, path)


def program_arguments(arguments: list[str], data_dir: str) -> tuple[list[str], list[str]]:
    """arguments with each "@FILE" resolved in data_dir, and the files that are missing
    (their "--graph @FILE" pairs dropped)."""
    resolved, missing = [], []
    for arg in arguments:
        if not arg.startswith("@"):
            resolved.append(arg)
            continue
        path = Path(data_dir) / arg[1:]
        if data_dir and path.exists():
            resolved.append(str(path))
        else:
            missing.append(arg[1:])
            resolved.pop()  # its "--graph"
    return resolved, missing


def run_program(binary: Path, arguments: list[str], data_dir: str, out: Path) -> tuple[str, bool]:
    """One benchmark program's invocation: (Markdown, it passed)."""
    parts, passed = [], True
    resolved, missing = program_arguments([a.replace("{out}", str(out)) for a in arguments], data_dir)
    if missing:
        parts.append(f"Not in SSSP_DATA_DIR, left out: {', '.join(missing)}.\n")
    if missing and not any(a in ("--graph", "--gen") for a in resolved):
        return "".join(parts), True
    command = [str(binary), *resolved]
    print("+", shlex.join(command), file=sys.stderr, flush=True)
    proc = subprocess.run(command, capture_output=True, text=True)
    data_prefix = str(Path(data_dir)) + "/" if data_dir else None
    shown = shlex.join([binary.name, *(a.replace(data_prefix, "") if data_prefix else a for a in resolved)])
    shown = shown.replace(str(out) + "/", "")
    parts.append(f"`{shown}`\n\n{proc.stdout.strip().replace(str(out) + '/', '')}\n")
    if proc.returncode != 0:
        parts.append(f"\n**exit {proc.returncode}**: {proc.stderr.strip()[-500:]}\n")
        print(proc.stderr, file=sys.stderr)
        passed = False
    return "".join(parts), passed


def markdown_tables(text: str) -> list[tuple[list[str], list[list[str]]]]:
    """The Markdown tables of text: (header cells, rows of cells) each."""
    tables, lines = [], text.splitlines()
    for i in range(len(lines) - 1):
        if lines[i].startswith("|") and re.match(r"^\|[-:|\s]+\|$", lines[i + 1].strip()):
            cells = lambda line: [c.strip() for c in line.strip().strip("|").split("|")]  # noqa: E731
            rows = []
            for line in lines[i + 2:]:
                if not line.startswith("|"):
                    break
                rows.append(cells(line))
            tables.append((cells(lines[i]), rows))
    return tables


def number(cell: str) -> float | None:
    """A table cell as a number ("~1.8 s" and "12 ms" in ms units are not converted), else None."""
    match = re.match(r"^~?\s*([\d,]*\.?\d+)", cell.replace("**", ""))
    return float(match.group(1).replace(",", "")) if match else None


def plot_levels(lab: str, results: list, path: Path) -> bool:
    """Time per iteration against the vertices an iteration expands, one point per graph and
    level-synchronous algorithm that counts them (a BFS: the reached vertices, each once): the
    fixed cost of a level is the floor under every point."""
    plt = pyplot()

    points = {}
    for r in results:
        if r["lab"] != lab:
            continue
        # A BFS expands each reached vertex once, and Dijkstra's count is the reached vertices.
        reached = next((run["counters"]["vertices_processed"] for run in r["runs"]
                        if run["algorithm"] == "lab01/dijkstra" and "counters" in run), 0)
        for run in r["runs"]:
            c = run.get("counters") or {}
            expanded = c.get("vertices_processed") or (reached if run["algorithm"].endswith("bfs") else 0)
            if "median_ms" in run and c.get("kernel_launches") and c.get("iterations") and expanded:
                points.setdefault(run["algorithm"], []).append(
                    (expanded / c["iterations"], 1000 * run["median_ms"] / c["iterations"], r["label"]))
    if not points:
        return False
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for algo, xy in points.items():
        ax.scatter([x for x, _, _ in xy], [y for _, y, _ in xy], label=algo)
        for x, y, label in xy:
            ax.annotate(label, (x, y), fontsize="x-small", xytext=(3, 3), textcoords="offset points")
    log_log(ax, "vertices expanded per iteration (mean over the run)", "time per iteration (us, mean)",
            f"{lab}: time per level against frontier size")
    save(fig, path)
    return True


def plot_reduce_bench(text: str, path: Path) -> bool:
    """Lab 04: the bandwidth of each reduction stage, CUB's and the CPU loop's against n."""
    plt = pyplot()

    tables = [t for t in markdown_tables(text) if t[0] and t[0][0] == "method"]
    if not tables:
        return False
    header, rows = tables[0]
    sizes = [number(h) for h in header[1:]]
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for row in rows:
        xs, ys = [], []
        for n, cell in zip(sizes, row[1:]):
            us = number(cell)
            if n and us:
                xs.append(n)
                ys.append(n * 8 / (us * 1e3))  # 8-byte keys read once: GB/s
        ax.plot(xs, ys, marker="o", label=row[0], linestyle="--" if "CUB" in row[0] or "CPU" in row[0] else "-")
    log_log(ax, "keys n", "GB/s (8-byte keys read once / median time)",
            "lab04: arg-min bandwidth per reduction stage, against CUB and a CPU loop")
    save(fig, path)
    return True


def plot_stream_bench(text: str, path: Path) -> bool:
    """Lab 05: the speedups against n, with and without streams, and the timeline of round 1."""
    plt = pyplot()

    tables = markdown_tables(text)
    sizes = next((t for t in tables if t[0] and t[0][0] == "vertices"), None)
    overlap = next((t for t in tables if t[0] and t[0][0] == "version"), None)
    if not sizes:
        return False
    fig, (left, right) = plt.subplots(1, 2, figsize=(13, 4.5))
    header, rows = sizes
    column = {name: i for i, name in enumerate(header)}
    ks = [h for h in header if h.startswith("GPU WE K=")]
    ns = [number(r[0]) for r in rows]
    cpu_we = [number(r[column["CPU work-eff. ms"]]) for r in rows]
    series = {"GPU naive vs CPU naive": [
        (n, number(r[column["CPU naive ms"]]) / number(r[column["GPU naive ms"]]))
        for n, r in zip(ns, rows) if number(r[column["CPU naive ms"]]) and number(r[column["GPU naive ms"]])]}
    for k in ks:
        label = "no streams (K=1)" if k.endswith("K=1 ms") else f"{k.removeprefix('GPU WE ').removesuffix(' ms')} streams"
        series[f"GPU work-efficient, {label}, vs CPU work-efficient"] = [
            (n, c / number(r[column[k]])) for n, c, r in zip(ns, cpu_we, rows) if c and number(r[column[k]])]
    for label, xy in series.items():
        left.plot([x for x, _ in xy], [y for _, y in xy], marker="o", label=label)
    left.set_xscale("log")
    left.set_yscale("log")
    left.set_xlabel("vertices (random complete graph)")
    left.set_ylabel("speedup (CPU ms / GPU ms)")
    left.set_title("lab05: speedup against n")
    left.legend(fontsize="x-small")
    if overlap:
        header, rows = overlap
        column = {name: i for i, name in enumerate(header)}
        for y, r in enumerate(rows):
            start, copy = number(r[column["first copy starts"]]) or 0, number(r[column["copy"]]) or 0
            end, total = number(r[column["round 1 ends"]]) or 0, number(r[column["run total"]]) or 0
            right.barh(y, copy, left=start, color="tab:blue", label="copies (parts back to back)" if y == 0 else None)
            right.barh(y, end - start - copy, left=start + copy, color="tab:orange",
                       label="round 1 after the last copy" if y == 0 else None)
            right.barh(y, total - end, left=end, color="tab:gray", label="later rounds, download" if y == 0 else None)
        right.set_yticks(range(len(rows)), [f"{r[0]}, K={r[1]}" for r in rows], fontsize="small")
        right.invert_yaxis()
        right.set_xlabel("ms after the run started")
        right.set_title("lab05: the timeline of one run per version and K")
        right.legend(fontsize="x-small", loc="lower right")
    save(fig, path)
    return True


def plot_locality_bench(text: str, path: Path) -> bool:
    """Lab 07: time against k for 1, 2 and 4 vertices per thread, one panel per graph (Fig. 4's shape)."""
    plt = pyplot()

    # One section per invocation, from its "graph:" line; its first k-by-v/t table is the sweep.
    sweeps = []
    for section in re.split(r"^(?=graph: )", text, flags=re.M)[1:]:
        name = re.match(r"graph: (.+?): \d+ vertices", section)
        table = next((t for t in markdown_tables(section) if t[0][:3] == ["launch mode", "k", "v/t"]), None)
        if table and table[1]:
            sweeps.append((name.group(1) if name else "?", table[1]))
    if not sweeps:
        return False
    fig, axes = plt.subplots(1, len(sweeps), figsize=(5 * len(sweeps), 4), squeeze=False)
    for ax, (graph, rows) in zip(axes[0], sweeps):
        for vt in sorted({r[2] for r in rows}, key=int):
            xy = [(int(r[1]), number(r[3])) for r in rows if r[2] == vt]
            ax.plot([x for x, _ in xy], [y for _, y in xy], marker="o", label=f"{vt} vertices per thread")
        ax.set_xlabel("k (relaxation depth)")
        ax.set_ylabel("median ms")
        ax.set_title(graph, fontsize="small")
        ax.legend(fontsize="x-small")
    fig.suptitle("lab07: k against vertices per thread (blind launches)")
    save(fig, path)
    return True


def plot_adds_trace(text: str, path: Path) -> bool:
    """Lab 09: how the manager moves delta during a run (the ADDS paper's Figs. 11 to 15): delta,
    the utilisation it reads, and the tail and repeat shares, against the manager's passes, one
    column per trace file that adds-bench --trace named in text."""
    import csv

    plt = pyplot()

    # The CSV files lie beside the plot (adds-bench wrote them into the --out directory).
    names = re.findall(r"^\(the dynamic row's trace, \d+ decisions, is in (.+)\)$", text, re.M)
    files = [path.parent / Path(name).name for name in names]
    traces = []
    for file in (f for f in files if f.exists()):
        with file.open() as rows:
            traces.append((file, list(csv.DictReader(rows))))
    traces = [(f, rows) for f, rows in traces if rows]
    if not traces:
        return False
    fig, axes = plt.subplots(3, len(traces), figsize=(5 * len(traces), 8), squeeze=False, sharex="col")
    for column, (file, rows) in enumerate(traces):
        passes = [int(r["pass"]) for r in rows]
        top, middle, bottom = axes[0][column], axes[1][column], axes[2][column]
        top.step(passes, [int(r["delta_after"]) for r in rows], where="post")
        top.set_title(file.stem.removeprefix("lab09-trace-"), fontsize="small")
        top.set_ylabel("delta")
        middle.plot(passes, [float(r["utilisation"]) for r in rows], marker=".")
        middle.set_ylabel("utilisation (arcs in flight per thread)")
        for name in ("tail_share", "repeat_share"):
            bottom.plot(passes, [float(r[name]) for r in rows], marker=".", label=name.replace("_", " "))
        bottom.set_ylabel("share")
        bottom.set_xlabel("manager pass")
        bottom.legend(fontsize="x-small")
    fig.suptitle("lab09: the manager's delta decisions (dynamic delta)")
    save(fig, path)
    return True


PROGRAM_PLOTS = {"reduce-bench": plot_reduce_bench, "stream-bench": plot_stream_bench,
                 "locality-bench": plot_locality_bench, "adds-bench": plot_adds_trace}


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
    parser.add_argument("--no-programs", action="store_true",
                        help="skip the labs' own benchmark programs (run with --out on a GPU machine otherwise)")
    args = parser.parse_args()
    data_dir = os.environ.get("SSSP_DATA_DIR", "")
    known = list(dict.fromkeys([lab for lab, *_ in BENCHMARKS] + [lab for lab, *_ in PROGRAMS]))
    unknown = sorted(set(args.lab or []) - set(known))
    if unknown:
        parser.error(f"unknown --lab {', '.join(unknown)} (one of {', '.join(known)})")
    labs = [lab for lab in known if not args.lab or lab in args.lab]
    results, failures = [], []
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
            graph_file.unlink(missing_ok=True)  # the runner writes it only when every run succeeded
            command = [str(Path(args.bin) / "sssp-ref"), *graph_args, "--weights", WEIGHTS, "--reps", str(reps),
                       "--random-sources", "1", "--output", "json"]
            if peer:
                command += ["--write-graph", str(graph_file)]
            data, graph_failures = run_runner(command, algos)
            failures += [f"{lab}, {label}: {failure}" for failure in graph_failures]
            if data is None:
                continue
            source = next((run["source"] for run in data["runs"] if "median_ms" in run), None)
            if peer and source is not None and graph_file.exists():
                key = (tuple(graph_args), source)
                if key not in peer_rows:
                    peer_rows[key] = [run_gapbs(gapbs, graph_file, source, delta, threads, reps)
                                      for threads in (1, os.cpu_count())]
                data["runs"] += peer_rows[key]
                failures += [f"{lab}, {label}: {run['algorithm']}: {run.get('error', 'not verified')}"
                             for run in peer_rows[key] if not run.get("verified")]
            results.append({"lab": lab, "label": label, **data})
    for failure in failures:
        print(f"FAILED: {failure}", file=sys.stderr)
    failed = bool(failures)
    about = machine(results)
    print(f"\n{about}")
    device = next((r["device"] for r in results if r["device"].get("round_trip_us", -1) >= 0), None)
    if device:
        print(f"GPU host round trip: {device['round_trip_us']:.1f} us")
    out = Path(args.out) if args.out else None
    if out:
        out.mkdir(parents=True, exist_ok=True)
        # Other labs' results from an earlier run into the same directory stay (a run split by --lab).
        for r in results:
            r["machine"] = about  # each lab's own, where a split run's halves differ
        earlier = out / "bench.json"
        kept = [r for r in json.loads(earlier.read_text())["results"] if r["lab"] not in labs] \
            if earlier.exists() else []
        earlier.write_text(json.dumps({"machine": about, "results": kept + results}, indent=2))
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
                if lab in LEVEL_PLOTS and plot_levels(lab, results, out / f"{lab}-levels.svg"):
                    print(f"wrote {out / f'{lab}-levels.svg'}", file=sys.stderr)
    if out and not (args.quick or args.gen or args.no_programs):
        if machine(results).startswith("GPU: none"):
            print("no GPU: the labs' benchmark programs are not run", file=sys.stderr)
        else:
            failed = run_programs(labs, Path(args.bin), out, data_dir, machine(results), can_plot) or failed
    return 1 if failed else 0


def run_programs(labs: list[str], bin_dir: Path, out: Path, data_dir: str, about: str, can_plot: bool) -> bool:
    """Runs PROGRAMS of labs and writes LAB-PROGRAM.md (and .svg); True when one failed."""
    failed = False
    for lab, program, invocations in PROGRAMS:
        if lab not in labs:
            continue
        binary = bin_dir / f"{program}-ref"
        if not binary.exists():
            print(f"{binary} is not built: {lab}'s {program} is not run", file=sys.stderr)
            failed = True
            continue
        sections = []
        for arguments in invocations:
            text, passed = run_program(binary, arguments, data_dir, out)
            sections.append(text)
            failed = failed or not passed
        body = "\n".join(sections)
        env = [f"SSSP_DATA_DIR={data_dir}"] if data_dir else []
        command = shlex.join([*env, "python3", ".ci/bench.py", *sys.argv[1:]])
        (out / f"{lab}-{program}.md").write_text(
            f"<!-- Written by .ci/bench.py; do not edit: run the command below again. -->\n"
            f"{about}\nCommand: `{command}`, which ran `{program}-ref` as below.\n\n{body}")
        if can_plot and program in PROGRAM_PLOTS:
            try:  # a plot that cannot be drawn costs its picture, not the other labs' runs
                if PROGRAM_PLOTS[program](body, out / f"{lab}-{program}.svg"):
                    print(f"wrote {out / f'{lab}-{program}.svg'}", file=sys.stderr)
            except (KeyError, ValueError, IndexError, TypeError, ZeroDivisionError) as error:
                print(f"{lab}-{program}.svg not drawn: {type(error).__name__}: {error}", file=sys.stderr)
                failed = True
    return failed


if __name__ == "__main__":
    sys.exit(main())
