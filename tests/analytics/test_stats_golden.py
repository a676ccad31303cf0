"""Golden tests: every statistic agrees with scipy or statsmodels to 1e-9 on many
inputs, and each SQL macro with its Python twin."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

import duckdb
import numpy as np
import pytest
from scipy import stats as scipy_stats
from statsmodels.stats.contingency_tables import mcnemar as sm_mcnemar
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import proportion_confint, proportions_ztest

from analytics.stats import (
    benjamini_hochberg,
    beta_binomial_prior,
    chi2_sf,
    chi_square_uniform,
    cluster_spread,
    discordant_correlation,
    games_for_difference,
    games_for_interval,
    mcnemar,
    mean_variance,
    newcombe_difference,
    normal_sf,
    paired_correlation,
    power_of_difference,
    register_sql_macros,
    skewed_mean_interval,
    two_proportion_ztest,
    welch_ztest,
    wilson_interval,
)

RANDOM = random.Random(20261129)
PROPORTIONS = [(RANDOM.randint(0, n), n) for n in [RANDOM.choice([1, 2, 5, 10, 37, 100, 999, 10_000, 2_500_000])
                                                   for _ in range(300)]]
PAIRS = [(RANDOM.randint(1, n - 1), n, RANDOM.randint(1, m - 1), m)
         for n, m in ((RANDOM.choice([5, 40, 300, 10_000, 10**6]), RANDOM.choice([7, 50, 250, 20_000, 10**6]))
                      for _ in range(300))]
DISCORDANT = [(RANDOM.randint(0, 400), RANDOM.randint(0, 400)) for _ in range(300)] + [(0, 1), (1, 0), (5, 5)]
SEAT_WINS = [[RANDOM.randint(0, 5000) for _ in range(RANDOM.randint(2, 8))] for _ in range(300)]


@pytest.fixture
def con() -> duckdb.DuckDBPyConnection:
    connection = duckdb.connect()
    register_sql_macros(connection)
    return connection


def test_wilson_interval_agrees_with_statsmodels_on_many_inputs() -> None:
    for wins, n in PROPORTIONS:
        expected = proportion_confint(wins, n, alpha=0.05, method="wilson")
        assert wilson_interval(wins, n) == pytest.approx(expected, abs=1e-9, rel=0), (wins, n)


def test_the_normal_tail_and_chi_square_tail_agree_with_scipy() -> None:
    for z in np.linspace(-9, 9, 361):
        assert normal_sf(float(z)) == pytest.approx(scipy_stats.norm.sf(z), abs=1e-12, rel=0)
    for df in range(1, 65):
        for x in [0.0, 0.01, 0.5, 1.0, 2.5, df - 0.3, float(df), df + 3.7, 2.0 * df, 50.0, 200.0, 1e4]:
            assert chi2_sf(x, df) == pytest.approx(scipy_stats.chi2.sf(x, df), abs=1e-9, rel=0), (x, df)


def test_the_chi_square_of_seat_wins_agrees_with_scipy_chisquare() -> None:
    for counts in SEAT_WINS:
        statistic, df, p = chi_square_uniform(counts)
        expected = scipy_stats.chisquare(counts)
        assert df == len(counts) - 1
        assert statistic == pytest.approx(expected.statistic, abs=1e-9, rel=1e-12)
        assert p == pytest.approx(expected.pvalue, abs=1e-9, rel=0)


def test_the_two_proportion_z_test_agrees_with_statsmodels() -> None:
    for wins_a, n_a, wins_b, n_b in PAIRS:
        z, p = two_proportion_ztest(wins_a, n_a, wins_b, n_b)
        # statsmodels' z is first minus second; ours is variant (b) minus baseline (a).
        expected_z, expected_p = proportions_ztest([wins_b, wins_a], [n_b, n_a])
        assert z == pytest.approx(expected_z, abs=1e-9, rel=1e-12)
        assert p == pytest.approx(expected_p, abs=1e-9, rel=0)


@pytest.mark.parametrize("correction", [True, False])
def test_mcnemar_agrees_with_statsmodels(correction: bool) -> None:
    for only_a, only_b in DISCORDANT:
        if only_a + only_b == 0:
            continue
        statistic, p = mcnemar(only_a, only_b, correction=correction)
        # Concordant cells do not enter the test; any values will do.
        expected = sm_mcnemar([[17, only_a], [only_b, 23]], exact=False, correction=correction)
        assert statistic == pytest.approx(expected.statistic, abs=1e-9, rel=1e-12)
        assert p == pytest.approx(expected.pvalue, abs=1e-9, rel=0)


def test_benjamini_hochberg_agrees_with_statsmodels_including_ties() -> None:
    for size in [1, 2, 3, 10, 48, 200]:
        for _ in range(20):
            pvalues = [RANDOM.random() ** 3 for _ in range(size)]
            if size > 3:
                pvalues[1] = pvalues[2]  # a tie
            expected = multipletests(pvalues, method="fdr_bh")[1]
            assert benjamini_hochberg(pvalues) == pytest.approx(list(expected), abs=1e-12, rel=0)


def test_welch_z_is_the_difference_of_means_over_its_standard_error() -> None:
    z, p = welch_ztest(5.0, 4.0, 100, 5.5, 9.0, 400)
    assert z == pytest.approx(0.5 / math.sqrt(4.0 / 100 + 9.0 / 400), abs=1e-12)
    assert p == pytest.approx(2 * scipy_stats.norm.sf(abs(z)), abs=1e-12)
    assert welch_ztest(5.0, 0.0, 10, 5.0, 0.0, 10) == (0.0, 1.0)


WELCH = [(5.0, 4.0, 100, 5.5, 9.0, 400), (5.0, 0.0, 50, 4.0, 0.0, 50), (4.0, 0.0, 50, 5.0, 0.0, 50),
         (5.0, 0.0, 10, 5.0, 0.0, 10), (5.0, 0.0, 50, 4.0, 0.25, 50), (5.0, 0.0, 1, 4.0, 0.0, 50),
         (20.8, 30.1, 300, 27.7, 41.6, 300)]


def test_a_difference_of_means_without_spread_keeps_the_variance_50_games_cannot_rule_out() -> None:
    # Every baseline game of 50 lasted 5 turns, every variant game 4. 50 games do not prove every
    # game does: a share up to u = z²/(50 + z²) may last a turn more or less, a variance u(1 − u).
    u = wilson_interval(0, 50)[1]
    floor = u * (1 - u)
    assert mean_variance(0.0, 50) == pytest.approx(floor, abs=1e-15) and mean_variance(0.3, 50) == 0.3
    z, p = welch_ztest(5.0, 0.0, 50, 4.0, 0.0, 50)
    assert z == pytest.approx(-1.0 / math.sqrt(2 * floor / 50), abs=1e-12) and 0.0 < p < 1e-20
    assert welch_ztest(4.0, 0.0, 50, 5.0, 0.0, 50)[0] == pytest.approx(-z, abs=1e-12)
    # In 5 games the same difference is far less sure.
    assert 1e-4 < welch_ztest(5.0, 0.0, 5, 4.0, 0.0, 5)[1] < 0.05
    assert welch_ztest(5.0, 0.0, 50, 5.0, 0.0, 50) == (0.0, 1.0)  # equal means: no difference
    # One game on a side has no sample variance (unknown, not zero): no evidence either way.
    assert welch_ztest(5.0, 0.0, 1, 4.0, 0.0, 50) == (0.0, 1.0)
    assert welch_ztest(5.0, math.nan, 1, 4.0, 0.0, 50) == (0.0, 1.0)


def test_welch_z_in_sql_is_the_python_twin(con: duckdb.DuckDBPyConnection) -> None:
    values = ", ".join(f"({ma!r}, {va!r}, {na}, {mb!r}, {vb!r}, {nb})" for ma, va, na, mb, vb, nb in WELCH)
    rows = con.execute(f"SELECT welch_z(ma, va, na, mb, vb, nb), erfc(abs(welch_z(ma, va, na, mb, vb, nb)) / sqrt(2)) "
                       f"FROM (VALUES {values}) AS t(ma, va, na, mb, vb, nb)").fetchall()
    for case, (z, p) in zip(WELCH, rows, strict=True):
        assert (z, p) == pytest.approx(welch_ztest(*case), abs=1e-12), case
    assert con.execute("SELECT welch_z(5.0, NULL, 1, 4.0, 0.0, 50)").fetchall() == [(0.0,)]


def test_the_skewed_mean_macros_give_the_python_numbers(con: duckdb.DuckDBPyConnection) -> None:
    # skewed_mean_low/high against skewed_mean_interval over random samples of small counts
    # (one way, both ways, without spread) and one or two values.
    samples = [[RANDOM.choice(values) for _ in range(RANDOM.choice([2, 3, 10, 100, 2000]))]
               for values in ([0, 0, 0, 1, 2], [-1, 0, 1], [0, 0, 0, 0, -1, -3], [5], [0, 0, 7, 40]) for _ in range(40)]
    samples += [[3], [1, 1], [0, 1]]
    sums = [(len(x), sum(x), sum(v * v for v in x), sum(v ** 3 for v in x)) for x in samples]
    values = ", ".join(str(case) for case in sums)
    rows = con.execute(f"SELECT skewed_mean_low(n, s1, s2, s3), skewed_mean_high(n, s1, s2, s3) "
                       f"FROM (VALUES {values}) AS t(n, s1, s2, s3)").fetchall()
    for case, bounds in zip(sums, rows, strict=True):
        assert bounds == pytest.approx(skewed_mean_interval(*case), abs=1e-12), case


def test_the_wilson_bounds_are_exactly_0_and_1_at_no_win_and_all_wins(con: duckdb.DuckDBPyConnection) -> None:
    # The formula's two terms cancel at 0 wins only to ~1e-19 in floating point (agent_stats
    # showed 1.0842e-19); every view's interval goes through these two macros.
    sizes = [1, 2, 3, 7, 10, 37, 100, 300, 999, 10_000, 2_500_000, 3.7, 123.456]
    rows = con.execute("SELECT n, wilson_low(0, n), wilson_high(n, n), wilson_low(0, n, z := 2.5758293035489004), "
                       "clustered_low(n, 0, n, 0, 0, n, 0), clustered_high(n, n, n, n, n, n, n) "
                       "FROM (SELECT unnest(?::DOUBLE[]) AS n)",
                       [sizes]).fetchall()
    for n, *bounds in rows:
        assert bounds == [0.0, 1.0, 0.0, 0.0, 1.0], n
        assert wilson_interval(0, n) == (0.0, wilson_interval(0, n)[1]) and wilson_interval(n, n)[1] == 1.0


def test_the_paired_interval_macros_give_the_python_numbers(con: duckdb.DuckDBPyConnection) -> None:
    # newcombe_low/high (with and without phi), paired_phi and cluster_spread over many inputs,
    # against newcombe_difference, paired_correlation and cluster_spread.
    cases = []
    for wins_a, n_a, wins_b, _ in PAIRS[:100]:
        n = n_a
        wins_b = min(wins_b, n)
        (low_a, high_a), (low_b, high_b) = wilson_interval(wins_a, n), wilson_interval(wins_b, n)
        spreads = (RANDOM.random() * n, RANDOM.random() * n, RANDOM.random() * 2 * n)
        cases.append((wins_a / n, low_a, high_a, wins_b / n, low_b, high_b, *spreads))
    cases += [(0.0, 0.0, 0.1, 0.0, 0.0, 0.1, 0.0, 0.0, 0.0), (0.5, 0.3, 0.7, 0.5, 0.3, 0.7, 1.5, 1.5, 0.0),
              (0.5, 0.3, 0.7, 0.5, 0.3, 0.7, 1.5, 1.5, 6.0), (0.5, 0.3, 0.7, 0.6, 0.4, 0.8, 0.4, 0.2, 0.1)]
    values = ", ".join("(" + ", ".join(repr(value) for value in case) + ")" for case in cases)
    rows = con.execute(f"""
        SELECT paired_phi(sa, sb, sd) AS phi, newcombe_low(pa, la, ua, pb, lb, ub),
               newcombe_high(pa, la, ua, pb, lb, ub), newcombe_low(pa, la, ua, pb, lb, ub, phi := phi),
               newcombe_high(pa, la, ua, pb, lb, ub, phi := phi)
        FROM (VALUES {values}) AS t(pa, la, ua, pb, lb, ub, sa, sb, sd)""").fetchall()
    for case, (phi, low, high, paired_low, paired_high) in zip(cases, rows, strict=True):
        assert phi == pytest.approx(paired_correlation(*case[6:]), abs=1e-12)
        assert -1.0 <= phi <= 1.0
        assert (low, high) == pytest.approx(newcombe_difference(*case[:6]), abs=1e-12)
        assert (paired_low, paired_high) == pytest.approx(newcombe_difference(*case[:6], phi=phi), abs=1e-12)
    sums = [(10, 4, 10, 4, 4), (20, 7, 40, 13, 26), (6, -3, 6, 3, -3), (0, 0, 0, 0, 0), (300, 151, 618, 170, 312)]
    values = ", ".join(str(case) for case in sums)
    rows = con.execute(f"SELECT cluster_spread(n, w, n_sq, w_sq, nw) FROM (VALUES {values}) "
                       "AS t(n, w, n_sq, w_sq, nw)").fetchall()
    for (n, w, n_sq, w_sq, nw), (spread,) in zip(sums, rows, strict=True):
        assert spread == pytest.approx(cluster_spread(n, w, n_sq, w_sq, nw), abs=1e-12), (n, w)
    # One trial per game: the spread is n·p(1 − p), and φ is the 2×2 table's (corrected) phi.
    assert cluster_spread(10, 4, 10, 4, 4) == pytest.approx(10 * 0.4 * 0.6, abs=1e-12)


def test_the_discordant_correlation_macro_gives_the_python_numbers(con: duckdb.DuckDBPyConnection) -> None:
    # discordant_phi against discordant_correlation: per-game parts P_g (of n_g pairs) and M_g,
    # never both positive in one game; the sums of random games, and edge cases (no part, one part).
    cases = []
    for _ in range(60):
        games = [(n, RANDOM.randint(0, n)) for n in (RANDOM.randint(1, 3) for _ in range(RANDOM.randint(1, 12)))]
        parts = [(n, d if RANDOM.random() < 0.5 else 0, 0 if RANDOM.random() < 0.5 else d) for n, d in games]
        cases.append(_part_sums(parts))
    cases += [_part_sums([(1, 0, 0)] * 5), _part_sums([(1, 1, 0), (1, 0, 0)]), _part_sums([(2, 2, 0), (2, 0, 1)]),
              (0, 0, 0, 0, 0, 0, 0, 0)]
    values = ", ".join(str(case) for case in cases)
    rows = con.execute(f"""
        SELECT discordant_phi(n, n_sq, wp, nwp, cluster_spread(n, wp, n_sq, wp2, nwp), wm, nwm,
                              cluster_spread(n, wm, n_sq, wm2, nwm))
        FROM (VALUES {values}) AS t(n, n_sq, wp, wp2, nwp, wm, wm2, nwm)""").fetchall()
    for (n, n_sq, wp, wp2, nwp, wm, wm2, nwm), (phi,) in zip(cases, rows, strict=True):
        assert phi == pytest.approx(discordant_correlation(n, n_sq, (wp, wp2, nwp), (wm, wm2, nwm)), abs=1e-12), (
            n, n_sq, wp, wm)
        assert -1.0 <= phi <= 1.0
    # One pair per game, a 2×2 table of N = 20 pairs, b = 3 only the baseline's, c = 5 only the variant's.
    assert discordant_correlation(20, 20, (5, 5, 5), (3, 3, 3)) == pytest.approx(-math.sqrt(15 / (17 * 15)),
                                                                                  abs=1e-15)
    # Parts that may both be positive in a game (a card rate's linearised parts): with ΣP·M.
    mixed = [(2.0, 0.5, 0.5), (1.0, 1.0, 0.0), (3.0, 0.0, 1.5), (1.0, 0.0, 0.0), (2.0, 1.5, 0.5)]
    sums = _part_sums(mixed)
    both = sum(plus * minus for _, plus, minus in mixed)
    (phi,) = con.execute(f"""
        SELECT discordant_phi(n, n_sq, wp, nwp, cluster_spread(n, wp, n_sq, wp2, nwp), wm, nwm,
                              cluster_spread(n, wm, n_sq, wm2, nwm), pm := {both!r})
        FROM (VALUES {sums}) AS t(n, n_sq, wp, wp2, nwp, wm, wm2, nwm)""").fetchone() or (None,)
    n, n_sq, wp, wp2, nwp, wm, wm2, nwm = sums
    rate_p, rate_m = wp / n, wm / n
    by_hand = sum((plus - rate_p * size) * (minus - rate_m * size) for size, plus, minus in mixed) / math.sqrt(
        sum((plus - rate_p * size) ** 2 for size, plus, _ in mixed)
        * sum((minus - rate_m * size) ** 2 for size, _, minus in mixed))
    assert phi == pytest.approx(discordant_correlation(n, n_sq, (wp, wp2, nwp), (wm, wm2, nwm), both), abs=1e-12)
    assert phi == pytest.approx(by_hand, abs=1e-12)


def _part_sums(games: Sequence[tuple[float, float, float]]) -> tuple[float, ...]:
    """``(Σn, Σn², ΣP, ΣP², Σn·P, ΣM, ΣM², Σn·M)`` of games ``(n_g, P_g, M_g)``."""
    return (sum(n for n, _, _ in games), sum(n * n for n, _, _ in games),
            *(value for index in (1, 2) for value in (sum(g[index] for g in games),
                                                      sum(g[index] ** 2 for g in games),
                                                      sum(g[0] * g[index] for g in games))))


def test_the_sql_macros_give_the_python_numbers(con: duckdb.DuckDBPyConnection) -> None:
    # One query per macro over many rows: binding a macro costs more than running it.
    # erfc on both sides of its switch from the series to the continued fraction (at 2), NULL kept.
    xs = [float(x) for x in np.linspace(-8, 8, 1601)] + [1.9999999999, 2.0000000001, -30.0, 30.0]
    rows = con.execute("SELECT x, erfc(x) FROM (SELECT unnest(?::DOUBLE[]) AS x)", [xs]).fetchall()
    for x, value in rows:
        assert value == pytest.approx(math.erfc(x), abs=1e-15, rel=0), x
    assert con.execute("SELECT erfc(NULL)").fetchall() == [(None,)]
    rows = con.execute("SELECT x::DOUBLE, df, chi2_sf(x, df) FROM (VALUES " + ", ".join(
        f"({x!r}, {df})" for df in (1, 2, 3, 6, 7, 63, 64) for x in (0.0, 0.2, 3.0, 11.5, 70.0, 400.0))
        + ") AS t(x, df)").fetchall()
    for x, df, value in rows:
        assert value == pytest.approx(chi2_sf(x, df), abs=1e-13, rel=0)
    values = ", ".join(f"({wa}, {na}, {wb}, {nb})" for wa, na, wb, nb in PAIRS)
    rows = con.execute(f"SELECT wa, na, wb, nb, prop_z(wa, na, wb, nb), prop_p(wa, na, wb, nb) "
                       f"FROM (VALUES {values}) AS t(wa, na, wb, nb)").fetchall()
    for wins_a, n_a, wins_b, n_b, z, p in rows:
        assert (z, p) == pytest.approx(two_proportion_ztest(wins_a, n_a, wins_b, n_b), abs=1e-12, rel=1e-12)
    values = ", ".join(f"({a}, {b})" for a, b in DISCORDANT)
    rows = con.execute(f"SELECT a, b, mcnemar_stat(a, b), mcnemar_p(a, b) FROM (VALUES {values}) AS t(a, b)").fetchall()
    for only_a, only_b, statistic, p in rows:
        assert (statistic, p) == pytest.approx(mcnemar(only_a, only_b), abs=1e-12, rel=1e-12)


def test_no_variance_means_no_evidence() -> None:
    assert two_proportion_ztest(0, 10, 0, 20) == (0.0, 1.0)
    assert two_proportion_ztest(5, 0, 1, 3) == (0.0, 1.0)
    assert mcnemar(0, 0) == (0.0, 1.0)
    assert chi_square_uniform([0, 0, 0]) == (0.0, 2, 1.0)


def test_the_beta_prior_is_the_marginal_likelihood_maximum_that_scipy_finds() -> None:
    # The grid fit (two passes over log10 s, step 0.001 in the second) lands within
    # 0.3% of the strength scipy's bounded optimiser finds on the same likelihood.
    from scipy.optimize import minimize_scalar
    from scipy.special import betaln

    cases = [([10, 50, 90], [100, 100, 100]), ([30, 45, 52, 61, 40], [80, 100, 120, 90, 70]),
             ([480, 520, 505, 470, 530, 560], [1000] * 6)]
    for wins, games in cases:
        mean = sum(wins) / sum(games)

        def minus_log_likelihood(x: float, wins: list[int] = wins, games: list[int] = games,
                                 mean: float = mean) -> float:
            s = 10 ** x
            return -sum(betaln(w + mean * s, n - w + (1 - mean) * s) - betaln(mean * s, (1 - mean) * s)
                        for w, n in zip(wins, games, strict=True))

        best = 10 ** minimize_scalar(minus_log_likelihood, bounds=(-1, 8), method="bounded",
                                     options={"xatol": 1e-6}).x
        prior = beta_binomial_prior(wins, games)
        assert prior is not None and prior.strength is not None
        assert prior.mean == pytest.approx(mean, abs=1e-15)
        assert prior.strength == pytest.approx(best, rel=0.003), (wins, games)
        assert prior.alpha == pytest.approx(mean * best, rel=0.003)
        assert prior.shrink(wins[0], games[0]) == pytest.approx(
            (wins[0] + mean * prior.strength) / (games[0] + prior.strength), abs=1e-15)
    # Cards that differ less than noise: not identified, shrink all the way to the mean.
    alike = beta_binomial_prior([50, 51, 49], [100, 100, 100])
    assert alike is not None and not alike.identified and alike.shrink(51, 100) == 0.5 and alike.spread == 0.0
    assert beta_binomial_prior([5], [10]) is None
    assert beta_binomial_prior([0, 0], [10, 10]) is None


def test_the_beta_prior_recovers_the_spread_of_known_true_card_rates() -> None:
    # 60 cards with true rates drawn from a beta of mean 0.5 and sd 0.05 (strength 99),
    # 2,000 games each: the fitted spread is near 0.05 and the shrunk rates lie
    # closer to the truth than the raw ones. With every true rate 0.5, the fit
    # finds no spread (or almost none) and shrinks every card to near the mean.
    import numpy as np

    generator = np.random.default_rng(13)
    truth = generator.beta(0.5 * 99, 0.5 * 99, size=60)
    games = [2000] * 60
    wins = [int(w) for w in generator.binomial(2000, truth)]
    prior = beta_binomial_prior(wins, games)
    assert prior is not None and prior.identified
    assert prior.spread == pytest.approx(0.05, rel=0.25)
    raw = np.array(wins) / 2000
    shrunk = np.array([prior.shrink(w, n) for w, n in zip(wins, games, strict=True)])
    assert np.mean((shrunk - truth) ** 2) < np.mean((raw - truth) ** 2)
    assert len(set(shrunk.round(12))) == len(set(wins)) > 50  # cards keep their own rates (ties stay tied)
    alike = [int(w) for w in generator.binomial(2000, 0.5, size=60)]
    flat = beta_binomial_prior(alike, games)
    assert flat is not None and flat.spread < 0.01
    assert max(abs(flat.shrink(w, 2000) - 0.5) for w in alike) < 0.01


def test_the_sample_size_matches_the_fleiss_formula_and_reaches_the_power() -> None:
    # p = 0.5 -> 0.52 at alpha 0.05, power 0.8: z = 1.959964, 0.841621;
    # (1.959964 * sqrt(2 * 0.51 * 0.49) + 0.841621 * sqrt(0.25 + 0.2496))^2 / 0.02^2 = 9805.9 -> 9806.
    assert games_for_difference(0.5, 0.02) == 9806
    for p, delta, power in [(0.5, 0.02, 0.8), (0.3, -0.05, 0.9), (0.1, 0.01, 0.8), (0.65, 0.1, 0.95)]:
        n = games_for_difference(p, delta, power)
        assert power_of_difference(p, delta, n) >= power - 1e-6
        assert power_of_difference(p, delta, n - 1) < power + 1e-3
    with pytest.raises(ValueError, match="delta"):
        games_for_difference(0.5, 0.0)


def test_the_interval_sample_size_gives_an_interval_that_narrow() -> None:
    for p, width in [(0.5, 0.02), (0.1, 0.01), (0.9, 0.05)]:
        n = games_for_interval(p, width)
        low, high = wilson_interval(round(p * n), n)
        assert high - low <= width
        assert n >= 1
