"""Party of the Theseus's neutral stand-in for a card (``simcore.games.stand_ins``; RULES.md, "Card impact").

A Theseus card is a Rank, an Icon Ability, printed Victory Points and its
text: effects when used (``use``) and scoring at the end (``end``). The
rulebook prints the Victory Points by Rank (1 for Rank 1-4, 2 for Rank 5-6),
so a card of a Rank and an icon with its printed VP and no text is the plain
card of that kind. The stand-in is that card: same Rank, icon and VP, no
``use`` and no ``end`` effect. The three starting cards are not in any Rank
deck (no copies) and so have none.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def stand_in(parameters: Mapping[str, Any], card: str) -> dict[str, Any] | None:
    """``card`` without its text: its Rank, icon and Victory Points kept, no use or end effect."""
    cards = parameters["cards"]
    if card not in cards or cards[card]["rank"] == 0:
        return None
    return {f"cards.{card}.use": [], f"cards.{card}.end": []}
