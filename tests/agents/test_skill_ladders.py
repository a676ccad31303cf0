"""Every registered game has a skill ladder experiment: random, heuristic,
one-step lookahead and ISMCTS at two budgets, every seat alike."""

from __future__ import annotations

from pathlib import Path

import pytest

from experiments.spec import load_spec
from tests.agents.helpers import GAME_IDS

EXPERIMENTS = Path(__file__).resolve().parents[2] / "experiments"


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_each_game_has_a_skill_ladder_from_random_to_ismcts_at_two_budgets(game_id: str) -> None:
    spec = load_spec(EXPERIMENTS / f"{game_id}_skill_ladder.toml")
    assert spec.game == game_id
    rungs = [[str(agent) for agent in (variant.agents or spec.agents)] for variant in spec.variants]
    assert all(len(lineup) == 1 for lineup in rungs), "every seat plays the same rung"
    names = [lineup[0].split("(")[0] for lineup in rungs]
    assert names == ["random", "heuristic", "osla", "ismcts", "ismcts"]
    assert len({lineup[0] for lineup in rungs}) == len(rungs)
