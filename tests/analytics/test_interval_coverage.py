"""Interval coverage by simulation, cut down: the scenarios of ``make validate``
(``tests.analytics.validate``: synthetic experiments whose true rates are known)
with fewer replicate experiments. Every metric's 95% interval must cover the
truth about 95% of the time with both tails missing about 2.5%, and no interval
may have no width. The bounds are wider than ``make validate``'s: with fewer
experiments the measured shares scatter more (a tail of 2.5% over 200 intervals
has a standard error of 1.1 points). The
metrics ``make validate`` knows to be conservative in a scenario may cover more.

Each scenario is built once (``functools.cache``) and its checks are parameters
of one test, so a failure names the scenario and the metric."""

from __future__ import annotations

import functools

import pytest

from tests.analytics.synthetic import Synthetic
from tests.analytics.validate import (
    Check,
    DeltaCheck,
    Scenario,
    delta_coverage,
    prior_collapse,
    rate_coverage,
    scenarios,
)

SCALE = 0.1
"""The share of ``make validate``'s experiments the test suite runs (at least 40 a scenario)."""

COVER = (0.925, 0.975)
TAIL_HIGHEST = 0.07
"""Bounds of the cut-down's coverage, and the most each tail may miss: a tail missing 5.5-8% of
the time where 2.5% is promised (a Wald-like interval of a rare rate) fails here; the finer
bounds (1-4% each) are ``make validate``'s, whose table the validation page shows."""

SCENARIOS = {scenario.name: scenario for scenario in scenarios(SCALE)}


@functools.cache
def _built(name: str) -> Synthetic:
    scenario: Scenario = SCENARIOS[name]
    return scenario.build(scenario.replicates, scenario.games)


CASES = [(name, check) for name, scenario in SCENARIOS.items() for check in scenario.checks]


@pytest.mark.parametrize(("scenario", "check"), CASES, ids=[f"{name}: {check.label}" for name, check in CASES])
def test_every_metrics_interval_covers_its_truth_with_both_tails_near_two_and_a_half_percent(
        scenario: str, check: Check) -> None:
    data = _built(scenario)
    coverage = (rate_coverage(data, scenario, check) if not isinstance(check, DeltaCheck)
                else delta_coverage(data, scenario, check))
    assert coverage.zero_width == 0, coverage
    assert coverage.cover >= COVER[0] and max(coverage.low_miss, coverage.high_miss) <= TAIL_HIGHEST, coverage
    if check.label not in SCENARIOS[scenario].conservative:  # those may cover more (validate.CONSERVATIVE_*)
        assert coverage.cover <= COVER[1], coverage


@pytest.mark.parametrize("scenario", [name for name, scenario in SCENARIOS.items() if scenario.prior])
def test_the_card_prior_rarely_collapses_where_the_cards_truly_differ(scenario: str) -> None:
    collapse = prior_collapse(_built(scenario), scenario)
    assert collapse.within, collapse


def test_paired_seeds_use_the_paired_tests_and_unpaired_ones_the_z_test() -> None:
    for name, tests in (("competitive", {"z"}), ("competitive, paired seeds", {"mcnemar", "paired_z"}),
                        ("cooperative", {"z"}), ("cooperative, paired seeds", {"mcnemar", "paired_z"})):
        found = set(_built(name).con.sql(
            "SELECT DISTINCT test FROM deltas WHERE family IN ('agent', 'faction', 'card')").pl()["test"])
        assert found == tests, name


def test_seat_tests_are_left_out_of_a_cooperative_experiment() -> None:
    con = _built("cooperative").con
    assert con.execute("SELECT count(*) FROM variant_deltas WHERE family = 'seat'").fetchall() == [(0,)]
    assert con.execute("SELECT count(*) FROM seat_balance WHERE chi2 IS NOT NULL").fetchall() == [(0,)]
    # Nor seat rates: every seat shares the party's outcome (seat_stats keeps only the counts).
    assert con.execute("SELECT count(*), count(win_rate), count(win_share) FROM seat_stats").fetchall()[0][1:] == (0, 0)
    assert con.execute("SELECT bool_and(cooperative) FROM experiment_modes").fetchall() == [(True,)]
