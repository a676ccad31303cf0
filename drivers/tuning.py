"""The balance search: ``cardlab tune SPEC``.

The driver asks a seeded Optuna sampler (ask-and-tell, two objectives: the
targets' miss, taken at the upper end of its 95% interval, and the change
cost, both minimised) for candidates, plays each
candidate as a variant of one experiment through the ordinary runner
(``drivers.run.run``: Ray shard tasks, local or on a cluster,
Parquet files, manifest, resume), on common random numbers (paired seeds:
every candidate plays the same deals), and judges it with the report's
metric views (``analytics.tuning``).

Noise is handled by successive halving (asynchronous, as ASHA): every
candidate gets a first look of ``search.games[0]`` games per player count;
after each batch, the best 1 in ``search.promote`` of the candidates looked
at on a rung (by Pareto layer of that miss against cost, then miss, then cost)
go on to the next rung's games, playing only the games they have not played
yet. The sampler is told each trial's first look. When the trial budget is
spent and nobody is promoted any more, the Pareto front of the candidates on
the highest rung is confirmed: the best ``confirm.candidates`` of it and the
current data are played again in their own experiment (``NAME-confirm``) on
fresh seeds, and every target is judged with joint intervals.

Everything the search decides depends only on the spec: the batch size is
the spec's (not the worker count), the sampler is re-created for each batch
with a seed derived from the spec's seed and the batch number, and the games
are deterministic; so 1 or 2 workers (or a stop and ``--resume``) give the
same trials. The optimiser's state (every told trial, with the sampler's
attributes) is written after each batch to ``_tuning/state.json``; a resumed
run rebuilds the study from it and continues with the next batch (shards of
an interrupted batch already on disk are kept by the runner's resume).
"""

from __future__ import annotations

import json
import math
import sys
import time
import warnings
from collections.abc import Callable, Mapping, Sequence
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
from experiments.spec import BASELINE, MAX_GAMES, first_difference
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
from workers.runner import RunError, RunOptions, first_missing

STATE_VERSION = 1


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

    def lines(self) -> list[str]:
        """A short human summary."""
        answer = self.answer
        lines = [f"tuning folder: {self.folder}",
                 f"trials: {self.trials} ({self.candidates} distinct candidates); games: {self.games_played:,} "
                 f"in {self.seconds:.1f} s on {self.workers} worker(s), {self.play_seconds:.1f} s of it playing "
                 "shards (the rest: Ray start-up, judging, the optimiser)"]
        if self.confirm_folder is not None:
            lines.append(f"confirmation: {self.confirm_folder}")
        lines.extend(answer_lines(answer))
        return lines


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


def finalists(candidates: Sequence[Candidate]) -> list[Candidate]:
    """The candidates of the highest rung that anyone reached, with a look there."""
    reached = [candidate for candidate in candidates if candidate.looks]
    if not reached:
        return []
    top = max(max(candidate.looks) for candidate in reached)
    return [candidate for candidate in reached
            if top in candidate.looks and candidate.looks[top].miss_high is not None]


def to_confirm(candidates: Sequence[Candidate], count: int) -> list[Candidate]:
    """The best ``count`` of the finalists' Pareto front, lowest miss first."""
    pool = finalists(candidates)
    if not pool:
        return []
    top = max(pool[0].looks)
    ranked = rank(pool, top)
    layers = pareto_layers([(objective(candidate, top), candidate.cost) for candidate in ranked])
    front = [candidate for candidate, layer in zip(ranked, layers, strict=True) if layer == 0]
    return front[:count]


def confirmation_games(spec: TuningSpec, results: Mapping[str, Evaluation], top_games: int,
                       rows: Mapping[str, int]) -> int:
    """Games per player count for the confirmation: ``confirm.games`` if given;
    else enough that each two-sided target row's joint interval is at most half
    its band wide, scaled from the interval widths seen at ``top_games``
    (width shrinks as 1/sqrt(games)); at least ``top_games``, at most
    ``CONFIRM_GAMES_CAP`` times it."""
    if spec.confirm.games is not None:
        return spec.confirm.games
    needed = float(top_games)
    for variant, evaluation in results.items():
        z = z_for_confidence(joint_confidence(spec.confirm.confidence, rows[variant]))
        for result in evaluation.targets:
            band = result.band_high - result.band_low
            width = result.high - result.low
            if math.isfinite(band) and band > 0 and math.isfinite(width) and width > 0:
                needed = max(needed, top_games * (width * z / Z95 / (band / 2)) ** 2)
    return int(min(math.ceil(needed), CONFIRM_GAMES_CAP * top_games, MAX_GAMES))


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
        self.play_seconds = 0.0
        self.workers = 0
        self.batches_played = 0

    # -- state

    def _state_path(self) -> ResultsPath:
        return self.root / TUNING_FOLDER / STATE_FILE

    def _new_state(self) -> dict[str, Any]:
        targets = [{"target": target.name, "metric": target.metric, "band": target.text, "weight": target.weight}
                   for target in self.spec.targets]
        return {"version": STATE_VERSION, "status": "searching", "batches": 0, "trials": [], "candidates": [],
                "duplicates": {}, "targets": targets, "confirmed": [], "confirm_games": None, "answer": None}

    def _status(self) -> str | None:
        """The saved state's status (``searching``, ``confirming``, ``finished``); None without a readable one."""
        try:
            status = json.loads(self._state_path().read_text()).get("status")
        except (OSError, ValueError, AttributeError):
            return None
        return status if isinstance(status, str) else None

    def _finished(self) -> bool:
        """True when the folder holds a search whose confirmation is done (state ``finished``)."""
        return self._status() == "finished"

    def _confirmation_is_ours(self) -> bool:
        """Whether the existing ``NAME-confirm`` folder is this search's own confirmation: the
        search's state says it got that far (``confirm`` saves ``confirming`` before its first game)."""
        return self._status() in ("confirming", "finished")

    def _save(self, state: Mapping[str, Any]) -> None:
        write_json_atomically(state, self._state_path())

    def prepare(self) -> dict[str, Any]:
        """Check or make the folders; return the state to continue from."""
        for folder in (self.root, self.confirm_root):
            holder = lock_holder(folder) or lock_holder(folder / TUNING_FOLDER)
            if holder is not None:
                raise TuningError(locked_message(folder, holder))
        if self.confirm_root.exists() and not self._confirmation_is_ours():
            # The confirmation plays into NAME-confirm with the runner's resume: another experiment's
            # shards there would be kept and mixed into the confirmed numbers, and --overwrite would
            # delete an experiment that this search never made.
            raise TuningError(f"{self.confirm_root}: holds an experiment that is not the confirmation of this "
                              f"search, which plays its confirmation there; move that experiment away or give "
                              f"the search another name (name in {self.spec.source})")
        if self.options.overwrite:
            for folder in (self.root, self.confirm_root):
                if folder.exists():
                    remove_tree(folder)
        elif self.root.exists() and not self.options.resume:
            if self._finished():
                raise TuningError(f"{self.root}: this search has finished; --resume prints its answer again "
                                  "(and writes it with --export) without playing, --overwrite starts again")
            if self._status() is None:
                # Not a search: --resume cannot finish it, and --overwrite would delete someone's experiment.
                raise TuningError(f"{self.root}: holds results that are not a balance search (no "
                                  f"{TUNING_FOLDER}/{STATE_FILE}); give the search another name (name in "
                                  f"{self.spec.source}), or --overwrite deletes those results")
            raise TuningError(f"{self.root}: results already exist; use --resume to finish them or --overwrite "
                              "to start again")
        spec_file = self.root / TUNING_FOLDER / TUNING_SPEC_FILE
        if self.root.exists() and self.options.resume:
            if not self._state_path().is_file():
                raise TuningError(f"{self._state_path()}: missing; this folder was not made by `cardlab tune`: give "
                                  f"the search another name (name in {self.spec.source})")
            stored = json.loads(spec_file.read_text())
            now = json.loads(json.dumps(self.spec.identity()))
            if stored != now:
                raise TuningError(f"{spec_file}: the stored tuning spec differs from {self.spec.source} "
                                  f"({first_difference(stored, now, 'when the search started')}); --resume needs "
                                  "the same spec (only the description may change)")
            state: dict[str, Any] = json.loads(self._state_path().read_text())
            return state
        write_json_atomically(self.spec.identity(), spec_file)
        state = self._new_state()
        self._save(state)
        return state

    # -- playing

    def _play(self, run_spec: TuningRunSpec, root: ResultsPath) -> None:
        """Play every shard of ``run_spec`` not yet on disk, through the ordinary runner."""
        root.mkdir(parents=True, exist_ok=True)
        write_json_atomically(run_spec.to_json_dict(), root / "spec.json")
        options = RunOptions(results_root=results_path(self.options.results_root), workers=self.options.workers,
                             address=self.options.address, resume=True, progress=False,
                             max_in_flight=self.options.max_in_flight)
        summary = run(run_spec, options)
        self.games_played += summary.games_played
        self.play_seconds += summary.seconds
        self.workers = summary.workers

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
        """A trial that asked for an already-evaluated point: no games of its own;
        it shares the original's first look (the sampler was told the same)."""
        row, _ = self._rows(original, None, batch, "search", 0, self.spec.search.games[0], self.spec.name,
                            duplicate_of=original.trial, trial=trial)
        first = original.looks.get(0)
        failed = first is None or first.miss is None
        return {**row, "miss": None if failed or first is None else first.miss,
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

    def search(self, state: dict[str, Any]) -> None:
        """Batches of asks and promotions until the budget is spent and nobody moves up."""
        import optuna

        spec = self.spec
        spaces = distributions(spec)
        study = rebuild_study(spec, state["trials"])
        candidates = [Candidate.from_json(data) for data in state["candidates"]]
        by_values = {_key(candidate.values): candidate for candidate in candidates}
        while True:
            batch = state["batches"]
            asked = len(state["trials"])
            count = min(spec.search.batch, spec.search.trials - asked)
            promoted = promotions(candidates, len(spec.search.games), spec.search.promote)
            if count <= 0 and not promoted:
                return
            for candidate in promoted:
                candidate.rung += 1
            study.sampler = make_sampler(spec, batch)
            if asked == 0 and spec.in_space(spec.current_values):
                study.enqueue_trial(params_of(spec, spec.current_values))
            new: list[tuple[Any, Candidate, int | None]] = []
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
                for _ in range(max(count, 0)):
                    trial = study.ask(spaces)
                    values = values_of(spec, trial.params)
                    original = by_values.get(_key(values))
                    if original is None:
                        variant = BASELINE if values == spec.current_values and trial.number == 0 else (
                            f"trial-{trial.number:04d}")
                        original = Candidate(trial.number, variant, values, spec.change_cost(values))
                        candidates.append(original)
                        by_values[_key(values)] = original
                        new.append((trial, original, None))
                    else:
                        new.append((trial, original, original.trial))
            looked_at = [candidate for candidate in candidates if candidate.rung not in candidate.looks]
            started = time.perf_counter()
            self._play(self._search_spec(candidates), self.root)
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
                first = candidate.looks.get(0)
                if first is None or first.miss_high is None:
                    study.tell(trial, state=optuna.trial.TrialState.FAIL)
                else:
                    study.tell(trial, [objective(candidate, 0), candidate.cost])
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
            self._say_batch(batch, new, promoted, candidates, time.perf_counter() - started)
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

    def _say_batch(self, batch: int, new: Sequence[tuple[Any, Candidate, int | None]],
                   promoted: Sequence[Candidate], candidates: Sequence[Candidate], seconds: float) -> None:
        best = rank(candidates, max((max(c.looks) for c in candidates if c.looks), default=0))
        leader = (f"; best so far: trial {best[0].trial}, miss at most "
                  f"{objective(best[0], max(best[0].looks)):.4f}, cost {best[0].cost:.3f}") if best else ""
        moved = ", ".join(f"{c.variant} to {self.spec.search.games[c.rung]:,}" for c in promoted) or "none"
        self.say(f"batch {batch}: {len(new)} trial(s) asked, promoted: {moved} ({seconds:.1f} s){leader}")

    def confirm(self, state: dict[str, Any]) -> None:
        """Play the best candidates and the current data on fresh seeds; judge every target jointly."""
        spec = self.spec
        candidates = [Candidate.from_json(data) for data in state["candidates"]]
        chosen = to_confirm(candidates, spec.confirm.candidates)
        if not chosen:
            raise TuningError(f"{spec.source}: no candidate could be judged (every look had a target without rows)")
        top = max(chosen[0].looks)
        top_games = spec.search.games[top]
        results = self._evaluate(self.root, [candidate.variant for candidate in chosen])
        rows = {variant: sum(result.rows for result in evaluation.targets) for variant, evaluation in results.items()}
        games = confirmation_games(spec, results, top_games, rows)
        state.update(status="confirming", confirmed=[candidate.variant for candidate in chosen], confirm_games=games)
        self._save(state)
        baseline = next((candidate for candidate in candidates if candidate.variant == BASELINE), None)
        reference = baseline or Candidate(-1, BASELINE, spec.current_values, 0.0)
        judged = [*chosen, *([] if reference in chosen else [reference])]
        changes = [candidate.variant for candidate in chosen if candidate.variant != BASELINE]
        self.say(f"confirming {', '.join(changes) + ' and ' if changes else ''}the current data (baseline) on "
                 f"{games:,} fresh games per player count")
        run_spec = spec.experiment(spec.confirm_name, spec.confirm_seed(), games,
                                   {candidate.variant: spec.changes(candidate.values) for candidate in judged},
                                   {candidate.variant: games for candidate in judged},
                                   f"cardlab tune {spec.source}: the best candidates and the current data "
                                   "on fresh seeds")
        self._play(run_spec, self.confirm_root)
        confirmed = self._evaluate(self.confirm_root, [candidate.variant for candidate in judged], jointly=True)
        trial_rows, target_rows = [], []
        for candidate in judged:
            row, targets = self._rows(candidate, confirmed[candidate.variant], state["batches"], "confirm", -1, games,
                                      spec.confirm_name)
            trial_rows.append(row)
            target_rows.extend(targets)
        self._write_batch(state["batches"], trial_rows, target_rows)
        state.update(status="finished", answer={**choose_answer(spec, chosen, confirmed, reference), "games": games})
        self._save(state)


def _key(values: Mapping[str, Any]) -> str:
    return json.dumps(values, sort_keys=True)


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

    The current data (``reference``, confirmed beside the candidates) competes too: a
    change is never the answer when the current data meets every target, or misses by no
    more than the change does. ``within_noise`` lists the cheaper judged candidates (the
    current data included) whose confirmed miss interval overlaps the answer's, when the
    answer does not meet every target: its lower miss over theirs may be the seeds' luck."""
    judged = [*chosen, *([reference] if reference is not None and reference not in chosen else [])]
    meeting = [candidate for candidate in judged if confirmed[candidate.variant].all_met]
    pool = meeting or [candidate for candidate in judged if not confirmed[candidate.variant].failed] or judged
    best = min(pool, key=lambda candidate: (candidate.cost if meeting else confirmed[candidate.variant].miss,
                                            confirmed[candidate.variant].miss, candidate.cost, candidate.trial))
    evaluation = confirmed[best.variant]
    within_noise = [] if evaluation.all_met or evaluation.failed else [
        {"trial": other.trial, "variant": other.variant, "cost": other.cost,
         "miss": confirmed[other.variant].miss, "miss_low": confirmed[other.variant].miss_low,
         "miss_high": confirmed[other.variant].miss_high}
        for other in sorted(judged, key=lambda candidate: (candidate.cost, candidate.trial))
        if other is not best and other.cost < best.cost and not confirmed[other.variant].failed
        and confirmed[other.variant].miss_low <= evaluation.miss_high]
    return {"trial": best.trial, "variant": best.variant, "values": best.values, "changes": spec.changes(best.values),
            "change": change_text(spec, best.values), "cost": best.cost, "all_met": evaluation.all_met,
            "miss": evaluation.miss, "miss_low": evaluation.miss_low, "miss_high": evaluation.miss_high,
            "confidence": evaluation.confidence, "within_noise": within_noise,
            "targets": [_finite(result.as_dict()) for result in evaluation.targets]}


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
        batches_played=run.batches_played, play_seconds=run.play_seconds)


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
