"""Lab 09's rows in .ci/bench.py's tables and its adds-bench (the format: .ci/benchkit/labs.py)."""
import csv
from pathlib import Path

from benchkit.plots import pyplot, save

# ADDS beside lab 08's Near-Far (the paper's baseline), on the issue's target
# graphs. Settings and ablations: adds-bench.
_ALGORITHMS = ["lab01/dijkstra", "lab08/near-far", "lab09/"]
ROWS = [
    ("USA-road-NY", ["--graph", "USA-road-NY.pace.gr.gz"], _ALGORITHMS, 5),
    ("USA-road-NE", ["--graph", "USA-road-NE.pace.gr.gz"], _ALGORITHMS, 5),
    ("grid 2000x2000", ["--gen", "grid:2000x2000"], _ALGORITHMS, 3),
    ("rmat scale 20", ["--gen", "rmat:20:16"], _ALGORITHMS, 5),
]
BASELINE = "lab01/dijkstra"  # the speedup column's reference, run in every row
GAPBS_PEER = True
PROGRAMS = [
    ("adds-bench", [
        ["--gen", "grid:1000x1000", "--weights", "1:1000:1", "--repeats", "5", "--trace", "{out}/lab09-trace-grid.csv"],
        ["--graph", "@USA-road-NY.pace.gr.gz", "--weights", "1:1000:1", "--repeats", "5",
         "--trace", "{out}/lab09-trace-NY.csv"],
        ["--graph", "@USA-road-NE.pace.gr.gz", "--weights", "1:1000:1", "--repeats", "5",
         "--trace", "{out}/lab09-trace-NE.csv"]]),
]


def plot_program(program: str, reports: list[dict], path) -> bool:
    """Lab 09: how the manager moves delta during a run (the ADDS paper's Figs. 11 to 15): delta,
    the utilisation it reads, and the tail and repeat shares, against the manager's passes, one
    column per trace file that adds-bench --trace wrote (the "trace" fact of its report)."""
    plt = pyplot()

    # The CSV files lie beside the plot (adds-bench wrote them into the --out directory).
    files = [path.parent / Path(report["facts"]["trace"]).name for report in reports if "trace" in report["facts"]]
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
