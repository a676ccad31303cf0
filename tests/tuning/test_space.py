"""The space as points: its size, the whole grid and its order, the nearest untried point,
the overrides of ``--trials`` and ``--games``, the plan of ``--dry-run``, and a change in
the designer's words."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from analytics.tuning import seen_words
from drivers.tuning import grid_order, nearest_untried, point_key, search_plan
from experiments.tuning import TuningSpecError, change_words, load_tuning_spec, parse_tuning_spec
from tests.tuning.test_spec import VALID

TUNE = Path(__file__).resolve().parents[2] / "experiments" / "tune"
ORACLE = TUNE / "theseus_oracle_tune.toml"
DRAW_2, DRAW_1, EXPLORE = ["draw 2"], ["draw 1"], ["draw 2", "explore 1"]


def point(vp: int, use: list[str]) -> dict[str, object]:
    return {"cards.oracle.vp": vp, "cards.oracle.use": use}


def test_the_oracle_space_has_21_points_and_a_budget_of_21_plays_them_all() -> None:
    spec = load_tuning_spec(ORACLE)
    assert spec.space_size == 21 and spec.search.trials == 21 and spec.plays_grid
    grid = spec.grid()
    assert len({point_key(values) for values in grid}) == 21 and all(spec.in_space(values) for values in grid)
    assert not spec.with_overrides(trials=20).plays_grid  # one point short: the sampler proposes


def test_the_grid_is_played_current_data_first_then_in_an_order_fixed_by_the_seed() -> None:
    spec = load_tuning_spec(ORACLE)
    order = grid_order(spec)
    assert order[0] == spec.current_values == point(1, DRAW_2)
    assert sorted(map(point_key, order)) == sorted(map(point_key, spec.grid()))
    assert grid_order(spec) == order  # the same every time (a resumed search plays the same order)
    raw = tomllib.loads(ORACLE.read_text())
    other = parse_tuning_spec({**raw, "seed": 7}, "other.toml")
    assert grid_order(other) != order and grid_order(other)[0] == order[0]


def test_a_float_range_without_a_step_makes_the_space_infinite() -> None:
    raw = tomllib.loads(VALID)
    assert parse_tuning_spec(raw, "inline").space_size == 19  # rules.treasure_target 12 to 30
    raw["space"] = {"rules.treasure_target": [12, 30], "rules.hand_size": {"low": 4, "high": 8, "step": 2}}
    assert parse_tuning_spec(raw, "inline").space_size == 19 * 3
    party = tomllib.loads((TUNE / "party_wanted_tune.toml").read_text())
    assert load_tuning_spec(TUNE / "party_wanted_tune.toml").space_size == 4 ** 7 * 2 * 5
    assert party["space"]["rules.heal_amount"] == [0, 4]


def test_the_untried_point_nearest_the_samplers_proposal_is_taken_ties_to_the_cheaper() -> None:
    spec = load_tuning_spec(ORACLE)
    tried = {point_key(values) for values in (point(1, DRAW_2), point(1, DRAW_1))}
    # One VP either way is nearest (1/6 of the range); both cost the same, so grid order: 0 first.
    assert nearest_untried(spec, point(1, DRAW_2), tried) == point(0, DRAW_2)
    tried |= {point_key(point(0, DRAW_2)), point_key(point(2, DRAW_2))}
    assert nearest_untried(spec, point(1, DRAW_2), tried) == point(3, DRAW_2)  # 2/6, nearer than a changed use
    everything = {point_key(values) for values in spec.grid()}
    assert nearest_untried(spec, point(1, DRAW_2), everything) is None


def test_trials_and_games_override_the_spec_and_scale_its_rungs() -> None:
    spec = load_tuning_spec(ORACLE)
    small = spec.with_overrides(trials=14, games=60)
    assert small.search.trials == 14 and small.search.games == (60, 240, 960)
    assert small.identity()["search"]["trials"] == 14  # a --resume needs the same overrides
    told = parse_tuning_spec({**tomllib.loads(VALID), "confirm": {"games": 3000}}, "inline")
    assert told.search.games == (200, 800) and told.with_overrides(games=50).confirm.games == 750
    tiny = load_tuning_spec(ORACLE).with_overrides(games=1)
    assert tiny.search.games == (1, 4, 16)  # still rising


def test_an_override_the_spec_cannot_take_names_the_option() -> None:
    spec = parse_tuning_spec(tomllib.loads(VALID), "spec.toml")
    with pytest.raises(TuningSpecError, match=r"^--games: spec.toml: search.games: expected a list of positive "):
        spec.with_overrides(games=900_000_000)


def test_the_plan_plays_every_point_once_and_promotes_a_third_of_each_rung() -> None:
    plan = search_plan(load_tuning_spec(ORACLE))
    assert plan.points == 21 and sum(batch.new for batch in plan.batches) == 21
    assert [batch.new for batch in plan.batches[:3]] == [7, 7, 7]
    assert plan.promoted == (7, 2)  # 21 // 3 to 400 games, 7 // 3 to 1,600
    assert plan.search_games == 21 * 100 + 7 * 300 + 2 * 1200
    assert plan.confirm_variants == 3  # two candidates and the current data
    sampled = search_plan(load_tuning_spec(ORACLE).with_overrides(trials=14))
    assert sampled.points == 14 and sampled.search_games < plan.search_games


@pytest.mark.parametrize(("path", "current", "value", "words"), [
    ("cards.oracle.use", DRAW_2, DRAW_1, "Oracle: use draw 2 -> draw 1"),
    ("cards.oracle.vp", 2, 1, "Oracle: vp 2 -> 1"),
    ("cards.oracle.use", DRAW_2, EXPLORE, "Oracle: use draw 2 -> draw 2, explore 1"),
    ("rules.treasure_target", 20, 26, "Rules: treasure target 20 -> 26"),
    ("rules.tied_strength", "carry_over", "discard", "Rules: tied strength carry_over -> discard"),
    ("cards.hydra.stats", [12, 8, 3, 4], [14, 10, 3, 4], "Hydra: stats [12, 8, 3, 4] -> [14, 10, 3, 4]"),
    ("powers.giant_slayers.cards_per_hit", 1, 0, "Giant Slayers (power): cards per hit 1 -> 0"),
])
def test_a_change_reads_in_the_designers_words(path: str, current: object, value: object, words: str) -> None:
    assert change_words(path, current, value) == words


def test_a_groups_own_name_from_the_card_data_is_used() -> None:
    assert change_words("parties.den_of_thieves.power", "a", "b", {"parties.den_of_thieves": "Den of Thieves"}) == (
        "Den of Thieves (party): power a -> b")
    spec = load_tuning_spec(TUNE / "ring_of_chaos_tune.toml")
    assert spec.display_names["parties.brute_squad"] == "Brute Squad"
    assert spec.change_words({**spec.current_values, "cards.fireball.copies": 3}) == ["Fireball: copies 2 -> 3"]


def test_how_much_of_the_space_was_seen_reads_in_words() -> None:
    assert seen_words(21, 21) == "points evaluated: 21 of 21, the whole space"
    assert seen_words(14, 21, 3) == ("points evaluated: 14 distinct of 21 in the space (67%); 3 more ask(s) of the "
                                     "sampler repeated a point already asked (results reused: no games, no trial "
                                     "budget)")
    assert seen_words(9, None) == "points evaluated: 9 distinct (the space is infinite: a float range without a step)"
    assert seen_words(9, None, known=False) == "points evaluated: 9 distinct"  # a search from before it was kept
