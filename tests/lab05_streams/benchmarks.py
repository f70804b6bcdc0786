"""Lab 05's stream-bench in .ci/bench.py (the format: .ci/benchkit/labs.py). Its
graphs are dense matrices: no rows in the runner's tables, no gapbs peer."""
from benchkit.plots import pyplot, save
from benchkit.tables import number, program_table

PROGRAMS = [("stream-bench", [[]])]


def plot_program(program: str, reports: list[dict], path) -> bool:
    """Lab 05: the speedups against n, with and without streams, and the timeline of round 1."""
    plt = pyplot()

    if not reports or not program_table(reports[0], "sizes"):
        return False
    sizes, overlap = program_table(reports[0], "sizes"), program_table(reports[0], "overlap")
    # Constrained layout gives the timeline's row labels their own room (they ran into the left panel's frame).
    fig, (left, right) = plt.subplots(1, 2, figsize=(13, 4.5), layout="constrained")
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
        right.set_xlim(left=0)
        right.set_xlabel("ms after the run started")
        right.set_title("lab05: the timeline of one run per version and K")
        # Outside the axes: every bar runs to the right end, where a legend inside hid the last one's end.
        right.legend(fontsize="x-small", loc="upper left", bbox_to_anchor=(1.01, 1))
    save(fig, path)
    return True
