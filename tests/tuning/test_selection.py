"""The answer keeps its stated confidence although it is chosen among the confirmed candidates.

A simulation of the confirmation on the duel (``tests.tuning.duel``), whose exact win
rates are known: three cheap candidates sit just outside the band [46%, 54%] (seat 0
wins 54.01%, 54.02%, 54.03%: truly not met), a dearer one inside it (50.26%: met), and
the current data far outside (13.54%). Each repetition confirms all five on fresh games
(seat 0's wins drawn from the exact rates), judges each target row with its Wilson
interval as the metric views compute it, and takes the answer as ``choose_answer`` does:
the cheapest that meets every target. A "met" answer that is truly not met is a false
"met". With each variant's intervals at 95% on their own (the rule before), the choice
among three near misses says "met" wrongly about 7% of the time; with the intervals
joint over every row of every confirmed variant (``evaluate_jointly``), at most 5%.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable

import numpy as np
import pytest

from analytics.stats import wilson_interval
from analytics.tuning import Evaluation, joint_confidence, summarise_target
from drivers.tuning import Candidate, choose_answer
from experiments.tuning import Target, TuningSpec, parse_tuning_spec
from simcore.registry import GAMES
from simcore.seeding import derive_seed
from tests.tuning.duel import GAME, INFO, seat_zero_win_probability
from tests.tuning.test_known_answer import DUEL_TUNE

BAND = (0.46, 0.54)
GAMES_CONFIRMED = 4000
"""Games per variant of the confirmation (the known-answer search's ``confirm.games``)."""
REPETITIONS = 4000
TARGET = Target("fair seat 0", "seat_stats", "win_rate", BAND[0], BAND[1], where={"seat": 0})


def accuracy_for(rate: float) -> float:
    """Seat 0's accuracy at which it wins ``rate`` of the duels (seat 1: 60%, 5 hits; seat 0: 2 hits),
    by bisection on the exact probability, which rises with seat 0's accuracy."""
    low, high = 0.01, 0.99
    for _ in range(100):
        middle = (low + high) / 2
        if seat_zero_win_probability(middle, 0.6, 2, 5) < rate:
            low = middle
        else:
            high = middle
    return (low + high) / 2


# (variant, change cost, seat 0's accuracy, seat 1's hits): cheapest first.
NEAR_MISSES = [(f"near-{index}", 0.1 * (index + 1), accuracy_for(rate), 5)
               for index, rate in enumerate((0.5401, 0.5402, 0.5403))]
FAIR = ("fair", 0.5, 0.2, 5)
CURRENT = ("baseline", 0.0, 0.2, 2)
VARIANTS = [CURRENT, *NEAR_MISSES, FAIR]


def exact(variant: tuple[str, float, float, int]) -> float:
    return seat_zero_win_probability(variant[2], 0.6, 2, variant[3])


@pytest.fixture(scope="module")
def spec() -> TuningSpec:
    GAMES[INFO.id] = GAME
    try:
        return parse_tuning_spec(tomllib.loads(DUEL_TUNE), "duel_tune.toml")
    finally:
        GAMES.pop(INFO.id, None)


def simulate(spec: TuningSpec, level_of: Callable[[int, int], float]) -> tuple[float, float, int]:
    """(false "met" rate of the answers, rate of answers that are truly met and said so, repetitions).
    ``level_of(rows of a variant, rows of all confirmed variants)`` is each interval's confidence."""
    generator = np.random.default_rng(derive_seed("tuning false met simulation") % 2**63)
    truly_met = {variant[0]: BAND[0] <= exact(variant) <= BAND[1] for variant in VARIANTS}
    candidates = {variant[0]: Candidate(index, variant[0], {"rules.second_hits": variant[3]}, variant[1])
                  for index, variant in enumerate(VARIANTS)}
    level = level_of(1, len(VARIANTS))  # one target row per variant
    false_met = true_met = 0
    for _ in range(REPETITIONS):
        confirmed = {}
        for variant in VARIANTS:
            wins = int(generator.binomial(GAMES_CONFIRMED, exact(variant)))
            low, high = wilson_interval(wins, GAMES_CONFIRMED, level)
            row = {"row": "2 players, seat 0", "value": wins / GAMES_CONFIRMED, "low": low, "high": high,
                   "band_low": BAND[0], "band_high": BAND[1]}
            confirmed[variant[0]] = Evaluation(variant[0], level, (summarise_target(TARGET, [row]),))
        chosen = [candidates[name] for name, *_ in VARIANTS if name != "baseline"]
        answer = choose_answer(spec, chosen, confirmed, candidates["baseline"])
        if answer["all_met"]:
            if truly_met[answer["variant"]]:
                true_met += 1
            else:
                false_met += 1
    return false_met / REPETITIONS, true_met / REPETITIONS, REPETITIONS


def wilson_bounds(rate: float, repetitions: int) -> tuple[float, float]:
    return wilson_interval(rate * repetitions, repetitions, 0.95)


def test_the_scenario_has_three_near_misses_cheaper_than_the_one_fair_candidate() -> None:
    rates = [exact(variant) for variant in NEAR_MISSES]
    assert rates == pytest.approx([0.5401, 0.5402, 0.5403], abs=1e-9)
    assert all(rate > BAND[1] for rate in rates) and BAND[0] <= exact(FAIR) <= BAND[1]
    assert exact(FAIR) == pytest.approx(0.5026, abs=1e-4) and exact(CURRENT) == pytest.approx(0.1354, abs=1e-4)
    assert max(variant[1] for variant in NEAR_MISSES) < FAIR[1]


def test_per_variant_intervals_say_met_wrongly_more_often_than_5_percent_after_the_choice(
        spec: TuningSpec, duel_registered: None) -> None:
    # The rule before: each variant's rows joint on their own (one row: 95%).
    false_met, _, repetitions = simulate(spec, lambda own, everyone: joint_confidence(0.95, own))
    low, _ = wilson_bounds(false_met, repetitions)
    assert low > 0.05, f"false met {false_met:.2%}"


def test_intervals_joint_over_every_confirmed_variant_keep_false_met_at_most_5_percent(
        spec: TuningSpec, duel_registered: None) -> None:
    false_met, true_met, repetitions = simulate(spec, lambda own, everyone: joint_confidence(0.95, everyone))
    _, high = wilson_bounds(false_met, repetitions)
    assert high <= 0.05, f"false met {false_met:.2%}"
    # Not by saying "met" less: the fair candidate is still found and confirmed nearly always.
    assert true_met >= 0.9, f"truly met answers {true_met:.2%}"
