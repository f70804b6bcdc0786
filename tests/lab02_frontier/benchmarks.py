"""Lab 02's rows in .ci/bench.py's tables (the format: .ci/benchkit/labs.py)."""

# Beside lab 01's Dijkstra from the same source, for the speedup column.
_ALGORITHMS = ["lab01/dijkstra", "lab02/"]
ROWS = [
    ("USA-road-NY", ["--graph", "USA-road-NY.pace.gr.gz"], _ALGORITHMS, 5),
    ("USA-road-FLA", ["--graph", "USA-road-FLA.pace.gr.gz"], _ALGORITHMS, 5),
    ("USA-road-NE", ["--graph", "USA-road-NE.pace.gr.gz"], _ALGORITHMS, 5),
    ("grid 1000x1000", ["--gen", "grid:1000x1000"], _ALGORITHMS, 5),
    ("rmat scale 20", ["--gen", "rmat:20:16"], _ALGORITHMS, 5),
    ("soc-Slashdot0902", ["--graph", "soc-Slashdot0902.txt.gz"], _ALGORITHMS, 5),
]
BASELINE = "lab01/dijkstra"  # the speedup column's reference, run in every row
GAPBS_PEER = True
LEVEL_PLOT = True
