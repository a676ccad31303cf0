"""Tuning runs, the read side: targets against the metric views, misses with
intervals, the Pareto front of miss against change cost, and the tables of
a tuning run (``cardlab tune``) for the report and the dashboard.

**Targets.** A target (``experiments.tuning.Target``) names a metric view
column (``faction_stats.win_rate``) and a band. For every row of the view
that its ``where`` keeps (per variant), the *miss* is how far the value lies
outside the band (0 inside); the target's miss is the largest over its rows,
and a candidate's miss the weighted sum over targets. Each miss carries an
interval: a row's value interval ``[low, high]`` gives the miss interval
``[distance from the band of the nearest point of [low, high], largest miss
of the two ends]``; a target takes the largest low and high over its rows,
the candidate the weighted sums (conservative, not a joint interval).

Which interval: a column ``x`` with ``x_low`` and ``x_high`` in the view
(the Wilson interval of a rate, the first-seat advantage's) uses those; a
mean ``mean_x`` with ``sd_x`` and ``games`` in the view uses the normal
interval ``mean ± z·sd/√games``. Any other column has no interval and cannot
be a target.

**Verdicts.** A row is *met* when its whole interval lies in the band, *not
met* when its whole interval lies outside, *undecided* otherwise; a target
is met when every row is, not met when some row is not. At confirmation the
intervals are joint over everything confirmed: with ``m`` target rows over
all targets of all the confirmed candidates (the current data included),
every interval is taken at confidence ``1 − (1 − 0.95)/m`` (Bonferroni), so
that all of them hold together at 95%. "Met with 95% confidence" then holds
for the answer even though the answer is chosen among the confirmed
candidates (the cheapest that meets every target): a verdict that is wrong
for any of them needs one of the ``m`` intervals to miss its true value.
The Wilson intervals are recomputed exactly at that level (the views'
Wilson macros are redefined with its ``z`` on the evaluating connection,
``use_confidence``).

**Tables of a tuning run** (in the experiment folder beside ``games``,
``players``, ``cards``): ``trials/part-<batch>.parquet``, one row per
evaluation of a candidate (a trial at one successive-halving rung, or its
confirmation), with the searched parameters as columns named by their
paths; ``trial_targets/part-<batch>.parquet``, one row per evaluation and
target; ``_tuning/state.json``, the optimiser's state (see
``drivers.tuning``). ``tuning_tables`` builds the report's tables from them.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import duckdb
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq

from analytics.base_views import create_base_views
from analytics.explore import SEARCH_STATE
from analytics.folders import experiment_files
from analytics.metrics import probe_connection
from analytics.stats import NORMAL_Z_SQL, WILSON_HIGH_SQL, WILSON_LOW_SQL, Z95, register_sql_macros, z_for_confidence
from analytics.views import METRIC_VIEWS, refresh_materialized_views, register_metric_views
from dataset.location import ResultsPath, results_path, sorted_glob
from dataset.quoting import sql_identifier, sql_string
from experiments.spec import BASELINE
from experiments.tuning import CONFIRM_SUFFIX, Target, TuningSpec, TuningSpecError, metric_range

TUNING_FOLDER, STATE_FILE = SEARCH_STATE  # where the search keeps its state (the experiments overview reads it)
TUNING_SPEC_FILE = "tuning.json"
TRIALS = "trials"
TRIAL_TARGETS = "trial_targets"
ROW_KEYS = ("seat", "agent", "faction", "opponent", "card", "composition", "end_reason")
"""Columns that tell the rows of a metric view apart (besides variant and n_players)."""
MET, NOT_MET, UNDECIDED, NO_ROWS = "met", "not met", "undecided", "no rows"


# ------------------------------------------------------------------ checking targets


def view_columns(con: duckdb.DuckDBPyConnection, view: str) -> list[str]:
    """The columns of a view (or table) on ``con``."""
    return [row[0] for row in con.execute(f"DESCRIBE {sql_identifier(view)}").fetchall()]


def interval_source(columns: Sequence[str], column: str) -> tuple[str, str, str] | None:
    """How ``column``'s interval is read: ``("bounds", low, high)`` or
    ``("mean", sd, games)`` (see the module docstring); None without one."""
    if f"{column}_low" in columns and f"{column}_high" in columns:
        return ("bounds", f"{column}_low", f"{column}_high")
    if column.startswith("mean_") and f"sd_{column[5:]}" in columns and "games" in columns:
        return ("mean", f"sd_{column[5:]}", "games")
    return None


def check_targets(spec: TuningSpec) -> None:
    """Check every target against the metric views of the spec's game: the
    view and column exist, the column has an interval, the ``where`` columns
    exist, and the view has rows for this game at the spec's player counts.
    Raises ``TuningSpecError`` naming the target."""
    con = probe_connection(spec.experiment(spec.name, spec.base.seed, 1, {}, {BASELINE: 1}, "probe"))
    try:
        for index, target in enumerate(spec.targets):
            key = f"{spec.source}: targets[{index}]"
            if target.view not in METRIC_VIEWS:
                raise TuningSpecError(f"{key}.metric: unknown metric view {target.view!r}; expected one of "
                                      f"{', '.join(sorted(METRIC_VIEWS))}")
            columns = view_columns(con, target.view)
            numeric = [name for name in columns if interval_source(columns, name) is not None]
            if target.column not in columns:
                raise TuningSpecError(f"{key}.metric: {target.view} has no column {target.column!r}; expected one "
                                      f"of {', '.join(numeric) or '(none with an interval)'}")
            if interval_source(columns, target.column) is None:
                raise TuningSpecError(f"{key}.metric: {target.metric} has no interval (no {target.column}_low and "
                                      f"{target.column}_high columns); expected one of {', '.join(numeric)}")
            for name in [*target.where, *([target.around] if target.around else [])]:
                if name not in columns:
                    raise TuningSpecError(f"{key}: {target.view} has no column {name!r}; expected one of "
                                          f"{', '.join(columns)}")
            counts = [target.where["n_players"]] if "n_players" in target.where else list(spec.base.player_counts)
            try:
                con.execute(f"SELECT count(*) FROM {target.view} WHERE "
                            + " AND ".join(["TRUE", *(f"{sql_identifier(name)} = {_literal(value)}"
                                                      for name, value in target.where.items())])).fetchone()
            except duckdb.Error as error:
                message = str(error).splitlines()[0]
                raise TuningSpecError(f"{key}.where: a value of the wrong type for {target.view} ({message})") from None
            # Rows at all (other where values, e.g. one faction, may simply not have come up in one game).
            found = con.execute(f"SELECT count(*) FROM {target.view} WHERE {target.column} IS NOT NULL "
                                f"AND n_players IN ({', '.join(str(int(count)) for count in counts)})").fetchone()
            if not found or not found[0]:
                raise TuningSpecError(f"{key}: impossible target: {target.view} has no {target.column} for "
                                      f"{spec.game} at {counts} players (a view this game does not fill)")
    finally:
        con.close()


class VariantsCatalog:
    """The metric views over the finished shards of some variants only, on one
    connection that a tuning run keeps for all its batches.

    Every metric is computed per variant, so leaving the other candidates'
    shards out changes no number; it keeps each batch's evaluation in
    proportion to the games just played instead of to the whole search (and
    needs no per-shard count cache). ``load`` reads the chosen variants' rows
    once into temporary tables; the metric views, defined on the first load,
    read whatever the tables hold at query time.
    """

    def __init__(self) -> None:
        self.con = duckdb.connect(":memory:")
        self.con.execute("SET enable_progress_bar = false")
        self._views = False

    def load(self, folder: ResultsPath | str, variants: Sequence[str]) -> duckdb.DuckDBPyConnection:
        """Hold the rows of ``variants`` of the experiment in ``folder``; return the connection.
        Raises ``NoResultsError`` when the experiment has no finished shard."""
        wanted = {f"variant={variant}" for variant in variants}
        files = {table: [path for path in paths if path.parent.name in wanted]
                 for table, paths in experiment_files([results_path(folder)]).items()}
        create_base_views(self.con, files)
        for table in files:
            self.con.execute(f"CREATE OR REPLACE TEMP TABLE _{table}_rows AS SELECT * FROM {table}")
            self.con.execute(f"CREATE OR REPLACE VIEW {table} AS SELECT * FROM _{table}_rows")
        if not self._views:
            register_sql_macros(self.con)
            register_metric_views(self.con, paired=False)
            self._views = True
        return self.con

    def close(self) -> None:
        """Close the connection."""
        self.con.close()


# ------------------------------------------------------------------ misses and verdicts


def row_miss(value: float, low: float, high: float, band: tuple[float, float]) -> tuple[float, float, float]:
    """``(miss, miss_low, miss_high)`` of one row whose value is ``value`` with
    interval ``[low, high]``, against ``band`` (see the module docstring)."""
    band_low, band_high = band

    def distance(point: float) -> float:
        return max(band_low - point, point - band_high, 0.0)

    nearest = 0.0 if low <= band_high and high >= band_low else min(distance(low), distance(high))
    return distance(value), nearest, max(distance(low), distance(high))


def row_verdict(low: float, high: float, band: tuple[float, float]) -> str:
    """``met`` (interval inside the band), ``not met`` (outside) or ``undecided``."""
    band_low, band_high = band
    if band_low <= low and high <= band_high:
        return MET
    if high < band_low or low > band_high:
        return NOT_MET
    return UNDECIDED


def combine_verdicts(verdicts: Iterable[str]) -> str:
    """A target's verdict from its rows': met if all are, not met if one is."""
    found = list(verdicts)
    if not found:
        return NO_ROWS
    if NOT_MET in found:
        return NOT_MET
    return MET if all(verdict == MET for verdict in found) else UNDECIDED


def use_confidence(con: duckdb.DuckDBPyConnection, confidence: float) -> float:
    """Make the Wilson macros and ``normal_z`` (and so every interval of the metric views:
    rates and means over games) on ``con`` use ``confidence``; return its ``z``."""
    z = z_for_confidence(confidence)
    for statement in (WILSON_LOW_SQL, WILSON_HIGH_SQL, NORMAL_Z_SQL):
        con.execute(statement.replace(f"z := {Z95!r}", f"z := {z!r}"))
    # Views computed once into tables (the report's catalog) hold the old level's intervals.
    refresh_materialized_views(con)
    return z


def _literal(value: Any) -> str:
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, int | float):
        return repr(value)
    return sql_string(str(value))


def target_rows(con: duckdb.DuckDBPyConnection, target: Target, variants: Sequence[str],
                z: float = Z95) -> list[dict[str, Any]]:
    """The rows of ``target``'s view for ``variants``: variant, n_players, ``row``
    (the row's key in words), value, low, high (the interval at ``z``; for
    rates the macros' level, see ``use_confidence``) and the band."""
    columns = view_columns(con, target.view)
    source = interval_source(columns, target.column)
    if source is None:
        raise TuningSpecError(f"{target.metric}: no interval")
    column = sql_identifier(target.column)
    if source[0] == "bounds":
        bounds = f"{sql_identifier(source[1])} AS low, {sql_identifier(source[2])} AS high"
    else:
        half = f"{z!r} * {sql_identifier(source[1])} / sqrt({sql_identifier(source[2])})"
        bounds = f"{column} - {half} AS low, {column} + {half} AS high"
    keys = [key for key in ROW_KEYS if key in columns]
    around = f", {sql_identifier(target.around)} AS around" if target.around else ""
    filters = [f"variant IN ({', '.join(_literal(variant) for variant in variants)})", f"{column} IS NOT NULL",
               *(f"{sql_identifier(name)} = {_literal(value)}" for name, value in target.where.items())]
    query = (f"SELECT variant, n_players, {', '.join(sql_identifier(key) for key in keys) + ',' if keys else ''} "
             f"{column} AS value, {bounds}{around} FROM {sql_identifier(target.view)} "
             f"WHERE {' AND '.join(filters)} ORDER BY ALL")
    rows = []
    for record in con.sql(query).pl().to_dicts():
        band = target.band({target.around: record["around"]} if target.around else {})
        low = record["low"] if record["low"] is not None else -math.inf
        high = record["high"] if record["high"] is not None else math.inf
        rows.append({
            "variant": record["variant"], "n_players": record["n_players"],
            "row": ", ".join([f"{record['n_players']} players",
                              *(f"seat {record[key]}" if key == "seat" else str(record[key]) for key in keys)]),
            "value": float(record["value"]), "low": float(low), "high": float(high),
            "band_low": band[0], "band_high": band[1],
        })
    return rows


@dataclass(frozen=True)
class TargetResult:
    """One target's outcome for one variant (see the module docstring)."""

    target: str
    metric: str
    weight: float
    rows: int
    worst_row: str
    value: float
    low: float
    high: float
    band_low: float
    band_high: float
    miss: float
    miss_low: float
    miss_high: float
    verdict: str

    def as_dict(self) -> dict[str, Any]:
        """The result as a plain row."""
        return dict(self.__dict__)


def summarise_target(target: Target, rows: Sequence[Mapping[str, Any]]) -> TargetResult:
    """A target's result from its rows of one variant: the worst row (largest
    miss, then largest upper miss), the largest misses and the combined verdict."""
    if not rows:
        nan = math.nan
        return TargetResult(target.name, target.metric, target.weight, 0, "", nan, nan, nan, nan, nan, nan, nan,
                            nan, NO_ROWS)
    scored = []
    for row in rows:
        band = (row["band_low"], row["band_high"])
        miss = row_miss(row["value"], row["low"], row["high"], band)
        scored.append((miss, row_verdict(row["low"], row["high"], band), row))
    (worst_miss, _, worst) = max(scored, key=lambda item: (item[0][0], item[0][2]))
    return TargetResult(
        target=target.name, metric=target.metric, weight=target.weight, rows=len(rows), worst_row=worst["row"],
        value=worst["value"], low=worst["low"], high=worst["high"], band_low=worst["band_low"],
        band_high=worst["band_high"], miss=worst_miss[0],
        miss_low=max(item[0][1] for item in scored), miss_high=max(item[0][2] for item in scored),
        verdict=combine_verdicts(item[1] for item in scored))


@dataclass(frozen=True)
class Evaluation:
    """A candidate's targets, total miss with its interval, and verdict counts."""

    variant: str
    confidence: float
    targets: tuple[TargetResult, ...]

    @property
    def failed(self) -> bool:
        """True when some target had no rows (the candidate cannot be judged)."""
        return any(result.verdict == NO_ROWS for result in self.targets)

    def _total(self, name: str) -> float:
        return math.fsum(result.weight * getattr(result, name) for result in self.targets)

    @property
    def miss(self) -> float:
        """The weighted sum of the targets' misses."""
        return self._total("miss")

    @property
    def miss_low(self) -> float:
        """Lower end of the miss interval."""
        return self._total("miss_low")

    @property
    def miss_high(self) -> float:
        """Upper end of the miss interval."""
        return self._total("miss_high")

    def count(self, verdict: str) -> int:
        """How many targets have ``verdict``."""
        return sum(1 for result in self.targets if result.verdict == verdict)

    @property
    def all_met(self) -> bool:
        """Every target met (its whole interval inside the band)."""
        return self.count(MET) == len(self.targets)


def evaluate(con: duckdb.DuckDBPyConnection, targets: Sequence[Target], variants: Sequence[str]
             ) -> dict[str, Evaluation]:
    """Every target of every variant at the per-row 95% level (the search's looks)."""
    rows = {target.name: target_rows(con, target, variants) for target in targets}
    return {variant: Evaluation(variant, 0.95, tuple(
        summarise_target(target, [row for row in rows[target.name] if row["variant"] == variant])
        for target in targets)) for variant in variants}


def joint_confidence(confidence: float, rows: int) -> float:
    """The per-interval confidence that makes ``rows`` intervals hold together
    at ``confidence`` (Bonferroni)."""
    return 1.0 - (1.0 - confidence) / max(rows, 1)


def evaluate_jointly(con: duckdb.DuckDBPyConnection, targets: Sequence[Target], variants: Sequence[str],
                     confidence: float = 0.95) -> dict[str, Evaluation]:
    """Every target of every variant with joint intervals: all the target rows of all
    ``variants`` hold together at ``confidence`` (Bonferroni over every row of every
    variant, see the module docstring), so that a verdict keeps its confidence when the
    answer is then chosen among the variants. Leaves ``con``'s macros at the 95% level."""
    at_95 = {target.name: target_rows(con, target, variants) for target in targets}
    level = joint_confidence(confidence, sum(len(found) for found in at_95.values()))
    try:
        z = use_confidence(con, level)
        again = {target.name: target_rows(con, target, variants, z) for target in targets}
    finally:
        use_confidence(con, 0.95)
    return {variant: Evaluation(variant, level, tuple(
        summarise_target(target, [row for row in again[target.name] if row["variant"] == variant])
        for target in targets)) for variant in variants}


# ------------------------------------------------------------------ Pareto front


def pareto_layers(points: Sequence[tuple[float, float]]) -> list[int]:
    """Non-dominated sorting of (miss, cost) points, both minimised: layer 0 is
    the Pareto front, layer 1 the front of the rest, and so on."""
    layers = [-1] * len(points)
    remaining = set(range(len(points)))
    layer = 0
    while remaining:
        front = {index for index in remaining if not any(
            _dominates(points[other], points[index]) for other in remaining if other != index)}
        for index in front:
            layers[index] = layer
        remaining -= front
        layer += 1
    return layers


def _dominates(a: tuple[float, float], b: tuple[float, float]) -> bool:
    return a[0] <= b[0] and a[1] <= b[1] and a != b


# ------------------------------------------------------------------ reading a tuning run


def is_tuning_run(folder: ResultsPath | str) -> bool:
    """Whether ``folder`` holds a tuning run (its ``_tuning/state.json``)."""
    return (results_path(folder) / TUNING_FOLDER / STATE_FILE).is_file()


def read_state(folder: ResultsPath | str) -> dict[str, Any]:
    """The tuning run's state (``drivers.tuning`` writes it)."""
    state: dict[str, Any] = json.loads((results_path(folder) / TUNING_FOLDER / STATE_FILE).read_text())
    return state


def read_table(folder: ResultsPath | str, table: str) -> pl.DataFrame:
    """All parts of a tuning table (``trials`` or ``trial_targets``), columns
    matched by name; empty when there are none."""
    parts = sorted_glob(results_path(folder) / table, "part-*.parquet")
    tables = [pq.read_table(pa.BufferReader(path.read_bytes())) for path in parts]
    if not tables:
        return pl.DataFrame()
    frame = pl.from_arrow(pa.concat_tables(tables, promote_options="permissive"))
    assert isinstance(frame, pl.DataFrame)
    return frame


def latest_search_rows(trials: pl.DataFrame) -> pl.DataFrame:
    """Each evaluated candidate's search row with the most games (duplicates and failed trials left out)."""
    if trials.is_empty():
        return trials
    search = trials.filter((pl.col("stage") == "search") & pl.col("duplicate_of").is_null())
    return (search.sort("trial", "games").group_by("trial", maintain_order=True).last().sort("trial"))


def with_front(rows: pl.DataFrame) -> pl.DataFrame:
    """``rows`` with ``layer`` (Pareto layer of the miss's upper end, which the
    search minimises, against cost; null for failed rows) and ``on_front`` (layer 0)."""
    valid = rows.filter(pl.col("miss_high").is_not_null())
    layers = pareto_layers(list(zip(valid["miss_high"].to_list(), valid["cost"].to_list(), strict=True)))
    marked = valid.with_columns(pl.Series("layer", layers, dtype=pl.Int64))
    failed = rows.filter(pl.col("miss_high").is_null()).with_columns(pl.lit(None, dtype=pl.Int64).alias("layer"))
    return pl.concat([marked, failed], how="diagonal_relaxed").sort("trial").with_columns(
        (pl.col("layer") == 0).fill_null(False).alias("on_front"))


def tuning_tables(folder: ResultsPath | str) -> dict[str, pl.DataFrame]:
    """The report's tuning tables of a tuning run; empty for any other experiment.

    - ``tuning_search``: one row: the points evaluated (distinct), the space's points (null:
      infinite, or not kept: ``space_known`` false), the asks that repeated a point, batches
      and status;
    - ``tuning_targets``: each target, its metric, band and weight;
    - ``tuning_front``: the trade-off, each candidate's latest search look
      (games, change cost, miss with its interval, Pareto layer), front first;
    - ``tuning_confirmation``: each confirmed candidate and target: the
      worst row's value and joint interval, the band, the verdict;
    - ``tuning_candidates``: the confirmed candidates: changes against the
      current data, cost, confirmed miss and interval, targets met / not met /
      undecided, and the answer (the cheapest that meets every target); ``within_noise``:
      a cheaper candidate (or the current data) whose confirmed miss interval overlaps the
      answer's, when the answer does not meet every target (its lead may be the seeds' luck).
    """
    folder = results_path(folder)
    if not is_tuning_run(folder):
        return {}
    state = read_state(folder)
    trials = read_table(folder, TRIALS)
    targets = read_table(folder, TRIAL_TARGETS)
    spec_targets = pl.DataFrame(state.get("targets", []), schema={
        "target": pl.String, "metric": pl.String, "band": pl.String, "weight": pl.Float64})
    search = pl.DataFrame([{"points": len(state.get("candidates", [])),
                            "space_points": (state.get("space") or {}).get("points"), "space_known": "space" in state,
                            "repeated_asks": len(state.get("duplicates", {})), "batches": state.get("batches", 0),
                            "status": state.get("status")}],
                          schema={"points": pl.Int64, "space_points": pl.Int64, "space_known": pl.Boolean,
                                  "repeated_asks": pl.Int64, "batches": pl.Int64, "status": pl.String})
    tables = {"tuning_search": search, "tuning_targets": spec_targets}
    front_columns = ["trial", "variant", "games", "changes", "change", "change_words", "cost", "miss", "miss_low",
                     "miss_high", "met", "layer", "on_front"]
    if trials.is_empty():
        return {**tables, "tuning_front": pl.DataFrame(), "tuning_confirmation": pl.DataFrame(),
                "tuning_candidates": pl.DataFrame()}
    if "change_words" not in trials.columns:  # a search written before the words were kept
        trials = trials.with_columns(pl.col("change").alias("change_words"))
    front = with_front(latest_search_rows(trials)).sort("layer", "miss_high", "cost", "trial", nulls_last=True)
    tables["tuning_front"] = front.select(front_columns)
    confirm = trials.filter(pl.col("stage") == "confirm")
    answer = state.get("answer") or {}
    if confirm.is_empty():
        tables["tuning_candidates"] = pl.DataFrame()
        tables["tuning_confirmation"] = pl.DataFrame()
        return tables
    tables["tuning_candidates"] = confirm.sort("all_met", "cost", "miss", descending=[True, False, False]).select(
        "trial", "variant", "games", "change", "change_words", "cost", "miss", "miss_low", "miss_high", "met",
        "not_met", "undecided", "all_met", "confidence").with_columns(
        (pl.col("variant") == answer.get("variant")).alias("answer"),
        pl.col("variant").is_in([other["variant"] for other in answer.get("within_noise") or []])
        .alias("within_noise"))
    tables["tuning_confirmation"] = targets.filter(pl.col("stage") == "confirm").select(
        "trial", "variant", "target", "metric", "rows", "worst_row", "value", "low", "high", "band_low", "band_high",
        "verdict", "confidence")
    return tables


def answer_lines(answer: Mapping[str, Any]) -> list[str]:
    """The answer in a designer's words: the change to the data (one line per value), each
    target's confirmed value with its interval (in % or points for rates), the level of the
    intervals, and last the optimiser's own numbers (trial, change cost, miss)."""
    if not answer:
        return ["no answer yet: the search has not been confirmed"]
    if answer["variant"] == BASELINE:
        headline = ("answer: keep the current data: it already meets every target with 95% confidence"
                    if answer["all_met"] else "answer: keep the current data: no confirmed change comes closer to "
                    "the targets; NOT every target is met with 95% confidence")
    else:
        headline = ("answer: change the data as below: it meets every target with 95% confidence" if answer["all_met"]
                    else "answer: the confirmed change that comes closest, below; NOT every target is met with 95% "
                    "confidence")
    lines = [headline, *(f"  {line}" for line in change_lines(answer))]
    close = answer.get("within_noise") or []
    if close:
        names = "; ".join(" and ".join(change_lines(other)) or "the current data" for other in close)
        lines.append(f"  within noise: cheaper ones come as close within the confirmation's noise ({names}): "
                     "that this change comes closer than they do is not shown")
    for target in answer["targets"]:
        lines.append(f"  {target['verdict']:>9}: {target_words(target)}")
    lines.append("  " + intervals_words(answer))
    miss = f"{_number(answer['miss'])} [{_number(answer['miss_low'])}, {_number(answer['miss_high'])}]"
    lines.append(f"  optimiser detail: trial {answer['trial']} ({answer['variant']}), change cost "
                 f"{answer['cost']:.3f}, miss {miss} (the targets' weighted distance from their bands)")
    return lines


def seen_words(points: int, space: int | None, reasks: int = 0, known: bool = True) -> str:
    """How much of the space a search evaluated: ``points evaluated: 12 distinct of 21 in
    the space (57%)``, with the asks that repeated an evaluated point (``known``: False for a
    search written before its space's size was kept)."""
    if not known:
        seen = f"points evaluated: {points} distinct"
    elif space is None:
        seen = f"points evaluated: {points} distinct (the space is infinite: a float range without a step)"
    elif points >= space:
        seen = f"points evaluated: {points} of {space}, the whole space"
    else:
        seen = f"points evaluated: {points} distinct of {space} in the space ({points / space:.0%})"
    if reasks:
        seen += (f"; {reasks} more ask(s) of the sampler repeated a point already asked (results reused: no games, "
                 "no trial budget)")
    return seen


def change_lines(candidate: Mapping[str, Any]) -> list[str]:
    """A candidate's change in a designer's words, one line per value (``Oracle: use draw 2 ->
    draw 1``); a state written before the words were kept gives its ``change`` text."""
    words = candidate.get("change_words")
    if words is not None:
        return list(words)
    change = candidate.get("change")
    return [change] if change else []


def intervals_words(answer: Mapping[str, Any]) -> str:
    """How the answer's intervals were made: fresh games, level, family, unit of evidence
    (DESIGN, "Statistics": every interval states its level, its sample and its unit)."""
    games = f"confirmed on {answer['games']:,} fresh games per player count; " if answer.get("games") else ""
    family = answer.get("family") or {}
    if family:
        held = (f"all {family['rows']} target rows of the {family['variants']} confirmed variants (the current data "
                "included) hold together at 95% (Bonferroni: the answer is chosen among them)")
    else:
        rows = sum(int(target.get("rows") or 0) for target in answer["targets"])
        held = f"all {rows} of its target rows hold together at 95% (Bonferroni)"
    return (f"{games}each interval at {answer['confidence']:.2%} so that {held}; unit of evidence: the game "
            "(rates over seat-games clustered by game)")


def target_words(target: Mapping[str, Any]) -> str:
    """One confirmed target in words: ``fair seat 0 (2 players, seat 0): 48.8% [47.0%,
    50.5%]; wanted 46.0% to 54.0%``."""
    column = str(target["metric"]).split(".")[-1]
    where = f" ({target['worst_row']})" if target.get("worst_row") else ""
    if target.get("value") is None or (isinstance(target["value"], float) and math.isnan(target["value"])):
        return f"{target['target']}{where}: no rows"
    return (f"{target['target']}{where}: {value_interval_words(column, target['value'], target['low'], target['high'])}"
            f"; wanted {band_words(column, target['band_low'], target['band_high'])}")


def _scale(column: str) -> tuple[float, str, bool]:
    """How ``column``'s numbers read: (factor, unit, signed): rates in %, differences of
    rates in points, anything else as it is."""
    possible = metric_range(column)
    if possible is None:
        return 1.0, "", False
    return (100.0, "%", False) if possible[0] == 0.0 else (100.0, " points", True)


def _decimals(column: str, *values: float | None) -> int:
    """Decimals of a row's numbers: points 1; % 2 below 10% (draw rates of 2.40%), else 1;
    -1 (three significant digits) for numbers in their own unit."""
    factor, unit, signed = _scale(column)
    if not unit:
        return -1
    if signed:
        return 1
    largest = max((abs(value) * factor for value in values if value is not None and math.isfinite(value)), default=0)
    return 2 if largest < 10 else 1


def _plain(column: str, value: float | None, decimals: int, unit: bool = True) -> str:
    if value is None or not math.isfinite(value):
        return "-" if value is None else ("inf" if value > 0 else "-inf")
    factor, suffix, signed = _scale(column)
    if decimals < 0:
        return f"{value:.3g}"
    text = f"{value * factor:{'+' if signed else ''}.{decimals}f}"
    return text + (suffix if unit or suffix == "%" else "")


def value_interval_words(column: str, value: float, low: float | None, high: float | None) -> str:
    """``33.2% [31.0%, 35.4%]``, ``+1.2 points [-0.8, +3.1]``, ``4.93 [4.88, 4.98]``."""
    decimals = _decimals(column, value, low, high)
    return (f"{_plain(column, value, decimals)} [{_plain(column, low, decimals, unit=False)}, "
            f"{_plain(column, high, decimals, unit=False)}]")


def band_words(column: str, low: float | None, high: float | None) -> str:
    """A band in the metric's unit: ``46.0% to 54.0%``, ``at most 2.00%``, ``at least 4.5``."""
    low = None if low is None or low == -math.inf else low
    high = None if high is None or high == math.inf else high
    decimals = _decimals(column, low, high)
    if low is None and high is None:
        return "anything"
    if low is None:
        return f"at most {_plain(column, high, decimals)}"
    if high is None:
        return f"at least {_plain(column, low, decimals)}"
    return f"{_plain(column, low, decimals, unit=False)} to {_plain(column, high, decimals)}"


def _number(value: float | None, missing: str = "-") -> str:
    return missing if value is None else f"{value:.4g}"


def search_folder(folder: ResultsPath | str) -> ResultsPath | None:
    """The tuning run's own folder for ``folder``: itself, or the search whose
    confirmation it is (``NAME-confirm``); None for any other experiment."""
    folder = results_path(folder)
    if is_tuning_run(folder):
        return folder
    if folder.name.endswith(CONFIRM_SUFFIX):
        search = folder.with_name(folder.name[: -len(CONFIRM_SUFFIX)])
        if is_tuning_run(search):
            return search
    return None


def state_version(folder: ResultsPath | str) -> float:
    """When the tuning state last changed (a cache key: it is rewritten after every batch)."""
    return float((results_path(folder) / TUNING_FOLDER / STATE_FILE).stat().st_mtime)


def objective_history(trials: pl.DataFrame) -> pl.DataFrame:
    """Each trial's first look in the order asked (a duplicate repeats its original's):
    ``objective`` (the upper end of its miss interval, what the sampler was told)
    and ``best_so_far`` (the smallest objective up to that trial)."""
    if trials.is_empty():
        return pl.DataFrame(schema={"trial": pl.Int64, "variant": pl.String, "games": pl.Int64,
                                    "objective": pl.Float64, "best_so_far": pl.Float64})
    first = trials.filter((pl.col("stage") == "search") & (pl.col("rung") == 0)).sort("trial")
    return first.select("trial", "variant", "games", pl.col("miss_high").alias("objective")).with_columns(
        pl.col("objective").fill_null(float("inf")).cum_min().alias("best_so_far"))


def register_tuning_tables(con: duckdb.DuckDBPyConnection, folder: ResultsPath | str) -> None:
    """Make a tuning run's ``trials`` and ``trial_targets`` queryable on ``con``
    (``cardlab sql``), as Arrow tables read here, so DuckDB opens no file itself;
    nothing for another experiment."""
    if not is_tuning_run(folder):
        return
    for table in (TRIALS, TRIAL_TARGETS):
        frame = read_table(folder, table)
        if not frame.is_empty():
            con.register(table, frame.to_arrow())
