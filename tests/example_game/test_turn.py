"""A turn: plant (and the neighbour's block), pick, draw; the hand limit; play to the left."""

from __future__ import annotations

from tests.example_game.rules import (
    BLOCK,
    DISCARD,
    DISCARD_PILE,
    DRAW,
    DRAW_PILE,
    MARKET,
    PASS,
    PICK,
    PLANT,
    SCORE,
)

from .helpers import act, build, configured, hand_names, market_position, named, position, zone_names


def test_a_turn_offers_planting_each_hand_card_picking_each_market_card_and_drawing() -> None:
    state = build([["apple_1", "pear_3"], ["plum_1"]], market=["plum_5", "apple_3"])
    assert list(state.legal_actions()) == [PLANT.encode(0), PLANT.encode(1), PICK.encode(0), PICK.encode(1),
                                           DRAW.encode()]


def test_planting_puts_the_card_in_the_orchard_and_adds_its_value() -> None:
    state = build([["apple_3", "pear_1"], ["plum_1"]])
    act(state, PLANT.encode(position(state, 0, "apple_3")))
    assert named(state.orchard(0).cards) == ["apple_3"]
    assert hand_names(state, 0) == ["pear_1"]
    assert state.seat_number(0, SCORE) == 3
    assert state.current_player == 1  # seat 1 holds no apple: not asked, its turn begins


def test_the_left_neighbour_may_block_a_plant_with_a_card_of_the_same_kind() -> None:
    state = build([["apple_5"], ["plum_1", "apple_1", "apple_3"], ["pear_1"]])
    act(state, PLANT.encode(0))
    assert state.current_player == 1
    assert list(state.legal_actions()) == [BLOCK.encode(1), BLOCK.encode(2), PASS.encode()]
    act(state, BLOCK.encode(position(state, 1, "apple_1")))
    assert state.orchard(0).cards == []
    assert state.seat_number(0, SCORE) == 0
    assert zone_names(state, DISCARD_PILE) == ["apple_1", "apple_5"]
    assert hand_names(state, 1) == ["plum_1", "apple_3"]
    assert state.current_player == 1 and PLANT.encode(0) in state.legal_actions()  # now seat 1's own turn


def test_a_neighbour_who_passes_leaves_the_plant_in_the_orchard() -> None:
    state = build([["pear_5"], ["pear_1"]])
    act(state, PLANT.encode(0))
    act(state, PASS.encode())
    assert named(state.orchard(0).cards) == ["pear_5"] and state.seat_number(0, SCORE) == 5
    assert hand_names(state, 1) == ["pear_1"]


def test_only_the_left_neighbour_may_block() -> None:
    state = build([["plum_3"], ["apple_1"], ["plum_1"]])
    act(state, PLANT.encode(0))
    assert state.current_player == 1  # seat 2's plum cannot block: seat 1 simply takes its turn
    assert BLOCK.encode(0) not in state.legal_actions()


def test_picking_takes_a_market_card_into_the_hand_and_refills_the_market_from_the_draw_pile() -> None:
    state = build([["apple_1"], ["pear_1"]], market=["plum_5", "pear_3", "apple_3"], draw_top=["plum_3"])
    act(state, PICK.encode(market_position(state, "pear_3")))
    assert hand_names(state, 0) == ["apple_1", "pear_3"]
    assert zone_names(state, MARKET) == ["plum_5", "apple_3", "plum_3"]


def test_drawing_takes_the_top_card_of_the_draw_pile() -> None:
    state = build([["apple_1"], ["pear_1"]], draw_top=["plum_5", "pear_3"])
    act(state, DRAW.encode())
    assert hand_names(state, 0) == ["apple_1", "plum_5"]
    assert zone_names(state, DRAW_PILE)[-1] == "pear_3"


def test_an_empty_draw_pile_is_replaced_by_the_shuffled_discard_pile() -> None:
    state = build([["apple_1"], ["pear_1"]], discard=["plum_5", "pear_3", "apple_3"], rest=False)
    assert len(state.zones[DRAW_PILE]) == 0 and DRAW.encode() in state.legal_actions()
    act(state, DRAW.encode())
    assert len(state.hand(0)) == 2 and len(state.zones[DRAW_PILE]) == 2
    assert sorted(hand_names(state, 0)[1:] + zone_names(state, DRAW_PILE)) == ["apple_3", "pear_3", "plum_5"]
    assert state.zones[DISCARD_PILE].cards == []


def test_drawing_is_not_offered_when_both_piles_are_empty() -> None:
    state = build([["apple_1"], ["pear_1"]], rest=False)
    assert list(state.legal_actions()) == [PLANT.encode(0)]


def test_a_seat_over_the_hand_limit_discards_one_card_at_a_time_until_it_is_at_the_limit() -> None:
    config = configured({"rules.hand_limit": 2})
    state = build([["apple_1", "pear_1", "plum_1"], ["pear_3"]], market=["apple_5"], config=config)
    act(state, PICK.encode(0))  # four cards, limit two: two discards
    assert state.current_player == 0
    assert list(state.legal_actions()) == [DISCARD.encode(p) for p in range(4)]
    act(state, DISCARD.encode(position(state, 0, "pear_1")))
    assert state.current_player == 0 and len(state.legal_actions()) == 3
    act(state, DISCARD.encode(position(state, 0, "apple_1")))
    assert hand_names(state, 0) == ["plum_1", "apple_5"]
    assert state.current_player == 1
    assert zone_names(state, DISCARD_PILE) == ["pear_1", "apple_1"]


def test_play_passes_to_the_left_and_round_after_round() -> None:
    state = build([["apple_1"] * 1, ["pear_1"], ["plum_1"]], draw_top=["apple_3"] * 2 + ["pear_3"] * 2)
    seats = []
    for _ in range(6):
        seats.append(state.current_player)
        act(state, DRAW.encode())
    assert seats == [0, 1, 2, 0, 1, 2]
    assert state.turns() == 2
