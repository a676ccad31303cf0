"""The end: after ``rounds`` rounds, or when the seat to act has nothing to do; scores, sets, winners."""

from __future__ import annotations

from tests.example_game.rules import DRAW, END_NO_CARDS, END_ROUNDS, PLANT

from .helpers import act, build, configured


def test_the_game_ends_after_the_last_seats_turn_of_the_last_round() -> None:
    config = configured({"rules.rounds": 2})
    state = build([["apple_1"], ["pear_1"]], config=config)
    for _ in range(3):
        act(state, DRAW.encode())
        assert not state.is_terminal()
    act(state, DRAW.encode())
    assert state.is_terminal() and state.end_reason() == END_ROUNDS and state.current_player == -1
    assert state.turns() == 2 and state.legal_actions() == []


def test_the_game_ends_when_the_seat_to_act_has_nothing_to_do() -> None:
    state = build([["apple_1"], []], rest=False)
    act(state, PLANT.encode(0))  # seat 1: empty hand, empty market, both piles empty
    assert state.is_terminal() and state.end_reason() == END_NO_CARDS


def test_an_orchard_scores_its_values_plus_the_set_bonus_per_complete_set() -> None:
    state = build([[], []], orchards=[["apple_1", "pear_3", "plum_5", "apple_5", "pear_1"],
                                      ["apple_3", "apple_3", "pear_5"]], rest=False)
    assert state.complete_sets(0) == 1 and state.complete_sets(1) == 0
    assert state.scores() == [1 + 3 + 5 + 5 + 1 + 3, 3 + 3 + 5]
    two_sets = build([[], []], orchards=[["apple_1", "pear_1", "plum_1"] * 2, []], rest=False,
                     config=configured({"rules.set_bonus": 4}))
    assert two_sets.scores()[0] == 6 + 2 * 4


def test_the_best_score_wins_and_tied_seats_share_the_win() -> None:
    state = build([["apple_1"], []], orchards=[["pear_5"], ["plum_5", "apple_1"]], rest=False)
    act(state, PLANT.encode(0))  # 6 against 6, then seat 1 has nothing to do
    assert state.scores() == [6, 6]
    assert state.winners() == [0, 1] and state.returns() == [0.5, 0.5] and state.ranks() == [1, 1]
    lone = build([["apple_3"], []], orchards=[["pear_5"], ["plum_5", "apple_1"]], rest=False)
    act(lone, PLANT.encode(0))
    assert lone.winners() == [0] and lone.returns() == [1.0, 0.0] and lone.ranks() == [1, 2]
