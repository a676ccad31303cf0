"""Result rows of finished games, gathered column by column.

``ResultColumns`` turns each played game into rows of the three tables of the
results dataset (``games``, ``players``, ``cards``; see DESIGN.md). The
``games`` and ``players`` columns (a few rows per game) are Python lists; the
``cards`` columns (~60 rows per game) are typed buffers the games append to
(``simcore.api.CardColumns``), and the per-row game keys of a card row (game
index, player count, whether its seat won) are not stored at all: the
recorder derives them from ``card_rows`` (rows per game) and the other two
tables with numpy. It is pure and compiled with the rules core, because
building the rows is on the hot path.
"""

from __future__ import annotations

from typing import Any

from simcore.api import CardColumns, GameInfo
from simcore.play import PlayedGame
from simcore.standings import NO_SEAT

GAME_COLUMNS = ("game_index", "seed", "n_players", "winner", "winners", "draw", "end_reason", "turns", "decisions",
                "legal_actions", "margin", "lead_changes", "winner_deficit", "leader_first_third",
                "leader_second_third")
LEAD_COLUMNS = ("margin", "lead_changes", "winner_deficit", "leader_first_third", "leader_second_third")
"""The ``games`` columns of ``simcore.standings``: who led, and by how much the winner won."""
PLAYER_COLUMNS = ("game_index", "n_players", "seat", "agent", "faction", "won", "score", "rank")


class ResultColumns:
    """Column lists for the rows of many games of one game type.

    ``cards`` holds the game-filled columns (seat, card index, copies,
    counters, first played turn, -1 for never); ``card_rows[g]`` is the
    number of card rows the ``g``-th game added (the ``players`` rows of a
    game are its seats in order, so a card row's player row is the game's
    first player row plus its seat).
    """

    def __init__(self, info: GameInfo) -> None:
        self.info = info
        self.extra_game_columns: list[str] = list(info.game_columns)
        self.games: dict[str, list[Any]] = {name: [] for name in GAME_COLUMNS}
        for name in self.extra_game_columns:
            self.games[name] = []
        self.players: dict[str, list[Any]] = {name: [] for name in PLAYER_COLUMNS}
        self.extra_player_columns: list[str] = list(info.player_columns)
        for name in self.extra_player_columns:
            self.players[name] = []
        self.cards = CardColumns(len(info.card_counters))
        self.card_rows: list[int] = []

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
        # A draw: nobody won and the result was shared (a cooperative loss is no draw).
        games["draw"].append(not winners and max(state.returns()) > 0.0)
        games["end_reason"].append(state.end_reason())
        games["turns"].append(state.turns())
        games["decisions"].append(played.decisions)
        games["legal_actions"].append(played.legal_actions)
        lead = played.lead
        if lead is None:  # no standings (a cooperative game): NULL
            for name in LEAD_COLUMNS:
                games[name].append(None)
        else:
            sole_winner = winners[0] if len(winners) == 1 else NO_SEAT
            games["margin"].append(lead.margin(sole_winner))
            games["lead_changes"].append(lead.lead_changes)
            games["winner_deficit"].append(lead.winner_deficit(sole_winner))
            games["leader_first_third"].append(lead.leader_at(1))
            games["leader_second_third"].append(lead.leader_at(2))
        if self.extra_game_columns:
            extra = state.game_columns()
            for name in self.extra_game_columns:
                games[name].append(extra[name])

        players = self.players
        scores, ranks, factions = state.scores(), state.ranks(), state.factions()
        # Each column looked up once per game, not once per seat.
        game_indices, player_counts, seats = players["game_index"], players["n_players"], players["seat"]
        agents, faction_column, won = players["agent"], players["faction"], players["won"]
        score_column, rank_column = players["score"], players["rank"]
        extra_columns = [(name, players[name]) for name in self.extra_player_columns]
        for seat in range(n_players):
            game_indices.append(game_index)
            player_counts.append(n_players)
            seats.append(seat)
            agents.append(played.agents[seat])
            faction_column.append(factions[seat])
            won.append(seat in winners)
            score_column.append(scores[seat])
            rank_column.append(ranks[seat])
            if extra_columns:
                extra_for_seat = state.player_columns(seat)
                for name, column in extra_columns:
                    column.append(extra_for_seat[name])

        cards = self.cards
        first_row = len(cards)
        state.add_card_rows(cards)
        self.card_rows.append(len(cards) - first_row)
