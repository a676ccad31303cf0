"""What every dashboard page shares: the results folder, the chosen experiment,
and cached calls into ``analytics``.

Every loader is ``st.cache_data``-cached on (experiment folder, results
version, arguments): the version (``version``) changes when a shard finishes
and when a finished shard's file changes on disk (its size, modification or
change time), so a page never shows stale numbers nor numbers of a damaged
shard, and otherwise a rerun (every widget change) reads nothing. All aggregation happens in DuckDB
(through ``analytics``), on the per-shard cached counts where the metric
allows, so pages stay responsive on millions of games.

Every filter a page offers is a widget kept in the page address
(``choose``, ``number_filter``, ``text_filter``, ``toggle_filter``: the
experiment, variant, player count, agent, card... appear as
``?experiment=...&variant=...``), so a view can be shared as a link; every
table is shown with human column names (``table``); a running experiment
refreshes itself (``refresh_while_running``).
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
from streamlit.runtime.scriptrunner import get_script_run_ctx

from analytics import explore, metrics
from analytics.catalog import open_catalog
from analytics.changes import faces_frame
from analytics.folders import AnalyticsError, experiment_version, list_experiments, read_spec
from analytics.health import RunHealth, run_health
from analytics.replay import ReplayTrace, replay_game
from analytics.report import Report, build_report, skill_tables
from analytics.sql import open_confined_catalog, open_confined_results_catalog, read_only_query
from analytics.stats import CLUSTER_CAP
from analytics.views.comments import described_columns, described_views
from dataset.integrity import finished_files_identity
from dataset.location import ResultsPath, results_path

RUN_HINT = "cardlab run experiments/divvy_baseline.toml"
EXPERIMENT_KEY = "experiment"
OPEN_EXPERIMENT_KEY = "open_experiment"
"""Set by a page (then ``st.switch_page``) to open that experiment; read once by ``experiment_picker``."""
CHOSEN_KEY = "_experiment_chosen"
"""The session's chosen experiment, kept apart from the picker's own value, which Streamlit drops
when a page switches to another."""
T = TypeVar("T")


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
    opened = st.session_state.pop(OPEN_EXPERIMENT_KEY, None)
    if opened in names:  # a page asked to open this experiment (the New run page, a finished what-if)
        st.session_state[EXPERIMENT_KEY] = opened
    elif EXPERIMENT_KEY not in st.session_state:
        # A link such as /cards?experiment=NAME, else the session's choice: Streamlit forgets a
        # widget's value when a page switches to another (st.switch_page, a page link), but not
        # a plain session value.
        st.session_state[EXPERIMENT_KEY] = wanted if wanted in names else st.session_state.get(CHOSEN_KEY)
    if st.session_state.get(EXPERIMENT_KEY) not in names:
        st.session_state[EXPERIMENT_KEY] = names[0]
    st.sidebar.selectbox("Experiment", names, key=EXPERIMENT_KEY)
    st.session_state[CHOSEN_KEY] = st.session_state[EXPERIMENT_KEY]
    st.query_params[EXPERIMENT_KEY] = str(st.session_state[EXPERIMENT_KEY])


def require_experiment() -> ResultsPath:
    """The chosen experiment's folder; without any experiment, say what to run and stop the page."""
    names = experiment_names()
    root = results_root()
    if not names:
        st.info(f"No experiments in `{root}` yet. Run `{RUN_HINT}` to make one, then reload this page.")
        st.stop()
    name = st.session_state.get(EXPERIMENT_KEY)
    return root / str(name if name in names else names[0])


def require_experiment_if_any() -> ResultsPath | None:
    """The chosen experiment's folder, or None when the results folder holds none."""
    names = experiment_names()
    if not names:
        return None
    name = st.session_state.get(EXPERIMENT_KEY)
    return results_root() / str(name if name in names else names[0])


ResultsVersion = tuple[int, str]
"""What the cached loaders are keyed by, besides their arguments (``version``)."""
IDENTITIES_KEY = "_finished_files_identities"


def version(folder: ResultsPath) -> ResultsVersion:
    """The results version of ``folder`` (cache key part): ``experiment_version``, which changes
    when a shard finishes, and the identity of the finished shards' files
    (``dataset.integrity.finished_files_identity``), which changes when one of them is
    rewritten, even with its size and modification time kept. Then nothing is served from a
    cache: the catalog is opened again, and checks every changed file against its manifest
    entry (refusing a damaged experiment in the CLI's one line). The identity is looked at
    once per script run, before the run's first read, not once per loader."""
    return experiment_version(folder), _finished_files_identity(str(folder))


def _finished_files_identity(folder: str) -> str:
    """``finished_files_identity`` of ``folder``, looked at once per script run (page or fragment).
    A run is known by the cursors Streamlit makes anew when each run starts
    (``ScriptRunContext.reset``), held here so that no later object can take their place."""
    context = get_script_run_ctx()
    if context is None:  # outside a script run: nothing to share
        return finished_files_identity(results_path(folder))
    seen: tuple[object, dict[str, str]] | None = st.session_state.get(IDENTITIES_KEY)
    if seen is None or seen[0] is not context.cursors:
        seen = (context.cursors, {})
        st.session_state[IDENTITIES_KEY] = seen
    if folder not in seen[1]:
        seen[1][folder] = finished_files_identity(results_path(folder))
    return seen[1][folder]


@dataclass
class SharedCatalog:
    """One open catalog of an experiment, shared by every session, one query at a time."""

    con: duckdb.DuckDBPyConnection
    lock: threading.Lock


@st.cache_resource(show_spinner="Opening the results...", max_entries=8)
def _shared_catalog(folder: str, results_version: ResultsVersion) -> SharedCatalog:
    # Opening a catalog binds every metric view over every shard's files
    # (about a second on a 1,000,000-game experiment), so it is done once per
    # results version, not once per query. The count tables are TEMP tables of
    # this connection, so queries share it (under the lock) rather than cursors.
    # The pages compute from it and show no view's description: no comments.
    return SharedCatalog(open_catalog(results_path(folder)), threading.Lock())


def with_catalog(folder: str, use: Callable[[duckdb.DuckDBPyConnection], T]) -> T:
    """``use(con)`` on the experiment's catalog (cached per-shard counts), opened once per results version."""
    shared = _shared_catalog(folder, version(results_path(folder)))
    with shared.lock:
        return use(shared.con)


@st.cache_data(show_spinner="Reading results...", max_entries=16)
def load_report(folder: str, results_version: ResultsVersion) -> Report:
    """``analytics.report.build_report`` of ``folder`` on the shared catalog (``with_catalog``):
    every metric view but the skill-ladder tables (only the Skill page reads them,
    ``load_skill_tables``), cached per results version."""
    return with_catalog(folder, lambda con: build_report(results_path(folder), con, skill=False))


@st.cache_data(show_spinner="Reading every game of the ladder...", max_entries=16)
def _skill_tables(folder: str, results_version: ResultsVersion, ratings: bool) -> dict[str, pl.DataFrame]:
    spec = read_spec(results_path(folder))
    return with_catalog(folder, lambda con: skill_tables(con, results_path(folder), spec, ratings=ratings))


def load_skill_tables(folder: ResultsPath, *, ratings: bool) -> dict[str, pl.DataFrame]:
    """``analytics.report.skill_tables`` of the experiment (``SKILL_TABLES`` by name; without
    ``ratings``, all but the ratings and their gaps), cached per results version."""
    return _skill_tables(str(folder), version(folder), ratings)


@st.cache_data(show_spinner=False, max_entries=64)
def _faces(folder: str, results_version: ResultsVersion, variant: str) -> pl.DataFrame:
    return faces_frame(read_spec(results_path(folder)), variant)


def load_faces(folder: ResultsPath, variant: str) -> pl.DataFrame:
    """``analytics.changes.faces_frame``: every card of the experiment's game as its face reads in
    ``variant`` (card, name, kind, text, copies), cached."""
    return _faces(str(folder), version(folder), variant)


@st.cache_data(show_spinner=False, max_entries=16)
def _health(folder: str, results_version: ResultsVersion) -> RunHealth:
    return run_health(results_path(folder))


def load_health(folder: ResultsPath) -> RunHealth:
    """``analytics.health.run_health`` of the experiment, cached per results version."""
    return _health(str(folder), version(folder))


@st.cache_data(show_spinner="Listing experiments...", ttl=2)
def load_overview(root: str) -> pl.DataFrame:
    """``analytics.explore.experiment_overview`` (cached for 2 s, so running experiments move on)."""
    return explore.experiment_overview(results_path(root))


QUERIES: dict[str, Callable[..., pl.DataFrame]] = {
    "win_rate_by_game_column": explore.win_rate_by_game_column,
    "sweep_response": explore.sweep_response,
    "sweep_agent_response": explore.sweep_agent_response,
    "run_ends": explore.run_ends,
    "games_with_seed": explore.games_with_seed,
    "card_stats": metrics.card_stats,
    "card_turns": explore.card_turns,
    "card_faction_stats": explore.card_faction_stats,
    "agent_seat_stats": explore.agent_seat_stats,
    "agent_faction_stats": explore.agent_faction_stats,
    "agent_matchups": explore.agent_matchups,
}
"""The analytics functions ``load`` may call, by name."""


@st.cache_data(show_spinner="Computing...", max_entries=128)
def _load(folder: str, results_version: ResultsVersion, name: str, arguments: tuple[Any, ...]) -> pl.DataFrame:
    return with_catalog(folder, lambda con: QUERIES[name](con, *arguments))


def load(folder: ResultsPath, name: str, *arguments: Any) -> pl.DataFrame:
    """``QUERIES[name](con, *arguments)`` on the experiment in ``folder``, cached per results version."""
    return _load(str(folder), version(folder), name, arguments)


@st.cache_data(show_spinner="Computing...", max_entries=32)
def _agent_games(folder: str, results_version: ResultsVersion, agent: str) -> tuple[pl.DataFrame, ...]:
    return with_catalog(folder, lambda con: explore.agent_game_summary(con, agent))


def load_agent_games(folder: ResultsPath, agent: str) -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame]:
    """``analytics.explore.agent_game_summary`` of ``agent``: (lengths, turns histogram, end
    reasons) of the games it sat in, cached per results version."""
    lengths, turns, ends = _agent_games(str(folder), version(folder), agent)
    return lengths, turns, ends


@st.cache_resource(show_spinner="Opening the results...", max_entries=8)
def _confined_catalog(folder: str, results_version: ResultsVersion) -> SharedCatalog:
    # The SQL page's connection, opened once per results version like the
    # catalog above. It is confined (analytics.sql.confine: nothing can be
    # created, attached or set on it), so no query can change what another
    # session's query sees.
    return SharedCatalog(open_confined_catalog(results_path(folder)), threading.Lock())


@st.cache_data(show_spinner="Running the query...", max_entries=64)
def _query(folder: str, results_version: ResultsVersion, query: str, max_rows: int) -> tuple[pl.DataFrame, int]:
    shared = _confined_catalog(folder, results_version)
    with shared.lock:
        return read_only_query(shared.con, query, max_rows)


def query(folder: ResultsPath, text: str, max_rows: int) -> tuple[pl.DataFrame, int]:
    """``analytics.sql.read_only_query`` on the experiment's confined catalog (every view, nothing
    else readable, nothing writable), cached per results version."""
    return _query(str(folder), version(folder), text, max_rows)


@st.cache_data(show_spinner=False, max_entries=16)
def _views(folder: str, results_version: ResultsVersion) -> tuple[pl.DataFrame, pl.DataFrame]:
    shared = _confined_catalog(folder, results_version)
    with shared.lock:
        views, columns = described_views(shared.con), described_columns(shared.con)
    return (pl.DataFrame(views, schema=["view", "description"], orient="row"),
            pl.DataFrame(columns, schema=["view", "column", "type", "description"], orient="row"))


def views_and_columns(folder: ResultsPath) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The SQL page's schema: (view, description) of every view of the experiment's confined
    catalog, and (view, column, type, description) of every column, as DuckDB's comments hold them."""
    return _views(str(folder), version(folder))


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
def _replay(folder: str, results_version: ResultsVersion, variant: str, n_players: int, game_index: int) -> ReplayTrace:
    return replay_game(results_path(folder), variant, n_players, game_index)


def replay(folder: ResultsPath, variant: str, n_players: int, game_index: int) -> ReplayTrace:
    """``analytics.replay.replay_game``, cached."""
    return _replay(str(folder), version(folder), variant, n_players, game_index)


@st.cache_data(max_entries=64)
def _games_columns(folder: str, results_version: ResultsVersion) -> list[str]:
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


@dataclass(frozen=True)
class Page:
    """What every experiment page starts from: the chosen experiment's folder and report."""

    folder: ResultsPath
    report: Report


def open_page(title: str) -> Page:
    """The opening every experiment page shares: its title, the chosen experiment (or what to
    run when there is none: the page stops), its report (or a warning when it has no finished
    shard: the page stops) and the header line (``header``)."""
    st.title(title)
    folder = require_experiment()
    report = open_report(folder)
    header(report)
    return Page(folder, report)


def pick(label: str, options: Sequence[Any], *, key: str | None = None, container: Any = st) -> Any:
    """A select box over ``options`` (first one preselected); the only option when there is just one.
    With a ``key``, the choice is kept in the page address (``choose``)."""
    if key is not None:
        return choose(label, options, key=key, container=container)
    values = list(options)
    if not values:
        return None
    if len(values) == 1:
        return values[0]
    return container.selectbox(label, values, index=0)


WRITTEN_KEY = "_address_written"
"""Session state: what this session last wrote into the address, by key (``_keep_in_address``)."""


def _from_outside(key: str) -> str | None:
    """The address's value of ``key`` when it came from outside this session's last write: a
    shared link on the session's first run, or a link from another page (a finding's evidence,
    a card row) that names a value this session did not write. None otherwise (then the
    widget's own value stands: the user changed it since the address was written)."""
    wanted = st.query_params.get(key)
    written: dict[str, str] = st.session_state.setdefault(WRITTEN_KEY, {})
    if wanted is None or (key in st.session_state and written.get(key) == wanted):
        return None
    return wanted


def _keep_in_address(key: str, text: str | None) -> None:
    """Write ``key=text`` into the address (remove ``key`` for None) and remember it was this session's write."""
    written: dict[str, str] = st.session_state.setdefault(WRITTEN_KEY, {})
    if text is None:
        if key in st.query_params:
            del st.query_params[key]
        written.pop(key, None)
    else:
        st.query_params[key] = text
        written[key] = text


def _from_address(key: str, values: Sequence[Any], default: Any) -> None:
    """Seed the widget ``key`` from ``?key=...`` when the address came from outside
    (``_from_outside``), and keep it valid."""
    texts = [str(value) for value in values]
    wanted = _from_outside(key)
    if wanted in texts:
        st.session_state[key] = values[texts.index(wanted)]
    elif key not in st.session_state or st.session_state[key] not in values:
        st.session_state[key] = default


def choose(label: str, options: Sequence[Any], *, key: str, container: Any = st, default: Any = None,
           format_func: Callable[[Any], str] = str, help: str | None = None, radio: bool = False) -> Any:
    """A select box (``radio``: horizontal radio buttons) whose choice is kept in the page
    address as ``?key=value`` (so a view can be shared as a link): read from the address when
    it came from outside (a shared link, a link from another page), written back on every
    run. ``default`` (else the first option) when the address names nothing valid. With a
    single option, no box: that option (still written to the address)."""
    values = list(options)
    if not values:
        return None
    fallback = default if default in values else values[0]
    if len(values) == 1:
        _keep_in_address(key, str(values[0]))
        return values[0]
    _from_address(key, values, fallback)
    if radio:
        value = container.radio(label, values, key=key, format_func=format_func, help=help, horizontal=True)
    else:
        value = container.selectbox(label, values, key=key, format_func=format_func, help=help)
    _keep_in_address(key, str(value))
    return value


def number_filter(label: str, *, key: str, container: Any = st, minimum: int = 0, maximum: int | None = None,
                  step: int = 10, default: int | None = None, help: str | None = None) -> int:
    """A whole-number input kept in the page address (``?key=N``), from ``minimum`` to ``maximum``
    (no upper bound when None), ``default`` (else ``minimum``) until changed; a number outside
    them in the address gives the default."""
    start = minimum if default is None else max(minimum, default if maximum is None else min(default, maximum))
    wanted = _from_outside(key)
    if wanted is not None:
        fits = wanted.isdigit() and int(wanted) >= minimum and (maximum is None or int(wanted) <= maximum)
        st.session_state[key] = int(wanted) if fits else start
    elif key not in st.session_state:
        st.session_state[key] = start
    value = int(container.number_input(label, min_value=minimum, max_value=maximum, step=step, key=key, help=help))
    _keep_in_address(key, str(value))
    return value


def text_filter(label: str, *, key: str, container: Any = st, help: str | None = None) -> str:
    """A text input kept in the page address (``?key=text``; nothing when empty)."""
    wanted = _from_outside(key)
    if wanted is not None or key not in st.session_state:
        st.session_state[key] = wanted or ""
    value = str(container.text_input(label, key=key, help=help))
    _keep_in_address(key, value or None)
    return value


def toggle_filter(label: str, *, key: str, container: Any = st, help: str | None = None,
                  default: bool = False) -> bool:
    """A toggle kept in the page address (``?key=1`` when on, ``?key=0`` when off against a
    ``default`` of on)."""
    wanted = _from_outside(key)
    if wanted is not None:
        st.session_state[key] = wanted == "1"
    elif key not in st.session_state:
        st.session_state[key] = default
    value = bool(container.toggle(label, key=key, help=help))
    _keep_in_address(key, "1" if value else ("0" if default else None))
    return value


def player_counts(frame: pl.DataFrame) -> list[int]:
    """The sorted distinct ``n_players`` of ``frame``."""
    return [int(value) for value in frame["n_players"].unique().sort().to_list()]


def variants_of(report: Report) -> list[str]:
    """The report's variants with games, baseline first."""
    return [str(name) for name in report.variants.filter(pl.col("games") > 0)["variant"].to_list()]


def variant_picker(report: Report, *, container: Any = st, label: str = "Variant", key: str = "variant",
                   options: Sequence[str] | None = None) -> str:
    """The variant box (kept in the address as ``?variant=``), each variant shown with its
    label (a sweep grid point with its swept values)."""
    labels = report.labels
    chosen = choose(label, list(options) if options is not None else variants_of(report), key=key,
                    container=container, format_func=lambda name: labels.get(name, name))
    return str(chosen)


def players_picker(counts: Sequence[int], *, container: Any = st, cooperative: bool = False,
                   key: str = "players") -> int:
    """The player-count box (kept in the address as ``?players=``)."""
    chosen = choose("Heroes in the party" if cooperative else "Players", list(counts), key=key, container=container)
    return int(chosen) if chosen is not None else 0


ALL_AGENTS = "(every agent, pooled)"
"""The agent choice of the Win rates and Game length pages that pools every seat (the report's tables)."""


def lineup_agents(report: Report, variant: str, n_players: int) -> list[str]:
    """The agents seated in ``variant`` at ``n_players``, most seat-games first (ties: the
    spec's order): the first is the default of every agent filter (card, seat and faction
    tables are per agent, never a pool of different players)."""
    agents = report.agent_stats.filter((pl.col("variant") == variant) & (pl.col("n_players") == n_players))
    seat_games = {str(row["agent"]): int(row["seat_games"]) for row in agents.iter_rows(named=True)}
    listed = [str(agent) for agent in report.spec.get("agents", [])]
    return sorted(seat_games, key=lambda agent: (-seat_games[agent], listed.index(agent) if agent in listed
                                                 else len(listed), agent))


def agent_picker(report: Report, variant: str, n_players: int, *, container: Any = st, key: str = "agent",
                 label: str = "Agent (cards held by)",
                 help: str = "Card numbers are per agent: a strong and a weak agent are never pooled.",
                 pooled: bool = False) -> str:
    """The agent box (kept in the address as ``?agent=``): the tables below are that agent's
    seats only. Default: the most-played agent of the lineup (``lineup_agents``). With
    ``pooled``, a last choice ``ALL_AGENTS`` (when the lineup has several agents)."""
    agents = lineup_agents(report, variant, n_players)
    options = [*agents, ALL_AGENTS] if pooled and len(agents) > 1 else agents
    chosen = choose(label, options, key=key, container=container, help=help)
    return str(chosen) if chosen is not None else ""


@dataclass(frozen=True)
class Lineup:
    """What a page shows: one variant, one player count and one agent of its lineup."""

    variant: str
    n_players: int
    agent: str
    every_seat: bool
    """The choice covers every seat (the pooled choice, or an agent that holds them all): the
    report's all-seat tables are then the ones to show."""


def lineup_filter(report: Report, rows: pl.DataFrame, *, variant_label: str = "Variant",
                  agent_label: str = "Agent (cards held by)",
                  agent_help: str = "Card numbers are per agent: a strong and a weak agent are never pooled.",
                  pooled: bool = False) -> Lineup:
    """The variant, player-count and agent boxes side by side (each kept in the page address),
    the player counts those of ``rows`` (a metric table) in the chosen variant, the agent the
    most-played of the lineup by default (``agent_picker``; ``pooled`` adds ``ALL_AGENTS``)."""
    left, middle, right = st.columns(3)
    variant = variant_picker(report, container=left, label=variant_label)
    n_players = players_picker(player_counts(rows.filter(pl.col("variant") == variant)), container=middle,
                               cooperative=report.cooperative)
    agent = agent_picker(report, variant, n_players, container=right, label=agent_label, help=agent_help,
                         pooled=pooled)
    every_seat = agent == ALL_AGENTS or lineup_agents(report, variant, n_players) == [agent]
    return Lineup(variant, n_players, agent, every_seat)


REFRESH_SECONDS = 5
"""How often a page of a running experiment checks for newly finished shards."""


def refresh_while_running(folder: ResultsPath) -> None:
    """While ``folder``'s experiment is being run, check every ``REFRESH_SECONDS`` whether a
    shard finished and rerun the page when one did (a fragment with ``run_every``)."""
    if not explore.is_running(folder):
        return
    shown = version(folder)

    @st.fragment(run_every=REFRESH_SECONDS)
    def watch() -> None:
        if version(folder) != shown:
            st.rerun()
        st.caption(f"Running: this page refreshes itself when a shard finishes (checked every {REFRESH_SECONDS} s).")

    watch()


# Human names of the columns that metric tables share (the others: the name with spaces).
COLUMN_NAMES: dict[str, str] = {
    "experiment": "experiment", "variant": "variant", "n_players": "players", "seat": "seat", "agent": "agent",
    "faction": "faction", "opponent": "opponent", "card": "card", "games": "games", "seat_games": "seat-games",
    "wins": "wins", "draws": "draws", "win_rate": "win rate", "win_rate_low": "95% low",
    "win_rate_high": "95% high", "win_rate_effective_n": "effective n", "win_share": "share of wins",
    "win_share_low": "share 95% low", "win_share_high": "share 95% high", "fair_share": "fair share",
    "total_wins": "wins (all seats)", "expected": "expected", "outside_band": "outside the band?",
    "surely_outside": "surely outside", "games_in_hand": "seat-games in hand", "wins_in_hand": "wins in hand",
    "gih_win_rate": "GIH win rate", "gih_win_rate_low": "GIH 95% low", "gih_win_rate_high": "GIH 95% high",
    "gih_win_rate_effective_n": "GIH effective n", "games_not_seen": "seat-games not seen",
    "wins_not_seen": "wins not seen", "gns_win_rate": "GNS win rate", "iwd": "IWD (points)",
    "games_opening": "in opening hand", "oh_win_rate": "OH win rate", "games_drawn_later": "drawn later",
    "gd_win_rate": "GD win rate", "games_played": "seat-games played", "wins_played": "wins when played",
    "played_win_rate": "played win rate", "played_win_rate_low": "played 95% low",
    "played_win_rate_high": "played 95% high", "played_win_rate_effective_n": "played effective n",
    "games_played_in_hand": "played, in hand", "play_rate": "play rate", "play_rate_low": "play rate 95% low",
    "play_rate_high": "play rate 95% high", "play_rate_effective_n": "play rate effective n",
    "games_playable": "seat-games playable", "games_played_when_playable": "played when playable",
    "playable_play_rate": "play rate when playable", "playable_play_rate_low": "when playable 95% low",
    "playable_play_rate_high": "when playable 95% high", "playable_play_rate_effective_n": "when playable eff. n",
    "times_drawn": "times drawn", "times_played": "times played", "times_playable": "steps playable",
    "mean_turn_played": "mean turn played", "card_mean": "agent's card mean", "prior_strength": "prior strength",
    "prior_identified": "prior identified", "card_spread": "cards' spread (sd)",
    "shrunk_win_rate": "shrunk win rate", "z_score": "z-score", "outlier": "outlier", "never_played": "never played",
    "first_played_turn": "first turn played", "value": "value", "series": "series", "share": "share",
    "end_reason": "end reason", "share_low": "share 95% low", "share_high": "share 95% high", "turns": "turns",
    "delta": "difference", "delta_low": "95% low",
    "delta_high": "95% high", "baseline_value": "baseline", "baseline_n": "baseline n", "n": "n",
    "baseline_effective_n": "baseline effective n", "effective_n": "effective n", "q_value": "q (BH)",
    "p_value": "p", "significant": "significant", "family": "family", "key": "what", "metric": "metric",
    "test": "test", "statistic": "statistic", "composition": "composition", "ci_low": "95% low",
    "ci_high": "95% high", "label": "variant", "overrides": "overrides", "low": "95% low", "high": "95% high",
    "variant_mean": "rung mean", "deviation": "minus the mean", "rung": "rung", "sign_flips": "flips sign",
    "direction": "direction", "kind": "kind", "name": "name", "lineup": "agents",
    "decisions_per_game": "decisions per game", "seconds_per_game": "seconds per game",
    "ms_per_decision": "ms per decision", "rules": "rules", "variants": "variants", "outcome": "outcome",
    "times_used": "times used", "uses_per_game": "uses per game", "uses_per_game_low": "uses 95% low",
    "uses_per_game_high": "uses 95% high", "use_rate": "use rate when playable", "use_rate_low": "use rate 95% low",
    "use_rate_high": "use rate 95% high", "use_rate_effective_n": "use rate effective n",
    "games_used": "seat-games used", "used_win_rate": "win rate, used", "used_win_rate_low": "used 95% low",
    "used_win_rate_high": "used 95% high", "used_win_rate_effective_n": "used effective n",
    "games_unused": "seat-games never used", "unused_win_rate": "win rate, never used",
    "unused_win_rate_low": "never used 95% low", "unused_win_rate_high": "never used 95% high",
    "unused_win_rate_effective_n": "never used effective n", "used_effect": "used minus never (points)",
    "passive": "passive", "never_used": "never used",
}

_PERCENT_SUFFIXES = ("_rate", "_rate_low", "_rate_high", "_share", "_share_low", "_share_high")
_PERCENT_NAMES = {"expected", "card_mean", "share", "low", "high", "ci_low", "ci_high", "variant_mean", "spread",
                  "sd", "share_low", "share_high", "min_win_rate", "max_win_rate", "win_rate_with",
                  "win_rate_without", "card_spread", "band", "progress"}
# Differences of two rates: "+12.3" percentage points, as the charts tick them ("12.3%" would
# read as a rate). Those a page knows of (a variant's difference) it names with ``points``.
_POINTS_NAMES = {"iwd", "deviation", "effect", "used_effect"}
POINTS_FORMAT = "%+.1f"
"""The printf format of a difference of rates in a table, in points (``table`` scales it by 100)."""
_COUNT_NAMES = {"games", "wins", "draws", "seat_games", "games_in_hand", "wins_in_hand", "games_not_seen",
                "wins_not_seen", "games_played", "wins_played", "times_drawn", "times_played", "times_playable",
                "games_playable", "games_played_when_playable", "games_played_in_hand", "total_wins", "n",
                "baseline_n", "games_opening", "games_drawn_later", "games_with", "games_without", "wins_with",
                "wins_without", "games_done", "games_planned", "times_used", "games_used", "games_unused",
                "comparisons"}


def column_name(name: str) -> str:
    """The human name of a table column (``COLUMN_NAMES``, else the name with spaces)."""
    return COLUMN_NAMES.get(name, name.replace("_", " "))


def is_count(name: str, dtype: pl.DataType) -> bool:
    """Whether a column holds a count (of games, wins, ...) or a sample size: the names of
    ``_COUNT_NAMES``, integer ``games_...``/``..._games`` columns, and every ``..._n`` column
    (``effective_n``, ``left_n``): an effective n, a float, is read as a sample size too."""
    return dtype.is_numeric() and (name in _COUNT_NAMES or name.endswith("_n") or (
        dtype.is_integer() and (name.startswith("games_") or name.endswith("_games"))))


def points_columns(frame: pl.DataFrame, *, points: Sequence[str] = (), plain: Sequence[str] = ()) -> list[str]:
    """The columns of ``frame`` that hold differences of rates, shown in percentage points:
    ``_POINTS_NAMES`` and those in ``points`` (floats only), not those in ``plain``."""
    return [name for name, dtype in frame.schema.items()
            if dtype.is_float() and name not in plain and (name in points or name in _POINTS_NAMES)]


def column_config(frame: pl.DataFrame, *, percent: Sequence[str] = (), plain: Sequence[str] = (),
                  points: Sequence[str] = (), names: dict[str, str] | None = None) -> dict[str, Any]:
    """A ``column_config`` naming every column of ``frame`` for humans: rates and their bounds
    as percentages (also the columns in ``percent``; not those in ``plain``), differences of
    rates as signed points (``points_columns``: their values must be in points already, as
    ``table`` makes them), counts and sample sizes with thousands separators (``is_count``;
    ``table`` rounds an effective n to a whole number); ``names`` overrides a column's name."""
    config: dict[str, Any] = {}
    in_points = set(points_columns(frame, points=points, plain=plain))
    for name, dtype in frame.schema.items():
        label = (names or {}).get(name) or column_name(name)
        is_percent = name not in plain and (name in percent or (dtype.is_float() and (
            name.endswith(_PERCENT_SUFFIXES) or name in _PERCENT_NAMES)))
        if name in in_points:
            config[name] = st.column_config.NumberColumn(label if "points" in label else f"{label} (points)",
                                                         format=POINTS_FORMAT)
        elif is_percent:
            config[name] = st.column_config.NumberColumn(label, format="percent")
        elif is_count(name, dtype):
            config[name] = st.column_config.NumberColumn(label, format="localized")
        elif dtype.is_float():
            config[name] = st.column_config.NumberColumn(label, format="%.3g")
        else:
            config[name] = st.column_config.Column(label)
    return config


RATE_TRIALS = {"win_rate": "seat_games", "gih_win_rate": "games_in_hand", "played_win_rate": "games_played",
                "play_rate": "games_in_hand", "playable_play_rate": "games_playable"}
"""A clustered rate's trials column, where its effective n is capped (``readable_intervals``)."""


def readable_intervals(frame: pl.DataFrame) -> pl.DataFrame:
    """``frame`` with what its intervals cannot say left blank: the interval of a rate
    without a sample (no seat-game in hand: the SQL's (0, 1)), and the effective n of
    a rate whose games show no spread (``analytics.stats.shows_no_spread``): a cap (100
    times the seat-games), not a sample size to read."""
    blanked = []
    for column in frame.columns:
        rate = column.removesuffix("_effective_n")
        trials = RATE_TRIALS.get(rate, "")
        if rate != column and trials in frame.columns:
            blanked.append(pl.when(pl.col(column) >= CLUSTER_CAP * pl.col(trials)).then(None)
                           .otherwise(pl.col(column)).alias(column))
        rate = column.removesuffix("_low")
        if rate != column and rate in frame.columns and f"{rate}_high" in frame.columns:
            blanked += [pl.when(pl.col(rate).is_null()).then(None).otherwise(pl.col(bound)).alias(bound)
                        for bound in (column, f"{rate}_high")]
    return frame.with_columns(blanked) if blanked else frame


NAME_COLUMNS = ("name", "card", "what", "label", "key", "agent", "faction", "seat")
"""Columns that say what a row is: the first of them present leads the table, pinned, so that
a wide table scrolled sideways still says which row is which."""
DIFFERENCE_COLUMNS = ("delta", "delta_low", "delta_high", "q_value", "p_value", "significant")
"""The columns of a comparison a reader looks for first: right after the row's name, never
behind a sideways scroll."""


def column_order(frame: pl.DataFrame, *, lead: Sequence[str] = ()) -> list[str]:
    """The order a table shows ``frame``'s columns in: ``lead`` (else the first of
    ``NAME_COLUMNS`` present), then ``DIFFERENCE_COLUMNS``, then the rest as they are."""
    first = [name for name in lead if name in frame.columns] or next(
        ([name] for name in NAME_COLUMNS if name in frame.columns), [])
    differences = [name for name in DIFFERENCE_COLUMNS if name in frame.columns and name not in first]
    return [*first, *differences, *[name for name in frame.columns if name not in first and name not in differences]]


def table(frame: pl.DataFrame, *, percent: Sequence[str] = (), plain: Sequence[str] = (),
          points: Sequence[str] = (), names: dict[str, str] | None = None, drop: Sequence[str] = ("experiment",),
          lead: Sequence[str] = (), focus: tuple[str, Any] | None = None, **options: Any) -> Any:
    """``st.dataframe`` of ``frame`` without ``drop`` columns, every column with a human name
    (``column_config``), differences of rates times 100 (in points, ``points_columns``), a
    sample size that is a float (an effective n) rounded to a whole number like the counts
    beside it, and every missing value blank: where an interval says nothing
    (``readable_intervals``), an unbounded band end, the rung of a head-to-head variant.
    The row's name leads, pinned, and the differences and q-values come next (``column_order``:
    ``lead`` names the leading columns). With ``focus`` (column, value), the first row holding
    that value is selected when the table opens: the row a link (a finding's evidence) points
    at. ``options`` go to ``st.dataframe``."""
    shown = readable_intervals(frame.drop([name for name in drop if name in frame.columns]))
    # A table column can neither scale what it shows (its "percent" format does, but adds "%")
    # nor round it (a step truncates: 199,999.99 would read 199,999), so both happen here.
    sizes = [name for name, dtype in shown.schema.items() if dtype.is_float() and is_count(name, dtype)]
    shown = shown.with_columns(pl.col(points_columns(shown, points=points, plain=plain)) * 100,
                               pl.col(sizes).round(0))
    order = column_order(shown, lead=lead)
    config = column_config(shown, percent=percent, plain=plain, points=points, names=names)
    pinned = [name for name in order[:len(lead) or 1] if name in lead or name in NAME_COLUMNS]
    for name in pinned:
        config[name]["pinned"] = True
    options.setdefault("placeholder", "")  # Streamlit shows a missing value as a grey "None" otherwise
    options.setdefault("column_order", order)
    if focus is not None and focus[0] in shown.columns:
        rows = [index for index, value in enumerate(shown[focus[0]].to_list()) if str(value) == str(focus[1])]
        if rows:
            options.setdefault("on_select", "rerun")
            options.setdefault("selection_mode", "single-row")
            options["selection_default"] = {"selection": {"rows": rows[:1], "columns": []}}
    return st.dataframe(shown, hide_index=True, column_config=config, **options)
