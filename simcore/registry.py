"""The registered games, by id."""

from __future__ import annotations

from simcore.api import Game


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


def get_game(game_id: str) -> Game:
    """The game registered as ``game_id``; raises ``UnknownGameError``."""
    try:
        return GAMES[game_id]
    except KeyError:
        known = ", ".join(sorted(GAMES))
        raise UnknownGameError(
            f"unknown game {game_id!r}; expected one of: {known}"
        ) from None
