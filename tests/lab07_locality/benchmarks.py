"""Lab 07's rows in .ci/bench.py's tables and its locality-bench (the format: .ci/benchkit/labs.py)."""
from benchkit.plots import pyplot, save
from benchkit.tables import number, program_table

# k-step waves and blind launches beside lab 02's one-arc rounds they improve on.
_ALGORITHMS = ["lab01/dijkstra", "lab02/frontier-sssp", "lab07/"]
ROWS = [
    ("USA-road-NY", ["--graph", "USA-road-NY.pace.gr.gz"], _ALGORITHMS, 5),
    ("USA-road-NE", ["--graph", "USA-road-NE.pace.gr.gz"], _ALGORITHMS, 5),
    ("grid 2000x2000", ["--gen", "grid:2000x2000"], _ALGORITHMS, 3),
]
BASELINE = "lab01/dijkstra"  # the speedup column's reference, run in every row
GAPBS_PEER = True
PROGRAMS = [
    ("locality-bench", [
        ["--graph", "@USA-road-NY.pace.gr.gz", "--weights", "1:1000:1", "--repeats", "5"],
        ["--graph", "@USA-road-NE.pace.gr.gz", "--weights", "1:1000:1", "--repeats", "5"],
        ["--gen", "grid:2000x2000", "--weights", "1:1000:1", "--repeats", "3"]]),
]


def plot_program(program: str, reports: list[dict], path) -> bool:
    """Lab 07: time against k for 1, 2 and 4 vertices per thread, one panel per graph (Fig. 4's shape)."""
    plt = pyplot()

    # One panel per invocation that got as far as its sweep.
    sweeps = [(report["facts"].get("graph", "?"), program_table(report, "sweep")[1])
              for report in reports if (program_table(report, "sweep") or (None, []))[1]]
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
