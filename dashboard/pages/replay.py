"""Replay page: choose a game of the experiment (by index or seed) and step through its trace turn by turn."""

from __future__ import annotations

import polars as pl
import streamlit as st

from analytics.replay import table_at
from dashboard.common import header, load, open_report, pick, replay, require_experiment, variants_of
from experiments.spec import SpecError

st.title("Replay")
folder = require_experiment()
report = open_report(folder)
header(report)
counts = [int(count) for count in report.spec.get("player_counts", [])]
games = int(report.spec.get("games", 0))
how = st.radio("Find the game by", ["game index", "seed"], horizontal=True)
if how == "seed":
    text = st.text_input("Seed (the `seed` column of `games`)", "").strip()
    found = load(folder, "games_with_seed", int(text)) if text.lstrip("-").isdigit() else None
    if found is None or found.is_empty():
        st.info(("No game of this experiment has that seed. " if text else "Type a seed. ")
                + "Copy one from the SQL page: `SELECT variant, n_players, game_index, seed FROM games LIMIT 10`.")
        st.stop()
    variant, n_players, index = str(found["variant"][0]), int(found["n_players"][0]), int(found["game_index"][0])
else:
    left, middle, right = st.columns(3)
    variant = pick("Variant", variants_of(report), container=left)
    n_players = pick("Players", counts, container=middle)
    index = int(right.number_input(f"Game index (0 to {games - 1})", min_value=0, max_value=max(games - 1, 0),
                                   value=0, step=1))
try:
    trace = replay(folder, str(variant), int(n_players), index)
except SpecError as error:
    st.warning(f"{error}")
    st.stop()

seats = pl.DataFrame({"seat": list(range(trace.n_players)), "agent": trace.agents,
                      "faction": [str(faction) if faction else "" for faction in trace.factions],
                      "score": trace.scores, "won": [seat in trace.winners for seat in range(trace.n_players)]})
st.markdown(f"**{trace.game}**, variant **{trace.variant}**, {trace.n_players} players, game index "
            f"**{trace.game_index}**, seed `{trace.seed}` · ended by **{trace.end_reason}** after {trace.turns} turns "
            f"and {trace.decisions} decisions · winners: **{trace.winners or 'none'}**")
st.dataframe(seats, hide_index=True)

turns = sorted(set(trace.events["turn"].to_list()))
turn = st.select_slider("Turn", options=turns, value=turns[0]) if len(turns) > 1 else turns[0]
st.subheader(f"Turn {turn}")
events = trace.events.filter(pl.col("turn") == turn)
st.dataframe(events.select("step", "type", "seat", "text"), hide_index=True, width="stretch")

st.subheader(f"Where things stand after turn {turn}")
st.caption("Each seat's latest event of every kind (its hand from the latest deal or draw, what it last "
           "played...), and the table's (board, reveals).")
standing = table_at(trace.events, turn)
columns = st.columns(trace.n_players + 1)
for seat, column in enumerate(columns[:-1]):
    column.markdown(f"**Seat {seat}** · {trace.agents[seat]}" + (f" · {trace.factions[seat]}"
                                                                  if trace.factions[seat] else ""))
    for row in standing.filter(pl.col("seat") == seat).iter_rows(named=True):
        column.markdown(f"- *{row['type']}* (turn {row['turn']}): {row['text']}")
columns[-1].markdown("**Table**")
for row in standing.filter(pl.col("seat").is_null()).iter_rows(named=True):
    columns[-1].markdown(f"- *{row['type']}* (turn {row['turn']}): {row['text']}")
with st.expander("Every event of the game"):
    st.dataframe(trace.events, hide_index=True)
