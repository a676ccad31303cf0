"""The results dataset: files, schemas, row counts and the manifest of one shard."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow.parquet as pq

from dataset.schemas import TABLES, schemas
from dataset.storage import manifest_path, table_path
from experiments.spec import Shard, parse_spec
from simcore.registry import get_game
from workers.shard import run_shard


def _spec() -> object:
    return parse_spec({"name": "dataset", "game": "divvy", "games": 40, "agents": ["heuristic", "random"]}, "t.toml")


def test_a_shard_writes_three_parquet_files_with_the_documented_schemas_and_a_manifest(tmp_path: Path) -> None:
    spec = _spec()
    shard = Shard("baseline", 2, 0, 40)
    entry = run_shard(spec, shard, str(tmp_path))  # type: ignore[arg-type]
    expected = schemas(get_game("divvy").info)
    for table in TABLES:
        path = table_path(tmp_path, table, "baseline", shard.id)
        assert path.parent.name == "variant=baseline"
        written = pq.read_table(path)
        assert written.schema.equals(expected[table])
        assert written.num_rows == entry["rows"][table]
    assert entry["rows"]["games"] == 40
    assert entry["rows"]["players"] == 80
    assert json.loads(manifest_path(tmp_path, shard.id).read_text()) == entry
    assert not list(tmp_path.rglob(".*.tmp"))


def test_rows_agree_across_tables(tmp_path: Path) -> None:
    spec = _spec()
    shard = Shard("baseline", 2, 0, 40)
    run_shard(spec, shard, str(tmp_path))  # type: ignore[arg-type]
    games = pq.read_table(table_path(tmp_path, "games", "baseline", shard.id)).to_pylist()
    players = pq.read_table(table_path(tmp_path, "players", "baseline", shard.id)).to_pylist()
    cards = pq.read_table(table_path(tmp_path, "cards", "baseline", shard.id)).to_pylist()
    by_game = {row["game_index"]: row for row in games}
    assert sorted(by_game) == list(range(40))
    for player in players:
        game = by_game[player["game_index"]]
        assert player["won"] == (player["seat"] in game["winners"])
        assert player["rank"] == (1 if player["won"] or game["draw"] else 2)
    for game in games:
        seats = [p for p in players if p["game_index"] == game["game_index"]]
        scores = [p["score"] for p in sorted(seats, key=lambda p: p["seat"])]
        if game["draw"]:
            assert game["winner"] is None and scores[0] == scores[1]
        else:
            assert scores[game["winner"]] > scores[1 - game["winner"]]
    for card in cards:
        assert card["won"] == by_game[card["game_index"]]["winners"].__contains__(card["seat"])
        assert card["drawn"] + card["won_as_treasure"] > 0
        assert card["played"] == 0 or card["drawn"] > 0  # a kept card may be played again
        assert card["in_opening_hand"] <= card["drawn"]
        assert (card["first_played_turn"] is None) == (card["played"] == 0)
    assert {p["agent"] for p in players} == {"heuristic", "random"}


def test_every_registered_game_writes_its_own_columns_with_the_documented_schemas(tmp_path: Path) -> None:
    from simcore.registry import GAMES

    for game_id, game in sorted(GAMES.items()):
        spec = parse_spec({"name": f"columns_{game_id}", "game": game_id, "games": 6}, "t.toml")
        shard = Shard("baseline", game.info.min_players, 0, 6)
        entry = run_shard(spec, shard, str(tmp_path / game_id))
        expected = schemas(game.info)
        for table in TABLES:
            written = pq.read_table(table_path(tmp_path / game_id, table, "baseline", shard.id))
            assert written.schema.equals(expected[table]), (game_id, table)
        assert entry["rows"]["players"] == 6 * game.info.min_players
        players = pq.read_table(table_path(tmp_path / game_id, "players", "baseline", shard.id))
        assert set(game.info.player_columns) <= set(players.column_names)


def test_a_cooperative_loss_is_recorded_as_a_loss_and_not_as_a_draw(tmp_path: Path) -> None:
    spec = parse_spec({"name": "coop", "game": "party_wanted", "games": 30, "player_counts": [3]}, "t.toml")
    shard = Shard("baseline", 3, 0, 30)
    run_shard(spec, shard, str(tmp_path))
    games = pq.read_table(table_path(tmp_path, "games", "baseline", shard.id)).to_pylist()
    lost = [game for game in games if not game["winners"]]
    assert lost, "random parties lose most games"
    assert not any(game["draw"] for game in games)
    divvy = parse_spec({"name": "ties", "game": "divvy", "games": 400}, "t.toml")
    tie_shard = Shard("baseline", 2, 0, 400)
    run_shard(divvy, tie_shard, str(tmp_path / "divvy"))
    divvy_games = pq.read_table(table_path(tmp_path / "divvy", "games", "baseline", tie_shard.id)).to_pylist()
    assert any(game["draw"] for game in divvy_games)
    assert all(game["draw"] == (not game["winners"]) for game in divvy_games)
