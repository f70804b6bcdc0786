"""The code of .ci/bench.py, in small modules; each lab describes its own benchmarks
(tests/<lab>/benchmarks.py, read by benchkit.labs)."""
