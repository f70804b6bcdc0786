"""Each lab's benchmarks, from its own description, tests/<lab>/benchmarks.py.

A description is a Python module with:

    ROWS = [(graph label, runner graph arguments, algorithms, repetitions), ...]
        rows of the lab's table: sssp-ref with those arguments ("--graph FILE"
        names a file of SSSP_DATA_DIR) and one --algo per algorithm
    PROGRAMS = [(program, [arguments of one invocation, ...]), ...]   (optional)
        the lab's own benchmark programs (the reference builds, PROGRAM-ref);
        "@FILE" names a file of SSSP_DATA_DIR (a missing one drops its
        "--graph @FILE" pair), "{out}" is the --out directory
    GAPBS_PEER = True      (optional) gapbs's delta-stepping beside the SSSP rows
    BASELINE = "labNN/x"   (optional) the algorithm of the speedup column (run it in
        every row); its lab's other algorithms are left out of this lab's table
    LEVEL_PLOT = True      (optional) LAB-levels.svg: time per level against its
        frontier (needs a BASELINE that counts the vertices it reaches)
    def plot_program(program, reports, path) -> bool   (optional)
        draws PROGRAM's JSON reports (one per invocation that wrote one: the
        program's --json file, {"program", "facts", "tables"}) into `path`;
        False when it has nothing to draw

Adding a lab adds its description; nothing here names a lab.
"""
import importlib.util
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable


@dataclass
class Lab:
    """One lab's benchmarks."""
    name: str  # "lab01", as its algorithms' prefix and the --lab option
    rows: list = field(default_factory=list)
    programs: list = field(default_factory=list)
    gapbs_peer: bool = False
    baseline: str | None = None
    level_plot: bool = False
    plot_program: Callable | None = None


def load(path: Path) -> Lab:
    """The lab described by path (tests/<lab folder>/benchmarks.py)."""
    folder = path.parent.name
    # Loaded by path, as a plug-in found by load_all()'s glob: the
    # repository's root is not on this tool's import path, and need not be.
    spec = importlib.util.spec_from_file_location(f"benchmarks_{folder}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return Lab(name=folder.split("_")[0], rows=getattr(module, "ROWS", []), programs=getattr(module, "PROGRAMS", []),
               gapbs_peer=getattr(module, "GAPBS_PEER", False), baseline=getattr(module, "BASELINE", None),
               level_plot=getattr(module, "LEVEL_PLOT", False),
               plot_program=getattr(module, "plot_program", None))


def load_all(repo: Path) -> list[Lab]:
    """Every lab with a description, in the lab order."""
    return [load(path) for path in sorted(repo.glob("tests/lab*/benchmarks.py"))]
