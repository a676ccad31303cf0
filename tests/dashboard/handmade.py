"""A hand-made Divvy-schema experiment whose card rates are known, for the Cards page tests.

400 two-player games; seat 0 is the heuristic, seat 1 random; the heuristic wins the even
games. Every seat holds every card of ``CARDS``, except that, with ``cards_differ``, the
heuristic holds ``won_with`` only in the games it wins and ``lost_with`` only in those it
loses (GIH 100% and 0%: true rates that differ, so the card prior is identified), and
otherwise all its cards sit at 50% (the prior cannot be identified). ``ignored`` is playable
but never played by the heuristic. With ``playable=False`` the ``playable`` counter is 0
everywhere, as in results written before the games recorded it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pyarrow as pa

from dataset.schemas import schemas
from dataset.storage import SPEC_FILE, manifest_path, table_path, write_json_atomically, write_parquet_atomically
from simcore.registry import get_game

CARDS = ("ignored", "lost_with", "plain_1", "plain_2", "plain_3", "won_with")
GAMES = 400
AGENTS = ("heuristic", "random")


def _holds(agent: str, card: str, heuristic_won: bool, cards_differ: bool) -> bool:
    if agent != "heuristic" or not cards_differ:
        return True
    if card == "won_with":
        return heuristic_won
    if card == "lost_with":
        return not heuristic_won
    return True


def write_card_experiment(root: Path, name: str, *, cards_differ: bool, playable: bool = True) -> Path:
    """Write the experiment ``name`` under ``root`` (see the module docstring); its folder."""
    folder = root / name
    table_schemas = schemas(get_game("divvy").info)
    key = {"experiment": name, "variant": "baseline", "game": "divvy", "n_players": 2}
    games: list[dict[str, Any]] = []
    players: list[dict[str, Any]] = []
    cards: list[dict[str, Any]] = []
    for index in range(GAMES):
        winner = 0 if index % 2 == 0 else 1
        games.append({**key, "game_index": index, "seed": index, "winner": winner, "winners": [winner],
                      "draw": False, "end_reason": "rounds_complete", "turns": 5, "decisions": 40,
                      "rounds_played": 5, "unclaimed_coins": 0, "deck_reshuffled": False})
        for seat, agent in enumerate(AGENTS):
            won = seat == winner
            players.append({**key, "game_index": index, "seat": seat, "agent": agent, "won": won,
                            "score": int(won), "rank": 1 if won else 2})
            for card in CARDS:
                if not _holds(agent, card, winner == 0, cards_differ):
                    continue
                played = 0 if (card == "ignored" and agent == "heuristic") else 1
                cards.append({**key, "game_index": index, "seat": seat, "card": card, "copies": 1,
                              "in_opening_hand": 1, "drawn": 1, "played": played, "won_as_treasure": 0,
                              "playable": 2 if playable else 0, "first_played_turn": 1 if played else None,
                              "won": won})
    shard = "baseline-x-0000000000"
    for table, rows in (("games", games), ("players", players), ("cards", cards)):
        write_parquet_atomically(pa.Table.from_pylist(rows, schema=table_schemas[table]),
                                 table_path(folder, table, "baseline", shard))
    write_json_atomically({"shard": shard, "variant": "baseline"}, manifest_path(folder, shard))
    write_json_atomically({"name": name, "game": "divvy", "games": GAMES, "player_counts": [2],
                           "agents": list(AGENTS), "variants": {}, "paired_seeds": False}, folder / SPEC_FILE)
    return folder
