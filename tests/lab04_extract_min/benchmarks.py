"""Lab 04's rows in .ci/bench.py's tables and its reduce-bench (the format: .ci/benchkit/labs.py)."""
from benchkit.plots import log_log, pyplot, save
from benchkit.tables import number, program_table

# Lab 04 extracts one vertex per round: V rounds of an O(V) arg-min.
_ALGORITHMS = ["lab01/dijkstra", "lab03/edge-dijkstra", "lab04/"]
ROWS = [
    ("rome99", ["--graph", "rome99.gr.gz"], _ALGORITHMS, 5),
    ("grid 256x256", ["--gen", "grid:256x256"], _ALGORITHMS, 3),
    ("rmat scale 16", ["--gen", "rmat:16:16"], _ALGORITHMS, 3),
    ("soc-Slashdot0902", ["--graph", "soc-Slashdot0902.txt.gz"], _ALGORITHMS, 3),
    ("USA-road-NY", ["--graph", "USA-road-NY.pace.gr.gz"], ["lab01/dijkstra", "lab04/"], 1),
]
BASELINE = "lab01/dijkstra"  # the speedup column's reference, run in every row
GAPBS_PEER = True
# Chen's Table 1: the arg-min of n keys by each stage.
PROGRAMS = [("reduce-bench", [[]])]


def plot_program(program: str, reports: list[dict], path) -> bool:
    """Lab 04: the bandwidth of each reduction stage, CUB's and the CPU loop's against n."""
    plt = pyplot()

    table = program_table(reports[0], "argmin_us") if reports else None
    if not table:
        return False
    header, rows = table
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
