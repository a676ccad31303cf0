"""Where results live: paths of an experiment's files and atomic writes.

Local paths for now, through pyarrow's filesystem layer so that object-store
URIs can follow. A file is written under a temporary name beginning with a dot
(which readers' ``*.parquet`` globs skip) and renamed into place, so a reader
sees a whole file or none.
"""

from __future__ import annotations

import json
import os
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


def write_parquet_atomically(table: pa.Table, path: Path) -> None:
    """Write ``table`` to ``path`` so that it appears whole or not at all."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = _temporary_sibling(path)
    pq.write_table(table, temporary, compression="zstd")
    os.replace(temporary, path)


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
