#!/usr/bin/env python3
"""Tests of datasets/: the manifest, the fetch tool and the tiny graphs.

Run:  python3 -m tests.project.test_fetch [--mirror DIR] [unittest options]

The mirror of real graphs is taken from --mirror, else the SSSP_DATA_MIRROR
environment variable, else ../shared/datasets next to the repository if that
exists. Tests that need it are skipped (with the reason) when there is none.
Nothing here uses the network: "download" tests serve file:// URLs.
"""

from __future__ import annotations

import gzip
import hashlib
import heapq
import io
import lzma
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import unittest
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DATASETS = REPO / "datasets"
FETCH = DATASETS / "fetch.py"
MANIFEST = DATASETS / "manifest.tsv"
TINY = DATASETS / "tiny"
COLUMNS = ["name", "file", "url", "bytes", "sha256", "format", "vertices", "arcs", "weighted",
           "notes"]
INF = None  # an unreachable vertex in the parsed expectations
MAX_WEIGHT = 2**32 - 1
EXPECT = re.compile(r"^c expect source=(\d+) dist=(.*)$")

MIRROR: Path | None = None  # set in main()


def find_mirror(cli_value: str | None) -> Path | None:
    if cli_value is not None and not Path(cli_value).is_dir():
        sys.exit(f"test_fetch.py: --mirror {cli_value}: no such directory")
    candidates = [cli_value, os.environ.get("SSSP_DATA_MIRROR"),
                  str(REPO.parent / "shared" / "datasets")]
    for candidate in candidates:
        if candidate:
            path = Path(candidate)
            return path if path.is_dir() else None
    return None


def load_fetch_module():
    sys.dont_write_bytecode = True  # no __pycache__ inside datasets/
    from datasets import fetch
    return fetch


def run_fetch(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    full_env = dict(os.environ)
    full_env.pop("SSSP_DATA_DIR", None)
    if env:
        full_env.update(env)
    return subprocess.run([sys.executable, str(FETCH), *args], capture_output=True, text=True,
                          env=full_env, timeout=300, check=False)


def sha256_of(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def manifest_rows() -> list[dict]:
    lines = MANIFEST.read_text(encoding="utf-8").splitlines()
    return [dict(zip(COLUMNS, line.split("\t"))) for line in lines[1:] if line.strip()]


# --------------------------------------------------------------------------- tiny graphs

def parse_dimacs(path: Path):
    """(n, m, arcs, expectations, comments); raises AssertionError on bad syntax."""
    n = m = None
    arcs, expectations, comments = [], [], []
    for number, line in enumerate(path.read_text(encoding="ascii").splitlines(), start=1):
        fields = line.split()
        where = f"{path.name}:{number}"
        if not fields:
            continue
        if fields[0] == "c":
            comments.append(line)
            match = EXPECT.match(line.rstrip())
            if line.startswith("c expect"):
                assert match, f"{where}: malformed expect line: {line!r}"
                values = [INF if v == "inf" else int(v) for v in match.group(2).split()]
                expectations.append((int(match.group(1)), values, where))
        elif fields[0] == "p":
            assert n is None, f"{where}: second problem line"
            assert len(fields) == 4 and fields[1] == "sp", f"{where}: want 'p sp N M'"
            n, m = int(fields[2]), int(fields[3])
        elif fields[0] == "a":
            assert n is not None, f"{where}: arc before the problem line"
            assert len(fields) == 4, f"{where}: want 'a u v w'"
            u, v, w = (int(x) for x in fields[1:])
            assert 1 <= u <= n and 1 <= v <= n, f"{where}: vertex id out of 1..{n}"
            assert 0 <= w <= MAX_WEIGHT, f"{where}: weight {w} out of 0..2^32-1"
            arcs.append((u, v, w))
        else:
            raise AssertionError(f"{where}: unknown line type {fields[0]!r}")
    assert n is not None, f"{path.name}: no 'p sp N M' line"
    return n, m, arcs, expectations, comments


def dijkstra(n: int, arcs, source: int):
    """Distances from 1-based `source` as a 1-based-ordered list, None = unreachable."""
    adjacency = [[] for _ in range(n + 1)]
    for u, v, w in arcs:
        adjacency[u].append((v, w))
    dist = [None] * (n + 1)
    dist[source] = 0
    heap = [(0, source)]
    done = [False] * (n + 1)
    while heap:
        d, u = heapq.heappop(heap)
        if done[u]:
            continue
        done[u] = True
        for v, w in adjacency[u]:
            if dist[v] is None or d + w < dist[v]:
                dist[v] = d + w
                heapq.heappush(heap, (d + w, v))
    return dist[1:]


class TinyGraphTests(unittest.TestCase):
    def graphs(self) -> list[Path]:
        return sorted(TINY.glob("*.gr"))

    def test_count_and_names(self):
        graphs = self.graphs()
        self.assertGreaterEqual(len(graphs), 6)
        self.assertLessEqual(len(graphs), 10)
        for path in graphs:
            self.assertRegex(path.name, r"^[a-z0-9]+(_[a-z0-9]+)*\.gr$")

    def test_header_counts_match_arcs(self):
        for path in self.graphs():
            with self.subTest(graph=path.name):
                n, m, arcs, _, _ = parse_dimacs(path)
                self.assertGreaterEqual(n, 1)
                self.assertEqual(len(arcs), m, f"{path.name}: header says {m} arcs, "
                                               f"file has {len(arcs)}")

    def test_every_graph_cites_origin_and_has_expectations(self):
        for path in self.graphs():
            with self.subTest(graph=path.name):
                n, _, _, expectations, comments = parse_dimacs(path)
                self.assertTrue(any(c.startswith("c Origin:") for c in comments),
                                f"{path.name}: no 'c Origin:' line")
                self.assertTrue(expectations, f"{path.name}: no 'c expect' line")
                for source, values, where in expectations:
                    self.assertTrue(1 <= source <= n, f"{where}: source out of range")
                    self.assertEqual(len(values), n, f"{where}: {len(values)} distances, N={n}")
                    self.assertEqual(values[source - 1], 0, f"{where}: source distance != 0")

    def test_expected_answers_match_dijkstra(self):
        for path in self.graphs():
            n, _, arcs, expectations, _ = parse_dimacs(path)
            for source, values, where in expectations:
                with self.subTest(graph=path.name, source=source):
                    self.assertEqual(dijkstra(n, arcs, source), values,
                                     f"{where}: the hand-checked answer disagrees with Dijkstra")

    def test_clrs_textbook_answer(self):
        _, _, _, expectations, _ = parse_dimacs(TINY / "clrs_dijkstra.gr")
        self.assertIn((1, [0, 8, 9, 5, 7]), [(s, v) for s, v, _ in expectations])


# --------------------------------------------------------------------------- manifest

class ManifestTests(unittest.TestCase):
    def test_header_and_columns(self):
        lines = MANIFEST.read_text(encoding="utf-8").splitlines()
        self.assertEqual(lines[0].split("\t"), COLUMNS)
        for number, line in enumerate(lines[1:], start=2):
            with self.subTest(line=number):
                self.assertEqual(len(line.split("\t")), len(COLUMNS), f"line {number}")

    def test_field_values(self):
        names, files = set(), set()
        for row in manifest_rows():
            with self.subTest(name=row["name"]):
                self.assertRegex(row["name"], r"^[a-z0-9_]+$")
                self.assertNotIn(row["name"], names)
                self.assertNotIn(row["file"], files)
                names.add(row["name"])
                files.add(row["file"])
                self.assertTrue(row["file"].endswith(".gz"))
                self.assertRegex(row["url"], r"^https?://\S+$")
                self.assertRegex(row["bytes"], r"^(\d+|-)$")
                self.assertRegex(row["sha256"], r"^([0-9a-f]{64}|-)$")
                self.assertIn(row["format"], {"dimacs", "pace", "snap", "mtx"})
                self.assertRegex(row["vertices"], r"^\d+$")
                self.assertRegex(row["arcs"], r"^\d+$")
                self.assertIn(row["weighted"], {"yes", "no"})
                self.assertTrue(row["notes"].strip())

    def test_fetch_module_parses_manifest(self):
        fetch = load_fetch_module()
        entries = fetch.read_manifest(MANIFEST)
        self.assertEqual(len(entries), len(manifest_rows()))
        unverifiable = [e.name for e in entries if not e.verifiable]
        self.assertTrue(all(e.sha256 is None for e in entries if e.name in unverifiable))

    def test_mirror_files_are_all_listed_with_their_checksums(self):
        if MIRROR is None:
            self.skipTest("no mirror (use --mirror DIR or SSSP_DATA_MIRROR)")
        fetch = load_fetch_module()
        entries = {entry.file: entry for entry in fetch.read_manifest(MANIFEST)}
        for path in sorted(MIRROR.glob("*.gz")):
            with self.subTest(file=path.name):
                self.assertIn(path.name, entries, "a mirror file the manifest does not list")
                verdict, detail = fetch.verify(path, entries[path.name])
                self.assertEqual(verdict, "ok", detail)

    def test_no_real_graphs_in_the_repository(self):
        for path in DATASETS.rglob("*"):
            if "downloads" in path.relative_to(DATASETS).parts or not path.is_file():
                continue
            with self.subTest(file=str(path.relative_to(REPO))):
                self.assertFalse(path.name.endswith((".gz", ".xz", ".bz2", ".zip", ".mtx")))
                self.assertLess(path.stat().st_size, 256 * 1024)


# --------------------------------------------------------------------------- fetch tool

class FetchToolTests(unittest.TestCase):
    def setUp(self):
        self.tmp = Path(tempfile.mkdtemp(prefix="sssp-fetch-test-"))
        self.dest = self.tmp / "dest"

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def require_mirror(self, file: str) -> Path:
        if MIRROR is None:
            self.skipTest("no mirror (use --mirror DIR or SSSP_DATA_MIRROR)")
        path = MIRROR / file
        if not path.is_file():
            self.skipTest(f"{path} is not in the mirror")
        return path

    def dest_files(self) -> list[str]:
        return sorted(p.name for p in self.dest.iterdir()) if self.dest.exists() else []

    def test_help(self):
        result = run_fetch("--help")
        self.assertEqual(result.returncode, 0)
        self.assertIn("--allow-unverified", result.stdout)

    def test_mirror_fetch_verifies_and_second_fetch_is_a_no_op(self):
        source = self.require_mirror("wiki-Vote.txt.gz")
        first = run_fetch("--dest", str(self.dest), "--mirror", str(MIRROR), "wiki_vote")
        self.assertEqual(first.returncode, 0, first.stderr)
        target = self.dest / "wiki-Vote.txt.gz"
        self.assertTrue(target.is_file())
        self.assertEqual(sha256_of(target), sha256_of(source))
        self.assertIn("verified", first.stdout)
        self.assertEqual(self.dest_files(), ["wiki-Vote.txt.gz"])  # no temporary files
        before = target.stat()
        second = run_fetch("--dest", str(self.dest), "--mirror", str(MIRROR), "wiki-Vote.txt.gz")
        self.assertEqual(second.returncode, 0, second.stderr)
        self.assertIn("already present", second.stdout)
        after = target.stat()
        self.assertEqual((before.st_ino, before.st_mtime_ns), (after.st_ino, after.st_mtime_ns))

    def test_corrupted_mirror_copy_is_rejected_and_nothing_is_left(self):
        source = self.require_mirror("wiki-Vote.txt.gz")
        bad_mirror = self.tmp / "bad-mirror"
        bad_mirror.mkdir()
        data = bytearray(source.read_bytes())
        data[len(data) // 2] ^= 0x5A
        (bad_mirror / source.name).write_bytes(bytes(data))
        result = run_fetch("--dest", str(self.dest), "--mirror", str(bad_mirror), "wiki_vote")
        self.assertNotEqual(result.returncode, 0)
        self.assertIn("mismatch", result.stderr)
        self.assertEqual(self.dest_files(), [])

    def test_truncated_mirror_copy_is_rejected(self):
        source = self.require_mirror("wiki-Vote.txt.gz")
        bad_mirror = self.tmp / "bad-mirror"
        bad_mirror.mkdir()
        (bad_mirror / source.name).write_bytes(source.read_bytes()[:1000])
        result = run_fetch("--dest", str(self.dest), "--mirror", str(bad_mirror), "wiki_vote")
        self.assertNotEqual(result.returncode, 0)
        self.assertEqual(self.dest_files(), [])

    def test_file_missing_from_mirror_is_an_error(self):
        empty = self.tmp / "empty-mirror"
        empty.mkdir()
        result = run_fetch("--dest", str(self.dest), "--mirror", str(empty), "wiki_vote")
        self.assertNotEqual(result.returncode, 0)
        self.assertIn("not in the mirror", result.stderr)
        self.assertEqual(self.dest_files(), [])

    def test_unknown_name_is_rejected(self):
        result = run_fetch("--dest", str(self.dest), "no_such_graph")
        self.assertNotEqual(result.returncode, 0)
        self.assertIn("no_such_graph", result.stderr)
        self.assertEqual(self.dest_files(), [])

    def test_unverifiable_entry_is_refused_without_the_flag(self):
        result = run_fetch("--dest", str(self.dest), "road_bay_d")
        self.assertNotEqual(result.returncode, 0)
        self.assertIn("--allow-unverified", result.stderr)
        self.assertEqual(self.dest_files(), [])

    def test_list(self):
        result = run_fetch("--list", env={"SSSP_DATA_DIR": str(self.dest)})
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn(f"destination: {self.dest}", result.stdout)
        for row in manifest_rows():
            self.assertIn(row["name"], result.stdout)
        self.assertIn("absent", result.stdout)
        self.assertNotIn("present", result.stdout)

    def test_list_shows_present_after_fetch(self):
        self.require_mirror("facebook_combined.txt.gz")
        fetched = run_fetch("--dest", str(self.dest), "--mirror", str(MIRROR), "facebook_combined")
        self.assertEqual(fetched.returncode, 0, fetched.stderr)
        result = run_fetch("--dest", str(self.dest), "--list", "facebook_combined")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertRegex(result.stdout, r"facebook_combined\s.*\spresent")

    def test_download_conversions_over_file_urls(self):
        """The network path, offline: .xz, tarball member, plain text, re-gzipped .gz."""
        text = b"p tw 3 2\n1 2\n2 3\n"
        sha = hashlib.sha256(text).hexdigest()
        served = self.tmp / "served"
        served.mkdir()
        (served / "g.gr.xz").write_bytes(lzma.compress(text))
        with tarfile.open(served / "g.tar.gz", "w:gz") as tar:
            info = tarfile.TarInfo("g/g.mtx")
            info.size = len(text)
            tar.addfile(info, io.BytesIO(text))
        (served / "g.gr").write_bytes(text)
        (served / "g.txt.gz").write_bytes(gzip.compress(text, compresslevel=1))
        (served / "bad.gr").write_bytes(text + b"3 1\n")
        notes = f"test text_bytes={len(text)} text_sha256={sha}"
        rows = [
            ("xz", "a.gr.gz", f"file://{served}/g.gr.xz"),
            ("tar", "b.mtx.gz", f"file://{served}/g.tar.gz#g/g.mtx"),
            ("plain", "c.gr.gz", f"file://{served}/g.gr"),
            ("regz", "d.txt.gz", f"file://{served}/g.txt.gz"),
            ("bad", "e.gr.gz", f"file://{served}/bad.gr"),
            ("gone", "f.gr.gz", f"file://{served}/does-not-exist.gr"),
        ]
        manifest = self.tmp / "manifest.tsv"
        manifest.write_text("\t".join(COLUMNS) + "\n" + "".join(
            f"{name}\t{file}\t{url}\t-\t-\tpace\t3\t4\tno\t{notes}\n" for name, file, url in rows))
        good = run_fetch("--manifest", str(manifest), "--dest", str(self.dest),
                         "xz", "tar", "plain", "regz")
        self.assertEqual(good.returncode, 0, good.stdout + good.stderr)
        for _, file, _ in rows[:4]:
            self.assertEqual(gzip.decompress((self.dest / file).read_bytes()), text, file)
        again = run_fetch("--manifest", str(manifest), "--dest", str(self.dest), "xz", "tar")
        self.assertEqual(again.returncode, 0)
        self.assertEqual(again.stdout.count("already present"), 2)
        for name in ("bad", "gone"):
            with self.subTest(name=name):
                result = run_fetch("--manifest", str(manifest), "--dest", str(self.dest), name)
                self.assertNotEqual(result.returncode, 0)
        self.assertEqual(self.dest_files(), ["a.gr.gz", "b.mtx.gz", "c.gr.gz", "d.txt.gz"])

    def test_all_from_mirror(self):
        if MIRROR is None:
            self.skipTest("no mirror (use --mirror DIR or SSSP_DATA_MIRROR)")
        result = run_fetch("--dest", str(self.dest), "--mirror", str(MIRROR), "--all")
        self.assertEqual(result.returncode, 0, result.stderr)
        in_mirror = sorted(p.name for p in MIRROR.glob("*.gz")
                           if p.name in {r["file"] for r in manifest_rows()})
        self.assertEqual(self.dest_files(), in_mirror)


def main() -> None:
    global MIRROR
    argv = list(sys.argv)
    cli_mirror = None
    if "--mirror" in argv:
        index = argv.index("--mirror")
        if index + 1 >= len(argv):
            sys.exit("test_fetch.py: --mirror needs a directory")
        cli_mirror = argv[index + 1]
        del argv[index:index + 2]
    MIRROR = find_mirror(cli_mirror)
    print(f"mirror: {MIRROR if MIRROR else 'none (mirror tests will be skipped)'}",
          file=sys.stderr)
    unittest.main(argv=argv)


if __name__ == "__main__":
    main()
