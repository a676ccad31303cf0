"""Every registered game has a skill ladder experiment: rungs from random to
the strongest agents (every seat alike), and in the competitive games
head-to-head variants that seat neighbouring rungs together, sized from the
rating intervals they must resolve."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest

from experiments.spec import ExperimentSpec, load_spec
from tests.agents.helpers import GAME_IDS

EXPERIMENTS = Path(__file__).resolve().parents[2] / "experiments"
COMPETITIVE = ("divvy", "ring_of_chaos", "theseus")


def rungs_and_pairs(spec: ExperimentSpec) -> tuple[list[str], set[tuple[str, ...]]]:
    """The rung agents in listed order (baseline first) and the head-to-head lineups."""
    lineups = [[str(agent) for agent in (variant.agents or spec.agents)] for variant in spec.variants]
    rungs = [lineup[0] for lineup in lineups if len(lineup) == 1]
    return rungs, {tuple(lineup) for lineup in lineups if len(lineup) > 1}


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_each_game_has_a_skill_ladder_from_random_through_the_heuristic_osla_and_ismcts_at_two_budgets(
        game_id: str) -> None:
    spec = load_spec(EXPERIMENTS / f"{game_id}_skill_ladder.toml")
    assert spec.game == game_id
    rungs, pairs = rungs_and_pairs(spec)
    assert rungs[0] == "random" and len(set(rungs)) == len(rungs)
    kinds = [rung.split("(")[0] for rung in rungs]
    assert {"heuristic", "osla"} <= set(kinds)
    budgets = {re.findall(r"iterations=(\d+)", rung)[0] for rung in rungs if rung.startswith("ismcts(")}
    assert len(budgets) == 2  # ISMCTS at two budgets
    for pair in pairs:
        assert len(pair) == 2 and pair[0] != pair[1] and set(pair) <= set(rungs), pair
    if pairs:  # seats alternate, so each agent sits first in half the games
        assert spec.rotate_seats and spec.games % 2 == 0


@pytest.mark.parametrize("game_id", COMPETITIVE)
def test_the_competitive_ladders_pit_each_rung_against_the_next_one_up_and_random_against_the_heuristic(
        game_id: str) -> None:
    rungs, pairs = rungs_and_pairs(load_spec(EXPERIMENTS / f"{game_id}_skill_ladder.toml"))
    assert set(itertools.pairwise(rungs)) <= pairs
    assert ("random", "heuristic") in pairs


def test_the_cooperative_ladder_has_search_rungs_with_heuristic_rollouts_above_the_heuristic() -> None:
    rungs, pairs = rungs_and_pairs(load_spec(EXPERIMENTS / "party_wanted_skill_ladder.toml"))
    assert not pairs  # the heroes win or lose together: no head-to-head games
    above = rungs[rungs.index("heuristic") + 1:]
    assert above and all(rung.startswith("ismcts(") and "rollout=heuristic" in rung for rung in above)
    assert any(rung.startswith("ismcts(") and "rollout" not in rung for rung in rungs)  # and random rollouts


def test_divvys_ladder_has_the_search_that_plays_simultaneous_moves_as_simultaneous() -> None:
    rungs, pairs = rungs_and_pairs(load_spec(EXPERIMENTS / "divvy_skill_ladder.toml"))
    simultaneous = [rung for rung in rungs if rung.startswith("sm_ismcts(")]
    assert simultaneous and any(simultaneous[0] in pair and any(p.startswith("ismcts(") for p in pair)
                                for pair in pairs)


@pytest.mark.parametrize("game_id", COMPETITIVE)
def test_each_ladder_spec_says_its_size_reasoning_and_expected_run_time(game_id: str) -> None:
    text = (EXPERIMENTS / f"{game_id}_skill_ladder.toml").read_text()
    assert "games_to_separate" in text
    assert re.search(r"Expected run time: about \d+ minutes on 2 workers", text)
