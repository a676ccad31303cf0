"""``deal_replays = K``: game i plays deal i // K with the agents' seeds of replay i % K;
replay 0 of every deal is the game every experiment has always played."""

from __future__ import annotations

import pyarrow as pa
import pytest

from experiments.spec import BASELINE, Shard, SpecError, parse_spec, replay_setup
from simcore.seeding import agent_seed, derive_seed
from workers.shard import play_shard


def _raw(**changes: object) -> dict[str, object]:
    raw: dict[str, object] = {"name": "t", "game": "divvy", "games": 12, "shard_size": 12, "agents": ["random"],
                              "rotate_seats": True}
    raw.update(changes)
    return raw


def _tables(**changes: object) -> dict[str, pa.Table]:
    spec = parse_spec(_raw(**changes), "t.toml")
    return play_shard(spec, Shard(BASELINE, 2, 0, spec.games))


def _without_game_index(table: pa.Table) -> list[dict[str, object]]:
    return table.drop_columns(["game_index"]).to_pylist()


def test_game_i_plays_deal_i_div_k_with_the_agent_seeds_of_replay_i_mod_k() -> None:
    spec = parse_spec(_raw(deal_replays=3), "t.toml")
    assert [spec.deal(index) for index in range(7)] == [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2), (2, 0)]
    assert parse_spec(_raw(), "t.toml").deal(5) == (5, 0)
    # Replay r of a deal: the agents' seeds derived with "replay", r; replay 0 the seed they always had.
    assert agent_seed(77, 1, 0) == derive_seed("agent", 77, 1)
    assert agent_seed(77, 1, 2) == derive_seed("agent", 77, 1, "replay", 2)


def test_replay_0_of_each_deal_is_the_game_played_without_replays_row_for_row() -> None:
    plain = _tables(games=4, shard_size=4)
    replayed = _tables(games=12, deal_replays=3)
    for name in ("games", "players", "cards"):
        table = replayed[name]
        firsts = table.filter(pa.array([index % 3 == 0 for index in table.column("game_index").to_pylist()]))
        assert _without_game_index(firsts) == _without_game_index(plain[name]), name
        assert [index // 3 for index in firsts.column("game_index").to_pylist()] == \
            plain[name].column("game_index").to_pylist()


def test_the_replays_of_a_deal_share_its_seed_and_seating_and_differ_in_the_agents_choices() -> None:
    tables = _tables(games=60, shard_size=60, deal_replays=3, agents=["heuristic", "random"])
    games, players = tables["games"].to_pylist(), tables["players"].to_pylist()
    for deal in range(20):
        replays = games[3 * deal:3 * deal + 3]
        assert len({game["seed"] for game in replays}) == 1
    assert len({game["seed"] for game in games}) == 20
    # Random agents given other seeds play other games on the same cards: some replay differs.
    assert any(len({(game["decisions"], tuple(game["winners"]), game["margin"])
                    for game in games[3 * deal:3 * deal + 3]}) > 1 for deal in range(20))
    # Seats are rotated by deal, not by game: the replays of a deal seat the same agents.
    seating = {(row["game_index"], row["seat"]): row["agent"] for row in players}
    assert all(seating[3 * deal + replay, seat] == seating[3 * deal, seat]
               for deal in range(20) for replay in range(3) for seat in range(2))


def test_an_experiments_replay_of_a_replayed_game_plays_its_deal_with_its_agent_seeds() -> None:
    spec = parse_spec(_raw(deal_replays=3), "t.toml")
    setup = replay_setup(spec, BASELINE, 2, 7)
    plain = replay_setup(parse_spec(_raw(), "t.toml"), BASELINE, 2, 2)
    assert (setup.seed, setup.lineup, setup.agent_replay) == (plain.seed, plain.lineup, 1)


def test_deal_replays_is_left_out_of_the_stored_spec_unless_asked_for_and_changes_its_identity() -> None:
    plain, replayed = parse_spec(_raw(), "t.toml"), parse_spec(_raw(deal_replays=3), "t.toml")
    assert plain.deal_replays == 1 and "deal_replays" not in plain.to_json_dict()
    assert replayed.to_json_dict()["deal_replays"] == 3
    assert replayed.identity() != plain.identity()
    assert parse_spec(replayed.to_json_dict(), "spec.json").identity() == replayed.identity()


@pytest.mark.parametrize(("value", "message"), [
    (0, "expected a positive integer, got 0"),
    ("3", "expected a positive integer, got '3'"),
    (1001, "expected a positive integer of at most 1,000, got 1,001"),
    (5, "12 games are not whole deals of 5 plays; expected games to be a multiple of deal_replays"),
])
def test_deal_replays_must_be_a_positive_divisor_of_games(value: object, message: str) -> None:
    with pytest.raises(SpecError, match=rf"^t\.toml: deal_replays: {message}$"):
        parse_spec(_raw(deal_replays=value), "t.toml")
