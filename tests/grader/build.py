"""Builds what grading runs. In the grader's own build: the course's trusted
code (the test support, the hidden-graph checker and the graded test
programs, which, graded through a worker, hold no student code). In the
sandbox: a lab's worker from the student's files, compiled from a staged
copy of what a worker needs (labs/, common/'s core, the bindings; no
solutions, tests, graphs, nor the reference solver and verifier: ANSWER_KEY),
in a build directory of its own that a submission starts from pristine,
under the compile's caps (COMPILE_*: time, memory, output).
"""
from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import re
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from . import sandbox  # where the student's code is compiled and runs

from . import REPO
from .limits import cut, limited_command
from .model import GradingError

SUPPORT_TARGET = "sssp_test_support"  # the course's code every graded test program links
CHECKER_TARGET = "check-hidden-graphs"  # tests/support/check_hidden_graphs.cpp


def build(build_dir: Path, targets: list[str]) -> str | None:
    """Builds `targets`, echoing the build; returns None on success, else its output."""
    command = ["cmake", "--build", str(build_dir), "--target", *targets]
    print("+", " ".join(command), flush=True)
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               errors="replace")
    lines = []
    for line in process.stdout:
        print(line, end="", flush=True)
        lines.append(line)
    return None if process.wait() == 0 else "".join(lines)


def compiler_errors(build_output: str) -> str:
    """The part of a failed build's output a student needs: from the first error on."""
    lines = build_output.splitlines()
    first = next((i for i, line in enumerate(lines) if re.search(r"\berror\b", line, re.IGNORECASE)), 0)
    return cut("\n".join(lines[first:]).strip())


def configured_as_asked(build_dir: Path, data_dir: str | None, labs_dir: Path) -> bool:
    """Whether `build_dir` is already configured from this repository with these
    settings: then the next build re-runs CMake itself if any CMake input
    changed (the generator's own check), and configuring again only costs time
    (7.8 s of a 12.9 s edit-grade loop of lab 01 on 2 cores)."""
    generated = (build_dir / "build.ninja").exists() or (build_dir / "Makefile").exists()
    return (generated and cache_value(build_dir, "CMAKE_HOME_DIRECTORY") == str(REPO)
            and cache_value(build_dir, "SSSP_LABS_DIR") == str(labs_dir)
            and (data_dir is None or cache_value(build_dir, "SSSP_DATA_DIR") == data_dir))


def configure(build_dir: Path, data_dir: str | None, labs_dir: Path) -> None:
    """Configures the course's build in `build_dir`, its student code taken from
    `labs_dir`, unless it is configured so already (configured_as_asked)."""
    if configured_as_asked(build_dir, data_dir, labs_dir):
        print(f"configured: {build_dir} (the build re-runs CMake if a CMake file changed)", flush=True)
        return
    command = ["cmake", "-S", str(REPO), "-B", str(build_dir), f"-DSSSP_LABS_DIR={labs_dir}"]
    if shutil.which("ninja") and not (build_dir / "CMakeCache.txt").exists():
        command += ["-G", "Ninja"]
    if data_dir is not None:
        command.append(f"-DSSSP_DATA_DIR={data_dir}")
    print("+", " ".join(command), flush=True)
    if subprocess.run(command).returncode != 0:
        raise GradingError("configuring the build failed (see the output above)")


# The course's files that compute or check answers: never staged for a
# worker build, so no submission can #include or link them.
ANSWER_KEY = frozenset(Path(p) for p in ("common/src/reference.cpp", "common/src/verify.cpp",
                                         "common/include/sssp/reference.hpp", "common/include/sssp/verify.hpp"))
# What the sandbox of a worker build holds, for a compile error that names a file it does not.
SANDBOX_RULE = ("the autograder compiles your code in a sandbox that holds only your lab's files, the other "
                "labs' skeletons and the course's contract headers (common/include/sssp, without the reference "
                "solver and the verifier); the course's reference, verifier, solutions, tests and graphs are not "
                "there, by any path. Your code may use only its own files and the contract.")
# The caps of compiling a submission: seconds for its whole build, MiB of data
# per compiler process, bytes of any file it writes (its output included).
COMPILE_TIMEOUT = 600.0
COMPILE_MEMORY_MIB = 4096
COMPILE_FILE_LIMIT = 256 << 20
COMPILE_OUTPUT_READ = 1 << 20  # bytes of the compiler's output read back

WORKER_BUILD = "isolation"  # under the build (or work) directory: the staged sources and the sandboxed build of workers
# The course build's settings the sandboxed worker build is configured with.
WORKER_BUILD_SETTINGS = ("SSSP_ENABLE_CUDA", "CMAKE_CUDA_ARCHITECTURES", "CMAKE_CUDA_COMPILER", "CMAKE_BUILD_TYPE")


def cache_value(build_dir: Path, name: str) -> str | None:
    """A variable of the build's CMakeCache.txt, or None."""
    try:
        for line in (build_dir / "CMakeCache.txt").read_text().splitlines():
            if line.startswith(f"{name}:"):
                return line.split("=", 1)[1]
    except OSError:
        pass
    return None


def worker_sources(labs_dir: Path) -> dict[Path, Path]:
    """What a worker build needs (and nothing of the solutions, the tests or
    the graphs), by its path in the stage: the top CMakeLists.txt, common/'s
    library, the rpc layer, each lab's binding and ordering probe, and the
    labs graded from."""
    wanted: dict[Path, Path] = {Path("CMakeLists.txt"): REPO / "CMakeLists.txt"}
    for part in ("CMakeLists.txt", "cmake", "include", "src"):
        source = REPO / "common" / part
        for path in ([source] if source.is_file() else sorted(p for p in source.rglob("*") if p.is_file())):
            wanted[path.relative_to(REPO)] = path
    rpc = REPO / "tests" / "grader" / "runtime" / "rpc"
    wanted.update({p.relative_to(REPO): p for p in sorted(rpc.iterdir()) if p.is_file()})
    wanted.update({b.relative_to(REPO): b for b in sorted(REPO.glob("tests/lab*/binding.cpp"))})
    wanted.update({p.relative_to(REPO): p for p in sorted(REPO.glob("tests/lab*/ordering_probe.cu"))})
    for path in sorted(p for p in labs_dir.rglob("*") if p.is_file() and not p.is_symlink()):
        wanted[Path("labs") / path.relative_to(labs_dir)] = path
    return {relative: path for relative, path in wanted.items() if relative not in ANSWER_KEY}


@dataclass
class Compiled:
    """A sandboxed build step's outcome: its exit status (None: stopped at its
    time cap) and what it printed (the first COMPILE_OUTPUT_READ bytes)."""
    returncode: int | None
    output: str

    def limit_hit(self, timeout: float) -> str:
        """Which cap stopped the build, in words a student understands ('' for none)."""
        if self.returncode is None:
            return (f"compiling took longer than {timeout:g} s, the autograder's limit: look for templates, "
                    "constexpr evaluation or static_asserts that keep the compiler busy")
        if self.returncode == -signal.SIGXFSZ or "File size limit exceeded" in self.output:
            return (f"the compiler wrote a file (or output) over {COMPILE_FILE_LIMIT >> 20} MiB, the "
                    "autograder's limit")
        if re.search(r"out of memory|memory exhausted|std::bad_alloc|cannot allocate memory", self.output, re.I):
            return (f"the compiler ran out of memory: each compiler process may use {COMPILE_MEMORY_MIB} MiB "
                    "here (an #include of a device or a huge file, or a template that never ends?)")
        return ""


def run_capped(command: list[str], timeout: float | None) -> Compiled:
    """Runs a sandboxed build `command` under the compile's caps (memory per
    process and file size through limits.limited_command, `timeout` seconds
    for the whole of it; None: no time cap, for the course's own code), its
    output in a file of the grader's, read back in part."""
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen(limited_command(COMPILE_MEMORY_MIB, command, COMPILE_FILE_LIMIT),
                                   stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                                   start_new_session=True)
        try:
            returncode: int | None = process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            returncode = None
        finally:
            try:
                os.killpg(process.pid, signal.SIGKILL)  # without a sandbox, what the build started
            except ProcessLookupError:
                pass
            process.wait()
        log.seek(0)
        return Compiled(returncode, log.read(COMPILE_OUTPUT_READ).decode(errors="replace"))


def stage_worker_sources(labs_dir: Path, stage: Path) -> None:
    """Makes `stage` hold worker_sources(labs_dir) and nothing else. A file is
    rewritten only when its content changed, so that its new time makes the
    build recompile it, and only then (build tools compare times, not
    contents: a copy that kept an older time would be taken as built)."""
    wanted = worker_sources(labs_dir)
    for relative, source in wanted.items():
        target = stage / relative
        content = source.read_bytes()
        if not target.is_file() or target.read_bytes() != content:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(content)
    for path in sorted((p for p in stage.rglob("*") if p.is_file()), reverse=True):
        if path.relative_to(stage) not in wanted:
            path.unlink()


def cmake_path() -> str:
    """CMake's resolved path: the sandbox has no PATH of the grader's."""
    found = shutil.which("cmake")
    return str(Path(found).resolve()) if found else "cmake"


def _configure_worker_build(build_dir: Path, stage: Path, out: Path, isolation: sandbox.Isolation,
                            gpu: bool) -> None:
    """Configures the sandboxed worker build of `stage` in `out` (once)."""
    if (out / "CMakeCache.txt").exists():
        return
    out.mkdir(parents=True, exist_ok=True)
    command = [cmake_path(), "-S", str(stage), "-B", str(out), "-G", "Ninja", "-DSSSP_WORKERS_ONLY=ON",
               f"-DCMAKE_MAKE_PROGRAM={shutil.which('ninja') or 'ninja'}",
               "-DSSSP_BUILD_TESTS=OFF", f"-DSSSP_LABS_DIR={stage / 'labs'}"]
    for name in WORKER_BUILD_SETTINGS:
        value = cache_value(build_dir, name)
        if value:
            command.append(f"-D{name}={value}")
    configured = run_capped(sandbox.build_command(isolation, stage, out, command, gpu), None)
    if configured.returncode != 0:
        raise GradingError("configuring the sandboxed worker build failed:\n" + cut(configured.output))


def _build_worker_target(stage: Path, out: Path, lab: str, isolation: sandbox.Isolation, gpu: bool,
                         timeout: float | None) -> Compiled:
    """Builds `lab`'s student worker in the sandboxed build `out`, echoing the command."""
    command = [cmake_path(), "--build", str(out), "--target", f"{lab}_worker_student"]
    print("+ (sandbox)", " ".join(command), flush=True)
    return run_capped(sandbox.build_command(isolation, stage, out, command, gpu), timeout)


def _start_from_pristine(build_dir: Path, root: Path, lab: str, isolation: sandbox.Isolation, gpu: bool) -> None:
    """Makes the stage and worker build of `root` the course's own: labs/ as
    shipped, built (the worker of `lab` and all it links), and nothing any
    submission compiled or left there. The first time builds that state and
    keeps a copy in root/pristine; later times restore the copy, at the same
    paths (CMake and Ninja record them) and with the same file times, so a
    submission recompiles only what it changed."""
    stage, out, pristine = root / "src", root / "build", root / "pristine"
    shutil.rmtree(stage, ignore_errors=True)
    shutil.rmtree(out, ignore_errors=True)
    # The copy is the course's code as it is now, built the way the course's
    # build is configured: anything else (a course update) builds it anew.
    digest = hashlib.sha256()
    for relative, source in sorted(worker_sources(REPO / "labs").items()):
        content = source.read_bytes()
        digest.update(f"{relative}\0{len(content)}\0".encode() + content)
    for name in WORKER_BUILD_SETTINGS:
        digest.update(f"{name}={cache_value(build_dir, name)}\0".encode())
    stamp = pristine / "course.sha256"
    if stamp.is_file() and stamp.read_text() == digest.hexdigest():
        shutil.copytree(pristine / "src", stage, symlinks=True)
        shutil.copytree(pristine / "build", out, symlinks=True)
        return
    shutil.rmtree(pristine, ignore_errors=True)
    stage_worker_sources(REPO / "labs", stage)
    _configure_worker_build(build_dir, stage, out, isolation, gpu)
    built = _build_worker_target(stage, out, lab, isolation, gpu, None)
    if built.returncode != 0:
        raise GradingError("the course's own worker code failed to build in the sandbox (not a student error):\n"
                           + cut(built.output))
    shutil.copytree(stage, pristine / "src", symlinks=True)
    shutil.copytree(out, pristine / "build", symlinks=True)
    stamp.write_text(digest.hexdigest())


@contextlib.contextmanager
def worker_build_lock(work_dir: Path) -> Iterator[None]:
    """Holds the worker build under `work_dir` for one grading, from its
    compile to its last test: a second grading there would rebuild the worker
    that the first one's tests still run (one student's tests running another
    student's code), so it waits until the first has ended, and says so. The
    lock is a file beside the worker build, which a fresh build wipes."""
    work_dir.mkdir(parents=True, exist_ok=True)
    with open(work_dir / f"{WORKER_BUILD}.lock", "a") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            print(f"waiting: another grading compiles and runs students' code in {work_dir / WORKER_BUILD}; "
                  "gradings at the same time each need their own --work-dir", flush=True)
            fcntl.flock(lock, fcntl.LOCK_EX)
        yield  # the lock ends with the file's closing


def build_student_worker(build_dir: Path, labs_dir: Path, lab: str, isolation: sandbox.Isolation,
                         gpu: bool, state: dict, timeout: float = COMPILE_TIMEOUT,
                         work_dir: Path | None = None) -> tuple[str | None, str | None]:
    """Compiles `lab`'s worker from the student's files inside the sandbox, in
    a build directory of its own; returns (the worker's path, None) or (None,
    the compiler's messages, with the staged paths made relative). With
    state["fresh"] (a submission) the build starts from the course's pristine
    one, so no submission sees what another compiled. The build runs under
    the compile's caps, `timeout` seconds for the whole of it. The build goes
    under `work_dir` (default `build_dir`, whose settings it takes): runs at
    the same time each need their own (worker_build_lock)."""
    root = (work_dir or build_dir) / WORKER_BUILD
    stage, out = root / "src", root / "build"
    if not state.get("staged"):
        if state.get("fresh"):
            _start_from_pristine(build_dir, root, lab, isolation, gpu)
        stage_worker_sources(labs_dir, stage)
        state["staged"] = True
    _configure_worker_build(build_dir, stage, out, isolation, gpu)
    built = _build_worker_target(stage, out, lab, isolation, gpu, timeout)
    text = built.output.replace(f"{stage}/", "").replace(str(out), "<build>")
    print(text, end="", flush=True)
    if built.returncode != 0:
        return None, explained(text, built.limit_hit(timeout))
    return str(out / "workers" / f"{lab}_worker_student"), None


def explained(text: str, limit_hit: str) -> str:
    """A failed build's output with the rule it broke said first: a cap it
    hit, or the sandbox's contents when it named a file that is not there."""
    if limit_hit:
        return f"error: {limit_hit}\n{text}"
    if re.search(r"No such file or directory|cannot open source file|file not found", text):
        return f"error: a file your code names is not there: {SANDBOX_RULE}\n{text}"
    return text
