"""``cardlab run SPEC --dry-run``: what a run would play and how long it would take.

The estimate comes from a short calibration in this process: a few games of
every variant and player count go through the shard task's own work
(``workers.shard.run_shard``: rows, Arrow tables, the report's counts, the
Parquet files, into a temporary folder removed afterwards), giving
each group's games per second on one core (a card impact run's arms of one
kind timed on the first of them, ``timing_groups``). The shards are then laid out on
the workers in submission order, each to the first worker free, as the
runner's queue does, so a last shard running alone counts too. Ray's
start-up (a few seconds locally) is not included.
"""

from __future__ import annotations

import heapq
import tempfile
import time
from dataclasses import dataclass

from experiments.impact import parse_arm_variant
from experiments.spec import ExperimentSpec, Shard
from workers.shard import run_shard

GroupKey = tuple[str, int]
"""(variant, player count): the games of one group cost about the same."""


@dataclass(frozen=True)
class Estimate:
    """A run's plan and its expected duration."""

    shards: int
    games: int
    workers: int
    seconds: float
    games_per_second: dict[GroupKey, float]
    calibration_seconds: float


def calibrate(spec: ExperimentSpec, groups: list[GroupKey], seconds_per_group: float = 0.3,
              most_games: int = 2000, folder: str | None = None) -> dict[GroupKey, float]:
    """One-core games/s of each group: games from index 0 on, in doubling batches,
    until ``seconds_per_group`` is spent or ``most_games`` are played. The rate
    is the last (largest) batch's, whose fixed costs (configuring the game,
    opening the files) weigh least, as in a real shard of thousands of games.
    The shards are written into ``folder`` when given (the caller removes it; a
    tuning dry run times its judging on them), else into a temporary folder."""
    if folder is not None:
        return {(variant, n_players): _group_rate(spec, variant, n_players, folder, seconds_per_group, most_games)
                for variant, n_players in groups}
    with tempfile.TemporaryDirectory(prefix="cardlab-calibration-") as temporary:
        return calibrate(spec, groups, seconds_per_group, most_games, temporary)


def _group_rate(spec: ExperimentSpec, variant: str, n_players: int, folder: str, seconds_per_group: float,
                most_games: int) -> float:
    """``calibrate``'s rate of one group, its shards written under ``folder``."""
    games, spent, batch, rate = 0, 0.0, 4, 0.0
    run_shard(spec, Shard(variant, n_players, 0, 1), folder)  # imports and caches warm
    while spent < seconds_per_group and games < most_games:
        batch = min(batch, most_games - games)
        started = time.perf_counter()
        run_shard(spec, Shard(variant, n_players, games, games + batch), folder)
        seconds = time.perf_counter() - started
        rate = batch / seconds if seconds > 0 else float("inf")
        spent += seconds
        games += batch
        batch *= 2
    return rate


def expected_seconds(shards: list[Shard], games_per_second: dict[GroupKey, float], workers: int) -> float:
    """Wall seconds to play ``shards`` in order on ``workers`` workers, each shard
    taking its games / its group's rate and going to the first worker free."""
    free_at = [0.0] * max(1, workers)
    for shard in shards:
        start = heapq.heappop(free_at)
        heapq.heappush(free_at, start + shard.games / games_per_second[(shard.variant, shard.n_players)])
    return max(free_at)


@dataclass(frozen=True)
class CardCost:
    """What one card of a card impact run costs: the games of its arms and their seconds on one
    core, the median card's and the dearest (``card_costs``)."""

    cards: int
    median_games: int
    median_seconds: float
    most_games: int
    most_seconds: float


def card_costs(shards: list[Shard], games_per_second: dict[GroupKey, float]) -> CardCost | None:
    """Per card of a card impact run (its arms' shards summed: ``impact.<card>.<arm>``), the
    games and one-core seconds to play; None when ``shards`` hold no arm."""
    games: dict[str, int] = {}
    seconds: dict[str, float] = {}
    for shard in shards:
        arm = parse_arm_variant(shard.variant)
        if arm is not None:
            rate = games_per_second[(shard.variant, shard.n_players)]
            games[arm[0]] = games.get(arm[0], 0) + shard.games
            seconds[arm[0]] = seconds.get(arm[0], 0.0) + shard.games / rate
    if not games:
        return None
    by_seconds = sorted(games, key=lambda card: (seconds[card], card))
    median, dearest = by_seconds[(len(by_seconds) - 1) // 2], by_seconds[-1]
    return CardCost(len(games), games[median], seconds[median], games[dearest], seconds[dearest])


def timing_groups(groups: list[GroupKey]) -> dict[GroupKey, GroupKey]:
    """Each group -> the group whose calibration times it: itself, but the arms of a card impact
    run of one kind and player count (``experiments.impact``) are timed on the first of them.
    They play one game with one card changed, alike in cost; calibrated one by one, a hundred
    arms would leave each a few games, whose fixed costs (configuring, writing the files) made
    the estimate several times too long."""
    first: dict[tuple[str, int], GroupKey] = {}
    timed_by = {}
    for variant, n_players in groups:
        arm = parse_arm_variant(variant)
        key = (variant, n_players) if arm is None else first.setdefault((arm[1], n_players), (variant, n_players))
        timed_by[(variant, n_players)] = key
    return timed_by


def estimate_run(spec: ExperimentSpec, shards: list[Shard], workers: int) -> Estimate:
    """Calibrate on every group of ``shards`` and lay them out on ``workers``."""
    started = time.perf_counter()
    groups = list(dict.fromkeys((shard.variant, shard.n_players) for shard in shards))
    timed_by = timing_groups(groups)
    timed = list(dict.fromkeys(timed_by.values()))
    # Keep a dry run short even for a big sweep: about 3 s of calibration in all.
    measured = calibrate(spec, timed, seconds_per_group=max(0.05, min(0.3, 3.0 / max(1, len(timed)))))
    rates = {group: measured[timed_by[group]] for group in groups}
    return Estimate(
        shards=len(shards), games=sum(shard.games for shard in shards), workers=workers,
        seconds=expected_seconds(shards, rates, workers), games_per_second=rates,
        calibration_seconds=time.perf_counter() - started,
    )
