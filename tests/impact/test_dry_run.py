"""``cardlab run SPEC --dry-run`` of a card impact run groups its arms: one calibration line per
arm kind (not one per card), the arms it plays, and the games and seconds each card costs."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from cardlab.cli import main
from experiments.spec import Shard
from tests.impact.token_duel import BONUSES, register, unregister
from workers.estimate import card_costs


@pytest.fixture
def token_duel() -> Iterator[None]:
    register()
    try:
        yield
    finally:
        unregister()


def test_the_dry_run_of_an_impact_run_prints_one_calibration_line_per_arm_kind_and_each_cards_cost(
        token_duel: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = tmp_path / "token_impact.toml"
    spec.write_text('name = "token_impact"\ngame = "token_duel"\ngames = 3000\nseed = 1\nagents = ["random"]\n'
                    'shard_size = 1000\n\n[impact]\ncards = "all"\n', encoding="utf-8")
    assert main(["run", str(spec), "--dry-run", "--workers", "2", "--results", str(tmp_path / "results")]) == 0
    out = capsys.readouterr().out
    calibration = [line for line in out.splitlines() if line.startswith("  calibration:")]
    cards = len(BONUSES)
    assert [line.split(":")[1].split(",")[0].strip() for line in calibration] == [
        "baseline", f"{cards} stand_in arm(s)", f"{cards} one_fewer arm(s)"]
    assert f"card impact: {cards} card(s), arms stand_in and one_fewer: {2 * cards} arm variant(s)" in out
    # Two arms of 3,000 games per card.
    assert re.search(rf"  per card: 6,000 games, about \d[\d,]* s on one core \(the median of {cards} cards\)", out)
    assert not (tmp_path / "results").exists()


def test_a_cards_cost_sums_its_arms_shards_at_each_arms_rate() -> None:
    shards = [Shard("baseline", 2, 0, 1000), Shard("impact.a.stand_in", 2, 0, 1000),
              Shard("impact.a.one_fewer", 2, 0, 1000), Shard("impact.b.stand_in", 2, 0, 1000),
              Shard("impact.b.stand_in", 2, 1000, 1500)]
    rates = {("baseline", 2): 1000.0, ("impact.a.stand_in", 2): 500.0, ("impact.a.one_fewer", 2): 250.0,
             ("impact.b.stand_in", 2): 100.0}
    cost = card_costs(shards, rates)
    assert cost is not None
    # a: 1,000/500 + 1,000/250 = 6 s; b: 1,500/100 = 15 s. The median of two is the cheaper.
    assert (cost.cards, cost.median_games, cost.median_seconds, cost.most_games, cost.most_seconds) == (
        2, 2000, 6.0, 1500, 15.0)
    assert card_costs(shards[:1], rates) is None
