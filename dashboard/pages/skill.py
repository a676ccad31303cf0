"""Skill page: for a skill ladder (``experiments/<game>_skill_ladder.toml``), the agent-versus-agent
win-rate heatmap, how each faction's and card's win rate moves across the rungs (sign flips
flagged), what each variant's agents cost per game and the agents' ratings with their intervals.
All numbers come from the report (``analytics.skill``, ``analytics.metrics.skill_movement``,
``analytics.ratings``)."""

from __future__ import annotations

import polars as pl
import streamlit as st

from analytics.skill import is_skill_ladder, ladder_order, rungs_in_order
from dashboard.charts import heatmap, interval_chart, skill_chart
from dashboard.common import load_skill_tables, open_page, pick, player_counts, table, toggle_filter

SHOWN_NAMES = 8  # names preselected in the skill chart when none flips sign: the largest swings

page = open_page("Skill")
folder, report = page.folder, page.report
tables = load_skill_tables(folder, ratings=False)
matrix = tables["agent_matrix"]
movement = tables["skill_movement"]
cost = tables["agent_cost"]
order = ladder_order(cost)

st.subheader("Agent versus agent")
if matrix.is_empty():
    st.info("No game of this experiment seats two different agents. A skill ladder's head-to-head variants "
            "do (`experiments/<game>_skill_ladder.toml`, e.g. `cardlab run experiments/divvy_skill_ladder.toml`).")
else:
    rules_box, count_box = st.columns(2)
    rules = pick("Rules (variants pooled)", matrix["rules"].unique(maintain_order=True).to_list(), container=rules_box,
                 key="rules")
    n_players = pick("Players", player_counts(matrix.filter(pl.col("rules") == rules)), container=count_box,
                     key="matrix_players")
    pairs = matrix.filter((pl.col("rules") == rules) & (pl.col("n_players") == n_players))
    st.altair_chart(heatmap(pairs, "agent", "opponent", "win_rate", row_title="Agent",
                            column_title="Opponent in the game", value_title="Win rate", order=order,
                            center=1 / n_players,
                            title=f"Agent win rate in games with each other agent, {n_players} players"),
                    width="stretch")
    st.caption(f"Pooled over the variants with rules {rules}: {', '.join(sorted(set(pairs['variants'])))}. "
               "Draws count as not-a-win; mirror matches are left out.")
    table(pairs, key="matrix_table")

st.subheader("How win rates move with skill")
rungs = rungs_in_order(movement)
if not is_skill_ladder(movement):
    st.info("This experiment is no skill ladder: that takes rungs (variants in which every seat plays one "
            "agent) of at least two different agents, e.g. `cardlab run experiments/divvy_skill_ladder.toml`; "
            "variants of one agent differ by their rules, which the Variants page compares.")
else:
    kind_box, count_box = st.columns(2)
    kind = pick("Kind", movement["kind"].unique().sort(descending=True).to_list(), container=kind_box,
                key="skill_kind")
    n_players = pick("Players", player_counts(movement.filter(pl.col("kind") == kind)), container=count_box,
                     key="skill_players")
    rows = movement.filter((pl.col("kind") == kind) & (pl.col("n_players") == n_players))
    swings = (rows.group_by("name").agg(pl.col("sign_flips").first(),
                                        (pl.col("deviation").max() - pl.col("deviation").min()).alias("swing"))
              .sort(["sign_flips", "swing", "name"], descending=[True, True, False], nulls_last=True))
    flipping = swings.filter(pl.col("sign_flips"))["name"].to_list()
    default = flipping or swings["name"].head(SHOWN_NAMES).to_list()
    st.caption(f"{len(flipping)} of {swings.height} {kind}s flip sign: surely above the rung's mean on one rung "
               "and surely below it on another." + (f" Flipping: {', '.join(flipping)}." if flipping else ""))
    names = st.multiselect(f"{kind.capitalize()}s shown", swings["name"].to_list(), default=default)
    shown = rows.filter(pl.col("name").is_in(names))
    rung_names = [rung for _, rung in rungs]
    st.altair_chart(skill_chart(shown, rungs=rung_names, kind_title=kind.capitalize(),
                                title=f"{kind.capitalize()} win rate minus the rung's mean, {n_players} players"
                                      + (" (cards: games in hand)" if kind == "card" else "")),
                    width="stretch")
    table(shown, key="movement_table")

st.subheader("Cost per game")
st.caption("Wall seconds of one worker per game (manifest `play_seconds` / games; grows when the machine is busy) "
           "and agent decisions per game over all seats.")
table(cost, key="cost_table")

st.subheader("Ratings")
if matrix.is_empty():  # no game seats two different agents: nothing to rate
    st.info("No game of this experiment seats two different agents with different results, so there is nothing "
            "to rate (a skill ladder's head-to-head variants do).")
    st.stop()
if not toggle_filter("Rate the agents (a bootstrap over every game: seconds on a million games)", key="ratings",
                     default=is_skill_ladder(movement)):
    st.caption("The agents' Bradley-Terry ratings with bootstrap intervals, on demand (at once for a skill ladder).")
    st.stop()
rating_tables = load_skill_tables(folder, ratings=True)
ratings = rating_tables["agent_ratings"]
gaps = rating_tables["rating_gaps"]
if ratings.is_empty():
    st.info("No game of this experiment seats two different agents with different results, so there is nothing "
            "to rate (a skill ladder's head-to-head variants do).")
else:
    pools = ratings.select("rules", "n_players", "anchor").unique(maintain_order=True)
    labels = [f"{rules}, {players} players, {anchor} = 0" for rules, players, anchor in pools.iter_rows()]
    chosen = pools.row(labels.index(pick("Ratings of", labels, key="ratings_pool")), named=True)
    in_pool = (pl.col("rules") == chosen["rules"]) & (pl.col("n_players") == chosen["n_players"]) \
        & (pl.col("anchor") == chosen["anchor"])
    rated = ratings.filter(in_pool)
    st.altair_chart(interval_chart(rated, "agent", "rating", "rating_low", "rating_high", percent=False,
                                   value_format="d", horizontal=True, key_title="Agent", rate_title="Elo rating",
                                   title=f"Bradley-Terry rating (Elo scale, {chosen['anchor']} = 0) with 95% interval"),
                    width="stretch")
    st.caption("From the games that seat different agents (one comparison per pair of seats; mirror games left "
               "out), one virtual draw per pair that met. 95% interval: bootstrap by game, stratified by variant, "
               "or the model's ±1.96 standard errors where wider (`analytics/ratings.py`).")
    table(rated, key="ratings_table")
    adjacent = gaps.filter(in_pool)
    resolved = int(adjacent["difference_excludes_zero"].sum())
    separated = int(adjacent["intervals_separate"].sum())
    st.caption(f"Adjacent agents by rating: the order is resolved for {resolved} of {adjacent.height} pairs "
               f"(the difference's 95% interval excludes 0); the two rating intervals are disjoint for {separated} "
               "(stricter: both share the anchor's uncertainty). Where neither holds, more games between those "
               "two are needed.")
    table(adjacent, key="rating_gaps_table")
