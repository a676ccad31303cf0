"""What the per-game stand-in tests compare: the opening hands of one seed under two parameter trees."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from simcore.agents.registry import parse_agent_spec
from simcore.api import CardColumns, Game
from simcore.parameters import apply_overrides
from simcore.play import play_game


def opening_hands(game: Game, parameters: Mapping[str, Any], n_players: int, seed: int) -> list[tuple[int, str]]:
    """(seat, card) of every card in a seat's opening hand, of the game played on ``seed`` by random agents."""
    played = play_game(game, game.configure(parameters), n_players, seed, [parse_agent_spec("random")] * n_players)
    columns = CardColumns(len(game.info.card_counters))
    played.state.add_card_rows(columns)
    opening = columns.counters[game.info.card_counters.index("in_opening_hand")]
    return sorted((columns.seat[row], columns.names[columns.card[row]]) for row in range(len(columns))
                  if opening[row] > 0)


def card_rows(game: Game, parameters: Mapping[str, Any], n_players: int, seed: int, card: str,
              counter: str) -> int:
    """``counter`` summed over the rows of ``card`` in the game played on ``seed`` by heuristic agents."""
    played = play_game(game, game.configure(parameters), n_players, seed, [parse_agent_spec("heuristic")] * n_players)
    columns = CardColumns(len(game.info.card_counters))
    played.state.add_card_rows(columns)
    values = columns.counters[game.info.card_counters.index(counter)]
    return sum(values[row] for row in range(len(columns)) if columns.names[columns.card[row]] == card)


def with_overrides(game: Game, overrides: Mapping[str, Any]) -> dict[str, Any]:
    return apply_overrides(game.default_parameters(), overrides)
