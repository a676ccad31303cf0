"""The heuristic's shortcuts give the numbers the rules would: what one card of
an icon adds to the end effects that count the Party's icons (``icon_vp_gain``)
is the difference of the rules' own end VP (``end_effect_vp_with_party``) for
the Party with and without that card."""

from __future__ import annotations

from itertools import product

from simcore.games.theseus.agents import icon_vp_gain, party_dependent_cards
from simcore.games.theseus.rules import TheseusState

from .helpers import DEFAULT

ICONS = 3


def _party(state: TheseusState, counts: list[int]) -> list[int]:
    """Instances making a Party with ``counts[icon]`` cards of each icon."""
    party: list[int] = []
    for icon, count in enumerate(counts):
        of_icon = [instance for instance, card in enumerate(state.card_of) if DEFAULT.icons[card] == icon]
        assert len(of_icon) >= count
        party += of_icon[:count]
    return party


def test_what_one_card_of_an_icon_adds_is_the_rules_end_vp_with_it_less_without_it() -> None:
    state = TheseusState.new_game(DEFAULT, 3, 7, None)
    counting = [card for card, dependent in enumerate(party_dependent_cards(DEFAULT)) if dependent]
    assert counting, "the default deck has cards that count the Party's icons"
    checked = 0
    for card in counting:
        for counts in product(range(3), repeat=ICONS):
            for icon in range(ICONS):
                for with_extra in (0, 1):
                    with_card = [count + (with_extra if shown == icon else 0) for shown, count in enumerate(counts)]
                    without_card = [count - (1 if shown == icon else 0) for shown, count in enumerate(with_card)]
                    if min(without_card) < 0:
                        continue
                    expected = (state.end_effect_vp_with_party(0, card, _party(state, with_card))
                                - state.end_effect_vp_with_party(0, card, _party(state, without_card)))
                    assert icon_vp_gain(DEFAULT, card, list(counts), icon, with_extra) == expected, \
                        (DEFAULT.names[card], counts, icon, with_extra)
                    checked += 1
    assert checked > 100
