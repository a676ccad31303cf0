"""The Wilson score interval, in Python and as DuckDB macros."""

from __future__ import annotations

from decimal import Decimal, getcontext

import duckdb
import pytest

from analytics.stats import Z95, register_sql_macros, wilson_interval, z_for_confidence

CASES = [(0, 1), (1, 1), (0, 20), (1, 29), (5, 10), (15, 148), (81, 263), (150, 300), (299, 300), (7, 1_000_000),
         (123_456, 200_000)]


def quadratic_roots(wins: int, n: int, z: float) -> tuple[float, float]:
    """The Wilson bounds worked out independently, in 50-digit decimals.

    They are the proportions q with (p - q)² = z² q (1 - q) / n, p = wins / n.
    Multiplying out: (n + z²) q² - (2 wins + z²) q + wins² / n = 0, so
    q = [(2 wins + z²) ± sqrt((2 wins + z²)² - 4 (n + z²) wins² / n)] / (2 (n + z²)).
    """
    getcontext().prec = 50
    w, size, zz = Decimal(wins), Decimal(n), Decimal(z) ** 2
    b = 2 * w + zz
    root = (b * b - 4 * (size + zz) * w * w / size).sqrt()
    return float((b - root) / (2 * (size + zz))), float((b + root) / (2 * (size + zz)))


@pytest.mark.parametrize(("wins", "n"), CASES)
def test_wilson_interval_equals_the_roots_of_the_score_test_quadratic(wins: int, n: int) -> None:
    low, high = wilson_interval(wins, n)
    expected_low, expected_high = quadratic_roots(wins, n, Z95)
    assert low == pytest.approx(expected_low, abs=1e-9)
    assert high == pytest.approx(expected_high, abs=1e-9)


def test_wilson_interval_reproduces_published_values() -> None:
    # Newcombe (1998), "Two-sided confidence intervals for the single
    # proportion", Statistics in Medicine 17:857-872, Table I, method 3
    # (score interval without continuity correction), to 4 decimals.
    published = {(81, 263): (0.2553, 0.3662), (15, 148): (0.0624, 0.1605), (0, 20): (0.0000, 0.1611),
                 (1, 29): (0.0061, 0.1718), (29, 29): (0.8830, 1.0000)}
    for (wins, n), expected in published.items():
        assert wilson_interval(wins, n) == pytest.approx(expected, abs=5e-5)


def test_wilson_interval_of_five_in_ten_matches_the_value_worked_out_by_hand() -> None:
    # p = 1/2, so the centre (p + z²/2n) / (1 + z²/n) is exactly 1/2 and the
    # half-width is z / (1 + z²/10) * sqrt(1/40 + z²/400). With z = 1.959963984540054:
    # z² = 3.8414588206941, 1 + z²/10 = 1.3841458820694, z²/400 = 0.0096036470517,
    # sqrt(0.025 + 0.0096036470517) = 0.1860205554549, half = 0.2634069094874.
    low, high = wilson_interval(5, 10)
    assert low == pytest.approx(0.23659309051256, abs=1e-9)
    assert high == pytest.approx(0.76340690948744, abs=1e-9)


def test_the_interval_is_symmetric_between_wins_and_losses() -> None:
    for wins, n in CASES:
        low, high = wilson_interval(wins, n)
        other_low, other_high = wilson_interval(n - wins, n)
        assert low == pytest.approx(1 - other_high, abs=1e-12)
        assert high == pytest.approx(1 - other_low, abs=1e-12)


def test_the_interval_stays_inside_zero_and_one_and_contains_the_rate() -> None:
    assert wilson_interval(0, 50)[0] == 0.0
    assert wilson_interval(50, 50)[1] == 1.0
    for wins, n in CASES:
        low, high = wilson_interval(wins, n)
        assert 0.0 <= low <= wins / n <= high <= 1.0


def test_no_games_gives_the_whole_unit_interval() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_a_higher_confidence_gives_a_wider_interval() -> None:
    assert z_for_confidence(0.95) == pytest.approx(1.959963984540054, abs=1e-12)
    assert z_for_confidence(0.99) == pytest.approx(2.5758293035489, abs=1e-12)
    low95, high95 = wilson_interval(40, 100)
    low99, high99 = wilson_interval(40, 100, confidence=0.99)
    assert low99 < low95 < high95 < high99
    assert (low99, high99) == pytest.approx(quadratic_roots(40, 100, z_for_confidence(0.99)), abs=1e-9)


@pytest.mark.parametrize(("wins", "n", "confidence"), [(3, 2, 0.95), (-1, 5, 0.95), (1, -1, 0.95), (1, 5, 1.0),
                                                        (1, 5, 0.0)])
def test_impossible_arguments_are_refused(wins: int, n: int, confidence: float) -> None:
    with pytest.raises(ValueError, match=r"expected|confidence"):
        wilson_interval(wins, n, confidence)


def test_sql_macros_give_the_same_numbers_as_the_python_function() -> None:
    con = duckdb.connect()
    register_sql_macros(con)
    values = ", ".join(f"({wins}, {n})" for wins, n in [*CASES, (0, 0)])
    rows = con.execute(f"""
        SELECT w, n, wilson_low(w, n), wilson_high(w, n),
               wilson_low(w, n, z := {z_for_confidence(0.99)!r}), wilson_high(w, n, z := {z_for_confidence(0.99)!r})
        FROM (VALUES {values}) AS t(w, n)""").fetchall()
    for wins, n, low, high, low99, high99 in rows:
        assert (low, high) == pytest.approx(wilson_interval(wins, n), abs=1e-12, rel=0)
        assert (low99, high99) == pytest.approx(wilson_interval(wins, n, 0.99), abs=1e-12, rel=0)
    con.close()


def test_sql_macros_accept_bigint_counts_from_aggregates() -> None:
    con = duckdb.connect()
    register_sql_macros(con)
    row = con.execute("""
        SELECT wilson_low(count(*) FILTER (WHERE x % 3 = 0), count(*)),
               wilson_high(count(*) FILTER (WHERE x % 3 = 0), count(*))
        FROM range(1000) AS t(x)""").fetchone()
    assert row == pytest.approx(wilson_interval(334, 1000), abs=1e-12, rel=0)
    con.close()
