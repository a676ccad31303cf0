"""Agent ratings (``analytics.ratings``): Bradley–Terry on the Elo scale with
bootstrap intervals, from games that seat different agents.

Synthetic head-to-head data with known strengths: the fit recovers them and
their order, and the 95% intervals cover the true values about 95% of the
time. A small real skill ladder: the ratings follow the closed form of a
chain of pairs, and ``cardlab report --sections ratings`` shows them in every
format.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy
import pytest

from analytics.catalog import open_catalog
from analytics.ratings import (
    ELO_PER_UNIT,
    VIRTUAL_DRAWS,
    Outcome,
    _gap_rows,
    agent_ratings,
    comparisons_of,
    fit_linked_groups,
    fit_ratings,
    fit_strengths,
    games_to_separate,
)
from analytics.report import build_report, render_report, write_report_csv
from analytics.skill import agent_cost, ladder_order, variant_rules
from experiments.spec import parse_spec
from tests.conftest import SmallExperiment, write_experiment

TRUE_ELO = {"random": 0.0, "osla": 150.0, "ismcts": 250.0, "heuristic": 500.0}
LADDER = list(TRUE_ELO)


def synthetic_outcomes(generator: numpy.random.Generator, games: int,
                       pairs: list[tuple[str, str]]) -> list[Outcome]:
    """Two-player games between ``pairs`` of agents with ``TRUE_ELO`` strengths,
    seats alternating, ``games`` per pair (one variant per pair)."""
    outcomes = []
    for first, second in pairs:
        p_first = 1 / (1 + 10 ** ((TRUE_ELO[second] - TRUE_ELO[first]) / 400))
        wins = int(generator.binomial(games, p_first))
        variant = f"{first}-{second}"
        outcomes += [Outcome(variant, (first, second), (1, 2), wins // 2),
                     Outcome(variant, (second, first), (2, 1), wins - wins // 2),
                     Outcome(variant, (first, second), (2, 1), (games - wins) // 2),
                     Outcome(variant, (second, first), (1, 2), games - wins - (games - wins) // 2)]
    return [outcome for outcome in outcomes if outcome.games]


CHAIN = [("random", "osla"), ("osla", "ismcts"), ("ismcts", "heuristic"), ("random", "heuristic")]


def test_the_strength_fit_of_two_agents_is_the_log_odds_of_the_score() -> None:
    wins = numpy.array([[0.0, 30.0], [10.0, 0.0]])
    games = numpy.array([[0.0, 40.0], [40.0, 0.0]])
    strengths = fit_strengths(wins, games)
    assert strengths[0] == 0.0
    assert strengths[1] == pytest.approx(math.log(10 / 30), abs=1e-9)


def test_a_multi_player_game_gives_one_comparison_per_pair_of_seats_with_different_agents() -> None:
    comparisons = comparisons_of(("a", "b", "a", "c"), (2, 1, 3, 2))
    assert comparisons == [("a", "b", 0.0), ("a", "c", 0.5), ("b", "a", 1.0), ("b", "c", 1.0), ("a", "c", 0.0)]


def test_the_fit_recovers_known_strengths_and_their_order_from_many_games() -> None:
    outcomes = synthetic_outcomes(numpy.random.default_rng(1), 2000, CHAIN)
    fit, unrated = fit_ratings(outcomes, LADDER, replicates=200)
    assert fit is not None and unrated == []
    assert fit.agents[0] == "random"
    ratings = dict(zip(fit.agents, fit.ratings, strict=True))
    for agent, true in TRUE_ELO.items():
        assert ratings[agent] == pytest.approx(true, abs=30), agent
    assert sorted(ratings, key=ratings.__getitem__) == LADDER


def test_the_95_percent_intervals_cover_the_true_ratings_about_95_percent_of_the_time() -> None:
    generator = numpy.random.default_rng(7)
    covered = trials = 0
    for _ in range(120):
        fit, _ = fit_ratings(synthetic_outcomes(generator, 200, CHAIN), LADDER, replicates=200,
                             seed=int(generator.integers(1 << 30)))
        assert fit is not None
        for position, agent in enumerate(fit.agents[1:], start=1):
            low, high = fit.interval(position)
            covered += low <= TRUE_ELO[agent] <= high
            trials += 1
    # 360 intervals: a true 95% gives 342 +- 8 (one standard deviation).
    assert 0.90 <= covered / trials <= 0.99, covered / trials


def test_a_pair_where_one_agent_won_every_game_gets_a_finite_gap_and_an_interval_with_width() -> None:
    outcomes = [Outcome("v", ("random", "heuristic"), (2, 1), 20)]
    fit, _ = fit_ratings(outcomes, LADDER, replicates=50)
    assert fit is not None
    expected = ELO_PER_UNIT * math.log((20 + VIRTUAL_DRAWS / 2) / (VIRTUAL_DRAWS / 2))
    assert fit.ratings[1] == pytest.approx(expected)
    # Every bootstrap replicate is the same 20-0; the model's standard error
    # of a logit from 21 games at p = 41/42 is 1 / sqrt(21 p (1 - p)).
    p = (20 + VIRTUAL_DRAWS / 2) / (20 + VIRTUAL_DRAWS)
    spread = 1.959964 * ELO_PER_UNIT / math.sqrt((20 + VIRTUAL_DRAWS) * p * (1 - p))
    low, high = fit.interval(1)
    assert (low, high) == (pytest.approx(expected - spread, rel=1e-4), pytest.approx(expected + spread, rel=1e-4))


def test_agents_that_never_met_the_anchors_group_are_rated_in_a_group_of_their_own() -> None:
    outcomes = synthetic_outcomes(numpy.random.default_rng(2), 100, [("random", "osla"), ("ismcts", "heuristic")])
    fits = fit_linked_groups(outcomes, LADDER, replicates=20)
    assert [fit.agents for fit in fits] == [("random", "osla"), ("ismcts", "heuristic")]


def test_intervals_separate_for_a_large_gap_and_not_for_a_tiny_one() -> None:
    generator = numpy.random.default_rng(3)
    outcomes = synthetic_outcomes(generator, 400, [("random", "heuristic")])
    close = [Outcome("close", ("osla", "ismcts"), (1, 2), 101), Outcome("close", ("osla", "ismcts"), (2, 1), 99),
             Outcome("close", ("random", "osla"), (1, 2), 50), Outcome("close", ("random", "osla"), (2, 1), 50)]
    wide = fit_ratings(outcomes, LADDER, replicates=200)[0]
    narrow = fit_ratings(close, LADDER, replicates=200)[0]
    assert wide is not None and narrow is not None
    assert [(row["intervals_separate"], row["difference_excludes_zero"]) for row in _gap_rows("r", 2, wide)] \
        == [(True, True)]
    close_pairs = _gap_rows("r", 2, narrow)
    assert not all(row["intervals_separate"] for row in close_pairs)
    assert not all(row["difference_excludes_zero"] for row in close_pairs)


def test_the_bootstrap_is_reproducible() -> None:
    outcomes = synthetic_outcomes(numpy.random.default_rng(4), 100, CHAIN)
    first, second = (fit_ratings(outcomes, LADDER, replicates=50)[0] for _ in range(2))
    assert first is not None and second is not None
    assert numpy.array_equal(first.replicates, second.replicates)


def test_a_real_ladders_ratings_follow_the_closed_form_of_its_chain_of_pairs(small_ladder: SmallExperiment) -> None:
    """The cut-down ladder's head-to-head pairs form a chain (random-heuristic,
    heuristic-ismcts(4)): then each gap is the log-odds of that pair's score,
    virtual draw included."""
    con = open_catalog(small_ladder.folder)
    try:
        spec = json.loads((small_ladder.folder / "spec.json").read_text())
        order = ladder_order(agent_cost(con, small_ladder.folder))
        ratings, gaps = agent_ratings(con, variant_rules(spec), order, replicates=200)
        scores = dict(con.sql("""
            SELECT me.agent,
                   sum(CASE WHEN me.rank < them.rank THEN 1.0 WHEN me.rank = them.rank THEN 0.5 ELSE 0 END)::DOUBLE
            FROM players AS me JOIN players AS them
              ON me.variant = them.variant AND me.game_index = them.game_index AND me.seat <> them.seat
            WHERE me.agent <> them.agent AND 'heuristic' IN (me.agent, them.agent)
            GROUP BY me.agent
        """).fetchall())
    finally:
        con.close()
    by_agent = {row["agent"]: row for row in ratings.to_dicts()}
    assert set(by_agent) == {"random", "heuristic", "ismcts(iterations=4)"}
    assert {row["anchor"] for row in by_agent.values()} == {"random"}
    assert (by_agent["heuristic"]["games"], by_agent["random"]["games"]) == (40, 20)
    half = VIRTUAL_DRAWS / 2
    heuristic_score_vs_random = 20 - scores["random"]
    expected_heuristic = ELO_PER_UNIT * math.log((heuristic_score_vs_random + half) / (scores["random"] + half))
    assert by_agent["heuristic"]["rating"] == pytest.approx(expected_heuristic, abs=1e-6)
    ismcts_score = scores["ismcts(iterations=4)"]
    expected_ismcts = expected_heuristic + ELO_PER_UNIT * math.log((ismcts_score + half) / (20 - ismcts_score + half))
    assert by_agent["ismcts(iterations=4)"]["rating"] == pytest.approx(expected_ismcts, abs=1e-6)
    assert by_agent["heuristic"]["rank"] == 1
    low, high = by_agent["heuristic"]["rating_low"], by_agent["heuristic"]["rating_high"]
    assert low < by_agent["heuristic"]["rating"] < high
    assert gaps.height == 2 and gaps["upper"].to_list()[-1] == "heuristic"


def test_the_report_shows_the_ratings_section_in_every_format(small_ladder: SmallExperiment, tmp_path: Path) -> None:
    report = build_report(small_ladder.folder)
    text = render_report(report, "text", sections=["ratings"])
    assert "Ratings (Bradley-Terry, Elo scale): 2 players, (game defaults), random = 0" in text
    assert "Adjacent agents by rating" in text and "disjoint" in text and "excludes 0" in text
    tables = text[text.index("Ratings (Bradley-Terry"):]
    assert max(len(line) for line in tables.splitlines()) <= 100 and "..." not in tables  # nothing clipped
    assert "bootstrap by game, stratified" in text
    markdown = render_report(report, "markdown", sections=["ratings"])
    assert "## Ratings (Bradley-Terry, Elo scale)" in markdown and "| rank | agent | rating |" in markdown
    data = json.loads(render_report(report, "json", sections=["ratings"]))
    assert set(data["tables"]) == {"agent_ratings", "rating_gaps"}
    assert {row["agent"] for row in data["tables"]["agent_ratings"]} == {"random", "heuristic",
                                                                          "ismcts(iterations=4)"}
    written = write_report_csv(report, tmp_path / "csv", sections=["ratings"])
    assert [path.name for path in written] == ["summary.csv", "agent_ratings.csv", "rating_gaps.csv"]
    assert (tmp_path / "csv" / "agent_ratings.csv").read_text().splitlines()[0] == (
        "rules,n_players,agent,anchor,games,comparisons,rating,rating_low,rating_high,rank")


@pytest.mark.parametrize(("game", "agents"), [("divvy", ["random"]), ("party_wanted", ["heuristic", "random"])],
                         ids=["mirror games only", "cooperative game"])
def test_without_results_between_different_agents_the_ratings_section_says_so(
        tmp_path: Path, game: str, agents: list[str]) -> None:
    spec = parse_spec({"name": "no_ratings", "game": game, "games": 6, "shard_size": 6, "agents": agents,
                       "player_counts": [2], "rotate_seats": True}, "test-spec")
    report = build_report(write_experiment(spec, tmp_path))
    assert report.metrics["agent_ratings"].height == 0
    assert "Ratings\n  no game seats two different agents with different results" in render_report(
        report, "text", sections=["ratings"])


def test_games_to_separate_follows_the_logit_formula_and_gives_the_power_it_promises() -> None:
    # n = ((1.96 + 0.8416) / logit(0.6))^2 / (0.6 * 0.4) = 198.4..., rounded up.
    assert games_to_separate(0.6) == 199
    assert games_to_separate(0.4) == 199
    with pytest.raises(ValueError, match="win_rate"):
        games_to_separate(0.5)
    games = games_to_separate(0.6)
    generator = numpy.random.default_rng(11)
    separated = 0
    trials = 200
    for _ in range(trials):
        wins = int(generator.binomial(games, 0.6))
        outcomes = [Outcome("v", ("random", "heuristic"), (2, 1), wins),
                    Outcome("v", ("random", "heuristic"), (1, 2), games - wins)]
        fit, _ = fit_ratings(outcomes, LADDER, replicates=100, seed=int(generator.integers(1 << 30)))
        assert fit is not None
        low, _ = fit.interval(1, 0)
        separated += low > 0
    assert 0.72 <= separated / trials <= 0.88, separated / trials
