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

Variants played on the baseline's seeds are compared game by game
(``variant_deltas``'s paired tests), from sums over the seed-matched games
(``analytics.views.deltas.PAIRED_SUMS``): those add up over pairs of shards
too (a variant's shard and the baseline's shard of the same player count
over the same game indices), so ``register_cached_pairs`` sums them from
per-pair files cached the same way under ``_analytics/<CACHE_VERSION>/pairs/``,
keyed by both shards' files: a report over a paired experiment reads no rows
either, after the first. Where they are not cached and cannot be, the
catalog's ``variant_deltas`` pairs the rows in its own query, as any query
that reads it did before: opening the catalog pairs nothing.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Collection, Mapping
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

import duckdb

from analytics.base_views import create_base_views
from analytics.folders import NoResultsError, read_manifest
from analytics.stats import register_sql_macros
from analytics.views.deltas import PAIRED_SUMS, paired_sums_sql, paired_sums_table
from dataset.count_views import CACHE_VERSION, COUNT_VIEWS, COUNTS_FORMAT, VIEWS_FINGERPRINT, Columns, count_view_sql
from dataset.location import ObjectPath, ResultsPath, remove_tree, results_path
from dataset.quoting import sql_string
from dataset.schemas import TABLES
from dataset.storage import counts_path, table_path, write_bytes_atomically, write_parquet_atomically
from experiments.spec import BASELINE

CACHE_FOLDER = "_analytics"
SHARD_MEMORY_LIMIT = "1GB"
"""DuckDB's memory limit while counting one shard (it spills to disk beyond)."""


PAIRS_FOLDER = "pairs"
PAIRS_FINGERPRINT = repr(sorted(PAIRED_SUMS.items()))
"""Part of a cached pair's key: the pairs are computed again when a paired sum changes."""

Queries = Callable[[Columns], dict[str, str]]
"""What is computed over a shard (or a pair of shards): given the columns its tables have,
the ``SELECT`` of each result, by name."""


def _files_key(files: dict[str, ResultsPath]) -> dict[str, list[int]]:
    stats = {table: path.stat() for table, path in files.items()}
    return {table: [stat.st_size, stat.st_mtime_ns] for table, stat in stats.items()}


def _shard_key(files: dict[str, ResultsPath]) -> dict[str, Any]:
    return {"version": CACHE_VERSION, "views": VIEWS_FINGERPRINT, "files": _files_key(files)}


def _pair_queries(columns: Columns) -> dict[str, str]:
    return paired_sums_sql(columns, paired=True)


def _compute_shard(files: dict[str, list[ResultsPath]], target: ResultsPath | None,
                   queries: Queries = count_view_sql) -> dict[str, Any]:
    """The ``queries`` (by default the count views) over one shard's files (or a pair's):
    written as Parquet under ``target`` when given; returned as Arrow tables otherwise."""
    con = duckdb.connect(":memory:")
    try:
        con.execute("SET enable_progress_bar = false")
        # A shard is read once: keeping its file contents in DuckDB's file
        # cache only grows memory (to GiBs over an experiment), so cap both.
        con.execute("SET enable_external_file_cache = false")
        con.execute(f"SET memory_limit = '{SHARD_MEMORY_LIMIT}'")
        register_sql_macros(con)
        create_base_views(con, files)
        results: dict[str, Any] = {}
        for name, query in queries(Columns.of(con)).items():
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


def _read_cache(folder: ResultsPath, key: dict[str, Any], names: Collection[str]) -> dict[str, ResultsPath] | None:
    """The files of the results ``names`` cached in ``folder`` under ``key``; None if absent or stale."""
    paths = {name: folder / f"{name}.parquet" for name in names}
    try:
        # One read and one listing (two requests in an object store), not a lookup per file.
        if json.loads((folder / "key.json").read_text()) == key and {
                path.name for path in paths.values()} <= {path.name for path in folder.iterdir()}:
            return paths
    except (OSError, ValueError):
        pass
    return None


def _write_cache(folder: ResultsPath, key: dict[str, Any], names: Collection[str],
                 compute: Callable[[ResultsPath | None], dict[str, Any]]) -> dict[str, ResultsPath] | None:
    """Compute the results ``names`` (``compute``) into ``folder``, their key last; None if it
    cannot be written."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        compute(folder)
        write_bytes_atomically(json.dumps(key).encode(), folder / "key.json")
    except OSError:
        return None
    return {name: folder / f"{name}.parquet" for name in names}


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
        counts = task_counts(experiment_dir, shard_id, entry)
        if counts is None:
            if writable is None:
                writable = _can_make(cache)
            files = _shard_files(experiment_dir, shard_id, entry)
            compute = partial(_compute_shard, {table: [path] for table, path in files.items()})
            counts = _read_cache(cache / shard_id, _shard_key(files), COUNT_VIEWS)
            if counts is None and writable:
                counts = _write_cache(cache / shard_id, _shard_key(files), COUNT_VIEWS, compute)
                writable = counts is not None
            if counts is None:
                counts = compute(None)
        for name in COUNT_VIEWS:
            out[name].append(counts[name])
    return out


def _shard_files(experiment_dir: ResultsPath, shard_id: str, entry: Mapping[str, Any]) -> dict[str, ResultsPath]:
    return {table: table_path(experiment_dir, table, entry["variant"], shard_id) for table in TABLES}


def shard_pairs(manifest: Mapping[str, Mapping[str, Any]]) -> list[tuple[str, str]]:
    """The pairs (variant's shard, baseline's shard) of finished shards of the same player
    count whose game indices overlap: the only ones that can hold seed-matched games (a
    shard whose entry does not say its games is paired with every one of the other side)."""
    baselines = [(shard_id, _games_range(entry)) for shard_id, entry in manifest.items()
                 if entry["variant"] == BASELINE]
    return [(shard_id, baseline_id) for shard_id, entry in manifest.items() if entry["variant"] != BASELINE
            for baseline_id, baseline in baselines if _may_overlap(_games_range(entry), baseline)]


def _games_range(entry: Mapping[str, Any]) -> tuple[int, int, int] | None:
    """(player count, first game index, index after the last) of a manifest entry, if it says."""
    try:
        return int(entry["n_players"]), int(entry["start"]), int(entry["stop"])
    except (KeyError, TypeError, ValueError):
        return None


def _may_overlap(one: tuple[int, int, int] | None, other: tuple[int, int, int] | None) -> bool:
    if one is None or other is None:
        return True
    return one[0] == other[0] and one[1] < other[2] and other[1] < one[2]


def pair_sums(experiment_dir: ResultsPath | str, write_cache: bool = True) -> dict[str, list[Any]] | None:
    """For each of ``PAIRED_SUMS``, the cached Parquet file of each pair of shards
    (``shard_pairs``); None if a pair is not cached and the cache cannot (or, without
    ``write_cache``, may not) be written: the caller then pairs the rows in its queries
    instead, so that only a query that reads ``variant_deltas`` pays for it."""
    experiment_dir = results_path(experiment_dir)
    manifest = read_manifest(experiment_dir)
    cache = experiment_dir / CACHE_FOLDER / CACHE_VERSION / PAIRS_FOLDER
    pairs = shard_pairs(manifest)
    writable = bool(pairs) and write_cache and _can_make(cache)
    out: dict[str, list[Any]] = {name: [] for name in PAIRED_SUMS}
    for shard_id, baseline_id in pairs:
        variant_files = _shard_files(experiment_dir, shard_id, manifest[shard_id])
        baseline_files = _shard_files(experiment_dir, baseline_id, manifest[baseline_id])
        files = {table: [variant_files[table], baseline_files[table]] for table in TABLES}
        key = {"version": CACHE_VERSION, "sums": PAIRS_FINGERPRINT,
               "files": [_files_key(variant_files), _files_key(baseline_files)]}
        folder = cache / f"{shard_id}+{baseline_id}"
        sums = _read_cache(folder, key, PAIRED_SUMS) or (
            _write_cache(folder, key, PAIRED_SUMS, partial(_compute_shard, files, queries=_pair_queries))
            if writable else None)
        if sums is None:
            return None
        for name in PAIRED_SUMS:
            out[name].append(sums[name])
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
    _register_cached(con, experiment_dir, write_cache, lambda: _sum_cached(
        con, shard_counts(experiment_dir, write_cache), {name: (name, summed_counts_sql) for name in COUNT_VIEWS}))


def register_cached_pairs(con: duckdb.DuckDBPyConnection, experiment_dir: ResultsPath,
                          write_cache: bool = True) -> bool:
    """Create the tables of ``variant_deltas``'s paired sums on ``con``
    (``analytics.views.deltas.paired_sums_table``) as the sums of the shard pairs'
    cached sums (``pair_sums``); a damaged cache is handled as in ``register_cached_counts``.
    False, and nothing created, when they are not all cached and cannot be."""
    none = paired_sums_sql(Columns.of(con), paired=False)  # no pair of shards: no rows, the same columns

    def summed(name: str, sources: list[str]) -> str:
        return summed_sql(*PAIRED_SUMS[name], sources or [none[name]])

    def register() -> bool:
        sums = pair_sums(experiment_dir, write_cache)
        if sums is None:
            return False
        _sum_cached(con, sums, {name: (paired_sums_table(name), summed) for name in PAIRED_SUMS})
        return True

    return _register_cached(con, experiment_dir, write_cache, register)


Registered = TypeVar("Registered")


def _register_cached(con: duckdb.DuckDBPyConnection, experiment_dir: ResultsPath, write_cache: bool,
                     register: Callable[[], Registered]) -> Registered:
    try:
        return register()
    except (duckdb.Error, OSError):
        cache = experiment_dir / CACHE_FOLDER / CACHE_VERSION
        if write_cache and cache.is_dir():
            remove_tree(cache)
    try:
        return register()
    except (duckdb.Error, OSError) as error:
        raise NoResultsError(f"{experiment_dir / CACHE_FOLDER}: the report cache cannot be rebuilt "
                             f"({str(error).splitlines()[0]}); delete that folder and try again") from None


Summed = Callable[[str, list[str]], str]
"""SQL: the sums of one result over the ``SELECT`` statements of its per-shard parts."""


def _sum_cached(con: duckdb.DuckDBPyConnection, entries: dict[str, list[Any]],
                tables: dict[str, tuple[str, Summed]]) -> None:
    """Create, for each ``name: (table, summed)`` of ``tables``, the temporary table of
    the sums of ``entries[name]`` (cached files, or Arrow tables)."""
    for name, (table_name, summed) in tables.items():
        paths = [entry for entry in entries[name] if isinstance(entry, Path)]
        objects = [entry for entry in entries[name] if isinstance(entry, ObjectPath)]
        arrow_tables = [entry for entry in entries[name] if not isinstance(entry, Path | ObjectPath)]
        arrow_tables.extend(_read_objects(objects))
        sources = []
        if paths:
            sources.append(count_files_sql(paths))
        for index, table in enumerate(arrow_tables):
            view = f"_{table_name}_part_{index}"
            con.register(view, table)
            sources.append(f"SELECT * FROM {view}")
        con.execute(f"CREATE OR REPLACE TEMP TABLE {table_name} AS {summed(name, sources)}")
        for index in range(len(arrow_tables)):
            con.unregister(f"_{table_name}_part_{index}")


def count_files_sql(paths: list[Path]) -> str:
    """SQL: the rows of the count files at ``paths``."""
    return "SELECT * FROM read_parquet([" + ", ".join(sql_string(str(path)) for path in paths) + "])"


def summed_counts_sql(view: str, sources: list[str]) -> str:
    """SQL: the count view ``view`` as the sums, per key, of the rows of ``sources``
    (``SELECT`` statements of per-shard counts): shards hold disjoint games."""
    return summed_sql(*COUNT_VIEWS[view], sources)


def summed_sql(keys: tuple[str, ...], additive: tuple[str, ...], sources: list[str]) -> str:
    """SQL: the sums of the columns ``additive`` per ``keys`` over the rows of ``sources``."""
    key_list = ", ".join(keys)
    sums = ", ".join(f"sum({column})::BIGINT AS {column}" for column in additive)
    return (f"SELECT {key_list}, {sums} FROM ({' UNION ALL BY NAME '.join(sources)}) "
            f"GROUP BY {key_list} ORDER BY {key_list}")
