#!/usr/bin/env python3
"""Time the reference solutions (sssp-ref) on the benchmark graphs and print a
Markdown table per lab, the tables the handouts quote.

    python3 .ci/bench.py --bin build/bin [--lab lab01] [--quick] [--out DIR] [--gapbs DIR] [--no-programs]
    python3 .ci/bench.py --pages-only --out docs/results [--lab lab01]   (re-render, time nothing)

Real graphs come from SSSP_DATA_DIR (skipped, with a note, when absent);
unweighted ones get weights uniform 1..1000 by seed 1, as in the handouts.
Every run is verified by the runner's certificate check.

--out DIR writes bench.json and, per lab, LAB.md (the table, with the machine,
the date and the command that made it; handouts include these files) and, when
matplotlib is installed, LAB.svg (median time per graph and algorithm).

With --out on a machine with a GPU (not with --quick or --gen), it also runs
each lab's own benchmark programs and writes their output to LAB-PROGRAM.md,
with the lab's plot of it where it has one; a lab may also ask for
LAB-levels.svg, the time per iteration against the vertices it expanded.

Each lab describes its rows, programs and plots in tests/<lab>/benchmarks.py
(the format: .ci/benchkit/labs.py); the code lives in .ci/benchkit/.

--gapbs DIR (default ../shared/peers/gapbs when present; "none" to skip) adds a
CPU peer to the SSSP tables: gapbs's OpenMP delta-stepping, built in a
temporary directory outside the project, on the same weighted graph (written
by sssp-ref --write-graph) from the same source, on 1 thread and on all cores.
"""
import sys

from benchkit.main import main  # .ci/benchkit/: run as a script, this file's folder is where Python looks first

if __name__ == "__main__":
    sys.exit(main(__doc__))
