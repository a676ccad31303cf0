"""Game length page: the turns histogram, the length statistics and how games end, per variant
(a sweep grid point with its swept values) and player count."""

from __future__ import annotations

import polars as pl
import streamlit as st

from dashboard.charts import bar_chart
from dashboard.common import (
    header,
    open_report,
    player_counts,
    players_picker,
    require_experiment,
    table,
    variant_picker,
)

st.title("Game length")
folder = require_experiment()
report = open_report(folder)
header(report)
left, right = st.columns(2)
variant = variant_picker(report, container=left)
n_players = players_picker(player_counts(report.game_stats), container=right, cooperative=report.cooperative)
chosen = (pl.col("variant") == variant) & (pl.col("n_players") == n_players)
label = report.labels.get(variant, variant)

turns = report.turn_distribution.filter(chosen)
st.altair_chart(bar_chart(turns, "turns", "games", ordinal=True, x_title="Turns (as the game counts them)",
                          y_title="Games", title=f"Game length, {label}, {n_players} players"), width="stretch")
table(report.game_stats.filter(chosen), plain=("mean_turns", "sd_turns", "p10_turns", "p50_turns", "p90_turns",
                                               "mean_decisions", "sd_decisions", "p50_decisions",
                                               "mean_legal_actions"), key="game_stats_table")

st.subheader("End reasons")
reasons = report.end_reason_stats.filter(chosen)
st.altair_chart(bar_chart(reasons, "end_reason", "share", horizontal=True, percent=True, x_title="End reason",
                          y_title="Share of games", title=f"How games end, {label}, {n_players} players"),
                width="stretch")
table(reasons, key="end_reasons_table")
