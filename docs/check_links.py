#!/usr/bin/env python3
"""Checks every internal link and image of the built course site: each
href, src or data of a page in HTML_DIR that is not an http(s) address must
name a file of the site (and, with a #fragment, an anchor that page has). Run by the
`docs` target after Doxygen, so project.docs_build_without_warnings fails on
a broken link or a missing picture.

    check_links.py HTML_DIR
"""
import re
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit


# Doxygen 1.9 links a class page's summary to #nested-classes even when the
# only nested class is private and gets no section: its quirk, not ours.
DOXYGEN_SUMMARY_ANCHORS = {"nested-classes"}
# Its search box's close button.
DOXYGEN_SCRIPT_LINKS = {"javascript:void(0)"}


class Links(HTMLParser):
    """The links, images and anchors of one page."""

    def __init__(self):
        super().__init__()
        self.targets: list[str] = []
        self.anchors: set[str] = set()

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        for key in ("href", "src", "data"):
            if attrs.get(key) and not (tag == "link" and key == "href" and attrs.get("rel") == "alternate"):
                self.targets.append(attrs[key])
        for key in ("id", "name"):
            if attrs.get(key):
                self.anchors.add(attrs[key])


def main() -> int:
    html = Path(sys.argv[1])
    pages = {}
    for page in sorted(html.glob("*.html")):
        parser = Links()
        parser.feed(page.read_text(errors="replace"))
        pages[page.name] = parser
    problems = []
    checked = 0
    for name, parser in pages.items():
        for target in parser.targets:
            parts = urlsplit(target)
            if parts.scheme in ("http", "https") or target.startswith("//") or target in DOXYGEN_SCRIPT_LINKS:
                continue  # outside the site, or Doxygen's own
            if parts.scheme:  # file:NAME from a code span is a link no browser follows
                problems.append(f"{name}: {target} is neither http(s) nor a file of the site")
                continue
            checked += 1
            path = unquote(parts.path)
            if not path:
                if parts.fragment and parts.fragment not in parser.anchors | DOXYGEN_SUMMARY_ANCHORS:
                    problems.append(f"{name}: #{parts.fragment} is no anchor of the page")
                continue
            file = (html / path).resolve()
            if not file.is_file():
                problems.append(f"{name}: {target} does not exist in the site")
            elif parts.fragment and file.name in pages and parts.fragment not in pages[file.name].anchors:
                problems.append(f"{name}: {target}: no anchor #{parts.fragment} there")
    for problem in sorted(set(problems)):
        print("check_links:", problem, file=sys.stderr)
    print(f"check_links: {len(pages)} pages, {checked} internal links and images, {len(set(problems))} broken")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
