"""Ending the Game: five rounds, or set-up failing on the second pass through the deck."""

from __future__ import annotations

from collections import Counter

import pytest

from simcore.games.divvy.rules import (
    DISCARD,
    DISCARD_PILE,
    DRAW_PILE,
    END_DECK,
    END_ROUNDS,
    OVER,
    REINFORCE,
    RESHUFFLED,
    ROUND,
    TREASURE_ROW,
    WON_TREASURE,
)

from .helpers import (
    BRAWL_HANDS,
    DEFAULT,
    PLAIN_HANDS,
    act,
    both,
    build,
    choose_many,
    choose_one,
    coin,
    configured,
    d20,
    hand_names,
    ids,
    locations,
    named,
    play_plain_round,
)

DECK = Counter(DEFAULT.deck)


def test_the_game_ends_after_the_fifth_round_without_a_new_set_up() -> None:
    state = build(PLAIN_HANDS, ["bows_8"], round_number=5)
    pile_before = list(state.zones[DRAW_PILE].cards)
    play_plain_round(state)
    assert state.is_terminal() and state.phase == OVER
    assert state.end_reason() == END_ROUNDS and state.turns() == 5
    assert state.current_player == -1 and list(state.legal_actions()) == []
    assert state.zones[DRAW_PILE].cards == pile_before  # nothing dealt
    assert state.zones[TREASURE_ROW].cards == []  # nothing revealed
    assert named(state.seat_zone(0, WON_TREASURE).cards) == ["bows_8"]  # the fifth round was settled first
    assert locations(state) == DECK


@pytest.mark.parametrize("round_number", [1, 2, 3, 4])
def test_rounds_one_to_four_are_followed_by_another_round(round_number: int) -> None:
    state = build(PLAIN_HANDS, ["bows_8"], round_number=round_number)
    play_plain_round(state)
    assert not state.is_terminal()
    assert state.numbers[ROUND] == round_number + 1 and state.turns() == round_number
    assert state.phase == DISCARD


def test_a_rounds_override_changes_the_length_of_the_game() -> None:
    config = configured({"rules.rounds": 2})
    state = build(PLAIN_HANDS, ["bows_8"], round_number=2, config=config)
    play_plain_round(state)
    assert state.is_terminal() and state.end_reason() == END_ROUNDS and state.turns() == 2


def test_the_discard_pile_is_shuffled_into_a_new_draw_pile_when_the_draw_pile_first_runs_out() -> None:
    # Only blades_3 (the next treasure) is left to draw; every other card is in the discard pile.
    state = build(PLAIN_HANDS, ["bows_8"], draw_top=["blades_3"], rest="discard")
    assert d20("blades_3") >= 20
    # The leads are discarded at the end of the round.
    old_discards = set(named(state.zones[DISCARD_PILE].cards)) | {"axes_12", "axes_6"}
    play_plain_round(state)
    assert state.numbers[RESHUFFLED] and not state.is_terminal()
    assert state.numbers[ROUND] == 2 and named(state.zones[TREASURE_ROW].cards) == ["blades_3"]
    assert [len(hand) for hand in both(state.hand)] == [9, 9]  # the deal went on from the reshuffled pile
    assert state.zones[DISCARD_PILE].cards == []
    dealt = (hand_names(state, 0) + hand_names(state, 1)) - Counter(PLAIN_HANDS[0][1:] + PLAIN_HANDS[1][1:])
    assert set(dealt) <= old_discards and sum(dealt.values()) == 10
    assert set(named(state.zones[DRAW_PILE].cards)) == old_discards - set(dealt)
    assert locations(state) == DECK


def test_the_pile_is_reshuffled_only_once_and_a_deal_failing_on_the_second_pass_ends_the_game() -> None:
    dealt = ["bows_1", "bows_2", "bows_4", "bows_5"]  # 4 of the 10 cards the deal needs
    state = build(PLAIN_HANDS, ["bows_8"], draw_top=["blades_3", *dealt], rest="discard", reshuffled=True)
    discard_before = list(state.zones[DISCARD_PILE].cards)
    play_plain_round(state)
    assert state.is_terminal() and state.end_reason() == END_DECK
    assert state.turns() == 1 and state.current_player == -1
    assert state.zones[DRAW_PILE].cards == []
    assert Counter(state.zones[DISCARD_PILE].cards) == Counter(discard_before) + Counter(ids(["axes_12", "axes_6"]))
    assert named(state.zones[TREASURE_ROW].cards) == ["blades_3"]
    assert locations(state) == DECK


def test_a_treasure_reveal_failing_on_the_second_pass_ends_the_game_and_leaves_its_cards_in_the_row() -> None:
    assert d20("staves_2") < 20
    state = build(PLAIN_HANDS, ["bows_8"], draw_top=["staves_2"], rest="discard", reshuffled=True)
    play_plain_round(state)
    assert state.is_terminal() and state.end_reason() == END_DECK and state.turns() == 1
    assert named(state.zones[TREASURE_ROW].cards) == ["staves_2"]  # turned over, never claimed
    assert state.game_columns()["unclaimed_coins"] == coin("staves_2")
    assert locations(state) == DECK


def test_running_out_of_cards_mid_round_on_the_second_pass_ends_the_game_at_the_next_set_up() -> None:
    state = build(BRAWL_HANDS, ["staves_2"], draw_top=["bows_1"], rest="discard", reshuffled=True)
    choose_one(state, "axes_12", "blades_12")
    choose_many(state, ["axes_1"], ["blades_1"])
    choose_one(state, "bows_10", "staves_10")  # shield beats sword
    act(state, 1)  # two placed cards to replace, one card left to draw
    assert hand_names(state, 0) == Counter(["bows_11", "bows_12", "bows_1"])
    assert state.phase == REINFORCE and not state.is_terminal()
    choose_many(state, [], [])
    assert state.is_terminal() and state.end_reason() == END_DECK
    assert locations(state) == DECK


def test_replacement_draws_on_the_first_pass_reshuffle_the_discards_when_the_pile_runs_out() -> None:
    state = build(BRAWL_HANDS, ["staves_2"], draw_top=["bows_1"], rest="discard")
    choose_one(state, "axes_12", "blades_12")
    choose_many(state, ["axes_1"], ["blades_1"])
    choose_one(state, "bows_10", "staves_10")
    act(state, 1)
    assert state.numbers[RESHUFFLED] and len(state.hand(0)) == 4  # bows_1, then one card of the reshuffled pile
    assert state.phase == REINFORCE
    assert locations(state) == DECK


def test_the_richer_player_wins_also_when_the_deck_runs_out() -> None:
    state = build(PLAIN_HANDS, ["bows_8"], draw_top=["staves_2"], rest="discard", reshuffled=True,
                  won=(["axes_9"], ["axes_5"]))
    assert coin("axes_9") < coin("axes_5") < coin("axes_9") + coin("bows_8")  # seat 1 leads until bows_8 is won
    play_plain_round(state)  # seat 0 wins bows_8 in the last round that could be set up
    assert state.end_reason() == END_DECK
    assert state.scores() == [coin("axes_9") + coin("bows_8"), coin("axes_5")]
    assert state.winners() == [0] and state.returns() == [1.0, 0.0]
