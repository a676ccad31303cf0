"""Ring of Chaos's stand-in for card impact: a blank card (RULES.md, "Card impact: the stand-in")."""

from __future__ import annotations

import pytest

from simcore.games.ring_of_chaos import GAME
from simcore.games.ring_of_chaos.stand_in import stand_in
from simcore.parameters import ParameterError
from tests.impact.deals import card_rows, opening_hands, with_overrides


def test_the_stand_in_names_the_card_in_rules_blank_cards() -> None:
    assert stand_in(GAME.default_parameters(), "fireball") == {"rules.blank_cards": ["fireball"]}
    assert stand_in(GAME.default_parameters(), "temple_guardian") is None


def test_a_blank_card_is_dealt_as_before_but_never_offered_to_play_nor_to_counter_with() -> None:
    # ``playable`` counts every step at which a legal action would play the card, counters included.
    # Without the Hell Raisers: their negation discards a random card, any card, blank or not.
    plain = with_overrides(GAME, {"parties.hell_raisers.in_draft": False})
    blank = with_overrides(GAME, {"parties.hell_raisers.in_draft": False,
                                  "rules.blank_cards": ["fireball", "dodge", "parry", "sword"]})
    offered = {card: 0 for card in ("fireball", "dodge", "parry", "sword")}
    for seed in range(40):
        assert opening_hands(GAME, plain, 4, seed) == opening_hands(GAME, blank, 4, seed)
        for card in offered:
            offered[card] += card_rows(GAME, plain, 4, seed, card, "playable")
            assert card_rows(GAME, blank, 4, seed, card, "playable") == 0
    assert all(count > 0 for count in offered.values()), offered  # as themselves they are offered


def test_the_temple_guardian_cannot_be_made_blank() -> None:
    with pytest.raises(ParameterError, match=r"rules\.blank_cards: expected names of Action cards"):
        GAME.configure(with_overrides(GAME, {"rules.blank_cards": ["temple_guardian"]}))
