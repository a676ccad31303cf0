"""Same seeds, parameters and agents give byte-identical sorted tables: the
committed fingerprints of ``tests/golden/<game>.json`` (see ``golden.py``)."""

from __future__ import annotations

import json

import pytest

from simcore.registry import GAMES, get_game
from tests.golden.golden import fingerprints, golden_file


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_the_seeded_games_give_the_committed_tables(game_id: str) -> None:
    expected = json.loads(golden_file(game_id).read_text())
    found = fingerprints(game_id)
    info = get_game(game_id).info
    assert sorted(found, key=int) == [str(n) for n in range(info.min_players, info.max_players + 1)]
    for n_players, tables in expected.items():
        for table, fingerprint in tables.items():
            where = f"{game_id} at {n_players} players, table {table}"
            assert found[n_players][table]["rows"] == fingerprint["rows"], where
            assert found[n_players][table]["columns"] == fingerprint["columns"], where
            assert found[n_players][table]["sha256"] == fingerprint["sha256"], (
                f"{where}: the games changed; if on purpose, run python -m tests.golden.golden --update {game_id}")
