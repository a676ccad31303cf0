"""The heuristic agent does what agents.py documents, in hand-made positions.

Strategy (agents.py): discard the cards of least worth (value + 3 per
same-suit partner); lead the card with the highest value plus same-suit
backing; bid every off-suit card but the brawl card (at least the weakest);
brawl with an off-suit card, preferring the last treasure card's icon, then
the lowest value; replace placed cards unless one could reinforce; reinforce
with every same-suit card.
"""

from __future__ import annotations

from collections import Counter

import pytest

from simcore.api import Agent
from simcore.games.divvy import GAME
from simcore.games.divvy.rules import BRAWL, CHAFF, DISCARD, LEAD, REINFORCE, REPLACE, DivvyState
from simcore.rng import Generator
from simcore.seeding import make_rng
from tests.gamekit import share_won

from .helpers import BRAWL_HANDS, act, build, choose_many, choose_one, hand_names, icon, mask, position, value


def _agent(seat: int) -> Agent:
    return GAME.heuristic_agent(seat, make_rng(seat))


def _choice(state: DivvyState) -> int:
    legal = state.legal_actions()
    action = _agent(state.current_player).choose(state, legal)
    assert action in legal
    return action


OTHER_HAND = ["axes_6", "blades_4", "bows_6", "staves_8", "staves_11"]


def test_it_discards_the_cards_of_least_worth_counting_suit_partners() -> None:
    # Worth: blades_1 1+3, blades_2 2+3, bows_3 3, axes_6 6, staves_10..12 16..18.
    hand = ["blades_1", "blades_2", "bows_3", "axes_6", "staves_10", "staves_11", "staves_12"]
    state = build((hand, ["axes_7", "blades_5", "bows_7", "staves_1", "staves_2"]), ["bows_8"],
                  phase=DISCARD, current_player=0)
    action = _choice(state)
    assert action == mask(state, 0, ["bows_3", "blades_1"])  # bows_3 goes before blades_2: it has no partner
    act(state, action)
    assert hand_names(state, 0) == Counter(["blades_2", "axes_6", "staves_10", "staves_11", "staves_12"])


@pytest.mark.parametrize(
    ("hand", "lead"),
    [
        (["axes_12", "staves_5", "staves_6", "staves_2", "blades_1"], "staves_6"),  # staves back it with 13 > 12
        (["axes_12", "staves_5", "staves_6", "bows_2", "blades_1"], "axes_12"),  # staves 11 < 12
    ],
)
def test_it_leads_the_card_with_the_highest_value_plus_same_suit_backing(hand: list[str], lead: str) -> None:
    state = build((hand, OTHER_HAND), ["bows_8"])
    assert state.phase == LEAD
    assert _choice(state) == position(state, 0, lead)


@pytest.mark.parametrize(
    ("last_treasure", "bid", "fighter"),
    [
        ("bows_7", ["blades_1"], "axes_12"),  # a shield is last in the row: brawl with the shield for the bonus
        ("bows_8", ["axes_12"], "blades_1"),  # a sword is last: no off-suit card matches, brawl with the lowest
    ],
)
def test_it_bids_the_off_suit_cards_and_keeps_one_for_the_brawl(
    last_treasure: str, bid: list[str], fighter: str
) -> None:
    icons = (icon("axes_12"), icon("blades_1"), icon("bows_7"), icon("bows_8"))
    assert icons == ("shield", "scroll", "shield", "sword")
    hand = ["axes_12", "staves_5", "staves_6", "staves_2", "blades_1"]
    state = build((hand, OTHER_HAND), ["staves_3", last_treasure])
    choose_one(state, "staves_6", "axes_6")
    assert state.phase == CHAFF
    action = _choice(state)
    assert action == mask(state, 0, bid)
    act(state, action)
    act(state, mask(state, 1, ["blades_4"]))
    assert state.phase == BRAWL
    assert _choice(state) == position(state, 0, fighter)


def test_with_no_off_suit_card_it_bids_the_weakest_card_and_brawls_with_the_bonus_icon() -> None:
    hand = ["staves_12", "staves_3", "staves_5", "staves_8", "staves_1"]
    assert [icon(name) for name in hand[1:]] == ["shield", "scroll", "scroll", "sword"]
    state = build((hand, ["axes_6", "blades_4", "bows_6", "bows_3", "axes_11"]), ["axes_9", "bows_9"])
    assert icon("bows_9") == "scroll"
    assert _choice(state) == position(state, 0, "staves_12")
    choose_one(state, "staves_12", "axes_6")
    assert _choice(state) == mask(state, 0, ["staves_1"])  # the weakest card, not the brawl card
    choose_many(state, ["staves_1"], ["blades_4"])
    assert _choice(state) == position(state, 0, "staves_5")  # a scroll like bows_9, and lower than staves_8


@pytest.mark.parametrize(("bid", "replace"), [("bows_11", 1), ("axes_1", 0)])
def test_it_replaces_the_placed_cards_unless_one_could_reinforce(bid: str, replace: int) -> None:
    state = build(BRAWL_HANDS, ["staves_2"])
    choose_one(state, "axes_12", "blades_12")
    choose_many(state, [bid], ["blades_1"])
    choose_one(state, "bows_10", "staves_10")  # shield beats sword
    assert state.phase == REPLACE and state.current_player == 0
    assert _choice(state) == replace


def test_it_reinforces_with_every_card_of_the_lead_suit() -> None:
    hands = (
        ["axes_12", "axes_1", "axes_5", "bows_10", "axes_9"],
        ["blades_12", "blades_1", "staves_9", "staves_2", "staves_5"],
    )
    state = build(hands, ["bows_8"])
    choose_one(state, "axes_12", "blades_12")
    choose_many(state, ["axes_1"], ["staves_2"])
    choose_one(state, "bows_10", "staves_9")  # a tie: axes_1 is back in hand
    assert state.phase == REINFORCE
    assert _choice(state) == mask(state, 0, ["axes_1", "axes_5", "axes_9"])
    assert value("axes_1") > 0


def test_it_sends_no_one_in_a_round_it_cannot_win_or_tie_and_keeps_the_cards() -> None:
    # Seat 0 leads axes_2 and holds axes_1 and axes_3: at most 6 against seat 1's lead of 12.
    hands = (
        ["axes_2", "axes_1", "axes_3", "bows_10", "bows_11"],
        ["blades_12", "blades_1", "staves_9", "staves_2", "staves_5"],
    )
    state = build(hands, ["bows_8"])
    choose_one(state, "axes_2", "blades_12")
    choose_many(state, ["bows_11"], ["staves_2"])
    choose_one(state, "bows_10", "staves_9")  # a tie: every placed card goes back
    assert state.phase == REINFORCE and len(state.legal_actions()) == 4
    assert _choice(state) == 0
    act(state, 0)
    act(state, 0)
    assert {"axes_1", "axes_3"} <= set(hand_names(state, 0))  # kept for the next round


# Seat 0 leads axes_1 (value 1) against blades_5 and loses the brawl (axes_2,
# a scroll, against staves_1, a sword); seat 1 takes its cards back, so seat 0
# reinforces from axes_2, axes_10 and axes_12.
CHEAP_WIN_HANDS = (
    ["axes_1", "axes_2", "axes_10", "axes_12", "bows_10"],
    ["blades_5", "staves_1", "staves_9", "staves_2", "staves_5"],
)


def _to_seat_zero_reinforcements(state: DivvyState) -> None:
    assert icon("axes_2") == "scroll" and icon("staves_1") == "sword"
    choose_one(state, "axes_1", "blades_5")
    choose_many(state, ["bows_10"], ["staves_2"])
    choose_one(state, "axes_2", "staves_1")
    assert state.phase == REPLACE and state.current_player == 1
    act(state, 0)  # seat 1 takes its placed cards back
    assert state.phase == REINFORCE and state.current_player == 0


def test_when_a_win_is_certain_it_sends_only_the_cheapest_set_that_surely_wins() -> None:
    # Every blade but seat 1's lead is face up in the discard pile: seat 1's
    # strength is 5 whatever it holds. axes_10 alone (1 + 10) surely wins,
    # axes_2 (1 + 2) does not; axes_2 and axes_12 stay in hand.
    blades = [f"blades_{number}" for number in range(1, 13) if number != 5]
    state = build(CHEAP_WIN_HANDS, ["bows_8"], discard=blades)
    _to_seat_zero_reinforcements(state)
    assert _choice(state) == mask(state, 0, ["axes_10"])


def test_when_the_round_is_open_it_still_sends_every_card_of_the_lead_suit() -> None:
    state = build(CHEAP_WIN_HANDS, ["bows_8"])  # the high blades are unseen: seat 1 might hold them
    _to_seat_zero_reinforcements(state)
    assert _choice(state) == mask(state, 0, ["axes_2", "axes_10", "axes_12"])


def test_its_choices_depend_only_on_what_its_seat_can_see() -> None:
    rng = Generator(3)
    checked = 0
    for seed in range(20):
        state = DivvyState.new_game(GAME.configure(GAME.default_parameters()), seed, None)
        agents = [_agent(0), _agent(1)]
        while not state.is_terminal():
            seat, legal = state.current_player, state.legal_actions()
            action = agents[seat].choose(state, legal)
            for _ in range(3):
                assert agents[seat].choose(state.resample_hidden(seat, rng), legal) == action
            checked += 1
            state.apply(action)
    assert checked > 100


def test_it_plays_whole_games_and_wins_most_of_them_against_random_play() -> None:
    config = GAME.configure(GAME.default_parameters())
    assert share_won(GAME, config, 2, range(200)) > 0.75
