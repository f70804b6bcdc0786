#!/usr/bin/env python3
"""Draws docs/results/memory-ordering.svg from the table of mp-litmus's report
on docs/results/memory-ordering.md (the page is the data's one home): weak
outcomes per million instances, per fence configuration, data load and
memory stress, on a symmetric-log axis so that a zero reads as zero and 0.03
per million and 72% fit on one axis.

    plot_litmus.py [--page docs/results/memory-ordering.md] [--out docs/results/memory-ordering.svg]

Needs matplotlib (optional for the course: the SVG is committed).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
STRESSES = ("none", "lines", "scatter")
LOADS = ("relaxed", "weak", "weak, L1 primed")


def read_table(page: Path) -> list[dict[str, str]]:
    """The rows of the report's table after the page's RESULTS marker, as dicts keyed by the header."""
    text = page.read_text().split("<!-- RESULTS -->", 1)[-1]
    lines = [line for line in text.splitlines() if line.startswith("| ")]
    if not lines:
        raise SystemExit(f"{page}: no results table after <!-- RESULTS -->")
    header = [cell.strip() for cell in lines[0].strip("|").split("|")]
    rows = [dict(zip(header, (cell.strip() for cell in line.strip("|").split("|")))) for line in lines[1:]]
    rows = [row for row in rows if "weak per million" in row and row.get("fences") and row["data load"] in LOADS]
    if not rows:
        raise SystemExit(f"{page}: the table after <!-- RESULTS --> has no 'weak per million' rows")
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--page", type=Path, default=REPO / "docs" / "results" / "memory-ordering.md")
    parser.add_argument("--out", type=Path, default=REPO / "docs" / "results" / "memory-ordering.svg")
    args = parser.parse_args()
    rows = read_table(args.page)
    import matplotlib
    matplotlib.use("Agg")
    matplotlib.rcParams["svg.hashsalt"] = "mp-litmus"  # the same SVG from the same table
    import matplotlib.pyplot as plt

    fences = list(dict.fromkeys(row["fences"] for row in rows))
    rate = {(r["fences"], r["data load"], r["stress"]): float(r["weak per million"]) for r in rows}
    forbidden = {r["fences"] for r in rows if r.get("forbidden by PTX") == "yes"}
    fig, axes = plt.subplots(1, len(LOADS), figsize=(12, 4.2), sharey=True, constrained_layout=True)
    colours = {"none": "#4c72b0", "lines": "#dd8452", "scatter": "#c44e52"}
    height = 0.26
    for ax, load in zip(axes, LOADS):
        for k, stress in enumerate(STRESSES):
            ys = [i + (k - 1) * height for i in range(len(fences))]
            xs = [rate.get((f, load, stress), 0.0) for f in fences]
            ax.barh(ys, xs, height=height, color=colours[stress], label=f"stress: {stress}")
            for y, x in zip(ys, xs):
                if x == 0:
                    ax.text(0.012, y, "0", va="center", ha="left", fontsize=7, color="#555555")
        ax.set_xscale("symlog", linthresh=0.01)
        ax.set_xlim(0, 1e6)
        ax.set_xticks([0, 0.1, 10, 1e3, 1e5, 1e6])
        ax.set_xticklabels(["0", "0.1", "10", "1,000", "100k", "all"])
        ax.set_title(f"data load: {load}", fontsize=10)
        ax.set_xlabel("weak outcomes per million instances")
        ax.grid(axis="x", color="#dddddd", linewidth=0.6)
    axes[0].set_yticks(range(len(fences)))
    axes[0].set_yticklabels([f + ("  (PTX forbids)" if f in forbidden else "") for f in fences], fontsize=8)
    axes[0].invert_yaxis()
    axes[-1].legend(loc="lower right", fontsize=8)
    fig.suptitle("Message passing between blocks: how often the flag arrives before its data", fontsize=11)
    fig.savefig(args.out, metadata={"Date": None})
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
