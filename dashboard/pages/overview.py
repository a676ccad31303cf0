"""Overview page: pick an experiment, see win rates by seat and by agent, and the card table.

Thin on purpose: every number comes from ``analytics`` (``build_report``, and
``card_table`` for one agent's seats); this page only picks rows to display
and lays them out. Results are cached per experiment folder and results
version, so reruns (every widget change) cost nothing until a shard finishes.
"""

from __future__ import annotations

import os
from pathlib import Path

import polars as pl
import streamlit as st

from analytics.catalog import AnalyticsError, experiment_version, list_experiments, open_catalog
from analytics.metrics import card_table
from analytics.report import Report, build_report
from dashboard.charts import win_rate_chart

RUN_HINT = "cardlab run experiments/divvy_baseline.toml"


@st.cache_data(show_spinner="Reading results...", max_entries=16)
def load_report(folder: str, version: int) -> Report:
    """``build_report`` of ``folder``, cached per (folder, results version).

    ``version`` (``analytics.catalog.experiment_version``: the newest manifest
    mtime) is only part of the cache key: a finished shard changes it, so the
    page never shows stale numbers, and otherwise reruns cost nothing.
    """
    return build_report(Path(folder))


@st.cache_data(show_spinner="Reading cards...", max_entries=64)
def load_card_table(folder: str, version: int, agent: str) -> pl.DataFrame:
    """``card_table`` of ``folder`` for the seats of one agent, cached like ``load_report``."""
    con = open_catalog(Path(folder))
    try:
        return card_table(con, agent=agent)
    finally:
        con.close()


ALL_AGENTS = "all agents"


def results_root() -> Path:
    """The results folder: ``$CARDLAB_RESULTS`` or ``results`` in the current directory."""
    return Path(os.environ.get("CARDLAB_RESULTS") or "results")


WIN_RATE_COLUMNS = {
    "win_rate": st.column_config.NumberColumn("win rate", format="percent"),
    "ci_low": st.column_config.NumberColumn("95% low", format="percent"),
    "ci_high": st.column_config.NumberColumn("95% high", format="percent"),
}
CARD_COLUMNS = {
    "games_drawn": st.column_config.NumberColumn("drawn in", help="Seat-games in which the seat drew the card"),
    "times_drawn": st.column_config.NumberColumn("draws", help="Times drawn in all"),
    "games_played": st.column_config.NumberColumn("played in", help="Seat-games in which the seat played it"),
    "times_played": st.column_config.NumberColumn("plays", help="Times played in all"),
    "win_rate_when_played": st.column_config.NumberColumn(
        "win% played", format="percent", help="Share of the played-in seat-games that the seat won"),
    "played_ci_low": st.column_config.NumberColumn("95% low", format="percent"),
    "played_ci_high": st.column_config.NumberColumn("95% high", format="percent"),
    "win_rate_when_drawn": st.column_config.NumberColumn(
        "win% drawn", format="percent", help="Share of the drawn-in seat-games that the seat won"),
}


def _show_win_rates(frame: pl.DataFrame, key: str, title: str, key_title: str) -> None:
    st.subheader(title)
    st.altair_chart(win_rate_chart(frame, key, title, key_title), width="stretch")
    st.dataframe(frame, hide_index=True, column_config=WIN_RATE_COLUMNS)


st.title("Overview")
root = results_root()
experiments = list_experiments(root)
if not experiments:
    st.info(f"No experiments in `{root}` yet. Run `{RUN_HINT}` to make one, then reload this page.")
    st.stop()

names = [path.name for path in experiments]
name = st.selectbox("Experiment", names, index=0)
folder = root / str(name)
try:
    report = load_report(str(folder), experiment_version(folder))
except AnalyticsError as error:
    st.warning(f"{error}")
    st.stop()

st.caption(
    f"Game **{report.game}** · {report.games_played:,} games played"
    + (f" of {report.games_planned:,} planned" if report.games_planned else "")
    + f" · {report.shards_finished} shards finished · `{report.folder}`")
if report.description:
    st.write(report.description)

player_counts = report.win_rate_by_seat["n_players"].unique().sort().to_list()
n_players = player_counts[0]
if len(player_counts) > 1:
    n_players = st.selectbox("Players", player_counts, index=0)
at_count = pl.col("n_players") == n_players

_show_win_rates(report.win_rate_by_seat.filter(at_count), "seat", "Win rate by seat", "Seat")
_show_win_rates(report.win_rate_by_agent.filter(at_count), "agent", "Win rate by agent", "Agent")

st.subheader("Cards")
variant_column, agent_column = st.columns(2)
variant = variant_column.selectbox("Variant", report.variants["variant"].to_list(), index=0)
agents = report.win_rate_by_agent["agent"].unique(maintain_order=True).to_list()
agent = agent_column.selectbox(
    "Agent", [ALL_AGENTS, *agents], index=0,
    help="Agents differ in strength: over all agents, the win rate when played mostly says "
         "which agent tends to play a card.")
all_cards = report.card_table if agent == ALL_AGENTS else load_card_table(
    str(folder), experiment_version(folder), str(agent))
cards = all_cards.filter(at_count & (pl.col("variant") == variant))
st.caption("Counts are of seat-games: one per game and seat that drew or played the card. "
           "Sorted by win rate when played; click a header to sort.")
st.dataframe(cards.drop("variant", "n_players"), hide_index=True, column_config=CARD_COLUMNS)
