"""Game length page: the turns histogram, the length statistics and how games end, per variant
(a sweep grid point with its swept values), player count and agent of the lineup: the games
that agent sat in, split by how they ended for it (won, lost, draw; the most-played agent by
default), or every game pooled when asked."""

from __future__ import annotations

import polars as pl
import streamlit as st

from dashboard.charts import bar_chart
from dashboard.common import lineup_filter, load_agent_games, open_page, table
from dashboard.evidence import shown_finding

# Means and quantiles of turns and decisions: shown as plain numbers, not percentages. (A comment,
# not a string: Streamlit's magic would print a bare string of a page script on the page.)
LENGTH_COLUMNS = ("mean_turns", "sd_turns", "min_turns", "p10_turns", "p50_turns", "p90_turns", "max_turns",
                  "mean_decisions", "sd_decisions", "p50_decisions", "mean_legal_actions")

page = open_page("Game length")
folder, report = page.folder, page.report
lineup = lineup_filter(report, report.game_stats, agent_label="Agent (games sat in)", pooled=True,
                       agent_help="The games this agent sat in, split by how they ended for it (won: one of its "
                                  "seats won). Pooled: every game.")
variant, n_players, agent = lineup.variant, lineup.n_players, lineup.agent
shown_finding(report, variant, n_players)  # a turn-cap finding's evidence
chosen = (pl.col("variant") == variant) & (pl.col("n_players") == n_players)
label = report.labels.get(variant, variant)
people = "heroes" if report.cooperative else "players"

if lineup.every_seat:
    turns = report.turn_distribution.filter(chosen)
    st.altair_chart(bar_chart(turns, "turns", "games", integer=True, x_title="Turns (as the game counts them)",
                              y_title="Games", title=f"Game length, {label}, {n_players} {people}"), width="stretch")
    table(report.game_stats.filter(chosen), plain=LENGTH_COLUMNS, key="game_stats_table")
    st.subheader("End reasons")
    reasons = report.end_reason_stats.filter(chosen)
    st.altair_chart(bar_chart(reasons, "end_reason", "share", horizontal=True, percent=True, x_title="End reason",
                              y_title="Share of games", title=f"How games end, {label}, {n_players} {people}"),
                    width="stretch")
    table(reasons, key="end_reasons_table")
else:
    lengths, histogram, ends = load_agent_games(folder, agent)
    turns = histogram.filter(chosen)
    st.altair_chart(bar_chart(turns, "turns", "games", integer=True, color="outcome", color_title=f"For {agent}",
                              x_title="Turns (as the game counts them)", y_title="Games",
                              title=f"Game length of the games {agent} sat in, {label}, {n_players} {people}"),
                    width="stretch")
    table(lengths.filter(chosen), plain=LENGTH_COLUMNS, key="game_stats_table")
    st.caption(f"One row per outcome for {agent} (won: one of its seats won; a draw is nobody's win). Share: of "
               "its games, with the 95% Wilson interval; unit: the game.")
    st.subheader("End reasons")
    reasons = ends.filter(chosen)
    st.altair_chart(bar_chart(reasons, "end_reason", "share", horizontal=True, percent=True, color="outcome",
                              color_title=f"For {agent}", x_title="End reason", y_title=f"Share of {agent}'s games",
                              title=f"How the games {agent} sat in end, {label}, {n_players} {people}"),
                    width="stretch")
    table(reasons, key="end_reasons_table")
