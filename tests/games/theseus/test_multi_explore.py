"""Explore multiple cards at once: the readings of ``rules.multi_explore``.

Rulebook: "If an effect allows you to Explore multiple cards at once, take all
of those cards before resolving your Hand limit. Whenever cards leave the
Board, the Board may be refilled." The literal default (``per_effect``): the
cards of one ``explore N`` effect (N >= 2) all come from the Board as it stood,
and the Board is refilled after the last of them. ``per_card`` holds the
refills over every explore of one card use (icon and effect);
``refill_between`` refills after every pick (the engine's reading before).
"""

from __future__ import annotations

import pytest

from simcore.games.theseus.rules import (
    MAIN,
    RANK,
    STEP_EXPLORE,
    STEP_HOLD_REFILL,
    STEP_REFILL,
    STEP_SUBJUGATE,
    use_sequence,
)
from simcore.parameters import ParameterError

from .helpers import (
    board,
    bonus_cards,
    bonuses,
    build,
    configured,
    every_card_once,
    explore,
    hand,
    use,
)

# A Navigator whose icon explores and whose effect explores two cards at once;
# a Scout whose icon explores and whose effect explores one more card.
NAVIGATOR = {"cards.navigator.icon": "explore", "cards.navigator.use": "explore 2"}
SCOUT = {"cards.scout.icon": "explore", "cards.scout.use": "explore 1"}
RANK_ONE_BOARD = ["shepherd", "fisherman", "herald", "porter"]
RANK_ONE_TOPS = {1: ["scout", "torchbearer", "herald", "porter"]}


def test_the_cards_of_one_explore_effect_come_from_the_board_as_it_stood_and_then_it_is_refilled() -> None:
    state = build(parties=[["navigator"], []], board=RANK_ONE_BOARD, deck_tops=RANK_ONE_TOPS,
                  config=configured(NAVIGATOR))
    use(state, "navigator")
    explore(state, "shepherd")  # the icon's explore: a single card, the Board is refilled at once
    assert board(state) == ["fisherman", "herald", "porter", "scout"]
    explore(state, "fisherman")  # the first card of "explore 2"
    assert board(state) == ["herald", "porter", "scout"]  # not refilled between the cards of one effect
    assert state.asked_kind() == STEP_EXPLORE
    explore(state, "scout")
    assert board(state) == ["herald", "porter", "torchbearer", "herald"]  # refilled after the last card
    assert hand(state, 0) == ["shepherd", "fisherman", "scout"] and state.asked_kind() == MAIN
    assert every_card_once(state)


def test_an_effect_exploring_a_single_card_is_not_a_multi_card_explore() -> None:
    state = build(parties=[["scout"], []], board=RANK_ONE_BOARD, deck_tops=RANK_ONE_TOPS, config=configured(SCOUT))
    use(state, "scout")
    explore(state, "herald")  # the icon
    assert board(state) == ["shepherd", "fisherman", "porter", "scout"]  # refilled before the effect's card
    explore(state, "scout")
    assert hand(state, 0) == ["herald", "scout"] and len(state.board()) == 4


def test_per_card_every_explore_of_one_card_use_comes_from_the_board_as_it_stood() -> None:
    state = build(parties=[["scout"], []], board=RANK_ONE_BOARD, deck_tops=RANK_ONE_TOPS,
                  config=configured({**SCOUT, "rules.multi_explore": "per_card"}))
    use(state, "scout")
    explore(state, "herald")
    assert board(state) == ["shepherd", "fisherman", "porter"]  # icon and effect: one multi-card explore
    explore(state, "porter")
    assert board(state) == ["shepherd", "fisherman", "scout", "torchbearer"]


def test_refill_between_refills_the_board_after_every_pick_so_a_revealed_card_can_be_taken() -> None:
    state = build(parties=[["navigator"], []], board=RANK_ONE_BOARD, deck_tops=RANK_ONE_TOPS,
                  config=configured({**NAVIGATOR, "rules.multi_explore": "refill_between"}))
    use(state, "navigator")
    explore(state, "shepherd")
    explore(state, "fisherman")
    assert board(state) == ["herald", "porter", "scout", "torchbearer"]
    explore(state, "torchbearer")  # revealed by the refill between the two cards of "explore 2"
    assert hand(state, 0) == ["shepherd", "fisherman", "torchbearer"]


def test_a_multi_card_explore_larger_than_the_board_takes_the_rest_from_its_refill() -> None:
    state = build(parties=[["navigator"], []], board=RANK_ONE_BOARD, deck_tops=RANK_ONE_TOPS,
                  config=configured({"cards.navigator.icon": "subjugate", "cards.navigator.use": "explore 5"}))
    use(state, "navigator")  # subjugate with an empty Hand does nothing; then explore 5
    for name in RANK_ONE_BOARD:
        explore(state, name)
    assert board(state) == ["scout", "torchbearer", "herald", "porter"]  # the Board ran out: refilled
    explore(state, "torchbearer")
    assert len(hand(state, 0)) == 5 and len(state.board()) == 4


def test_the_new_rank_and_its_bonuses_come_only_after_all_cards_of_the_explore_are_taken() -> None:
    # Two Rank 1 cards left in the deck: the refill after the last pick empties
    # it, so Rank 2 begins then; no card of the multi-card explore can carry its Bonus.
    tops = {1: ["scout", "torchbearer"], 2: ["oracle", "thief", "sage", "bailiff"]}
    state = build(parties=[["navigator"], []], board=RANK_ONE_BOARD, deck_tops=tops, only_tops=[1],
                  config=configured({"cards.navigator.icon": "subjugate", "cards.navigator.use": "explore 3"}))
    use(state, "navigator")
    explore(state, "shepherd")
    explore(state, "fisherman")
    assert state.numbers[RANK] == 1 and bonus_cards(state) == []
    explore(state, "herald")
    assert state.numbers[RANK] == 2 and bonuses(state)[0] == 0
    assert bonus_cards(state) == ["porter", "scout", "torchbearer"]  # the Board's lower-Rank cards at Rank 2
    assert board(state) == ["porter", "scout", "torchbearer", "oracle"]


def test_with_refills_between_picks_a_later_pick_can_take_a_bonus_placed_by_an_earlier_refill() -> None:
    tops = {1: ["scout", "torchbearer"], 2: ["oracle", "thief", "sage", "bailiff"]}
    state = build(parties=[["navigator"], []], board=RANK_ONE_BOARD, deck_tops=tops, only_tops=[1],
                  config=configured({"cards.navigator.icon": "subjugate", "cards.navigator.use": "explore 3",
                                     "rules.multi_explore": "refill_between"}))
    use(state, "navigator")
    explore(state, "shepherd")
    explore(state, "fisherman")  # this refill reveals the last Rank 1 card: Rank 2 begins
    assert state.numbers[RANK] == 2 and "herald" in bonus_cards(state)
    explore(state, "herald")
    assert bonuses(state)[0] == 1


def test_the_readings_put_the_refill_hold_around_the_right_picks() -> None:
    explore_two = ((STEP_EXPLORE, 2),)
    assert use_sequence(STEP_EXPLORE, explore_two, "per_effect") == (
        STEP_EXPLORE, STEP_HOLD_REFILL, STEP_EXPLORE, STEP_EXPLORE, STEP_REFILL)
    assert use_sequence(STEP_EXPLORE, explore_two, "per_card") == (
        STEP_HOLD_REFILL, STEP_EXPLORE, STEP_EXPLORE, STEP_EXPLORE, STEP_REFILL)
    assert use_sequence(STEP_EXPLORE, explore_two, "refill_between") == (STEP_EXPLORE,) * 3
    assert use_sequence(STEP_SUBJUGATE, ((STEP_EXPLORE, 1),), "per_card") == (STEP_SUBJUGATE, STEP_EXPLORE)


def test_the_default_reading_is_the_literal_one_and_an_unknown_reading_is_an_error_naming_the_path() -> None:
    assert configured({}).multi_explore == "per_effect"
    with pytest.raises(ParameterError, match=r"rules\.multi_explore.*per_effect, per_card, refill_between"):
        configured({"rules.multi_explore": "sometimes"})
