"""The machine a benchmark ran on, in one line for the tables."""
import os
import platform
import re
import subprocess
import time
from pathlib import Path


def cpu_name() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def probe(command: list[str], pattern: str) -> str:
    """The first match of pattern's group 1 in command's output, or "unknown" (also when the
    command fails: a broken nvidia-smi prints its error on stdout)."""
    try:
        proc = subprocess.run(command, capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"
    if proc.returncode != 0:
        return "unknown"
    match = re.search(pattern, proc.stdout)
    return match.group(1).strip() if match else "unknown"


def machine(results: list) -> str:
    """One line naming the GPU, driver, CUDA, CPU and date of this run."""
    device = next((r["device"] for r in results if r["device"].get("available")), None)
    gpu = device["summary"] if device else probe(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"], r"(.+)")
    gpu = "none" if gpu == "unknown" else gpu
    driver = probe(["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"], r"(.+)")
    cuda = probe(["nvcc", "--version"], r"release ([\d.]+)")
    return (f"GPU: {gpu}; driver {driver}; CUDA {cuda}. CPU: {cpu_name()} ({os.cpu_count()} threads). "
            f"Date: {time.strftime('%Y-%m-%d', time.gmtime())}.")
