"""Variants page: every variant against the baseline, a forest plot of the differences with 95%
intervals, significant changes (Benjamini–Hochberg q < 0.05) marked."""

from __future__ import annotations

import polars as pl
import streamlit as st

from analytics.explore import with_delta_intervals
from dashboard.charts import forest_plot
from dashboard.common import header, open_report, pick, player_counts, require_experiment

FAMILIES = {"seat": "Seats (win rate)", "agent": "Agents (win rate)", "faction": "Factions (win rate)",
            "card": "Cards", "game": "Game (draws, turn cap, length)"}
PERCENT_METRICS = ("win_rate", "gih_win_rate", "played_win_rate", "play_rate", "draw_rate", "turn_cap_rate")

st.title("Variants")
folder = require_experiment()
report = open_report(folder)
header(report)
deltas = with_delta_intervals(report.metrics["variant_deltas"])
if deltas.is_empty():
    st.info("This experiment has only the baseline. Add a `[variants.NAME]` table (or a `[sweep]`) to the "
            "experiment file and run it again, e.g. `cardlab run experiments/divvy_baseline.toml --overwrite`.")
    st.stop()
left, middle, right = st.columns(3)
variant = pick("Variant", deltas["variant"].unique(maintain_order=True).to_list(), container=left)
n_players = pick("Players", player_counts(deltas), container=middle)
families = [name for name in FAMILIES if name in deltas["family"].unique().to_list()]
family = right.selectbox("Family", families, index=0, format_func=lambda name: FAMILIES[name])
significant_only = st.toggle("Significant changes only", value=False)

rows = deltas.filter((pl.col("variant") == variant) & (pl.col("n_players") == n_players)
                     & (pl.col("family") == family))
if significant_only:
    rows = rows.filter(pl.col("significant"))
st.caption(f"{rows['significant'].sum()} of {rows.height} differences significant after the Benjamini–Hochberg "
           "correction within this family (q < 0.05). Intervals are unadjusted 95% intervals.")
for metric in rows["metric"].unique(maintain_order=True).to_list():
    part = rows.filter(pl.col("metric") == metric).with_columns(
        pl.when(pl.col("key") == "").then(pl.col("metric")).otherwise(pl.col("key")).alias("label"))
    st.altair_chart(forest_plot(part, percent=metric in PERCENT_METRICS,
                                title=f"{variant} − baseline: {metric}, {n_players} players"), width="stretch")
st.dataframe(rows, hide_index=True)
