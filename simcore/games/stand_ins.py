"""Each game's neutral stand-in for a card, the replacement that card impact compares a card with.

A card's *stand-in* is the card replaced in place by a neutral card of the
same kind: the parameter overrides that change what the card does and
nothing else. Its name, its copies and so the deck's order stay as they
are, so that a game played on the same seed with the stand-in differs from
the card-as-is game only where the card matters (``experiments.impact``
pairs the two; ``analytics.views.impact`` measures the difference).

Each game says what its neutral card is in ``simcore/games/<id>/stand_in.py``
(a function ``stand_in(parameters, card)`` returning dotted-path overrides,
or None for a card that has no stand-in, such as a threat no seat holds)
and in the "Card impact: the stand-in" section of its ``RULES.md``. A game
added at run time (a test's synthetic game) registers its function in
``STAND_INS``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from simcore.games.divvy.stand_in import stand_in as divvy_stand_in
from simcore.games.party_wanted.stand_in import stand_in as party_wanted_stand_in
from simcore.games.ring_of_chaos.stand_in import stand_in as ring_of_chaos_stand_in
from simcore.games.theseus.stand_in import stand_in as theseus_stand_in

StandIn = Callable[[Mapping[str, Any], str], dict[str, Any] | None]
"""``stand_in(parameters, card)``: the overrides (dotted path -> value) that replace ``card``
by its game's neutral card in the parameter tree ``parameters``, or None when it has none."""

STAND_INS: dict[str, StandIn] = {
    "divvy": divvy_stand_in,
    "party_wanted": party_wanted_stand_in,
    "ring_of_chaos": ring_of_chaos_stand_in,
    "theseus": theseus_stand_in,
}
"""The stand-in function of every game, by game id."""


class NoStandInError(KeyError):
    """A game without a stand-in function (so without the ``stand_in`` arm of card impact)."""

    def __str__(self) -> str:
        return str(self.args[0])


def stand_in_function(game_id: str) -> StandIn:
    """The stand-in function of ``game_id``; raises ``NoStandInError``."""
    try:
        return STAND_INS[game_id]
    except KeyError:
        raise NoStandInError(f"{game_id} has no stand-in for its cards; games with one: "
                             f"{', '.join(sorted(STAND_INS))}") from None


def copies_of(parameters: Mapping[str, Any], card: str) -> int:
    """The copies of ``card`` in the deck(s) of ``parameters`` (0 for a card with no ``copies``)."""
    copies = parameters["cards"][card].get("copies", 0)
    return copies if isinstance(copies, int) and not isinstance(copies, bool) else 0


def impact_cards(game_id: str, parameters: Mapping[str, Any]) -> list[str]:
    """The cards whose impact can be measured, in the data file's order: those in play (one copy
    or more) that have a stand-in."""
    stand_in = stand_in_function(game_id)
    return [card for card in parameters["cards"]
            if copies_of(parameters, card) > 0 and stand_in(parameters, card) is not None]
