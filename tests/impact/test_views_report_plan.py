"""The impact views keep their column contract with rows in them; the report's impact section,
its findings and ``cardlab plan --impact-width`` read them (the token duel impact run of ``conftest``)."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any

import polars as pl
import pytest

from analytics.catalog import open_catalog
from analytics.disagreement import why_they_disagree
from analytics.findings import KINDS, disagreement_findings
from analytics.impact import games_for_impact_width
from analytics.report import build_report, render_report
from analytics.stats import Z95
from analytics.text_tables import points
from analytics.views.impact import IMPACT_VIEW_CONTRACTS
from cardlab.cli import main


@pytest.mark.parametrize("contract", IMPACT_VIEW_CONTRACTS, ids=lambda contract: contract.name)
def test_every_impact_view_has_exactly_the_columns_and_types_of_its_contract_and_rows(
        runs: dict[str, Any], contract: Any) -> None:
    con = open_catalog(runs["full"][0], cached=True)
    try:
        described = [(name, kind) for name, kind, *_ in con.execute(f"DESCRIBE {contract.name}").fetchall()]
        rows = con.execute(f"SELECT count(*) FROM {contract.name}").fetchone()
    finally:
        con.close()
    assert described == [(column.name, column.type) for column in contract.columns]
    # The token duel has no factions: its per-faction split is empty, every other view has rows.
    assert rows is not None and (rows[0] == 0) == (contract.name == "card_impact_factions")


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
    stand_in = text.split("Card impact: 2 players")[1].split("One copy fewer")[0]
    rows = [line.split()[0] for line in stand_in.splitlines() if line.startswith("  ") and "[" in line]
    assert rows[0] == "strong" and rows[-1] == "weak" and len(rows) == 9
    removal = text.split("One copy fewer: 2 players")[1]
    # The surest change of one copy fewer: the banner's, a seat's win rate (gone, seat 0 loses its edge
    # and seat 1 gains as much in this two-seat game).
    first = next(line for line in removal.splitlines() if line.startswith("  banner") or line.startswith("  strong"))
    assert first.split()[:2] == ["banner", "*"]
    assert re.search(r"seat 0 win rate +-\d|seat 1 win rate +\+\d", first), first


def test_the_findings_name_the_significant_impacts_and_removals_and_leave_the_arms_out_of_the_rest(
        runs: dict[str, Any]) -> None:
    report = build_report(runs["full"][0])
    kinds = {finding.kind for finding in report.findings}
    impact = [finding for finding in report.findings if finding.kind == "impact"]
    assert [finding.subject for finding in impact][:1] == ["strong"]
    assert re.match(r"2 players, random: strong adds its holder \d+\.\d points of win rate", impact[0].text)
    assert "weak" in {finding.subject for finding in impact} and "blank" not in {f.subject for f in impact}
    removal = [finding for finding in report.findings if finding.kind == "removal"]
    # Gone, the banner's edge leaves seat 0 and seat 1 gains as much: the two surest changes.
    assert {finding.subject for finding in removal[:2]} == {"banner: seat 0 win rate", "banner: seat 1 win rate"}
    assert all(re.match(r"2 players, one copy fewer of banner: seat (0 win rate .*\(-|1 win rate .*\(\+)", finding.text)
               for finding in removal[:2])
    # The arms are measurements: no variant finding (delta, card) for them.
    assert "delta" not in kinds and not any(finding.variant.startswith("impact.") and finding.kind not in
                                            ("impact", "disagree", "removal") for finding in report.findings)


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


def test_plan_from_a_pilot_run_scales_each_cards_games_by_the_square_of_the_widths(
        runs: dict[str, Any], capsys: pytest.CaptureFixture[str]) -> None:
    folder = runs["full"][0]
    assert main(["plan", "--impact-width", "0.01", "--pilot", folder.name, "--results", str(folder.parent),
                 "--format", "json"]) == 0
    (plan,) = json.loads(capsys.readouterr().out)["player_counts"]
    con = open_catalog(folder, cached=True)
    try:
        hardest = con.execute("SELECT card, games, impact_high - impact_low FROM card_impact "
                              "ORDER BY games * (impact_high - impact_low) ** 2 DESC LIMIT 1").fetchone()
    finally:
        con.close()
    assert hardest is not None and plan["hardest_card"] == hardest[0]
    # Only strong, weak and the banner change a game; the other cards' intervals have no width and are
    # left out of the median and the hardest.
    assert plan["cards"] == 3
    assert plan["most_games_per_card"] == pytest.approx(
        math.ceil(hardest[1] * (hardest[2] / 0.01) ** 2) / (hardest[1] / 8000), rel=0.01)


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


def test_a_disagreement_finding_names_both_ranks_the_impact_and_why_the_iwd_is_biased() -> None:
    versus = pl.DataFrame([{
        "variant": "impact.minotaur.stand_in", "n_players": 3, "agent": "heuristic", "card": "minotaur",
        "iwd": 0.129, "impact": 0.009, "impact_low": -0.005, "impact_high": 0.023, "iwd_rank": 1, "impact_rank": 8,
        "rank_gap": -7, "disagree": True, "length_bias": 0.0, "mean_turns_all": 20.0, "strength_bias": 0.0,
        "selection_bias": 0.052, "opponent_held_share": 0.1, "gih_half_width": 0.01}])
    impact = pl.DataFrame([{"n_players": 3, "agent": "heuristic", "card": "minotaur", "games": 4321}])
    (finding,) = disagreement_findings(versus, impact)
    assert (finding.kind, finding.subject, finding.n, KINDS[finding.kind]) == ("disagree", "minotaur", 4321, "impact")
    assert finding.text == (
        "3 players, heuristic: minotaur ranks 1st by IWD (+12.9 points, correlational) but 8th by causal impact "
        "(+0.9 [-0.5, +2.3]); why: its holders win 5.2 points more than average even with the stand-in: who comes "
        "to hold it, not what it does; GIH +-1.0 points of noise")
    assert disagreement_findings(versus.with_columns(pl.lit(False).alias("disagree")), impact) == []


def test_the_report_finds_every_disagreeing_card_of_the_run_in_its_findings(runs: dict[str, Any]) -> None:
    report = build_report(runs["full"][0])
    versus = report.metrics["card_impact_vs_gih"]
    found = {finding.subject: finding for finding in report.findings if finding.kind == "disagree"}
    assert set(found) == set(versus.filter(pl.col("disagree"))["card"].to_list())
    for row in versus.filter(pl.col("disagree")).to_dicts():
        assert f"by IWD ({points(row['iwd'])} points" in found[row["card"]].text
