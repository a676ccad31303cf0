"""The impact views keep their column contract; the report's impact section and ``cardlab plan
--impact-width`` read them (the token duel impact run of ``conftest``)."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from analytics.catalog import open_catalog
from analytics.impact import IMPACT_VIEWS, games_for_impact_width, why_they_disagree
from analytics.report import build_report, render_report
from analytics.stats import Z95
from cardlab.cli import main


@pytest.mark.parametrize("view", list(IMPACT_VIEWS))
def test_every_impact_view_has_exactly_the_columns_and_types_of_its_contract(runs: dict[str, Any], view: str) -> None:
    con = open_catalog(runs["full"][0], cached=True)
    try:
        described = [(name, kind) for name, kind, *_ in con.execute(f"DESCRIBE {view}").fetchall()]
    finally:
        con.close()
    assert described == [(name, kind) for name, (kind, _) in IMPACT_VIEWS[view].items()]
    assert all(description for _, description in IMPACT_VIEWS[view].values())


def test_the_seat_view_splits_each_cards_holder_seat_games_by_seat(runs: dict[str, Any]) -> None:
    con = open_catalog(runs["full"][0], cached=True)
    try:
        totals = con.execute("SELECT variant, sum(holder_seat_games) FROM card_impact_seats GROUP BY variant "
                             "EXCEPT SELECT variant, holder_seat_games FROM card_impact").fetchall()
    finally:
        con.close()
    assert totals == []


def test_the_report_ranks_the_cards_by_impact_in_its_impact_section(runs: dict[str, Any]) -> None:
    report = build_report(runs["full"][0])
    text = render_report(report, "text", sections=["impact"])
    stand_in = text.split("Card impact (stand_in)")[1].split("Card impact (one_fewer)")[0]
    rows = [line.split()[0] for line in stand_in.splitlines() if line.startswith("  ") and "[" in line]
    assert rows[0] == "strong" and rows[-1] == "weak" and len(rows) == 8
    assert "Card impact (one_fewer)" in text


def test_the_report_leaves_the_impact_section_out_of_an_experiment_without_arms(tmp_path: Path) -> None:
    # A report's sections apply only when their tables have rows: none without [impact].
    from analytics.report import Report

    report = Report(experiment="x", game="divvy", description="", folder=tmp_path, spec={}, games_played=0,
                    games_planned=0, shards_finished=0, variants=build_report.__globals__["pl"].DataFrame(),
                    metrics={"card_impact": build_report.__globals__["pl"].DataFrame()})
    assert not report.applies("impact")


def test_plan_sizes_an_impact_run_from_the_paired_variance() -> None:
    # 4 z^2 * changed / width^2 holder seat-games, divided by the seat-games held per game.
    paired, unpaired = games_for_impact_width(0.04, 0.25, 0.8)
    assert paired == math.ceil(4 * Z95 ** 2 * 0.25 / 0.04 ** 2 / 0.8)
    assert unpaired == math.ceil(4 * Z95 ** 2 * 0.5 / 0.04 ** 2 / 0.8)


def test_plan_impact_width_prints_paired_and_unpaired_games(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["plan", "--impact-width", "0.04", "--changed", "0.1", "--format", "json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["games_per_card"] == games_for_impact_width(0.04, 0.1)[0]
    assert result["games_per_card_unpaired"] == games_for_impact_width(0.04, 0.1)[1]


def test_plan_from_a_pilot_run_scales_each_arms_games_by_the_square_of_the_widths(
        runs: dict[str, Any], capsys: pytest.CaptureFixture[str]) -> None:
    folder = runs["full"][0]
    assert main(["plan", "--impact-width", "0.01", "--pilot", folder.name, "--results", str(folder.parent),
                 "--format", "json"]) == 0
    arms = {row["arm"]: row for row in json.loads(capsys.readouterr().out)["arms"]}
    con = open_catalog(folder, cached=True)
    try:
        strong = con.execute("SELECT games, impact_high - impact_low FROM card_impact WHERE variant = "
                             "'impact.strong.stand_in'").fetchone()
    finally:
        con.close()
    assert strong is not None
    # The strong card is the hardest of the stand-in arm (the blank ones have zero-width intervals).
    assert arms["stand_in"]["hardest_card"] == "strong"
    assert arms["stand_in"]["most_games_per_arm"] == pytest.approx(
        math.ceil(strong[0] * (strong[1] / 0.01) ** 2) / (strong[0] / 8000), rel=0.01)


@pytest.mark.parametrize(("arguments", "message"), [
    (["--impact-width", "2"], "--impact-width: expected a number above 0 and below 2"),
    (["--impact-width", "0.05", "--changed", "0"], "--changed: expected a share above 0 and at most 1"),
])
def test_plan_refuses_an_impossible_impact_question_in_one_line(
        arguments: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["plan", *arguments]) == 2
    err = capsys.readouterr().err
    assert err.startswith("cardlab: error: ") and message in err and err.count("\n") == 1


def test_the_reasons_name_who_holds_the_card_and_the_opponents_share() -> None:
    why = why_they_disagree({"length_bias": 0.0, "mean_turns_all": 20.0, "strength_bias": 0.0,
                             "selection_bias": 0.055, "opponent_held_share": 0.6, "gih_half_width": 0.006})
    assert why == ("its holders win 5.5 points more than average even with the stand-in: who comes to hold it, "
                   "not what it does; another seat held it in 60.0% of its not-seen games; GIH +-0.6 points of noise")
