#!/usr/bin/env python3
"""Show that the graded tests catch deliberately wrong solutions.

    check_mutants.py --build-dir BUILD [--hidden-graphs DIR]

For every mutant in tests/project/mutants.json (built by CMake as flavour
"mutant:<name>"), runs the lab's graded tests as the grader does, one process
each with a timeout and a memory cap (a mutant may loop forever, or grow a
heap without bound), and requires every test the mutant lists under
must_fail to fail. Prints how many graded tests catch each mutant. A must_fail
test that is skipped here (no GPU, no dataset) is reported, not counted.
"""
import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import grade  # noqa: E402  (tests/grade.py: the same test runner the grader uses)

MUTANTS = Path(__file__).resolve().parent / "mutants.json"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build-dir", required=True)
    parser.add_argument("--hidden-graphs")
    parser.add_argument("--lab", action="append", help="check only this lab's mutants (repeatable)")
    parser.add_argument("--timeout", type=float, default=10.0,
                        help="seconds per test; a mutant that runs past it counts as caught")
    # Lower than the grader's default: CI runs two test processes at a time,
    # and a mutant that grows without bound would take all of its cap.
    parser.add_argument("--memory-limit", type=int, default=1024, metavar="MIB",
                        help="data-segment cap per test process (default 1024 MiB)")
    args = parser.parse_args()
    manifest = json.loads((Path(args.build_dir) / "graded_tests.json").read_text())
    mutants = {lab: {m["name"]: m for m in entries}
               for lab, entries in json.loads(MUTANTS.read_text()).items() if not lab.startswith("_")}
    hidden = Path(args.hidden_graphs) if args.hidden_graphs else None
    runner = grade.Runner(args.timeout, args.memory_limit, hidden)
    # A mutant of a lab with cpu and gpu tests has two test programs: its
    # must_fail tests may be in either, so the results are pooled per mutant.
    programs = {}
    for exe in manifest["executables"]:
        if exe["flavour"].startswith("mutant:") and (not args.lab or exe["lab"] in args.lab):
            programs.setdefault((exe["lab"], exe["flavour"].split(":", 1)[1]), []).append(
                grade.Program(exe["path"], exe["kind"]))
    problems, checked = [], 0
    for (lab, name), mutant_programs in programs.items():
        spec = mutants[lab][name]
        jobs = [(program, grade.Result(lab, test, 0.0, "visible"))
                for program in mutant_programs for test in runner.list_tests(program)]
        runner.run_all(jobs)
        results = {r.name: r for _, r in jobs}
        caught = sorted(t for t, r in results.items() if r.status in ("failed", "timeout"))
        for test in spec["must_fail"]:
            status = results[test].status if test in results else "missing"
            if status == "passed":
                problems.append(f"{lab}/{name}: {test} PASSES on this wrong solution: the test is too weak")
            elif status in ("missing", "not run"):
                problems.append(f"{lab}/{name}: {test} is not a test of this lab (fix mutants.json)")
            elif status == "skipped":
                print(f"note: {lab}/{name}: {test} was skipped here ({results[test].output}); not checked")
        checked += 1
        print(f"{lab}/{name}: caught by {len(caught)} of {len(results)} graded tests"
              f" (must fail: {', '.join(spec['must_fail'])})")
    for problem in problems:
        print(f"FAILED: {problem}", file=sys.stderr)
    if checked == 0:
        print("no mutants were built", file=sys.stderr)
        return 1
    print(f"{checked} mutants checked, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
