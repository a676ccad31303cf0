"""Ring of Chaos's neutral stand-in for a card (``simcore.games.stand_ins``; RULES.md, "Card impact").

A Ring of Chaos Action card is played as one Action (move, attack, bonus)
or as a Counter; what it does is its behaviour (``rules.CARD_BEHAVIOUR``)
and its facts in ``cards.toml``. The stand-in is a card of no effect of the
same kind: the card named in ``rules.blank_cards``, which keeps its class,
Action, copies and place in the deck, is held, counts against the hand
limit and can be discarded (to the hand limit, to Poison, as a Giant
Slayers' price...) like any card, but is never played nor countered with.
The Temple Guardian is a threat, resolved when drawn, not a card a party
holds: it has none.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

THREAT = "temple_guardian"


def stand_in(parameters: Mapping[str, Any], card: str) -> dict[str, Any] | None:
    """``card`` made blank (``rules.blank_cards``), added to the cards already blank in ``parameters``."""
    if card not in parameters["cards"] or card == THREAT:
        return None
    blank = list(parameters["rules"]["blank_cards"])
    return {"rules.blank_cards": [*blank, card] if card not in blank else blank}
