"""Lab 03's rows in .ci/bench.py's tables (the format: .ci/benchkit/labs.py)."""

# BFS beside lab 02's BFS on the same graphs. Edge-based Dijkstra runs one
# round per distinct distance, so it gets the smaller graphs. No gapbs peer:
# the tables are mostly BFS, where an SSSP peer would mislead.
_BFS = ["lab01/dijkstra", "lab02/frontier-bfs", "lab03/edge-bfs"]
_ALL = ["lab01/dijkstra", "lab02/", "lab03/"]
ROWS = [
    ("USA-road-NY", ["--graph", "USA-road-NY.pace.gr.gz"], _BFS, 5),
    ("grid 1000x1000", ["--gen", "grid:1000x1000"], _BFS, 5),
    ("rmat scale 20", ["--gen", "rmat:20:16"], _BFS, 5),
    ("soc-Slashdot0902", ["--graph", "soc-Slashdot0902.txt.gz"], _ALL, 5),
    ("rome99", ["--graph", "rome99.gr.gz"], _ALL, 5),
    ("grid 256x256", ["--gen", "grid:256x256"], _ALL, 3),
    ("rmat scale 16", ["--gen", "rmat:16:16"], _ALL, 3),
    ("USA-road-NY (edge Dijkstra)", ["--graph", "USA-road-NY.pace.gr.gz"],
     ["lab01/dijkstra", "lab02/frontier-sssp", "lab03/edge-dijkstra"], 1),
]
BASELINE = "lab01/dijkstra"  # the speedup column's reference, run in every row
LEVEL_PLOT = True
