"""The heuristic's reckoning of the opponent's best possible Fighter Strength
(``strongest_possible``: its lead fighter plus the strongest cards of the
lead's suit the seat cannot see, as many as the opponent's hand holds) is the
one a plain count gives: every unseen copy listed, sorted, the strongest
summed; in the positions of real games, with single and double copies."""

from __future__ import annotations

from collections import Counter

import pytest

from simcore.games.divvy.agents import strongest_possible
from simcore.games.divvy.rules import (
    DISCARD_PILE,
    REINFORCE,
    TREASURE_ROW,
    WON_TREASURE,
    DivvyConfig,
    DivvyState,
)
from simcore.seeding import make_rng

from .helpers import DEFAULT, configured


def _listed_strongest(state: DivvyState, seat: int) -> int:
    """The opponent's best strength by listing every unseen copy of its lead's suit."""
    config, other = state.config, 1 - seat
    visible = [*state.hand(seat), *state.zones[TREASURE_ROW].cards, *state.zones[DISCARD_PILE].cards,
               *state.seat_zone(0, WON_TREASURE).cards, *state.seat_zone(1, WON_TREASURE).cards]
    visible += [lead for lead in (state.lead_card(0), state.lead_card(1)) if lead >= 0]
    seen = Counter(visible)
    suit = config.suits[state.lead_card(other)]
    unseen = sorted((config.values[card] for card in range(len(config.names)) if config.suits[card] == suit
                     for _ in range(max(config.copies[card] - seen[card], 0))), reverse=True)
    return config.values[state.lead_card(other)] + sum(unseen[:len(state.hand(other))])


def _doubled() -> DivvyConfig:
    """Every card twice."""
    return configured({f"cards.{name}.copies": 2 for name in DEFAULT.names})


@pytest.mark.parametrize("config", [DEFAULT, _doubled()], ids=["single copies", "double copies"])
def test_the_opponents_best_possible_strength_is_its_lead_plus_the_strongest_unseen_cards_of_its_suit(
        config: DivvyConfig) -> None:
    checked = 0
    for seed in range(40):
        state = DivvyState.new_game(config, seed, None)
        choices = make_rng(1000 + seed)
        while not state.is_terminal():
            if state.phase == REINFORCE:
                for seat in (0, 1):
                    assert strongest_possible(state, seat) == _listed_strongest(state, seat)
                    checked += 1
            legal = state.legal_actions()
            state.apply(legal[choices.below(len(legal))])
    assert checked > 100
