"""Variants page: every variant (a sweep grid point with its swept values) against the
baseline, a forest plot of the differences with 95% intervals, every row labelled,
significant changes (Benjamini–Hochberg q < 0.05) marked; card rows per agent."""

from __future__ import annotations

import polars as pl
import streamlit as st

from analytics.findings import METRIC_NAMES, delta_methods, delta_subject
from dashboard.charts import forest_plot
from dashboard.common import (
    choose,
    header,
    lineup_agents,
    open_report,
    player_counts,
    players_picker,
    require_experiment,
    table,
    toggle_filter,
    variant_picker,
)

FAMILIES = {"seat": "Seats (win rate)", "agent": "Agents (win rate)", "faction": "Factions (win rate)",
            "card": "Cards", "game": "Game (party win rate, draws, turn cap, length)"}
MEANS = ("turns", "decisions")

st.title("Variants")
folder = require_experiment()
report = open_report(folder)
header(report)
deltas = report.variant_deltas
if deltas.is_empty():
    st.info("This experiment has only the baseline. Add a `[variants.NAME]` table (or a `[sweep]`) to the "
            "experiment file and run it again, e.g. `cardlab run experiments/divvy_baseline.toml --overwrite`.")
    st.stop()
left, middle, right = st.columns(3)
variant = variant_picker(report, container=left, options=deltas["variant"].unique(maintain_order=True).to_list())
n_players = players_picker(player_counts(deltas.filter(pl.col("variant") == variant)), container=middle,
                           cooperative=report.cooperative)
families = [name for name in FAMILIES if name in deltas["family"].unique().to_list()]
family = choose("Family", families, key="family", container=right, format_func=FAMILIES.__getitem__)
rows = deltas.filter((pl.col("variant") == variant) & (pl.col("n_players") == n_players)
                     & (pl.col("family") == family))
if family == "card":
    agent_box, toggle_box = st.columns(2)
    agent = choose("Agent (cards held by)", lineup_agents(report, variant, n_players), key="agent", container=agent_box)
    rows = rows.filter(pl.col("agent") == agent)
    significant_only = toggle_filter("Significant changes only", key="significant", container=toggle_box)
else:
    significant_only = toggle_filter("Significant changes only", key="significant")
if significant_only:
    rows = rows.filter(pl.col("significant"))
st.caption(f"{rows['significant'].sum()} of {rows.height} differences significant after the Benjamini–Hochberg "
           "correction within this family (q < 0.05). Intervals are unadjusted 95% intervals, from intervals "
           f"clustered by game: {delta_methods(set(rows['test'].to_list()))}.")
for metric in rows["metric"].unique(maintain_order=True).to_list():
    part = rows.filter(pl.col("metric") == metric)
    part = part.with_columns(pl.Series("label", [delta_subject(row) for row in part.iter_rows(named=True)],
                                       dtype=pl.String))
    st.altair_chart(forest_plot(part, percent=metric not in MEANS,
                                title=f"{report.labels.get(variant, variant)} − baseline: "
                                      f"{METRIC_NAMES.get(metric, metric)}, {n_players} players"), width="stretch")
listing = rows.with_columns(pl.Series("key", [delta_subject(row) for row in rows.iter_rows(named=True)],
                                     dtype=pl.String)).drop("experiment", "variant", "n_players", "family", "agent",
                                                            "metric")
values, differences = ("baseline_value", "value"), ("delta", "delta_low", "delta_high")
# Rates as percentages, their differences in points; the game family mixes rates and means (turns,
# decisions), so it shows plain numbers.
game = family == "game"
table(listing, percent=() if game else values, points=() if game else differences,
      plain=values + differences if game else (), key="deltas_table")
