#!/usr/bin/env python3
"""Fetch the real graphs listed in datasets/manifest.tsv, and verify them.

The course ships only tiny hand-checked graphs (datasets/tiny). The real road
and social graphs are downloaded by this tool, either from their public sources
or, with --mirror DIR, copied from a local mirror (the way CI gets them, e.g.
--mirror ../shared/datasets). Python 3 standard library only.

Every file is checked before it is kept:

* The file is first written to a hidden temporary file next to its final
  name, then verified, then renamed into place. A failed or interrupted fetch
  never leaves a partial file behind.
* Verified means: its size and SHA-256 equal the manifest's `bytes` and
  `sha256` columns, or, for entries whose `notes` carry
  `text_bytes=N text_sha256=H`, its gzip-decompressed content has that size
  and SHA-256. The second rule exists because some sources serve another
  encoding than the mirror holds (an .xz, a tarball, an uncompressed .gr) or a
  .gz with a different header; the fetch then converts the download to the
  manifest's .gz file and checks the content.
* An entry with neither checksum (`-`) cannot be verified: the tool refuses
  it unless --allow-unverified is given.
* A file already present and verified is skipped, so running twice is cheap.

How the `url` column is read: a URL ending in .xz is unpacked; a URL with a
`#member` fragment is a tarball, and that member is extracted; a URL that
serves uncompressed text is gzipped; a .gz URL is kept as served.

Destination: --dest DIR, else the SSSP_DATA_DIR environment variable, else
<repo>/datasets/downloads (ignored by git). Point CMake at the same folder
with -DSSSP_DATA_DIR=DIR so that the dataset tests find the graphs.

Exit status: 0 on success, 1 if any requested graph failed, 2 on a usage error
(unknown name, unreadable manifest).

Examples:
  datasets/fetch.py --list
  datasets/fetch.py road_ny_pace wiki-Vote.txt.gz
  datasets/fetch.py --mirror ../shared/datasets --all
  datasets/fetch.py --all --dest /scratch/graphs
"""

from __future__ import annotations

import argparse
import dataclasses
import gzip
import hashlib
import lzma
import os
import shutil
import sys
import tarfile
import tempfile
import urllib.error
import urllib.parse
import urllib.request
import zlib
from pathlib import Path
from typing import Callable, Optional

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
DEFAULT_MANIFEST = HERE / "manifest.tsv"
COLUMNS = ["name", "file", "url", "bytes", "sha256", "format", "vertices", "arcs", "weighted",
           "notes"]
CHUNK = 1 << 20
TIMEOUT_S = 60


class ManifestError(Exception):
    """The manifest cannot be read or is malformed."""


class FetchError(Exception):
    """One graph could not be fetched or verified."""


@dataclasses.dataclass
class Entry:
    """One row of manifest.tsv."""

    name: str
    file: str
    url: str
    bytes: Optional[int]
    sha256: Optional[str]
    format: str
    vertices: str
    arcs: str
    weighted: str
    notes: str
    text_bytes: Optional[int] = None
    text_sha256: Optional[str] = None

    @property
    def verifiable(self) -> bool:
        return self.sha256 is not None or self.text_sha256 is not None


def _hex64(text: str, where: str) -> str:
    value = text.lower()
    if len(value) != 64 or any(c not in "0123456789abcdef" for c in value):
        raise ManifestError(f"{where}: '{text}' is not a SHA-256 (64 hex digits) or '-'")
    return value


def _count(text: str, where: str) -> Optional[int]:
    if text == "-":
        return None
    if not text.isdigit():
        raise ManifestError(f"{where}: '{text}' is not a byte count or '-'")
    return int(text)


def read_manifest(path: Path) -> list[Entry]:
    """Parses manifest.tsv; raises ManifestError with file:line on bad rows."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as err:
        raise ManifestError(f"cannot read manifest {path}: {err}") from err
    if not lines or lines[0].split("\t") != COLUMNS:
        raise ManifestError(f"{path}:1: header must be the tab-separated columns: "
                            + " ".join(COLUMNS))
    entries: list[Entry] = []
    seen: set[str] = set()
    for number, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        where = f"{path}:{number}"
        fields = line.split("\t")
        if len(fields) != len(COLUMNS):
            raise ManifestError(f"{where}: {len(fields)} tab-separated fields, expected "
                                f"{len(COLUMNS)}")
        row = dict(zip(COLUMNS, fields))
        sha = None if row["sha256"] == "-" else _hex64(row["sha256"], where)
        entry = Entry(name=row["name"], file=row["file"], url=row["url"],
                      bytes=_count(row["bytes"], where), sha256=sha, format=row["format"],
                      vertices=row["vertices"], arcs=row["arcs"], weighted=row["weighted"],
                      notes=row["notes"])
        for token in row["notes"].split():
            key, sep, value = token.partition("=")
            if not sep:
                continue
            if key == "text_sha256":
                entry.text_sha256 = _hex64(value, where)
            elif key == "text_bytes":
                entry.text_bytes = _count(value, where)
        if not entry.name or "/" in entry.file or not entry.file or entry.file.startswith("."):
            raise ManifestError(f"{where}: bad name or file name")
        for key in (entry.name, entry.file):
            if key in seen:
                raise ManifestError(f"{where}: '{key}' appears twice in the manifest")
            seen.add(key)
        entries.append(entry)
    return entries


def hash_stream(stream) -> tuple[int, str]:
    """Size and SHA-256 of everything read from a binary stream, in chunks."""
    digest = hashlib.sha256()
    size = 0
    while True:
        chunk = stream.read(CHUNK)
        if not chunk:
            break
        size += len(chunk)
        digest.update(chunk)
    return size, digest.hexdigest()


def hash_file(path: Path) -> tuple[int, str]:
    with open(path, "rb") as stream:
        return hash_stream(stream)


def hash_gzip_content(path: Path) -> Optional[tuple[int, str]]:
    """Size and SHA-256 of the decompressed content, or None if not valid gzip."""
    try:
        with gzip.open(path, "rb") as stream:
            return hash_stream(stream)
    except (OSError, EOFError, zlib.error, ValueError):
        return None


def verify(path: Path, entry: Entry) -> tuple[str, str]:
    """Returns (verdict, detail); verdict is 'ok', 'unverifiable' or 'mismatch'."""
    size, sha = hash_file(path)
    if entry.sha256 is not None and sha == entry.sha256 and entry.bytes in (None, size):
        return "ok", f"sha256 {sha[:16]}... matches"
    if entry.text_sha256 is not None:
        content = hash_gzip_content(path)
        if content is not None and content[1] == entry.text_sha256 \
                and entry.text_bytes in (None, content[0]):
            return "ok", f"content sha256 {content[1][:16]}... matches"
    if not entry.verifiable:
        if entry.bytes is not None and size != entry.bytes:
            return "mismatch", f"size {size} bytes, manifest says {entry.bytes}"
        return "unverifiable", "the manifest has no checksum for it"
    expected = []
    if entry.sha256 is not None:
        expected.append(f"size {entry.bytes if entry.bytes is not None else '?'} and sha256 "
                        f"{entry.sha256}")
    if entry.text_sha256 is not None:
        expected.append(f"decompressed sha256 {entry.text_sha256}")
    return "mismatch", (f"got size {size} and sha256 {sha}; expected "
                        + " or ".join(expected))


def _temp_path(dest: Path, entry: Entry, tag: str) -> Path:
    handle, name = tempfile.mkstemp(dir=dest, prefix=f".{entry.file}.", suffix=f".{tag}.part")
    os.close(handle)
    return Path(name)


def _gzip_into(source, target: Path, inner_name: str) -> None:
    with open(target, "wb") as raw:
        with gzip.GzipFile(filename=inner_name, mode="wb", compresslevel=9, fileobj=raw,
                           mtime=0) as out:
            shutil.copyfileobj(source, out, CHUNK)


def _download(url: str, target: Path, log: Callable[[str], None]) -> None:
    log(f"  downloading {url}")
    request = urllib.request.Request(url, headers={"User-Agent": "sssp-course-fetch/1"})
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT_S) as response, \
                open(target, "wb") as out:
            announced = response.headers.get("Content-Length")
            received = 0
            while True:
                chunk = response.read(CHUNK)
                if not chunk:
                    break
                out.write(chunk)
                received += len(chunk)
    except urllib.error.HTTPError as err:
        raise FetchError(f"download of {url} failed: HTTP {err.code} {err.reason}") from err
    except urllib.error.URLError as err:
        raise FetchError(f"download of {url} failed: {err.reason}") from err
    except (OSError, ValueError) as err:  # timeouts, resets, malformed URLs
        raise FetchError(f"download of {url} failed: {err}") from err
    if announced is not None and announced.isdigit() and int(announced) != received:
        raise FetchError(f"download of {url} was cut short: {received} of {announced} bytes")
    log(f"  received {received} bytes")


def _convert(raw: Path, url: str, member: str, final: Path, entry: Entry) -> None:
    """Turns what the URL served into the manifest's file (see the module doc)."""
    path = urllib.parse.urlparse(url).path
    inner = entry.file[:-3] if entry.file.endswith(".gz") else entry.file
    try:
        if member:
            with tarfile.open(raw, "r:*") as tar:
                names = tar.getnames()
                if member not in names:
                    matches = [n for n in names if n.rsplit("/", 1)[-1] == member.rsplit("/", 1)[-1]]
                    if len(matches) != 1:
                        raise FetchError(f"{url}: the tarball has no member '{member}'")
                    member = matches[0]
                stream = tar.extractfile(member)
                if stream is None:
                    raise FetchError(f"{url}: '{member}' is not a regular file")
                with stream:
                    _gzip_into(stream, final, inner)
        elif path.endswith(".xz"):
            with lzma.open(raw, "rb") as stream:
                _gzip_into(stream, final, inner)
        elif path.endswith(".gz") or not entry.file.endswith(".gz"):
            os.replace(raw, final)
        else:
            with open(raw, "rb") as stream:
                _gzip_into(stream, final, inner)
    except (tarfile.TarError, lzma.LZMAError, zlib.error, EOFError) as err:
        raise FetchError(f"{url}: cannot unpack the download: {err}") from err


def fetch_one(entry: Entry, dest: Path, mirror: Optional[Path], allow_unverified: bool,
              log: Callable[[str], None]) -> str:
    """Makes dest/entry.file present and verified; returns a one-line status.

    Raises FetchError on any failure, after removing its temporary files.
    """
    if not entry.verifiable and not allow_unverified:
        raise FetchError(f"{entry.name}: cannot verify {entry.file}: the manifest has no "
                         "sha256 for it. Refusing; pass --allow-unverified to accept it "
                         "unchecked.")
    target = dest / entry.file
    if target.is_file():
        verdict, detail = verify(target, entry)
        if verdict == "ok":
            return f"{entry.name}: {target} already present and verified ({detail}), skipped"
        if verdict == "unverifiable":
            return f"{entry.name}: {target} already present (not verifiable), skipped"
        log(f"{entry.name}: {target} is present but fails verification ({detail}); "
            "fetching it again")

    dest.mkdir(parents=True, exist_ok=True)
    temps: list[Path] = []
    try:
        final = _temp_path(dest, entry, "new")
        temps.append(final)
        if mirror is not None:
            source = mirror / entry.file
            if not source.is_file():
                raise FetchError(f"{entry.name}: {entry.file} is not in the mirror {mirror}")
            log(f"{entry.name}: copying {source}")
            with open(source, "rb") as src, open(final, "wb") as out:
                shutil.copyfileobj(src, out, CHUNK)
        else:
            if entry.url in ("", "-"):
                raise FetchError(f"{entry.name}: the manifest gives no URL for {entry.file}")
            url, _, member = entry.url.partition("#")
            log(f"{entry.name}: fetching {entry.file}")
            raw = _temp_path(dest, entry, "download")
            temps.append(raw)
            _download(url, raw, log)
            _convert(raw, url, member, final, entry)
        verdict, detail = verify(final, entry)
        if verdict == "mismatch":
            raise FetchError(f"{entry.name}: checksum mismatch for {entry.file}: {detail}. "
                             "The bad copy was deleted.")
        os.chmod(final, 0o666 & ~_umask())
        os.replace(final, target)
        temps.remove(final)
        if verdict == "unverifiable":
            return (f"{entry.name}: WARNING: {target} kept UNVERIFIED "
                    "(--allow-unverified; the manifest has no checksum)")
        return f"{entry.name}: {target} fetched and verified ({detail})"
    except OSError as err:
        raise FetchError(f"{entry.name}: {err}") from err
    finally:
        for path in temps:
            try:
                path.unlink()
            except FileNotFoundError:
                pass


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def default_dest() -> Path:
    env = os.environ.get("SSSP_DATA_DIR", "")
    return Path(env) if env else REPO / "datasets" / "downloads"


def resolve(entries: list[Entry], names: list[str]) -> list[Entry]:
    """Entries for names given as manifest name or file; ManifestError lists unknown ones."""
    by_key = {}
    for entry in entries:
        by_key[entry.name] = entry
        by_key[entry.file] = entry
    unknown = [n for n in names if n not in by_key]
    if unknown:
        raise ManifestError("unknown graph name(s): " + ", ".join(unknown)
                            + " (see --list for the names and files in the manifest)")
    chosen: list[Entry] = []
    for name in names:
        if by_key[name] not in chosen:
            chosen.append(by_key[name])
    return chosen


def list_entries(entries: list[Entry], dest: Path, mirror: Optional[Path]) -> None:
    rows = [["name", "file", "bytes", "verified by", "status"]]
    if mirror is not None:
        rows[0].append("in mirror")
    for entry in entries:
        target = dest / entry.file
        if target.is_file():
            verdict, _ = verify(target, entry)
            status = {"ok": "present", "unverifiable": "present (unverifiable)",
                      "mismatch": "present, FAILS VERIFICATION"}[verdict]
        else:
            status = "absent"
        how = ", ".join(kind for kind, value in (("sha256", entry.sha256),
                                                 ("content", entry.text_sha256)) if value)
        row = [entry.name, entry.file, str(entry.bytes) if entry.bytes is not None else "-",
               how or "NONE", status]
        if mirror is not None:
            row.append("yes" if (mirror / entry.file).is_file() else "no")
        rows.append(row)
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    print(f"destination: {dest}")
    for row in rows:
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip())


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="Names may be given as the manifest's name (road_ny_pace) or file "
               "(USA-road-NY.pace.gr.gz).")
    parser.add_argument("names", nargs="*", metavar="NAME", help="graphs to fetch")
    parser.add_argument("--dest", type=Path, default=None,
                        help="where to put the graphs (default: $SSSP_DATA_DIR, else "
                             "<repo>/datasets/downloads)")
    parser.add_argument("--mirror", type=Path, default=None,
                        help="copy from this local mirror directory instead of the network")
    parser.add_argument("--list", action="store_true",
                        help="print the manifest with present/absent status and exit")
    parser.add_argument("--all", action="store_true",
                        help="fetch every entry; entries that cannot be verified, or are not "
                             "in the --mirror, are skipped with a note")
    parser.add_argument("--allow-unverified", action="store_true",
                        help="accept entries whose manifest row has no checksum ('-')")
    parser.add_argument("--manifest", type=Path, default=DEFAULT_MANIFEST,
                        help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    def log(message: str) -> None:
        print(message, flush=True)

    def error(message: str) -> None:
        print(f"fetch.py: error: {message}", file=sys.stderr, flush=True)

    try:
        entries = read_manifest(args.manifest)
        chosen = resolve(entries, args.names)
    except ManifestError as err:
        error(str(err))
        return 2
    dest = args.dest if args.dest is not None else default_dest()
    mirror = args.mirror
    if mirror is not None and not mirror.is_dir():
        error(f"mirror directory {mirror} does not exist")
        return 2

    if args.list:
        list_entries(chosen or entries, dest, mirror)
        return 0
    if args.all:
        chosen = entries
    if not chosen:
        parser.print_usage(sys.stderr)
        error("name at least one graph, or use --all or --list")
        return 2

    named = {entry.name for entry in resolve(entries, args.names)}
    failures = 0
    for entry in chosen:
        if args.all and entry.name not in named:
            if not entry.verifiable and not args.allow_unverified:
                log(f"{entry.name}: skipped (no checksum in the manifest; "
                    "use --allow-unverified)")
                continue
            if mirror is not None and not (mirror / entry.file).is_file() \
                    and not (dest / entry.file).is_file():
                log(f"{entry.name}: skipped ({entry.file} is not in the mirror)")
                continue
        try:
            log(fetch_one(entry, dest, mirror, args.allow_unverified, log))
        except FetchError as err:
            error(str(err))
            failures += 1
        except KeyboardInterrupt:
            error("interrupted; no partial file was kept")
            return 130
    if failures:
        error(f"{failures} of {len(chosen)} graph(s) failed")
        return 1
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:  # e.g. `fetch.py --list | head`
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)
