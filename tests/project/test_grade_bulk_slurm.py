#!/usr/bin/env python3
"""grade_bulk.py --slurm against a real single-node Slurm (issue 47): the
test starts its own slurmctld and slurmd (a generated slurm.conf, a
temporary state and spool directory, free ports, AuthType=auth/none so no
munge; two fake GPUs as GRES, so --gres=gpu:1 is the real path), grades five
submissions with the stand-in grader (fake_grade.py), two per array task, one
of them killing its task, and checks the summary: the others graded, the
killed task's submissions errors that name the task and its state, the sbatch script kept
beside the results; then a rerun resubmits only those.

Skipped (77) where the daemons are not installed (Debian: slurmctld slurmd
slurm-client), not run as root, or do not come up here; failed when they do
and the tool misbehaves. Every daemon it started is stopped, whatever
happens.

    python3 -m tests.project.test_grade_bulk_slurm
"""
import csv
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
from tests.grader import bulk as grade_bulk  # tests/grade_bulk.py's main

FAKE = [sys.executable, str(Path(__file__).resolve().parent / "fake_grade.py")]
SKIP = 77
START_PATIENCE = 20.0  # seconds for the node to come up idle


def free_ports(count: int) -> list[int]:
    """Ports nothing listens on now (held open together, so they differ)."""
    sockets = [socket.socket() for _ in range(count)]
    for held in sockets:
        held.bind(("127.0.0.1", 0))
    ports = [held.getsockname()[1] for held in sockets]
    for held in sockets:
        held.close()
    return ports


def slurm_conf(root: Path, node: str) -> str:
    """A single-node cluster of this machine, all its state under `root`."""
    controller, daemon = free_ports(2)
    for name in ("state", "spool", "gpu"):
        (root / name).mkdir()
    for number in range(2):  # the GRES plugin wants device files; nothing opens them
        (root / "gpu" / f"nvidia{number}").touch()
    (root / "gres.conf").write_text(f"Name=gpu File={root}/gpu/nvidia[0-1]\n")
    return "\n".join([
        "ClusterName=gradebulktest", f"SlurmctldHost={node}(127.0.0.1)",
        f"SlurmctldPort={controller}", f"SlurmdPort={daemon}",
        "AuthType=auth/none", "CredType=cred/none", "SlurmUser=root", "SlurmdUser=root",
        f"StateSaveLocation={root}/state", f"SlurmdSpoolDir={root}/spool",
        f"SlurmctldPidFile={root}/slurmctld.pid", f"SlurmdPidFile={root}/slurmd.pid",
        f"SlurmctldLogFile={root}/slurmctld.log", f"SlurmdLogFile={root}/slurmd.log",
        # No cgroups in a container: processes tracked by their parentage, no task binding, no accounting.
        "ProctrackType=proctrack/linuxproc", "TaskPlugin=task/none", "JobAcctGatherType=jobacct_gather/none",
        "AccountingStorageType=accounting_storage/none", "MpiDefault=none",
        "SelectType=select/cons_tres", "SelectTypeParameters=CR_Core", "ReturnToService=2",
        "GresTypes=gpu",
        f"NodeName={node} NodeAddr=127.0.0.1 CPUs={os.cpu_count()} RealMemory=100 Gres=gpu:2 State=UNKNOWN",
        f"PartitionName=grading Nodes={node} Default=YES MaxTime=INFINITE State=UP", ""])


def node_idle(env: dict) -> bool:
    try:
        shown = subprocess.run(["sinfo", "--noheader", "--format=%T"], capture_output=True, text=True, env=env,
                               timeout=10)
    except (OSError, subprocess.SubprocessError):
        return False
    return shown.returncode == 0 and shown.stdout.strip() == "idle"


def stop(daemons: list[subprocess.Popen], env: dict) -> None:
    """Cancels the test cluster's jobs and stops its daemons (and their job steps)."""
    subprocess.run(["scancel", "--full", "--user=root"], capture_output=True, env=env, timeout=30, check=False)
    for daemon in reversed(daemons):
        if daemon.poll() is None:
            daemon.send_signal(signal.SIGTERM)
    for daemon in reversed(daemons):
        try:
            daemon.wait(timeout=15)
        except subprocess.TimeoutExpired:
            daemon.kill()
            daemon.wait()


def check(root: Path, env: dict) -> list[str]:
    """Grades through the test cluster; the problems seen."""
    submissions = root / "in"
    for number in range(5):
        (submissions / f"s{number}").mkdir(parents=True)
        (submissions / f"s{number}" / "score").write_text(str(number))
    (submissions / "s2" / "kill-task").write_text("")  # the task of s2 and s3 dies at s2
    out = root / "out"
    arguments = ["--assignment", "lab01_serial", "--submissions", str(submissions), "--out", str(out),
                 "--slurm", "--per-task", "2", "--poll", "0.5", "--time", "5", "--allow-skips"]
    os.environ.update(env)
    problems = []
    status = grade_bulk.main(arguments, grader=FAKE)
    rows = read_summary(out)
    if status != 1:
        problems.append(f"a task that died must make the exit status 1, not {status}")
    scripts = sorted((out / "slurm").glob("grade-*.sbatch"))
    if len(scripts) != 1 or "#SBATCH --gres=gpu:1" not in scripts[0].read_text():
        problems.append(f"the sbatch script, with --gres=gpu:1, must be kept beside the results: {scripts}")
    for name in ("s0", "s1", "s4"):
        row = rows.get(name, {})
        if (row.get("status"), row.get("score")) != ("graded", name[1:]):
            problems.append(f"{name} should be graded with {name[1:]}: {row}")
    for name in ("s2", "s3"):
        row = rows.get(name, {})
        if row.get("status") != "error" or "(FAILED): Slurm task" not in row.get("note", ""):
            problems.append(f"{name}, in the task that died, should be an error naming the task: {row}")
    if (out / "slurm" / "job.json").exists():
        problems.append("job.json was left behind after the job was collected")

    (submissions / "s2" / "kill-task").unlink()
    log = Path(env["FAKE_GRADE_LOG"])
    log.write_text("")
    status = grade_bulk.main(arguments, grader=FAKE)
    rows = read_summary(out)
    regraded = sorted(json.loads(line)["submission"] for line in log.read_text().splitlines()
                      if json.loads(line)["submission"])
    if regraded != ["s2", "s3"]:
        problems.append(f"the rerun should resubmit s2 and s3 only, not {regraded}")
    if status != 0 or {row["status"] for row in rows.values()} != {"graded"} or len(rows) != 5:
        problems.append(f"after the rerun every submission should be graded (exit {status}): {rows}")
    return problems


def read_summary(out: Path) -> dict[str, dict]:
    try:
        with open(out / "summary.csv") as summary:
            return {row["submission"]: row for row in csv.DictReader(summary)}
    except OSError:
        return {}


def main() -> int:
    missing = [tool for tool in ("slurmctld", "slurmd", "sbatch", "squeue", "sinfo", "scancel")
               if shutil.which(tool) is None]
    if missing:
        print(f"skipped: Slurm is not installed ({', '.join(missing)} missing; Debian: slurmctld slurmd "
              "slurm-client)")
        return SKIP
    if os.geteuid() != 0:
        print("skipped: the test cluster's slurmd runs jobs as their user, which needs root")
        return SKIP
    root = Path(tempfile.mkdtemp(prefix="bulk-slurm-"))
    conf = root / "slurm.conf"
    conf.write_text(slurm_conf(root, socket.gethostname().split(".")[0]))
    env = {"SLURM_CONF": str(conf), "FAKE_GRADE_LOG": str(root / "fake.log")}
    daemon_env = dict(os.environ) | env
    daemons: list[subprocess.Popen] = []
    try:
        for daemon in ("slurmctld", "slurmd"):
            daemons.append(subprocess.Popen([daemon, "-D", "-f", str(conf)], env=daemon_env,
                                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        deadline = time.monotonic() + START_PATIENCE
        while not node_idle(daemon_env):
            if time.monotonic() > deadline or any(d.poll() is not None for d in daemons):
                logs = "; ".join(f"{name}: {(root / name).read_text(errors='replace').strip()[-300:]}"
                                 for name in ("slurmctld.log", "slurmd.log") if (root / name).exists())
                print(f"skipped: the test cluster did not come up in {START_PATIENCE:g} s ({logs or 'no log'})")
                return SKIP
            time.sleep(0.2)
        started = time.monotonic()
        problems = check(root, env)
        print(f"graded through Slurm in {time.monotonic() - started:.1f} s")
    finally:
        stop(daemons, daemon_env)
        shutil.rmtree(root, ignore_errors=True)
    for problem in problems:
        print(f"FAILED: {problem}", file=sys.stderr)
    print("grade_bulk.py --slurm OK" if not problems else f"{len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
