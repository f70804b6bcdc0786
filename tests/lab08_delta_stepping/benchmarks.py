"""Lab 08's rows in .ci/bench.py's tables and its delta-bench (the format: .ci/benchkit/labs.py)."""

# Chen's host-driven delta-stepping and GPU-driven Near-Far beside the one-arc
# rounds of lab 02 and the k-step waves of lab 07. Delta and C against time
# and work: delta-bench (the handout's experiment).
_ALGORITHMS = ["lab01/dijkstra", "lab02/frontier-sssp", "lab07/locality", "lab08/"]
ROWS = [
    ("USA-road-NY", ["--graph", "USA-road-NY.pace.gr.gz"], _ALGORITHMS, 5),
    ("USA-road-NE", ["--graph", "USA-road-NE.pace.gr.gz"], _ALGORITHMS, 5),
    ("grid 2000x2000", ["--gen", "grid:2000x2000"], _ALGORITHMS, 3),
    ("rmat scale 20", ["--gen", "rmat:20:16"], _ALGORITHMS, 5),
]
BASELINE = "lab01/dijkstra"  # the speedup column's reference, run in every row
GAPBS_PEER = True
PROGRAMS = [
    ("delta-bench", [
        ["--graph", "@USA-road-NY.pace.gr.gz", "--weights", "1:1000:1", "--repeats", "3"],
        ["--gen", "rmat:20:16", "--weights", "1:1000:1", "--repeats", "3"],
        ["--gen", "grid:2000x2000", "--weights", "1:1000:1", "--repeats", "3"]]),
]
