"""Party Wanted's neutral stand-in for a card (``simcore.games.stand_ins``; RULES.md, "Card impact").

The cards a hero holds, plays and buries are the hero cards (attack,
defense, class, utility, ultimate, armor, weapon, minion) and the
treasures. Each is a kind (and, for a hero card, an owning class and a
deck mark) and a list of effect primitives; an armor, weapon or minion
also has ``sacrifice`` effects. The stand-in keeps the kind, owner, mark,
set, copies and a treasure's use, and has no effect: it is held, played
(its kind's play rules apply: a minion still takes its place in play) and
discarded like the card, and does nothing. Lands, monsters, bosses,
encounters and the Combat Modifier are the dungeon, not cards a hero
holds: they have none.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

HELD_KINDS = frozenset({"attack", "defense", "class", "utility", "ultimate", "armor", "weapon", "minion", "treasure"})
"""The kinds of card a hero holds (the others are the dungeon)."""


def stand_in(parameters: Mapping[str, Any], card: str) -> dict[str, Any] | None:
    """``card`` with no effect (and no sacrifice effect), its kind and everything else kept."""
    data = parameters["cards"].get(card)
    if data is None or data["kind"] not in HELD_KINDS:
        return None
    overrides: dict[str, Any] = {f"cards.{card}.effects": []}
    if "sacrifice" in data:
        overrides[f"cards.{card}.sacrifice"] = []
    return overrides
