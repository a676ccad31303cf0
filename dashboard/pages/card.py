"""Card detail page: one card across every variant, player count and agent (its GIH win rate
with intervals, play rates, shrunk rate, flags), and its trend over the turn it was first
played (played win rate by that turn)."""

from __future__ import annotations

import polars as pl
import streamlit as st

from dashboard.charts import interval_chart, trend_chart
from dashboard.common import (
    choose,
    header,
    lineup_filter,
    load,
    open_report,
    require_experiment,
    table,
)

DETAIL = ["variant", "n_players", "agent", "games_in_hand", "gih_win_rate", "gih_win_rate_low", "gih_win_rate_high",
          "shrunk_win_rate", "card_mean", "iwd", "games_played", "played_win_rate", "play_rate", "playable_play_rate",
          "mean_turn_played", "z_score", "outlier", "surely_outside", "never_played"]

st.title("Card detail")
folder = require_experiment()
report = open_report(folder)
header(report)
stats = report.card_stats
if stats.is_empty():
    st.info("No card rows in this experiment: its game records no cards.")
    st.stop()
names = sorted(str(card) for card in stats["card"].unique())
card = choose("Card", names, key="card")
rows = stats.filter(pl.col("card") == card).with_columns(
    pl.col("variant").replace_strict(report.labels, default=pl.col("variant")).alias("variant"))
playable = int(stats["games_playable"].sum()) > 0

st.subheader(f"{card} in every variant, player count and agent")
rows = rows.with_columns(pl.format("{}, {}p", pl.col("variant"), pl.col("n_players")).alias("where"))
st.altair_chart(interval_chart(
    rows, "where", "gih_win_rate", "gih_win_rate_low", "gih_win_rate_high", color="agent", color_title="Agent",
    horizontal=True, title=f"{card}: win rate in hand (GIH), 95% interval clustered by game",
    key_title="Variant, players", rate_title="GIH win rate", sample="games_in_hand"), width="stretch")
table(rows.select([name for name in DETAIL if name in rows.columns and (playable or "playable" not in name)]),
      key="card_detail_table")

st.subheader(f"{card} by the turn it was first played")
lineup = lineup_filter(report, stats)
variant, n_players, agent = lineup.variant, lineup.n_players, lineup.agent
turns = load(folder, "card_turns", card)
trend = turns.filter((pl.col("variant") == variant) & (pl.col("n_players") == n_players))
if trend.is_empty():
    st.info(f"{card} was never played in {report.labels.get(variant, variant)} at {n_players} players.")
else:
    st.altair_chart(trend_chart(
        trend, x="first_played_turn", rate="played_win_rate", series="agent", series_title="Agent",
        sample="games_played", x_title="Turn first played", rate_title="Win rate when played",
        title=f"{card}: win rate by the turn first played, {report.labels.get(variant, variant)}, {n_players} "
              "players (95% band)"), width="stretch")
    table(trend.filter(pl.col("agent") == agent), key="card_trend_table")
