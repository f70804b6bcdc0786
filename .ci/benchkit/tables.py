"""The labs' Markdown tables written from the runs, and the tables of the
programs' JSON reports read."""
import re


def header(baseline: str | None) -> str:
    """The head of a lab's table, whose speedup column is over `baseline` (None: no speedups)."""
    return ("| graph | vertices | arcs | algorithm | median ms | MTEPS | iterations | launches | syncs "
            f"| us per iteration | speedup over {baseline or '-'} | vertices processed | edges relaxed | verified |\n"
            "|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")


def table(lab: str, results: list, baseline: str | None = None) -> list[str]:
    """The Markdown rows of one lab's table, with speedups over `baseline` (an
    algorithm name): its own row too, so that every algorithm of the lab's plot
    has one; other algorithms of the baseline's lab only that lab's table shows."""
    baseline_name, baseline_lab = baseline, baseline.split("/")[0] if baseline else None
    rows = []
    for r in results:
        if r["lab"] != lab:
            continue
        baseline = next((run["median_ms"] for run in r["runs"]
                         if baseline and run["algorithm"] == baseline and "median_ms" in run), None)
        # The arcs leaving reached vertices, the same for every verified run from this source.
        traversed = next((run["edges_traversed"] for run in r["runs"] if "edges_traversed" in run), 0)
        for run in r["runs"]:
            if "median_ms" not in run:  # failed ("error") or did not run ("skipped")
                reason = run.get("error") or "skipped: " + run["skipped"]
                rows.append(f"| {r['label']} | | | {run['algorithm']} | {reason} | | | | | | | | | |")
                continue
            if (baseline_lab and lab != baseline_lab and run["algorithm"].startswith(baseline_lab + "/")
                    and run["algorithm"] != baseline_name):
                continue  # the baseline's lab shows it
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


def number(cell) -> float | None:
    """A cell of a program's JSON table as a number: a number as it is, text such as "~20186.5"
    (extrapolated) or "1,046" read, other text ("refused") None."""
    if isinstance(cell, (int, float)):
        return float(cell)
    match = re.match(r"^~?\s*([\d,]*\.?\d+)", cell.replace("**", ""))
    return float(match.group(1).replace(",", "")) if match else None


def program_table(report: dict, title: str) -> tuple[list[str], list[list]] | None:
    """The table called title of a program's JSON report (its --json file): (columns, rows), or None."""
    found = next((t for t in report.get("tables", []) if t["title"] == title), None)
    return (found["columns"], found["rows"]) if found else None
