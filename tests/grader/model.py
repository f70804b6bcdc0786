"""The errors and records that grading passes between its steps: the run's
settings, a graded test program, a graded item's result (with, for the
compute-sanitizer item, each tool's run), and a lab's report.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from .limits import TESTS_PER_PROCESS

if TYPE_CHECKING:
    from .sandbox import Isolation


class GradingError(Exception):
    """Grading cannot go on, for a reason that is not the student's."""


@dataclass(frozen=True)
class GradingConfig:
    """A grading run's settings, read from the command line and checked by
    cli.py: all that the pipeline and its steps read (never the parsed
    arguments themselves)."""
    build_dir: Path  # the course's build, resolved
    work_dir: Path  # a --submission's files, its worker build and the plots (default: build_dir)
    labs_dir: Path  # the lab files graded: labs/, or the submission's copy under work_dir
    isolation: Isolation | None  # the sandbox the workers run in; None: --in-process
    flavour: str = "student"  # student | solution | mutant:NAME
    no_build: bool = False
    submission: bool = False  # a student's upload is graded (its worker is always compiled afresh)
    data_dir: str | None = None  # the real graphs (None: the build's SSSP_DATA_DIR)
    hidden_graphs: str | None = None
    timeout: float = 0.0  # seconds per test
    memory_limit: int = 0  # MiB per test process (0: none)
    build_gpu_labs: bool = False
    sanitize: bool = False
    sanitize_only: bool = False
    sanitizer_timeout: float = 0.0
    sanitizer_beside_tests: bool = False  # the compute-sanitizer item beside the GPU tests, not after them
    gpu_jobs: int | None = None  # GPU test processes at a time (None: the lab's rubric "gpu_jobs", else GPU_TEST_JOBS)
    tests_per_process: int = TESTS_PER_PROCESS  # graded tests one test process runs (judging.Runner.run_batch)
    perf: bool = False
    perf_only: bool = False


class ProgramError(Exception):
    """A test program that cannot even list its tests (student code that fails at start-up)."""


@dataclass
class ToolRun:
    """One compute-sanitizer tool's run of a lab's sanitizer tests."""
    tool: str
    status: str  # clean | reported (the sanitizer found errors) | failed | timeout | skipped
    message: str = ""
    errors: int | None = None  # what its summary counted
    seconds: float = 0.0
    missing: str = ""  # for a skipped run: what was missing


@dataclass
class Result:
    """A graded item of a lab (a test, or the compute-sanitizer item) and how it went."""
    lab: str
    name: str
    points: float
    visibility: str
    status: str = "not run"  # passed | failed | timeout | skipped | partial (the performance item)
    output: str = ""
    seconds: float = 0.0
    missing: str = ""  # for a skipped test: what was missing (a value of judging.SKIP_REASONS)
    sanitizer_runs: list[ToolRun] = field(default_factory=list)  # the compute-sanitizer item's runs
    earned: float | None = None  # the performance item's points, which come in parts
    perf_scores: list = field(default_factory=list)  # the performance item's perf.GraphScore per graph

    @property
    def counted(self) -> bool:
        return self.status != "skipped"

    @property
    def score(self) -> float:
        if self.earned is not None:
            return self.earned
        return self.points if self.status == "passed" else 0.0


@dataclass
class LabReport:
    """A lab's results, one per graded item of its rubric."""
    lab: str
    title: str
    results: list[Result] = field(default_factory=list)
    compiler_errors: str = ""  # set when the lab did not compile
    # Wall seconds of each phase that ran, in order: "worker build", "graded tests", "performance",
    # "compute-sanitizer" (where grading time goes: docs/results/grading-time.md).
    seconds: dict[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class Program:
    """A graded test program, as graded_tests.json lists it, and the worker
    command its calls to the lab go to (empty for an in-process program,
    which links the lab's code itself)."""
    path: str
    kind: str  # cpu | gpu
    worker: tuple[str, ...] = ()
    worker_path: str = ""  # the worker program, for the compute-sanitizer item

    @property
    def target(self) -> str:
        return Path(self.path).name  # sssp_add_lab_tests names each program after its target
