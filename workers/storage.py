"""Where results live: paths of an experiment's files and atomic writes.

Local paths for now, through pyarrow's filesystem layer so that object-store
URIs can follow. A file is written under a temporary name beginning with a dot
(which readers' ``*.parquet`` globs skip) and renamed into place, so a reader
sees a whole file or none.
"""

from __future__ import annotations

import hashlib
import json
import os
import socket
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

MANIFEST_FOLDER = "_manifest"
SPEC_FILE = "spec.json"


def table_path(root: Path, table: str, variant: str, shard_id: str) -> Path:
    """``<root>/<table>/variant=<variant>/part-<shard>.parquet`` (Hive-style)."""
    return root / table / f"variant={variant}" / f"part-{shard_id}.parquet"


def manifest_path(root: Path, shard_id: str) -> Path:
    """The marker that says a shard's three files are complete."""
    return root / MANIFEST_FOLDER / f"{shard_id}.json"


def _temporary_sibling(path: Path) -> Path:
    return path.with_name(f".{path.name}.{os.getpid()}.tmp")


def write_parquet_atomically(table: pa.Table, path: Path) -> dict[str, Any]:
    """Write ``table`` to ``path`` so that it appears whole or not at all.

    Returns the file's size and SHA-256, computed from the bytes written (the
    manifest keeps them so that a file damaged later is detected).
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink, compression="zstd")
    data = sink.getvalue().to_pybytes()
    temporary = _temporary_sibling(path)
    temporary.write_bytes(data)
    os.replace(temporary, path)
    return {"bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}


def file_checksum(path: Path) -> dict[str, Any]:
    """Size and SHA-256 of a file on disk (as ``write_parquet_atomically`` returns)."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return {"bytes": path.stat().st_size, "sha256": digest.hexdigest()}


def write_json_atomically(data: Any, path: Path) -> None:
    """Write ``data`` as pretty JSON to ``path``, whole or not at all."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = _temporary_sibling(path)
    temporary.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n")
    os.replace(temporary, path)


def finished_shards(root: Path) -> dict[str, dict[str, Any]]:
    """Manifest entries of the shards already complete under ``root``."""
    folder = root / MANIFEST_FOLDER
    if not folder.is_dir():
        return {}
    return {path.stem: json.loads(path.read_text()) for path in sorted(folder.glob("*.json"))}


LOCK_FILE = ".lock"


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


def lock_holder(root: Path) -> dict[str, Any] | None:
    """The live run holding ``root``'s lock, or None (a dead holder's lock is stale)."""
    lock = root / LOCK_FILE
    try:
        holder: dict[str, Any] = json.loads(lock.read_text())
    except (FileNotFoundError, json.JSONDecodeError):
        return None
    if holder.get("host") == socket.gethostname() and not _process_alive(int(holder.get("pid", 0))):
        return None
    return holder


def acquire_lock(root: Path) -> Path:
    """Mark ``root`` as being written by this process; refuse if a live run holds it.

    The lock is a file created exclusively; one left by a run that died on
    this host is taken over.
    """
    root.mkdir(parents=True, exist_ok=True)
    lock = root / LOCK_FILE
    for _ in range(2):
        try:
            descriptor = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            holder = lock_holder(root)
            if holder is not None:
                raise ExperimentLockedError(
                    f"{root}: another run (pid {holder.get('pid')} on {holder.get('host')}) is writing these "
                    f"results; wait for it to finish, or delete {lock} if that run is gone"
                ) from None
            lock.unlink(missing_ok=True)
            continue
        with os.fdopen(descriptor, "w") as handle:
            json.dump({"pid": os.getpid(), "host": socket.gethostname()}, handle)
        return lock
    raise ExperimentLockedError(f"{lock}: could not be created")


def release_lock(root: Path) -> None:
    """Remove this process's lock."""
    (root / LOCK_FILE).unlink(missing_ok=True)


def shard_problems(root: Path, shard_id: str, entry: dict[str, Any]) -> list[str]:
    """What is wrong with a finished shard's files (empty when all are intact).

    Each file must exist with the size and SHA-256 the manifest recorded.
    """
    problems = []
    for table, expected in entry.get("files", {}).items():
        path = table_path(root, table, entry["variant"], shard_id)
        if not path.is_file():
            problems.append(f"{path}: missing")
        elif path.stat().st_size != expected["bytes"]:
            problems.append(f"{path}: {path.stat().st_size} bytes, the manifest says {expected['bytes']}")
        elif file_checksum(path)["sha256"] != expected["sha256"]:
            problems.append(f"{path}: checksum differs from the manifest (damaged)")
    return problems


def damaged_shards(root: Path) -> dict[str, list[str]]:
    """Finished shards whose files are missing or damaged, with the problems found."""
    damaged = {}
    for shard_id, entry in finished_shards(root).items():
        problems = shard_problems(root, shard_id, entry)
        if problems:
            damaged[shard_id] = problems
    return damaged


def forget_shard(root: Path, shard_id: str, variant: str) -> None:
    """Remove a shard's marker and files, so that it is played again."""
    manifest_path(root, shard_id).unlink(missing_ok=True)
    for table in ("games", "players", "cards"):
        table_path(root, table, variant, shard_id).unlink(missing_ok=True)
