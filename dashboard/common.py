"""What every dashboard page shares: the results folder, the chosen experiment,
and cached calls into ``analytics``.

Every loader is ``st.cache_data``-cached on (experiment folder, results
version, arguments): ``analytics.catalog.experiment_version`` changes when a
shard finishes, so a page never shows stale numbers and otherwise a rerun
(every widget change) reads nothing. All aggregation happens in DuckDB
(through ``analytics``), on the per-shard cached counts where the metric
allows, so pages stay responsive on millions of games.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import duckdb
import polars as pl
import streamlit as st

from analytics import explore, metrics
from analytics.catalog import AnalyticsError, experiment_version, list_experiments, open_catalog, read_spec
from analytics.replay import ReplayTrace, replay_game
from analytics.report import Report, build_report
from analytics.sql import open_confined_catalog, open_confined_results_catalog, read_only_query
from workers.location import ResultsPath, results_path

RUN_HINT = "cardlab run experiments/divvy_baseline.toml"
EXPERIMENT_KEY = "experiment"
T = TypeVar("T")


def percent_column(label: str) -> Any:
    """A table column shown as a percentage under ``label``."""
    return st.column_config.NumberColumn(label, format="percent")


# Rates and their interval bounds as the pages' tables name them (a column a
# table lacks is ignored), so every page shows them alike.
RATE_COLUMNS = {"win_rate": percent_column("win rate"), "ci_low": percent_column("95% low"),
                "ci_high": percent_column("95% high"), "win_rate_low": percent_column("95% low"),
                "win_rate_high": percent_column("95% high"), "low": percent_column("95% low"),
                "high": percent_column("95% high"), "expected": percent_column("expected"),
                "share": percent_column("share"), "variant_mean": percent_column("rung mean"),
                "deviation": percent_column("minus the mean")}


def results_root() -> ResultsPath:
    """The results folder (or ``s3://`` prefix): ``$CARDLAB_RESULTS`` or ``results`` in the current directory."""
    return results_path(os.environ.get("CARDLAB_RESULTS") or "results")


def experiment_names() -> list[str]:
    """Names of the experiments under the results folder."""
    return [path.name for path in list_experiments(results_root())]


def experiment_picker() -> None:
    """The sidebar's experiment box (shared by every page, keyed ``experiment``);
    ``?experiment=NAME`` in the address chooses the first one shown."""
    names = experiment_names()
    if not names:
        return
    wanted = st.query_params.get(EXPERIMENT_KEY)
    if EXPERIMENT_KEY not in st.session_state and wanted in names:
        st.session_state[EXPERIMENT_KEY] = wanted  # a link such as /cards?experiment=NAME
    if st.session_state.get(EXPERIMENT_KEY) not in names:
        st.session_state[EXPERIMENT_KEY] = names[0]
    st.sidebar.selectbox("Experiment", names, key=EXPERIMENT_KEY)


def require_experiment() -> ResultsPath:
    """The chosen experiment's folder; without any experiment, say what to run and stop the page."""
    names = experiment_names()
    root = results_root()
    if not names:
        st.info(f"No experiments in `{root}` yet. Run `{RUN_HINT}` to make one, then reload this page.")
        st.stop()
    name = st.session_state.get(EXPERIMENT_KEY)
    return root / str(name if name in names else names[0])


def version(folder: ResultsPath) -> int:
    """The results version of ``folder`` (cache key part)."""
    return experiment_version(folder)


def _paired(folder: str) -> bool | None:
    return None if read_spec(results_path(folder)).get("paired_seeds") else False


@dataclass
class SharedCatalog:
    """One open catalog of an experiment, shared by every session, one query at a time."""

    con: duckdb.DuckDBPyConnection
    lock: threading.Lock


@st.cache_resource(show_spinner="Opening the results...", max_entries=8)
def _shared_catalog(folder: str, results_version: int) -> SharedCatalog:
    # Opening a catalog binds every metric view over every shard's files
    # (about a second on a 1,000,000-game experiment), so it is done once per
    # results version, not once per query. The count tables are TEMP tables of
    # this connection, so queries share it (under the lock) rather than cursors.
    return SharedCatalog(open_catalog(results_path(folder), cached=True, paired=_paired(folder)), threading.Lock())


def with_catalog(folder: str, use: Callable[[duckdb.DuckDBPyConnection], T]) -> T:
    """``use(con)`` on the experiment's catalog (cached per-shard counts), opened once per results version."""
    shared = _shared_catalog(folder, version(results_path(folder)))
    with shared.lock:
        return use(shared.con)


@st.cache_data(show_spinner="Reading results...", max_entries=16)
def load_report(folder: str, results_version: int) -> Report:
    """``analytics.report.build_report`` of ``folder``: every metric view, cached per results version."""
    return build_report(results_path(folder))


@st.cache_data(show_spinner="Listing experiments...", ttl=2)
def load_overview(root: str) -> pl.DataFrame:
    """``analytics.explore.experiment_overview`` (cached for 2 s, so running experiments move on)."""
    return explore.experiment_overview(results_path(root))


QUERIES: dict[str, Callable[..., pl.DataFrame]] = {
    "win_rate_by_game_column": explore.win_rate_by_game_column,
    "sweep_response": explore.sweep_response,
    "run_ends": explore.run_ends,
    "variant_delta_intervals": explore.variant_delta_intervals,
    "games_with_seed": explore.games_with_seed,
    "card_stats": metrics.card_stats,
}
"""The analytics functions ``load`` may call, by name."""


@st.cache_data(show_spinner="Computing...", max_entries=128)
def _load(folder: str, results_version: int, name: str, arguments: tuple[Any, ...]) -> pl.DataFrame:
    return with_catalog(folder, lambda con: QUERIES[name](con, *arguments))


def load(folder: ResultsPath, name: str, *arguments: Any) -> pl.DataFrame:
    """``QUERIES[name](con, *arguments)`` on the experiment in ``folder``, cached per results version."""
    return _load(str(folder), version(folder), name, arguments)


@st.cache_resource(show_spinner="Opening the results...", max_entries=8)
def _confined_catalog(folder: str, results_version: int) -> SharedCatalog:
    # The SQL page's connection, opened once per results version like the
    # catalog above. It is confined (analytics.sql.confine: nothing can be
    # created, attached or set on it), so no query can change what another
    # session's query sees.
    return SharedCatalog(open_confined_catalog(results_path(folder), paired=_paired(folder)), threading.Lock())


@st.cache_data(show_spinner="Running the query...", max_entries=64)
def _query(folder: str, results_version: int, query: str, max_rows: int) -> tuple[pl.DataFrame, int]:
    shared = _confined_catalog(folder, results_version)
    with shared.lock:
        return read_only_query(shared.con, query, max_rows)


def query(folder: ResultsPath, text: str, max_rows: int) -> tuple[pl.DataFrame, int]:
    """``analytics.sql.read_only_query`` on the experiment's confined catalog (every view, nothing
    else readable, nothing writable), cached per results version."""
    return _query(str(folder), version(folder), text, max_rows)


@st.cache_data(show_spinner="Running the query...", max_entries=64, ttl=2)
def _query_all(root: str, query: str, max_rows: int) -> tuple[pl.DataFrame, int]:
    con = open_confined_results_catalog(results_path(root))
    try:
        return read_only_query(con, query, max_rows)
    finally:
        con.close()


def query_all(text: str, max_rows: int) -> tuple[pl.DataFrame, int]:
    """As ``query``, over every experiment of the results folder (cached for 2 s, as the overview)."""
    return _query_all(str(results_root()), text, max_rows)


@st.cache_data(show_spinner="Replaying the game...", max_entries=32)
def _replay(folder: str, results_version: int, variant: str, n_players: int, game_index: int) -> ReplayTrace:
    return replay_game(results_path(folder), variant, n_players, game_index)


def replay(folder: ResultsPath, variant: str, n_players: int, game_index: int) -> ReplayTrace:
    """``analytics.replay.replay_game``, cached."""
    return _replay(str(folder), version(folder), variant, n_players, game_index)


@st.cache_data(max_entries=64)
def _games_columns(folder: str, results_version: int) -> list[str]:
    return with_catalog(folder, explore.games_columns)


def games_columns(folder: ResultsPath) -> list[str]:
    """The columns of the experiment's ``games`` table (game columns such as ``map``, sweep columns)."""
    return _games_columns(str(folder), version(folder))


def open_report(folder: ResultsPath) -> Report:
    """The experiment's report (cached), or a warning and a stopped page when it has no results."""
    try:
        return load_report(str(folder), version(folder))
    except AnalyticsError as error:
        st.warning(f"{error}")
        st.stop()


def header(report: Report) -> None:
    """One caption line: game, games played, shards, folder."""
    st.caption(
        f"Experiment **{report.experiment}** · game **{report.game}** · {report.games_played:,} games played"
        + (f" of {report.games_planned:,} planned" if report.games_planned else "")
        + f" · {report.shards_finished} shards finished · `{report.folder}`")


def pick(label: str, options: Sequence[Any], *, key: str | None = None, container: Any = st) -> Any:
    """A select box over ``options`` (first one preselected); the only option when there is just one."""
    values = list(options)
    if not values:
        return None
    if len(values) == 1:
        return values[0]
    return container.selectbox(label, values, index=0, key=key)


def player_counts(frame: pl.DataFrame) -> list[int]:
    """The sorted distinct ``n_players`` of ``frame``."""
    return [int(value) for value in frame["n_players"].unique().sort().to_list()]


def variants_of(report: Report) -> list[str]:
    """The report's variants, baseline first."""
    return [str(name) for name in report.variants.filter(pl.col("games") > 0)["variant"].to_list()]
