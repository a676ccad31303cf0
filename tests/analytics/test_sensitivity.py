"""The smallest change a number of games can detect (``analytics.sensitivity``): ``cardlab
plan``'s formula read the other way round, so that the two agree."""

from __future__ import annotations

import pytest

from analytics.sensitivity import detectable_difference, games_to_detect
from analytics.stats import games_for_difference, power_of_difference


@pytest.mark.parametrize(("p", "n"), [(0.5, 200), (0.5, 200_000), (0.655, 3_000), (0.95, 400), (0.025, 5_000)])
def test_the_detectable_size_is_the_one_that_cardlab_plan_says_these_games_detect(p: float, n: int) -> None:
    size = detectable_difference(p, n)
    assert size is not None
    # Any change of that size, up or down, has 80% power (a side beyond 0 or 1 aside) ...
    assert all(power_of_difference(p, sign * size, n) >= 0.8 - 1e-9 for sign in (1, -1) if 0 < p + sign * size < 1)
    # ... a smaller one does not, either way, and cardlab plan needs these very games for it.
    assert min(power_of_difference(p, sign * size * 0.99, n) for sign in (1, -1) if 0 < p + sign * size < 1) < 0.8
    assert games_to_detect(p, size) <= n < games_to_detect(p, size * 0.99)


def test_200_games_per_arm_detect_about_14_points_of_a_fair_rate() -> None:
    # Fleiss: 200 per arm detect 50% -> 64% at 80% power (cardlab plan --p 0.5 --delta 0.14: 196 games).
    size = detectable_difference(0.5, 200)
    assert size is not None and round(100 * size, 1) == 13.8
    assert games_for_difference(0.5, 0.14) == 196


def test_no_size_without_a_sample_or_at_a_certain_rate() -> None:
    assert detectable_difference(0.5, 0) is None and detectable_difference(1.0, 1000) is None
    assert detectable_difference(0.0, 1000) is None


def test_games_to_detect_refuses_an_impossible_change() -> None:
    with pytest.raises(ValueError, match="expected 0 < p < 1"):
        games_to_detect(0.5, 0.6)
