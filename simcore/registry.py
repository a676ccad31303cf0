"""The registered games, by id."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from simcore.api import Game
from simcore.describe import CardFace

CardFaceFunction = Callable[[str, Mapping[str, Any]], CardFace]


class UnknownGameError(KeyError):
    """No game is registered under the requested id."""

    def __str__(self) -> str:
        return str(self.args[0])


def _load_games() -> dict[str, Game]:
    from simcore.games.divvy import GAME as divvy
    from simcore.games.party_wanted import GAME as party_wanted
    from simcore.games.ring_of_chaos import GAME as ring_of_chaos
    from simcore.games.theseus import GAME as theseus

    games: list[Game] = [divvy, party_wanted, ring_of_chaos, theseus]
    return {game.info.id: game for game in games}


GAMES: dict[str, Game] = _load_games()


def _load_card_faces() -> dict[str, CardFaceFunction]:
    from simcore.games.divvy.describe import card_face as divvy
    from simcore.games.party_wanted.describe import card_face as party_wanted
    from simcore.games.ring_of_chaos.describe import card_face as ring_of_chaos
    from simcore.games.theseus.describe import card_face as theseus

    return {"divvy": divvy, "party_wanted": party_wanted, "ring_of_chaos": ring_of_chaos, "theseus": theseus}


CARD_FACES: dict[str, CardFaceFunction] = _load_card_faces()
"""Each game's ``card_face`` (its ``describe.py``), by game id."""


def get_game(game_id: str) -> Game:
    """The game registered as ``game_id``; raises ``UnknownGameError``."""
    try:
        return GAMES[game_id]
    except KeyError:
        known = ", ".join(sorted(GAMES))
        raise UnknownGameError(
            f"unknown game {game_id!r}; expected one of: {known}"
        ) from None


def card_faces(game_id: str, parameters: Mapping[str, Any]) -> list[CardFace]:
    """Every card of ``parameters`` (a parameter tree of ``game_id``: its defaults, or a
    variant's resolved parameters) as its face reads (``simcore.describe.CardFace``), in the
    card data's order; raises ``UnknownGameError``."""
    get_game(game_id)
    face = CARD_FACES[game_id]
    cards = parameters.get("cards")
    return [face(str(card), data) for card, data in (cards.items() if isinstance(cards, Mapping) else ())
            if isinstance(data, Mapping)]
