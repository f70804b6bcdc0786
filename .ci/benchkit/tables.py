"""The Markdown tables: the labs' tables written from the runs, and the tables
of text read back."""
import re


TABLE_HEADER = ("| graph | vertices | arcs | algorithm | median ms | MTEPS | iterations | launches | syncs "
                "| us per iteration | speedup over lab01/dijkstra | vertices processed | edges relaxed | verified |\n"
                "|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")


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
