"""A shard task's counts: the count views of its rows, computed from its tables in
memory (``workers.counts``), are the tables the SQL of ``analytics.views`` gives
over the same shard's files, and they are written, recorded and read back."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest

from analytics.partials import _compute_shard
from dataset.count_views import COUNT_VIEWS, COUNTS_FORMAT
from dataset.integrity import sha256_of
from dataset.schemas import TABLES
from dataset.storage import counts_path, manifest_path, table_path
from experiments.spec import BASELINE, ExperimentSpec, Shard, Variant
from simcore.agents.registry import parse_agent_spec
from simcore.registry import get_game
from workers.counts import count_schema, count_shard
from workers.shard import record_shard, run_shard

LINEUPS = [
    # (game, agents, players, games): every game; seats of one agent (a per-game card
    # group of several rows), of different agents (a row per group), and a mix; a solo game.
    ("divvy", ("random",), 2, 150),
    ("divvy", ("heuristic", "random"), 2, 150),
    ("theseus", ("random",), 3, 60),
    ("party_wanted", ("random",), 4, 60),
    ("party_wanted", ("random",), 1, 60),
    ("ring_of_chaos", ("random",), 4, 30),
    ("ring_of_chaos", ("random", "heuristic"), 3, 20),
]


def _spec(game_id: str, agents: tuple[str, ...], n_players: int, games: int) -> ExperimentSpec:
    game = get_game(game_id)
    return ExperimentSpec(name="counted", game=game_id, games=games, seed=11, player_counts=(n_players,),
                          agents=tuple(parse_agent_spec(agent) for agent in agents), rotate_seats=True,
                          shard_size=games, variants=(Variant(BASELINE, {}, game.default_parameters()),))


def _sql_counts(spec: ExperimentSpec, shard: Shard, folder: Path) -> dict[str, pa.Table]:
    """What the driver computes for the shard: the count views' SQL in DuckDB over its files."""
    run_shard(spec, shard, folder)
    return _compute_shard({table: [table_path(folder, table, shard.variant, shard.id)] for table in TABLES}, None)


@pytest.mark.parametrize(("game_id", "agents", "n_players", "games"), LINEUPS,
                         ids=[f"{game}-{'-'.join(agents)}-{n}p" for game, agents, n, _ in LINEUPS])
def test_the_counts_of_a_shard_are_the_count_views_sql_over_its_files_for_every_game(
        tmp_path: Path, game_id: str, agents: tuple[str, ...], n_players: int, games: int) -> None:
    spec = _spec(game_id, agents, n_players, games)
    shard = Shard(BASELINE, n_players, 0, games)
    counted = count_shard(record_shard(spec, shard))
    expected = _sql_counts(spec, shard, tmp_path)
    assert list(counted) == list(COUNT_VIEWS)
    for view, table in expected.items():
        assert counted[view].schema.equals(table.schema), view
        assert counted[view].to_pylist() == table.to_pylist(), view
    # Not vacuous: every game has seat, agent, card and first-play rows.
    for view in ("seat_counts", "agent_counts", "team_counts", "card_counts", "card_turn_counts", "game_counts",
                 "lead_counts"):
        assert counted[view].num_rows > 0, view
    # Competitive games have standings: their lead counts hold margins and leaders who won and lost.
    if game_id != "party_wanted":
        leads = counted["lead_counts"]
        assert leads.filter(pc.is_valid(leads.column("margin"))).num_rows > 0
        assert set(leads.column("first_third_leader_won").to_pylist()) >= {True, False}
    assert sum(counted["seat_counts"].column("games").to_pylist()) == games * n_players


@pytest.mark.parametrize(("game_id", "agents", "n_players", "games"), [LINEUPS[0], LINEUPS[-1]],
                         ids=["divvy-random-2p", "ring_of_chaos-random-heuristic-3p"])
def test_card_rows_out_of_game_order_count_as_the_rows_in_order(
        game_id: str, agents: tuple[str, ...], n_players: int, games: int) -> None:
    spec = _spec(game_id, agents, n_players, games)
    tables = record_shard(spec, Shard(BASELINE, n_players, 0, games))
    in_order = count_shard(tables)
    cards = tables["cards"]
    # The tally gathers a game's groups while its rows come one after another:
    # every game's first seat, then every game's second... splits each game's rows.
    by_seat = sorted(range(cards.num_rows), key=cards.column("seat").to_pylist().__getitem__)
    assert count_shard({**tables, "cards": cards.take(pa.array(by_seat))}) == in_order


def test_the_counts_add_up_to_the_rows_they_count() -> None:
    spec = _spec("divvy", ("random",), 2, 100)
    tables = record_shard(spec, Shard(BASELINE, 2, 0, 100))
    counted = count_shard(tables)
    cards = tables["cards"]
    in_hand = sum(1 for drawn, opening in zip(cards.column("drawn").to_pylist(),
                                              cards.column("in_opening_hand").to_pylist(), strict=True)
                  if drawn > 0 or opening > 0)
    assert sum(counted["card_counts"].column("games_in_hand").to_pylist()) == in_hand
    assert sum(counted["card_counts"].column("times_drawn").to_pylist()) == sum(cards.column("drawn").to_pylist())
    played = sum(1 for turn in cards.column("first_played_turn").to_pylist() if turn is not None)
    assert sum(counted["card_turn_counts"].column("games_played").to_pylist()) == played
    # Both seats hold the random agent: a card both seats drew in a game is one cluster of two.
    card_counts = counted["card_counts"].to_pylist()
    assert sum(row["gih_clusters"] for row in card_counts) < in_hand
    assert sum(row["gih_n_sq"] for row in card_counts) > in_hand
    assert sum(counted["game_counts"].column("games").to_pylist()) == 100


def test_a_shard_without_games_counts_nothing() -> None:
    spec = _spec("divvy", ("random",), 2, 10)
    tables = {name: table.slice(0, 0) for name, table in record_shard(spec, Shard(BASELINE, 2, 0, 10)).items()}
    counted = count_shard(tables)
    assert {view: table.num_rows for view, table in counted.items()} == dict.fromkeys(COUNT_VIEWS, 0)
    assert all(table.schema.equals(count_schema(view)) for view, table in counted.items())


def test_a_shard_task_writes_its_counts_beside_its_tables_and_records_them_in_its_manifest(tmp_path: Path) -> None:
    spec = _spec("divvy", ("heuristic", "random"), 2, 40)
    shard = Shard(BASELINE, 2, 0, 40)
    entry = run_shard(spec, shard, tmp_path)
    assert entry["counts"]["format"] == COUNTS_FORMAT
    assert set(entry["counts"]["files"]) == set(COUNT_VIEWS)
    expected = count_shard(record_shard(spec, shard))
    for view, recorded in entry["counts"]["files"].items():
        path = counts_path(tmp_path, view, BASELINE, shard.id)
        assert path == tmp_path / "counts" / view / "variant=baseline" / f"part-{shard.id}.parquet"
        assert recorded == {"bytes": path.stat().st_size, "sha256": sha256_of(path)}
        assert pq.read_table(path).equals(expected[view])
    assert json.loads(manifest_path(tmp_path, shard.id).read_text()) == entry
    assert entry["count_seconds"] >= 0
