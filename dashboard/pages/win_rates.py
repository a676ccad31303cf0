"""Win rates page: by seat, agent and faction per player count (and map), with 95% intervals;
the matchup heatmap of a competitive game; party size, composition and run ends of a cooperative one."""

from __future__ import annotations

import polars as pl
import streamlit as st

from dashboard.charts import bar_chart, heatmap, interval_chart, win_rate_chart
from dashboard.common import (
    RATE_COLUMNS,
    games_columns,
    header,
    load,
    open_report,
    pick,
    player_counts,
    require_experiment,
    variants_of,
)

st.title("Win rates")
folder = require_experiment()
report = open_report(folder)
header(report)
count_box, variant_box = st.columns(2)
n_players = pick("Players", player_counts(report.seat_stats), container=count_box)
variant = pick("Variant (factions, matchups, compositions, run ends)", variants_of(report), container=variant_box)
at_count = pl.col("n_players") == n_players
at_variant = at_count & (pl.col("variant") == variant)

st.subheader("By seat")
seats = report.seat_stats.filter(at_count)
CI = {"win_rate_low": "ci_low", "win_rate_high": "ci_high"}
st.altair_chart(win_rate_chart(seats.rename(CI), "seat", f"Win rate by seat, {n_players} players", "Seat"), width="stretch")
st.dataframe(seats, hide_index=True, column_config=RATE_COLUMNS)

st.subheader("By agent")
agents = report.agent_stats.filter(at_count)
st.altair_chart(win_rate_chart(agents.rename(CI).with_columns(games="seat_games"), "agent", f"Win rate by agent, {n_players} players", "Agent"),
                width="stretch")
st.dataframe(agents, hide_index=True, column_config=RATE_COLUMNS)

factions = report.faction_stats.filter(at_count)
coop = not report.party_size_stats.is_empty()
if not factions.is_empty():
    st.subheader("By faction" + (" (hero class)" if coop else " (party)"))
    shown = factions.filter(pl.col("variant") == variant)
    st.altair_chart(interval_chart(
        shown, "faction", "win_rate", "win_rate_low", "win_rate_high", horizontal=True,
        title=f"Win rate by faction, {variant}, {n_players} players", key_title="Faction",
        rate_title="Win rate (95% Wilson interval)"), width="stretch")
    st.dataframe(shown, hide_index=True, column_config=RATE_COLUMNS)
    if "map" in games_columns(folder):
        by_map = load(folder, "win_rate_by_game_column", "faction", "map").filter(at_count)
        st.markdown("**By map**")
        st.altair_chart(interval_chart(
            by_map.filter(pl.col("variant") == variant), "key", "win_rate", "ci_low", "ci_high", color="value",
            color_title="Map", horizontal=True, title=f"Win rate by faction and map, {variant}, {n_players} players",
            key_title="Faction", rate_title="Win rate (95% Wilson interval)"), width="stretch")
        st.dataframe(by_map, hide_index=True, column_config=RATE_COLUMNS)

if not coop and not report.matchups.is_empty():
    st.subheader("Matchups")
    pairs = report.matchups.filter(at_variant)
    st.altair_chart(heatmap(pairs, "faction", "opponent", "win_rate", row_title="Faction",
                            column_title="Opponent in the game", value_title="Win rate",
                            title=f"Faction win rate in games with each opponent, {variant}, {n_players} players"),
                    width="stretch")
    st.dataframe(pairs, hide_index=True, column_config=RATE_COLUMNS)

if coop:
    st.subheader("Party size")
    sizes = report.party_size_stats
    st.altair_chart(interval_chart(
        sizes, "n_players", "win_rate", "win_rate_low", "win_rate_high", color="variant", color_title="Variant",
        title="Party win rate by party size", key_title="Heroes in the party",
        rate_title="Win rate (95% Wilson interval)"), width="stretch")
    st.dataframe(sizes, hide_index=True, column_config=RATE_COLUMNS)
    st.subheader("Composition")
    compositions = report.composition_stats.filter(at_variant)
    st.dataframe(compositions, hide_index=True, column_config=RATE_COLUMNS)
    st.markdown("**Marginal effect of each class**")
    st.dataframe(report.class_effects.filter(at_variant), hide_index=True)
    st.subheader("Where runs end")
    ends = load(folder, "run_ends").filter(at_variant)
    if ends.is_empty():
        st.info("This game records no level reached / final enemy.")
    else:
        st.altair_chart(bar_chart(
            ends.with_columns(pl.col("level_reached").cast(pl.String).alias("level")), "final_enemy", "share",
            color="level", color_title="Level reached", horizontal=True, percent=True,
            title=f"Where runs end, {variant}, {n_players} heroes (share of games)",
            x_title="Final enemy", y_title="Share of games"), width="stretch")
        st.dataframe(ends, hide_index=True, column_config=RATE_COLUMNS)
