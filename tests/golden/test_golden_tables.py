"""Same seeds, parameters and agents give byte-identical sorted tables: the
committed fingerprints of ``tests/golden/<game>.json`` and of every game's
search games in ``tests/golden/search.json`` (see ``golden.py``).

One test per game and player count, so that the suite's two workers share
the longest of them (Party Wanted's eight player counts)."""

from __future__ import annotations

import json

import pytest

from simcore.registry import GAMES
from tests.golden.golden import fingerprints_at, golden_file, player_counts, search_fingerprints, search_golden_file

GAMES_AND_PLAYER_COUNTS = [(game_id, n_players) for game_id in sorted(GAMES) for n_players in player_counts(game_id)]


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_the_committed_file_has_every_player_count_of_the_game(game_id: str) -> None:
    expected = json.loads(golden_file(game_id).read_text())
    assert sorted(expected, key=int) == [str(n_players) for n_players in player_counts(game_id)]


@pytest.mark.parametrize(("game_id", "n_players"), GAMES_AND_PLAYER_COUNTS)
def test_the_seeded_games_give_the_committed_tables(game_id: str, n_players: int) -> None:
    expected = json.loads(golden_file(game_id).read_text())[str(n_players)]
    found = fingerprints_at(game_id, n_players)
    assert sorted(found) == sorted(expected)
    for table, fingerprint in expected.items():
        where = f"{game_id} at {n_players} players, table {table}"
        assert found[table]["rows"] == fingerprint["rows"], where
        assert found[table]["columns"] == fingerprint["columns"], where
        assert found[table]["sha256"] == fingerprint["sha256"], (
            f"{where}: the games changed; if on purpose, run python -m tests.golden.golden --update {game_id}")


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_the_seeded_search_games_give_the_committed_tables(game_id: str) -> None:
    # An ISMCTS seat against random ones: its clones and re-samplings of hidden cards are in these games.
    expected = json.loads(search_golden_file().read_text())[game_id]
    found = search_fingerprints(game_id)
    for table, fingerprint in expected.items():
        where = f"{game_id}'s search games, table {table}"
        assert found[table]["rows"] == fingerprint["rows"], where
        assert found[table]["sha256"] == fingerprint["sha256"], (
            f"{where}: the games changed; if on purpose, run python -m tests.golden.golden --update {game_id}")
