"""The report's design section and findings: on a real Divvy run with replayed deals (the
heuristic agent against random play), and on hand-made tables at the findings' thresholds."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from analytics.catalog import open_catalog
from analytics.findings import (
    DEAL_DECIDES,
    RUNAWAY_LEADER,
    SKILL_EDGE,
    deal_findings,
    runaway_leader_findings,
    skill_depth_findings,
)
from analytics.ratings import RATING_SCHEMA, rating_spans
from analytics.report import Report, build_report, render_report
from experiments.spec import parse_spec
from tests.conftest import write_experiment

REPLAYED = {"name": "divvy_replayed", "game": "divvy", "games": 120, "shard_size": 60,
            "agents": ["heuristic", "random"], "rotate_seats": True, "deal_replays": 4}


@pytest.fixture(scope="module")
def replayed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_experiment(parse_spec(REPLAYED, "divvy_replayed.toml"), tmp_path_factory.mktemp("replayed"))


@pytest.fixture(scope="module")
def report(replayed: Path) -> Report:
    return build_report(replayed)


def test_a_replayed_run_measures_the_deals_share_over_its_whole_deals(report: Report) -> None:
    row = report.seed_influence.row(0, named=True)
    assert (row["deals"], row["replays"], row["games"]) == (30, 4, 120)
    assert 0.0 <= row["deal_share_low"] <= row["deal_share"] <= row["deal_share_high"] <= 1.0


def test_the_design_tables_agree_with_the_games_rows(report: Report, replayed: Path) -> None:
    con = open_catalog(replayed)
    try:
        margins = con.execute("SELECT avg(margin), count(margin), avg((lead_changes > 0)::INT) FROM games").fetchone()
        heuristic = con.execute("SELECT avg(won::INT) FROM players WHERE agent = 'heuristic'").fetchone()
    finally:
        con.close()
    assert margins is not None and heuristic is not None
    decisive = report.decisiveness.row(0, named=True)
    assert (decisive["mean_margin"], decisive["margin_games"]) == (pytest.approx(margins[0]), margins[1])
    assert report.lead_stats.row(0, named=True)["lead_change_rate"] == pytest.approx(margins[2])
    depth = report.skill_depth.row(0, named=True)
    assert (depth["agent"], depth["strongest"], depth["seat_games"]) == ("heuristic", True, 120)
    assert depth["win_rate"] == pytest.approx(heuristic[0])


def test_the_text_report_shows_the_design_section_with_the_deals_share(report: Report) -> None:
    text = render_report(report, "text", sections=["design"])
    share = report.seed_influence.row(0, named=True)["deal_share"]
    assert "Game design: decisiveness (margin of victory, draws) and the lead" in text
    assert "Game design: the deal's share of the outcome" in text
    assert f"{100 * share:.1f}%" in text
    assert "Game design: skill depth" in text and "strongest" in text
    assert "play the experiment with deal_replays" not in text


def test_a_run_without_replays_says_how_to_measure_the_deals_share(small_experiment: object) -> None:
    report = build_report(small_experiment.folder)  # type: ignore[attr-defined]
    assert report.seed_influence.is_empty()
    text = render_report(report, "text", sections=["design"])
    assert "play the experiment with deal_replays = K" in text.replace("\n  ", " ")


def _seeds(low: float, ms_within: float = 0.12) -> pl.DataFrame:
    return pl.DataFrame([{"variant": "baseline", "n_players": 2, "deals": 400, "replays": 4, "ms_within": ms_within,
                          "deal_share": low + 0.05, "deal_share_low": low, "deal_share_high": low + 0.1,
                          "same_winner_rate": 0.7}])


def test_a_deal_that_surely_decides_most_of_the_outcome_is_a_finding() -> None:
    assert deal_findings(_seeds(DEAL_DECIDES - 0.01), {}) == []
    [found] = deal_findings(_seeds(DEAL_DECIDES + 0.01), {})
    assert found.text == ("baseline, 2 players: the deal decides 56.0% of who wins [51.0%, 61.0%], whatever the "
                          "agents do; 70.0% of the deals had the same winner in all 4 replays (400 deals)")


def test_a_deal_share_of_replays_that_never_differ_says_the_agents_may_make_no_random_choice() -> None:
    [found] = deal_findings(_seeds(0.9, ms_within=0.0), {})
    assert "no replay of any deal ended otherwise: agents that make no random choice (such as a heuristic agent) " \
           "replay the same game, which makes this 100% by construction" in found.text


def test_a_heuristic_only_lineup_replays_every_deal_alike(tmp_path: Path) -> None:
    # Divvy's heuristic agent makes no random choice: each replay of a deal is the same game.
    raw = {**REPLAYED, "name": "heuristic_only", "agents": ["heuristic"], "games": 24, "shard_size": 24}
    report = build_report(write_experiment(parse_spec(raw, "heuristic_only.toml"), tmp_path))
    row = report.seed_influence.row(0, named=True)
    assert (row["deal_share"], row["ms_within"], row["same_winner_rate"]) == (1.0, 0.0, 1.0)
    assert [finding.kind for finding in report.findings if finding.kind == "deal"] == ["deal"]


def test_a_leader_at_two_thirds_who_surely_almost_always_wins_is_a_finding() -> None:
    def leads(low: float) -> pl.DataFrame:
        return pl.DataFrame([{"variant": "v", "n_players": 3, "second_third_led": 250,
                              "second_third_leader_win_rate": low + 0.02, "second_third_leader_win_rate_low": low,
                              "second_third_leader_win_rate_high": min(1.0, low + 0.04)}])

    assert runaway_leader_findings(leads(RUNAWAY_LEADER), {}) == []
    [found] = runaway_leader_findings(leads(RUNAWAY_LEADER + 0.01), {"v": "v (cap=3)"})
    assert found.text.startswith("v (cap=3), 3 players: the leader at two thirds of the game wins 93.0% "
                                 "[91.0%, 95.0%]: the last third rarely changes the winner")


def test_skill_that_surely_barely_beats_random_play_is_a_finding_for_the_strongest_agent_only() -> None:
    def depth(high: float, strongest: bool = True) -> pl.DataFrame:
        return pl.DataFrame([{"variant": "baseline", "n_players": 4, "agent": "osla", "seat_games": 800,
                              "win_rate": high - 0.03, "win_rate_low": high - 0.06, "win_rate_high": high,
                              "even_rate": 0.25, "strongest": strongest}])

    assert skill_depth_findings(depth(0.25 + SKILL_EDGE), {}) == []
    assert skill_depth_findings(depth(0.29, strongest=False), {}) == []
    [found] = skill_depth_findings(depth(0.29), {})
    assert (found.agent, found.value) == ("osla", pytest.approx(0.26))
    assert "skill barely pays" in found.text


def test_the_rating_span_runs_from_the_lowest_to_the_highest_rated_agent_with_the_anchors_interval() -> None:
    rows = [("r", 2, "random", "random", 0.0, 0.0, 0.0, 3), ("r", 2, "heuristic", "random", 300.0, 250.0, 350.0, 2),
            ("r", 2, "osla", "random", 420.0, 360.0, 480.0, 1),
            # anchored at the top: the span's interval is the bottom agent's, negated
            ("q", 2, "ismcts", "ismcts", 0.0, 0.0, 0.0, 1), ("q", 2, "random", "ismcts", -500.0, -560.0, -450.0, 2),
            # anchored in the middle: no interval
            ("m", 2, "b", "b", 0.0, 0.0, 0.0, 2), ("m", 2, "a", "b", -100.0, -150.0, -50.0, 3),
            ("m", 2, "c", "b", 100.0, 50.0, 150.0, 1),
            ("lone", 2, "random", "random", 0.0, 0.0, 0.0, 1)]
    ratings = pl.DataFrame([{"rules": rules, "n_players": n, "agent": agent, "anchor": anchor, "games": 10,
                             "comparisons": 10, "rating": rating, "rating_low": low, "rating_high": high,
                             "rank": rank} for rules, n, agent, anchor, rating, low, high, rank in rows],
                           schema=RATING_SCHEMA)
    spans = {row["rules"]: row for row in rating_spans(ratings).to_dicts()}
    assert spans.keys() == {"r", "q", "m"}
    assert (spans["r"]["bottom"], spans["r"]["top"], spans["r"]["span"], spans["r"]["agents"]) == \
        ("random", "osla", 420.0, 3)
    assert (spans["r"]["span_low"], spans["r"]["span_high"]) == (360.0, 480.0)
    assert (spans["q"]["span"], spans["q"]["span_low"], spans["q"]["span_high"]) == (500.0, 450.0, 560.0)
    assert (spans["m"]["span"], spans["m"]["span_low"]) == (200.0, None)
