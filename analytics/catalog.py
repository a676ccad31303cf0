"""Find an experiment's results and open them as DuckDB views.

An experiment folder (written by ``cardlab run``, see ``workers.storage``)::

    <experiment>/spec.json                                  the resolved spec
    <experiment>/_manifest/<shard>.json                     one per finished shard
    <experiment>/<table>/variant=<v>/part-<shard>.parquet   table in games, players, cards

The folder is a ``workers.location.ResultsPath``: local, or an ``s3://``
prefix. ``open_catalog`` reads the manifest and builds each view over the files of the
*finished* shards only, listed explicitly. It does not glob: DuckDB's ``*``
also matches dot-files (the temporary names of files being written), and a
shard whose ``games`` file is written but whose ``cards`` file is not yet would
make the tables disagree. So a reader running beside a live ``cardlab run``
sees a consistent set of whole shards.

Local files are read by DuckDB's ``read_parquet``. Files in an object store
are read through pyarrow (DuckDB's ``httpfs`` extension is not assumed to be
installable): the view is over a ``pyarrow.dataset`` registered on the
connection, which DuckDB scans lazily, batch by batch, with column projection
and filters pushed down, so a query over millions of rows streams.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import duckdb

from analytics.quoting import sql_string
from analytics.stats import register_sql_macros
from workers.integrity import check_shards, damage_message, repair_command
from workers.location import ObjectPath, ResultsLocationError, ResultsPath, results_path, sorted_glob
from workers.schemas import TABLES
from workers.storage import MANIFEST_FOLDER, SPEC_FILE, finished_shards, table_path

# The same rule as experiment names in ``experiments.spec``: no slashes, no
# leading dot, so a name can never climb out of the results folder.
_NAME_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$")


class AnalyticsError(Exception):
    """A user-facing problem on the read side; ``str()`` is one line that says it all."""


class ExperimentNotFoundError(AnalyticsError, LookupError):
    """No experiment results folder (one holding ``spec.json``) by that name or path."""

    def __str__(self) -> str:
        # LookupError subclasses such as KeyError quote their message; keep it plain.
        return str(self.args[0]) if self.args else "experiment not found"


class NoResultsError(AnalyticsError, LookupError):
    """The experiment folder exists but holds no usable finished shards."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "no results"


class DamagedResultsError(NoResultsError):
    """A finished shard's file is missing, unreadable or differs from its manifest entry."""


def require_intact(experiment_dir: ResultsPath, manifest: dict[str, dict[str, Any]]) -> None:
    """Raise ``DamagedResultsError`` (one line naming the shard and the repair) unless every
    finished shard's files match the manifest (``workers.integrity.check_shards``)."""
    findings, _hashed = check_shards(experiment_dir, manifest)
    if findings:
        raise DamagedResultsError(damage_message(experiment_dir, findings))


def list_experiments(results_root: ResultsPath | str) -> list[ResultsPath]:
    """Experiment folders directly under ``results_root`` (those holding ``spec.json``), by name."""
    results_root = results_path(results_root)
    if not results_root.is_dir():
        return []
    return sorted(
        (path for path in results_root.iterdir()
         if path.is_dir() and not path.name.startswith(".") and (path / SPEC_FILE).is_file()),
        key=lambda path: path.name,
    )


def _looks_like_path(text: str) -> bool:
    return ("://" in text or "/" in text or "\\" in text or text in (".", "..") or Path(text).is_absolute()
            or text.startswith("~"))


def resolve_experiment(name_or_path: str, results_root: ResultsPath | str) -> ResultsPath:
    """The results folder of an experiment given by name or by path.

    A bare name (no slash) is looked up under ``results_root`` and must be a
    valid experiment name, so it cannot escape that folder; anything with a
    slash (``./x``, ``results/x``, ``/data/x``, ``s3://bucket/results/x``) is taken as a path as given.
    Either way the folder must contain ``spec.json``. Raises
    ``ExperimentNotFoundError`` with a one-line message otherwise.
    """
    results_root = results_path(results_root)
    text = name_or_path.strip()
    if not text:
        raise ExperimentNotFoundError("experiment: empty name; expected an experiment name or a results folder path")
    folder: ResultsPath
    if _looks_like_path(text):
        try:
            folder = results_path(text).expanduser()
        except ResultsLocationError as error:
            raise ExperimentNotFoundError(str(error)) from None
    else:
        if not _NAME_PATTERN.match(text):
            raise ExperimentNotFoundError(
                f"{text}: not a valid experiment name; expected letters, digits, '_', '-' or '.' "
                f"(or a folder path containing {SPEC_FILE})")
        folder = results_root / text
    if not folder.is_dir():
        known = [path.name for path in list_experiments(results_root)]
        hint = f"experiments in {results_root}: {', '.join(known)}" if known else (
            f"no experiments in {results_root} yet; run `cardlab run experiments/<file>.toml`")
        raise ExperimentNotFoundError(
            f"{folder}: no such folder; expected an experiment results folder containing {SPEC_FILE} ({hint})")
    if not (folder / SPEC_FILE).is_file():
        raise ExperimentNotFoundError(
            f"{folder}: no {SPEC_FILE}; expected an experiment results folder written by `cardlab run`")
    return folder


def read_spec(experiment_dir: ResultsPath) -> dict[str, Any]:
    """The resolved spec stored beside the results (``spec.json``), as plain data."""
    path = experiment_dir / SPEC_FILE
    try:
        data = json.loads(path.read_text())
    except FileNotFoundError:
        raise ExperimentNotFoundError(f"{path}: not found; expected the spec written by `cardlab run`") from None
    except (OSError, ValueError) as error:
        raise NoResultsError(f"{path}: unreadable ({error}); expected the JSON spec written by `cardlab run`") from None
    if not isinstance(data, dict):
        raise NoResultsError(f"{path}: expected a JSON object")
    return data


def read_manifest(experiment_dir: ResultsPath) -> dict[str, dict[str, Any]]:
    """Manifest entries of the finished shards, by shard id (empty if none).

    Raises ``DamagedResultsError`` (one line, with the repair) for an entry
    that cannot be read or is not one written by ``cardlab run``.
    """
    def refuse(path: ResultsPath, reason: str) -> None:
        raise DamagedResultsError(f"{path}: unreadable manifest entry ({reason}); expected the JSON marker written "
                                  f"by `cardlab run`; nothing is read until `{repair_command(experiment_dir)}` "
                                  "repairs it")

    return finished_shards(experiment_dir, refuse)


def experiment_version(experiment_dir: ResultsPath) -> int:
    """A number that changes whenever results are added or removed: the newest
    modification time (ns) of the manifest files, the manifest folder (which
    changes when an entry is deleted) and ``spec.json``. Used as a cache key.
    An object store has no folder times, so there the number of manifest
    entries is added (a deletion changes the number)."""
    candidates = [experiment_dir / SPEC_FILE, experiment_dir / MANIFEST_FOLDER]
    folder = experiment_dir / MANIFEST_FOLDER
    entries = sorted_glob(folder, "*.json") if folder.is_dir() else []
    candidates.extend(entries)
    newest = 0
    for path in candidates:
        try:
            newest = max(newest, path.stat().st_mtime_ns)
        except FileNotFoundError:
            continue  # deleted between listing and stat: the folder's mtime has it
    return newest + len(entries) if isinstance(experiment_dir, ObjectPath) else newest


def shard_files(experiment_dir: ResultsPath, table: str,
                manifest: dict[str, dict[str, Any]] | None = None) -> list[ResultsPath]:
    """The Parquet files of ``table`` that belong to finished shards, in shard order.

    ``manifest`` is ``read_manifest(experiment_dir)``, read here if not given.
    Raises ``NoResultsError`` if there are no finished shards, or if the
    manifest lists a shard whose file is missing.
    """
    if manifest is None:
        manifest = read_manifest(experiment_dir)
    if not manifest:
        raise NoResultsError(
            f"{experiment_dir}: no finished shards yet; expected {MANIFEST_FOLDER}/*.json written by `cardlab run`")
    # One listing instead of a lookup per file (in an object store, one request per page, not per shard).
    present = {str(path) for path in (experiment_dir / table).rglob("*.parquet")}
    files = []
    for shard_id, entry in manifest.items():
        path = table_path(experiment_dir, table, entry["variant"], shard_id)
        if str(path) not in present:
            raise NoResultsError(
                f"{path}: missing, though {MANIFEST_FOLDER}/{shard_id}.json marks the shard finished; "
                "expected its Parquet file (rerun the experiment with --resume)")
        files.append(path)
    return files


def experiment_files(experiment_dirs: list[ResultsPath]) -> dict[str, list[ResultsPath]]:
    """The finished-shard files of every table, over several experiments.

    Raises ``NoResultsError`` if one of them has no finished shards, and its
    ``DamagedResultsError`` if a finished shard's file does not match the manifest."""
    files: dict[str, list[ResultsPath]] = {table: [] for table in TABLES}
    for folder in experiment_dirs:
        manifest = read_manifest(folder)
        if manifest:
            require_intact(folder, manifest)  # a damaged shard is never counted
        for table in TABLES:
            files[table].extend(shard_files(folder, table, manifest))
    return files


def create_base_views(con: duckdb.DuckDBPyConnection, files: dict[str, list[ResultsPath]], *,
                      datasets: bool = False) -> None:
    """Create the views ``games``, ``players``, ``cards`` over the given files
    (local ones by path, those in an object store through a registered pyarrow dataset).

    With ``datasets``, local files are read through a registered pyarrow
    dataset too, so that the connection itself never opens a file: what the
    confined SQL of ``analytics.sql`` needs (DuckDB's file access turned off).
    """
    for table, paths in files.items():
        remote = [path for path in paths if isinstance(path, ObjectPath)]
        if remote and len(remote) != len(paths):
            raise NoResultsError(f"{remote[0]}: cannot mix object-store and local results in one catalog")
        if remote or datasets:
            source = f"_{table}_dataset"
            con.register(source, parquet_dataset(paths))
            con.execute(f"CREATE OR REPLACE VIEW {table} AS SELECT * FROM {source}")
            continue
        listing = ", ".join(sql_string(str(path.absolute())) for path in paths)
        # union_by_name: shards written by different cardlab versions (or
        # experiments of different games) may order or add columns
        # differently; match them by name.
        con.execute(
            f"CREATE OR REPLACE VIEW {table} AS SELECT * FROM read_parquet([{listing}], "
            "hive_partitioning = false, union_by_name = true)")


def parquet_dataset(paths: list[ResultsPath]) -> Any:
    """A lazy ``pyarrow.dataset`` over Parquet files (local or objects), columns matched by name.

    One child dataset per folder (an experiment's variant: its shards share a
    schema, read from one file's footer), unified like DuckDB's
    ``union_by_name``: a column missing from a folder reads as NULL.
    """
    import pyarrow as pa
    import pyarrow.dataset as ds
    import pyarrow.fs as pafs

    by_folder: dict[str, list[str]] = {}
    for path in paths:
        if isinstance(path, ObjectPath):
            by_folder.setdefault(path.parent.key, []).append(path.key)
        else:
            by_folder.setdefault(str(path.parent.absolute()), []).append(str(path.absolute()))
    filesystem = paths[0].filesystem if isinstance(paths[0], ObjectPath) else pafs.LocalFileSystem()
    children = [_dictionary_strings(ds.dataset(keys, filesystem=filesystem, format="parquet"), keys, filesystem)
                for keys in by_folder.values()]
    if len(children) == 1:
        return children[0]
    schema = pa.unify_schemas([child.schema for child in children], promote_options="permissive")
    return ds.dataset(children, schema=schema)


def _dictionary_strings(dataset: Any, keys: list[str], filesystem: Any) -> Any:
    """``dataset`` again, reading its text columns as dictionaries (DuckDB still sees VARCHAR).

    The text columns (experiment, variant, agent, card...) are dictionary-encoded
    in the files; decoding them into plain strings was most of the cost of a
    scan through pyarrow (about half, measured on 10,000,000 games).
    """
    import pyarrow as pa
    import pyarrow.dataset as ds

    text = [field.name for field in dataset.schema if pa.types.is_string(field.type)]
    if not text:
        return dataset
    schema = pa.schema([field.with_type(pa.dictionary(pa.int32(), pa.string())) if field.name in text else field
                        for field in dataset.schema], metadata=dataset.schema.metadata)
    read_options = ds.ParquetReadOptions(dictionary_columns=text)
    return ds.dataset(keys, filesystem=filesystem, schema=schema,
                      format=ds.ParquetFileFormat(read_options=read_options))


def _connect(files: dict[str, list[ResultsPath]], *, metrics: bool, cached_counts: ResultsPath | None,
             paired: bool | None, datasets: bool = False, write_cache: bool = True) -> duckdb.DuckDBPyConnection:
    # Imported here: analytics.views imports nothing from the catalog, but
    # keeping the catalog importable on its own keeps the layers clear.
    from analytics.views import register_metric_views

    con = duckdb.connect(":memory:")
    try:
        # A progress bar on stderr would interleave with report output.
        con.execute("SET enable_progress_bar = false")
        register_sql_macros(con)
        create_base_views(con, files, datasets=datasets)
        if metrics:
            if cached_counts is not None:
                from analytics.partials import register_cached_counts

                register_cached_counts(con, cached_counts, write_cache)
            register_metric_views(con, counts=cached_counts is None, paired=paired,
                                  materialize=cached_counts is not None)
    except BaseException:
        con.close()
        raise
    return con


def open_catalog(experiment_dir: ResultsPath | str, *, metrics: bool = True, cached: bool = False,
                 paired: bool | None = None, datasets: bool = False,
                 write_cache: bool = True) -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB connection with the views ``games``, ``players``, ``cards``.

    Each view reads the table's Parquet files of the finished shards (see the
    module docstring) with ``hive_partitioning=false``: the ``variant`` column
    is stored in the files, and the folder name must not shadow it. The
    statistics macros (``analytics.stats.register_sql_macros``) are defined
    too, and with ``metrics`` (the default) the metric views of
    ``analytics.views`` (``seat_stats``, ``card_stats``, ``variant_deltas``...);
    With ``cached``, the count views are tables summed from per-shard counts
    cached beside the results (``analytics.partials``): what the report, the
    dashboard and ``cardlab sql`` use; without ``write_cache`` no cache is written
    (shards without their task's counts are counted in memory).
    ``paired`` is passed to ``register_metric_views``; ``datasets`` to
    ``create_base_views``. Raises ``NoResultsError`` if the experiment has no
    finished shards, ``DamagedResultsError`` if one does not match the manifest.
    """
    experiment_dir = results_path(experiment_dir)
    con = _connect(experiment_files([experiment_dir]), metrics=metrics,
                   cached_counts=experiment_dir if cached else None, paired=paired, datasets=datasets,
                   write_cache=write_cache)
    from analytics.tuning import register_tuning_tables

    register_tuning_tables(con, experiment_dir)  # a tuning run's trials tables (cardlab tune); else nothing
    return con


def open_results_catalog(results_root: ResultsPath | str, *, metrics: bool = True,
                         datasets: bool = False) -> duckdb.DuckDBPyConnection:
    """Like ``open_catalog``, over every experiment under ``results_root`` that has finished shards.

    The views hold all of them; the ``experiment`` column tells them apart.
    Raises ``NoResultsError`` if there is none.
    """
    folders = [folder for folder in list_experiments(results_root) if read_manifest(folder)]
    if not folders:
        raise NoResultsError(f"{results_root}: no experiment with finished shards; run `cardlab run` first")
    return _connect(experiment_files(folders), metrics=metrics, cached_counts=None, paired=None, datasets=datasets)
