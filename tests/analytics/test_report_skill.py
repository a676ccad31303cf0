"""``cardlab report`` sections ``matrix``, ``skill`` and ``cost`` on a small
real skill ladder, and how they stay quiet on an experiment without rungs."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import polars as pl
import pytest
from polars.testing import assert_frame_equal

from analytics.catalog import open_catalog
from analytics.folders import read_spec
from analytics.metrics import skill_movement
from analytics.report import Report, build_report, render_report, short_agent
from analytics.skill import agent_cost, agent_matrix, is_skill_ladder, variant_rules
from analytics.text_tables import small_number
from experiments.spec import parse_spec
from tests.conftest import SmallExperiment, write_experiment

EXPERIMENTS = Path(__file__).resolve().parents[2] / "experiments"

SKILL = ["matrix", "skill", "cost"]


@pytest.fixture(scope="module")
def ladder_report(small_ladder: SmallExperiment) -> Report:
    return build_report(small_ladder.folder)


@pytest.fixture(scope="module")
def ladder_tables(small_ladder: SmallExperiment) -> dict[str, pl.DataFrame]:
    con = open_catalog(small_ladder.folder)
    try:
        return {"agent_matrix": agent_matrix(con, variant_rules(read_spec(small_ladder.folder))),
                "skill_movement": skill_movement(con), "agent_cost": agent_cost(con, small_ladder.folder)}
    finally:
        con.close()


def _percent(value: float) -> str:
    return f"{100 * value:.1f}%"


def test_the_report_holds_the_skill_tables_as_analytics_computes_them(
        ladder_report: Report, ladder_tables: dict[str, pl.DataFrame]) -> None:
    for name, frame in ladder_tables.items():
        assert_frame_equal(ladder_report.metrics[name], frame)
    data = json.loads(render_report(ladder_report, "json", sections=SKILL))
    assert set(data["tables"]) == {"agent_matrix", "skill_movement", "agent_cost"}
    assert data["tables"]["agent_cost"] == ladder_tables["agent_cost"].to_dicts()
    assert (data["games_played"], data["games_planned"]) == (100, 100)  # sweep grid points are planned too


def test_the_text_matrix_shows_each_pairs_win_rate_and_seat_games_in_ladder_order(
        ladder_report: Report, ladder_tables: dict[str, pl.DataFrame]) -> None:
    lines = render_report(ladder_report, "text", sections=["matrix"]).splitlines()
    start = lines.index("Agent versus agent: 2 players, (game defaults)")
    first = next(index for index in range(start, len(lines)) if lines[index].split()[:1] == ["agent"])
    header, *rows = lines[first: first + 4]
    assert header.split() == ["agent", "1", "2", "3"]
    matrix = {(row["agent"], row["opponent"]): row for row in ladder_tables["agent_matrix"].iter_rows(named=True)}
    heuristic_random = matrix["heuristic", "random"]
    # Rows in ladder order: random (baseline rung), heuristic, ismcts.
    assert [row.split()[1] for row in rows] == ["random", "heuristic", "ismcts(4)"]
    assert rows[1].split()[2:4] == [_percent(heuristic_random["win_rate"]), f"({heuristic_random['seat_games']})"]
    assert rows[0].split()[2] == "-"  # random never meets itself in the matrix


def test_the_text_skill_movement_lists_the_rungs_and_flags_flips(
        ladder_report: Report, ladder_tables: dict[str, pl.DataFrame]) -> None:
    text = render_report(ladder_report, "text", sections=["skill"], card_rows=5)
    assert max(len(line) for line in text.splitlines()) <= 100
    movement = ladder_tables["skill_movement"]
    flipping = movement.filter(pl.col("sign_flips"))["name"].unique().len()
    shown = max(5, flipping)
    assert f"Skill movement: cards, 2 players ({shown} of 48; win rate minus the rung's mean, in points)" in text
    assert "  rungs: 1 random; 2 heuristic; 3 ismcts(4)" in text
    assert text.count("FLIPS") == flipping + 1  # each flipping card, and the note
    # Without a limit every card is listed; each cell is the deviation in points, marked + / - when sure.
    lines = render_report(ladder_report, "text", sections=["skill"]).splitlines()
    assert "Skill movement: cards, 2 players (all 48; win rate minus the rung's mean, in points)" in lines
    for row in movement.filter(pl.col("variant") == "sweep-000").iter_rows(named=True):
        cells = next(line.split() for line in lines if line.split()[:1] == [row["name"]])
        assert cells[2] == f"{100 * row['deviation']:+.1f}" + {1: "+", -1: "-"}.get(row["direction"], "")


def test_the_cost_table_shows_seconds_and_decisions_per_game_of_each_variant(
        ladder_report: Report, ladder_tables: dict[str, pl.DataFrame]) -> None:
    lines = render_report(ladder_report, "text", sections=["cost"]).splitlines()
    for row in ladder_tables["agent_cost"].iter_rows(named=True):
        line = next(line for line in lines if line.split()[:1] == [row["variant"]])
        assert line.split()[-3:] == [small_number(row["seconds_per_game"], 3), f"{row['decisions_per_game']:,.1f}",
                                    small_number(row["ms_per_decision"], 2)]
        assert short_agent(row["lineup"]) in line


def test_agent_names_lose_their_parameter_names_in_narrow_tables() -> None:
    assert short_agent("ismcts(iterations=100,rollout=heuristic) vs osla(rollouts=2)") == \
        "ismcts(100,heuristic) vs osla(2)"
    assert short_agent("random") == "random"


def test_an_experiment_without_rungs_says_so_when_asked_and_is_silent_otherwise(
        small_experiment: SmallExperiment) -> None:
    report = build_report(small_experiment.folder)
    asked = render_report(report, "text", sections=["skill"])
    assert "Skill movement\n  fewer than two rungs (variants in which every seat plays the same agent)." in asked
    everything = render_report(report, "text")
    assert "Skill movement" not in everything
    assert "Agent versus agent: 2 players, rules.rounds = 4" in everything  # heuristic vs random does mix agents
    markdown = render_report(report, "markdown", sections=["skill"])
    assert "## Skill movement\n\nfewer than two rungs" in markdown


def test_rungs_that_all_seat_one_agent_are_no_skill_ladder(tmp_path: Path) -> None:
    # Party Wanted's baseline and a mode variant, the heuristic in every seat of both: two
    # "rungs" of one agent (the QA's "rungs: 1 heuristic; 2 heuristic; 3 heuristic"). What
    # moves across them is the mode's effect (the deltas section), not skill.
    raw = tomllib.loads((EXPERIMENTS / "party_wanted_baseline.toml").read_text())
    raw.update(name="party_modes", games=4, shard_size=4, player_counts=[1],
               variants={"hard_mode": {"rules.hard_mode": True}})
    report = build_report(write_experiment(parse_spec(raw, "party_wanted_baseline.toml (cut down)"), tmp_path))
    movement = report.metrics["skill_movement"]
    assert set(movement["variant"]) == {"baseline", "hard_mode"} and set(movement["rung"]) == {"heuristic"}
    assert not is_skill_ladder(movement) and not report.applies("skill")
    assert "Skill movement" not in render_report(report, "text")
    assert "skill_movement" not in json.loads(render_report(report, "json"))["tables"]
    asked = render_report(report, "text", sections=["skill"])
    assert "Skill movement\n  no skill ladder: every rung (a variant in which every seat plays one agent) seats " \
           "heuristic" in asked


def test_a_ladder_needs_rungs_of_two_agents(ladder_tables: dict[str, pl.DataFrame]) -> None:
    movement = ladder_tables["skill_movement"]
    assert is_skill_ladder(movement)
    assert not is_skill_ladder(movement.with_columns(pl.lit("heuristic").alias("rung")))
    assert not is_skill_ladder(movement.head(0))


@pytest.mark.parametrize(("value", "digits", "text"), [
    (2.444, 3, "2.444"), (0.015, 3, "0.015"), (0.00029, 3, "0.00029"), (0.0, 3, "0.000"), (None, 3, "-"),
    (0.54, 2, "0.54"), (0.0012, 2, "0.0012"), (0.000012, 3, "1.2e-05"),
])
def test_a_fast_games_cost_reads_in_significant_digits_not_as_zero(value: float | None, digits: int,
                                                                     text: str) -> None:
    # A Ring of Chaos heuristic game takes ~0.3 ms: "0.000 s/game" and "0.00 ms/decision" said nothing.
    assert small_number(value, digits) == text
