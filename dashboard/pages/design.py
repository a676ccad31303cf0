"""Game design page: per variant and player count, how decisive games are (the margin of
victory's histogram, the draw rate), how games end, how the lead moves (lead changes, comebacks, how often the
leader at each third wins), how much the deal decides (an experiment with ``deal_replays``) and
how much skill pays (each agent against random play, a skill ladder's rating span). Every
number comes from the report (``analytics.views.design``, ``analytics.ratings.rating_spans``)."""

from __future__ import annotations

import polars as pl
import streamlit as st

from analytics.skill import is_skill_ladder
from dashboard.charts import bar_chart
from dashboard.common import (
    load_skill_tables,
    open_page,
    player_counts,
    players_picker,
    table,
    variant_picker,
)

# The margins, lead changes and deficits are in the game's own units, not rates. (A comment, not a
# string: Streamlit's magic would print a bare string of a page script on the page.)
PLAIN = ("mean_margin", "mean_margin_low", "mean_margin_high", "sd_margin", "p10_margin", "p50_margin", "p90_margin",
         "mean_lead_changes", "mean_lead_changes_low", "mean_lead_changes_high", "mean_winner_deficit",
         "mean_winner_deficit_low", "mean_winner_deficit_high", "ms_between", "ms_within", "icc", "span",
         "span_low", "span_high")

page = open_page("Game design")
folder, report = page.folder, page.report
decisiveness = report.metrics["decisiveness"]
left, right = st.columns(2)
variant = variant_picker(report, container=left)
n_players = players_picker(player_counts(decisiveness.filter(pl.col("variant") == variant)), container=right,
                           cooperative=report.cooperative)
chosen = (pl.col("variant") == variant) & (pl.col("n_players") == n_players)
label = report.labels.get(variant, variant)
people = "heroes" if report.cooperative else "players"

st.subheader("Decisiveness")
margins = report.metrics["margin_distribution"].filter(chosen)
if margins.is_empty():
    st.info("This game keeps no standings (its seats share one outcome, or the results predate them): no margin "
            "of victory or lead to show.")
else:
    st.altair_chart(bar_chart(margins, "margin", "games", integer=True, x_title="Margin of victory (the game's units)",
                              y_title="Games", title=f"Margin of victory, {label}, {n_players} {people}"),
                    width="stretch")
table(decisiveness.filter(chosen), plain=PLAIN, key="decisiveness_table")
st.caption("Margin: the winner's final standing minus the runner-up's. A narrow typical margin with few draws is a "
           "close game; level finishes were won on a tiebreaker or another way.")

st.subheader("How games end")
table(report.metrics["end_reason_stats"].filter(chosen), key="design_end_reasons_table")
st.caption("The probability of each end condition: the share of games that ended this way, with its 95% interval.")

st.subheader("Lead changes and comebacks")
table(report.metrics["lead_stats"].filter(chosen), plain=PLAIN, key="lead_table")
st.caption("Comebacks: games whose winner trailed at some point. The leader at the first (second) third wins: "
           "near 100%, the game is decided early and the rest is played out.")

st.subheader("How much the deal decides")
seeds = report.metrics["seed_influence"].filter(chosen)
if seeds.is_empty():
    st.info("Play the experiment with `deal_replays = K` (each deal K times with other agent seeds; see the "
            "experiment files reference) to measure the deal's share of the outcome.")
else:
    table(seeds, plain=PLAIN, key="seed_table")
    st.caption("Deal share: the share of the outcome's variance the deal explains. Near 100% the cards decide "
               "who wins whatever the agents do; near 0% the agents' play does.")

st.subheader("Skill depth")
depth = report.metrics["skill_depth"].filter(chosen)
# The rating span needs the agents' ratings, a bootstrap over every game: computed for a skill
# ladder only (the Skill page rates any experiment on demand).
ladder = is_skill_ladder(load_skill_tables(folder, ratings=False)["skill_movement"])
spans = (load_skill_tables(folder, ratings=True)["rating_span"] if ladder else pl.DataFrame(
    schema={"n_players": pl.Int64})).filter(pl.col("n_players") == n_players)
if depth.is_empty() and spans.is_empty():
    st.info("No game of this variant seats the random agent beside another, and no skill ladder was played: "
            "`cardlab run experiments/divvy_skill_ladder.toml` plays one.")
if not depth.is_empty():
    table(depth, points=("edge",), key="skill_depth_table")
    st.caption("Each agent's win rate at tables with random play; edge: above 1/players, in points.")
if not spans.is_empty():
    table(spans, plain=PLAIN, key="rating_span_table")
    st.caption("The skill ladder's rating span: Elo points from the lowest- to the highest-rated agent (400 points: "
               "the stronger wins 10 games to 1).")
