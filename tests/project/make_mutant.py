#!/usr/bin/env python3
"""Write a variant of a lab's solution sources to OUT_DIR.

    python3 -m tests.project.make_mutant LAB NAME SOLUTION_DIR OUT_DIR
      mutant NAME of solutions/LAB/mutants.json: one snippet replaced ("file",
      "find", "replace"), or several ("changes": a list of such objects), or
      a calibration of the speed item ("calibration": "twice" or
      "one_and_a_half", "solvers": {FILE: CLASS}: each CLASS::run in FILE
      made to solve twice (the extra solve without the download of its
      answer), or its solve followed by GPU time of half its length; the
      code is written here, once for every lab). Fails if a
      snippet to replace is not found exactly once (the solution changed:
      update solutions/LAB/mutants.json).
    python3 -m tests.project.make_mutant --revert-task LAB N SOLUTION_DIR OUT_DIR
      the solution with task N as the skeleton has it (make_skeleton.py) and
      every other task solved: what tests/project/check_tasks.py grades.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

from tests.grader import lab_data  # each lab's rubric.json and mutants.json
from common.tools import make_skeleton  # the task regions, the same TODOs


# The calibration variants (issue 45) scale a solver's solve as the speed
# item sees it: a call's time less what a call that solves nothing costs (the
# runtime's null solver: timed_run's download of the n distances, the answer's
# way back). So they scale everything run() does but that download: its reset,
# its solve, its last look. Each solver file gets the block below at its top
# and calls calibration_timed_run where it called sssp::cuda::timed_run (the
# same steps, through timed_run itself); the run() header gets the body of its
# kind. Written once here for every lab; the mutant's sources are generated.
CALIBRATION_BLOCK = """#include "sssp/cuda/timed_run.cuh"

namespace {
DECLARATIONS
// sssp::cuda::timed_run, with the calibration's step after the solver's algorithm.
template <typename Value, typename Algorithm>
sssp::RunResult<Value> calibration_timed_run(const sssp::cuda::DeviceTodo& todo, sssp::vertex_t source,
                                             sssp::vertex_t num_vertices, Algorithm&& algorithm,
                                             cudaStream_t stream = nullptr) {
  return sssp::cuda::timed_run<Value>(
      todo, source, num_vertices,
      [&](sssp::Counters& work) -> const sssp::cuda::DeviceBuffer<Value>& {
        const sssp::cuda::DeviceBuffer<Value>& answer = algorithm(work);
AFTER_ALGORITHM
      },
      stream);
}
}  // namespace

"""
CALIBRATION_DECLARATIONS = {
    "twice": """// Calibration mutant (tests/project/make_mutant.py): set while run() calls itself for the extra solve.
thread_local bool calibration_inner = false;
""",
    "one_and_a_half": """// Calibration mutant (tests/project/make_mutant.py): the GPU's clock (%globaltimer) when run() began.
__device__ unsigned long long calibration_started_ns;

__global__ void calibration_stamp_gpu_clock() {
  unsigned long long now = 0;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  calibration_started_ns = now;
}

// Waits on the GPU's clock for half of the time since the stamp: half of run()'s reset and solve
// (never more than a minute, so that a clock read out of order cannot hang the worker).
__global__ void calibration_wait_half_since_stamp() {
  unsigned long long now = 0;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  const unsigned long long since = now > calibration_started_ns ? now - calibration_started_ns : 0;
  const unsigned long long until = now + min(since / 2, 60'000'000'000ULL);
  while (now < until) asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
}

// Recorded after the stamp, so that the wait, on the solver's stream, starts after it.
cudaEvent_t calibration_stamped() {
  static const cudaEvent_t event = [] {
    cudaEvent_t created = nullptr;
    SSSP_CUDA_CHECK(cudaEventCreateWithFlags(&created, cudaEventDisableTiming));
    return created;
  }();
  return event;
}
""",
}
CALIBRATION_AFTER_ALGORITHM = {
    # The extra solve downloads one value, not n: the download is the call's
    # cost, which the item takes out once, not the solve's.
    "twice": """        if (!calibration_inner) return answer;
        static const auto* one_value = new sssp::cuda::DeviceBuffer<Value>(1, "calibration");
        return *one_value;""",
    # Half of what run() took up to here (its reset and solve), waited on the
    # GPU before timed_run stops its clock. Both ends are read on the GPU's
    # clock and nothing waits on the host: a host synchronisation here would
    # add its own wake-up (the worker blocks, it does not spin) to every call,
    # 0.3 ms a call on lab 05's 1-2 ms solves (1.7x read, not 1.5x, H200).
    "one_and_a_half": """        SSSP_CUDA_CHECK(cudaStreamWaitEvent(stream, calibration_stamped(), 0));
        calibration_wait_half_since_stamp<<<1, 1, 0, stream>>>();
        SSSP_CUDA_CHECK_LAUNCH();
        return answer;""",
}
CALIBRATION_RUN_BODY = {
    "twice": """
  // Calibration mutant: every call solves twice, the first time without downloading its answer.
  if (!calibration_inner) {
    calibration_inner = true;
    struct Leave {
      ~Leave() { calibration_inner = false; }
    } leave;
    (void)run(ARGS);
  }
""",
    "one_and_a_half": """
  // Calibration mutant: every call's solve is followed by GPU time of half its own length.
  calibration_stamp_gpu_clock<<<1, 1>>>();
  SSSP_CUDA_CHECK_LAUNCH();
  SSSP_CUDA_CHECK(cudaEventRecord(calibration_stamped(), nullptr));
""",
}
TIMED_RUN = "sssp::cuda::timed_run<"


def calibration_changes(mutant: dict, solution_dir: str) -> list[dict] | None:
    """The find/replace changes of a "calibration" mutant, written from the templates above:
    per solver file, the block at its top, run()'s body and each call of timed_run."""
    kind = mutant["calibration"]
    if kind not in CALIBRATION_RUN_BODY:
        print(f"mutant {mutant['name']}: calibration '{kind}' is none of {', '.join(CALIBRATION_RUN_BODY)}",
              file=sys.stderr)
        return None
    changes = []
    for file, solver in mutant["solvers"].items():
        text = (Path(solution_dir) / file).read_text() if (Path(solution_dir) / file).exists() else ""
        header = re.search(rf"^\w+ {re.escape(solver)}::run\(([^)]*)\) \{{\n", text, re.MULTILINE)
        if header is None:
            print(f"mutant {mutant['name']}: no definition of {solver}::run in {file}", file=sys.stderr)
            return None
        # The one call of timed_run comes after run()'s header: run() is what it wraps.
        call = text.find(TIMED_RUN, header.end())
        if call < 0 or text.count(TIMED_RUN) != 1:
            print(f"mutant {mutant['name']}: {file} calls {TIMED_RUN[:-1]} {text.count(TIMED_RUN)} times, "
                  "expected once, in run()", file=sys.stderr)
            return None
        args = ", ".join(param.split()[-1].lstrip("*&") for param in header[1].split(","))
        body = CALIBRATION_RUN_BODY[kind].replace("ARGS", args)
        # run()'s header through the call of timed_run: one change, so that each snippet is found once.
        changes.append({"file": file, "find": text[header.start():call + len(TIMED_RUN)],
                        "replace": header[0] + body + text[header.end():call] + "calibration_timed_run<"})
        block = CALIBRATION_BLOCK.replace("DECLARATIONS", CALIBRATION_DECLARATIONS[kind]).replace(
            "AFTER_ALGORITHM", CALIBRATION_AFTER_ALGORITHM[kind])
        # At the file's top (after a #pragma once), outside every namespace.
        first = "#pragma once\n" if text.startswith("#pragma once\n") else text.splitlines(keepends=True)[0]
        changes.append({"file": file, "find": first, "replace": (first + "\n" + block)
                        if first == "#pragma once\n" else block + first})
    return changes


def mutate(lab: str, name: str, solution_dir: str) -> dict[str, str] | None:
    mutant = next((m for m in lab_data.lab_mutants(lab) if m["name"] == name), None)
    if mutant is None:
        print(f"{lab} has no mutant {name} in {lab_data.mutants_path(lab)}", file=sys.stderr)
        return None
    listed = calibration_changes(mutant, solution_dir) if "calibration" in mutant else mutant.get("changes", [mutant])
    if listed is None:
        return None
    changes: dict[str, list[dict]] = {}
    for change in listed:
        changes.setdefault(change["file"], []).append(change)
    files = {}
    for source in sources(solution_dir):
        text = source.read_text()
        for change in changes.pop(source.name, []):
            count = text.count(change["find"])
            if count != 1:
                print(f"mutant {name}: '{change['find']}' occurs {count} times in {source}, expected once",
                      file=sys.stderr)
                return None
            text = text.replace(change["find"], change["replace"])
        files[source.name] = text
    if changes:
        print(f"mutant {name}: {', '.join(changes)} is not a source file of {solution_dir}", file=sys.stderr)
        return None
    return files


def solve_other_tasks(text: str, task: int) -> tuple[str, int]:
    """The text with every region of a task other than `task` replaced by its
    solution, and the number of regions of `task` left in it."""
    out, regions, state = [], 0, "outside"  # outside | solution | skeleton (of another task's region)
    for line in text.splitlines(keepends=True):
        begin = make_skeleton.BEGIN.match(line)
        if begin:
            if int(begin["task"]) != task:
                state = "solution"
                continue
            regions += 1
        elif state != "outside" and make_skeleton.END.match(line):
            state = "outside"
            continue
        elif state == "solution" and make_skeleton.SKELETON.match(line):
            state = "skeleton"
        if state != "skeleton":
            out.append(line)
    return "".join(out), regions


def revert(lab: str, task: int, solution_dir: str) -> dict[str, str] | None:
    number = int(make_skeleton.LAB_DIR.match(lab)["number"])
    files, regions = {}, 0
    for source in sources(solution_dir):
        text, count = solve_other_tasks(source.read_text(), task)
        files[source.name] = make_skeleton.derive(text, number, f"solutions/{lab}/{source.name}")
        regions += count
    if not regions:
        print(f"{lab} has no region of task {task} (// BEGIN SOLUTION task {task}: ...)", file=sys.stderr)
        return None
    return files


def sources(solution_dir: str) -> list[Path]:
    return [p for p in Path(solution_dir).iterdir() if p.is_file() and p.suffix in make_skeleton.SOURCE_SUFFIXES]


def main(argv: list[str]) -> int:
    if argv[:1] in (["-h"], ["--help"]):
        print(__doc__)
        return 0
    if len(argv) != (5 if argv[:1] == ["--revert-task"] else 4):
        print(f"make_mutant.py: wrong arguments {argv}\n{__doc__}", file=sys.stderr)
        return 2
    if argv[0] == "--revert-task":
        lab, task, solution_dir, out_dir = argv[1:]
        files = revert(lab, int(task), solution_dir)
    else:
        lab, name, solution_dir, out_dir = argv
        files = mutate(lab, name, solution_dir)
    if files is None:
        return 1
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        target = out / name
        if not target.exists() or target.read_text() != text:  # unchanged files keep their build
            target.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
