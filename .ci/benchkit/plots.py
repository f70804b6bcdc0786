"""The plots every lab gets: median time per graph and algorithm, and the
time per level of level-synchronous algorithms; helpers for the labs' own."""
from pathlib import Path

from benchkit.tables import algorithm_label


def pyplot():
    """matplotlib's pyplot on its file-only backend (imported when a plot is drawn: it is optional)."""
    import matplotlib
    matplotlib.use("Agg")
    matplotlib.rcParams["svg.hashsalt"] = "benchkit"  # the same SVG from the same data (no random ids)
    import matplotlib.pyplot as plt
    return plt


def save(fig, path: Path) -> None:
    """Writes fig to path (the format from its suffix) and frees it."""
    # No date in an SVG: drawn again from the same data, it is the same file.
    fig.savefig(path, bbox_inches="tight", **({"metadata": {"Date": None}} if Path(path).suffix == ".svg" else {}))
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
    labels = {algo: algorithm_label(algo) for algo in algos}  # as the table names them
    width = 0.8 / max(len(algos), 1)
    fig, ax = plt.subplots(figsize=(max(6, 1.6 * len(graphs)), 4.5))
    for i, algo in enumerate(algos):
        xs, ys = [], []
        for g, r in enumerate(graphs):
            ms = next((run["median_ms"] for run in r["runs"] if run["algorithm"] == algo and "median_ms" in run), None)
            if ms:
                xs.append(g + (i - (len(algos) - 1) / 2) * width)
                ys.append(ms)
        ax.bar(xs, ys, width, label=labels[algo])
    ax.set_xticks(range(len(graphs)), [r["label"] for r in graphs], rotation=20, ha="right")
    ax.set_yscale("log")
    ax.set_ylabel("median time (ms, log scale)")
    ax.set_title(f"{lab}: time per graph and algorithm")
    ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1))
    save(fig, path)


def plot_levels(lab: str, results: list, path: Path, baseline: str) -> bool:
    """Time per iteration against the vertices an iteration expands, one point per graph and
    level-synchronous algorithm that counts them (a BFS: the reached vertices, each once): the
    fixed cost of a level is the floor under every point. `baseline` (a Dijkstra) counts the
    vertices a source reaches."""
    plt = pyplot()

    points = {}
    for r in results:
        if r["lab"] != lab:
            continue
        # A BFS expands each reached vertex once, and the baseline Dijkstra's count is the reached vertices.
        reached = next((run["counters"]["vertices_processed"] for run in r["runs"]
                        if run["algorithm"] == baseline and "counters" in run), 0)
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
