"""gapbs's OpenMP delta-stepping, the CPU peer of the SSSP tables."""
import os
import re
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

# gapbs's bucket width (-d) by graph family, for weights 1..1000: road and
# grid as in ../shared/peers/README.md; R-MAT 1 (on rmat scale 18 as fast as
# 10, and 50 to 4000 slower). Other graphs: no peer rows.
GAPBS_DELTA = {"USA-road-": 4000, "grid ": 4000, "rmat ": 1}


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
