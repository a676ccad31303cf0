"""An experiment's files: their paths, atomic writes, checksums and the run lock.

A finished shard is its three table files (``table_path``), its count files
(``counts_path``: the count views of its rows, ``workers.counts``) and, written
last, its manifest marker (``manifest_path``), which records every one of those
files with its size and SHA-256 (``recorded_files``).

Every function takes a ``dataset.location.ResultsPath``: a local folder or an
``s3://`` prefix. Locally a file is written under a temporary name beginning
with a dot (which readers' ``*.parquet`` globs skip) and renamed into place;
in an object store one PUT is already atomic. Either way a reader sees a
whole file or none, and the SHA-256 kept in the manifest is computed from the
bytes written.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
import socket
import time
import uuid
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pyarrow as pa

from dataset.location import ObjectPath, ResultsPath, read_many, sorted_glob
from dataset.schemas import encode_parquet

MANIFEST_FOLDER = "_manifest"
COUNTS_FOLDER = "counts"
SPEC_FILE = "spec.json"
RUN_FILE = "run.json"
"""The run's status (running, finished, interrupted...), the spec file it ran and when."""


def table_path(root: ResultsPath, table: str, variant: str, shard_id: str) -> ResultsPath:
    """``<root>/<table>/variant=<variant>/part-<shard>.parquet`` (Hive-style)."""
    return root / table / f"variant={variant}" / f"part-{shard_id}.parquet"


def counts_path(root: ResultsPath, view: str, variant: str, shard_id: str) -> ResultsPath:
    """``<root>/counts/<view>/variant=<variant>/part-<shard>.parquet``: a shard's rows of one count view."""
    return table_path(root / COUNTS_FOLDER, view, variant, shard_id)


def recorded_files(root: ResultsPath, shard_id: str, entry: Mapping[str, Any]
                   ) -> list[tuple[ResultsPath, Mapping[str, Any]]]:
    """Every file a shard's manifest ``entry`` records, with what it records of it
    (``{"bytes", "sha256"}``): the table files, then the count files (an entry
    written before shards counted their rows records none)."""
    variant = str(entry["variant"])
    found: list[tuple[ResultsPath, Mapping[str, Any]]] = []
    files = entry.get("files")
    if isinstance(files, Mapping):
        found.extend((table_path(root, table, variant, shard_id), recorded)
                     for table, recorded in files.items() if isinstance(recorded, Mapping))
    counts = entry.get("counts")
    count_files = counts.get("files") if isinstance(counts, Mapping) else None
    if isinstance(count_files, Mapping):
        found.extend((counts_path(root, view, variant, shard_id), recorded)
                     for view, recorded in count_files.items() if isinstance(recorded, Mapping))
    return found


def manifest_path(root: ResultsPath, shard_id: str) -> ResultsPath:
    """The marker that says a shard's three files are complete."""
    return root / MANIFEST_FOLDER / f"{shard_id}.json"


def _temporary_sibling(path: Path) -> Path:
    return path.with_name(f".{path.name}.{os.getpid()}.tmp")


def write_bytes_atomically(data: bytes, path: ResultsPath) -> None:
    """Write ``data`` to ``path`` so that it appears whole or not at all.

    Locally: a temporary sibling renamed into place. In an object store: one
    PUT, which is atomic already (there is no rename to lean on).
    """
    if isinstance(path, ObjectPath):
        path.write_bytes(data)
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = _temporary_sibling(path)
    try:
        temporary.write_bytes(data)
        os.replace(temporary, path)
    except BaseException:
        # A disk that filled (or turned read-only) mid-write: the partial file goes, and the
        # space it took with it (where the folder still allows removing it).
        with contextlib.suppress(OSError):
            temporary.unlink(missing_ok=True)
        raise


def write_parquet_atomically(table: pa.Table, path: ResultsPath,
                             options: dict[str, Any] | None = None) -> dict[str, Any]:
    """Write ``table`` to ``path`` so that it appears whole or not at all
    (Parquet writer settings: ``dataset.schemas.PARQUET_OPTIONS`` unless ``options``).

    Returns the file's size and SHA-256, computed from the bytes written (the
    manifest keeps them so that a file damaged later is detected).
    """
    data = encode_parquet(table, options)
    write_bytes_atomically(data, path)
    return {"bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}


def write_json_atomically(data: Any, path: ResultsPath) -> None:
    """Write ``data`` as pretty JSON to ``path``, whole or not at all."""
    write_bytes_atomically((json.dumps(data, indent=2, sort_keys=True) + "\n").encode(), path)


def finished_shards(root: ResultsPath,
                    on_unreadable: Callable[[ResultsPath, str], None] | None = None) -> dict[str, dict[str, Any]]:
    """Manifest entries of the shards already complete under ``root``.

    An entry that cannot be read or is not a JSON object (a truncated or
    damaged marker) is left out, so that its shard counts as unfinished and
    is played again; ``on_unreadable(path, reason)`` hears of each.
    """
    folder = root / MANIFEST_FOLDER
    if not folder.is_dir():
        return {}
    paths = [path for path in sorted_glob(folder, "*.json") if not path.name.startswith(".")]
    entries = {}
    for path, content in zip(paths, read_many(paths), strict=True):
        try:
            if isinstance(content, OSError):
                raise content
            entry = json.loads(content)
            if not isinstance(entry, dict) or not isinstance(entry.get("variant"), str):
                raise ValueError("not a manifest entry")
        except (OSError, ValueError) as error:
            if on_unreadable is not None:
                on_unreadable(path, str(error).splitlines()[0] if str(error) else type(error).__name__)
            continue
        entries[path.stem] = entry
    return entries


STORAGE_ERRNOS = {
    errno.ENOSPC: ("no space left on the disk", "free some space"),
    errno.EDQUOT: ("the disk quota is used up", "free some space"),
    errno.EROFS: ("the file system turned read-only", "make it writable again"),
    errno.EACCES: ("permission to write was lost", "give this user write access to it again"),
    errno.EPERM: ("permission to write was lost", "give this user write access to it again"),
    errno.EIO: ("the disk failed to read or write (input/output error)", "check the disk"),
}
"""The errors of a results disk that fails under a run (not a mistake in the run), by errno:
what happened and what to do before ``--resume``."""


def storage_failure(error: BaseException) -> OSError | None:
    """The results disk's failure (an ``OSError`` of ``STORAGE_ERRNOS``) behind ``error``, or None:
    ``error`` itself, the exception a remote task raised (``cause``, as Ray wraps it), or one it
    was raised from."""
    seen: set[int] = set()
    pending: list[BaseException | None] = [error]
    while pending:
        current = pending.pop()
        if current is None or id(current) in seen:
            continue
        seen.add(id(current))
        if isinstance(current, OSError) and current.errno in STORAGE_ERRNOS:
            return current
        cause = getattr(current, "cause", None)
        pending += [cause if isinstance(cause, BaseException) else None, current.__cause__, current.__context__]
    return None


LOCK_FILE = ".lock"
LOCK_SETTLE_SECONDS = 1.0
"""Object stores: how long a new lock is left before it is read back (see ``acquire_lock``)."""


class ExperimentLockedError(RuntimeError):
    """Another live run is writing into the experiment folder."""


def _process_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _read_lock(lock: ResultsPath) -> dict[str, Any] | None:
    try:
        holder = json.loads(lock.read_text())
    except (FileNotFoundError, json.JSONDecodeError):
        return None
    return holder if isinstance(holder, dict) else None


def lock_holder(root: ResultsPath) -> dict[str, Any] | None:
    """The live run holding ``root``'s lock, or None (a dead holder's lock is stale)."""
    holder = _read_lock(root / LOCK_FILE)
    if holder is None:
        return None
    if holder.get("host") == socket.gethostname() and not _process_alive(int(holder.get("pid", 0))):
        return None
    return holder


def lock_left_by_dead_run(root: ResultsPath) -> bool:
    """Whether ``root``'s lock names a run on this host that is no longer alive (it was killed)."""
    holder = _read_lock(root / LOCK_FILE)
    return (holder is not None and holder.get("host") == socket.gethostname()
            and not _process_alive(int(holder.get("pid", 0))))


def locked_message(root: ResultsPath, holder: dict[str, Any]) -> str:
    """The one line that tells a user another run holds ``root``."""
    return (f"{root}: another run (pid {holder.get('pid')} on {holder.get('host')}) is writing these "
            f"results; wait for it to finish, or delete {root / LOCK_FILE} if that run is gone")


def acquire_lock(root: ResultsPath) -> ResultsPath:
    """Mark ``root`` as being written by this process; refuse if a live run holds it.

    Locally the lock is a file created exclusively (``O_EXCL``); one left by
    a run that died on this host is taken over. An object store offers no
    exclusive create through pyarrow, so there the lock is written with a
    fresh run id, left ``LOCK_SETTLE_SECONDS``, and read back: of two runs
    that both found no lock, the one whose id is not read back refuses. Two
    runs can still both win only if each checks, writes and reads back before
    the other's write lands, i.e. if they start within one request's time
    (milliseconds) of each other; the settle time makes it unlikely, not
    impossible. S3's strong read-after-write consistency is assumed.
    """
    lock = root / LOCK_FILE
    mine = {"pid": os.getpid(), "host": socket.gethostname(), "run": uuid.uuid4().hex}
    for _ in range(2):
        holder = lock_holder(root)
        if holder is not None:
            raise ExperimentLockedError(locked_message(root, holder))
        if isinstance(lock, ObjectPath):
            lock.write_text(json.dumps(mine))
            time.sleep(LOCK_SETTLE_SECONDS)
            holder = _read_lock(lock)
            if holder is not None and holder.get("run") == mine["run"]:
                return lock
            if holder is not None:
                raise ExperimentLockedError(locked_message(root, holder))
            continue
        root.mkdir(parents=True, exist_ok=True)
        try:
            descriptor = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            if lock_holder(root) is None:
                lock.unlink(missing_ok=True)  # stale: its run died on this host
            continue
        with os.fdopen(descriptor, "w") as handle:
            json.dump(mine, handle)
        return lock
    raise ExperimentLockedError(f"{lock}: could not be created")


def release_lock(root: ResultsPath) -> None:
    """Remove this process's lock (not another run's, should it have taken over in between)."""
    lock = root / LOCK_FILE
    holder = _read_lock(lock)
    if holder is None or (holder.get("pid") == os.getpid() and holder.get("host") == socket.gethostname()):
        lock.unlink(missing_ok=True)


def forget_shard(root: ResultsPath, shard_id: str, entry: Mapping[str, Any]) -> None:
    """Remove a shard's marker and the files its manifest ``entry`` records, so that it is played again."""
    manifest_path(root, shard_id).unlink(missing_ok=True)
    for path, _recorded in recorded_files(root, shard_id, entry):
        path.unlink(missing_ok=True)
    for table in ("games", "players", "cards"):
        table_path(root, table, str(entry["variant"]), shard_id).unlink(missing_ok=True)
