"""Lab 06's rows in .ci/bench.py's tables and its spmv-bench (the format: .ci/benchkit/labs.py)."""

# The three sparse formats of Chen's Table 5 on his road maps, a grid and
# RMAT. ELL refuses RMAT (its hubs pad every row), so RMAT runs the CSRs.
_ROAD = ["NY", "BAY", "COL", "FLA", "NW", "NE"]
ROWS = [
    *((f"USA-road-{name}", ["--graph", f"USA-road-{name}.pace.gr.gz"], ["lab01/dijkstra", "lab06/"], 5)
      for name in _ROAD),
    ("grid 1000x1000", ["--gen", "grid:1000x1000"], ["lab01/dijkstra", "lab06/"], 3),
    ("rmat scale 20", ["--gen", "rmat:20:16"], ["lab01/dijkstra", "lab06/csr-scalar", "lab06/csr-vector"], 5),
]
BASELINE = "lab01/dijkstra"  # the speedup column's reference, run in every row
GAPBS_PEER = True
PROGRAMS = [
    ("spmv-bench", [
        [*(arg for name in _ROAD for arg in ("--graph", f"@USA-road-{name}.pace.gr.gz")), "--gen", "rmat:20:16",
         "--gen", "grid:1448x1448", "--weights", "1:1000:1", "--repeats", "7"],
        ["--gen", "grid:2048x2048", "--gen", "rmat:21:8", "--weights", "1:1000:1", "--repeats", "9", "--sweeps-only"]]),
]
