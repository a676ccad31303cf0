"""How to Play and Starting a New Round: one hand-made position per rule.

Every position is built with ``helpers.build`` and played through
``legal_actions``/``apply``; card names are looked up in the card data, and
each scenario first checks the card attributes it relies on.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations
from typing import Any

import pytest

from simcore.games.divvy.rules import (
    BATTLE_RECORD,
    BRAWL,
    BRAWL_RESULT,
    CHAFF,
    CHAFF_BID,
    DISCARD,
    DISCARD_PILE,
    DRAW_PILE,
    HAND_MASK,
    LEAD,
    REINFORCE,
    REINFORCEMENTS,
    REPLACE,
    ROUND,
    TREASURE_ROW,
    WON_TREASURE,
    DivvyState,
    masks_with_sizes,
)

from .helpers import (
    BRAWL_HANDS,
    BY_ICON,
    DEFAULT,
    PLAIN_HANDS,
    PLAIN_LEFTOVERS,
    act,
    both,
    build,
    choose_many,
    choose_one,
    coin,
    configured,
    hand_names,
    icon,
    locations,
    mask,
    named,
    play_plain_round,
    position,
    seat_cards,
    seat_numbers,
    suit,
    to_brawl,
    value,
)


def _masks(positions: list[int], smallest: int, largest: int) -> set[int]:
    """Every bit mask choosing between smallest and largest of ``positions``."""
    return {
        sum(1 << p for p in chosen)
        for size in range(smallest, largest + 1)
        for chosen in combinations(positions, size)
    }


# --------------------------------------------------------------------- lead


def test_each_player_chooses_a_lead_fighter_from_the_hand_and_both_are_revealed_together() -> None:
    state = build(PLAIN_HANDS, ["bows_8"])
    assert list(state.legal_actions()) == list(range(5))
    act(state, position(state, 0, "axes_12"))
    assert state.phase == LEAD and state.current_player == 1
    assert both(state.lead_card) == [-1, -1] and len(state.hand(0)) == 5  # nothing is revealed yet
    assert list(state.legal_actions()) == list(range(5))
    act(state, position(state, 1, "axes_6"))
    assert named(both(state.lead_card)) == ["axes_12", "axes_6"]
    assert hand_names(state, 0) == Counter(PLAIN_HANDS[0][1:]) and hand_names(state, 1) == Counter(PLAIN_HANDS[1][1:])
    assert state.phase == CHAFF and state.current_player == 0


def _advance_to(phase: int) -> DivvyState:
    state = build(PLAIN_HANDS, ["bows_8"])
    if phase != LEAD:
        choose_one(state, "axes_12", "axes_6")
    if phase not in (LEAD, CHAFF):
        choose_many(state, ["axes_2"], ["blades_4"])
    if phase == REINFORCE:
        choose_one(state, "blades_1", "bows_6")
    assert state.phase == phase and state.current_player == 0
    return state


@pytest.mark.parametrize("phase", [LEAD, CHAFF, BRAWL, REINFORCE], ids=["lead", "chaff", "brawl", "reinforce"])
def test_seat_one_cannot_see_what_seat_zero_chose_before_choosing_itself(phase: int) -> None:
    state = _advance_to(phase)
    seen_by_one, seen_by_zero = set(), set()
    for action in state.legal_actions():
        after = state.clone()
        after.apply(action)
        assert after.current_player == 1 and after.phase == phase
        assert both(after.hand) == both(state.hand) and both(after.lead_card) == both(state.lead_card)
        assert seat_numbers(after, BATTLE_RECORD) == seat_numbers(state, BATTLE_RECORD)
        seen_by_one.add(after.observation(1))
        seen_by_zero.add(after.observation(0))
    assert len(seen_by_one) == 1  # the same for every choice of seat 0
    assert len(seen_by_zero) == len(state.legal_actions()) > 1  # while seat 0 sees its own choice


def test_only_suit_and_value_of_the_lead_fighter_count_never_its_battle_icon() -> None:
    # The lead icons alone would give seat 0 the brawl (shield beats sword),
    # the battle cards give it to seat 1 (shield beats sword the other way).
    hands = (
        ["bows_10", "axes_1", "axes_7", "axes_2", "axes_3"],
        ["blades_12", "blades_1", "staves_9", "staves_2", "staves_5"],
    )
    state = build(hands, ["bows_8"])
    icons = (icon("bows_10"), icon("blades_12"), icon("axes_7"), icon("staves_9"))
    assert icons == ("shield", "sword", "sword", "shield")
    choose_one(state, "bows_10", "blades_12")
    choose_many(state, ["axes_1"], ["blades_1"])
    choose_one(state, "axes_7", "staves_9")
    assert state.numbers[BRAWL_RESULT] == 1 and state.current_player == 1
    act(state, 0)  # seat 1 takes its placed cards back
    choose_many(state, [], [])
    # Fighter Strength is by value: blades_12 (12) beats bows_10 (10), icons aside.
    assert value("blades_12") > value("bows_10")
    assert named(state.seat_zone(1, WON_TREASURE).cards) == ["bows_8"] and state.seat_zone(0, WON_TREASURE).cards == []


# -------------------------------------------------------------------- chaff


def test_the_chaff_bid_is_at_least_one_card_and_leaves_one_card_for_the_brawl() -> None:
    state = _advance_to(CHAFF)
    for seat in (0, 1):
        assert len(state.hand(seat)) == 4
        assert set(state.legal_actions()) == _masks([0, 1, 2, 3], 1, 3)
        assert 0 not in state.legal_actions() and 0b1111 not in state.legal_actions()
        act(state, mask(state, seat, named(state.hand(seat)[:2])))


def test_the_masks_offered_are_every_choice_of_positions_of_each_size_and_kept_per_size_range() -> None:
    for count in range(9):
        for smallest in range(count + 1):
            for largest in range(smallest, count + 1):
                expected = [HAND_MASK.encode(sum(1 << position for position in chosen))
                            for size in range(smallest, largest + 1) for chosen in combinations(range(count), size)]
                assert masks_with_sizes(count, smallest, largest) == expected
                assert masks_with_sizes(count, smallest, largest) is masks_with_sizes(count, smallest, largest)


def test_the_chaff_is_placed_face_down_and_the_opponent_sees_only_how_many_cards() -> None:
    seen = set()
    for bid in (["axes_2"], ["bows_3"], ["staves_5"]):
        state = _advance_to(CHAFF)
        choose_many(state, bid, ["blades_4"])
        assert state.phase == BRAWL
        assert named(state.seat_zone(0, CHAFF_BID).cards) == bid and bid[0] not in hand_names(state, 0)
        seen.add(state.observation(1))
    assert len(seen) == 1
    state = _advance_to(CHAFF)
    choose_many(state, ["axes_2", "bows_3"], ["blades_4"])
    assert state.observation(1) not in seen  # the size of the bid is public


# -------------------------------------------------------------------- brawl


@pytest.mark.parametrize(
    ("first", "second", "winner"),
    [
        ("shield", "sword", 0), ("sword", "shield", 1),
        ("sword", "scroll", 0), ("scroll", "sword", 1),
        ("scroll", "shield", 0), ("shield", "scroll", 1),
        ("shield", "shield", -1), ("sword", "sword", -1), ("scroll", "scroll", -1),
    ],
)
def test_shield_beats_sword_sword_beats_scroll_scroll_beats_shield_and_equal_icons_tie(
    first: str, second: str, winner: int
) -> None:
    state = to_brawl(["bows_8"])
    assert set(state.legal_actions()) == {0, 1, 2}  # any card left in hand
    choose_one(state, BY_ICON[0][first], BY_ICON[1][second])
    assert named(seat_numbers(state, BATTLE_RECORD)) == [BY_ICON[0][first], BY_ICON[1][second]]
    assert state.numbers[BRAWL_RESULT] == winner
    if winner < 0:
        assert state.phase == REINFORCE and state.current_player == 0
    else:
        assert state.phase == REPLACE and state.current_player == winner


def test_shield_beats_sword_and_the_winner_may_replace_the_placed_cards() -> None:
    draw_top = ["bows_1", "bows_2", "bows_3", "bows_4"]
    state = to_brawl(["staves_2"], draw_top)
    assert icon("staves_2") != "shield"  # no bonus draw in this scenario
    choose_one(state, "bows_10", "staves_10")
    assert state.phase == REPLACE and state.current_player == 0
    assert sorted(state.legal_actions()) == [0, 1]  # replace them, or take them back
    discard_before = list(state.zones[DISCARD_PILE].cards)
    act(state, 1)
    # The bid (axes_1) and the battle card (bows_10) are replaced by as many draws: two.
    assert hand_names(state, 0) == Counter(["bows_11", "bows_12", "bows_1", "bows_2"])
    assert Counter(named(state.zones[DISCARD_PILE].cards)) == Counter([*named(discard_before), "axes_1", "bows_10"])
    assert named(state.zones[DRAW_PILE].cards[-2:]) == ["bows_4", "bows_3"]  # bows_3 is the new top card
    assert state.phase == REINFORCE and state.current_player == 0
    assert locations(state) == Counter(DEFAULT.deck)


def test_the_winner_may_instead_take_the_placed_cards_back() -> None:
    state = to_brawl(["staves_2"], ["bows_1", "bows_2", "bows_3"])
    choose_one(state, "bows_10", "staves_10")
    pile_before, discard_before = list(state.zones[DRAW_PILE].cards), list(state.zones[DISCARD_PILE].cards)
    act(state, 0)
    assert hand_names(state, 0) == Counter(["bows_11", "bows_12", "axes_1", "bows_10"])
    assert state.zones[DRAW_PILE].cards == pile_before and state.zones[DISCARD_PILE].cards == discard_before
    assert state.phase == REINFORCE


def test_a_bid_of_several_cards_is_replaced_by_as_many_draws() -> None:
    state = build(BRAWL_HANDS, ["staves_2"], draw_top=["bows_1", "bows_2", "bows_3", "bows_4"])
    choose_one(state, "axes_12", "blades_12")
    choose_many(state, ["axes_1", "bows_11"], ["blades_1"])
    choose_one(state, "bows_10", "staves_10")
    act(state, 1)
    assert hand_names(state, 0) == Counter(["bows_12", "bows_1", "bows_2", "bows_3"])


def test_the_loser_of_the_brawl_keeps_the_bid_and_battle_cards_and_draws_nothing() -> None:
    state = to_brawl(["staves_2"], ["bows_1", "bows_2", "bows_3"])
    choose_one(state, "bows_10", "staves_10")
    assert state.numbers[BRAWL_RESULT] == 0
    assert hand_names(state, 1) == Counter(["staves_9", "staves_11", "blades_1", "staves_10"])
    assert state.seat_zone(1, CHAFF_BID).cards == []
    act(state, 1)
    assert hand_names(state, 1) == Counter(["staves_9", "staves_11", "blades_1", "staves_10"])


def test_a_tied_brawl_returns_every_placed_card_and_no_card_is_replaced() -> None:
    state = to_brawl(["staves_2"], ["bows_1", "bows_2", "bows_3"])
    pile_before, discard_before = list(state.zones[DRAW_PILE].cards), list(state.zones[DISCARD_PILE].cards)
    choose_one(state, "bows_12", "staves_11")
    assert state.numbers[BRAWL_RESULT] == -1 and state.phase == REINFORCE
    assert hand_names(state, 0) == Counter(["axes_1", "bows_10", "bows_11", "bows_12"])
    assert hand_names(state, 1) == Counter(["blades_1", "staves_9", "staves_10", "staves_11"])
    assert seat_cards(state, CHAFF_BID) == [[], []]
    assert state.zones[DRAW_PILE].cards == pile_before and state.zones[DISCARD_PILE].cards == discard_before


# -------------------------------------------------------------------- bonus


@pytest.mark.parametrize("replace", [1, 0], ids=["replace", "take_back"])
def test_winning_with_the_icon_of_the_last_treasure_card_draws_an_extra_card(replace: int) -> None:
    treasure = ["axes_7", "axes_9"]  # revealed in this order: axes_9 is the last card in the row
    assert (icon("axes_7"), icon("axes_9")) == ("sword", "shield")
    state = to_brawl(treasure, ["bows_1", "bows_2", "bows_3", "bows_4"])
    choose_one(state, "bows_10", "staves_10")  # shield beats sword
    act(state, replace)
    kept = ["bows_11", "bows_12"]
    if replace:
        assert hand_names(state, 0) == Counter([*kept, "bows_1", "bows_2", "bows_3"])  # 2 replaced + 1 extra
    else:
        assert hand_names(state, 0) == Counter([*kept, "axes_1", "bows_10", "bows_1"])  # 1 extra
    assert len(state.hand(1)) == 4


def test_no_extra_card_when_the_winning_icon_matches_only_an_earlier_treasure_card() -> None:
    treasure = ["axes_9", "axes_7"]  # shield first, sword last
    state = to_brawl(treasure, ["bows_1", "bows_2", "bows_3", "bows_4"])
    choose_one(state, "bows_10", "staves_10")  # shield beats sword
    act(state, 0)
    assert hand_names(state, 0) == Counter(["bows_11", "bows_12", "axes_1", "bows_10"])
    # The loser's sword matches the last treasure card: losing earns nothing either.
    assert hand_names(state, 1) == Counter(["staves_9", "staves_11", "blades_1", "staves_10"])


def test_a_tied_brawl_gives_no_extra_card_even_with_the_matching_icon() -> None:
    state = to_brawl(["axes_9"], ["bows_1", "bows_2"])
    pile_before = list(state.zones[DRAW_PILE].cards)
    choose_one(state, "bows_10", "staves_9")  # shield against shield, shield last in the row
    assert state.numbers[BRAWL_RESULT] == -1
    assert state.zones[DRAW_PILE].cards == pile_before
    assert [len(hand) for hand in both(state.hand)] == [4, 4]


def test_a_bonus_draw_override_draws_that_many_extra_cards() -> None:
    config = configured({"rules.bonus_draw": 2})
    state = to_brawl(["axes_9"], ["bows_1", "bows_2", "bows_3"], config=config)
    choose_one(state, "bows_10", "staves_10")
    act(state, 0)
    assert hand_names(state, 0) == Counter(["bows_11", "bows_12", "axes_1", "bows_10", "bows_1", "bows_2"])


# ----------------------------------------------------------- reinforcements


def test_only_cards_of_the_lead_fighters_suit_may_reinforce() -> None:
    hands = (
        ["axes_12", "axes_1", "axes_5", "bows_10", "axes_9"],
        ["blades_12", "blades_1", "staves_9", "staves_2", "staves_5"],
    )
    state = build(hands, ["bows_8"])
    choose_one(state, "axes_12", "blades_12")
    choose_many(state, ["axes_1"], ["staves_2"])
    choose_one(state, "bows_10", "staves_9")  # shield against shield: both take their cards back
    assert state.phase == REINFORCE
    same_suit = [p for p, c in enumerate(state.hand(0)) if suit(named([c])[0]) == "axes"]
    assert len(same_suit) == 3  # axes_5, axes_9 and axes_1 (back from the bid); bows_10 may not reinforce
    assert set(state.legal_actions()) == _masks(same_suit, 0, 3)
    act(state, mask(state, 0, ["axes_5", "axes_1"]))
    # Seat 1 leads blades and holds blades_1 (back from its bid) and staves.
    assert list(state.legal_actions()) == [0, 1 << position(state, 1, "blades_1")]
    act(state, 0)
    assert {"axes_5", "axes_1"} <= set(named(state.zones[DISCARD_PILE].cards))
    assert hand_names(state, 0)["axes_5"] == hand_names(state, 0)["axes_1"] == 0
    assert hand_names(state, 0)["axes_9"] == 1


def test_a_player_without_a_card_of_the_lead_suit_can_only_send_no_one() -> None:
    hands = (
        ["axes_12", "bows_1", "bows_10", "blades_2", "staves_3"],
        ["blades_12", "blades_1", "staves_9", "staves_2", "staves_5"],
    )
    state = build(hands, ["bows_8"])
    choose_one(state, "axes_12", "blades_12")
    choose_many(state, ["bows_1"], ["staves_2"])
    choose_one(state, "bows_10", "staves_9")
    assert state.phase == REINFORCE and state.current_player == 0
    assert list(state.legal_actions()) == [0]


@pytest.mark.parametrize(
    ("reinforcements", "winner"),
    [([], 0), (["blades_3"], 0), (["blades_2", "blades_3"], 1), (["blades_4"], -1)],
)
def test_fighter_strength_is_the_lead_value_plus_the_reinforcement_values(
    reinforcements: list[str], winner: int
) -> None:
    events: list[dict[str, Any]] = []
    hands = (
        ["axes_9", "bows_1", "bows_10", "bows_2", "bows_3"],
        ["blades_5", "blades_2", "blades_3", "blades_4", "staves_9"],
    )
    state = build(hands, ["axes_1", "staves_4"], events=events)
    choose_one(state, "axes_9", "blades_5")
    choose_many(state, ["bows_1"], ["staves_9"])
    choose_one(state, "bows_10", "blades_2")  # shield against shield: a tie, all cards go back
    choose_many(state, [], reinforcements)
    expected = [value("axes_9"), value("blades_5") + sum(value(name) for name in reinforcements)]
    reported = [event["strength"] for event in events if event["type"] == "reinforce"]
    assert reported == expected
    assert winner == (-1 if expected[0] == expected[1] else int(expected[1] > expected[0]))  # the premise
    row_coins = coin("axes_1") + coin("staves_4")
    if winner < 0:
        assert state.scores() == [0, 0]
    else:
        assert state.scores()[winner] == row_coins and state.scores()[1 - winner] == 0


# --------------------------------------------------------------- settle score


def test_the_stronger_fighter_wins_every_treasure_card_in_the_row() -> None:
    row = ["axes_1", "axes_5", "axes_9"]  # a gold, a silver and a copper
    state = build(PLAIN_HANDS, row, draw_top=["blades_3"])
    play_plain_round(state)
    assert named(state.seat_zone(0, WON_TREASURE).cards) == row and state.seat_zone(1, WON_TREASURE).cards == []
    assert state.scores() == [sum(coin(name) for name in row), 0]
    assert named(state.zones[TREASURE_ROW].cards) == ["blades_3"]  # only the new reveal is left


def test_tied_fighter_strength_leaves_the_treasure_in_the_row_for_the_next_round() -> None:
    hands = (
        ["axes_6", "axes_2", "blades_1", "bows_3", "staves_5"],
        ["staves_6", "blades_4", "bows_6", "staves_8", "staves_11"],
    )
    assert value("axes_6") == value("staves_6")
    state = build(hands, ["axes_1", "axes_5"], draw_top=["blades_3"])
    choose_one(state, "axes_6", "staves_6")
    choose_many(state, ["axes_2"], ["blades_4"])
    choose_one(state, "blades_1", "bows_6")
    choose_many(state, [], [])
    assert state.scores() == [0, 0] and seat_cards(state, WON_TREASURE) == [[], []]
    # Carried over, then the new reveal.
    assert named(state.zones[TREASURE_ROW].cards) == ["axes_1", "axes_5", "blades_3"]
    assert state.numbers[ROUND] == 2
    assert locations(state) == Counter(DEFAULT.deck)


def test_the_discard_variant_sends_tied_treasure_to_the_discard_pile() -> None:
    config = configured({"rules.tied_strength": "discard"})
    hands = (
        ["axes_6", "axes_2", "blades_1", "bows_3", "staves_5"],
        ["staves_6", "blades_4", "bows_6", "staves_8", "staves_11"],
    )
    state = build(hands, ["axes_1", "axes_5"], draw_top=["blades_3"], config=config)
    choose_one(state, "axes_6", "staves_6")
    choose_many(state, ["axes_2"], ["blades_4"])
    choose_one(state, "blades_1", "bows_6")
    choose_many(state, [], [])
    assert named(state.zones[TREASURE_ROW].cards) == ["blades_3"]
    assert {"axes_1", "axes_5"} <= set(named(state.zones[DISCARD_PILE].cards))


def test_lead_fighters_and_reinforcements_are_discarded_at_the_end_of_the_round() -> None:
    hands = (
        ["axes_12", "axes_2", "axes_3", "bows_3", "staves_5"],
        ["axes_6", "blades_4", "bows_6", "staves_8", "staves_11"],
    )
    state = build(hands, ["bows_8"], draw_top=["blades_3"])
    choose_one(state, "axes_12", "axes_6")
    choose_many(state, ["bows_3"], ["blades_4"])
    choose_one(state, "staves_5", "bows_6")  # scroll against scroll
    choose_many(state, ["axes_2", "axes_3"], [])
    assert {"axes_12", "axes_6", "axes_2", "axes_3"} <= set(named(state.zones[DISCARD_PILE].cards))
    assert both(state.lead_card) == [-1, -1] and seat_cards(state, REINFORCEMENTS) == [[], []]
    assert hand_names(state, 0)["axes_2"] == 0 and hand_names(state, 0)["bows_3"] == 1


# ---------------------------------------------------------------- new round


def test_players_keep_the_cards_they_did_not_use_into_the_next_round() -> None:
    state = build(PLAIN_HANDS, ["bows_8"], draw_top=["blades_3"])
    play_plain_round(state)
    for seat in (0, 1):
        assert hand_names(state, seat) >= Counter(PLAIN_LEFTOVERS[seat])
        assert len(state.hand(seat)) == len(PLAIN_LEFTOVERS[seat]) + 5


def test_players_over_the_hand_limit_discard_down_to_five_seat_zero_first() -> None:
    state = build(PLAIN_HANDS, ["bows_8"], draw_top=["blades_3"])
    play_plain_round(state)
    assert state.phase == DISCARD and state.current_player == 0
    assert set(state.legal_actions()) == _masks(list(range(9)), 4, 4)  # exactly the 4 extra cards
    dropped = named(state.hand(0)[:4])
    act(state, 0b1111)
    assert len(state.hand(0)) == 5 and named(state.zones[DISCARD_PILE].cards[-4:]) == dropped
    assert state.phase == DISCARD and state.current_player == 1
    assert set(state.legal_actions()) == _masks(list(range(9)), 4, 4)
    act(state, 0b11110000)
    assert [len(hand) for hand in both(state.hand)] == [5, 5]
    assert state.phase == LEAD and state.current_player == 0
    assert locations(state) == Counter(DEFAULT.deck)


def test_a_player_within_the_hand_limit_does_not_discard() -> None:
    # Seat 0 sends every card it has left as reinforcements: 0 + 5 new cards is within the limit.
    hands = (
        ["axes_12", "axes_1", "axes_2", "axes_4", "axes_5"],
        ["bows_12", "blades_4", "bows_6", "staves_8", "staves_11"],
    )
    state = build(hands, ["bows_8"], draw_top=["blades_3"])
    choose_one(state, "axes_12", "bows_12")
    choose_many(state, ["axes_1"], ["blades_4"])
    choose_one(state, "axes_2", "bows_6")  # scroll against scroll
    choose_many(state, ["axes_1", "axes_2", "axes_4", "axes_5"], [])
    assert [len(hand) for hand in both(state.hand)] == [5, 9]
    assert state.phase == DISCARD and state.current_player == 1
    act(state, 0b1111)
    assert state.phase == LEAD and state.current_player == 0


def test_a_smaller_hand_limit_is_enforced_from_the_first_deal() -> None:
    config = configured({"rules.hand_limit": 4})
    state = DivvyState.new_game(config, 5, None)
    assert state.phase == DISCARD and state.current_player == 0
    assert set(state.legal_actions()) == _masks(list(range(5)), 1, 1)
