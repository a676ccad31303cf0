"""Set Up: the deal, the treasure reveal and the draw pile."""

from __future__ import annotations

from collections import Counter

import pytest

from simcore.games.divvy import GAME
from simcore.games.divvy.rules import (
    DISCARD,
    DISCARD_PILE,
    DRAW_PILE,
    LEAD,
    ROUND,
    TREASURE_ROW,
    WON_TREASURE,
    DivvyState,
)
from simcore.seeding import make_rng

from .helpers import (
    DEFAULT,
    PLAIN_HANDS,
    PLAIN_LEFTOVERS,
    both,
    build,
    d20,
    hand_names,
    locations,
    named,
    play_plain_round,
    seat_cards,
)

SEEDS = range(100)


def _d20_total(cards: list[int]) -> int:
    return sum(DEFAULT.d20[card] for card in cards)


def test_each_player_is_dealt_five_cards_and_the_rest_of_the_deck_is_the_draw_pile() -> None:
    for seed in SEEDS:
        state = DivvyState.new_game(DEFAULT, seed, None)
        assert [len(hand) for hand in both(state.hand)] == [5, 5]
        assert state.zones[DISCARD_PILE].cards == [] and seat_cards(state, WON_TREASURE) == [[], []]
        everything = state.hand(0) + state.hand(1) + state.zones[TREASURE_ROW].cards + state.zones[DRAW_PILE].cards
        assert Counter(everything) == Counter(DEFAULT.deck)
        assert len(state.zones[DRAW_PILE].cards) == len(DEFAULT.deck) - 10 - len(state.zones[TREASURE_ROW].cards)


def test_treasure_is_revealed_until_the_d20_total_reaches_twenty_and_not_one_card_more() -> None:
    for seed in SEEDS:
        row = DivvyState.new_game(DEFAULT, seed, None).zones[TREASURE_ROW].cards
        assert _d20_total(row) >= 20
        assert _d20_total(row[:-1]) < 20  # the last card revealed is the one that reached 20


def test_the_first_round_deals_from_the_top_of_the_shuffled_deck_and_then_reveals_treasure() -> None:
    for seed in range(20):
        # The game's only randomness is its own generator, seeded by the game seed.
        deck = list(DEFAULT.deck)
        make_rng(seed).shuffle(deck)
        top_first = deck[::-1]
        expected_row = []
        for card in top_first[10:]:
            expected_row.append(card)
            if _d20_total(expected_row) >= 20:
                break
        state = DivvyState.new_game(DEFAULT, seed, None)
        assert Counter(state.hand(0) + state.hand(1)) == Counter(top_first[:10])
        assert state.zones[TREASURE_ROW].cards == expected_row
        assert state.zones[DRAW_PILE].cards[::-1] == top_first[10 + len(expected_row):]


def test_the_game_starts_with_both_players_choosing_a_lead_fighter_seat_zero_first() -> None:
    state = GAME.new_state(DEFAULT, 2, 3)
    assert state.phase == LEAD and state.current_player == 0 and state.numbers[ROUND] == 1
    assert list(state.legal_actions()) == [0, 1, 2, 3, 4]


def test_the_same_seed_gives_the_same_set_up_and_another_seed_another() -> None:
    first, again, other = (DivvyState.new_game(DEFAULT, seed, None) for seed in (11, 11, 12))
    assert first.observation(0) == again.observation(0) and first.zones[DRAW_PILE].cards == again.zones[DRAW_PILE].cards
    assert (both(first.hand), first.zones[TREASURE_ROW].cards) != (both(other.hand), other.zones[TREASURE_ROW].cards)


def test_divvy_is_for_exactly_two_players() -> None:
    for n_players in (1, 3):
        with pytest.raises(ValueError, match="2 players"):
            GAME.new_state(DEFAULT, n_players, 0)


@pytest.mark.parametrize(
    "reveal",
    [
        ["blades_3"],  # d20 20: one card is enough
        ["axes_5", "staves_6"],  # 9 + 11 = 20 exactly
        ["staves_10", "axes_4"],  # 19 + 2 = 21: the total may overshoot
        ["axes_1", "blades_6", "bows_11", "axes_4", "blades_9", "axes_7", "staves_2", "blades_12", "axes_10"],
    ],
)
def test_a_reveal_stops_on_the_card_that_brings_the_d20_total_to_twenty(reveal: list[str]) -> None:
    totals = [sum(d20(name) for name in reveal[: count + 1]) for count in range(len(reveal))]
    assert totals[-1] >= 20 and all(total < 20 for total in totals[:-1])  # the scenario's premise
    after = "bows_9"  # the next card down the pile: it must not be revealed
    state = build(PLAIN_HANDS, ["bows_8"], draw_top=[*reveal, after])
    play_plain_round(state)  # seat 0 takes bows_8; round 2 reveals anew, as in Set Up
    assert named(state.zones[TREASURE_ROW].cards) == reveal
    assert "bows_9" in hand_names(state, 0) + hand_names(state, 1)  # dealt instead


def test_a_later_round_reveals_treasure_before_dealing_five_cards_to_each_player() -> None:
    dealt = ["bows_1", "bows_2", "bows_4", "bows_5", "bows_7", "bows_10", "bows_11", "bows_12", "staves_1", "staves_2"]
    state = build(PLAIN_HANDS, ["bows_8"], draw_top=["blades_3", *dealt])
    assert d20("blades_3") >= 20
    play_plain_round(state)
    assert state.numbers[ROUND] == 2
    assert named(state.zones[TREASURE_ROW].cards) == ["blades_3"]  # taken from the top first
    new_cards = [hand_names(state, seat) - Counter(PLAIN_LEFTOVERS[seat]) for seat in (0, 1)]
    assert new_cards[0] + new_cards[1] == Counter(dealt)
    assert [sum(cards.values()) for cards in new_cards] == [5, 5]
    assert [len(hand) for hand in both(state.hand)] == [4 + 5, 4 + 5]
    assert state.phase == DISCARD
    assert locations(state) == Counter(DEFAULT.deck)
