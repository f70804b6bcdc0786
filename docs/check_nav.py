#!/usr/bin/env python3
"""Checks the built site's navigation tree (Doxygen's navtreedata.js and the
NAME.js files of its subtrees) against docs/results.dox: every results page
(md_docs_results_*.html) sits in it beneath the "Reference results" page
(results.html), none is left at the top, and the per-lab pages beneath
results.html come in lab order. Run by the `docs` target after Doxygen: a
results page that .ci/bench.py adds without a line in results.dox fails the
docs build.

    check_nav.py HTML_DIR
"""
import json
import re
import sys
from pathlib import Path

RESULTS = "results.html"


def tree(html: Path) -> list:
    """The navigation tree: [title, page, children] each, a subtree Doxygen keeps in NAME.js read in."""
    text = (html / "navtreedata.js").read_text()
    found = re.search(r"var NAVTREE =\s*(\[.*?\]);\s*var NAVTREEINDEX", text, re.S)
    if not found:
        raise ValueError(f"{html / 'navtreedata.js'}: no NAVTREE")

    def expand(entries: list) -> list:
        nodes = []
        for title, page, children in entries:
            if isinstance(children, str):  # a subtree in its own file
                sub = (html / f"{children}.js").read_text()
                children = json.loads(sub[sub.index("=") + 1:].strip().rstrip(";"))
            nodes.append([title, page, expand(children) if children else []])
        return nodes

    return expand(json.loads(found.group(1)))


def pages(nodes: list) -> list[str]:
    """Every page file of nodes and beneath, without #fragments."""
    return [n for title, page, children in nodes for n in [page.split("#")[0], *pages(children)]]


def main() -> int:
    html = Path(sys.argv[1])
    root = tree(html)
    top = root[0][2]  # beneath the main page
    problems = []
    results = next((node for node in top if node[1] == RESULTS), None)
    if results is None:
        problems.append(f"no {RESULTS} at the top of the navigation (docs/results.dox)")
        beneath = set()
    else:
        beneath = set(pages(results[2]))
        labs = [page for _, page, _ in results[2]]
        if labs != sorted(labs):
            problems.append(f"the labs beneath {RESULTS} are not in lab order: {', '.join(labs)}")
    for title, page, _ in top:
        if page.startswith("md_docs_results_"):
            problems.append(f"{page} ({title}) is at the top of the navigation, not beneath {RESULTS}")
    shown = {page.name for page in html.glob("md_docs_results_*.html")}
    for page in sorted(shown - beneath):
        problems.append(f"{page} is not beneath {RESULTS}: give it a \\subpage line in docs/results.dox")
    for problem in problems:
        print("check_nav:", problem, file=sys.stderr)
    print(f"check_nav: {len(shown)} results pages, {len(shown & beneath)} beneath {RESULTS}, "
          f"{len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
