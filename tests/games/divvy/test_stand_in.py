"""Divvy's stand-in for card impact (RULES.md, "Card impact: the stand-in")."""

from __future__ import annotations

from simcore.games.divvy import GAME
from simcore.games.divvy.stand_in import deck_means, stand_in
from tests.impact.deals import opening_hands, with_overrides


def test_the_stand_in_keeps_suit_and_icon_at_the_decks_mean_value_d20_and_coin() -> None:
    # 48 cards: values 1-12 (mean 6.5, rounded half to even: 6), d20 mean 10.33, coins 16 of each (mean worth 2).
    assert deck_means(GAME.default_parameters()) == (6, 10, "silver")
    assert stand_in(GAME.default_parameters(), "axes_12") == {
        "cards.axes_12.value": 6, "cards.axes_12.d20": 10, "cards.axes_12.coin": "silver"}


def test_the_stand_in_game_deals_the_same_opening_hands() -> None:
    swapped = with_overrides(GAME, stand_in(GAME.default_parameters(), "axes_12") or {})
    for seed in range(20):
        assert opening_hands(GAME, GAME.default_parameters(), 2, seed) == opening_hands(GAME, swapped, 2, seed)
