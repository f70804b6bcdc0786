"""The performance item's picture: per solver and graph, the student's
median time beside the reference's, timed in the same grading run, and the
16-thread gapbs time from docs/results/bench.json where that graph has one
(a CPU line to beat, measured on the course's H100 host, not in this run,
and timing the solve alone, where the item's times hold the whole call).
Drawn with matplotlib where it is installed; otherwise the table says it all.
"""
from __future__ import annotations

import json
from pathlib import Path

from . import REPO

BENCH_JSON = REPO / "docs" / "results" / "bench.json"


def bench_graph_prefix(spec: str) -> str | None:
    """How docs/results/bench.json names the graph a perf spec generates or reads."""
    kind, _, rest = spec.partition(":")
    parts = rest.split(":")
    if kind == "file":
        return rest
    if kind == "grid":
        return f"grid {rest} ("
    if kind == "rmat" and parts[0].isdigit():
        return f"rmat scale {parts[0]} edge factor {parts[1] if len(parts) > 1 else 16} "
    return None


def gapbs_ms(spec: str, bench: Path = BENCH_JSON) -> float | None:
    """The 16-thread gapbs median on that graph in the published results, if any."""
    prefix = bench_graph_prefix(spec)
    if prefix is None or not bench.exists():
        return None
    for row in json.loads(bench.read_text()).get("results", []):
        name = row.get("graph", {}).get("name", "")
        if name == prefix or (prefix.endswith((" (", " ")) and name.startswith(prefix)):
            for run in row.get("runs", []):
                if run.get("algorithm", "").startswith("gapbs") and "16 threads" in run.get("algorithm", ""):
                    return float(run["median_ms"])
    return None


def draw_perf(lab: str, scores: list, plan, path: Path) -> str:
    """Draws the item's bars into `path` (SVG); returns the path, or '' without matplotlib."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return ""
    labels = [s.graph for s in scores]
    yours = [s.student_ms or 0.0 for s in scores]
    reference = [s.reference_ms for s in scores]
    gapbs = [gapbs_ms(s.graph.split(" ", 1)[1]) for s in scores]
    fig, ax = plt.subplots(figsize=(8, 1.2 + 0.9 * len(scores)))
    rows = range(len(scores))
    ax.barh([r + 0.2 for r in rows], reference, height=0.4, color="#4c72b0", label="reference (this run)")
    ax.barh([r - 0.2 for r in rows], yours, height=0.4, color="#dd8452", label="yours (this run)")
    gapbs_labelled = False
    for r, (ref, ms) in enumerate(zip(reference, gapbs)):
        ax.plot([ref * plan.scale.full_at] * 2, [r - 0.45, r + 0.45], color="#2a9d2a", lw=1.5,
                label=f"full marks: {plan.scale.full_at:g}x reference" if r == 0 else None)
        if ms is not None:
            ax.plot([ms] * 2, [r - 0.45, r + 0.45], color="#555555", ls="--", lw=1.2,
                    label=None if gapbs_labelled else "gapbs, 16 CPU threads (published kernel time)")
            gapbs_labelled = True
    for r, s in enumerate(scores):
        if s.ratio is not None:
            ax.annotate(f"{s.ratio:.2f}x, {s.fraction:.0%}", (max(yours[r], reference[r]), r),
                        xytext=(4, 0), textcoords="offset points", va="center", fontsize=8)
    ax.set_yticks(list(rows), labels, fontsize=8)
    ax.set_xlabel("median ms per solve (lower is better)")
    ax.set_title(f"{lab}: performance item, {sum(s.fraction for s in scores) / len(scores):.0%} of its points")
    ax.legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)
    plt.close(fig)
    return str(path)
