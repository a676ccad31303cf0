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
