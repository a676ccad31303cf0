"""The card counters: opening hand, drawn, played (plants and blocks), blocked with, playable."""

from __future__ import annotations

from simcore.agents.registry import parse_agent_spec
from simcore.play import play_game
from tests.example_game import GAME
from tests.example_game.rules import (
    BLOCK,
    BLOCKED_WITH,
    DRAW,
    DRAWN,
    OPENING,
    PICK,
    PLANT,
    PLAYABLE,
    PLAYED,
    OrchardState,
)
from tests.gamekit import card_rows

from .helpers import DEFAULT, act, build, card, position


def test_the_opening_hand_counts_as_opening_and_drawn() -> None:
    state = GAME.new_state(DEFAULT, 2, 3)
    for seat in (0, 1):
        for held in state.hand(seat).cards:
            assert state.stats.get(seat, OPENING, held) >= 1
            assert state.stats.get(seat, DRAWN, held) >= 1


def test_picks_and_draws_count_as_drawn() -> None:
    # The pick refills the market with the three cards on top; the draw then takes apple_5.
    state = build([["apple_1"], ["pear_1"]], market=["plum_5"], draw_top=["apple_3", "apple_3", "pear_3", "apple_5"])
    act(state, PICK.encode(0))
    act(state, DRAW.encode())
    assert state.stats.get(0, DRAWN, card("plum_5")) == 1
    assert state.stats.get(1, DRAWN, card("apple_5")) == 1


def test_plants_and_blocks_count_as_played_and_the_block_as_blocked_with() -> None:
    state = build([["apple_5"], ["apple_1"]])
    act(state, PLANT.encode(0))
    act(state, BLOCK.encode(position(state, 1, "apple_1")))
    assert state.stats.get(0, PLAYED, card("apple_5")) == 1
    assert state.stats.get(1, PLAYED, card("apple_1")) == 1
    assert state.stats.get(1, BLOCKED_WITH, card("apple_1")) == 1
    assert state.stats.first_played_turn(0, card("apple_5")) == 1


def test_playable_counts_each_card_once_per_step_at_which_it_could_be_planted_or_block() -> None:
    state = build([["apple_1", "apple_1", "pear_1"], ["plum_1"]])
    state.note_offered(state.legal_actions())
    assert state.stats.get(0, PLAYABLE, card("apple_1")) == 1  # two copies, one step: once
    assert state.stats.get(0, PLAYABLE, card("pear_1")) == 1


def test_the_card_rows_are_the_counters_of_every_card_drawn_played_or_playable() -> None:
    played = play_game(GAME, DEFAULT, 3, 8, [parse_agent_spec("random")] * 3)
    names, columns = card_rows(played.state, len(GAME.info.card_counters))
    seats, cards = columns[0], columns[1]
    rows = len(seats) // 2
    assert names == DEFAULT.names and rows > 0
    assert isinstance(played.state, OrchardState)
    stats = played.state.stats
    expected = sum(1 for seat in range(3) for c in range(len(names))
                   if stats.get(seat, DRAWN, c) or stats.get(seat, PLAYED, c) or stats.get(seat, PLAYABLE, c))
    assert rows == expected
    assert len(cards) == 2 * rows
