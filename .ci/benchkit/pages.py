"""The results pages (docs/results/LAB.md, LAB-PROGRAM.md): a title, the plot
the page is about, the machine, the command (for instructors: the student
release drops it, with the names of the reference's programs), then the
table or the program's sections.

--pages-only (main.py) rewrites the pages of an earlier run from its
bench.json, or a page's own table where bench.json holds another run, and the
pages' own sections, without timing anything.
"""
from __future__ import annotations

import re
from pathlib import Path

GENERATED = "<!-- Written by .ci/bench.py; do not edit: run the command below again. -->"
INSTRUCTOR_BEGIN = "<!-- instructor: begin -->"
INSTRUCTOR_END = "<!-- instructor: end -->"
# A benchmark program's invocation as its section shows it: `reduce-bench-ref --block-size 512`.
REF_INVOCATION = re.compile(r"^`([a-z][a-z0-9-]*)-ref((?: [^`]*)?)`$")
DATA_DIR = re.compile(r"SSSP_DATA_DIR=\S+")
OUT_DIR = re.compile(r"--out \S+")


def public_command(command: str) -> str:
    """The command without this machine's data and output directories: the output as the
    handouts document it, into docs/results (where the pages are read), whatever directory the
    run wrote to."""
    return OUT_DIR.sub("--out docs/results", DATA_DIR.sub("SSSP_DATA_DIR=<datasets>", command))


def lab_number(lab: str) -> str:
    return lab.removeprefix("lab")


def header(title: str, about: str, command: str, plot: Path | None, caption: str, note: str = "") -> str:
    lines = [f"# {title}", "", INSTRUCTOR_BEGIN, GENERATED, INSTRUCTOR_END, ""]
    if plot is not None and plot.exists():
        lines += [f"![{caption}]({plot.name})", ""]
    lines += [about, "", INSTRUCTOR_BEGIN, f"Command: `{public_command(command)}`{note}", INSTRUCTOR_END, ""]
    return "\n".join(lines) + "\n"


def lab_page(lab: str, about: str, command: str, table: str, out: Path) -> str:
    """A lab's page: the reference's median time per graph and algorithm beside the CPU peer."""
    title = f"Lab {lab_number(lab)} reference results: every algorithm on the benchmark graphs"
    return header(title, about, command, out / f"{lab}.svg",
                  f"Lab {lab_number(lab)}: median time per graph and algorithm") + table.strip("\n") + "\n"


def program_page(lab: str, program: str, about: str, command: str, body: str, out: Path) -> str:
    """A lab's benchmark program's page: its sections as the program printed them, each invocation
    shown as the reference's (instructors) and as the same program built from a student's code."""
    title = f"Lab {lab_number(lab)} reference results: {program}"
    lines = []
    for line in body.splitlines():
        match = REF_INVOCATION.match(line)
        if match:
            lines += [INSTRUCTOR_BEGIN, line, INSTRUCTOR_END, "<!-- student:",
                      f"`{match.group(1)}{match.group(2)}` (the reference's build of it)", "-->"]
        else:
            lines.append(line)
    return header(title, about, command, out / f"{lab}-{program}.svg", f"Lab {lab_number(lab)}: {program}, "
                  "the reference's run", note=f", which ran `{program}-ref` as below.") + "\n".join(lines) + "\n"


def earlier_page(path: Path) -> tuple[str, str, str]:
    """(the machine, the command, the body) of a page written before: by this module or by the
    first generator (a comment line, the machine line, `Command: ...`, then the body)."""
    lines = path.read_text().splitlines()
    about = next((line for line in lines if line.startswith("GPU: ")), None)
    command_line = next((i for i, line in enumerate(lines) if line.startswith("Command: `")), None)
    if about is None or command_line is None or "`" not in lines[command_line][len("Command: `"):]:
        raise ValueError(f"{path}: not a results page (no 'GPU: ' line or no 'Command: `...`' line)")
    command = lines[command_line][len("Command: `"):]
    command = command[:command.index("`")]
    rest = lines[command_line + 1:]
    if rest and rest[0] == INSTRUCTOR_END:
        rest = rest[1:]
    body = "\n".join(rest).strip("\n")
    # This module's own invocation blocks, back to the program's line.
    body = re.sub(rf"^{re.escape(INSTRUCTOR_BEGIN)}\n(`[^\n]*-ref[^\n]*`)\n{re.escape(INSTRUCTOR_END)}\n"
                  r"<!-- student:\n[^\n]*\n-->$", r"\1", body, flags=re.M)
    return about, command, body
