"""What the project's unittest checks on a built tree share: their command
line (--build-dir BUILD, the rest for unittest) and their exit status.

    if __name__ == "__main__":
        sys.exit(harness.run_with_build_dir(sys.modules[__name__]))

The module's tests read BUILD, a module global this sets before they run.
"""
from __future__ import annotations

import argparse
import sys
import unittest
from pathlib import Path
from types import ModuleType


def run_with_build_dir(module: ModuleType) -> int:
    """Runs `module`'s tests with module.BUILD the --build-dir given (resolved),
    the other arguments unittest's; 0 when every test passed, else 1."""
    parser = argparse.ArgumentParser(description=module.__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build-dir", required=True, type=Path)
    args, rest = parser.parse_known_args()
    module.BUILD = args.build_dir.resolve()
    result = unittest.main(module=module, argv=[sys.argv[0], *rest], exit=False, verbosity=2).result
    return 0 if result.wasSuccessful() else 1
