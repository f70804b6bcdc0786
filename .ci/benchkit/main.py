"""The command behind .ci/bench.py: the runner's rows of every lab, its peer rows
and the labs' own programs, into tables, JSON and plots."""
import argparse
import json
import os
import re
import shlex
import sys
import tempfile
from pathlib import Path

from benchkit import gapbs, labs as lab_descriptions, pages, plots, programs, runner, tables
from benchkit.machine import machine

WEIGHTS = "1:1000:1"
REPO = Path(__file__).resolve().parents[2]


def built_algorithms(binary: Path) -> set[str]:
    """The algorithms `sssp-ref --list` names: a build without CUDA has no GPU lab's."""
    import subprocess
    try:
        listed = subprocess.run([str(binary), "--list"], capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError) as error:
        raise SystemExit(f"cannot list the algorithms of {binary} (build it first, or pass --bin): {error}")
    return {line.split()[0] for line in listed.splitlines() if line.strip()}


def in_build(algos: list[str], built: set[str]) -> list[str]:
    """The requested algorithms (names, or prefixes of a lab's names ending in a slash) that the build has."""
    return [a for a in algos if a in built or (a.endswith("/") and any(b.startswith(a) for b in built))]


def time_rows(labs: list, args, data_dir: str, workdir: Path) -> tuple[list, list[str]]:
    """Runs the rows of labs: (one result per graph and lab, what failed)."""
    results, failures = [], []
    built = built_algorithms(Path(args.bin) / "sssp-ref")
    peer_binary = None
    if args.gapbs != "none" and any(lab.gapbs_peer for lab in labs):
        print(f"building gapbs from {args.gapbs} in {workdir}", file=sys.stderr, flush=True)
        peer_binary = gapbs.build_gapbs(Path(args.gapbs), workdir)
    peer_rows = {}  # (graph arguments, source) -> gapbs rows, shared by the labs that time that graph
    smoked = set()  # with --gen: the (lab, algorithms) that ran
    for lab in labs:
        for label, graph_args, algos, reps in lab.rows:
            if args.gen:
                if graph_args[0] != "--gen":
                    continue
                if (lab.name, tuple(algos)) in smoked:
                    continue  # this lab's earlier row already ran these algorithms on it
                smoked.add((lab.name, tuple(algos)))
                label, graph_args = args.gen.replace(":", " "), ["--gen", args.gen]
            elif graph_args[0] == "--graph":
                path = Path(data_dir) / graph_args[1]
                if not data_dir or not path.exists():
                    print(f"skipping {label}: {graph_args[1]} not in SSSP_DATA_DIR", file=sys.stderr)
                    continue
                graph_args = ["--graph", str(path)]
            missing = [a for a in algos if a not in in_build(algos, built)]
            if missing:
                print(f"skipping {', '.join(missing)} on {label}: not in this build of sssp-ref (a GPU lab's "
                      "algorithms need SSSP_ENABLE_CUDA=ON)", file=sys.stderr)
                algos = in_build(algos, built)
                if not algos:
                    continue
            reps = 1 if args.quick else reps
            delta = next((d for prefix, d in gapbs.GAPBS_DELTA.items() if label.startswith(prefix)), None)
            peer = peer_binary and lab.gapbs_peer and delta
            graph_file = workdir / "graph.gr"
            graph_file.unlink(missing_ok=True)  # the runner writes it only when every run succeeded
            command = [str(Path(args.bin) / "sssp-ref"), *graph_args, "--weights", WEIGHTS, "--reps", str(reps),
                       "--random-sources", "1", "--output", "json"]
            if peer:
                command += ["--write-graph", str(graph_file)]
            data, graph_failures = runner.run_runner(command, algos)
            failures += [f"{lab.name}, {label}: {failure}" for failure in graph_failures]
            if data is None:
                continue
            source = next((run["source"] for run in data["runs"] if "median_ms" in run), None)
            if peer and source is not None and graph_file.exists():
                key = (tuple(graph_args), source)
                if key not in peer_rows:
                    peer_rows[key] = [gapbs.run_gapbs(peer_binary, graph_file, source, delta, threads, reps)
                                      for threads in (1, os.cpu_count())]
                data["runs"] += peer_rows[key]
                failures += [f"{lab.name}, {label}: {run['algorithm']}: {run.get('error', 'not verified')}"
                             for run in peer_rows[key] if not run.get("verified")]
            results.append({"lab": lab.name, "label": label, **data})
    return results, failures


def rewrite_pages(labs: list, out: Path) -> int:
    """--pages-only: each page in the current format, nothing timed. A lab's table and plot come
    from bench.json when it holds the page's run (the same machine line, and every row of the
    page's table among its rows); else from the page's own table, as it is (bench.json keeps the
    latest run of each lab, which need not be the one a page shows). A program's page keeps its
    sections."""
    if not out.is_dir():
        print(f"--pages-only: {out} is not a directory of results pages", file=sys.stderr)
        return 2
    try:
        return _rewrite_pages(labs, out)
    except ValueError as error:
        print(f"--pages-only: {error}", file=sys.stderr)
        return 1


def page_rows(lab, page: Path, about: str, body: str, stored: dict) -> tuple[list, list, str]:
    """(the rows of lab's table, the results its plot is drawn from, where they came from)."""
    shown = tables.parse(body)
    results = [r for r in stored.get("results", []) if r["lab"] == lab.name]
    rows = tables.cells(lab.name, results, lab.baseline)
    same_run = all(r.get("machine", stored.get("machine")) == about for r in results)
    if results and same_run and all(row in rows for row in shown):
        return rows, results, "bench.json"
    # The page's own run: its rows, and its plot drawn from them (a graph and algorithm's median).
    drawn = {}
    for row in shown:
        if re.match(r"^[\d.]+$", row[4]):
            label = tables.algorithm_name(row[3].partition(", -d ")[0])
            drawn.setdefault(row[0], []).append({"algorithm": label, "median_ms": float(row[4])})
    return shown, [{"lab": lab.name, "label": label, "runs": runs} for label, runs in drawn.items()], \
        f"its own table ({page.name}: not the run in bench.json)"


def _rewrite_pages(labs: list, out: Path) -> int:
    stored_file = out / "bench.json"
    stored = json.loads(stored_file.read_text()) if stored_file.exists() else {}
    try:
        import matplotlib  # noqa: F401  (optional: only the plots need it)
        can_plot = True
    except ImportError:
        can_plot = False
    for lab in labs:
        page = out / f"{lab.name}.md"
        if page.exists():
            about, command, body = pages.earlier_page(page)
            try:
                rows, results, source = page_rows(lab, page, about, body, stored)
            except ValueError as error:
                raise ValueError(f"{page}: {error}") from None
            if can_plot:
                plots.plot(lab.name, results, out / f"{lab.name}.svg")
            page.write_text(pages.lab_page(lab.name, about, command, tables.render(rows, lab.baseline), out))
            print(f"rewrote {page}" + (f" and {lab.name}.svg" if can_plot else " (not its plot: no matplotlib)")
                  + f", from {source}")
        for program, _ in lab.programs:
            page = out / f"{lab.name}-{program}.md"
            if page.exists():
                about, command, body = pages.earlier_page(page)
                page.write_text(pages.program_page(lab.name, program, about, command, body, out))
                print(f"rewrote {page}")
    return 0


def main(description: str) -> int:
    parser = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", help="directory holding sssp-ref (required unless --pages-only)")
    parser.add_argument("--out", help="where to write bench.json, LAB.md and LAB.svg (default: print only)")
    parser.add_argument("--lab", action="append", help="only these labs (e.g. lab01)")
    parser.add_argument("--quick", action="store_true", help="one repetition each (a smoke test)")
    parser.add_argument("--gen", help="a smoke test: each lab's generated-graph rows on this graph instead "
                                      "(e.g. grid:200x200), each set of algorithms once")
    default_gapbs = REPO.parent / "shared" / "peers" / "gapbs"
    parser.add_argument("--gapbs", default=str(default_gapbs) if default_gapbs.is_dir() else "none",
                        help="a gapbs checkout to time beside the course (default: %(default)s; none: skip)")
    parser.add_argument("--no-programs", action="store_true",
                        help="skip the labs' own benchmark programs (run with --out on a GPU machine otherwise)")
    parser.add_argument("--pages-only", action="store_true",
                        help="rewrite the pages of the run in --out in the current page format, time nothing: "
                             "each lab's table and plot from bench.json where it holds the page's run, else "
                             "from the page's own table; the programs' sections and plots as they are")
    args = parser.parse_args()
    if args.pages_only and not args.out:
        parser.error("--pages-only needs --out, the directory of the earlier run")
    if not args.pages_only and not args.bin:
        parser.error("--bin is required")
    data_dir = os.environ.get("SSSP_DATA_DIR", "")
    every_lab = lab_descriptions.load_all(REPO)
    known = [lab.name for lab in every_lab]
    unknown = sorted(set(args.lab or []) - set(known))
    if unknown:
        parser.error(f"unknown --lab {', '.join(unknown)} (one of {', '.join(known)})")
    labs = [lab for lab in every_lab if not args.lab or lab.name in args.lab]
    if args.pages_only:
        return rewrite_pages(labs, Path(args.out))
    with tempfile.TemporaryDirectory(prefix="sssp-bench-") as tmp:
        results, failures = time_rows(labs, args, data_dir, Path(tmp))
    for failure in failures:
        print(f"FAILED: {failure}", file=sys.stderr)
    failed = bool(failures)
    about = machine(results)
    print(f"\n{about}")
    device = next((r["device"] for r in results if r["device"].get("round_trip_us", -1) >= 0), None)
    if device:
        print(f"GPU host round trip: {device['round_trip_us']:.1f} us")
    out = Path(args.out) if args.out else None
    if out:
        out.mkdir(parents=True, exist_ok=True)
        # Other labs' results from an earlier run into the same directory stay (a run split by --lab).
        for r in results:
            r["machine"] = about  # each lab's own, where a split run's halves differ
        earlier = out / "bench.json"
        names = {lab.name for lab in labs}
        kept = [r for r in json.loads(earlier.read_text())["results"] if r["lab"] not in names] \
            if earlier.exists() else []
        earlier.write_text(json.dumps({"machine": about, "results": kept + results}, indent=2))
    try:
        import matplotlib  # noqa: F401  (optional: only the plots need it)
        can_plot = True
    except ImportError:
        can_plot = False
        if out:
            print("matplotlib is not installed: tables only, no plots (pip install matplotlib)", file=sys.stderr)
    env = [f"SSSP_DATA_DIR={data_dir}"] if data_dir else []
    command = shlex.join([*env, "python3", ".ci/bench.py", *sys.argv[1:]])
    for lab in labs:
        rows = tables.cells(lab.name, results, lab.baseline)
        if not rows:
            continue
        table = tables.render(rows, lab.baseline)
        print(f"\n### {lab.name}\n\n{table}")
        if out:
            if can_plot:
                plots.plot(lab.name, results, out / f"{lab.name}.svg")
                if lab.level_plot and plots.plot_levels(lab.name, results, out / f"{lab.name}-levels.svg",
                                                          lab.baseline):
                    print(f"wrote {out / f'{lab.name}-levels.svg'}", file=sys.stderr)
            (out / f"{lab.name}.md").write_text(pages.lab_page(lab.name, about, command, table, out))
    if out and not (args.quick or args.gen or args.no_programs):
        if about.startswith("GPU: none"):
            print("no GPU: the labs' benchmark programs are not run", file=sys.stderr)
        else:
            failed = programs.run_programs(labs, Path(args.bin), out, data_dir, about, command, can_plot) or failed
    return 1 if failed else 0
