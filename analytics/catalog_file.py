"""A DuckDB database file that the plain ``duckdb`` command-line client opens directly.

``write_catalog_file(path, experiment_dirs)`` writes a small ``.duckdb`` file
holding no data: only the views ``games``, ``players`` and ``cards`` over the
absolute paths of the finished shards' Parquet files, the statistics macros
(``wilson_low``, ``erfc``, ``chi2_sf``, ``prop_z``...) and every metric view
of ``analytics.views``. The count views the metric views read are the sums of
the count files the shard tasks wrote (``workers.counts``), as the report reads
them, so a metric view reads kilobytes instead of every row; results from before
shard tasks counted get count views over the rows. So::

    cardlab catalog --all                 # writes results/catalog.duckdb
    duckdb results/catalog.duckdb -c "SELECT * FROM seat_balance"

works without cardlab or Python. The file lists the shards finished when it
was written; write it again after a run adds shards. It is replaced
atomically, so a client never opens a half-written catalog.
"""

from __future__ import annotations

import os
from pathlib import Path

import duckdb

from analytics.base_views import create_base_views
from analytics.folders import AnalyticsError, NoResultsError, experiment_files, list_experiments, read_manifest
from analytics.impact import register_impact_views
from analytics.partials import count_files_sql, summed_counts_sql, task_counts
from analytics.stats import register_sql_macros
from analytics.views import register_metric_views
from results.count_views import COUNT_VIEWS
from results.location import ResultsPath
from results.quoting import sql_string

CATALOG_FILE = "catalog.duckdb"
STORAGE_VERSION = "v1.0.0"


def _require_local(where: ResultsPath) -> Path:
    """``where`` itself if it is local; an ``AnalyticsError`` for an object-store location."""
    if not isinstance(where, Path):
        raise AnalyticsError(
            f"{where}: `cardlab catalog` needs local results (the catalog file's views name Parquet files "
            "that the plain duckdb client reads from s3:// only with its httpfs extension); use `cardlab sql` "
            "on object-store results, or copy them to a local folder first")
    return where


def write_catalog_file(path: ResultsPath, experiment_dirs: list[ResultsPath]) -> Path:
    """Write the catalog of ``experiment_dirs`` to ``path`` (replacing it); return ``path``.

    Raises ``NoResultsError`` if ``experiment_dirs`` is empty or one of them
    has no finished shards, and ``AnalyticsError`` for results in an object
    store (see ``_require_local``) or a ``path`` that cannot be written (a
    folder, a missing folder, no permission): one line, and no file left behind.
    """
    for folder in experiment_dirs:
        _require_local(folder)
    path = _require_local(path)
    if not experiment_dirs:
        raise NoResultsError(f"{path}: no experiment with finished shards to catalog")
    if path.is_dir():
        raise AnalyticsError(f"{path}: is a folder; expected the catalog file to write, such as {path / CATALOG_FILE}")
    if not path.parent.is_dir():
        raise AnalyticsError(f"{path}: the folder {path.parent} does not exist")
    files = experiment_files(experiment_dirs)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        temporary.unlink(missing_ok=True)
        con = duckdb.connect(":memory:")
        try:
            # The oldest storage format that holds everything, so that older
            # duckdb command-line clients (1.x) open the file too.
            con.execute(f"ATTACH {sql_string(str(temporary))} AS catalog "
                        f"(STORAGE_VERSION {sql_string(STORAGE_VERSION)})")
            con.execute("USE catalog")
            register_sql_macros(con)
            create_base_views(con, files)
            count_files = _task_count_files(experiment_dirs)
            if count_files is not None:
                for view, paths in count_files.items():
                    con.execute(f"CREATE VIEW {view} AS {summed_counts_sql(view, [count_files_sql(paths)])}")
            register_metric_views(con, counts=count_files is None, defer_binding=False)
            register_impact_views(con, defer_binding=False)
            con.execute("CHECKPOINT catalog")
        finally:
            con.close()
        os.replace(temporary, path)
    except (OSError, duckdb.IOException) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error).splitlines()[0]
        raise AnalyticsError(f"{path}: cannot write the catalog file ({reason})") from None
    finally:
        # Whatever happened: no temporary file, and no write-ahead log DuckDB may leave beside it.
        temporary.unlink(missing_ok=True)
        Path(f"{temporary}.wal").unlink(missing_ok=True)
    return path


def _task_count_files(experiment_dirs: list[ResultsPath]) -> dict[str, list[Path]] | None:
    """Per count view, the count files every finished shard's task wrote; None if one
    shard has none (results from before shard tasks counted): then the count views
    are computed from the rows."""
    files: dict[str, list[Path]] = {view: [] for view in COUNT_VIEWS}
    for folder in experiment_dirs:
        for shard_id, entry in read_manifest(folder).items():
            written = task_counts(folder, shard_id, entry)
            if written is None:
                return None
            for view, path in written.items():
                files[view].append(_require_local(path))
    return files


def write_results_catalog(results_root: ResultsPath, path: Path | None = None) -> Path:
    """The catalog of every experiment under ``results_root`` with finished shards,
    written to ``path`` (default ``results_root/catalog.duckdb``)."""
    results_root = _require_local(results_root)
    folders = [folder for folder in list_experiments(results_root) if read_manifest(folder)]
    return write_catalog_file(path or results_root / CATALOG_FILE, folders)
