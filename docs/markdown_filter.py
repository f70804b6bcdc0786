#!/usr/bin/env python3
"""Doxygen's input filter for Markdown (FILTER_PATTERNS in Doxyfile.in): a
handout shows a results plot as ![...](../../docs/results/NAME.svg) (and an
instructor block a figure of the design notes, ../../docs/design/figures/),
the path that works on GitHub; Doxygen finds an image by the end of its path,
which "../../" defeats, so the copy Doxygen reads says docs/....

    markdown_filter.py FILE    prints FILE, so changed
"""
import re
import sys
from pathlib import Path

text = Path(sys.argv[1]).read_text()
sys.stdout.write(re.sub(r"\]\((?:\.\./)+(docs/(?:results|design/figures)/[^)\s]+\.svg)\)", r"](\1)", text))
