#!/usr/bin/env python3
"""The speed item's calibration at a glance: docs/results/perf-calibration.md
(a table between markers) and docs/results/perf-calibration.svg (the same
numbers drawn), both from the runs kept in docs/results/perf-item-runs/.

Each GPU lab has two calibration variants of its reference (solutions/<lab>/
mutants.json, "calibration"): its solve run exactly twice per call, and its
solve followed by GPU time of half its own length. Each must earn its
expected share of the item within the tolerance ("perf_share_expected",
"perf_share_tolerance") in every run. Shown per variant: its newest runs
(the newest set, the file names' prefix, and the sets it continues in
devices.json while they measured the same item, as the handouts quote them),
their GPU (devices.json) and each run's share.

    python3 -m tests.project.calibration_page           rewrite the table and redraw the figure (needs matplotlib)
    python3 -m tests.project.calibration_page --check   exit 1 when the table, or the data the figure was drawn
                                                        from (its digest, kept in the SVG), is stale; no matplotlib
"""
from __future__ import annotations

import argparse
import hashlib
import json
import sys

from tests.grader import REPO, lab_data
from tests.grader.perf import parse_plan
from tests.grader.perf_handout import newest_runs, set_of

RUNS = REPO / "docs" / "results" / "perf-item-runs"
PAGE = REPO / "docs" / "results" / "perf-calibration.md"
FIGURE = REPO / "docs" / "results" / "perf-calibration.svg"
BEGIN = "<!-- calibration: begin (generated from the runs in perf-item-runs/ by the calibration page tool; do not edit) -->"
END = "<!-- calibration: end -->"
VARIANTS = {"twice": "solves twice", "one_and_a_half": "one and a half"}


def calibrations() -> list[dict]:
    """Per GPU lab and calibration variant: its band and the shares of its newest runs (perf_handout.newest_runs)."""
    devices = json.loads((RUNS / "devices.json").read_text())["runs"]
    found = []
    for lab, entry in lab_data.load_rubric().items():
        if "perf" not in entry:
            continue
        plan = parse_plan(entry["perf"])
        for mutant in lab_data.lab_mutants(lab):
            if mutant.get("calibration") not in VARIANTS:
                continue
            runs = sorted(RUNS.glob(f"*-{lab}-mutant-{mutant['name']}-*.json"))
            kept = newest_runs(runs, plan)
            newest = ", ".join(dict.fromkeys(set_of(r) for r in kept))
            shares = [round(e["earned"] / e["points"], 4) for e in (json.loads(r.read_text()) for r in kept)]
            expected, tolerance = mutant["perf_share_expected"], mutant["perf_share_tolerance"]
            found.append({"lab": lab, "variant": mutant["calibration"], "expected": expected,
                          "low": round(expected - tolerance, 4), "high": round(expected + tolerance, 4),
                          "set": newest, "device": devices[set_of(kept[-1])] if kept else "", "shares": shares})
    return found


def digest(data: list[dict]) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]


def table(data: list[dict]) -> str:
    lines = [BEGIN, "", "| lab | variant | band | shares, run by run | in band | set of runs |", "|---|---|---|---|---|---|"]
    for c in data:
        inside = sum(c["low"] <= s <= c["high"] for s in c["shares"])
        shares = ", ".join(f"{s:.0%}" if c["low"] <= s <= c["high"] else f"**{s:.0%}**" for s in c["shares"])
        lines.append(f"| {c['lab']} | {VARIANTS[c['variant']]} | {c['low']:.0%} to {c['high']:.0%} | "
                     f"{shares or 'not run'} | {inside} of {len(c['shares'])} | "
                     f"{c['set'] or '-'} |")
    quoted = {s for c in data for s in c["set"].split(", ") if s}
    device_of = json.loads((RUNS / "devices.json").read_text())["runs"]
    sets = [s for s in device_of if s in quoted]  # oldest first
    by_device: dict[str, list[str]] = {}  # each GPU's sets, in the order of their first set
    for s in sets:
        by_device.setdefault(device_of[s], []).append(s)
    if len(by_device) == 1:
        device, = by_device
        lines += ["", f"Every set of runs here ({', '.join(sets)}) was measured on {device}."]
    else:
        lines += ["", "Measured on: " + "; ".join(f"{', '.join(s)}: {d}" for d, s in by_device.items()) + "."]
    return "\n".join(lines + ["", END])


def draw(data: list[dict]) -> None:
    import matplotlib
    matplotlib.use("Agg")
    matplotlib.rcParams["svg.hashsalt"] = "perf-calibration"  # the same SVG from the same runs
    import matplotlib.pyplot as plt

    labs = list(dict.fromkeys(c["lab"] for c in data))
    fig, ax = plt.subplots(figsize=(10, 4.2), constrained_layout=True)
    colours = {"twice": "#4c72b0", "one_and_a_half": "#dd8452"}
    for c in data:
        x = labs.index(c["lab"]) + (-0.18 if c["variant"] == "twice" else 0.18)
        ax.add_patch(plt.Rectangle((x - 0.15, c["low"] * 100), 0.3, (c["high"] - c["low"]) * 100,
                                   color=colours[c["variant"]], alpha=0.18, linewidth=0))
        ax.plot([x - 0.15, x + 0.15], [c["expected"] * 100] * 2, color=colours[c["variant"]], linewidth=1)
        if not c["shares"]:
            ax.text(x, (c["low"] + c["high"]) * 50, "not\nrun", ha="center", va="center", fontsize=7, color="#555555")
        step = 0.24 / max(len(c["shares"]) - 1, 1)  # the runs side by side, within the band's width
        for k, share in enumerate(c["shares"]):
            out = not c["low"] <= share <= c["high"]
            ax.plot(x - 0.12 + step * k, share * 100, marker="x" if out else "o", linestyle="none",
                    color="#c44e52" if out else colours[c["variant"]], markersize=6 if out else 4)
    for variant, name in VARIANTS.items():
        ax.plot([], [], marker="o", linestyle="none", color=colours[variant], label=f"{name} (band shaded)")
    ax.plot([], [], marker="x", linestyle="none", color="#c44e52", label="out of its band")
    ax.set_xticks(range(len(labs)), [lab.replace("_", " ", 1) for lab in labs], fontsize=8)
    ax.set_ylabel("share of the speed item (%)")
    ax.set_ylim(30, 105)
    devices = {c["device"].removeprefix("an ").split(" (")[0] for c in data if c["set"]}
    ax.set_title("Calibration variants of each GPU lab's reference: each of its newest runs, on "
                 + (devices.pop() if len(devices) == 1 else "several GPUs (the table names them)"), fontsize=10)
    ax.legend(loc="lower right", fontsize=8)
    ax.grid(axis="y", alpha=0.3)
    fig.savefig(FIGURE, format="svg", metadata={"Description": f"data digest {digest(data)}", "Date": None})


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    data = calibrations()
    text = PAGE.read_text()
    if BEGIN not in text or END not in text:
        print(f"{PAGE.relative_to(REPO)} has no calibration markers", file=sys.stderr)
        return 1
    wanted = text[:text.index(BEGIN)] + table(data) + text[text.index(END) + len(END):]
    stale = []
    if wanted != text:
        stale.append(str(PAGE.relative_to(REPO)))
    if not FIGURE.exists() or f"data digest {digest(data)}" not in FIGURE.read_text():
        stale.append(str(FIGURE.relative_to(REPO)))
    if args.check:
        if stale:
            print("out of date (run python3 -m tests.project.calibration_page): " + ", ".join(stale))
            return 1
        return 0
    PAGE.write_text(wanted)
    draw(data)
    return 0


if __name__ == "__main__":
    sys.exit(main())
