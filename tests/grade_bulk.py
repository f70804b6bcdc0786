#!/usr/bin/env python3
"""Grade many submissions of one assignment (the same as
`python3 -m tests.grader.bulk` from the repository's root; tests/grader/bulk.py
documents the command).

    python3 tests/grade_bulk.py --assignment LAB --submissions DIR --out DIR [options]

Run as a script, its own folder tests/ is where Python looks for `grader`.
"""
from __future__ import annotations

import sys

from grader.bulk import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
