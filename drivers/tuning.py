"""The balance search: ``cardlab tune SPEC``.

The driver asks a seeded Optuna sampler (ask-and-tell, two objectives: the
targets' miss, taken at the upper end of its 95% interval, and the change
cost, both minimised) for candidates, plays each
candidate as a variant of one experiment through the ordinary runner
(``drivers.run.run``: Ray shard tasks, local or on a cluster,
Parquet files, manifest, resume), on common random numbers (paired seeds:
every candidate plays the same deals), and judges it with the report's
metric views (``analytics.tuning``).

**Each point once.** The trial budget (``search.trials``) counts distinct
points of the space. A space of at most that many points (finite: choices,
integer ranges, float ranges with a step) is played whole, in an order fixed
by the spec's seed with the current data first, instead of sampled. Otherwise
the sampler is asked; when it proposes a point already evaluated (or asked in
this batch), that ask reuses the point's result (the sampler is told it; no
games, no budget) and the sampler is asked again, up to ``REASKS`` times; then
the untried point nearest to its last proposal is taken (nearest by the summed
distance over the parameters, each as a share of its range, a changed choice
counting 1; ties to the cheaper change).

Noise is handled by successive halving (asynchronous, as ASHA): every
candidate gets a first look of ``search.games[0]`` games per player count;
after each batch, the best 1 in ``search.promote`` of the candidates looked
at on a rung (by Pareto layer of that miss against cost, then miss, then cost)
go on to the next rung's games, playing only the games they have not played
yet. The sampler is told each trial's first look. When the trial budget is
spent and nobody is promoted any more, the Pareto front of the candidates on
the highest rung is confirmed: the best ``confirm.candidates`` of it and the
current data are played again in their own experiment (``NAME-confirm``) on
fresh seeds, and every target is judged with intervals joint over every row
of every confirmed variant (``analytics.tuning.evaluate_jointly``), so that
the answer, the cheapest that meets every target, keeps its stated confidence
although it is chosen among them.

Everything the search decides depends only on the spec: the batch size is
the spec's (not the worker count), the sampler is re-created for each batch
with a seed derived from the spec's seed and the batch number, and the games
are deterministic; so 1 or 2 workers (or a stop and ``--resume``) give the
same trials. The optimiser's state (every told trial, with the sampler's
attributes) is written after each batch to ``_tuning/state.json``; a resumed
run rebuilds the study from it and continues with the next batch (shards of
an interrupted batch already on disk are kept by the runner's resume).

``plan_tuning`` is ``--dry-run``: the games each batch and the confirmation
will play, and the time they will take, from a short calibration in this
process (``workers.estimate``).
"""

from __future__ import annotations

import json
import math
import random
import sys
import tempfile
import time
import warnings
from collections import Counter
from collections.abc import Callable, Container, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyarrow as pa

from analytics.stats import Z95, z_for_confidence
from analytics.tuning import (
    NO_ROWS,
    STATE_FILE,
    TRIAL_TARGETS,
    TRIALS,
    TUNING_FOLDER,
    TUNING_SPEC_FILE,
    Evaluation,
    VariantsCatalog,
    answer_lines,
    check_targets,
    evaluate,
    evaluate_jointly,
    is_tuning_run,
    joint_confidence,
    pareto_layers,
    read_state,
    seen_words,
    use_confidence,
)
from dataset.location import ResultsPath, remove_tree, results_path
from dataset.storage import (
    ExperimentLockedError,
    acquire_lock,
    finished_shards,
    lock_holder,
    locked_message,
    release_lock,
    write_json_atomically,
    write_parquet_atomically,
)
from drivers.run import run
from experiments.spec import BASELINE, MAX_GAMES, Shard, first_difference
from experiments.tuning import (
    CATEGORICAL,
    CONFIRM_GAMES_CAP,
    FLOAT,
    INTEGER,
    TuningRunSpec,
    TuningSpec,
    experiment_toml,
    load_tuning_spec,
)
from simcore.seeding import derive_seed
from workers.estimate import calibrate, expected_seconds
from workers.runner import RunError, RunOptions, first_missing, start_ray

STATE_VERSION = 2
"""Version 2: the trial budget counts distinct points; repeated asks are free (version 1 counted them)."""


class TuningError(RunError):
    """A tuning run that cannot start or go on as asked (one line, shown to the user)."""


class UnjudgeableTargetError(TuningError):
    """A target without rows for every candidate of the first batch: a mistake in the spec,
    found by playing, after which the search's folder is removed as if never started."""


@dataclass
class Look:
    """A candidate's evaluation at one rung: its miss with interval (None: some target had no rows)."""

    miss: float | None
    miss_low: float | None
    miss_high: float | None


@dataclass
class Candidate:
    """One evaluated point of the search space (a trial that is not a duplicate)."""

    trial: int
    variant: str
    values: dict[str, Any]
    cost: float
    rung: int = 0
    looks: dict[int, Look] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The candidate as plain data for the state file."""
        return {"trial": self.trial, "variant": self.variant, "values": self.values, "cost": self.cost,
                "rung": self.rung, "looks": {str(rung): look.__dict__ for rung, look in self.looks.items()}}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Candidate:
        """The candidate of ``to_json``."""
        return cls(data["trial"], data["variant"], dict(data["values"]), data["cost"], data["rung"],
                   {int(rung): Look(**look) for rung, look in data["looks"].items()})


@dataclass
class TuningSummary:
    """What a tuning run did and found."""

    folder: ResultsPath
    confirm_folder: ResultsPath | None
    trials: int
    candidates: int
    games_played: int
    seconds: float
    workers: int
    answer: dict[str, Any]
    batches_played: int = 0
    play_seconds: float = 0.0
    space_points: int | None = None
    reasks: int = 0
    confirm_games_played: int = 0

    def lines(self) -> list[str]:
        """A short human summary: where, how much of the space was seen, games and time, the answer."""
        search_games = self.games_played - self.confirm_games_played
        return [f"tuning folder: {self.folder}",
                seen_words(self.candidates, self.space_points, self.reasks),
                f"games: {self.games_played:,} in {self.seconds:.1f} s on {self.workers} worker(s) ({search_games:,} "
                f"searching, {self.confirm_games_played:,} confirming; {self.play_seconds:.1f} s of it playing "
                "shards, the rest Ray start-up, judging and the optimiser)",
                *([f"confirmation: {self.confirm_folder}"] if self.confirm_folder is not None else []),
                *answer_lines(self.answer)]


# ------------------------------------------------------------------ the search space for Optuna


def distributions(spec: TuningSpec) -> dict[str, Any]:
    """Optuna distributions of the space; a choice is asked for by its index."""
    from optuna.distributions import CategoricalDistribution, FloatDistribution, IntDistribution

    found: dict[str, Any] = {}
    for dimension in spec.space:
        if dimension.kind == INTEGER:
            found[dimension.path] = IntDistribution(int(dimension.low), int(dimension.high),
                                                    step=int(dimension.step or 1))
        elif dimension.kind == FLOAT:
            found[dimension.path] = FloatDistribution(float(dimension.low), float(dimension.high),
                                                      step=dimension.step)
        else:
            found[dimension.path] = CategoricalDistribution(list(range(len(dimension.choices))))
    return found


def values_of(spec: TuningSpec, params: Mapping[str, Any]) -> dict[str, Any]:
    """Parameter values of Optuna's params (choices by index)."""
    values = {}
    for dimension in spec.space:
        raw = params[dimension.path]
        if dimension.kind == CATEGORICAL:
            values[dimension.path] = dimension.choices[int(raw)]
        elif dimension.kind == INTEGER:
            values[dimension.path] = int(raw)
        else:
            values[dimension.path] = float(raw)
    return values


def params_of(spec: TuningSpec, values: Mapping[str, Any]) -> dict[str, Any]:
    """Optuna's params of parameter values (the inverse of ``values_of``)."""
    return {dimension.path: (dimension.choices.index(values[dimension.path]) if dimension.kind == CATEGORICAL
                             else values[dimension.path]) for dimension in spec.space}


def make_sampler(spec: TuningSpec, batch: int) -> Any:
    """The batch's sampler, seeded by the spec's seed and the batch number (so a
    resumed run asks what an uninterrupted one would)."""
    import optuna

    seed = derive_seed("tuning sampler", spec.base.seed, batch) % 2**32
    if spec.search.sampler == "nsga2":
        return optuna.samplers.NSGAIISampler(seed=seed, population_size=max(2, spec.search.batch))
    if spec.search.sampler == "random":
        return optuna.samplers.RandomSampler(seed=seed)
    with warnings.catch_warnings():
        # Multivariate TPE (which models the parameters jointly) is marked experimental.
        warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
        return optuna.samplers.TPESampler(seed=seed, multivariate=True, constant_liar=True)


def rebuild_study(spec: TuningSpec, records: Sequence[Mapping[str, Any]]) -> Any:
    """An in-memory two-objective study holding the told trials of ``records``."""
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    study = optuna.create_study(directions=["minimize", "minimize"], sampler=make_sampler(spec, 0))
    spaces = distributions(spec)
    for record in records:
        state = optuna.trial.TrialState[record["state"]]
        study.add_trial(optuna.trial.create_trial(
            state=state, values=record["values"] if state == optuna.trial.TrialState.COMPLETE else None,
            params=record["params"], distributions=spaces, system_attrs=record["system_attrs"],
            user_attrs=record["user_attrs"]))
    return study


def trial_record(trial: Any) -> dict[str, Any]:
    """A told trial as plain data (``rebuild_study`` reads it back)."""
    return {"number": trial.number, "state": trial.state.name, "params": dict(trial.params),
            "values": list(trial.values) if trial.values is not None else None,
            "system_attrs": dict(trial.system_attrs), "user_attrs": dict(trial.user_attrs)}


# ------------------------------------------------------------------ each point once


REASKS = 8
"""Asks of the sampler per new point before the untried point nearest its last proposal is taken."""
NEAREST_SCAN_LIMIT = 200_000
"""Spaces up to this many points are scanned whole for the nearest untried point; larger
ones look among the points one parameter away (where, in so large a space, one is untried)."""


def point_key(values: Mapping[str, Any]) -> str:
    """A point of the space as a dictionary key."""
    return json.dumps(values, sort_keys=True)


def grid_order(spec: TuningSpec) -> list[dict[str, Any]]:
    """The order in which a space played whole (``TuningSpec.plays_grid``) is played: the
    current data first (when it is a point of the space), then the rest shuffled by the
    spec's seed, so that every batch holds points from all over the space and successive
    halving's early promotions are not made among neighbours only."""
    current = spec.current_values
    rest = [point for point in spec.grid() if point != current]
    random.Random(derive_seed("tuning grid order", spec.base.seed)).shuffle(rest)
    return [*([current] if spec.in_space(current) else []), *rest]


def point_distance(spec: TuningSpec, a: Mapping[str, Any], b: Mapping[str, Any]) -> float:
    """How far apart two points are: over the parameters, a range's difference as a share
    of the range, 1 for a changed choice."""
    total = 0.0
    for dimension in spec.space:
        x, y = a[dimension.path], b[dimension.path]
        if dimension.kind == CATEGORICAL:
            total += 0.0 if x == y else 1.0
        else:
            total += abs(float(x) - float(y)) / dimension.span
    return total


def nearest_untried(spec: TuningSpec, proposal: Mapping[str, Any], tried: Container[str]) -> dict[str, Any] | None:
    """The untried point nearest to ``proposal`` (``point_distance``; ties: the cheaper
    change, then grid order); None when the space is infinite or none is found."""
    size = spec.space_size
    if size is None:
        return None
    if size <= NEAREST_SCAN_LIMIT:
        pool: Iterable[dict[str, Any]] = spec.grid()
    else:
        pool = ({**proposal, dimension.path: value} for dimension in spec.space
                for value in dimension.grid_values() or () if value != proposal[dimension.path])
    best: tuple[float, float, int] | None = None
    found = None
    for index, point in enumerate(pool):
        if point_key(point) in tried:
            continue
        rank_key = (point_distance(spec, proposal, point), spec.change_cost(point), index)
        if best is None or rank_key < best:
            best, found = rank_key, point
    return found


# ------------------------------------------------------------------ successive halving


def objective(candidate: Candidate, rung: int) -> float:
    """The miss the search minimises: the upper end of the candidate's miss
    interval on ``rung`` (infinite for a failed look). Pessimistic on purpose:
    a candidate whose values sit just inside a band edge has a point miss of 0
    but cannot be confirmed; the upper end prefers values well inside the bands,
    and on common seeds every candidate of a rung carries the same noise."""
    miss = candidate.looks[rung].miss_high
    return math.inf if miss is None else miss


def rank(candidates: Sequence[Candidate], rung: int) -> list[Candidate]:
    """Candidates looked at on ``rung``, best first: Pareto layer of (objective,
    cost), then objective, then cost, then trial number. Failed looks are left out."""
    pool = [candidate for candidate in candidates
            if rung in candidate.looks and candidate.looks[rung].miss_high is not None]
    layers = pareto_layers([(objective(candidate, rung), candidate.cost) for candidate in pool])
    order = sorted(range(len(pool)), key=lambda index: (
        layers[index], objective(pool[index], rung), pool[index].cost, pool[index].trial))
    return [pool[index] for index in order]


def promotions(candidates: Sequence[Candidate], rungs: int, promote: int) -> list[Candidate]:
    """Who goes on to the next rung now: on every rung but the last, of the
    candidates looked at there, the best ``len // promote`` that are still there."""
    chosen: list[Candidate] = []
    for rung in range(rungs - 1):
        ranked = rank(candidates, rung)
        chosen.extend(candidate for candidate in ranked[:len(ranked) // promote] if candidate.rung == rung)
    return chosen


def to_confirm(candidates: Sequence[Candidate], count: int) -> list[Candidate]:
    """The ``count`` candidates to confirm: the Pareto front of those whose last look is on
    the highest rung reached; when it holds fewer, the front of those that stopped one rung
    lower, and so on (a small search may take one candidate to its top rung). Within a
    front: first those whose look puts every target's value in its band (point miss 0),
    cheapest first, since the answer is the cheapest confirmed candidate that meets every
    target; then the others, lowest miss first (if none meets, the answer is the closest).
    The current data is left out: it is confirmed beside them whatever they are."""
    reached = [candidate for candidate in candidates if candidate.looks and candidate.variant != BASELINE]
    chosen: list[Candidate] = []
    for rung in range(max((max(candidate.looks) for candidate in reached), default=-1), -1, -1):
        stopped = [candidate for candidate in reached if max(candidate.looks) == rung]
        ranked = rank(stopped, rung)
        layers = pareto_layers([(objective(candidate, rung), candidate.cost) for candidate in ranked])
        front = [candidate for candidate, layer in zip(ranked, layers, strict=True) if layer == 0]

        def order(candidate: Candidate, rung: int = rung) -> tuple[bool, float, float, int]:
            inside = candidate.looks[rung].miss == 0
            return (not inside, candidate.cost if inside else objective(candidate, rung), objective(candidate, rung),
                    candidate.trial)

        chosen.extend(sorted(front, key=order)[:count - len(chosen)])
        if len(chosen) >= count:
            break
    return chosen


def half_band_games(results: Mapping[str, Evaluation], games: int, rows: int, confidence: float) -> float:
    """Games per player count at which every two-sided target row of ``results`` has a joint
    interval (joint over ``rows`` target rows at ``confidence``) at most half its band wide,
    scaled from the 95% interval widths seen at ``games`` (width shrinks as 1/sqrt(games))."""
    needed = 0.0
    z = z_for_confidence(joint_confidence(confidence, rows))
    for evaluation in results.values():
        for result in evaluation.targets:
            band = result.band_high - result.band_low
            width = result.high - result.low
            if math.isfinite(band) and band > 0 and math.isfinite(width) and width > 0:
                needed = max(needed, games * (width * z / Z95 / (band / 2)) ** 2)
    return needed


def confirmation_games(spec: TuningSpec, results: Mapping[str, Evaluation], games: Mapping[str, int],
                       rows: int) -> int:
    """Games per player count for the confirmation: ``confirm.games`` if given;
    else enough that each two-sided target row's joint interval (joint over the
    ``rows`` target rows of every confirmed variant) is at most half its band wide
    (``half_band_games``, from each candidate's looks on its ``games``); at least the
    most any of them played, at most ``CONFIRM_GAMES_CAP`` times it."""
    if spec.confirm.games is not None:
        return spec.confirm.games
    top = max(games.values())
    needed = max([float(top), *(half_band_games({variant: evaluation}, games[variant], rows, spec.confirm.confidence)
                                for variant, evaluation in results.items())])
    return int(min(math.ceil(needed), CONFIRM_GAMES_CAP * top, MAX_GAMES))


# ------------------------------------------------------------------ the plan (--dry-run)


RAY_START_SECONDS = 12.0
"""Ray's start-up in a dry run's estimate: the median of nine local starts on this project's
2-core machines ("Ray ready in" 9.9-16.8 s, the machine shared at load 7-11); an idle machine
starts it sooner, joining a running cluster takes less."""


@dataclass(frozen=True)
class BatchPlan:
    """One planned batch: new points, promotions, and its shards (one group: the games'
    speed is calibrated per player count, not per candidate)."""

    new: int
    promoted: int
    shards: tuple[Shard, ...]

    @property
    def games(self) -> int:
        """Games the batch plays, over its player counts."""
        return sum(shard.games for shard in self.shards)


@dataclass(frozen=True)
class SearchPlan:
    """What a search will play: its points, its batches, and the confirmation's variants and games
    (``confirm_games``: the spec's, or None when the confirmation sizes itself after the search
    between ``confirm_range``)."""

    points: int
    batches: tuple[BatchPlan, ...]
    promoted: tuple[int, ...]
    confirm_variants: int
    confirm_games: int | None
    confirm_range: tuple[int, int]

    def confirm_estimate(self, needed: float) -> int:
        """The confirmation's games per player count: the spec's, else ``needed`` (the games for
        half-band intervals, as ``confirmation_games`` will size them) within ``confirm_range``."""
        if self.confirm_games is not None:
            return self.confirm_games
        low, high = self.confirm_range
        return int(min(max(math.ceil(needed), low), high))

    @property
    def search_games(self) -> int:
        """Games of the search, over its player counts."""
        return sum(batch.games for batch in self.batches)


PLAN_VARIANT = "plan"
"""The variant name of a planned shard (every candidate plays at the calibrated speed)."""


def _rung_shards(spec: TuningSpec, rung: int) -> list[Shard]:
    """The shards a candidate plays on reaching ``rung``: the games beyond the rung below,
    at most ``shard_size`` each, per player count (as ``TuningRunSpec.shards`` cuts them)."""
    start = spec.search.games[rung - 1] if rung else 0
    stop = spec.search.games[rung]
    return [Shard(PLAN_VARIANT, n_players, begin, min(begin + spec.base.shard_size, stop))
            for begin in range(start, stop, spec.base.shard_size) for n_players in spec.base.player_counts]


def search_plan(spec: TuningSpec) -> SearchPlan:
    """The batches the search will play, from the same loop as ``_Run.search`` with made-up
    looks (a seeded draw per candidate stands for its miss and cost): the number of points and
    first looks are exact; who is promoted depends on the real looks, how many hardly does."""
    draw = random.Random(derive_seed("tuning plan", spec.base.seed))
    size = spec.space_size
    limit = min(spec.search.trials, size if size is not None else spec.search.trials)
    rungs = len(spec.search.games)
    candidates: list[Candidate] = []
    batches: list[BatchPlan] = []
    while True:
        count = min(spec.search.batch, limit - len(candidates))
        promoted = promotions(candidates, rungs, spec.search.promote)
        if count <= 0 and not promoted:
            break
        shards: list[Shard] = []
        if not batches and not spec.in_space(spec.current_values):
            shards.extend(_rung_shards(spec, 0))  # the current data beside the candidates
        for candidate in promoted:
            candidate.rung += 1
            shards.extend(_rung_shards(spec, candidate.rung))
        for _ in range(max(count, 0)):
            quality, cost = draw.random(), draw.random()
            candidates.append(Candidate(len(candidates), PLAN_VARIANT, {"quality": quality}, cost))
            shards.extend(_rung_shards(spec, 0))
        for candidate in candidates:
            quality = candidate.values["quality"]
            candidate.looks.setdefault(candidate.rung, Look(quality, quality, quality))
        batches.append(BatchPlan(max(count, 0), len(promoted), tuple(shards)))
    reached = tuple(sum(1 for candidate in candidates if candidate.rung >= rung) for rung in range(1, rungs))
    top = spec.search.games[max((candidate.rung for candidate in candidates), default=0)]
    variants = min(spec.confirm.candidates, len(candidates)) + 1
    return SearchPlan(points=len(candidates), batches=tuple(batches), promoted=reached, confirm_variants=variants,
                      confirm_games=spec.confirm.games,
                      confirm_range=(top, min(CONFIRM_GAMES_CAP * top, MAX_GAMES)))


@dataclass(frozen=True)
class TuningPlan:
    """``cardlab tune --dry-run``: the plan, the calibrated speeds and the expected time."""

    spec: TuningSpec
    plan: SearchPlan
    workers: int | None
    games_per_second: dict[int, float]
    judge_seconds: float
    check_seconds: float
    confirm_games: int
    calibration_seconds: float

    def _play_seconds(self, shards: Sequence[Shard]) -> float:
        rates = {(PLAN_VARIANT, count): rate for count, rate in self.games_per_second.items()}
        return expected_seconds(list(shards), rates, self.workers or 1)

    @property
    def search_seconds(self) -> float:
        """Playing and judging every batch, one after the other (a batch waits for its last shard)."""
        return sum(self._play_seconds(batch.shards) + self.judge_seconds for batch in self.plan.batches)

    @property
    def confirm_seconds(self) -> float:
        """Playing and judging the confirmation."""
        shards = [Shard(PLAN_VARIANT, n_players, begin, min(begin + self.spec.base.shard_size, self.confirm_games))
                  for _ in range(self.plan.confirm_variants)
                  for begin in range(0, self.confirm_games, self.spec.base.shard_size)
                  for n_players in self.spec.base.player_counts]
        return self._play_seconds(shards) + self.judge_seconds

    @property
    def seconds(self) -> float:
        """The whole command: start-up, Ray, the search, the confirmation."""
        return self.check_seconds + RAY_START_SECONDS + self.search_seconds + self.confirm_seconds

    @property
    def games(self) -> int:
        """Games of the search and the confirmation."""
        confirm = self.plan.confirm_variants * self.confirm_games * len(self.spec.base.player_counts)
        return self.plan.search_games + confirm

    def lines(self) -> list[str]:
        """The dry run's report."""
        spec, plan = self.spec, self.plan
        counts = len(spec.base.player_counts)
        size = spec.space_size
        space = "infinite (a float range without a step)" if size is None else f"{size:,} points"
        how = ("the trial budget covers it: every point is played, none twice" if spec.plays_grid else
               f"the sampler proposes {plan.points:,} distinct points of it (the trial budget), none played twice")
        confirm_games = plan.confirm_variants * self.confirm_games * counts
        sized = ("" if plan.confirm_games is not None else
                 f"; sized after the search from the intervals it sees, here estimated from the calibration's games "
                 f"(at least {plan.confirm_range[0]:,}, at most {plan.confirm_range[1]:,}; confirm.games fixes it)")
        where = f"{self.workers} worker(s)" if self.workers else "one worker of the cluster (divide by its CPUs)"
        return [
            f"{spec.name}: {spec.game} at {', '.join(map(str, spec.base.player_counts))} players; the space: "
            f"{' x '.join(dimension.path for dimension in spec.space)} = {space}; {how}",
            f"search: {plan.points:,} first looks of {spec.search.games[0]:,} games per player count"
            + "".join(f", about {reached:,} promoted to {spec.search.games[rung + 1]:,}"
                      for rung, reached in enumerate(plan.promoted))
            + f": {plan.search_games:,} games in about {len(plan.batches)} batches",
            f"confirmation: {plan.confirm_variants} variants (the best candidates and the current data) x about "
            f"{self.confirm_games:,} fresh games x {counts} player count(s) = {confirm_games:,} games{sized}",
            *(f"  calibration: {n_players} players: {rate:,.0f} games/s on one core (the current data and the space's "
              "corners)" for n_players, rate in self.games_per_second.items()),
            f"expected: {self.games:,} games in about {self.seconds:,.0f} s on {where}: start-up "
            f"{self.check_seconds:.0f} s (reading the spec, checking its targets), Ray {RAY_START_SECONDS:.0f} s, "
            f"the search {self.search_seconds:,.0f} s (judging {self.judge_seconds:.1f} s of each batch), the "
            f"confirmation {self.confirm_seconds:,.0f} s",
        ]


def plan_tuning(spec: TuningSpec, workers: int | None, check_seconds: float = 0.0) -> TuningPlan:
    """``--dry-run``: the search's plan (``search_plan``) timed by a short calibration in this
    process: a few games of the current data and of the space's two corners per player count
    through the shard task's own work (``workers.estimate.calibrate``), then those games judged
    as a batch is (the time of a batch's judging; the current data's intervals, from which the
    confirmation's games are estimated as it will size them). Writes only into a temporary
    folder it removes."""
    started = time.perf_counter()
    corners = {"low": {dimension.path: (dimension.grid_values() or (dimension.low, dimension.high))[0]
                       for dimension in spec.space},
               "high": {dimension.path: (dimension.grid_values() or (dimension.low, dimension.high))[-1]
                        for dimension in spec.space}}
    variants = {name: spec.changes(values) for name, values in corners.items()}
    probe = spec.experiment(spec.name, spec.base.seed, 1, variants, {BASELINE: 1, **dict.fromkeys(variants, 1)},
                            "dry run")
    names = [variant.name for variant in probe.variants]
    groups = [(name, n_players) for name in names for n_players in spec.base.player_counts]
    plan = search_plan(spec)
    with tempfile.TemporaryDirectory(prefix="cardlab-tune-calibration-") as folder:
        rates = calibrate(probe, groups, seconds_per_group=max(0.05, min(0.3, 3.0 / len(groups))), folder=folder)
        catalog = VariantsCatalog()
        try:
            con = catalog.load(folder, names)
            evaluate(con, spec.targets, names)  # the views' first definition, once a run too
            judged = time.perf_counter()
            results = evaluate(catalog.load(folder, names), spec.targets, names)
            judge_seconds = time.perf_counter() - judged
            (played,) = con.execute("SELECT count(*) FROM games WHERE variant = 'baseline'").fetchone() or (1,)
        finally:
            catalog.close()
    current = {BASELINE: results[BASELINE]}
    rows = sum(result.rows for result in results[BASELINE].targets) * plan.confirm_variants
    needed = half_band_games(current, max(1, played // len(spec.base.player_counts)), rows, spec.confirm.confidence)
    # A group's time per game, averaged over the current data and the corners: games/s per player count.
    per_count = {n_players: len(names) / sum(1 / rates[(name, n_players)] for name in names)
                 for n_players in spec.base.player_counts}
    return TuningPlan(spec, plan, workers, per_count, judge_seconds, check_seconds, plan.confirm_estimate(needed),
                      time.perf_counter() - started)


# ------------------------------------------------------------------ the run


class _Run:
    """One ``cardlab tune`` invocation (see the module docstring)."""

    def __init__(self, spec: TuningSpec, options: RunOptions, say: Callable[[str], None],
                 on_batch: Callable[[int], None] | None) -> None:
        self.spec = spec
        self.options = options
        self.say = say
        self.on_batch = on_batch
        self.root = results_path(options.results_root) / spec.name
        self.confirm_root = results_path(options.results_root) / spec.confirm_name
        self.catalog = VariantsCatalog()
        self.games_played = 0
        self.confirm_games_played = 0
        self.play_seconds = 0.0
        self.workers = 0
        self.batches_played = 0
        self.ray_ready = False

    # -- state

    def _state_path(self) -> ResultsPath:
        return self.root / TUNING_FOLDER / STATE_FILE

    def _new_state(self) -> dict[str, Any]:
        targets = [{"target": target.name, "metric": target.metric, "band": target.text, "weight": target.weight}
                   for target in self.spec.targets]
        return {"version": STATE_VERSION, "status": "searching", "batches": 0, "trials": [], "candidates": [],
                "duplicates": {}, "targets": targets, "confirmed": [], "confirm_games": None, "answer": None,
                "space": {"points": self.spec.space_size, "whole": self.spec.plays_grid}, "exhausted": False}

    def _save(self, state: Mapping[str, Any]) -> None:
        write_json_atomically(state, self._state_path())

    def prepare(self) -> dict[str, Any]:
        """Check or make the folders; return the state to continue from."""
        check_tuning_folders(self.spec, self.options)
        if self.options.overwrite:
            for folder in (self.root, self.confirm_root):
                if folder.exists():
                    remove_tree(folder)
        if self.root.exists() and self.options.resume:
            state: dict[str, Any] = json.loads(self._state_path().read_text())
            return state
        write_json_atomically(self.spec.identity(), self.root / TUNING_FOLDER / TUNING_SPEC_FILE)
        state = self._new_state()
        self._save(state)
        return state

    # -- playing

    def _start_ray(self) -> None:
        """Start or join Ray once, saying so before (it takes seconds) and after."""
        if not self.ray_ready:
            self.workers = start_ray(self.options, self.say)
            self.ray_ready = True

    def _play(self, run_spec: TuningRunSpec, root: ResultsPath, label: str) -> int:
        """Play every shard of ``run_spec`` not yet on disk, through the ordinary runner, with a
        line when it starts and one every ``STATUS_SECONDS`` while it plays; return the games played."""
        self._start_ray()
        root.mkdir(parents=True, exist_ok=True)
        write_json_atomically(run_spec.to_json_dict(), root / "spec.json")
        options = RunOptions(results_root=results_path(self.options.results_root), workers=self.options.workers,
                             address=self.options.address, resume=True, progress=False,
                             max_in_flight=self.options.max_in_flight)
        progress = _PlayTalk(self.say, label)
        summary = run(run_spec, options, on_start=progress.start, on_shard_done=progress.shard_done)
        self.games_played += summary.games_played
        self.play_seconds += summary.seconds
        self.workers = summary.workers
        return summary.games_played

    def _search_spec(self, candidates: Sequence[Candidate]) -> TuningRunSpec:
        variants = {candidate.variant: self.spec.changes(candidate.values) for candidate in candidates}
        games = {candidate.variant: self.spec.search.games[candidate.rung] for candidate in candidates}
        games.setdefault(BASELINE, self.spec.search.games[0])
        return self.spec.experiment(self.spec.name, self.spec.base.seed, self.spec.search.games[-1], variants, games,
                                    f"cardlab tune {self.spec.source}: every candidate of the search as a variant "
                                    "(paired seeds)")

    def _evaluate(self, root: ResultsPath, variants: Sequence[str], jointly: bool = False) -> dict[str, Evaluation]:
        con = self.catalog.load(root, variants)
        if jointly:
            return evaluate_jointly(con, self.spec.targets, variants, self.spec.confirm.confidence)
        use_confidence(con, 0.95)
        return evaluate(con, self.spec.targets, variants)

    # -- rows of the trials tables

    def _rows(self, candidate: Candidate, evaluation: Evaluation | None, batch: int, stage: str, rung: int,
              games: int, experiment: str, duplicate_of: int | None = None, trial: int | None = None
              ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        failed = evaluation is None or evaluation.failed
        row: dict[str, Any] = {
            "experiment": experiment, "trial": candidate.trial if trial is None else trial,
            "variant": candidate.variant, "batch": batch, "stage": stage, "rung": rung, "games": games,
            "changes": len(self.spec.changes(candidate.values)), "change": change_text(self.spec, candidate.values),
            "change_words": "; ".join(self.spec.change_words(candidate.values)),
            "cost": candidate.cost,
            "miss": None if failed or evaluation is None else evaluation.miss,
            "miss_low": None if failed or evaluation is None else evaluation.miss_low,
            "miss_high": None if failed or evaluation is None else evaluation.miss_high,
            "met": evaluation.count("met") if evaluation else 0,
            "not_met": evaluation.count("not met") if evaluation else 0,
            "undecided": evaluation.count("undecided") if evaluation else 0,
            "all_met": bool(evaluation and evaluation.all_met),
            "confidence": evaluation.confidence if evaluation else None,
            "duplicate_of": duplicate_of, "failed": failed,
            **candidate.values,
        }
        targets = []
        if evaluation is not None and duplicate_of is None:
            for result in evaluation.targets:
                targets.append({"experiment": experiment, "trial": row["trial"], "variant": candidate.variant,
                                "stage": stage, "rung": rung, "games": games, **_finite(result.as_dict()),
                                "confidence": evaluation.confidence})
        return row, targets

    def _duplicate_row(self, original: Candidate, trial: int, batch: int) -> dict[str, Any]:
        """An ask that repeated an already-asked point: no games of its own and no trial
        budget; it shares the original's first look (the sampler was told the same)."""
        row, _ = self._rows(original, None, batch, "search", 0, self.spec.search.games[0], self.spec.name,
                            duplicate_of=original.trial, trial=trial)
        first = original.looks.get(0)
        failed = first is None or first.miss is None
        return {**row, "games": 0, "miss": None if failed or first is None else first.miss,
                "miss_low": None if failed or first is None else first.miss_low,
                "miss_high": None if failed or first is None else first.miss_high,
                "met": None, "not_met": None, "undecided": None, "all_met": None, "failed": failed}

    def _write_batch(self, batch: int, rows: list[dict[str, Any]], targets: list[dict[str, Any]]) -> None:
        name = f"part-{batch:04d}.parquet"
        if rows:
            write_parquet_atomically(pa.Table.from_pylist(rows), self.root / TRIALS / name)
        if targets:
            write_parquet_atomically(pa.Table.from_pylist(targets), self.root / TRIAL_TARGETS / name)

    # -- the loop

    def _room(self, candidates: Sequence[Candidate], state: Mapping[str, Any]) -> int:
        """Distinct points still to evaluate: the budget, or what is left of a smaller space."""
        if state.get("exhausted"):
            return 0
        size = self.spec.space_size
        return min(self.spec.search.trials, self.spec.search.trials if size is None else size) - len(candidates)

    def _ask(self, study: Any, spaces: Mapping[str, Any], count: int, candidates: list[Candidate],
             by_values: dict[str, Candidate], state: dict[str, Any]) -> list[tuple[Any, Candidate, int | None]]:
        """``count`` new points (fewer when the sampler keeps repeating points of an infinite
        space): each ``(trial, candidate, None)``, and each ask that repeated an asked point
        as ``(trial, its original, original's trial)`` (see the module docstring)."""
        spec = self.spec
        asked: list[tuple[Any, Candidate, int | None]] = []
        whole = grid_order(spec) if spec.plays_grid else None
        for _ in range(count):
            values: dict[str, Any] | None
            if whole is not None:
                values = next(point for point in whole if point_key(point) not in by_values)
                trial = _ask_for(study, spaces, spec, values)
            else:
                if not candidates and spec.in_space(spec.current_values):
                    study.enqueue_trial(params_of(spec, spec.current_values))
                trial, values = None, None
                for _ in range(REASKS):
                    trial = study.ask(spaces)
                    values = values_of(spec, trial.params)
                    original = by_values.get(point_key(values))
                    if original is None:
                        break
                    asked.append((trial, original, original.trial))
                    trial = None
                if trial is None:
                    values = nearest_untried(spec, values or spec.current_values, by_values)
                    if values is None:
                        state["exhausted"] = True  # the sampler only repeats points of an infinite space
                        break
                    trial = _ask_for(study, spaces, spec, values)
            assert values is not None
            variant = BASELINE if values == spec.current_values and trial.number == 0 else f"trial-{trial.number:04d}"
            candidate = Candidate(trial.number, variant, values, spec.change_cost(values))
            candidates.append(candidate)
            by_values[point_key(values)] = candidate
            asked.append((trial, candidate, None))
        return asked

    def search(self, state: dict[str, Any]) -> None:
        """Batches of asks and promotions until the budget is spent and nobody moves up."""
        import optuna

        spec = self.spec
        spaces = distributions(spec)
        study = rebuild_study(spec, state["trials"])
        candidates = [Candidate.from_json(data) for data in state["candidates"]]
        by_values = {point_key(candidate.values): candidate for candidate in candidates}
        planned = len(search_plan(spec).batches)
        while True:
            batch = state["batches"]
            count = min(spec.search.batch, self._room(candidates, state))
            promoted = promotions(candidates, len(spec.search.games), spec.search.promote)
            if count <= 0 and not promoted:
                return
            for candidate in promoted:
                candidate.rung += 1
            study.sampler = make_sampler(spec, batch)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
                new = self._ask(study, spaces, max(count, 0), candidates, by_values, state)
            fresh = [candidate for _, candidate, duplicate_of in new if duplicate_of is None]
            if not fresh and not promoted:
                # Only repeats (an infinite space whose sampler keeps asking evaluated points).
                for trial, candidate, _ in new:
                    _tell(study, trial, candidate)
                state["trials"] = [trial_record(trial) for trial in study.get_trials(deepcopy=False)]
                self._save(state)
                continue
            looked_at = [candidate for candidate in candidates if candidate.rung not in candidate.looks]
            label = f"batch {batch + 1} of about {max(planned, batch + 1)}"
            self._start_ray()
            self.say(f"{label}: {_batch_words(spec, fresh, promoted, len(candidates))}")
            started = time.perf_counter()
            self._play(self._search_spec(candidates), self.root, label)
            results = self._evaluate(self.root, [candidate.variant for candidate in looked_at])
            if batch == 0:
                self._check_judgeable(results)
            rows: list[dict[str, Any]] = []
            targets: list[dict[str, Any]] = []
            for candidate in looked_at:
                evaluation = results[candidate.variant]
                candidate.looks[candidate.rung] = _look(evaluation)
                row, target_rows = self._rows(candidate, evaluation, batch, "search", candidate.rung,
                                              spec.search.games[candidate.rung], spec.name)
                rows.append(row)
                targets.extend(target_rows)
            for trial, candidate, duplicate_of in new:
                _tell(study, trial, candidate)
                if duplicate_of is not None:
                    rows.append(self._duplicate_row(candidate, trial.number, batch))
            self._write_batch(batch, rows, targets)
            state["trials"] = [trial_record(trial) for trial in study.get_trials(deepcopy=False)]
            state["candidates"] = [candidate.to_json() for candidate in candidates]
            state["duplicates"] = {str(trial.number): original for trial, _, original in new
                                   if original is not None} | state["duplicates"]
            state["batches"] = batch + 1
            self._save(state)
            self.batches_played += 1
            self._say_batch(label, candidates, time.perf_counter() - started)
            if self.on_batch is not None:
                self.on_batch(batch)

    def _check_judgeable(self, results: Mapping[str, Evaluation]) -> None:
        """Stop after the first batch when a target had no rows for any candidate: a ``where``
        value no game produces (``faction = 'Nobody'``) passes the spec's checks, which see
        one game, and would otherwise fail every look of the whole budget before saying so."""
        for index, target in enumerate(self.spec.targets):
            if results and all(any(result.target == target.name and result.verdict == NO_ROWS
                                   for result in evaluation.targets) for evaluation in results.values()):
                where = ", ".join(f"{column} = {value!r}" for column, value in target.where.items())
                raise UnjudgeableTargetError(
                    f"{self.spec.source}: targets[{index}]: no row of {target.view} "
                    f"{'where ' + where if where else ''} in the {self.spec.search.games[0]:,} games of any of "
                    f"the first batch's {len(results)} candidates; expected a where that some row has "
                    f"(see `cardlab sql` on {target.view})")

    def _say_batch(self, label: str, candidates: Sequence[Candidate], seconds: float) -> None:
        """The batch's end: its time and the leader in the designer's words (the optimiser's numbers after)."""
        top = max((max(candidate.looks) for candidate in candidates if candidate.looks), default=0)
        best = rank(candidates, top)
        if not best:
            self.say(f"{label} done in {seconds:.1f} s; no candidate could be judged yet")
            return
        leader = best[0]
        change = "; ".join(self.spec.change_words(leader.values)) or "the current data"
        self.say(f"{label} done in {seconds:.1f} s; leading after {self.spec.search.games[top]:,} games: {change} "
                 f"(trial {leader.trial}: miss at most {objective(leader, top):.4f}, change cost {leader.cost:.3f})")

    def confirm(self, state: dict[str, Any]) -> None:
        """Play the best candidates and the current data on fresh seeds; judge every target with
        intervals joint over every row of every confirmed variant."""
        spec = self.spec
        candidates = [Candidate.from_json(data) for data in state["candidates"]]
        chosen = to_confirm(candidates, spec.confirm.candidates)
        if not chosen:
            raise TuningError(f"{spec.source}: no candidate could be judged (every look had a target without rows)")
        baseline = next((candidate for candidate in candidates if candidate.variant == BASELINE), None)
        reference = baseline or Candidate(-1, BASELINE, spec.current_values, 0.0)
        judged = [*chosen, *([] if reference in chosen else [reference])]
        results = self._evaluate(self.root, [candidate.variant for candidate in chosen])
        # The rows the confirmation will judge: the chosen ones' (the current data has as many as one of them).
        rows = sum(result.rows for evaluation in results.values() for result in evaluation.targets)
        rows = math.ceil(rows * len(judged) / len(chosen))
        games = confirmation_games(spec, results, {candidate.variant: spec.search.games[max(candidate.looks)]
                                                   for candidate in chosen}, rows)
        state.update(status="confirming", confirmed=[candidate.variant for candidate in chosen], confirm_games=games)
        self._save(state)
        changes = [candidate for candidate in chosen if candidate.variant != BASELINE]
        label = "confirmation"
        self._start_ray()
        self.say(f"{label}: {len(changes)} candidate(s) and the current data on {games:,} fresh games per player "
                 f"count ({games * len(judged) * len(spec.base.player_counts):,} games)")
        run_spec = spec.experiment(spec.confirm_name, spec.confirm_seed(), games,
                                   {candidate.variant: spec.changes(candidate.values) for candidate in judged},
                                   {candidate.variant: games for candidate in judged},
                                   f"cardlab tune {spec.source}: the best candidates and the current data "
                                   "on fresh seeds")
        started = time.perf_counter()
        self.confirm_games_played += self._play(run_spec, self.confirm_root, label)
        confirmed = self._evaluate(self.confirm_root, [candidate.variant for candidate in judged], jointly=True)
        trial_rows, target_rows = [], []
        for candidate in judged:
            row, targets = self._rows(candidate, confirmed[candidate.variant], state["batches"], "confirm", -1, games,
                                      spec.confirm_name)
            trial_rows.append(row)
            target_rows.extend(targets)
        self._write_batch(state["batches"], trial_rows, target_rows)
        family = {"variants": len(judged),
                  "rows": sum(result.rows for evaluation in confirmed.values() for result in evaluation.targets)}
        state.update(status="finished", answer={**choose_answer(spec, chosen, confirmed, reference), "games": games,
                                                "family": family})
        self._save(state)
        self.say(f"{label} done in {time.perf_counter() - started:.1f} s")


class _PlayTalk:
    """The lines of one ``_play``: the games to play when it starts, then a status line at most
    every ``STATUS_SECONDS`` while shards finish (a long batch is never silent for long)."""

    def __init__(self, say: Callable[[str], None], label: str) -> None:
        self.say, self.label = say, label
        self.total = self.done = 0
        self.last = time.perf_counter()

    def start(self, todo: Sequence[Shard]) -> None:
        """The runner's ``on_start``: the shards about to be played."""
        self.total = sum(shard.games for shard in todo)
        self.last = time.perf_counter()
        if todo:
            self.say(f"{self.label}: playing {self.total:,} games in {len(todo):,} shard(s)")

    def shard_done(self, entry: Mapping[str, Any]) -> None:
        """The runner's ``on_shard_done``."""
        self.done += int(entry["stop"]) - int(entry["start"])
        now = time.perf_counter()
        if now - self.last >= STATUS_SECONDS and self.done < self.total:
            self.last = now
            self.say(f"{self.label}: {self.done:,} of {self.total:,} games ({self.done / self.total:.0%})")


STATUS_SECONDS = 10.0
"""Seconds between the status lines of a batch that is still playing."""


def _ask_for(study: Any, spaces: Mapping[str, Any], spec: TuningSpec, values: Mapping[str, Any]) -> Any:
    """A trial of the study for ``values`` (a point chosen here, not by the sampler)."""
    study.enqueue_trial(params_of(spec, values))
    return study.ask(spaces)


def _tell(study: Any, trial: Any, candidate: Candidate) -> None:
    """Tell the sampler a trial's result: its candidate's first look (failed: no rows)."""
    import optuna

    first = candidate.looks.get(0)
    if first is None or first.miss_high is None:
        study.tell(trial, state=optuna.trial.TrialState.FAIL)
    else:
        study.tell(trial, [objective(candidate, 0), candidate.cost])


def _batch_words(spec: TuningSpec, fresh: Sequence[Candidate], promoted: Sequence[Candidate], points: int) -> str:
    """What a batch plays: its new points (and how many of the budget are used) and promotions."""
    limit = min(spec.search.trials, spec.space_size or spec.search.trials)
    parts = []
    if fresh:
        parts.append(f"{len(fresh)} new point(s) ({points} of {limit}) at {spec.search.games[0]:,} games")
    if promoted:
        moved = Counter(candidate.rung for candidate in promoted)
        parts.append(", ".join(f"{count} promoted to {spec.search.games[rung]:,} games"
                               for rung, count in sorted(moved.items())))
    return "; ".join(parts)


def _look(evaluation: Evaluation) -> Look:
    if evaluation.failed:
        return Look(None, None, None)
    return Look(evaluation.miss, evaluation.miss_low, evaluation.miss_high)


def _finite(row: Mapping[str, Any]) -> dict[str, Any]:
    """Infinite band ends (one-sided targets) as nulls, which Parquet and JSON keep."""
    return {key: (None if isinstance(value, float) and not math.isfinite(value) else value)
            for key, value in row.items()}


def change_text(spec: TuningSpec, values: Mapping[str, Any]) -> str:
    """The change against the current data in words: ``path current -> new, ...``."""
    current = spec.current_values
    return ", ".join(f"{path} {json.dumps(current[path])} -> {json.dumps(value)}"
                     for path, value in spec.changes(values).items())


def choose_answer(spec: TuningSpec, chosen: Sequence[Candidate], confirmed: Mapping[str, Evaluation],
                  reference: Candidate | None = None) -> dict[str, Any]:
    """The cheapest confirmed candidate that meets every target; if none does, the
    one with the lowest confirmed miss. As plain data for the state file.

    ``confirmed`` holds intervals joint over every row of every confirmed variant
    (``evaluate_jointly``), so that "meets every target" keeps its confidence for the
    candidate chosen here among them. The current data (``reference``, confirmed beside
    the candidates) competes too: a change is never the answer when the current data
    meets every target, or misses by no more than the change does. ``within_noise`` lists
    the cheaper judged candidates (the current data included) whose confirmed miss interval
    overlaps the answer's, when the answer does not meet every target: its lower miss over
    theirs may be the seeds' luck."""
    judged = [*chosen, *([reference] if reference is not None and reference not in chosen else [])]
    meeting = [candidate for candidate in judged if confirmed[candidate.variant].all_met]
    pool = meeting or [candidate for candidate in judged if not confirmed[candidate.variant].failed] or judged
    best = min(pool, key=lambda candidate: (candidate.cost if meeting else confirmed[candidate.variant].miss,
                                            confirmed[candidate.variant].miss, candidate.cost, candidate.trial))
    evaluation = confirmed[best.variant]
    within_noise = [] if evaluation.all_met or evaluation.failed else [
        {"trial": other.trial, "variant": other.variant, "cost": other.cost,
         "change_words": spec.change_words(other.values),
         "miss": confirmed[other.variant].miss, "miss_low": confirmed[other.variant].miss_low,
         "miss_high": confirmed[other.variant].miss_high}
        for other in sorted(judged, key=lambda candidate: (candidate.cost, candidate.trial))
        if other is not best and other.cost < best.cost and not confirmed[other.variant].failed
        and confirmed[other.variant].miss_low <= evaluation.miss_high]
    return {"trial": best.trial, "variant": best.variant, "values": best.values, "changes": spec.changes(best.values),
            "change": change_text(spec, best.values), "change_words": spec.change_words(best.values),
            "cost": best.cost, "all_met": evaluation.all_met,
            "miss": evaluation.miss, "miss_low": evaluation.miss_low, "miss_high": evaluation.miss_high,
            "confidence": evaluation.confidence, "within_noise": within_noise,
            "targets": [_finite(result.as_dict()) for result in evaluation.targets]}


def check_tuning_folders(spec: TuningSpec, options: RunOptions) -> None:
    """Refuse, before anything is written or played, a search whose folders say no: a lock
    held, a ``NAME-confirm`` folder that is not this search's, results already there without
    ``--resume`` or ``--overwrite``, a ``--resume`` of another spec or of an older cardlab's
    unfinished search. Raises ``TuningError`` (one line)."""
    root = results_path(options.results_root) / spec.name
    confirm_root = results_path(options.results_root) / spec.confirm_name
    state_path = root / TUNING_FOLDER / STATE_FILE
    try:
        state = json.loads(state_path.read_text())
    except (OSError, ValueError):
        state = None
    status = state.get("status") if isinstance(state, dict) else None
    for folder in (root, confirm_root):
        holder = lock_holder(folder) or lock_holder(folder / TUNING_FOLDER)
        if holder is not None:
            raise TuningError(locked_message(folder, holder))
    if confirm_root.exists() and status not in ("confirming", "finished"):
        # The confirmation plays into NAME-confirm with the runner's resume: another experiment's
        # shards there would be kept and mixed into the confirmed numbers, and --overwrite would
        # delete an experiment that this search never made (``confirm`` saves ``confirming``
        # before its first game, so a search that got that far owns the folder).
        raise TuningError(f"{confirm_root}: holds an experiment that is not the confirmation of this "
                          f"search, which plays its confirmation there; move that experiment away or give "
                          f"the search another name (name in {spec.source})")
    if options.overwrite or not root.exists():
        return
    if not options.resume:
        if status == "finished":
            raise TuningError(f"{root}: this search has finished; --resume prints its answer again "
                              "(and writes it with --export) without playing, --overwrite starts again")
        if not isinstance(status, str):
            # Not a search: --resume cannot finish it, and --overwrite would delete someone's experiment.
            raise TuningError(f"{root}: holds results that are not a balance search (no "
                              f"{TUNING_FOLDER}/{STATE_FILE}); give the search another name (name in "
                              f"{spec.source}), or --overwrite deletes those results")
        raise TuningError(f"{root}: results already exist; use --resume to finish them or --overwrite "
                          "to start again")
    if not state_path.is_file():
        raise TuningError(f"{state_path}: missing; this folder was not made by `cardlab tune`: give "
                          f"the search another name (name in {spec.source})")
    spec_file = root / TUNING_FOLDER / TUNING_SPEC_FILE
    stored = json.loads(spec_file.read_text())
    now = json.loads(json.dumps(spec.identity()))
    if stored != now:
        raise TuningError(f"{spec_file}: the stored tuning spec differs from {spec.source} "
                          f"({first_difference(stored, now, 'when the search started')}); --resume needs "
                          "the same spec and the same --trials and --games (only the description may change)")
    if isinstance(state, dict) and state.get("version") != STATE_VERSION and status != "finished":
        # An older search counted repeated asks against the budget: going on would mix two rules.
        raise TuningError(f"{state_path}: a search stopped by an older cardlab (state version "
                          f"{state.get('version')}, now {STATE_VERSION}); --overwrite starts it again")


def load_checked_tuning_spec(path: str | Path) -> TuningSpec:
    """Read a tuning spec file and check its targets against the metric views of its game
    (``analytics.tuning.check_targets``: one game per player count, in this process), so
    that a mistake is refused before the search starts; raises ``TuningSpecError``."""
    spec = load_tuning_spec(path)
    check_targets(spec)
    return spec


def run_tuning(spec: TuningSpec, options: RunOptions, say: Callable[[str], None] | None = None,
               on_batch: Callable[[int], None] | None = None) -> TuningSummary:
    """Search, confirm and answer (see the module docstring); ``say`` receives a line
    per batch (default: stderr), ``on_batch`` each finished batch's number.

    Holds ``<results>/<name>/_tuning/.lock`` for the whole run, so a second
    ``cardlab tune`` of the same spec refuses instead of mixing candidates."""
    run = _Run(spec, options, say or (lambda line: print(line, file=sys.stderr, flush=True)), on_batch)
    created = first_missing(run.root)
    state = run.prepare()
    lock_folder = run.root / TUNING_FOLDER
    try:
        acquire_lock(lock_folder)
    except ExperimentLockedError as error:
        raise TuningError(str(error)) from None
    started = time.perf_counter()
    try:
        try:
            if state["status"] == "searching":
                run.search(state)
            if state["status"] in ("searching", "confirming"):
                run.confirm(state)
        finally:
            run.catalog.close()
            release_lock(lock_folder)
    except BaseException as error:
        # A search that ends before its first shard (a cluster that does not answer, Ctrl-C while
        # Ray starts) leaves nothing behind, as `cardlab run` does: else its spec and state would
        # make the next attempt ask for --resume or --overwrite of a search that never played.
        # Nor does a spec mistake found in the first batch: its games answer nothing.
        if created is not None and (isinstance(error, UnjudgeableTargetError) or not finished_shards(run.root)):
            remove_tree(created)
        raise
    return TuningSummary(
        folder=run.root, confirm_folder=run.confirm_root if run.confirm_root.exists() else None,
        trials=len(state["trials"]), candidates=len(state["candidates"]), games_played=run.games_played,
        seconds=time.perf_counter() - started, workers=run.workers, answer=state["answer"] or {},
        batches_played=run.batches_played, play_seconds=run.play_seconds,
        space_points=(state.get("space") or {}).get("points", spec.space_size), reasks=len(state["duplicates"]),
        confirm_games_played=run.confirm_games_played)


def export_candidate(spec: TuningSpec, folder: ResultsPath, trial: int | None = None) -> str:
    """An experiment file playing the answer's change (or trial ``trial``'s) as the
    variant ``tuned`` against the current data on paired seeds (``--export``)."""
    if not is_tuning_run(folder):
        raise TuningError(f"{folder}: no tuning run here; run `cardlab tune {spec.source}` first")
    state = read_state(folder)
    answer = state.get("answer") or {}
    if trial is None:
        if not answer:
            raise TuningError(f"{folder}: the search is not confirmed yet, so there is no answer to export; "
                              "finish it with --resume, or choose a candidate with --trial N")
        values, chosen = answer["values"], answer["trial"]
        verdict = ("it meets every target with 95% confidence" if answer["all_met"] else
                   "it is the closest confirmed candidate but does NOT meet every target with 95% confidence")
    else:
        original = state.get("duplicates", {}).get(str(trial), trial)
        found = [data for data in state["candidates"] if data["trial"] == original]
        if not found:
            known = ", ".join(str(data["trial"]) for data in state["candidates"])
            raise TuningError(f"--trial: {spec.name} has no evaluated trial {trial}; expected one of {known}")
        values, chosen = found[0]["values"], trial
        verdict = ("confirmed: " + ("every target met" if answer.get("all_met") else "not every target met")
                   if answer.get("trial") == original else "not the confirmed answer; see cardlab report "
                   f"{spec.name} --sections tuning")
    games = state.get("confirm_games") or spec.search.games[-1]
    comments = [f"Exported by cardlab tune {spec.source}: trial {chosen}, change cost {spec.change_cost(values):.3f};",
                f"{verdict}.", f"Change: {change_text(spec, values) or '(none: the current data)'}",
                "Paste [variants.tuned] into another experiment, or run this file with cardlab run.",
                "Its seed is fresh: the search chose this change on its own seeds' deals, where it looks better "
                "than it is."]
    return experiment_toml(spec, f"{spec.name}_tuned", "tuned", spec.changes(values), games, comments,
                           seed=spec.export_seed())
