"""Statistics for win rates: the Wilson score interval.

A win rate measured over ``n`` games is a binomial proportion. Its plain
normal-approximation ("Wald") interval, ``p ± z·sqrt(p(1-p)/n)``, collapses to
a single point when ``p`` is 0 or 1 and is too narrow for small ``n``; the
Wilson score interval (Wilson 1927) keeps close to its nominal coverage for
every ``p`` and ``n``, and never leaves [0, 1]. That is why every win rate in
cardlab carries a Wilson interval.

With ``p = wins / n`` and ``z`` the two-sided standard-normal quantile for the
confidence level (1.959963984540054 for 95%)::

    centre = (p + z²/(2n)) / (1 + z²/n)
    half   = z / (1 + z²/n) · sqrt(p(1-p)/n + z²/(4n²))
    low, high = centre - half, centre + half

Equivalently, ``low`` and ``high`` are the two roots in ``p̂`` of
``(p - p̂)² = z²·p̂(1-p̂)/n``, i.e. the proportions whose score test does not
reject the observed ``p``.

Conventions: with ``n = 0`` nothing is known and the interval is the whole of
[0, 1]; ``low`` and ``high`` are clamped to [0, 1] to absorb rounding (they are
inside mathematically). The same formula, in the same operation order, is
registered in DuckDB as the macros ``wilson_low(w, n[, z := ...])`` and
``wilson_high(w, n[, z := ...])`` by ``register_sql_macros``, so a SQL user gets
the numbers of ``wilson_interval`` to the last few bits.
"""

from __future__ import annotations

import math
from statistics import NormalDist

import duckdb


def z_for_confidence(confidence: float) -> float:
    """The two-sided standard-normal quantile: ``Φ⁻¹(1/2 + confidence/2)``.

    1.959963984540054 for 0.95, 2.5758293035489 for 0.99.
    """
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be strictly between 0 and 1, got {confidence!r}")
    return NormalDist().inv_cdf(0.5 + confidence / 2.0)


Z95 = z_for_confidence(0.95)
"""``z`` of the 95% interval, the default everywhere (also in the SQL macros)."""


def wilson_interval(wins: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval ``(low, high)`` of the proportion ``wins / n``.

    See the module docstring for the formula. ``n = 0`` gives ``(0.0, 1.0)``.
    Raises ``ValueError`` unless ``0 <= wins <= n`` and ``0 < confidence < 1``.
    """
    if n < 0 or wins < 0 or wins > n:
        raise ValueError(f"expected 0 <= wins <= n, got wins={wins!r}, n={n!r}")
    z = z_for_confidence(confidence)
    if n == 0:
        return (0.0, 1.0)
    return (_wilson_low(wins, n, z), _wilson_high(wins, n, z))


# The two bounds below and the SQL macros share one operation order, so that
# Python and DuckDB round identically (both use IEEE doubles).
def _wilson_low(wins: float, n: float, z: float) -> float:
    p = wins / n
    return max(0.0, (p + z * z / (2 * n)) / (1 + z * z / n) - z / (1 + z * z / n) * math.sqrt(
        p * (1 - p) / n + z * z / (4 * n * n)))


def _wilson_high(wins: float, n: float, z: float) -> float:
    p = wins / n
    return min(1.0, (p + z * z / (2 * n)) / (1 + z * z / n) + z / (1 + z * z / n) * math.sqrt(
        p * (1 - p) / n + z * z / (4 * n * n)))


def _macro_body(sign: str, clamp: str, bound: str) -> str:
    # ``w`` and ``n`` are cast to DOUBLE first: counts arrive as BIGINT or
    # HUGEINT, and integer arithmetic must not sneak into the formula.
    p = "(w::DOUBLE / n::DOUBLE)"
    nd = "n::DOUBLE"
    return (
        f"CASE WHEN n = 0 THEN {bound} ELSE {clamp}({bound}, "
        f"({p} + z * z / (2 * {nd})) / (1 + z * z / {nd}) {sign} z / (1 + z * z / {nd}) * sqrt("
        f"{p} * (1 - {p}) / {nd} + z * z / (4 * {nd} * {nd}))) END"
    )


WILSON_LOW_SQL = f"CREATE OR REPLACE MACRO wilson_low(w, n, z := {Z95!r}) AS {_macro_body('-', 'greatest', '0.0')}"
WILSON_HIGH_SQL = f"CREATE OR REPLACE MACRO wilson_high(w, n, z := {Z95!r}) AS {_macro_body('+', 'least', '1.0')}"


def register_sql_macros(con: duckdb.DuckDBPyConnection) -> None:
    """Define ``wilson_low(w, n[, z := ...])`` and ``wilson_high(w, n[, z := ...])`` on ``con``.

    ``z`` defaults to the 95% quantile; pass ``z := 2.5758293035489004`` for 99%.
    """
    con.execute(WILSON_LOW_SQL)
    con.execute(WILSON_HIGH_SQL)
