"""Party Wanted's stand-in for card impact (RULES.md, "Card impact: the stand-in")."""

from __future__ import annotations

from simcore.games.party_wanted import GAME
from simcore.games.party_wanted.stand_in import stand_in
from tests.impact.deals import opening_hands, with_overrides


def test_the_stand_in_is_the_card_of_its_kind_with_no_effect() -> None:
    assert stand_in(GAME.default_parameters(), "fighter_strike") == {"cards.fighter_strike.effects": []}


def test_armor_weapons_and_minions_lose_their_sacrifice_effects_too() -> None:
    assert stand_in(GAME.default_parameters(), "necromancer_zombie_minion") == {
        "cards.necromancer_zombie_minion.effects": [], "cards.necromancer_zombie_minion.sacrifice": []}


def test_the_dungeons_cards_have_no_stand_in() -> None:
    kinds = {name: card["kind"] for name, card in GAME.default_parameters()["cards"].items()}
    for name, kind in kinds.items():
        if kind in ("land", "monster", "boss", "encounter", "modifier"):
            assert stand_in(GAME.default_parameters(), name) is None, name


def test_the_stand_in_game_deals_the_same_opening_hands() -> None:
    swapped = with_overrides(GAME, stand_in(GAME.default_parameters(), "fighter_strike") or {})
    for seed in range(10):
        assert opening_hands(GAME, GAME.default_parameters(), 3, seed) == opening_hands(GAME, swapped, 3, seed)
