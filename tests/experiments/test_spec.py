"""Experiment specs: defaults, variants, lineups, shards, and the shipped files."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from experiments.spec import BASELINE, SpecError, load_spec, parse_spec
from simcore.parameters import ParameterError, apply_overrides
from simcore.registry import get_game

EXPERIMENTS = Path(__file__).resolve().parents[2] / "experiments"


def _spec(**changes: object) -> dict[str, object]:
    raw: dict[str, object] = {"name": "t", "game": "divvy", "games": 10}
    raw.update(changes)
    return raw


def test_every_shipped_experiment_file_is_valid() -> None:
    files = sorted(EXPERIMENTS.glob("*.toml"))
    assert files
    for path in files:
        spec = load_spec(path)
        assert spec.name == path.stem


def test_the_divvy_baseline_has_a_baseline_and_a_variant_and_at_least_200000_games() -> None:
    spec = load_spec(EXPERIMENTS / "divvy_baseline.toml")
    names = [variant.name for variant in spec.variants]
    assert names[0] == BASELINE and len(names) >= 2
    assert spec.games * len(spec.player_counts) >= 200_000


def test_defaults_are_the_games_minimum_player_count_random_agents_and_seed_zero() -> None:
    spec = parse_spec(_spec(), "t.toml")
    assert spec.player_counts == (2,)
    assert [str(agent) for agent in spec.agents] == ["random"]
    assert spec.seed == 0
    assert [variant.name for variant in spec.variants] == [BASELINE]


def test_variant_overrides_change_only_their_path() -> None:
    spec = parse_spec(_spec(variants={"short": {"rules": {"rounds": 3}}, "quoted": {"rules.hand_limit": 6}}), "t.toml")
    default = get_game("divvy").default_parameters()
    short = spec.variant("short").parameters
    assert short["rules"]["rounds"] == 3
    assert short["rules"]["hand_limit"] == default["rules"]["hand_limit"]
    assert spec.variant("quoted").parameters["rules"]["hand_limit"] == 6
    assert spec.variant(BASELINE).parameters == default


def test_overriding_the_baseline_is_refused() -> None:
    with pytest.raises(SpecError, match=r"t.toml: variants.baseline: the baseline uses the game's defaults"):
        parse_spec(_spec(variants={"baseline": {"rules.rounds": 3}}), "t.toml")


def test_the_lineup_repeats_agents_around_the_table_and_rotates_when_asked() -> None:
    fixed = parse_spec(_spec(agents=["heuristic", "random"]), "t.toml")
    assert [str(agent) for agent in fixed.lineup(2, 0)] == ["heuristic", "random"]
    assert [str(agent) for agent in fixed.lineup(2, 1)] == ["heuristic", "random"]
    rotating = parse_spec(_spec(agents=["heuristic", "random"], rotate_seats=True), "t.toml")
    assert [str(agent) for agent in rotating.lineup(2, 0)] == ["heuristic", "random"]
    assert [str(agent) for agent in rotating.lineup(2, 1)] == ["random", "heuristic"]


@pytest.mark.parametrize("n_players", [3, 5])
def test_rotated_seats_give_every_seat_each_agent_equally_often_at_an_odd_table(n_players: int) -> None:
    rotating = parse_spec(_spec(agents=["heuristic", "random"], rotate_seats=True), "t.toml")
    lineups = [[str(agent) for agent in rotating.lineup(n_players, game)] for game in range(n_players)]
    heuristic_seats = (n_players + 1) // 2  # the agent list repeated around the table: h r h (r h)
    assert all(lineup.count("heuristic") == heuristic_seats for lineup in lineups)
    for seat in range(n_players):
        assert Counter(lineup[seat] for lineup in lineups) == {
            "heuristic": heuristic_seats, "random": n_players - heuristic_seats,
        }
    assert lineups[1] == lineups[0][1:] + lineups[0][:1]  # one seat along per game


def test_shards_cover_every_game_index_once_per_variant_and_player_count() -> None:
    spec = parse_spec(_spec(games=1050, shard_size=100, variants={"v": {"rules.rounds": 4}}), "t.toml")
    shards = spec.shards()
    assert len(shards) == 2 * 11
    for variant in ("baseline", "v"):
        covered = [index for shard in shards if shard.variant == variant for index in range(shard.start, shard.stop)]
        assert covered == list(range(1050))
    assert len({shard.id for shard in shards}) == len(shards)
    assert spec.total_games == 2100


def test_the_stored_json_form_reads_back_to_the_same_spec() -> None:
    spec = parse_spec(_spec(variants={"v": {"rules.rounds": 4}}, agents=["heuristic", "random"]), "t.toml")
    again = parse_spec(spec.to_json_dict(), "spec.json")
    assert again.identity() == spec.identity()
    assert again.variant("v").parameters == spec.variant("v").parameters


@pytest.mark.parametrize(("changes", "message"), [
    ({"name": "t\n"}, "t.toml: name: expected letters, digits, '_', '-' or '.' (no slashes), got 't\\n'"),
    ({"name": "t\nu"}, "t.toml: name: expected letters"),
    ({"variants": {"v\n": {"rules.rounds": 4}}}, "t.toml: variants.'v\\n': variant names use letters"),
])
def test_a_name_is_matched_whole_so_a_final_newline_is_refused_in_one_line(changes: dict[str, object],
                                                                          message: str) -> None:
    with pytest.raises(SpecError) as raised:
        parse_spec(_spec(**changes), "t.toml")
    assert str(raised.value).startswith(message) and "\n" not in str(raised.value)


@pytest.mark.parametrize(("changes", "message"), [
    ({"shard_size": 0}, "t.toml: shard_size: expected a positive integer, got 0"),
    ({"seed": -1}, "t.toml: seed: expected a non-negative integer, got -1"),
    ({"games": 2.5}, "t.toml: games: expected a positive integer, got 2.5"),
    ({"player_counts": [2, 2]}, "t.toml: player_counts: each player count once"),
    ({"agents": []}, "t.toml: agents: expected a non-empty list"),
    ({"rotate_seats": "yes"}, "t.toml: rotate_seats: expected true or false"),
    ({"variants": {"bad/name": {}}}, "t.toml: variants.bad/name: variant names use letters"),
    ({"variants": {"v": {"cards.axes_1.icon": "axe"}}}, "t.toml: variants.v.cards.axes_1.icon: expected one of"),
    # A list with one item of the wrong type names the item type expected and the wrong item
    # (it said "expected a list, got [1, 'a']", of a list).
    ({"game": "ring_of_chaos", "variants": {"x": {"maps.sanctum.starts": [1, "a"]}}},
     "t.toml: variants.x.maps.sanctum.starts: expected a list of integers, got [1, 'a']: 'a' (index 1) is a string"),
    ({"game": "ring_of_chaos", "variants": {"x": {"maps.sanctum.starts": 3}}},
     "t.toml: variants.x.maps.sanctum.starts: expected a list of integers, got 3"),
    # Parameters a player count cannot have: refused here, not by every shard's worker.
    ({"game": "party_wanted", "player_counts": [1, 2], "variants": {"x": {"rules.composition": "wizard"}}},
     't.toml: variants.x.rules.composition: expected one hero per seat, 2 for a party of 2 (or "" to draw them '
     "by seed), got 1: 'wizard'"),
    ({"game": "party_wanted", "player_counts": [2], "variants": {"x": {"rules.composition": "wizard,fighter,rogue"}}},
     "t.toml: variants.x.rules.composition: expected one hero per seat, 2 for a party of 2"),
    ({"game": "party_wanted", "player_counts": [8], "variants": {"x": {"rules.sets.bard": False}}},
     "t.toml: variants.x.rules.sets: expected boxes with at least 8 hero classes for a party of 8"),
])
def test_each_invalid_key_is_named_with_what_was_expected(changes: dict[str, object], message: str) -> None:
    with pytest.raises(SpecError) as raised:
        parse_spec(_spec(**changes), "t.toml")
    assert str(raised.value).startswith(message)


def test_a_sweep_expands_its_grid_into_one_variant_per_point() -> None:
    spec = parse_spec(_spec(sweep={"rules.rounds": [3, 4], "rules.treasure_target": [15, 20, 25]}), "t.toml")
    points = [variant for variant in spec.variants if variant.from_sweep]
    assert [variant.name for variant in points] == [f"sweep-{index:03d}" for index in range(6)]
    grid = {(v.parameters["rules"]["rounds"], v.parameters["rules"]["treasure_target"]) for v in points}
    assert grid == {(rounds, target) for rounds in (3, 4) for target in (15, 20, 25)}
    assert spec.sweep_values("sweep-005") == {"rules.rounds": 4, "rules.treasure_target": 25}
    assert spec.sweep_values(BASELINE) == {"rules.rounds": 5, "rules.treasure_target": 20}
    assert spec.total_games == 10 * 7


def test_a_sweep_over_agents_gives_each_point_its_own_lineup() -> None:
    spec = parse_spec(_spec(sweep={"agents": [["random"], ["heuristic", "random"]], "rules.rounds": [4]}), "t.toml")
    assert [str(agent) for agent in spec.lineup(2, 0, "sweep-000")] == ["random", "random"]
    assert [str(agent) for agent in spec.lineup(2, 0, "sweep-001")] == ["heuristic", "random"]
    assert spec.sweep_values("sweep-001") == {"agents": "heuristic,random", "rules.rounds": 4}
    assert [str(agent) for agent in spec.lineup(2, 0, BASELINE)] == ["random", "random"]


def test_a_swept_spec_reads_back_from_its_json_form_without_doubling_the_grid() -> None:
    spec = parse_spec(_spec(sweep={"rules.rounds": [3, 4]}, variants={"v": {"rules.hand_limit": 6}}), "t.toml")
    again = parse_spec(spec.to_json_dict(), "spec.json")
    assert [variant.name for variant in again.variants] == [variant.name for variant in spec.variants]
    assert again.identity() == spec.identity()


@pytest.mark.parametrize(("sweep", "message"), [
    ({"rules.rounds": []}, "t.toml: sweep.rules.rounds: expected a non-empty list of values"),
    ({"rules.rounds": 4}, "t.toml: sweep.rules.rounds: expected a non-empty list of values, got 4"),
    ({"rules.roundz": [4]}, "t.toml: sweep.rules.roundz: unknown parameter path"),
    ({"rules.rounds": [4, "x"]}, "t.toml: sweep.rules.rounds: expected an integer, got 'x'"),
    ({"agents": [["genius"]]}, "t.toml: sweep.agents[0][0]: unknown agent 'genius'"),
])
def test_a_bad_sweep_names_the_path(sweep: dict[str, object], message: str) -> None:
    with pytest.raises(SpecError) as raised:
        parse_spec(_spec(sweep=sweep), "t.toml")
    assert str(raised.value).startswith(message)


def test_a_sweep_point_that_cannot_seat_a_player_count_names_the_path_and_the_point() -> None:
    raw = _spec(game="party_wanted", player_counts=[2], sweep={"rules.composition": ["wizard,fighter", "wizard"]})
    with pytest.raises(SpecError) as raised:
        parse_spec(raw, "t.toml")
    assert str(raised.value) == (
        't.toml: sweep.rules.composition: expected one hero per seat, 2 for a party of 2 (or "" to draw them by '
        "seed), got 1: 'wizard' (grid point {'rules.composition': 'wizard'})")
    fitting = parse_spec({**raw, "sweep": {"rules.composition": ["wizard,fighter", "rogue,healer"]}}, "t.toml")
    assert len(fitting.variants) == 3


def test_a_nested_list_with_a_wrong_item_names_the_item_inside() -> None:
    with pytest.raises(ParameterError) as raised:
        apply_overrides({"grid": [[1, 2], [3, 4]]}, {"grid": [[1, 2], [3, "x"]]})
    assert str(raised.value) == (
        "grid: expected a list of lists of integers, got [[1, 2], [3, 'x']]: [3, 'x'] (index 1): 'x' (index 1) "
        "is a string")
