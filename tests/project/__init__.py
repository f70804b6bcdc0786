"""The project's own checks (the maintainers' wing of tests/): run from the
repository's root as python3 -m tests.project.NAME (tests/project/CMakeLists.txt).
"""
