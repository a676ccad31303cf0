"""Replay page: choose a game of the experiment (by index or seed, either kept in the page
address so that a link opens that game) and step through it turn by turn, with every hand,
board and the table as they stood."""

from __future__ import annotations

import polars as pl
import streamlit as st

from analytics.replay import events_between, moments_of_turn, seat_lines, table_lines, turns_of
from dashboard.common import (
    choose,
    load,
    number_filter,
    open_page,
    players_picker,
    replay,
    table,
    text_filter,
    variant_picker,
)
from experiments.spec import SpecError
from simcore.registry import get_game

SEATS_PER_ROW = 4
# Characters of an action in the action slider. Its end labels are drawn below it without
# room of their own: longer ones wrap onto the heading under the slider (the whole action is
# in the caption under that heading).
ACTION_LABEL = 44


def cut(text: str, limit: int = ACTION_LABEL) -> str:
    """``text`` cut to at most ``limit`` characters, an ellipsis marking the cut."""
    return text if len(text) <= limit else text[:limit - 1].rstrip() + "…"


page = open_page("Replay")
folder, report = page.folder, page.report
counts = [int(count) for count in report.spec.get("player_counts", [])]
games = int(report.spec.get("games", 0))
# Both ways to find a game are kept in the page address (?find=seed&seed=N, or
# ?variant=...&players=...&game=N), so a link opens that one game.
how = choose("Find the game by", ["game index", "seed"], key="find", radio=True)
if how == "seed":
    text = text_filter("Seed (the `seed` column of `games`)", key="seed").strip()
    found = load(folder, "games_with_seed", int(text)) if text.lstrip("-").isdigit() else None
    if found is None or found.is_empty():
        st.info(("No game of this experiment has that seed. " if text else "Type a seed. ")
                + "Copy one from the SQL page: `SELECT variant, n_players, game_index, seed FROM games LIMIT 10`.")
        st.stop()
    variant, n_players, index = str(found["variant"][0]), int(found["n_players"][0]), int(found["game_index"][0])
else:
    left, middle, right = st.columns(3)
    variant = variant_picker(report, container=left)
    n_players = players_picker(counts, container=middle)  # kept in the address with the index: a game's link
    index = number_filter(f"Game index (0 to {games - 1})", key="game", container=right, maximum=max(games - 1, 0),
                          step=1)
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
table(seats, key="replay_seats")

# Widget keys carry the game, so choosing another game starts again at set-up.
game_key = f"{folder.name}/{trace.variant}/{trace.n_players}/{trace.game_index}"
turn_key = f"replay-turn/{game_key}"
turns = turns_of(trace)


def step_turn(by: int) -> None:
    """Move the turn slider by ``by`` turns (the previous/next buttons)."""
    position = turns.index(st.session_state.get(turn_key, turns[0])) + by
    st.session_state[turn_key] = turns[min(max(position, 0), len(turns) - 1)]


back, slider, forward = st.columns([1, 12, 1], vertical_alignment="bottom")
back.button("◀", help="Previous turn", on_click=step_turn, args=(-1,), disabled=len(turns) < 2, width="stretch")
forward.button("▶", help="Next turn", on_click=step_turn, args=(1,), disabled=len(turns) < 2, width="stretch")
if len(turns) > 1:
    turn = int(slider.select_slider("Turn", options=turns, key=turn_key,
                                    format_func=lambda value: "set-up" if value == 0 else str(value)))
else:
    turn = turns[0]
moments = moments_of_turn(trace, turn)
moment = moments[-1]
if len(moments) > 1:
    labels = {index: cut(f"{position + 1}. {trace.snapshots[index].action}")
              for position, index in enumerate(moments)}
    moment = int(st.select_slider(f"Action within turn {turn} (the last one shows the table after the turn)",
                                  options=moments, value=moments[-1], format_func=labels.__getitem__,
                                  key=f"replay-moment/{game_key}/{turn}"))
snapshot = trace.snapshots[moment]
view = snapshot.view

st.subheader("After set-up" if turn == 0 else f"Turn {turn}" + ("" if moment == moments[-1] else
                                                                 f", after action {moments.index(moment) + 1}"))
st.caption((f"Last action: {snapshot.action} · " if snapshot.action else "")
           + f"Phase **{view.phase}** · " + (f"seat **{view.to_act}** to act" if view.to_act >= 0 else "game over")
           + " · an omniscient designer's view: every hand and face-down card is shown, although in the game "
           "only their owners (or nobody) could see them.")
hand_hidden = get_game(trace.game).info.hidden_between_seats
for first in range(0, trace.n_players, SEATS_PER_ROW):
    row = view.seats[first:first + SEATS_PER_ROW]
    for seat_view, column in zip(row, st.columns(min(trace.n_players, SEATS_PER_ROW)), strict=False):
        with column.container(border=True):
            tags = [trace.agents[seat_view.seat]] + ([seat_view.title] if seat_view.title else [])
            if seat_view.seat == view.to_act:
                tags.append("to act")
            st.markdown(f"#### Seat {seat_view.seat}\n" + " · ".join(tags))
            for line in seat_lines(seat_view, hand_hidden):
                st.markdown(line)
with st.container(border=True):
    st.markdown("#### Table")
    for line in table_lines(view):
        st.markdown(line)

st.subheader(f"What happened in turn {turn}" if turn else "Set-up")
st.dataframe(events_between(trace, moments[0], moment), hide_index=True, width="stretch")
with st.expander("Every event of the game"):
    st.dataframe(trace.events, hide_index=True)
