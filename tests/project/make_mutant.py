#!/usr/bin/env python3
"""make_mutant.py MUTANTS_JSON LAB NAME SOLUTION_DIR OUT_DIR: write the solution's
sources to OUT_DIR with the changes that mutant NAME makes: one snippet
replaced ("file", "find", "replace"), or several ("changes": a list of such
objects). Fails if a snippet to replace is not found exactly once (the
solution changed: update tests/project/mutants.json)."""
import json
import sys
from pathlib import Path


def main(mutants_json: str, lab: str, name: str, solution_dir: str, out_dir: str) -> int:
    mutant = next(m for m in json.loads(Path(mutants_json).read_text())[lab] if m["name"] == name)
    changes: dict[str, list[dict]] = {}
    for change in mutant.get("changes", [mutant]):
        changes.setdefault(change["file"], []).append(change)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    for source in Path(solution_dir).iterdir():
        if source.is_file() and source.suffix in {".cpp", ".hpp", ".cu", ".cuh", ".h"}:
            text = source.read_text()
            for change in changes.pop(source.name, []):
                count = text.count(change["find"])
                if count != 1:
                    print(f"mutant {name}: '{change['find']}' occurs {count} times in {source}, expected once",
                          file=sys.stderr)
                    return 1
                text = text.replace(change["find"], change["replace"])
            target = out / source.name
            if not target.exists() or target.read_text() != text:
                target.write_text(text)
    if changes:
        print(f"mutant {name}: {', '.join(changes)} is not a source file of {solution_dir}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
