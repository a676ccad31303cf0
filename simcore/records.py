"""Result rows of finished games, gathered column by column.

``ResultColumns`` turns each played game into rows of the three tables of the
results dataset (``games``, ``players``, ``cards``; see DESIGN.md) and keeps
them as Python lists per column, ready for Arrow. It is pure and compiled with
the rules core, because building ~60 card rows per game is on the hot path.
"""

from __future__ import annotations

from typing import Any

from simcore.api import GameInfo
from simcore.play import PlayedGame

GAME_COLUMNS = ("game_index", "seed", "n_players", "winner", "winners", "draw", "end_reason", "turns", "decisions")
PLAYER_COLUMNS = ("game_index", "n_players", "seat", "agent", "faction", "won", "score", "rank")
CARD_COLUMNS = ("game_index", "n_players", "seat", "card", "copies", "first_played_turn", "won")


class ResultColumns:
    """Column lists for the rows of many games of one game type."""

    def __init__(self, info: GameInfo) -> None:
        self.info = info
        self.extra_game_columns: list[str] = list(info.game_columns)
        self.games: dict[str, list[Any]] = {name: [] for name in GAME_COLUMNS}
        for name in self.extra_game_columns:
            self.games[name] = []
        self.players: dict[str, list[Any]] = {name: [] for name in PLAYER_COLUMNS}
        self.cards: dict[str, list[Any]] = {name: [] for name in CARD_COLUMNS}
        self.card_names: tuple[str, ...] = ()
        for name in info.card_counters:
            self.cards[name] = []

    def add(self, game_index: int, seed: int, played: PlayedGame) -> None:
        """Append the rows of one finished game."""
        state = played.state
        n_players = state.n_players
        winners = state.winners()
        games = self.games
        games["game_index"].append(game_index)
        games["seed"].append(seed)
        games["n_players"].append(n_players)
        games["winner"].append(winners[0] if len(winners) == 1 else None)
        games["winners"].append(winners)
        games["draw"].append(not winners)
        games["end_reason"].append(state.end_reason())
        games["turns"].append(state.turns())
        games["decisions"].append(played.decisions)
        if self.extra_game_columns:
            extra = state.game_columns()
            for name in self.extra_game_columns:
                games[name].append(extra[name])

        players = self.players
        scores, ranks, factions = state.scores(), state.ranks(), state.factions()
        for seat in range(n_players):
            players["game_index"].append(game_index)
            players["n_players"].append(n_players)
            players["seat"].append(seat)
            players["agent"].append(played.agents[seat])
            players["faction"].append(factions[seat])
            players["won"].append(seat in winners)
            players["score"].append(scores[seat])
            players["rank"].append(ranks[seat])

        columns = state.card_columns()
        rows = len(columns.seat)
        cards = self.cards
        cards["game_index"].extend([game_index] * rows)
        cards["n_players"].extend([n_players] * rows)
        cards["seat"].extend(columns.seat)
        cards["card"].extend(columns.card)
        self.card_names = columns.names
        cards["copies"].extend(columns.copies)
        cards["first_played_turn"].extend(
            [None if turn < 0 else turn for turn in columns.first_played_turn])
        cards["won"].extend([seat in winners for seat in columns.seat])
        for name, values in zip(self.info.card_counters, columns.counters, strict=True):
            cards[name].extend(values)

    def game_count(self) -> int:
        """Games added so far."""
        return len(self.games["game_index"])
