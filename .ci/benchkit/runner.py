"""Runs of sssp-ref, read from its JSON."""
import json
import shlex
import subprocess
import sys


def runner_json(command: list[str]) -> tuple[dict | None, list[str]]:
    """One sssp-ref run (its command is printed on stderr): (its JSON, None when it printed
    none; what failed, one line each)."""
    print("+", shlex.join(command), file=sys.stderr, flush=True)
    proc = subprocess.run(command, capture_output=True, text=True)
    message = (proc.stderr.strip().splitlines() or ["no message"])[-1]
    try:
        data = json.loads(proc.stdout)
    except json.JSONDecodeError:
        return None, [f"sssp-ref died (exit {proc.returncode}) without its JSON: {message}"]
    failures = [f"sssp-ref exit {proc.returncode}: {message}"] if proc.returncode != 0 else []
    for run in data["runs"]:
        if "error" in run:
            failures.append(f"{run['algorithm']} from source {run['source']}: {run['error']}")
        elif run.get("verified") is False:
            failures.append(f"{run['algorithm']} from source {run['source']}: wrong answer: {run['verdict']}")
    return data, failures


def run_runner(command: list[str], algos: list[str]) -> tuple[dict | None, list[str]]:
    """sssp-ref's command with algos: (the JSON of every run, None when none ran; what failed).
    A runner that dies without its JSON (a crash, an error it did not catch) is run again once
    per algorithm, so that a failing algorithm costs its own row, not the whole graph's."""
    data, failures = runner_json([*command, *(arg for algo in algos for arg in ("--algo", algo))])
    if data is not None or len(algos) == 1:
        return data, failures
    first, runs = None, []
    for algo in algos:
        alone, alone_failures = runner_json([*command, "--algo", algo])
        first = first or alone
        if alone:
            failures += alone_failures
            runs += alone["runs"]
        else:
            failures.append(f"{algo}: {alone_failures[0]}")
            runs.append({"algorithm": algo, "error": alone_failures[0]})
    return ({**first, "runs": runs} if first else None), failures
