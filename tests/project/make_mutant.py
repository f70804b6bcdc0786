#!/usr/bin/env python3
"""make_mutant.py MUTANTS_JSON LAB NAME SOLUTION_DIR OUT_DIR: write the solution's
sources to OUT_DIR with the one change that mutant NAME makes. Fails if the
snippet to replace is not found exactly once (the solution changed: update
tests/project/mutants.json)."""
import json
import shutil
import sys
from pathlib import Path


def main(mutants_json: str, lab: str, name: str, solution_dir: str, out_dir: str) -> int:
    mutant = next(m for m in json.loads(Path(mutants_json).read_text())[lab] if m["name"] == name)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    for source in Path(solution_dir).iterdir():
        if source.is_file() and source.suffix in {".cpp", ".hpp", ".cu", ".cuh", ".h"}:
            text = source.read_text()
            if source.name == mutant["file"]:
                count = text.count(mutant["find"])
                if count != 1:
                    print(f"mutant {name}: '{mutant['find']}' occurs {count} times in {source}, expected once",
                          file=sys.stderr)
                    return 1
                text = text.replace(mutant["find"], mutant["replace"])
            target = out / source.name
            if not target.exists() or target.read_text() != text:
                target.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
