"""Game length page: the turns histogram, the length statistics and how games end."""

from __future__ import annotations

import polars as pl
import streamlit as st

from dashboard.charts import bar_chart
from dashboard.common import header, open_report, pick, player_counts, require_experiment, variants_of

st.title("Game length")
folder = require_experiment()
report = open_report(folder)
header(report)
left, right = st.columns(2)
variant = pick("Variant", variants_of(report), container=left)
n_players = pick("Players", player_counts(report.game_stats), container=right)
chosen = (pl.col("variant") == variant) & (pl.col("n_players") == n_players)

turns = report.turn_distribution.filter(chosen)
st.altair_chart(bar_chart(turns, "turns", "games", ordinal=True, x_title="Turns (as the game counts them)",
                          y_title="Games", title=f"Game length, {variant}, {n_players} players"), width="stretch")
st.dataframe(report.game_stats.filter(chosen), hide_index=True)

st.subheader("End reasons")
reasons = report.end_reason_stats.filter(chosen)
st.altair_chart(bar_chart(reasons, "end_reason", "share", horizontal=True, percent=True, x_title="End reason",
                          y_title="Share of games", title=f"How games end, {variant}, {n_players} players"),
                width="stretch")
st.dataframe(reasons, hide_index=True)
