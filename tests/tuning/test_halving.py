"""Successive halving, the confirmation's choice and size, and the tuning run's shards."""

from __future__ import annotations

import math
import tomllib

import pytest

from analytics.stats import Z95, z_for_confidence
from analytics.tuning import Evaluation, TargetResult, answer_lines
from drivers.tuning import (
    Candidate,
    Look,
    choose_answer,
    confirmation_games,
    promotions,
    rank,
    to_confirm,
)
from experiments.tuning import TuningSpec, parse_tuning_spec
from tests.tuning.test_spec import VALID


def candidate(trial: int, cost: float, *looks: float | None) -> Candidate:
    """A candidate with the given upper miss bound on rungs 0, 1, ... (None: a failed look)."""
    made = Candidate(trial, f"trial-{trial:04d}", {"x": trial}, cost)
    for rung, miss in enumerate(looks):
        made.looks[rung] = Look(miss, miss, miss)
        made.rung = rung
    return made


def test_candidates_rank_by_pareto_layer_then_miss_then_cost() -> None:
    pool = [candidate(0, 0.0, 0.30), candidate(1, 1.0, 0.05), candidate(2, 2.0, 0.04), candidate(3, 1.5, 0.10),
            candidate(4, 0.5, None)]
    # Front: trial 0 (cheapest), 1 and 2 (lowest miss); trial 3 is dominated by 1; trial 4 failed.
    assert [c.trial for c in rank(pool, 0)] == [2, 1, 0, 3]


def test_the_best_third_of_a_rung_moves_up_once() -> None:
    pool = [candidate(trial, 1.0, miss) for trial, miss in enumerate([0.5, 0.1, 0.4, 0.2, 0.3, 0.6, 0.7])]
    chosen = promotions(pool, rungs=2, promote=3)
    assert [c.trial for c in chosen] == [1, 3]  # 7 // 3 = 2 best
    for moved in chosen:
        moved.rung = 1
    assert promotions(pool, rungs=2, promote=3) == []  # already promoted, and rung 1 is the last
    few = pool[:2]
    assert promotions(few, rungs=2, promote=3) == []  # 2 // 3 = 0: wait for more looks


def test_promotion_climbs_every_rung_but_the_last() -> None:
    pool = [candidate(trial, 1.0, 0.1 * trial, 0.1 * trial) for trial in range(6)]
    for extra in range(6, 9):
        pool.append(candidate(extra, 1.0, 0.1 * extra))
    chosen = promotions(pool, rungs=3, promote=3)
    # Rung 0: 9 looks, the best 3 (0, 1, 2) are on rung 1 already; rung 1: 6 looks, best 2 go to rung 2.
    assert [(c.trial, c.rung) for c in chosen] == [(0, 1), (1, 1)]


def test_the_confirmation_takes_the_cheapest_of_the_front_whose_values_lie_in_the_bands_first() -> None:
    # The Oracle search of seed 13: on 1,600 games the Oracle drawing 1 (cost 0.02) has its value in the
    # band but its interval reaches 0.6 points past it; two dearer points (0.043) are wholly inside. The
    # cheap one is the answer to confirm: it used to be left out, the front taken lowest miss first.
    cheap = Candidate(7, "trial-0007", {"x": 7}, 0.02, 2, {2: Look(0.0, 0.0, 0.006)})
    dear = [Candidate(trial, f"trial-{trial:04d}", {"x": trial}, 0.043, 2, {2: Look(0.0, 0.0, 0.0)})
            for trial in (4, 16)]
    off = Candidate(9, "trial-0009", {"x": 9}, 0.0, 2, {2: Look(0.05, 0.03, 0.07)})  # the current data, missing
    assert [c.trial for c in to_confirm([*dear, cheap, off], 2)] == [7, 4]
    assert [c.trial for c in to_confirm([*dear, cheap, off], 4)] == [7, 4, 16, 9]
    # The current data (cost 0: always on the front) takes no place: it is confirmed beside them anyway.
    current = Candidate(0, "baseline", {"x": 0}, 0.0, 2, {2: Look(0.05, 0.03, 0.07)})
    assert [c.trial for c in to_confirm([current, cheap], 2)] == [7]


def test_the_confirmation_takes_the_front_of_the_highest_rung_lowest_miss_first() -> None:
    pool = [candidate(0, 0.0, 0.30, 0.25), candidate(1, 1.0, 0.05, 0.04), candidate(2, 2.0, 0.04, 0.0),
            candidate(3, 1.5, 0.10, 0.09), candidate(4, 0.1, 0.02)]
    assert [c.trial for c in to_confirm(pool, 2)] == [2, 1]
    assert [c.trial for c in to_confirm(pool, 3)] == [2, 1, 0]  # trial 3 is dominated by trial 1
    # Asked for more than the top rung's front holds: the front of those that stopped a rung lower.
    assert [c.trial for c in to_confirm(pool, 5)] == [2, 1, 0, 4]


def _result(low: float, high: float, band: tuple[float, float]) -> TargetResult:
    middle = (low + high) / 2
    return TargetResult("t", "seat_stats.win_rate", 1.0, 1, "r", middle, low, high, band[0], band[1], 0.0, 0.0, 0.0,
                        "undecided")


def spec_of(**confirm: int) -> TuningSpec:
    raw = tomllib.loads(VALID)
    raw["confirm"] = dict(confirm)
    return parse_tuning_spec(raw, "inline")


def test_the_confirmation_plays_enough_games_for_half_band_intervals_unless_told() -> None:
    spec = spec_of()
    # At 800 games the row's 95% interval is 0.06 wide against a band 0.06 wide: a 0.03-wide interval at the
    # joint level (2 rows over the confirmed variants: 97.5%) needs (0.06 * z97.5 / z95 / 0.03)^2 = 5.2 times
    # the games.
    results = {"trial-0001": Evaluation("trial-0001", 0.95, (_result(0.47, 0.53, (0.47, 0.53)),))}
    factor = ((0.53 - 0.47) * z_for_confidence(0.975) / Z95 / ((0.53 - 0.47) / 2)) ** 2
    assert confirmation_games(spec, results, {"trial-0001": 800}, 2) == math.ceil(800 * factor)
    # Never more than 20 times the top rung; never fewer than the top rung.
    wide = {"trial-0001": Evaluation("trial-0001", 0.95, (_result(0.2, 0.8, (0.47, 0.53)),))}
    assert confirmation_games(spec, wide, {"trial-0001": 800}, 1) == 16000
    one_sided = {"trial-0001": Evaluation("trial-0001", 0.95, (_result(0.2, 0.8, (-math.inf, 0.53)),))}
    assert confirmation_games(spec, one_sided, {"trial-0001": 800}, 1) == 800
    assert confirmation_games(spec_of(games=1234), results, {"trial-0001": 800}, 2) == 1234
    # A candidate that stopped at 200 games is scaled from its own 200 (its interval twice as wide).
    at_200 = {"trial-0002": Evaluation("trial-0002", 0.95, (_result(0.44, 0.56, (0.47, 0.53)),))}
    assert confirmation_games(spec, {**results, **at_200}, {"trial-0001": 800, "trial-0002": 200}, 2) == (
        math.ceil(800 * factor))


def test_a_promoted_candidate_keeps_its_shards_and_plays_only_new_ones() -> None:
    spec = spec_of()
    first = spec.experiment("t", 1, 800, {"trial-0001": {"rules.treasure_target": 25}},
                            {"baseline": 200, "trial-0001": 200}, "")
    later = spec.experiment("t", 1, 800, {"trial-0001": {"rules.treasure_target": 25}, "trial-0002": {}},
                            {"baseline": 200, "trial-0001": 800, "trial-0002": 200}, "")
    first_ids = {shard.id for shard in first.shards()}
    later_shards = later.shards()
    assert first_ids <= {shard.id for shard in later_shards}
    promoted = sorted((shard.start, shard.stop) for shard in later_shards if shard.variant == "trial-0001")
    # Shards of at most shard_size (default 5000) games, cut at the rung sizes 200 and 800.
    assert promoted == [(0, 200), (200, 800)]
    assert later.total_games == 1200
    assert later.sweep_values("trial-0001") == {"rules.treasure_target": 25}
    assert later.sweep_values("baseline") == {"rules.treasure_target": 20}
    assert later.paired_seeds and later.seed_variant("trial-0001") == "baseline"


@pytest.mark.parametrize("shard_size", [150, 1000])
def test_shards_never_cross_a_rung_or_exceed_the_shard_size(shard_size: int) -> None:
    raw = tomllib.loads(VALID)
    raw["shard_size"] = shard_size
    spec = parse_tuning_spec(raw, "inline")
    run = spec.experiment("t", 1, 800, {}, {"baseline": 800}, "")
    bounds = [(shard.start, shard.stop) for shard in run.shards()]
    assert bounds[0][0] == 0 and bounds[-1][1] == 800
    assert all(stop - start <= shard_size for start, stop in bounds)
    assert not any(start < 200 < stop for start, stop in bounds)
    assert sum(stop - start for start, stop in bounds) == 800


def confirmed_as(variant: str, miss: float, low: float, high: float, verdict: str,
                 confidence: float = 0.95) -> Evaluation:
    """A confirmation of one target whose miss is ``miss`` [``low``, ``high``] with ``verdict``."""
    result = TargetResult("few draws", "game_stats.draw_rate", 1.0, 1, "2 players", 0.02 + miss, 0.02 + low,
                          0.02 + high, -math.inf, 0.02, miss, low, high, verdict)
    return Evaluation(variant, confidence, (result,))


def test_a_change_is_not_the_answer_when_the_current_data_comes_closer() -> None:
    # The numbers of a real divvy search (12 trials, looks of 200 and 800 games, 6,509 fresh games):
    # no candidate meets the draw target, and the current data misses by less than either.
    spec = spec_of()
    current = Candidate(0, "baseline", {"rules.treasure_target": 20}, 0.0)
    chosen = [Candidate(10, "trial-0010", {"rules.treasure_target": 27}, 0.181),
              Candidate(3, "trial-0003", {"rules.treasure_target": 21}, 0.103)]
    confirmed = {"baseline": confirmed_as("baseline", 0.008576, 0.004031, 0.01395, "not met"),
                 "trial-0003": confirmed_as("trial-0003", 0.00919, 0.004594, 0.014615, "not met"),
                 "trial-0010": confirmed_as("trial-0010", 0.011341, 0.006569, 0.016938, "not met")}
    answer = choose_answer(spec, chosen, confirmed, current)
    assert (answer["variant"], answer["changes"], answer["all_met"]) == ("baseline", {}, False)
    assert answer_lines(answer)[0] == ("answer: keep the current data: no confirmed change comes closer to the "
                                       "targets; NOT every target is met with 95% confidence")


def test_the_current_data_is_the_answer_when_it_already_meets_every_target() -> None:
    spec = spec_of()
    current = Candidate(0, "baseline", {"rules.treasure_target": 20}, 0.0)
    chosen = [Candidate(3, "trial-0003", {"rules.treasure_target": 21}, 0.103)]
    confirmed = {"baseline": confirmed_as("baseline", 0.0, 0.0, 0.0, "met"),
                 "trial-0003": confirmed_as("trial-0003", 0.0, 0.0, 0.0, "met")}
    answer = choose_answer(spec, chosen, confirmed, current)
    assert answer["variant"] == "baseline" and answer["all_met"] and answer["within_noise"] == []
    assert answer_lines(answer)[:2] == ["answer: keep the current data: it already meets every target with 95% "
                                        "confidence", "        met: few draws (2 players): 2.00% [2.00%, 2.00%]; "
                                        "wanted at most 2.00%"]


def test_an_answer_that_misses_names_the_cheaper_candidates_within_noise_of_it() -> None:
    # divvy_tune's confirmation: trial 20 misses least, but trial 13 and the current data, both
    # cheaper, have confirmed miss intervals overlapping its own.
    spec = spec_of()
    current = Candidate(0, "baseline", {"rules.treasure_target": 20}, 0.0)
    chosen = [Candidate(20, "trial-0020", {"rules.treasure_target": 26}, 0.133),
              Candidate(13, "trial-0013", {"rules.treasure_target": 23}, 0.058)]
    confirmed = {"baseline": confirmed_as("baseline", 0.008567, 0.004, 0.013939, "not met"),
                 "trial-0013": confirmed_as("trial-0013", 0.005495, 0.001, 0.010606, "not met"),
                 "trial-0020": confirmed_as("trial-0020", 0.003959, 0.0, 0.008932, "undecided")}
    answer = choose_answer(spec, chosen, confirmed, current)
    assert answer["variant"] == "trial-0020"
    assert [other["variant"] for other in answer["within_noise"]] == ["baseline", "trial-0013"]
    lines = answer_lines(answer)
    assert lines[:3] == [
        "answer: the confirmed change that comes closest, below; NOT every target is met with 95% confidence",
        "  Rules: treasure target 20 -> 26",
        "  within noise: cheaper ones come as close within the confirmation's noise (the current data; Rules: "
        "treasure target 20 -> 23): that this change comes closer than they do is not shown"]
    # The optimiser's numbers come last, as detail.
    assert lines[-1] == ("  optimiser detail: trial 20 (trial-0020), change cost 0.133, miss 0.003959 [0, 0.008932] "
                         "(the targets' weighted distance from their bands)")


def test_the_answers_intervals_state_their_level_family_sample_and_unit() -> None:
    spec = spec_of()
    current = Candidate(0, "baseline", {"rules.treasure_target": 20}, 0.0)
    chosen = [Candidate(3, "trial-0003", {"rules.treasure_target": 21}, 0.103)]
    confirmed = {"baseline": confirmed_as("baseline", 0.01, 0.005, 0.015, "not met", 0.975),
                 "trial-0003": confirmed_as("trial-0003", 0.0, 0.0, 0.0, "met", 0.975)}
    answer = {**choose_answer(spec, chosen, confirmed, current), "games": 6511, "family": {"variants": 2, "rows": 2}}
    assert answer["change_words"] == ["Rules: treasure target 20 -> 21"]
    (intervals,) = [line for line in answer_lines(answer) if line.startswith("  confirmed on ")]
    assert intervals == (
        "  confirmed on 6,511 fresh games per player count; each interval at 97.50% so that all 2 target rows of "
        "the 2 confirmed variants (the current data included) hold together at 95% (Bonferroni: the answer is "
        "chosen among them); unit of evidence: the game (rates over seat-games clustered by game)")
