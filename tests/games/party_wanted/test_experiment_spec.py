"""The shipped baseline experiment spec covers every party size, optional mode and the Combat Modifier."""

from __future__ import annotations

from pathlib import Path

from experiments.spec import BASELINE, load_spec

SPEC = Path(__file__).resolve().parents[3] / "experiments" / "party_wanted_baseline.toml"


def test_the_baseline_spec_has_every_party_size_and_a_variant_per_optional_mode() -> None:
    spec = load_spec(SPEC)
    assert spec.player_counts == tuple(range(1, 9))
    assert [variant.name for variant in spec.variants] == [
        BASELINE, "nemesis", "hard_mode", "no_healing_between_turns", "party_mode", "hardcore", "longer_game",
        "no_combat_modifier",
    ]
    assert [str(agent) for agent in spec.agents] == ["heuristic"]


def test_the_readings_spec_switches_each_reading_on_paired_seeds_with_heuristic_parties() -> None:
    spec = load_spec(SPEC.with_name("party_wanted_readings.toml"))
    assert spec.paired_seeds and spec.games >= 20000 and [str(agent) for agent in spec.agents] == ["heuristic"]
    overrides = {variant.name: dict(variant.overrides) for variant in spec.variants}
    assert overrides[BASELINE] == {}
    assert overrides["heal_amount"] == {"rules.heal_between_turns": "amount"}
    assert overrides["heal_none"] == {"rules.heal_between_turns": "none"}
    assert overrides["revive_at_level_up"] == {"rules.revive_at_level_up": True}
    assert overrides["planning_once"] == {"rules.planning": "once"}
    assert overrides["social_solo"] == {"rules.social": "solo"}
    assert len(overrides["old_readings"]) == 4
    assert overrides["multipliers_party"] == {"rules.multipliers": "party"}
    assert overrides["living_heroes_level_up"] == {"rules.dead_heroes_level_up": False}

