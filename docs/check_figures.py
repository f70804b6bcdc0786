#!/usr/bin/env python3
"""Checks the built course site shows every handout figure: each image a
handout embeds (![...](figures/NAME.svg)) must be copied into the HTML
output and referenced by a page there. Run by the `docs` target after
Doxygen, so project.docs_build_without_warnings fails on a missing figure.

    check_figures.py HTML_DIR
"""
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def main() -> int:
    html = Path(sys.argv[1])
    pages = "\n".join(p.read_text(errors="replace") for p in html.glob("*.html"))
    problems, figures = [], 0
    for handout in sorted(REPO.glob("labs/lab*/README.md")):
        for target in re.findall(r"!\[[^\]]*\]\(([^)\s]+)\)", handout.read_text()):
            figures += 1
            source = handout.parent / target
            name = Path(target).name
            if not source.is_file():
                problems.append(f"{handout.relative_to(REPO)} shows {target}, which does not exist")
            elif not (html / name).is_file():
                problems.append(f"{name} (shown by {handout.relative_to(REPO)}) was not copied into {html}")
            elif f'src="{name}"' not in pages and f'data="{name}"' not in pages:  # <img> or <object>
                problems.append(f"no page of {html} shows {name} (shown by {handout.relative_to(REPO)})")
    for p in problems:
        print("check_figures:", p, file=sys.stderr)
    print(f"check_figures: {figures} handout figures, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
