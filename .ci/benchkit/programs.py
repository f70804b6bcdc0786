"""The labs' own benchmark programs: run, their Markdown written to
LAB-PROGRAM.md and their JSON reports to LAB-PROGRAM-N.json, plotted from
those by the lab's description."""
import json
import shlex
import subprocess
import sys
from pathlib import Path

from benchkit import pages


def program_arguments(arguments: list[str], data_dir: str) -> tuple[list[str], list[str]]:
    """arguments with each "@FILE" resolved in data_dir, and the files that are missing
    (their "--graph @FILE" pairs dropped)."""
    resolved, missing = [], []
    for arg in arguments:
        if not arg.startswith("@"):
            resolved.append(arg)
            continue
        path = Path(data_dir) / arg[1:]
        if data_dir and path.exists():
            resolved.append(str(path))
        else:
            missing.append(arg[1:])
            resolved.pop()  # its "--graph"
    return resolved, missing


def run_program(binary: Path, arguments: list[str], data_dir: str, out: Path,
                report: Path) -> tuple[str, dict | None, bool]:
    """One benchmark program's invocation, its tables also written as JSON to report:
    (its Markdown, that JSON or None when it wrote none, it passed)."""
    parts, passed = [], True
    resolved, missing = program_arguments([a.replace("{out}", str(out)) for a in arguments], data_dir)
    if missing:
        parts.append(f"Not in SSSP_DATA_DIR, left out: {', '.join(missing)}.\n")
    if missing and not any(a in ("--graph", "--gen") for a in resolved):
        return "".join(parts), None, True
    report.unlink(missing_ok=True)
    command = [str(binary), *resolved, "--json", str(report)]
    print("+", shlex.join(command), file=sys.stderr, flush=True)
    proc = subprocess.run(command, capture_output=True, text=True)
    data_prefix = str(Path(data_dir)) + "/" if data_dir else None
    shown = shlex.join([binary.name, *(a.replace(data_prefix, "") if data_prefix else a for a in resolved)])
    shown = shown.replace(str(out) + "/", "")
    parts.append(f"`{shown}`\n\n{proc.stdout.strip().replace(str(out) + '/', '')}\n")
    if proc.returncode != 0:
        parts.append(f"\n**exit {proc.returncode}**: {proc.stderr.strip()[-500:]}\n")
        print(proc.stderr, file=sys.stderr)
        passed = False
    return "".join(parts), json.loads(report.read_text()) if report.exists() else None, passed


def run_programs(labs: list, bin_dir: Path, out: Path, data_dir: str, about: str, command: str,
                 can_plot: bool) -> bool:
    """Runs the programs of labs (benchkit.labs.Lab) and writes LAB-PROGRAM.md, the JSON of each
    invocation and the lab's plot, LAB-PROGRAM.svg; True when one failed. command is the bench
    command, for the page."""
    failed = False
    for lab in labs:
        for program, invocations in lab.programs:
            binary = bin_dir / f"{program}-ref"
            if not binary.exists():
                print(f"{binary} is not built: {lab.name}'s {program} is not run", file=sys.stderr)
                failed = True
                continue
            sections, reports = [], []
            for i, arguments in enumerate(invocations, 1):
                text, report, passed = run_program(binary, arguments, data_dir, out,
                                                   out / f"{lab.name}-{program}-{i}.json")
                sections.append(text)
                reports += [report] if report else []
                failed = failed or not passed
            body = "\n".join(sections)
            svg = out / f"{lab.name}-{program}.svg"
            if can_plot and lab.plot_program:
                try:  # a plot that cannot be drawn costs its picture, not the other labs' runs
                    if lab.plot_program(program, reports, svg):
                        print(f"wrote {svg}", file=sys.stderr)
                except (KeyError, ValueError, IndexError, TypeError, ZeroDivisionError) as error:
                    print(f"{svg.name} not drawn: {type(error).__name__}: {error}", file=sys.stderr)
                    failed = True
            (out / f"{lab.name}-{program}.md").write_text(pages.program_page(lab.name, program, about, command,
                                                                             body, out))
    return failed
