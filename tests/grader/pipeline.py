"""Grades the labs asked for, one after another. For each lab: the test
programs graded_tests.json lists for the flavour graded, without the GPU
programs where no GPU is found. Graded through a worker (the default), those
programs hold the course's code only, and the lab's worker is compiled from
the student's files in the sandbox (a solution's, a mutant's, or with
--no-build that of labs/, is taken from the course's build); --in-process
builds the programs that link the lab's code instead. Then the lab is scored
against its rubric. A lab that does not compile scores 0, out of the maximum
a compiled run would have here (what would skip is skipped), and the others
are still graded.
"""
from __future__ import annotations

import contextlib
import json
import shutil
import subprocess
import time
from pathlib import Path

from . import sandbox  # where the student's code is compiled and runs

from . import REPO, build, intake, perf
from .judging import Runner, missing_for
from .model import GradingConfig, GradingError, LabReport, Program
from .sanitizer import sanitizer_for
from .scoring import grade_lab, not_compiled, not_run


def gpu_present() -> bool:
    """Whether the NVIDIA driver reports a GPU here (nvidia-smi -L; without
    nvidia-smi, a /dev/nvidiaN device node)."""
    smi = shutil.which("nvidia-smi")
    if smi is None:
        return any(Path("/dev").glob("nvidia[0-9]*"))
    try:
        listed = subprocess.run([smi, "-L"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return False
    return listed.returncode == 0 and "GPU" in listed.stdout


def build_for_grading(build_dir: Path, data_dir: str | None, labs: list[str]) -> None:
    """Builds what grading `labs` through workers runs: the shared support, the
    hidden-graph checker, every graded test program (the GPU ones too, where
    CUDA is built: the runs that use them may have the GPU this machine lacks)
    and the reference workers the performance item times. Runs with --no-build
    then only read the build, so several can share it at once."""
    build.configure(build_dir, data_dir, REPO / "labs")
    if build.build(build_dir, [build.SUPPORT_TARGET, build.CHECKER_TARGET]) is not None:
        raise GradingError("the course's own code failed to build (see the output above): not a student error")
    manifest = json.loads((build_dir / "graded_tests.json").read_text())
    targets = [Path(e["path"]).name for e in manifest["executables"] if e["lab"] in labs and e["flavour"] == "isolated"]
    targets += [Path(w["path"]).name for w in manifest.get("workers", [])
                if w["lab"] in labs and w["flavour"] == "solution"]
    if targets and build.build(build_dir, targets) is not None:
        raise GradingError("the course's test programs failed to build (see the output above)")


def grade(config: GradingConfig, labs: list[str], rubric: dict) -> list[LabReport]:
    """Builds and grades `labs` as `config` says; a report per lab."""
    build_dir = config.build_dir
    hidden = Path(config.hidden_graphs).resolve() if config.hidden_graphs else None
    if hidden is not None and not hidden.is_dir():
        raise GradingError(f"--hidden-graphs: {hidden} is not a directory")
    if not config.no_build:
        # Graded through workers, the build holds no student code: it keeps to labs/.
        build.configure(build_dir, config.data_dir, config.labs_dir if config.isolation is None else REPO / "labs")
    # Built before graded_tests.json is read: a build re-runs CMake first when a
    # CMake input changed, and that rewrites the list.
    shared = [build.SUPPORT_TARGET] + ([build.CHECKER_TARGET] if hidden is not None else [])
    if not config.no_build and build.build(build_dir, shared) is not None:
        raise GradingError("the course's own code failed to build (see the output above): not a student error")
    manifest_path = build_dir / "graded_tests.json"
    if not manifest_path.exists():
        raise GradingError(f"{manifest_path} is missing: build the project first (or drop --no-build)")
    manifest = json.loads(manifest_path.read_text())
    if hidden is not None:
        intake.check_hidden_graphs(manifest, hidden)

    data_dir = config.data_dir if config.data_dir is not None else manifest.get("data_dir", "")
    runner = Runner(config.timeout, config.memory_limit, hidden, data_dir, config.tests_per_process)
    gpu = manifest["cuda_built"] and gpu_present()
    skip_gpu = not config.build_gpu_labs and manifest["cuda_built"] and not gpu
    isolation = config.isolation
    sanitizer = sanitizer_for(config.sanitize, config.sanitizer_timeout, runner, gpu, isolation)
    workers = {(w["lab"], w["flavour"]): w["path"] for w in manifest.get("workers", [])}
    worker_state: dict = {"fresh": bool(config.submission)}
    only = config.sanitize_only or config.perf_only

    reports = []
    # A student worker compiled in the work directory is this grading's until its last test.
    compiles = isolation is not None and config.flavour == "student" and (config.submission or not config.no_build)
    with build.worker_build_lock(config.work_dir) if compiles else contextlib.nullcontext():
        for lab in labs:
            wanted = config.flavour if isolation is None else "isolated"
            programs = [Program(e["path"], e["kind"]) for e in manifest["executables"]
                        if e["lab"] == lab and e["flavour"] == wanted and (not only or e["kind"] == "gpu")]
            left_out = ""
            if skip_gpu and any(p.kind == "gpu" for p in programs):
                programs = [p for p in programs if p.kind != "gpu"]
                left_out = ("GPU test skipped: no NVIDIA GPU found (nvidia-smi -L, /dev/nvidia*), so the GPU test "
                            "programs were not built; --build-gpu-labs builds and runs them anyway")
                if not programs:
                    reports.append(not_run(lab, rubric[lab], "skipped", left_out, missing=missing_for(left_out) or "",
                                           sanitizer_skip=sanitizer.skip, sanitizer_only=config.sanitize_only,
                                           perf_only=config.perf_only))
                    continue
            perf_setup = perf_setup_for(config, lab, rubric[lab], gpu, isolation, workers)
            if not programs:
                gpu_lab = manifest["labs"].get(lab) == "GPU" and not manifest["cuda_built"]
                reason = (f"GPU test skipped: GPU lab not built: {manifest['cuda_disabled_reason']}" if gpu_lab
                          else "no test program was built for this lab")
                reports.append(not_run(lab, rubric[lab], "skipped" if gpu_lab else "failed", reason,
                                       missing=missing_for(reason) or "", sanitizer_only=config.sanitize_only,
                                       perf_only=config.perf_only))
                continue
            failed = None
            worker_path = ""
            build_seconds = None  # the student's worker, compiled in the sandbox
            if isolation is not None:
                # The test programs hold no student code: a failure to build them is the course's.
                trusted = [p.target for p in programs]
                if config.flavour != "student" or (config.no_build and not config.submission):
                    worker_path = workers.get((lab, config.flavour), "")
                    if not worker_path:
                        raise GradingError(f"{lab}: no worker for flavour {config.flavour} in {manifest_path}")
                    trusted.append(Path(worker_path).name)
                if perf_setup.skip is None:
                    trusted.append(Path(workers[(lab, "solution")]).name)  # the reference the item times against
                if not config.no_build and build.build(build_dir, trusted) is not None:
                    raise GradingError(f"{lab}: the course's test programs failed to build (see the output above)")
                if not worker_path:
                    started = time.monotonic()
                    path, failed = build.build_student_worker(build_dir, Path(config.labs_dir), lab, isolation, False,
                                                              worker_state, work_dir=config.work_dir)
                    worker_path = path or ""
                    build_seconds = time.monotonic() - started
                gpu_lab = manifest["labs"].get(lab) == "GPU"
                command = tuple(sandbox.worker_command(isolation, Path(worker_path), gpu_lab))
                programs = [Program(p.path, p.kind, command, worker_path) for p in programs]
            elif not config.no_build:
                failed = build.build(build_dir, [p.target for p in programs])
            if failed is not None:
                if isolation is None:  # the test programs link the lab's code, so none was built to tell the skips
                    report = not_run(lab, rubric[lab], "failed", f"not run: {lab} did not compile",
                                     sanitizer_skip=sanitizer.skip, sanitizer_only=config.sanitize_only,
                                     perf_only=config.perf_only)
                else:  # the maximum of a compiled run: what would skip here is left out
                    report = not_compiled(lab, rubric[lab], programs, runner, left_out, sanitizer=sanitizer,
                                          sanitizer_only=config.sanitize_only, perf_setup=perf_setup,
                                          perf_only=config.perf_only)
                report.compiler_errors = build.compiler_errors(failed)
                reports.append(with_build_time(report, build_seconds))
                continue
            # A worker missing would fail every test as the student's crash: a zero that says nothing.
            missing = [path for path in [*(p.path for p in programs), worker_path] if path and not Path(path).exists()]
            if missing:
                raise GradingError(f"{lab}: not built: {', '.join(missing)} (build it: drop --no-build)")
            reports.append(with_build_time(
                grade_lab(lab, rubric[lab], programs, runner, left_out, sanitizer=sanitizer,
                          sanitizer_only=config.sanitize_only, perf_setup=perf_setup, perf_only=config.perf_only,
                          sanitizer_beside_tests=config.sanitizer_beside_tests, gpu_jobs=config.gpu_jobs),
                build_seconds))
    return reports


def with_build_time(report: LabReport, seconds: float | None) -> LabReport:
    """`report` with the student's worker build first among its phases' times, if there was one."""
    if seconds is not None:
        report.seconds = {"worker build": seconds, **report.seconds}
    return report


def perf_setup_for(config: GradingConfig, lab: str, entry: dict, gpu: bool,
                   isolation: sandbox.Isolation | None, workers: dict) -> perf.PerfSetup:
    """How the lab's performance item runs here: against the reference
    solution's worker, in the same sandbox as the student's; or why it cannot."""
    if "perf" not in entry or not config.perf:
        return perf.PerfSetup(skip=perf.PERF_OFF)
    if isolation is None:
        return perf.PerfSetup(skip=perf.PERF_IN_PROCESS)
    if not gpu:
        return perf.PerfSetup(skip=perf.PERF_NO_GPU)
    reference = workers.get((lab, "solution"))
    if not reference:
        return perf.PerfSetup(skip=perf.PERF_NO_REFERENCE)
    command = tuple(sandbox.worker_command(isolation, Path(reference), True))
    return perf.PerfSetup(reference_worker=command, skip=None, plots=config.work_dir / "grading")
