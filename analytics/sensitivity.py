"""What size of change a number of games can detect, and how many games a chosen size needs:
``cardlab plan``'s formula (``analytics.stats.games_for_difference`` and
``power_of_difference``: the two-sided two-proportion z-test) read the other way round.

A what-if that finds nothing has not shown that nothing changed: only that no change
as large as ``detectable_difference`` happened (at 80% power). The dashboard says that
size beside every null result, and how many games a smaller one would need.
"""

from __future__ import annotations

import math

from analytics.stats import games_for_difference, power_of_difference

POWER = 0.8
"""The chance of detecting a change of the stated size, as ``cardlab plan`` defaults it."""
ALPHA = 0.05
"""Two-sided significance level, as ``cardlab plan`` defaults it."""
_STEPS = 60
"""Bisection steps: the size is found to well under a hundredth of a point."""


def _smallest(p: float, n: float, sign: int, power: float, alpha: float) -> float | None:
    """The smallest step ``sign * delta`` from ``p`` (within (0, 1)) that ``n`` per arm detect with ``power``."""
    room = (1.0 - p) if sign > 0 else p
    largest = room * (1 - 1e-9)
    if largest <= 0 or power_of_difference(p, sign * largest, max(1, math.floor(n)), alpha) < power:
        return None
    low, high = 0.0, largest
    for _ in range(_STEPS):
        middle = (low + high) / 2
        if power_of_difference(p, sign * middle, max(1, math.floor(n)), alpha) >= power:
            high = middle
        else:
            low = middle
    return high


def detectable_difference(p: float, n: float, power: float = POWER, alpha: float = ALPHA) -> float | None:
    """The smallest change of a rate near ``p`` that ``n`` games (or effective games) per arm
    detect with ``power`` at two-sided level ``alpha``, either way: the larger of the upward
    and downward sizes, so that any change at least that large, up or down, is detected.
    None when ``p`` is 0 or 1, ``n`` is under 1, or no possible change is that detectable."""
    if not 0.0 < p < 1.0 or n < 1:
        return None
    sizes = [_smallest(p, n, sign, power, alpha) for sign in (1, -1)]
    found = [size for size in sizes if size is not None]
    return max(found) if found else None


def games_to_detect(p: float, delta: float, power: float = POWER, alpha: float = ALPHA) -> int:
    """Games per arm that detect a change of ``delta`` (either way) from a rate near ``p``: the
    larger of ``games_for_difference`` upward and downward (a side beyond 0 or 1 left out).
    ValueError when neither direction is possible."""
    needs = [games_for_difference(p, sign * delta, power, alpha) for sign in (1, -1) if 0.0 < p + sign * delta < 1.0]
    if not needs or delta <= 0:
        raise ValueError(f"expected 0 < p < 1 and a change delta > 0 that keeps p + delta or p - delta in (0, 1), "
                         f"got p={p!r}, delta={delta!r}")
    return max(needs)


def games_to_tell(card_mean: float | None, expected: float) -> int:
    """The fewest games in hand at which a card can be told from its agent's card mean
    ``card_mean``: ``expected`` wins and ``expected`` losses expected there (the report's rule
    for flagging a card, ``analytics.views.CARD_MIN_EXPECTED``): ``n·m >= expected`` and
    ``n·(1 − m) >= expected``. 0 without a mean; a mean of 0 or 1 never tells (no loss or
    no win to expect): then also 0, as nothing can be flagged."""
    if card_mean is None or not 0.0 < card_mean < 1.0:
        return 0
    return math.ceil(expected / min(card_mean, 1.0 - card_mean) - 1e-9)
