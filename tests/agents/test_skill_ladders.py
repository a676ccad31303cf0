"""Every registered game has a skill ladder experiment: random, heuristic,
one-step lookahead and ISMCTS at two budgets, every seat alike, and in the
competitive games head-to-head variants that seat two rungs together."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from experiments.spec import load_spec
from tests.agents.helpers import GAME_IDS

EXPERIMENTS = Path(__file__).resolve().parents[2] / "experiments"


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_each_game_has_a_skill_ladder_from_random_to_ismcts_at_two_budgets(game_id: str) -> None:
    spec = load_spec(EXPERIMENTS / f"{game_id}_skill_ladder.toml")
    assert spec.game == game_id
    lineups = [[str(agent) for agent in (variant.agents or spec.agents)] for variant in spec.variants]
    rungs = [lineup[0] for lineup in lineups if len(lineup) == 1]
    assert [rung.split("(")[0] for rung in rungs] == ["random", "heuristic", "osla", "ismcts", "ismcts"]
    assert len(set(rungs)) == len(rungs)
    head_to_head = [lineup for lineup in lineups if len(lineup) > 1]
    for pair in head_to_head:
        assert len(pair) == 2 and pair[0] != pair[1] and set(pair) <= set(rungs), pair
    if head_to_head:  # seats alternate, so each agent sits first in half the games
        assert spec.rotate_seats and spec.games % 2 == 0


def test_the_competitive_ladders_pit_each_rung_against_the_next_one_up() -> None:
    for game_id in ("divvy", "ring_of_chaos", "theseus"):
        spec = load_spec(EXPERIMENTS / f"{game_id}_skill_ladder.toml")
        lineups = [[str(agent) for agent in (variant.agents or spec.agents)] for variant in spec.variants]
        rungs = [lineup[0] for lineup in lineups if len(lineup) == 1]
        pairs = {tuple(lineup) for lineup in lineups if len(lineup) == 2}
        assert set(itertools.pairwise(rungs)) <= pairs, game_id
