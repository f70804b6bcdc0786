"""Lab 01's rows in .ci/bench.py's tables (the format: .ci/benchkit/labs.py)."""

ROWS = [
    ("USA-road-NY", ["--graph", "USA-road-NY.pace.gr.gz"], ["lab01/"], 3),
    ("USA-road-BAY", ["--graph", "USA-road-BAY.pace.gr.gz"], ["lab01/"], 3),
    ("grid 512x512", ["--gen", "grid:512x512"], ["lab01/"], 3),
    ("rmat scale 18", ["--gen", "rmat:18:16"], ["lab01/"], 3),
    ("soc-Slashdot0902", ["--graph", "soc-Slashdot0902.txt.gz"], ["lab01/"], 3),
]
BASELINE = "lab01/dijkstra"  # the speedup column's reference, run in every row
GAPBS_PEER = True
