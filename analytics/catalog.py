"""Open an experiment's results as one DuckDB connection: ``open_catalog``.

The connection holds the base views ``games``, ``players`` and ``cards``
(``analytics.base_views``), the statistics macros (``analytics.stats``), the
count views (summed from the shards' own counts, ``analytics.partials``, or
computed from the rows), the metric views (``analytics.views``) and, for a
tuning run, its trials tables (``analytics.tuning``). With ``comments=True``
every view and column carries its description as a DuckDB comment
(``analytics.views.comment_views``): what the SQL shells open (``cardlab sql``,
the catalog file, the dashboard's SQL page); a caller that only computes leaves
them out, since commenting binds every view (most of a second per catalog).
"""

from __future__ import annotations

import duckdb

from analytics.base_views import create_base_views
from analytics.folders import (
    AnalyticsError,
    NoResultsError,
    experiment_files,
    game_infos,
    list_experiments,
    read_manifest,
    read_spec,
)
from analytics.partials import register_cached_counts, register_cached_pairs
from analytics.stats import register_sql_macros
from analytics.tuning import register_tuning_tables
from analytics.views import comment_views, register_metric_views
from dataset.location import ResultsPath, results_path
from simcore.api import GameInfo


def _connect(files: dict[str, list[ResultsPath]], *, metrics: bool, cached_counts: ResultsPath | None,
             paired: bool | None, datasets: bool = False, write_cache: bool = True,
             described: list[GameInfo] | None = None) -> duckdb.DuckDBPyConnection:
    con = duckdb.connect(":memory:")
    try:
        # A progress bar on stderr would interleave with report output.
        con.execute("SET enable_progress_bar = false")
        register_sql_macros(con)
        create_base_views(con, files, datasets=datasets)
        if metrics:
            cached_pairs = False
            if cached_counts is not None:
                register_cached_counts(con, cached_counts, write_cache)
                if paired is not False:
                    cached_pairs = register_cached_pairs(con, cached_counts, write_cache)
            register_metric_views(con, counts=cached_counts is None, paired=paired,
                                  materialize=cached_counts is not None, cached_pairs=cached_pairs)
        if described is not None:
            comment_views(con, described, metrics=metrics)
    except BaseException:
        con.close()
        raise
    return con


def open_catalog(experiment_dir: ResultsPath | str, *, metrics: bool = True, cached: bool = True,
                 paired: bool | None = None, datasets: bool = False, write_cache: bool = True,
                 comments: bool = False) -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB connection with the views ``games``, ``players``, ``cards``.

    Each view reads the table's Parquet files of the finished shards
    (``analytics.base_views``) with ``hive_partitioning=false``: the ``variant`` column
    is stored in the files, and the folder name must not shadow it. The
    statistics macros (``analytics.stats.register_sql_macros``) are defined
    too, and with ``metrics`` (the default) the metric views of
    ``analytics.views`` (``seat_stats``, ``card_stats``, ``variant_deltas``...).

    With ``cached`` (the default) the count views are tables summed from the
    per-shard counts (each shard's task wrote them; older results are counted once
    and cached beside them, ``analytics.partials``; so are the sums over seed-matched
    games of the paired tests, per pair of shards, unless ``paired`` is False), and the metric views that
    others read several times are computed once, at opening: a metric view then
    reads kilobytes instead of every row (on hundreds of thousands of games, a
    second or two instead of minutes). The results must not change while the
    connection is open.
    ``cached=False`` computes the count views from the rows at each query: what the
    tests that hold both ways equal use. Without ``write_cache`` no cache is written: one
    already there is read, what it lacks is computed in memory (counts) or in the queries
    that need it (the paired sums of ``variant_deltas``).

    With ``comments`` every view and column carries its description
    (``analytics.views.comment_views``: ``FROM describe_view('card_stats')``), as the
    SQL shells want it; without (the default, for callers that only compute: the
    report, the dashboard's pages, a notebook) the views are the same, opened about
    twice as fast, since commenting binds every view. ``paired`` is passed to
    ``register_metric_views`` (by default, with ``cached``, what the spec says:
    ``_seed_pairing``); ``datasets`` to ``create_base_views``. Raises ``NoResultsError`` if the
    experiment has no finished shards, ``DamagedResultsError`` if one does not
    match the manifest.
    """
    experiment_dir = results_path(experiment_dir)
    if paired is None and cached:
        paired = _seed_pairing(experiment_dir)
    con = _connect(experiment_files([experiment_dir]), metrics=metrics,
                   cached_counts=experiment_dir if cached else None, paired=paired, datasets=datasets,
                   write_cache=write_cache, described=game_infos([experiment_dir]) if comments else None)
    register_tuning_tables(con, experiment_dir)  # a tuning run's trials tables (cardlab tune); else nothing
    return con


def _seed_pairing(experiment_dir: ResultsPath) -> bool | None:
    """The default ``paired``: False (no seed-matched games to look for: skip the pairing)
    when the spec says the variants were not played on the baseline's seeds, else None
    (find them in the data), also without a readable spec."""
    try:
        return None if read_spec(experiment_dir).get("paired_seeds") else False
    except AnalyticsError:
        return None


def open_results_catalog(results_root: ResultsPath | str, *, metrics: bool = True,
                         datasets: bool = False, comments: bool = False) -> duckdb.DuckDBPyConnection:
    """Like ``open_catalog``, over every experiment under ``results_root`` that has finished shards.

    The views hold all of them; the ``experiment`` column tells them apart. The
    count views are computed from the rows (no per-experiment cache to sum).
    Raises ``NoResultsError`` if there is none.
    """
    folders = [folder for folder in list_experiments(results_root) if read_manifest(folder)]
    if not folders:
        raise NoResultsError(f"{results_root}: no experiment with finished shards; run `cardlab run` first")
    return _connect(experiment_files(folders), metrics=metrics, cached_counts=None, paired=None, datasets=datasets,
                    described=game_infos(folders) if comments else None)
