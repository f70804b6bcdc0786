"""The labs' Markdown tables written from the runs, and the tables of the
programs' JSON reports read."""
import re


# The columns of a lab's table, one row per graph and algorithm. A page shows the graphs'
# sizes (vertices, arcs) once, in a table of their own above it: 12 columns fit a
# narrow content column where 14 did not.
COLUMNS = ["graph", "vertices", "arcs", "algorithm", "median ms", "MTEPS", "iterations", "launches", "syncs",
           "us per iteration", "speedup", "vertices processed", "edges relaxed", "verified"]
GRAPH_COLUMNS = COLUMNS[:3]
SHOWN = [COLUMNS[0]] + COLUMNS[3:]
GAPBS_NAME = re.compile(r"^gapbs delta-stepping (\d+) threads?(?: \(all cores\))?$")
GAPBS_LABEL = re.compile(r"^gapbs x(\d+)$")


def algorithm_label(name: str) -> str:
    """A row's algorithm as the tables and plots show it: a gapbs peer ("gapbs delta-stepping
    16 threads (all cores)") in short, "gapbs x16" (the legend under the table says what it is)."""
    match = GAPBS_NAME.match(name)
    return f"gapbs x{match.group(1)}" if match else name


def algorithm_name(label: str) -> str:
    """The run's name behind algorithm_label's label."""
    match = GAPBS_LABEL.match(label)
    if not match:
        return label
    threads = int(match.group(1))
    return "gapbs delta-stepping 1 thread" if threads == 1 else \
        f"gapbs delta-stepping {threads} threads (all cores)"


def cells(lab: str, results: list, baseline: str | None = None) -> list[list[str]]:
    """One lab's table, a row of COLUMNS' cells per graph and algorithm, with speedups over
    `baseline` (an algorithm name): its own row too, so that every algorithm of the lab's plot
    has one; other algorithms of the baseline's lab only that lab's table shows."""
    baseline_name, baseline_lab = baseline, baseline.split("/")[0] if baseline else None
    rows = []
    for r in results:
        if r["lab"] != lab:
            continue
        reference = next((run["median_ms"] for run in r["runs"]
                          if baseline_name and run["algorithm"] == baseline_name and "median_ms" in run), None)
        # The arcs leaving reached vertices, the same for every verified run from this source.
        traversed = next((run["edges_traversed"] for run in r["runs"] if "edges_traversed" in run), 0)
        size = [f"{r['graph']['vertices']:,}", f"{r['graph']['arcs']:,}"] if "graph" in r else ["", ""]
        for run in r["runs"]:
            name = algorithm_label(run["algorithm"])
            if "median_ms" not in run:  # failed ("error") or did not run ("skipped")
                reason = run.get("error") or "skipped: " + run["skipped"]
                rows.append([r["label"], *size, name, reason] + [""] * 9)
                continue
            if (baseline_lab and lab != baseline_lab and run["algorithm"].startswith(baseline_lab + "/")
                    and run["algorithm"] != baseline_name):
                continue  # the baseline's lab shows it
            speedup = f"{reference / run['median_ms']:.2f}x" if reference and run["median_ms"] > 0 else ""
            algorithm = f"{name}, -d {run['delta']}" if run.get("peer") else name
            verified = "yes" if run["verified"] else "NO"
            if run.get("peer"):
                mteps = f"{traversed / run['median_ms'] / 1000:.1f}" if run["median_ms"] > 0 else ""
                rows.append([r["label"], *size, algorithm, f"{run['median_ms']:.2f}", mteps, "", "", "", "",
                             speedup, "", "", verified])
                continue
            c = run["counters"]
            per_iteration = (f"{1000 * run['median_ms'] / c['iterations']:.1f}"
                             if c["kernel_launches"] and c["iterations"] else "")
            rows.append([r["label"], *size, algorithm, f"{run['median_ms']:.2f}", f"{run['mteps']:.1f}",
                         f"{c['iterations']:,}", f"{c['kernel_launches']:,}", f"{c['host_syncs']:,}", per_iteration,
                         speedup, f"{c['vertices_processed']:,}", f"{c['edges_relaxed']:,}", verified])
    return rows


def markdown_row(row: list[str]) -> str:
    return "| " + " | ".join(row) + " |"


def render(rows: list[list[str]], baseline: str | None = None) -> str:
    """A lab's table (rows of COLUMNS' cells) as its page shows it: the graphs' sizes, the table
    of runs without them, and what its speedup and gapbs rows are."""
    graphs = list(dict.fromkeys(tuple(row[:3]) for row in rows if row[1]))
    lines = [markdown_row(GRAPH_COLUMNS), "|---|---:|---:|", *(markdown_row(list(g)) for g in graphs), ""]
    lines += [markdown_row(SHOWN), "|---|---|" + "---:|" * 9 + "---|",
              *(markdown_row([row[0], *row[3:]]) for row in rows), ""]
    notes = []
    if baseline:
        kept = any(row[3] == baseline for row in rows)
        notes.append(f"speedup: the median time of {baseline} on the same graph over the row's"
                     + ("." if kept else f" ({baseline}'s own rows were not kept from this run)."))
    threads = sorted({int(m.group(1)) for row in rows if (m := re.match(r"gapbs x(\d+)", row[3]))})
    if threads:
        many = [t for t in threads if t > 1]
        notes.append("gapbs x1" + (f", gapbs x{many[-1]}" if many else "") + ": gapbs's OpenMP delta-stepping on "
                     "the CPU, the course's CPU peer, on one thread" + (f" and on all {many[-1]} of the "
                     "machine's threads" if many else "") + ", with bucket width -d; from the same source on the "
                     "same weights, verified by gapbs's own checker.")
    return ("\n".join(lines) + "\n" + "\n\n".join(notes)).strip("\n") + "\n"  # a paragraph each


def table(lab: str, results: list, baseline: str | None = None) -> str:
    """One lab's table from its runs, as its page shows it."""
    return render(cells(lab, results, baseline), baseline)


def split_row(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def parse(text: str) -> list[list[str]]:
    """The rows (COLUMNS' cells) of a lab's table as a page shows it: render's, or the
    14-column table of pages written before (their gapbs rows relabelled as render's)."""
    tables, current = [], None
    for line in text.splitlines():
        if line.startswith("|"):
            if current is None:
                current = []
                tables.append(current)
            current.append(split_row(line))
        else:
            current = None
    sizes, rows = {}, []
    for found in tables:
        head, body = found[0], found[2:]
        if head == GRAPH_COLUMNS:
            sizes.update({row[0]: row[1:3] for row in body})
        elif head[:4] == COLUMNS[:4] and len(head) == len(COLUMNS):  # the first pages' table
            for row in body:
                name, _, delta = row[3].partition(", -d ")
                row[3] = algorithm_label(name) + (f", -d {delta}" if delta else "")
                rows.append(row)
        elif head == SHOWN:
            rows += [[row[0], *sizes.get(row[0], ["", ""]), *row[1:]] for row in body]
    if not rows:
        raise ValueError("no table of runs")
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
