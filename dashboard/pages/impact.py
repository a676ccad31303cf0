"""Card impact page: what each card adds to its holder's win rate, measured against its game's
neutral stand-in in place on the same deals, beside the correlational IWD of the Cards page, with
where the two disagree and why; then what one copy fewer changes for every seat and game."""

from __future__ import annotations

import polars as pl
import streamlit as st

from analytics.disagreement import why_they_disagree
from analytics.views.impact import RANK_GAP
from dashboard.common import choose, open_page, table
from dashboard.impact_charts import impact_against_iwd

FIRST = ["card", "impact", "impact_low", "impact_high", "significant", "q_value", "games", "holder_seat_games",
         "win_rate_with_card", "win_rate_with_stand_in", "pairing_gain", "unpaired_low", "unpaired_high",
         "winner_changed_share", "turns_change", "mean_turns_held", "holder_strength"]
REMOVAL = ["card", "family", "key", "metric", "delta", "delta_low", "delta_high", "significant", "q_value",
           "baseline_value", "value", "n"]

page = open_page("Card impact")
folder, report = page.folder, page.report
impact = report.metrics.get("card_impact", pl.DataFrame())
removal = report.metrics.get("card_removal", pl.DataFrame())
if impact.is_empty() and removal.is_empty():
    st.info("No card impact in this experiment: add an [impact] table to an experiment file (cards = \"all\") "
            "and run it; see the docs, \"Card impact\".")
    st.stop()
counts = sorted({*impact["n_players"].to_list(), *removal["n_players"].to_list()} if impact.height or removal.height
                else set())
players_box, agent_box = st.columns(2)
n_players = choose("Players", counts, key="players", container=players_box)
agents = sorted(impact.filter(pl.col("n_players") == n_players)["agent"].unique().to_list()) if impact.height else []
agent = choose("Agent holding the card", agents, key="agent", container=agent_box) if agents else None
rows = impact.filter((pl.col("n_players") == n_players) & (pl.col("agent") == agent)
                     ).sort("impact", descending=True, nulls_last=True) if agent is not None else impact
gain = rows["pairing_gain"].drop_nulls().median() if rows.height else None
gain = float(gain) if isinstance(gain, int | float) else None
st.caption("Impact: the holders' win rate with the card minus the same seats' win rate with the card replaced in "
           "place by its game's neutral stand-in, on the same deals (points; positive: the card helps its holder; "
           "causal: the two games differ only by the card). The holder: every seat that held the card (drawn or in "
           "its opening hand) in the card-as-is game. 95% intervals clustered by game; q: Benjamini-Hochberg over "
           "every card." + (f" Pairing: the intervals are {gain:.1f} times narrower (median) than the same games "
                            "compared unpaired." if gain is not None else ""))
table(rows.select([name for name in FIRST if name in rows.columns]), key="impact_table",
      percent=["win_rate_with_card", "win_rate_with_stand_in", "winner_changed_share", "holder_strength"],
      points=["impact", "impact_low", "impact_high", "unpaired_low", "unpaired_high"],
      plain=["pairing_gain", "turns_change", "mean_turns_held", "q_value"])


st.subheader("Correlational rate against causal impact")
versus = report.metrics.get("card_impact_vs_gih", pl.DataFrame())
versus = versus.filter((pl.col("n_players") == n_players) & (pl.col("agent") == agent)) if versus.height else versus
if versus.is_empty():
    st.info("No baseline card table to compare with (the baseline's IWD needs cards held and not held, and the "
            "stand-in arm).")
else:
    st.altair_chart(impact_against_iwd(versus, title=f"IWD against impact, {n_players} players, held by {agent}"),
                    width="stretch")
    disagreeing = versus.filter(pl.col("disagree"))
    st.caption(f"IWD (GIH - GNS) is a correlation over the baseline's games: a card held in longer games (more cards "
               f"seen) or by stronger seats looks better than it is. In red: cards whose rank by IWD and by impact "
               f"differ by {RANK_GAP}+ places; {disagreeing.height} of {versus.height}.")
    explained = versus.with_columns(pl.Series("why", [why_they_disagree(row) for row in versus.to_dicts()],
                                              dtype=pl.String))
    table(explained.select("card", "disagree", "iwd_rank", "impact_rank", "rank_gap", "iwd", "impact",
                           "gih_win_rate", "gns_win_rate", "selection_bias", "length_bias", "strength_bias",
                           "opponent_held_share", "why"),
          key="impact_versus_table", percent=["gih_win_rate", "gns_win_rate", "opponent_held_share"],
          points=["iwd", "impact", "selection_bias", "strength_bias"], plain=["length_bias"])

st.subheader("One copy fewer: what it changes for everyone")
changes = removal.filter(pl.col("n_players") == n_players) if removal.height else removal
if changes.is_empty():
    st.info("No one-copy-fewer arm in this experiment (arms = [\"one_fewer\"] in the [impact] table).")
    st.stop()
st.caption("Each card with one copy fewer, on deals of its own, against the baseline: every seat's, agent's and "
           "faction's win rate, the game's length, draws and end reasons (unpaired 95% intervals; q: "
           "Benjamini-Hochberg over every card). No holder-level impact: with a shorter deck every seat is dealt "
           "other cards, so no seat of these games is the one that held the card.")
only_significant = st.checkbox("Significant changes only (q < 0.05)", value=True, key="removal_significant")
shown = changes.filter(pl.col("significant")) if only_significant else changes
table(shown.sort("q_value").select(REMOVAL), key="removal_table", plain=["q_value"])
