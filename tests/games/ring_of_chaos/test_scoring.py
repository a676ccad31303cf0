"""Summoning Points: the Ring, stealing, elimination rewards, the 11th point, the scores."""

from __future__ import annotations

import pytest

from simcore.games.ring_of_chaos.rules import (
    ALIVE,
    END_POINTS,
    PICK_UP_RING,
    PLAY,
    RING_HOLDER,
    STEAL_RING,
)

from .helpers import act, build, hero, play

NEUTRAL = "nameless_band"


@pytest.mark.parametrize("how", ["pick_up", "steal", "dominance", "mind_control"])
def test_taking_the_ring_by_any_means_gives_one_point(how: str) -> None:
    if how == "pick_up":
        state = build([NEUTRAL, NEUTRAL], [0, 16], points=[5, 5])
        act(state, PICK_UP_RING)
    else:
        hand = [how] if how != "steal" else []
        state = build([NEUTRAL, NEUTRAL], [1, 2], [hand, []], ring_holder=1, points=[5, 5])
        if how == "steal":
            act(state, STEAL_RING)
        else:
            play(state, how)
    assert state.numbers[RING_HOLDER] == 0 and state.scores() == [6, 5]


def test_taking_the_ring_for_the_eleventh_point_wins_at_once() -> None:
    state = build([NEUTRAL, NEUTRAL], [0, 16], points=[10, 9])
    act(state, PICK_UP_RING)
    assert state.is_terminal() and state.winners() == [0] and state.end_reason() == END_POINTS
    assert state.scores() == [11, 9] and state.current_player == -1
    assert state.returns() == [1.0, 0.0] and state.ranks() == [1, 2]


def test_wearing_the_ring_as_the_turn_begins_can_win_and_never_counts_past_eleven() -> None:
    state = build([NEUTRAL, NEUTRAL], [1, 16], ring_holder=0, points=[9, 0], start_turn=True)
    assert state.is_terminal() and state.winners() == [0] and state.scores() == [11, 0]
    assert state.scores() == [11, 0]


def test_the_eliminating_party_takes_the_victims_points_but_never_past_ten() -> None:
    state = build([NEUTRAL, NEUTRAL, NEUTRAL], [1, 2, 16], [["sword"], [], []], heroes=[(2, 2, 2, 2), (0, 0, 1, 0),
                  (2, 2, 2, 2)], points=[7, 6, 0])
    play(state, "sword")
    act(state, 1)
    act(state, hero("rogue"))
    assert not state.alive(1) and state.scores() == [10, 0, 0] and not state.is_terminal()


def test_the_eliminating_party_takes_all_the_victims_points_below_ten() -> None:
    state = build([NEUTRAL, NEUTRAL, NEUTRAL], [1, 2, 16], [["sword"], [], []], heroes=[(2, 2, 2, 2), (0, 0, 1, 0),
                  (2, 2, 2, 2)], points=[2, 6, 0])
    play(state, "sword")
    act(state, 1)
    act(state, hero("rogue"))
    assert state.scores() == [8, 0, 0]


def test_points_never_go_below_zero_chaos_magic_needs_a_point_to_take() -> None:
    state = build([NEUTRAL, NEUTRAL], [13, 16], [["chaos_magic"], []], points=[0, 0])
    assert PLAY.encode(0) not in state.legal_actions()


def test_ranks_put_the_winner_first_then_living_parties_by_points_then_the_eliminated() -> None:
    state = build([NEUTRAL, NEUTRAL, NEUTRAL], [0, 2, 16], points=[10, 9, 3])
    state.set_seat_number(1, ALIVE, 0)
    act(state, PICK_UP_RING)
    assert state.ranks() == [1, 3, 2]
