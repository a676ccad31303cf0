"""Theseus's stand-in for card impact (RULES.md, "Card impact: the stand-in")."""

from __future__ import annotations

from simcore.games.theseus import GAME
from simcore.games.theseus.stand_in import stand_in


def test_the_stand_in_is_the_card_without_its_text_its_rank_icon_and_vp_kept() -> None:
    assert stand_in(GAME.default_parameters(), "minotaur") == {"cards.minotaur.use": [], "cards.minotaur.end": []}


def test_the_starting_cards_in_no_rank_deck_have_no_stand_in() -> None:
    assert stand_in(GAME.default_parameters(), "knight") is None


def test_the_stand_in_game_starts_from_the_same_table() -> None:
    swapped = GAME.configure({**GAME.default_parameters()} | {"cards": {
        **GAME.default_parameters()["cards"],
        "minotaur": {**GAME.default_parameters()["cards"]["minotaur"], "use": [], "end": []}}})
    plain = GAME.configure(GAME.default_parameters())
    for seed in range(20):
        assert GAME.new_state(plain, 3, seed).observation(0) == GAME.new_state(swapped, 3, seed).observation(0)
