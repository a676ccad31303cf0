"""Per-shard counts: how ``cardlab report`` stays fast on millions of games.

Every metric view (``analytics.views``) reads only the *count views*
(``COUNT_VIEWS``: seats, agents, factions, matchups, teams, cards, game
histogram), whose columns are sums and counts. A finished shard never changes
(``cardlab run`` writes its files once, then its manifest marker), and shards
hold disjoint games, so the counts of an experiment are the sums of its
shards' counts. ``register_cached_counts`` builds the count tables of the
whole experiment by adding up each shard's counts, read from small Parquet
files:

- the counts its shard task wrote beside its tables
  (``counts/<view>/variant=<v>/part-<shard>.parquet``, ``workers.counts``),
  checked like the shard's other files, when its manifest entry records
  them in this cardlab's format (``workers.counts.COUNTS_FORMAT``);
- otherwise (results written before shard tasks counted, or by a cardlab
  whose count views differ) counts computed here once per shard, in DuckDB
  over that shard's three files, and cached under
  ``<experiment>/_analytics/<CACHE_VERSION>/``: the first report over such a
  shard pays for reading it; later ones read kilobytes.

A cache entry is used only if its key matches: the shard id, the size and
modification time of the shard's three Parquet files, ``CACHE_VERSION``
(bumped whenever a count view's meaning changes) and a fingerprint of the
count views' columns (``VIEWS_FINGERPRINT``). Entries are written atomically. If
the experiment folder is not writable, the counts are computed in memory
each time, with the same result. In an object store (``s3://``) the cache is
objects beside the results too, written and read through pyarrow.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import duckdb

from analytics.base_views import create_base_views
from analytics.folders import NoResultsError, read_manifest
from analytics.stats import register_sql_macros
from dataset.count_views import CACHE_VERSION, COUNT_VIEWS, COUNTS_FORMAT, VIEWS_FINGERPRINT, Columns, count_view_sql
from dataset.location import ObjectPath, ResultsPath, remove_tree, results_path
from dataset.quoting import sql_string
from dataset.schemas import TABLES
from dataset.storage import counts_path, table_path, write_bytes_atomically, write_parquet_atomically

CACHE_FOLDER = "_analytics"
SHARD_MEMORY_LIMIT = "1GB"
"""DuckDB's memory limit while counting one shard (it spills to disk beyond)."""


def _shard_key(files: dict[str, ResultsPath]) -> dict[str, Any]:
    stats = {table: path.stat() for table, path in files.items()}
    return {
        "version": CACHE_VERSION,
        "views": VIEWS_FINGERPRINT,
        "files": {table: [stat.st_size, stat.st_mtime_ns] for table, stat in stats.items()},
    }


def _compute_shard(files: dict[str, ResultsPath], target: ResultsPath | None) -> dict[str, Any]:
    """The count views of one shard: written as Parquet under ``target`` when given;
    returned as Arrow tables otherwise."""
    con = duckdb.connect(":memory:")
    try:
        con.execute("SET enable_progress_bar = false")
        # A shard is read once: keeping its file contents in DuckDB's file
        # cache only grows memory (to GiBs over an experiment), so cap both.
        con.execute("SET enable_external_file_cache = false")
        con.execute(f"SET memory_limit = '{SHARD_MEMORY_LIMIT}'")
        register_sql_macros(con)
        create_base_views(con, {table: [path] for table, path in files.items()})
        results: dict[str, Any] = {}
        for name, query in count_view_sql(Columns.of(con)).items():
            if target is None:
                results[name] = con.sql(query).to_arrow_table()
            elif isinstance(target, ObjectPath):
                # No local file for COPY to write: the (small) counts go through Arrow.
                cached = target / f"{name}.parquet"
                write_parquet_atomically(con.sql(query).to_arrow_table(), cached)
                results[name] = cached
            else:
                path = target / f"{name}.parquet"
                temporary = target / f".{name}.parquet.{os.getpid()}.tmp"
                con.execute(f"COPY ({query}) TO {sql_string(str(temporary))} (FORMAT parquet)")
                os.replace(temporary, path)
                results[name] = path
        return results
    finally:
        con.close()


def task_counts(experiment_dir: ResultsPath, shard_id: str,
                entry: Mapping[str, Any]) -> dict[str, ResultsPath] | None:
    """The count files a shard's task wrote, by view; None when its manifest entry
    records none, or none in this cardlab's format."""
    counts = entry.get("counts")
    if not isinstance(counts, Mapping) or counts.get("format") != COUNTS_FORMAT:
        return None
    files = counts.get("files")
    if not isinstance(files, Mapping) or set(files) != set(COUNT_VIEWS):
        return None
    return {view: counts_path(experiment_dir, view, str(entry["variant"]), shard_id) for view in COUNT_VIEWS}


def _can_make(folder: ResultsPath) -> bool:
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return False
    return True


def shard_counts(experiment_dir: ResultsPath | str, write_cache: bool = True) -> dict[str, list[Any]]:
    """For each count view, one entry per finished shard: a Parquet path (written by the
    shard's task, or cached here), or an Arrow table when the cache cannot (or, without
    ``write_cache``, may not) be written."""
    experiment_dir = results_path(experiment_dir)
    manifest = read_manifest(experiment_dir)
    cache = experiment_dir / CACHE_FOLDER / CACHE_VERSION
    writable: bool | None = None if write_cache else False  # known once a shard needs counting here
    out: dict[str, list[Any]] = {name: [] for name in COUNT_VIEWS}
    for shard_id, entry in manifest.items():
        written = task_counts(experiment_dir, shard_id, entry)
        if written is not None:
            for name in COUNT_VIEWS:
                out[name].append(written[name])
            continue
        if writable is None:
            writable = _can_make(cache)
        files = {table: table_path(experiment_dir, table, entry["variant"], shard_id) for table in TABLES}
        key = _shard_key(files)
        folder = cache / shard_id
        key_file = folder / "key.json"
        cached = False
        if writable:
            try:
                # One read and one listing (two requests in an object store), not a lookup per file.
                cached = json.loads(key_file.read_text()) == key and {
                    f"{name}.parquet" for name in COUNT_VIEWS} <= {path.name for path in folder.iterdir()}
            except (OSError, ValueError):
                cached = False
        if not cached:
            if writable:
                try:
                    folder.mkdir(parents=True, exist_ok=True)
                    _compute_shard(files, folder)
                    write_bytes_atomically(json.dumps(key).encode(), key_file)
                    cached = True
                except OSError:
                    writable = False
            if not cached:
                for name, table in _compute_shard(files, None).items():
                    out[name].append(table)
                continue
        for name in COUNT_VIEWS:
            out[name].append(folder / f"{name}.parquet")
    return out


def _read_objects(paths: list[ObjectPath]) -> list[Any]:
    """Cached counts in an object store (a few KiB each), read whole and concurrently."""
    import pyarrow.dataset as ds

    if not paths:
        return []
    return [ds.dataset([path.key for path in paths], filesystem=paths[0].filesystem, format="parquet").to_table()]


def register_cached_counts(con: duckdb.DuckDBPyConnection, experiment_dir: ResultsPath,
                           write_cache: bool = True) -> None:
    """Create the count views' tables on ``con`` as the sums of the shards' (cached) counts.

    A cached count file that DuckDB cannot read (truncated, garbled) makes
    the whole cache be dropped and computed again from the (verified) shards,
    once; should that fail too, the error is one line. Without ``write_cache``
    nothing is written or dropped: the shards without their task's counts are
    counted in memory (the dashboard's confined SQL connection writes nothing).
    """
    try:
        _sum_cached_counts(con, shard_counts(experiment_dir, write_cache))
        return
    except (duckdb.Error, OSError):
        cache = experiment_dir / CACHE_FOLDER / CACHE_VERSION
        if write_cache and cache.is_dir():
            remove_tree(cache)
    try:
        _sum_cached_counts(con, shard_counts(experiment_dir, write_cache))
    except (duckdb.Error, OSError) as error:
        raise NoResultsError(f"{experiment_dir / CACHE_FOLDER}: the report cache cannot be rebuilt "
                             f"({str(error).splitlines()[0]}); delete that folder and try again") from None


def _sum_cached_counts(con: duckdb.DuckDBPyConnection, entries: dict[str, list[Any]]) -> None:
    for name in COUNT_VIEWS:
        paths = [entry for entry in entries[name] if isinstance(entry, Path)]
        objects = [entry for entry in entries[name] if isinstance(entry, ObjectPath)]
        tables = [entry for entry in entries[name] if not isinstance(entry, Path | ObjectPath)]
        tables.extend(_read_objects(objects))
        sources = []
        if paths:
            sources.append(count_files_sql(paths))
        for index, table in enumerate(tables):
            view = f"_{name}_{index}"
            con.register(view, table)
            sources.append(f"SELECT * FROM {view}")
        con.execute(f"CREATE OR REPLACE TEMP TABLE {name} AS {summed_counts_sql(name, sources)}")
        for index in range(len(tables)):
            con.unregister(f"_{name}_{index}")


def count_files_sql(paths: list[Path]) -> str:
    """SQL: the rows of the count files at ``paths``."""
    return "SELECT * FROM read_parquet([" + ", ".join(sql_string(str(path)) for path in paths) + "])"


def summed_counts_sql(view: str, sources: list[str]) -> str:
    """SQL: the count view ``view`` as the sums, per key, of the rows of ``sources``
    (``SELECT`` statements of per-shard counts): shards hold disjoint games."""
    keys, additive = COUNT_VIEWS[view]
    key_list = ", ".join(keys)
    sums = ", ".join(f"sum({column})::BIGINT AS {column}" for column in additive)
    return (f"SELECT {key_list}, {sums} FROM ({' UNION ALL BY NAME '.join(sources)}) "
            f"GROUP BY {key_list} ORDER BY {key_list}")
