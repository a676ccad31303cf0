"""Whether an experiment's files are the ones its manifest recorded.

Every finished shard's manifest entry (``_manifest/<shard>.json``) keeps the
size and SHA-256 of the bytes each of its Parquet files was written with:
its three tables and its count files (``dataset.storage.recorded_files``).
Two checks read them back:

- ``check_shards`` is what every reader runs before it counts anything
  (``cardlab report``, ``sql``, ``catalog``, ``replay``, the dashboard: through
  ``analytics.catalog``) and what ``cardlab run --resume`` runs before it
  replays damaged shards. It returns the finished-shard files that are
  missing, unreadable, of another size or of another SHA-256.
- ``verify_experiment`` (``cardlab verify``) re-hashes every finished-shard
  file and also lists the files that do not belong: leftovers of unfinished
  shards, temporary files of interrupted writes, anything cardlab does not
  write.

**When a file is re-hashed.** Hashing is the cost: SHA-256 reads every byte
(about 1.1 GB for 10,000,000 Divvy games; README, "Failures"). So a reader
re-hashes a file only when it cannot be sure the file is unchanged since it
last matched its manifest entry. That is decided by the file's *identity*,
kept in ``_analytics/verified.json`` beside the results (and in memory, for a
long-lived dashboard) once the file's hash matched:

- locally: size, modification time, **change time**, inode and device. A
  write to the file, a rename onto it or a restored modification time
  (``touch -r``, ``os.utime``) all set the change time to *now*, and no
  system call sets it back; so the flipped bytes of issue 14, with size and
  modification time kept, change the identity and the file is hashed again;
- in an object store: size and modification time, which is the time the
  store received the object (a client cannot set it); a rewrite is a new
  PUT, hence a new time.

A file whose identity time is less than ``RACY_SECONDS`` old when it is
hashed is not remembered (timestamps have a granularity: a second write in
the same tick would keep the identity), so it is hashed again next time.
What the identity cannot see is damage that bypasses the file system: bits
flipped on the disk or by the storage service itself. ``cardlab verify``,
which trusts no identity and re-hashes everything, catches those;
``cardlab run --resume`` re-hashes everything too.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
import time
from collections.abc import Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dataset.location import ObjectPath, ResultsPath, is_remote
from dataset.storage import (
    COUNTS_FOLDER,
    LOCK_FILE,
    MANIFEST_FOLDER,
    RUN_FILE,
    SPEC_FILE,
    finished_shards,
    recorded_files,
    write_bytes_atomically,
)

TABLE_FOLDERS = ("games", "players", "cards")
SHARD_FOLDERS = (*TABLE_FOLDERS, COUNTS_FOLDER)
"""The folders holding shard files: the tables' and the counts'."""
CACHE_FILE = "_analytics/verified.json"
"""Where the identities of files whose hash matched are remembered (relative to the experiment folder)."""
CACHE_FORMAT = 1
RACY_SECONDS = 2.0
"""A file changed less than this long before it was hashed is not remembered as verified."""
EXPECTED_TOP_LEVEL = {SPEC_FILE, RUN_FILE, LOCK_FILE, "catalog.duckdb", "catalog.duckdb.wal"}
"""Files cardlab writes directly in an experiment folder (``cardlab catalog EXPERIMENT`` writes the catalog)."""
HASH_THREADS_LOCAL = 4
HASH_THREADS_REMOTE = 16
"""Files hashed at once: hashlib releases the GIL, and object-store reads are network round trips."""


@dataclass(frozen=True)
class StoredFile:
    """A file as the file system or object store lists it."""

    path: ResultsPath
    size: int
    identity: tuple[int, ...]
    """Changes whenever the content may have (see the module docstring)."""
    changed_ns: int
    """When the content last changed at the latest: change time locally, modification time in an object store."""


@dataclass(frozen=True)
class Finding:
    """One file that is not as it should be."""

    kind: str
    """``damaged`` (other size or SHA-256, unreadable), ``missing`` or ``unexpected``."""
    path: ResultsPath
    detail: str
    shard: str | None = None

    def line(self) -> str:
        """``<path>: <detail>``."""
        return f"{self.path}: {self.detail}"


@dataclass
class Verification:
    """What ``verify_experiment`` found."""

    folder: ResultsPath
    shards: int
    files_checked: int
    bytes_hashed: int
    seconds: float
    findings: list[Finding] = field(default_factory=list)
    unverifiable: list[str] = field(default_factory=list)
    """Shards whose manifest entry records no checksums (written before cardlab kept them)."""
    writer: dict[str, Any] | None = None
    """The live run holding the folder's lock, if any (its unfinished shards are not findings)."""


def _local_identity(stat: os.stat_result) -> tuple[int, ...]:
    """A local file's identity (see the module docstring)."""
    return stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns, stat.st_ino, stat.st_dev


def _stored_local(path: Path, stat: os.stat_result) -> StoredFile:
    return StoredFile(path, stat.st_size, _local_identity(stat), max(stat.st_ctime_ns, stat.st_mtime_ns))


def list_files(folder: ResultsPath) -> dict[str, StoredFile]:
    """Every file under ``folder`` (recursively), by its path as text; empty if there is no such folder.

    Locally one ``os.walk`` with a ``stat`` per file; in an object store one
    recursive listing (a request per thousand objects, not one per file).
    """
    if isinstance(folder, ObjectPath):
        return {str(info.path): StoredFile(info.path, info.size, (info.size, info.mtime_ns), info.mtime_ns)
                for info in _object_listing(folder)}
    found = {}
    for directory, _subfolders, names in os.walk(folder):
        for name in names:
            path = Path(directory) / name
            try:
                found[str(path)] = _stored_local(path, path.stat())
            except FileNotFoundError:
                continue  # a temporary file renamed away meanwhile
    return found


@dataclass(frozen=True)
class _ObjectInfo:
    path: ObjectPath
    size: int
    mtime_ns: int


def _object_listing(folder: ObjectPath) -> list[_ObjectInfo]:
    import pyarrow.fs as pafs

    selector = pafs.FileSelector(folder.key, allow_not_found=True, recursive=True)
    return [_ObjectInfo(ObjectPath(folder.scheme, info.path, folder.filesystem), int(info.size or 0),
                        int(info.mtime_ns or 0))
            for info in folder.filesystem.get_file_info(selector) if info.type == pafs.FileType.File]


def sha256_of(path: ResultsPath) -> str:
    """The SHA-256 of a stored file's bytes, read in blocks."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _hash_or_error(path: ResultsPath) -> str | OSError:
    try:
        return sha256_of(path)
    except OSError as error:
        return error


def _hash_all(paths: list[ResultsPath]) -> list[str | OSError]:
    if len(paths) <= 1:
        return [_hash_or_error(path) for path in paths]
    threads = HASH_THREADS_REMOTE if any(is_remote(path) for path in paths) else HASH_THREADS_LOCAL
    with ThreadPoolExecutor(max_workers=min(threads, len(paths))) as pool:
        return list(pool.map(_hash_or_error, paths))


# Identities verified by this process, by experiment folder: a dashboard
# re-opens the same results often, and its results folder may be read-only.
_remembered: dict[str, dict[str, list[Any]]] = {}
_remembered_lock = threading.Lock()


def _load_cache(folder: ResultsPath) -> dict[str, list[Any]]:
    entries: dict[str, list[Any]] = {}
    try:
        data = json.loads((folder / CACHE_FILE).read_bytes())
        if isinstance(data, dict) and data.get("format") == CACHE_FORMAT and isinstance(data.get("files"), dict):
            entries.update(data["files"])
    except (OSError, ValueError):
        pass  # no cache yet, or an unreadable one: everything is hashed
    with _remembered_lock:
        entries.update(_remembered.get(str(folder), {}))
    return entries


def _save_cache(folder: ResultsPath, entries: dict[str, list[Any]]) -> None:
    with _remembered_lock:
        _remembered[str(folder)] = dict(entries)
    try:
        data = json.dumps({"format": CACHE_FORMAT, "files": entries}, sort_keys=True).encode()
        write_bytes_atomically(data, folder / CACHE_FILE)
    except OSError:
        pass  # a read-only results folder: the in-memory copy still spares this process


def finished_files_identity(folder: ResultsPath) -> str:
    """A digest of the identities (``StoredFile.identity``: size, modification and change
    time, inode, device; in an object store size and modification time) of the manifest
    entries of ``folder`` and of every file of the shards they mark finished. It changes when
    any of them is rewritten, replaced, removed or added, size and modification time kept or
    not (the change time cannot be set back), so a long-lived reader that keys what it has
    read by it reads (and checks, ``check_shards``) again. One listing and a ``stat`` per
    file, no content read: a few milliseconds for thousands of files. The files of shards
    still being written are left out, so that a run in progress changes it once per shard."""
    if isinstance(folder, ObjectPath):
        files = {_relative(folder, stored.path): stored.identity
                 for name in (MANIFEST_FOLDER, *SHARD_FOLDERS) for stored in list_files(folder / name).values()}
    else:
        files = _local_identities(folder)
    finished = {name.removeprefix(f"{MANIFEST_FOLDER}/").removesuffix(".json") for name in files
                if name.startswith(f"{MANIFEST_FOLDER}/") and name.endswith(".json")
                and not name.startswith(f"{MANIFEST_FOLDER}/.")}
    digest = hashlib.blake2b(digest_size=16)
    for name in sorted(files):
        base = name.rsplit("/", 1)[-1]
        shard = base[len("part-"):-len(".parquet")] if base.startswith("part-") and base.endswith(".parquet") else None
        if shard in finished or name.startswith(f"{MANIFEST_FOLDER}/"):
            digest.update(f"{name}\0{files[name]}\n".encode())
    return digest.hexdigest()


def _local_identities(folder: Path) -> dict[str, tuple[int, ...]]:
    """The identity of every file under ``folder``'s manifest and shard folders, by path relative
    to ``folder`` (``os.scandir``: no object per file beyond its ``stat``)."""
    found: dict[str, tuple[int, ...]] = {}
    pending = [name for name in (MANIFEST_FOLDER, *SHARD_FOLDERS)]
    while pending:
        relative = pending.pop()
        try:
            entries = os.scandir(folder / relative)
        except (FileNotFoundError, NotADirectoryError):
            continue
        with entries:
            for entry in entries:
                inner = f"{relative}/{entry.name}"
                try:
                    if entry.is_dir(follow_symlinks=False):
                        pending.append(inner)
                        continue
                    found[inner] = _local_identity(entry.stat(follow_symlinks=False))
                except FileNotFoundError:
                    continue  # a temporary file renamed away meanwhile
    return found


def _relative(folder: ResultsPath, path: ResultsPath) -> str:
    return str(path)[len(str(folder)):].lstrip("/")


def _expected_files(folder: ResultsPath, manifest: Mapping[str, Mapping[str, Any]]
                    ) -> list[tuple[str, ResultsPath, Mapping[str, Any]]]:
    """(shard, path, {"bytes", "sha256"}) of every file the manifest records."""
    return [(shard_id, path, recorded) for shard_id, entry in manifest.items()
            for path, recorded in recorded_files(folder, shard_id, entry)]


def _listed_shard_files(folder: ResultsPath) -> dict[str, StoredFile]:
    listed: dict[str, StoredFile] = {}
    for shard_folder in SHARD_FOLDERS:
        listed.update(list_files(folder / shard_folder))
    return listed


def check_shards(folder: ResultsPath, manifest: Mapping[str, Mapping[str, Any]], *, trust_identity: bool = True,
                 listed: Mapping[str, StoredFile] | None = None) -> tuple[list[Finding], int]:
    """The finished-shard files of ``folder`` that do not match their manifest entry, and the bytes hashed.

    A file is ``missing``, or ``damaged``: unreadable, of another size, or
    of another SHA-256. With ``trust_identity`` (the readers), a file whose
    identity is remembered from an earlier match is not hashed again (module
    docstring); without it (``--resume``, ``cardlab verify``) every file is.
    Files that match are remembered either way. ``listed`` is
    ``list_files`` of the shard folders (``SHARD_FOLDERS``), listed here when not given.
    """
    if listed is None:
        listed = _listed_shard_files(folder)
    cache = _load_cache(folder)
    findings: list[Finding] = []
    to_hash: list[tuple[str, ResultsPath, Mapping[str, Any], StoredFile]] = []
    for shard_id, path, recorded in _expected_files(folder, manifest):
        stored = listed.get(str(path))
        if stored is None:
            findings.append(Finding("missing", path, "missing, though the manifest marks its shard finished",
                                    shard_id))
        elif stored.size != recorded.get("bytes"):
            findings.append(Finding("damaged", path, f"{stored.size} bytes, the manifest says {recorded.get('bytes')}",
                                    shard_id))
        elif not (trust_identity and cache.get(_relative(folder, path)) == [recorded.get("sha256"),
                                                                              *stored.identity]):
            to_hash.append((shard_id, path, recorded, stored))
    now_ns = time.time_ns()
    remembered = dict(cache)
    for (shard_id, path, recorded, stored), digest in zip(
            to_hash, _hash_all([item[1] for item in to_hash]), strict=True):
        key = _relative(folder, path)
        if isinstance(digest, OSError) or digest != recorded.get("sha256"):
            detail = (f"unreadable ({digest.strerror or digest})" if isinstance(digest, OSError)
                      else "checksum differs from the manifest (damaged)")
            findings.append(Finding("damaged", path, detail, shard_id))
            remembered.pop(key, None)
        elif now_ns - stored.changed_ns >= RACY_SECONDS * 1e9:
            remembered[key] = [digest, *stored.identity]
    if remembered != cache:
        _save_cache(folder, remembered)
    return findings, sum(item[3].size for item in to_hash)


TEMPORARY_DETAIL = "a temporary file of an interrupted write (`cardlab run --resume` removes it)"
UNFINISHED_DETAIL = "not in the manifest: a shard that never finished (`cardlab run --resume` plays it again)"


def remove_half_written(folder: ResultsPath) -> list[Finding]:
    """Remove what an ended run left half-written in ``folder``: temporary files of writes
    that did not finish, and the files of shards without a manifest entry (``verify_experiment``
    would list both as unexpected). Files cardlab does not write are left alone. Returns
    those that could not be removed (a folder turned read-only), each with why."""
    manifest = finished_shards(folder)
    expected = {str(path) for _shard, path, _recorded in _expected_files(folder, manifest)}
    stuck = []
    for finding in _unexpected(folder, list_files(folder).values(), expected, set()):
        if finding.detail not in (TEMPORARY_DETAIL, UNFINISHED_DETAIL):
            continue
        try:
            finding.path.unlink(missing_ok=True)
        except OSError as error:
            stuck.append(Finding("unexpected", finding.path, f"{finding.detail}; not removed ({error.strerror})",
                                 finding.shard))
    return stuck


def _unexpected(folder: ResultsPath, everything: Iterable[StoredFile], expected: set[str],
                unfinished: set[str]) -> list[Finding]:
    """Files cardlab would not have left (those of ``unfinished`` shards, which a live run is writing, aside)."""
    unexpected = []
    for stored in everything:
        relative = _relative(folder, stored.path)
        parts = relative.split("/")
        if str(stored.path) in expected or relative in EXPECTED_TOP_LEVEL or parts[0] == "_analytics":
            continue
        name = parts[-1]
        shard = name[len("part-"):-len(".parquet")] if name.startswith("part-") and name.endswith(".parquet") else None
        if parts[0] == MANIFEST_FOLDER and len(parts) == 2 and name.endswith(".json") and not name.startswith("."):
            continue  # a manifest entry (read_manifest has read it)
        if name.startswith(".") and name.endswith(".tmp"):
            detail = TEMPORARY_DETAIL
        elif shard is not None and ((parts[0] in TABLE_FOLDERS and len(parts) == 3)
                                    or (parts[0] == COUNTS_FOLDER and len(parts) == 4)):
            if shard in unfinished:
                continue
            detail = UNFINISHED_DETAIL
        else:
            detail = "not a file cardlab writes here (cardlab never reads it)"
        unexpected.append(Finding("unexpected", stored.path, detail, shard))
    return unexpected


def verify_experiment(folder: ResultsPath, manifest: Mapping[str, Mapping[str, Any]],
                      writer: dict[str, Any] | None = None) -> Verification:
    """Re-hash every finished-shard file of ``folder`` and list what does not belong.

    ``manifest`` is the experiment's manifest (``analytics.catalog.read_manifest``);
    ``writer`` the live run holding the folder's lock, if any: the files of
    the shards it has not finished yet are then not findings.
    """
    started = time.perf_counter()
    everything = list_files(folder)
    shard_files = {text: stored for text, stored in everything.items()
                   if _relative(folder, stored.path).split("/")[0] in SHARD_FOLDERS}
    damaged, hashed = check_shards(folder, manifest, trust_identity=False, listed=shard_files)
    expected = {str(path) for _shard, path, _recorded in _expected_files(folder, manifest)}
    unfinished = set() if writer is None else {
        _relative(folder, stored.path).rsplit("/", 1)[-1][len("part-"):-len(".parquet")]
        for stored in shard_files.values()} - set(manifest)
    unexpected = _unexpected(folder, everything.values(), expected, unfinished)
    findings = sorted(damaged, key=lambda finding: str(finding.path)) + sorted(
        unexpected, key=lambda finding: str(finding.path))
    return Verification(
        folder=folder, shards=len(manifest), files_checked=len(expected), bytes_hashed=hashed,
        seconds=time.perf_counter() - started, findings=findings,
        unverifiable=sorted(shard for shard, entry in manifest.items() if not isinstance(entry.get("files"), Mapping)),
        writer=writer)


def _recorded_run(folder: ResultsPath) -> tuple[str, int | None]:
    """(spec file, ``--games N``) of the run that wrote ``folder``, as its ``run.json`` recorded
    them: (``SPEC``, None) when unknown."""
    try:
        run = json.loads((folder / RUN_FILE).read_bytes())
        if isinstance(run.get("spec"), str) and run["spec"]:
            return run["spec"], run.get("games") if isinstance(run.get("games"), int) else None
    except (OSError, ValueError, AttributeError):
        pass
    return "SPEC", None


def run_command(folder: ResultsPath, *, games: int | None = None, resume: bool = False) -> str:
    """The ``cardlab run SPEC [--games N] [--resume]`` of the experiment in ``folder``: with the
    spec file its run recorded in ``run.json`` (``SPEC`` when unknown), and ``--results``
    unless the results are in ``./results``."""
    spec, _ = _recorded_run(folder)
    results = folder.parent
    default = isinstance(results, Path) and results.absolute() == Path("results").absolute()
    return (f"cardlab run {spec}" + ("" if games is None else f" --games {games}") + (" --resume" if resume else "")
            + ("" if default else f" --results {results}"))


def repair_command(folder: ResultsPath) -> str:
    """The ``cardlab run ... --resume`` that repairs ``folder``: with the spec file and the
    ``--games N`` its run recorded in ``run.json`` (``SPEC`` when unknown), and ``--results``
    unless the results are in ``./results``."""
    spec, games = _recorded_run(folder)
    return run_command(folder, games=games if spec != "SPEC" else None, resume=True)


def damage_message(folder: ResultsPath, findings: list[Finding]) -> str:
    """One line for readers: the first bad file, its shard, how many more, and the repair command."""
    first = findings[0]
    more = "" if len(findings) == 1 else (
        f" (and {len(findings) - 1} more file(s); `cardlab verify {folder}` lists them all)")
    return f"shard {first.shard}: {first.line()}{more}; nothing is read until `{repair_command(folder)}` repairs it"
