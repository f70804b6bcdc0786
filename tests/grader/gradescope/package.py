#!/usr/bin/env python3
"""Build one lab's Gradescope autograder zip.

    python3 -m tests.grader.gradescope.package --lab LAB --hidden-graphs DIR [--data-dir DIR] OUT.zip

Gradescope unpacks the zip in /autograder/source, runs its `setup.sh` once
when it builds the image, and `run_autograder` for every submission. The zip
holds, at its root:

- `run_autograder`: tests/grader/gradescope/run_autograder with the lab fixed (ASSIGNMENT), so
  one zip is one assignment and a submission cannot choose what it is graded
  as;
- `setup.sh`: tests/grader/gradescope/setup.sh for the lab (installs what the image
  lacks, CMake 3.24 or newer, and builds the grader once on the skeleton);
- the course as the student release has it (common/tools/make_release.py:
  no solutions/, no mutants, no project checks; the Markdown files without
  their instructor blocks) plus tests/grader/gradescope/run_autograder:
  grading a submission needs none of the reference, so the image holds none
  for a submission's code to read;
- the lab's written questions, where it has them (`labs/<lab>/questions.md`,
  with the release, its rubric left out): Gradescope grades them by hand, in
  a question set the instructor adds to the assignment (an autograder cannot
  create one); the tool prints a reminder with their points;
- `hidden/`: the hidden graphs (required: the lab's HiddenGraphs tests grade
  on them; `datasets/tiny` is an example, not a secret);
- `datasets/downloads/`: the real graphs the lab's tests read (those of
  datasets/manifest.tsv its test sources name), copied from --data-dir (by
  default datasets/downloads, where datasets/fetch.py puts them) after their
  checksums are checked. The image has no network to fetch them, and a test
  that skipped would leave the grade incomplete: a missing one stops the
  build of the zip, naming the fetch command.

Gradescope's machines have no GPU: a GPU lab's tests would only skip, and
the package refuses to build for one (README, "For instructors": grade GPU
labs on a machine of your own with tests/grade_bulk.py).
"""
import argparse
import stat
import sys
import zipfile
from pathlib import Path

from common.tools import make_release  # the student release's file list and Markdown filter
from datasets import fetch  # the manifest and its checksums

from .. import REPO, lab_data

RUN_AUTOGRADER = "tests/grader/gradescope/run_autograder"
GRADER_FILES = (RUN_AUTOGRADER,)  # left out of the release (tests/grader/gradescope/), needed here


def cpu_labs() -> list[str]:
    """The labs declared CPU (lab_data.course_labs): their graded tests need no GPU."""
    return [lab for lab, kind in lab_data.course_labs().items() if kind == "CPU"]


def run_autograder(lab: str) -> str:
    return ("#!/usr/bin/env bash\n"
            f"# {lab}'s autograder (written by tests/grader/gradescope/package.py): the course's\n"
            "# tests/grader/gradescope/run_autograder with the assignment fixed.\n"
            f"export ASSIGNMENT={lab}\n"
            f'exec bash "${{AUTOGRADER_ROOT:-/autograder}}/source/{RUN_AUTOGRADER}"\n')


def add(archive: zipfile.ZipFile, name: str, data: bytes, executable: bool) -> None:
    info = zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0))  # the same bytes for the same course
    info.external_attr = ((0o755 if executable else 0o644) | stat.S_IFREG) << 16
    info.compress_type = zipfile.ZIP_DEFLATED
    archive.writestr(info, data)


def hidden_graphs(directory: Path) -> list[Path]:
    if not directory.is_dir():
        raise SystemExit(f"gradescope/package.py: --hidden-graphs {directory}: not a directory")
    graphs = sorted(p for p in directory.iterdir() if p.is_file() and not p.name.startswith("."))
    if not graphs:
        raise SystemExit(f"gradescope/package.py: --hidden-graphs {directory} holds no graph file")
    return graphs


def lab_datasets(lab: str, data_dir: Path) -> list[Path]:
    """The manifest's graphs that the lab's test sources name, found in data_dir and checked."""
    sources = "".join(p.read_text(errors="replace") for p in sorted((REPO / "tests" / lab).iterdir())
                      if p.suffix in (".cpp", ".hpp", ".cu"))
    entries = [e for e in fetch.read_manifest(REPO / "datasets" / "manifest.tsv") if e.file in sources]
    missing = [e.file for e in entries if not (data_dir / e.file).is_file()]
    if missing:
        raise SystemExit(f"gradescope/package.py: missing real graphs: {', '.join(missing)} (not in {data_dir}). "
                         f"{lab}'s tests read them and the zip must carry them, since Gradescope's image cannot "
                         f"download them. Download them once with: python3 datasets/fetch.py {' '.join(missing)} "
                         "(or pass --data-dir DIR where they are)")
    found = []
    for entry in entries:
        path = data_dir / entry.file
        verdict, detail = fetch.verify(path, entry)
        if verdict != "ok":
            raise SystemExit(f"gradescope/package.py: {path}: {verdict}: {detail}")
        found.append(path)
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lab", required=True, help="the lab this autograder grades (one zip per assignment)")
    parser.add_argument("--hidden-graphs", type=Path, required=True, help="directory of the hidden graphs")
    parser.add_argument("--data-dir", type=Path, default=REPO / "datasets" / "downloads",
                        help="directory with the real graphs the lab's tests read (default: datasets/downloads)")
    parser.add_argument("out", type=Path, help="the zip to write")
    args = parser.parse_args()
    labs = list(lab_data.load_rubric())
    if args.lab not in labs:
        parser.error(f"--lab {args.lab}: no such lab (one of {', '.join(labs)})")
    if args.lab not in cpu_labs():
        parser.error(f"--lab {args.lab}: a GPU lab; Gradescope has no GPU, so its tests could only skip. Grade it "
                     "on a GPU machine (tests/grade_bulk.py, README 'For instructors')")
    graphs = hidden_graphs(args.hidden_graphs)
    datasets = lab_datasets(args.lab, args.data_dir)
    files = sorted(set(make_release.release_files()) | set(GRADER_FILES))
    setup = (REPO / "tests" / "grader" / "gradescope" / "setup.sh").read_text().replace("@LAB@", args.lab)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(args.out, "w") as archive:
        add(archive, "run_autograder", run_autograder(args.lab).encode(), executable=True)
        add(archive, "setup.sh", setup.encode(), executable=True)
        for path in files:
            try:
                data = make_release.released_bytes(path)  # the README's and handouts' instructor blocks left out
            except ValueError as error:
                raise SystemExit(f"gradescope/package.py: {path}: {error}")
            add(archive, path, data, executable=bool((REPO / path).stat().st_mode & stat.S_IXUSR))
        for graph in graphs:
            add(archive, f"hidden/{graph.name}", graph.read_bytes(), executable=False)
        for dataset in datasets:
            add(archive, f"datasets/downloads/{dataset.name}", dataset.read_bytes(), executable=False)
    print(f"{args.out}: {args.lab}'s autograder, {len(files)} course files, {len(graphs)} hidden graphs, "
          f"datasets: {', '.join(d.name for d in datasets) or 'none'}")
    questions = f"labs/{args.lab}/questions.md"
    if questions in files:
        print(f"{questions} ships with the handout: add a manually graded question set to the Gradescope "
              "assignment with the points its table gives (the autograder cannot create one), and grade it with "
              "the rubric in its instructor block")
    return 0


if __name__ == "__main__":
    sys.exit(main())
