"""The course's autograder: build the labs and grade them (the same as
`python3 -m tests.grader` from the repository's root).

    python3 tests/grade.py [options]     python3 tests/grade.py --help lists them

The grader is the package tests/grader/ (its __main__.py documents the
command); this file is its entry from any directory, as the handouts and the
instructors' pages give it: run as a script, its own folder tests/ is where
Python looks for `grader`.
"""
from __future__ import annotations

import sys

from grader.__main__ import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
