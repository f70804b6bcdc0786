"""The sandbox the student's code is compiled and run in (tests/grade.py).

Trust boundary: a graded test program (GoogleTest, the reference solver, the
verifier) never loads the student's code. Every call to the lab's API goes to
a worker process (tests/grader/runtime/rpc), and the worker runs here:

- bubblewrap (`bwrap`, Debian package bubblewrap): new user, PID, network,
  IPC and UTS namespaces, and no further user namespace inside (a nested
  one would give the code a root of its own to mount with); the
  unprivileged identity nobody (65534); a read-only view of the system (/usr
  and what links into it) and of the worker program alone; an empty /tmp
  as its only writable place and working directory, and a /dev/shm of its
  own, both capped (TMP_SIZE: a file system in memory the caps of the
  process do not count, which would otherwise take the host's); no network;
  an environment with nothing but PATH, HOME and what the CUDA driver needs;
  the GPU's device nodes only for a GPU lab. It dies with the test process
  that started it, and everything it started dies with it (its PID
  namespace).
- none: the worker is still its own process, so no verdict is made where the
  student's code runs, but it sees what the grader's user sees. Used only
  where bubblewrap cannot run, and said in every report; grading for a
  platform refuses it unless told otherwise.

Compiling the student's code happens in the same kind of sandbox, from a
staged copy of what a worker needs (the labs, common/'s core, the bindings):
the compiler sees no solutions/, no tests, no hidden graphs and none of the
course's code that computes or checks answers (the reference solver and the
verifier), so an #include of one fails instead of showing it. The compiler
runs under caps of its own (COMPILE_*): time, memory per process, the size
of every file it writes (its output included).
"""
from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

NOBODY = "65534"
TMP_SIZE = 256 << 20  # bytes of /tmp and of /dev/shm in a worker's sandbox
COMPILE_TMP_SIZE = 1 << 30  # and in a compile's (nvcc keeps its intermediate files in /tmp)
# What the worker may see of its environment: the dynamic linker's and the CUDA driver's settings.
PASSED_ENV = ("LD_LIBRARY_PATH", "CUDA_VISIBLE_DEVICES", "NVIDIA_VISIBLE_DEVICES", "NVIDIA_DRIVER_CAPABILITIES")
WORKER_DIR = "/worker"


@dataclass(frozen=True)
class Isolation:
    """How student code is confined here: 'bubblewrap' or 'none'."""
    kind: str
    why: str = ""  # for 'none': why bubblewrap cannot be used

    @property
    def sandboxed(self) -> bool:
        return self.kind == "bubblewrap"

    def describe(self) -> str:
        if self.sandboxed:
            return ("isolation: bubblewrap (the student's code compiled and run as nobody in new user, PID, network "
                    "and IPC namespaces, seeing only the system and its own program, writing only its /tmp)")
        return (f"isolation: NONE ({self.why}): the student's code runs in its own process, so it cannot reach a "
                "verdict, but it can read and write what the grader's user can")


def _system_view() -> list[str]:
    """bwrap arguments for a read-only view of the installed system."""
    args = ["--ro-bind", "/usr", "/usr"]
    for top in ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"):
        path = Path(top)
        if path.is_symlink():
            args += ["--symlink", os.readlink(path), top]
        elif path.is_dir():
            args += ["--ro-bind", top, top]
    for etc in ("/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/alternatives",
                "/etc/passwd", "/etc/group"):
        if os.path.exists(etc):
            args += ["--ro-bind", etc, etc]
    return args


def _common(gpu: bool, workdir: str = "/tmp", tmp_size: int = TMP_SIZE) -> list[str]:
    bwrap = shutil.which("bwrap") or "bwrap"
    args = [bwrap, "--die-with-parent", "--new-session", "--unshare-all", "--unshare-user", "--disable-userns",
            "--uid", NOBODY, "--gid", NOBODY,
            "--clearenv", "--setenv", "PATH", "/usr/local/cuda/bin:/usr/bin:/bin", "--setenv", "HOME", "/tmp",
            *_system_view(), "--proc", "/proc", "--dev", "/dev",
            "--size", str(tmp_size), "--tmpfs", "/dev/shm", "--size", str(tmp_size), "--tmpfs", "/tmp",
            "--chdir", workdir]
    for name in PASSED_ENV:
        if os.environ.get(name):
            args += ["--setenv", name, os.environ[name]]
    if gpu:
        # The driver's device nodes, and /sys, where the CUDA driver reads the PCI topology.
        for node in sorted(Path("/dev").glob("nvidia*")):
            args += ["--dev-bind", str(node), str(node)]
        args += ["--ro-bind", "/sys", "/sys"]
    return args


def detect() -> Isolation:
    """bubblewrap where it can start a sandbox here; else none, with the reason."""
    if shutil.which("bwrap") is None:
        return Isolation("none", "bubblewrap is not installed: apt-get install bubblewrap")
    try:
        probe = subprocess.run([*_common(False), "/bin/sh", "-c", "exit 0"], capture_output=True, text=True,
                               timeout=60)
    except (OSError, subprocess.SubprocessError) as error:
        return Isolation("none", f"bubblewrap could not start: {error}")
    if probe.returncode != 0:
        return Isolation("none", "bubblewrap could not start a sandbox here (user namespaces off?): "
                                 + (probe.stderr.strip().splitlines() or ["no message"])[-1])
    return Isolation("bubblewrap")


def worker_command(isolation: Isolation, worker: Path, gpu: bool, prefix: list[str] | None = None,
                   log_dir: Path | None = None) -> list[str]:
    """The command that starts `worker` (with `prefix`, e.g. compute-sanitizer,
    before it, inside the sandbox). `log_dir`, a directory of the grader's,
    is writable inside at the same path (the sanitizer's log): it must hold
    nothing the grader writes or trusts, and what the grader reads from it is
    the sandbox's to change (tests/grader/sanitizer.py)."""
    if not isolation.sandboxed:
        return [*(prefix or []), str(worker)]
    inside = f"{WORKER_DIR}/{worker.name}"
    args = [*_common(gpu), "--ro-bind", str(worker), inside]
    if prefix:
        tool = Path(prefix[0]).resolve()
        # compute-sanitizer lives in the CUDA Toolkit, which /usr may not hold.
        if not str(tool).startswith("/usr/"):
            args += ["--ro-bind", str(tool.parent.parent), str(tool.parent.parent)]
    if log_dir is not None:
        args += ["--bind", str(log_dir), str(log_dir)]
    return [*args, *(prefix or []), inside]


def build_command(isolation: Isolation, source: Path, build: Path, command: list[str], gpu: bool) -> list[str]:
    """`command` run with `source` read-only and `build` writable at their own
    paths, and nothing else of the grader's in view."""
    if not isolation.sandboxed:
        return command
    extra: list[str] = []
    # The toolchain wherever it is installed (CMake from pip or /opt, the CUDA Toolkit behind a link).
    prefixes = {Path("/usr/local/cuda").resolve()}
    for tool in ("cmake", "ninja"):
        found = shutil.which(tool)
        if found:
            prefixes.add(Path(found).resolve().parent.parent)
    for prefix in sorted(prefixes):
        if prefix.exists() and not str(prefix).startswith("/usr/") and str(prefix) != "/usr":
            extra += ["--ro-bind", str(prefix), str(prefix)]
    return [*_common(gpu, str(build), COMPILE_TMP_SIZE), *extra, "--ro-bind", str(source), str(source),
            "--bind", str(build), str(build), *command]
