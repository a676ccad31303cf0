"""Card impact page: what each card adds to its holder's win rate, measured on paired arms (the
card replaced in place by its game's neutral stand-in, or one copy fewer), beside the
correlational IWD of the Cards page, with where the two disagree and why."""

from __future__ import annotations

import polars as pl
import streamlit as st

from analytics.impact import RANK_GAP, why_they_disagree
from dashboard.common import choose, header, open_report, require_experiment, table
from dashboard.impact_charts import impact_against_iwd

FIRST = ["card", "impact", "impact_low", "impact_high", "significant", "q_value", "games", "holder_seat_games",
         "win_rate_with_card", "win_rate_in_arm", "pairing_gain", "unpaired_low", "unpaired_high",
         "winner_changed_share", "turns_change", "mean_turns_held", "holder_strength"]
ARM_LABELS = {"stand_in": "replaced in place by the neutral stand-in", "one_fewer": "one copy fewer"}

st.title("Card impact")
folder = require_experiment()
report = open_report(folder)
header(report)
impact = report.metrics.get("card_impact", pl.DataFrame())
if impact.is_empty():
    st.info("No card impact in this experiment: add an [impact] table to an experiment file (cards = \"all\", "
            "arms = [\"stand_in\", \"one_fewer\"]) and run it; see the docs, \"Card impact\".")
    st.stop()
players_box, agent_box, arm_box = st.columns(3)
n_players = choose("Players", sorted(impact["n_players"].unique().to_list()), key="players", container=players_box)
agent = choose("Agent holding the card", sorted(impact.filter(pl.col("n_players") == n_players)["agent"].unique()
                                                .to_list()), key="agent", container=agent_box)
arms = [arm for arm in ARM_LABELS if arm in impact["arm"].unique().to_list()]
arm = choose("Arm", arms, key="arm", container=arm_box)
rows = impact.filter((pl.col("n_players") == n_players) & (pl.col("agent") == agent) & (pl.col("arm") == arm)
                     ).sort("impact", descending=True, nulls_last=True)
gain = rows["pairing_gain"].drop_nulls().median()
gain = float(gain) if isinstance(gain, int | float) else None
st.caption(f"Impact: the holders' win rate with the card minus the same seats' win rate with the card "
           f"{ARM_LABELS[arm]}, on {'the same deals' if arm == 'stand_in' else 'deals of its own'} (points; "
           "positive: the card helps its holder). The holder: every seat that held the card (drawn or in its "
           "opening hand) in the card-as-is game. 95% intervals clustered by game; q: Benjamini-Hochberg over "
           "every card and arm." + (f" Pairing: the intervals are {gain:.1f} times narrower (median) than the same "
                                    "games compared unpaired." if gain is not None else ""))
table(rows.select([name for name in FIRST if name in rows.columns]), key="impact_table",
      percent=["win_rate_with_card", "win_rate_in_arm", "winner_changed_share", "holder_strength"],
      points=["impact", "impact_low", "impact_high", "unpaired_low", "unpaired_high"],
      plain=["pairing_gain", "turns_change", "mean_turns_held", "q_value"])

st.subheader("Correlational rate against causal impact")
versus = report.metrics.get("card_impact_vs_gih", pl.DataFrame())
versus = versus.filter((pl.col("n_players") == n_players) & (pl.col("agent") == agent)) if versus.height else versus
if versus.is_empty():
    st.info("No baseline card table to compare with (the baseline's IWD needs cards held and not held).")
    st.stop()
st.altair_chart(impact_against_iwd(versus, title=f"IWD against impact, {n_players} players, held by {agent}"),
                width="stretch")
disagreeing = versus.filter(pl.col("disagree"))
st.caption(f"IWD (GIH - GNS) is a correlation over the baseline's games: a card held in longer games (more cards "
           f"seen) or by stronger seats looks better than it is. In red: cards whose rank by IWD and by impact "
           f"differ by {RANK_GAP}+ places; {disagreeing.height} of {versus.height}.")
explained = versus.with_columns(pl.Series("why", [why_they_disagree(row) for row in versus.to_dicts()],
                                          dtype=pl.String))
table(explained.select("card", "disagree", "iwd_rank", "impact_rank", "rank_gap", "iwd", "impact", "gih_win_rate",
                       "gns_win_rate", "selection_bias", "length_bias", "strength_bias", "opponent_held_share", "why"),
      key="impact_versus_table", percent=["gih_win_rate", "gns_win_rate", "opponent_held_share"],
      points=["iwd", "impact", "selection_bias", "strength_bias"], plain=["length_bias"])
