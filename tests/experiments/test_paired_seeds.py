"""``paired_seeds``: every variant plays the baseline's seeds."""

from __future__ import annotations

import pytest

from experiments.spec import SpecError, parse_spec
from workers.shard import play_shard


def _spec(**changes: object) -> dict[str, object]:
    raw: dict[str, object] = {"name": "t", "game": "divvy", "games": 6, "shard_size": 6,
                              "variants": {"four_rounds": {"rules.rounds": 4}}}
    raw.update(changes)
    return raw


def _seeds(paired: bool) -> dict[str, list[int]]:
    spec = parse_spec(_spec(paired_seeds=paired), "t.toml")
    return {shard.variant: play_shard(spec, shard)["games"].column("seed").to_pylist() for shard in spec.shards()}


def test_paired_seeds_is_off_by_default_and_part_of_the_spec_identity() -> None:
    spec = parse_spec(_spec(), "t.toml")
    assert spec.paired_seeds is False
    assert spec.to_json_dict()["paired_seeds"] is False
    paired = parse_spec(_spec(paired_seeds=True), "t.toml")
    assert paired.to_json_dict()["paired_seeds"] is True
    # Changing it changes which games are played: --resume must refuse to mix them.
    assert paired.identity() != spec.identity()
    # The stored spec reads back the same.
    assert parse_spec(paired.to_json_dict(), "spec.json").identity() == paired.identity()


def test_with_paired_seeds_every_variant_plays_the_baselines_seeds() -> None:
    seeds = _seeds(paired=True)
    assert seeds["four_rounds"] == seeds["baseline"]
    assert len(set(seeds["baseline"])) == 6


def test_without_paired_seeds_each_variant_has_its_own_seeds() -> None:
    seeds = _seeds(paired=False)
    assert not set(seeds["four_rounds"]) & set(seeds["baseline"])
    # The baseline's own seeds do not depend on the option.
    assert seeds["baseline"] == _seeds(paired=True)["baseline"]


def test_paired_seeds_must_be_true_or_false() -> None:
    with pytest.raises(SpecError, match=r"^t\.toml: paired_seeds: expected true or false, got 'yes'$"):
        parse_spec(_spec(paired_seeds="yes"), "t.toml")
