#!/usr/bin/env python3
"""A model of the speed item's calibration misses: how often a variant whose
solve is exactly 2x (or 1.5x) the reference's lands outside its band, when
some worker processes run slow for their whole life, for rounds x repeats
splits of the item. A model, not a measurement: it guides which split to
measure next (docs/design/perf-grading.md, eighth session). Measured after
it (ninth session, one H200): labs 02 and 03 in 5 x 3 held both bands in
all 18 runs made, where 3 x 5 had missed 3 of 10 twice-runs; they now use 5 x 3.

Each round pairs one reference process with one student process; each
process is slow (every solve x `--slow`) with probability `--p`, and each
solve varies by a log-normal `--sigma`. The share is the item's own
(tests/grader/perf.py: the median pair ratio, judged at ratio / (1 + noise))
over `--graphs` graphs; one process per side and round serves all of the
round's graphs, as on the GPU, so a slow one moves them together.

    python3 -m tests.project.perf_rounds_model [--p 0.19] [--slow 1.45] [--sigma 0.05]
                  [--splits 3x5,5x3,6x3,9x2] [--trials 4000] [--seed 1]

Defaults: lab 02 on one H200 (2026-11-29), where the reference's road-NY median
was 42 ms in one run of eleven against 27-31 ms in the others: at least two of
its three processes slow by about 1.45x, which with three rounds happens about
once in eleven runs when p is about 0.19.
"""
from __future__ import annotations

import argparse
import math
import random
import statistics

from tests.grader.perf import PerfScale, fraction, relative_spread

# Each calibration's true ratio and its band (solutions/<lab>/mutants.json: expected share +- 0.10).
CALIBRATIONS = {"twice": (2.0, 0.50, 0.70), "one and a half": (1.5, 0.74, 0.94)}


def item_share(ratio: float, rounds: int, repeats: int, args: argparse.Namespace, scale: PerfScale,
               rng: random.Random) -> float:
    """One simulated grading's share of the item for a solver `ratio` times the reference's."""
    # One process per side and round serves every graph of the round, as on the GPU.
    processes = [(args.slow if rng.random() < args.p else 1.0, args.slow if rng.random() < args.p else 1.0)
                 for _ in range(rounds)]
    shares = []
    for _ in range(args.graphs):
        pairs = [ratio * student / reference * math.exp(rng.gauss(0.0, args.sigma))
                 for reference, student in processes for _ in range(repeats)]
        median = statistics.median(pairs)
        noise = max(relative_spread(pairs) / math.sqrt(len(pairs)), scale.noise_floor)
        shares.append(fraction(median / (1.0 + scale.counted_noise(noise)), scale))
    return sum(shares) / len(shares)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--p", type=float, default=0.19, help="chance that a worker process runs slow")
    parser.add_argument("--slow", type=float, default=1.45, help="how much slower a slow process's solves are")
    parser.add_argument("--sigma", type=float, default=0.05, help="log-normal spread of one solve")
    parser.add_argument("--graphs", type=int, default=2)
    parser.add_argument("--splits", default="2x5,3x5,4x4,5x3,6x3,9x2", help="rounds x timed solves per round")
    parser.add_argument("--trials", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    scale = PerfScale(points=15, full_at=1.2, zero_at=4.0, noise_floor=0.03)
    rng = random.Random(args.seed)
    print(f"process slow with p = {args.p:g} by {args.slow:g}x, solves +-{args.sigma:.0%}, {args.graphs} graphs, "
          f"{args.trials} gradings per cell")
    print(f"{'rounds x solves':>15}  " + "  ".join(f"{name + ': miss a run, 5 of 5':>32}" for name in CALIBRATIONS))
    for split in args.splits.split(","):
        rounds, repeats = (int(x) for x in split.split("x"))
        cells = []
        for ratio, low, high in CALIBRATIONS.values():
            misses = sum(not low - 1e-9 <= item_share(ratio, rounds, repeats, args, scale, rng) <= high + 1e-9
                         for _ in range(args.trials)) / args.trials
            cells.append(f"{misses:>18.1%} {(1 - misses) ** 5:>13.0%}")
        print(f"{split:>15}  " + "  ".join(f"{c:>32}" for c in cells))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
