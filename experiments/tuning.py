"""Tuning specs: what ``cardlab tune`` searches, towards which targets, at what cost.

A tuning spec is a TOML file (shipped ones in ``experiments/tune/``). Its top level is the
part of an experiment that stays fixed (``name``, ``game``, ``agents``,
``player_counts``, ``rotate_seats``, ``seed``, ``shard_size``,
``description``), and five more tables say what to search:

- ``[space]``: dotted parameter paths and their ranges. ``[0, 4]`` is an
  integer or float range (by the type of the game's value at that path),
  a list of strings or booleans is a set of choices; the long forms
  ``{ low = 0.5, high = 2.0, step = 0.25 }`` and ``{ choices = [1, 3, 5] }``
  say it explicitly.
- ``[[targets]]``: what "balanced" means, from the report's metric views
  (``analytics.views``): ``metric = "view.column"`` with a band
  (``between = [a, b]``, ``at_most``, ``at_least``, or ``around`` a number or
  another column of the view ``within`` a distance), optional ``where``
  (column = value) and ``weight``. Every row of the view that the ``where``
  keeps must lie in the band.
- ``[cost]``: the change cost, so that the smallest change that meets the
  targets wins: ``per_parameter`` for each parameter that differs from the
  game's current data, plus ``per_range`` times the distance moved as a
  share of the parameter's range (for choices that are numbers or lists of
  numbers, such as stat lines: the size of the change as a share of the
  farthest choice's; other choices cost ``per_parameter`` alone).
- ``[search]``: ``trials`` (distinct points evaluated in all; a space of at
  most that many points is played whole, see ``TuningSpec.plays_grid``),
  ``batch`` (asked from the optimiser at once; fixed, so the trials do not
  depend on the worker count), ``games`` (games per player count of each successive-halving
  rung: a cheap first look, then more for the promising candidates),
  ``promote`` (the best 1 in ``promote`` of a rung go on to the next) and
  ``sampler`` (``tpe``, ``nsga2`` or ``random``; seeded by ``seed``).
- ``[confirm]``: how many of the best candidates are played again on fresh
  seeds (``candidates``), with how many games (``games``; by default enough
  for the narrowest target band) and at what joint confidence.

``load_tuning_spec`` reads and checks a file; every mistake is a
``TuningSpecError`` (a ``SpecError``) naming the file, the key and what was
expected, in one line. The checks that need the metric views (an unknown
metric, a metric without an interval, a view that has no rows for this
game) are made by ``analytics.tuning.check_targets``, which the callers
that run a search call after loading (``drivers.tuning.load_checked_tuning_spec``).

``TuningRunSpec`` is the experiment a tuning run plays: one variant per
candidate, each with its own number of games, the searched parameters as
columns of the ``games`` table. It goes through the ordinary runner.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from experiments.spec import (
    BASELINE,
    MAX_GAMES,
    MAX_SHARDS,
    MAX_TOTAL_GAMES,
    MAX_VARIANTS,
    NAME_PATTERN,
    ExperimentSpec,
    Shard,
    SpecError,
    check_player_counts,
    parse_spec,
    read_toml_file,
)
from simcore.parameters import ParameterError, apply_overrides, flatten, type_name
from simcore.registry import get_game
from simcore.seeding import derive_seed

EXPERIMENT_KEYS = ("name", "game", "description", "seed", "player_counts", "agents", "rotate_seats", "shard_size")
TUNING_KEYS = ("space", "targets", "cost", "search", "confirm")
SAMPLERS = ("tpe", "nsga2", "random")
CONFIRM_GAMES_CAP = 20
"""The default confirmation plays at most this many times the top rung's games."""
CONFIRM_SUFFIX = "-confirm"
"""The confirmation experiment of tuning run ``NAME`` is ``NAME-confirm``."""
INTEGER, FLOAT, CATEGORICAL = "integer", "float", "categorical"
RATE_SUFFIXES = ("rate", "share")
"""Metric columns whose name ends so are proportions in [0, 1]."""
RATE_DIFFERENCE_SUFFIXES = ("advantage",)
"""Metric columns whose name ends so are differences of two proportions, in [-1, 1]
(``seat_balance.first_seat_advantage``: the first seat's share of wins minus 1/N)."""


class TuningSpecError(SpecError):
    """A problem with a tuning spec; the message is the whole story."""


def _fail(source: str, key: str, expected: str) -> TuningSpecError:
    return TuningSpecError(f"{source}: {key}: {expected}")


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _numeric_offset(value: Any, current: Any) -> float | None:
    """|value - current| for numbers, the sum of the element differences for two lists of
    numbers of one length; None for anything else."""
    if _is_number(value) and _is_number(current):
        return abs(float(value) - float(current))
    if (isinstance(value, list) and isinstance(current, list) and len(value) == len(current)
            and all(_is_number(item) for item in [*value, *current])):
        return sum(abs(float(a) - float(b)) for a, b in zip(value, current, strict=True))
    return None


def _on_grid(distance: float, step: float) -> bool:
    """Whether ``distance`` is a whole number of ``step``s (as Optuna's distributions judge it)."""
    steps = distance / step
    return abs(steps - round(steps)) < 1e-8


@dataclass(frozen=True)
class Dimension:
    """One searched parameter: its path, kind, range or choices, and the current value."""

    path: str
    kind: str
    current: Any
    low: float = 0.0
    high: float = 0.0
    step: float | None = None
    choices: tuple[Any, ...] = ()

    @property
    def span(self) -> float:
        """The width of a numeric range (1 for choices, so distances stay finite)."""
        return float(self.high - self.low) if self.kind != CATEGORICAL else 1.0

    def distance(self, value: Any) -> float:
        """How far ``value`` is from the current data, as a share of the range
        (0 for an unchanged value; 1 for any changed choice, but see ``choice_distance``)."""
        if value == self.current:
            return 0.0
        if self.kind == CATEGORICAL or not _is_number(self.current):
            return 1.0
        return abs(float(value) - float(self.current)) / self.span

    def choice_distance(self, value: Any) -> float | None:
        """For choices that are all numbers, or all lists of numbers as long as the current
        value (a monster's stat line): how far ``value`` is from the current data, as a share
        of the farthest choice's distance (lists: the sum of the numbers' differences), so that
        +1/+1 on a stat line costs less than +3/+3; None for other choices (names, switches)."""
        if self.kind != CATEGORICAL or not self.choices:
            return None
        offsets = [_numeric_offset(choice, self.current) for choice in self.choices]
        farthest = max((offset for offset in offsets if offset is not None), default=None)
        offset = _numeric_offset(value, self.current)
        if any(one is None for one in offsets) or offset is None or not farthest:
            return None
        return offset / farthest

    def contains(self, value: Any) -> bool:
        """Whether the search can propose ``value``: one of the choices, or in the range and,
        with a step, on its grid ``low + k * step`` (Optuna's own tolerance for floats)."""
        if self.kind == CATEGORICAL:
            return value in self.choices
        if not _is_number(value) or not self.low <= value <= self.high:
            return False
        return self.step is None or _on_grid(float(value) - float(self.low), float(self.step))

    def grid_values(self) -> tuple[Any, ...] | None:
        """Every value the search can propose, in order: the choices, or the range's
        integers (or its grid ``low + k * step``); None for a float range without a step,
        which has infinitely many."""
        if self.kind == CATEGORICAL:
            return self.choices
        if self.kind == INTEGER:
            return tuple(range(int(self.low), int(self.high) + 1, int(self.step or 1)))
        if self.step is None:
            return None
        count = round((self.high - self.low) / self.step)
        return tuple(float(self.low + index * self.step) for index in range(count + 1))

    def describe(self) -> str:
        """The range in words, e.g. ``integer 0 to 4`` or ``one of 'a', 'b'``."""
        if self.kind == CATEGORICAL:
            return "one of " + ", ".join(repr(choice) for choice in self.choices)
        step = f" in steps of {self.step:g}" if self.step else ""
        return f"{self.kind} {self.low:g} to {self.high:g}{step}"


@dataclass(frozen=True)
class ChangeCost:
    """The cost of a candidate's change against the current data (see the module docstring)."""

    per_parameter: float = 1.0
    per_range: float = 1.0

    def of(self, space: Sequence[Dimension], values: Mapping[str, Any]) -> float:
        """The cost of ``values`` (path -> value) over ``space``."""
        cost = 0.0
        for dimension in space:
            value = values[dimension.path]
            distance = dimension.distance(value)
            if distance > 0:
                # A range's distance; choices of numbers (or stat lines) by the size of the change;
                # other choices (names, switches) have no size: the parameter's price alone.
                size = distance if dimension.kind != CATEGORICAL else dimension.choice_distance(value)
                cost += self.per_parameter + (self.per_range * size if size is not None else 0.0)
        return cost


@dataclass(frozen=True)
class Target:
    """A band that every selected row of a metric view must lie in.

    ``low``/``high`` bound the band (None: unbounded); with ``around`` naming
    a column, the band is that row's column value plus ``low`` and ``high``
    (``within = d`` gives ``low = -d``, ``high = d``). ``around_value`` is a
    fixed centre (``around = 0.25``).
    """

    name: str
    view: str
    column: str
    low: float | None
    high: float | None
    around: str | None = None
    where: Mapping[str, Any] = field(default_factory=dict)
    weight: float = 1.0
    text: str = ""

    @property
    def metric(self) -> str:
        """``view.column``."""
        return f"{self.view}.{self.column}"

    def band(self, row: Mapping[str, Any]) -> tuple[float, float]:
        """The band of one row (a relative band moves with the row's ``around`` column)."""
        centre = float(row[self.around]) if self.around is not None else 0.0
        low = -math.inf if self.low is None else centre + self.low
        high = math.inf if self.high is None else centre + self.high
        return low, high


@dataclass(frozen=True)
class SearchSettings:
    """How candidates are proposed and how many games each gets (see the module docstring)."""

    trials: int = 24
    batch: int = 8
    games: tuple[int, ...] = (200, 800)
    promote: int = 3
    sampler: str = "tpe"


@dataclass(frozen=True)
class ConfirmSettings:
    """How the best candidates are confirmed on fresh seeds."""

    candidates: int = 3
    games: int | None = None
    confidence: float = 0.95


@dataclass(frozen=True)
class TuningSpec:
    """A validated tuning spec (see the module docstring)."""

    name: str
    game: str
    base: ExperimentSpec
    space: tuple[Dimension, ...]
    targets: tuple[Target, ...]
    cost: ChangeCost
    search: SearchSettings
    confirm: ConfirmSettings
    source: str = ""
    raw: Mapping[str, Any] = field(default_factory=dict)

    @property
    def paths(self) -> tuple[str, ...]:
        """The searched parameter paths, in spec order."""
        return tuple(dimension.path for dimension in self.space)

    @property
    def current_values(self) -> dict[str, Any]:
        """The current data's value of every searched parameter."""
        return {dimension.path: dimension.current for dimension in self.space}

    @property
    def confirm_name(self) -> str:
        """The name of the confirmation experiment."""
        return self.name + CONFIRM_SUFFIX

    def changes(self, values: Mapping[str, Any]) -> dict[str, Any]:
        """The overrides of ``values`` that differ from the current data (the variant to export)."""
        return {dimension.path: values[dimension.path] for dimension in self.space
                if values[dimension.path] != dimension.current}

    def change_cost(self, values: Mapping[str, Any]) -> float:
        """The change cost of ``values``."""
        return self.cost.of(self.space, values)

    @property
    def space_size(self) -> int | None:
        """How many points the space has (the product of the dimensions' sizes); None when
        a float range without a step makes it infinite."""
        size = 1
        for dimension in self.space:
            values = dimension.grid_values()
            if values is None:
                return None
            size *= len(values)
        return size

    @property
    def plays_grid(self) -> bool:
        """Whether the search plays every point of the space instead of asking the sampler:
        a finite space no larger than the trial budget."""
        size = self.space_size
        return size is not None and size <= self.search.trials

    def grid(self) -> list[dict[str, Any]]:
        """Every point of a finite space (``space_size``), the first dimension slowest."""
        axes = [dimension.grid_values() for dimension in self.space]
        if any(values is None for values in axes):
            raise ValueError(f"{self.source}: the space is infinite (a float range without a step)")
        return [dict(zip(self.paths, point, strict=True))
                for point in itertools.product(*(values or () for values in axes))]

    def change_words(self, values: Mapping[str, Any]) -> list[str]:
        """The change against the current data as a designer reads it, one line per
        parameter (``change_words``): ``Oracle: use draw 2 -> draw 1``."""
        current = self.current_values
        return [change_words(path, current[path], value, self.display_names)
                for path, value in self.changes(values).items()]

    @functools.cached_property
    def display_names(self) -> dict[str, str]:
        """Names the game gives its groups (``parties.brute_squad.name``), by group path."""
        defaults = dict(flatten(get_game(self.game).default_parameters()))
        return {path.removesuffix(".name"): value for path, value in defaults.items()
                if path.endswith(".name") and isinstance(value, str)}

    def with_overrides(self, trials: int | None = None, games: int | None = None) -> TuningSpec:
        """This spec with another trial budget (``--trials``) and first look (``--games``):
        the later rungs and an explicit ``confirm.games`` scale with the first look, each
        rung still above the one before. The overrides are part of the stored spec, so
        ``--resume`` needs the same ones. Raises ``TuningSpecError`` naming the option."""
        raw = {key: dict(value) if isinstance(value, dict) else value for key, value in self.raw.items()}
        search = dict(raw.get("search", {}))
        if trials is not None:
            search["trials"] = trials
        if games is not None:
            rungs = list(self.search.games)
            scaled = [games]
            for earlier, later in itertools.pairwise(rungs):
                scaled.append(max(scaled[-1] + 1, round(scaled[-1] * later / earlier)))
            search["games"] = scaled
            if self.confirm.games is not None:
                raw["confirm"] = {**raw.get("confirm", {}),
                                  "games": max(1, round(self.confirm.games * games / rungs[0]))}
        raw["search"] = search
        try:
            return parse_tuning_spec(raw, self.source, default_name=self.name)
        except TuningSpecError as error:
            option = "--games" if games is not None else "--trials"
            raise TuningSpecError(f"{option}: {error}") from None

    def in_space(self, values: Mapping[str, Any]) -> bool:
        """Whether every value is one the search can propose (``Dimension.contains``). The
        current data is trial 0 only then: Optuna refuses a told value off a range's grid
        when the study is rebuilt, so an off-grid trial 0 broke ``--resume``."""
        return all(dimension.contains(values[dimension.path]) for dimension in self.space)

    def identity(self) -> dict[str, Any]:
        """What must match for ``cardlab tune --resume`` to continue a stopped run:
        the whole spec but its description."""
        return {key: value for key, value in self.raw.items() if key != "description"}

    def experiment(self, name: str, seed: int, games: int, variants: Mapping[str, Mapping[str, Any]],
                   games_by_variant: Mapping[str, int], description: str) -> TuningRunSpec:
        """An experiment of this spec's game, agents and player counts on paired seeds:
        ``variants`` (name -> overrides; the baseline is the current data), each
        playing its own number of games per player count (``games_by_variant``;
        ``games`` is the most any plays), the searched parameters as columns."""
        raw = {
            "name": name, "game": self.game, "games": games, "seed": seed,
            "player_counts": list(self.base.player_counts), "agents": [str(agent) for agent in self.base.agents],
            "rotate_seats": self.base.rotate_seats, "shard_size": self.base.shard_size, "paired_seeds": True,
            "description": description,
            "variants": {variant: dict(overrides) for variant, overrides in variants.items() if variant != BASELINE},
        }
        plain = parse_spec(raw, f"{self.source} ({name})")
        cuts = sorted({*self.search.games, games})
        return TuningRunSpec(
            **{item.name: getattr(plain, item.name) for item in dataclasses.fields(ExperimentSpec)},
            games_by_variant=tuple(sorted(games_by_variant.items())), cuts=tuple(cuts),
            parameter_columns=self.paths)

    def confirm_seed(self) -> int:
        """The experiment seed of the confirmation: fresh seeds, none shared with the search."""
        return derive_seed("tuning confirmation", self.base.seed)

    def export_seed(self) -> int:
        """The experiment seed of an exported experiment (``cardlab tune --export``): fresh
        seeds again, shared with neither the search, which chose its candidates on their
        own deals, nor the confirmation, so the exported run is an independent look."""
        return derive_seed("tuning export", self.base.seed)


@dataclass(frozen=True)
class TuningRunSpec(ExperimentSpec):
    """The experiment of a tuning run (or of its confirmation).

    Unlike a plain experiment, each variant plays its own number of games
    (``games_by_variant``: a candidate's successive-halving rung), cut into
    shards at the rung sizes (``cuts``) so that a candidate promoted to more
    games keeps the shards it has and plays only the new ones; and the
    ``games`` table of every variant carries the searched parameters
    (``parameter_columns``) as columns named by their paths, as a sweep's do.
    Its ``spec.json`` is an ordinary experiment (``to_json_dict`` is the
    parent's), so the report, SQL and replay read it as any other.
    """

    games_by_variant: tuple[tuple[str, int], ...] = ()
    cuts: tuple[int, ...] = ()
    parameter_columns: tuple[str, ...] = ()

    def games_of(self, variant: str) -> int:
        """Games per player count that ``variant`` plays."""
        return dict(self.games_by_variant).get(variant, 0)

    @property
    def total_games(self) -> int:
        """Games over all variants and player counts."""
        return sum(games for _, games in self.games_by_variant) * len(self.player_counts)

    def shards(self) -> list[Shard]:
        """Every variant's shards up to its number of games, cut at the rung sizes
        and at most ``shard_size`` games each; first shards first (as the parent)."""
        shards: list[Shard] = []
        for variant in self.variants:
            games = self.games_of(variant.name)
            if not games:
                continue
            bounds = [0, *(cut for cut in self.cuts if cut < games), games]
            for start, stop in itertools.pairwise(bounds):
                for begin in range(start, stop, self.shard_size):
                    shards.extend(Shard(variant.name, n_players, begin, min(begin + self.shard_size, stop))
                                  for n_players in self.player_counts)
        return sorted(shards, key=lambda shard: (shard.start, self._variant_order(shard.variant), shard.n_players))

    def _variant_order(self, name: str) -> int:
        return [variant.name for variant in self.variants].index(name)

    def sweep_values(self, variant: str) -> dict[str, Any]:
        """The searched parameters' values in ``variant`` (columns of the ``games`` table)."""
        parameters = self.variant(variant).parameters
        values = {}
        for path in self.parameter_columns:
            node: Any = parameters
            for key in path.split("."):
                node = node[key]
            values[path] = node
        return values


# ------------------------------------------------------------------ reading


def load_tuning_spec(path: str | Path) -> TuningSpec:
    """Read and check a tuning spec file; raise ``TuningSpecError`` on any problem.

    The targets are checked against the metric views by the caller that runs the
    search (``drivers.tuning.load_checked_tuning_spec``), not here: that plays one
    game per player count and needs ``analytics``.
    """
    path = Path(path)
    raw = read_toml_file(path, "a tuning spec TOML file", TuningSpecError)
    return parse_tuning_spec(raw, str(path), default_name=path.stem)


def parse_tuning_spec(raw: Mapping[str, Any], source: str, default_name: str = "") -> TuningSpec:
    """Check an already-parsed tuning spec mapping (``source`` names it in errors)."""
    unknown = sorted(set(raw) - set(EXPERIMENT_KEYS) - set(TUNING_KEYS))
    if unknown:
        raise _fail(source, unknown[0], f"unknown key; expected one of {', '.join(EXPERIMENT_KEYS + TUNING_KEYS)}")
    experiment = {key: raw[key] for key in EXPERIMENT_KEYS if key in raw}
    experiment.setdefault("name", default_name)
    try:
        base = parse_spec({**experiment, "games": 1, "paired_seeds": True}, source)
    except SpecError as error:
        raise TuningSpecError(str(error)) from None
    if not NAME_PATTERN.fullmatch(base.name + CONFIRM_SUFFIX):
        raise _fail(source, "name", f"at most {100 - len(CONFIRM_SUFFIX)} characters (the confirmation adds "
                                    f"{CONFIRM_SUFFIX!r})")
    space = _space(raw.get("space"), base.game, source, base.player_counts)
    search = _search(_table(raw, "search", source), source)
    confirm = _confirm(_table(raw, "confirm", source), source)
    cost = _cost(_table(raw, "cost", source), source)
    _check_sizes(search, confirm, base.shard_size, len(base.player_counts), source)
    targets = _targets(raw.get("targets"), base.player_counts, source)
    stored = {**raw, "name": base.name}
    return TuningSpec(name=base.name, game=base.game, base=base, space=space, targets=targets, cost=cost,
                      search=search, confirm=confirm, source=source, raw=stored)


def _table(raw: Mapping[str, Any], key: str, source: str) -> Mapping[str, Any]:
    table = raw.get(key, {})
    if not isinstance(table, dict):
        raise _fail(source, key, f"expected a table ([{key}])")
    return table


def _check_keys(table: Mapping[str, Any], known: Sequence[str], source: str, prefix: str) -> None:
    unknown = sorted(set(table) - set(known))
    if unknown:
        raise _fail(source, f"{prefix}.{unknown[0]}", f"unknown key; expected one of {', '.join(known)}")


def _positive_integer(table: Mapping[str, Any], key: str, default: int, source: str, prefix: str,
                      smallest: int = 1, largest: int | None = None) -> int:
    value = table.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or value < smallest:
        raise _fail(source, f"{prefix}.{key}", f"expected an integer of at least {smallest}, got {value!r}")
    if largest is not None and value > largest:
        raise _fail(source, f"{prefix}.{key}", f"expected an integer from {smallest} to {largest:,}, got {value:,}")
    return value


def _check_sizes(search: SearchSettings, confirm: ConfirmSettings, shard_size: int, player_counts: int,
                 source: str) -> None:
    """Refuse a search whose largest possible experiment the runner would refuse (the
    bounds of ``experiments.spec``), now rather than batches or a whole search later:
    the search's, every trial a distinct candidate on the top rung beside the current
    data; the confirmation's, its candidates and the current data on ``confirm.games``
    (by default at most ``CONFIRM_GAMES_CAP`` times the top rung, never above ``MAX_GAMES``)."""
    confirm_games = confirm.games or min(CONFIRM_GAMES_CAP * search.games[-1], MAX_GAMES)
    for key, variants, games in (("search", search.trials + 1, search.games[-1]),
                                 ("confirm", confirm.candidates + 1, confirm_games)):
        total = variants * games * player_counts
        if total > MAX_TOTAL_GAMES:
            raise _fail(source, key, f"up to {variants:,} variants x {games:,} games x {player_counts} player "
                                     f"count(s) = {total:,} games; expected at most {MAX_TOTAL_GAMES:,} in all")
        shards = variants * -(-games // shard_size) * player_counts
        if shards > MAX_SHARDS:
            raise _fail(source, key, f"up to {shards:,} shards of {shard_size:,} games; expected at most "
                                     f"{MAX_SHARDS:,} (a larger shard_size)")


def _space(table: Any, game_id: str, source: str, player_counts: Sequence[int]) -> tuple[Dimension, ...]:
    if not isinstance(table, dict) or not table:
        raise _fail(source, "space", "expected a table of parameter paths to ranges ([space]), with at least one")
    game = get_game(game_id)
    defaults = game.default_parameters()
    current = dict(flatten(defaults))
    dimensions = []
    for path, value in _space_entries(table):
        key = f"space.{path}"
        if path not in current:
            try:
                apply_overrides(defaults, {path: value})
            except ParameterError as error:
                raise _fail(source, key, error.message) from None
            raise _fail(source, key, "is a group of parameters; search one of its leaves")
        dimension = _dimension(path, value, current[path], source)
        for candidate in _extremes(dimension):
            try:
                check_player_counts(game, game.configure(apply_overrides(defaults, {path: candidate})), player_counts)
            except ParameterError as error:
                raise _fail(source, key, f"the game refuses {candidate!r}: {error.message}") from None
        dimensions.append(dimension)
    return tuple(dimensions)


def _space_entries(table: Mapping[str, Any]) -> list[tuple[str, Any]]:
    """(path, range) pairs; a range table (``{low, high}`` or ``{choices}``) is a leaf,
    while other nested tables (TOML's unquoted dotted keys) are walked."""
    entries: list[tuple[str, Any]] = []
    for key, value in table.items():
        if isinstance(value, dict) and not ({"low", "high", "choices"} & set(value)):
            entries.extend((f"{key}.{path}", inner) for path, inner in _space_entries(value))
        else:
            entries.append((key, value))
    return entries


def _dimension(path: str, value: Any, current: Any, source: str) -> Dimension:
    key = f"space.{path}"
    numeric = _is_number(current)
    if isinstance(value, dict):
        _check_keys(value, ("low", "high", "step", "choices"), source, key)
        if "choices" in value:
            if set(value) != {"choices"}:
                raise _fail(source, key, "give either choices or low and high, not both")
            return _choices(path, value["choices"], current, source)
        if not numeric:
            raise _fail(source, key, f"a range needs a number; the current value is {type_name(current)}, "
                                     "so give choices = [...]")
        return _range(path, value.get("low"), value.get("high"), value.get("step"), current, source)
    if isinstance(value, list) and numeric and len(value) == 2 and all(_is_number(item) for item in value):
        return _range(path, value[0], value[1], None, current, source)
    if isinstance(value, list):
        if numeric:
            # type_name says "an integer"; the range holds integers.
            kind = type_name(current).split(" ", 1)[1] + "s"
            raise _fail(source, key, f"expected a range [low, high] of {kind}, or {{ choices = [...] }}, "
                                     f"got {value!r}")
        return _choices(path, value, current, source)
    raise _fail(source, key, f"expected a range [low, high], a list of choices or a table, got {value!r}")


def _range(path: str, low: Any, high: Any, step: Any, current: Any, source: str) -> Dimension:
    key = f"space.{path}"
    integer = isinstance(current, int)
    kind = INTEGER if integer else FLOAT
    for name, bound in (("low", low), ("high", high)):
        if not _is_number(bound) or (integer and not isinstance(bound, int)):
            raise _fail(source, key, f"{name}: expected {type_name(current)} (the type of {current!r}), got {bound!r}")
    if low > high:
        raise _fail(source, key, f"empty range: low {low!r} is above high {high!r}")
    if low == high:
        raise _fail(source, key, f"empty range: low and high are both {low!r}; expected low < high")
    if step is not None and (not _is_number(step) or step <= 0 or (integer and not isinstance(step, int))):
        raise _fail(source, key, f"step: expected a positive {kind}, got {step!r}")
    if step is not None and step > high - low:
        raise _fail(source, key, f"step: {step!r} is wider than the range {low!r} to {high!r}")
    if step is not None and not _on_grid(high - low, step):
        # Optuna would quietly search up to the last grid point below high instead.
        below = low + math.floor((high - low) / step) * step
        raise _fail(source, key, f"step: {step!r} does not divide the range {low!r} to {high!r}; expected a high "
                                 f"on the grid, e.g. {below:g} or {below + step:g}")
    return Dimension(path, kind, current, low=low, high=high, step=step)


def _choices(path: str, choices: Any, current: Any, source: str) -> Dimension:
    key = f"space.{path}"
    if not isinstance(choices, list) or not choices:
        raise _fail(source, key, "empty range: expected at least two choices")
    if len({repr(choice) for choice in choices}) != len(choices):
        raise _fail(source, key, f"each choice once, got {choices!r}")
    if len(choices) < 2:
        raise _fail(source, key, f"empty range: one choice {choices[0]!r}; expected at least two")
    try:
        for choice in choices:
            apply_overrides({"value": current}, {"value": choice})
    except ParameterError as error:
        raise _fail(source, key, f"choices: {error.message}") from None
    return Dimension(path, CATEGORICAL, current, choices=tuple(choices))


def _extremes(dimension: Dimension) -> list[Any]:
    """The values whose acceptance by the game stands for the whole range."""
    if dimension.kind == CATEGORICAL:
        return list(dimension.choices)
    return [dimension.low, dimension.high]


def _search(table: Mapping[str, Any], source: str) -> SearchSettings:
    _check_keys(table, ("trials", "batch", "games", "promote", "sampler"), source, "search")
    defaults = SearchSettings()
    # Every distinct candidate is a variant of one experiment, beside the current data.
    trials = _positive_integer(table, "trials", defaults.trials, source, "search", largest=MAX_VARIANTS - 1)
    batch = _positive_integer(table, "batch", defaults.batch, source, "search")
    promote = _positive_integer(table, "promote", defaults.promote, source, "search", smallest=2)
    games = table.get("games", list(defaults.games))
    if isinstance(games, int) and not isinstance(games, bool):
        games = [games]
    if (not isinstance(games, list) or not games
            or any(isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_GAMES
                   for count in games)):
        raise _fail(source, "search.games", f"expected a list of positive integers of at most {MAX_GAMES:,} "
                                            f"(games per player count of each rung), got {games!r}")
    if any(later <= earlier for earlier, later in itertools.pairwise(games)):
        raise _fail(source, "search.games", f"expected increasing game counts (each rung plays more), got {games!r}")
    sampler = table.get("sampler", defaults.sampler)
    if sampler not in SAMPLERS:
        raise _fail(source, "search.sampler", f"expected one of {', '.join(SAMPLERS)}, got {sampler!r}")
    return SearchSettings(trials=trials, batch=batch, games=tuple(games), promote=promote, sampler=sampler)


def _confirm(table: Mapping[str, Any], source: str) -> ConfirmSettings:
    _check_keys(table, ("candidates", "games", "confidence"), source, "confirm")
    candidates = _positive_integer(table, "candidates", ConfirmSettings.candidates, source, "confirm")
    games = None if "games" not in table else _positive_integer(table, "games", 1, source, "confirm",
                                                                 largest=MAX_GAMES)
    confidence = table.get("confidence", ConfirmSettings.confidence)
    if not _is_number(confidence) or not 0.5 <= confidence < 1:
        raise _fail(source, "confirm.confidence", f"expected a number from 0.5 to below 1, got {confidence!r}")
    return ConfirmSettings(candidates=candidates, games=games, confidence=float(confidence))


def _cost(table: Mapping[str, Any], source: str) -> ChangeCost:
    _check_keys(table, ("per_parameter", "per_range"), source, "cost")
    values = {}
    for key in ("per_parameter", "per_range"):
        value = table.get(key, 1.0)
        if not _is_number(value) or value < 0:
            raise _fail(source, f"cost.{key}", f"expected a number of at least 0, got {value!r}")
        values[key] = float(value)
    return ChangeCost(**values)


BAND_KEYS = ("between", "at_most", "at_least", "within")


def _targets(raw: Any, player_counts: Sequence[int], source: str) -> tuple[Target, ...]:
    if not isinstance(raw, list) or not raw:
        raise _fail(source, "targets", "expected at least one [[targets]] table")
    targets = []
    for index, table in enumerate(raw):
        key = f"targets[{index}]"
        if not isinstance(table, dict):
            raise _fail(source, key, "expected a table with metric and a band")
        _check_keys(table, ("name", "metric", "where", "weight", "around", *BAND_KEYS), source, key)
        targets.append(_target(table, key, player_counts, source))
    names = [target.name for target in targets]
    for index, name in enumerate(names):
        if names.index(name) != index:
            raise _fail(source, f"targets[{index}].name", f"{name!r} is taken by targets[{names.index(name)}]; "
                                                          "give each target its own name")
    return tuple(targets)


def _target(table: Mapping[str, Any], key: str, player_counts: Sequence[int], source: str) -> Target:
    metric = table.get("metric")
    if not isinstance(metric, str) or metric.count(".") != 1 or not all(metric.split(".")):
        raise _fail(source, f"{key}.metric", f"expected 'view.column' (e.g. 'faction_stats.win_rate'), got {metric!r}")
    view, column = metric.split(".")
    forms = [name for name in BAND_KEYS if name in table]
    if ("around" in table) != ("within" in table):
        raise _fail(source, key, "around goes with within (around = 0.25, within = 0.03), and within with around")
    if len(forms) != 1:
        raise _fail(source, key, f"expected exactly one of between, at_most, at_least or around + within, got "
                                 f"{', '.join(forms) or 'none'}")
    low, high, around, text = _band(table, forms[0], key, source)
    if not isinstance(around, str):  # a band that moves with another column is judged row by row
        _check_band_in_range(metric, low, high, text, key, source)
    else:
        _check_relative_band(metric, float(table["within"]), text, key, source)
    where = table.get("where", {})
    if not isinstance(where, dict):
        raise _fail(source, f"{key}.where", "expected a table of column = value")
    count = where.get("n_players")
    if count is not None and count not in player_counts:
        raise _fail(source, f"{key}.where.n_players",
                    f"impossible target: the spec plays {list(player_counts)} players, not {count!r}")
    seat = where.get("seat")
    seats: int = max(player_counts) if count is None else int(count)
    if isinstance(seat, int) and not isinstance(seat, bool) and not 0 <= seat < seats:  # a wrong type: check_targets
        # No row can ever have it: the search would play every trial and then find nothing to judge.
        raise _fail(source, f"{key}.where.seat",
                    f"impossible target: seats are 0 to {seats - 1} at {count or list(player_counts)} players, "
                    f"not {seat}")
    weight = table.get("weight", 1.0)
    if not _is_number(weight) or weight <= 0:
        raise _fail(source, f"{key}.weight", f"expected a positive number, got {weight!r}")
    name = table.get("name", metric + "".join(f" {column}={value}" for column, value in where.items()))
    if not isinstance(name, str) or not name:
        raise _fail(source, f"{key}.name", f"expected a non-empty string, got {name!r}")
    where_text = "".join(f", {column} = {value!r}" for column, value in where.items())
    return Target(name=name, view=view, column=column, low=low, high=high,
                  around=around if isinstance(around, str) else None, where=dict(where), weight=float(weight),
                  text=f"{metric} {text}{where_text}")


def metric_range(column: str) -> tuple[float, float, str] | None:
    """The values a metric column can take, ``(lowest, highest, words)``, where its name
    says so (``RATE_SUFFIXES``, ``RATE_DIFFERENCE_SUFFIXES``); None for any other column."""
    if column.endswith(RATE_SUFFIXES):
        return 0.0, 1.0, "a proportion in [0, 1]"
    if column.endswith(RATE_DIFFERENCE_SUFFIXES):
        return -1.0, 1.0, "a difference of two proportions in [-1, 1]"
    return None


def _check_band_in_range(metric: str, low: float | None, high: float | None, text: str, key: str,
                         source: str) -> None:
    """Refuse a fixed band that the metric's possible values (``metric_range``) never meet,
    whose search could only end "not met", or that they always meet, which no candidate
    can miss, so it would steer nothing."""
    possible = metric_range(metric.split(".")[1])
    if possible is None:
        return
    lowest, highest, words = possible
    band_low, band_high = -math.inf if low is None else low, math.inf if high is None else high
    if band_high < lowest or band_low > highest:
        raise _fail(source, key, f"impossible target: {metric} is {words}, the band is {text}")
    if band_low <= lowest and band_high >= highest:
        raise _fail(source, key, f"a target that can never be missed: {metric} is {words}, the band is {text}; "
                                 "expected a band that excludes part of it")


def _check_relative_band(metric: str, within: float, text: str, key: str, source: str) -> None:
    """Refuse a band around another column that holds every value the metric can take:
    with the centre anywhere in the metric's range (``metric_range``), a distance of at
    least the range's width on each side leaves nothing to miss."""
    possible = metric_range(metric.split(".")[1])
    if possible is None:
        return
    lowest, highest, words = possible
    if within >= highest - lowest:
        raise _fail(source, key, f"a target that can never be missed: {metric} is {words}, the band is {text}; "
                                 f"expected a distance below {highest - lowest:g}")


def _band(table: Mapping[str, Any], form: str, key: str, source: str) -> tuple[float | None, float | None, Any, str]:
    """``(low, high, around, text)`` of a target's band."""
    value = table[form]
    if form == "between":
        if not isinstance(value, list) or len(value) != 2 or not all(_is_number(item) for item in value):
            raise _fail(source, f"{key}.between", f"expected [low, high] numbers, got {value!r}")
        if value[0] > value[1]:
            raise _fail(source, f"{key}.between", f"impossible target: the band {value!r} is empty (low above high)")
        return float(value[0]), float(value[1]), None, f"in [{value[0]:g}, {value[1]:g}]"
    if form in ("at_most", "at_least"):
        if not _is_number(value):
            raise _fail(source, f"{key}.{form}", f"expected a number, got {value!r}")
        text = f"{form.replace('_', ' ')} {value:g}"
        return (None, float(value), None, text) if form == "at_most" else (float(value), None, None, text)
    around = table["around"]
    if not _is_number(value) or value <= 0:
        raise _fail(source, f"{key}.within", f"impossible target: expected a positive distance, got {value!r}")
    if isinstance(around, str):
        return -float(value), float(value), around, f"within {value:g} of {around}"
    if not _is_number(around):
        raise _fail(source, f"{key}.around", f"expected a number or a column of the view, got {around!r}")
    return (float(around) - value, float(around) + value, float(around),
            f"within {value:g} of {around:g}")


# ------------------------------------------------------------------ a change in words


def value_words(value: Any) -> str:
    """A parameter value as a designer writes it: effect lists joined by commas
    (``draw 2, explore 1``), stat lines as ``[12, 8, 3, 4]``, text without quotes."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, list):
        if value and all(isinstance(item, str) for item in value):
            return ", ".join(value)
        return "[" + ", ".join(value_words(item) for item in value) + "]"
    return str(value)


def change_words(path: str, current: Any, value: Any, names: Mapping[str, str] | None = None) -> str:
    """One parameter's change in a designer's words: ``cards.oracle.use`` from
    ``["draw 2"]`` to ``["draw 1"]`` is ``Oracle: use draw 2 -> draw 1``; a rule is
    ``Rules: treasure target 20 -> 26``; another group's member is named by its ``name``
    in the card data when it has one (``names``: group path -> name), else by its key
    (``Giant Slayers (power): cards per hit 1 -> 0``)."""
    group, _, rest = path.partition(".")
    if group == "rules" or not rest:
        owner, field = "Rules", rest or path
    else:
        key, _, field = rest.partition(".")
        owner = (names or {}).get(f"{group}.{key}") or key.replace("_", " ").title()
        if group != "cards":
            single = group[:-3] + "y" if group.endswith("ies") else group.removesuffix("s")
            owner = f"{owner} ({single})"
        field = field or key
    return f"{owner}: {field.replace('_', ' ').replace('.', ' ')} {value_words(current)} -> {value_words(value)}"


# ------------------------------------------------------------------ writing an experiment


def toml_value(value: Any) -> str:
    """``value`` (a parameter value: string, boolean, number or list of them) as TOML."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        text = repr(value)
        return text if any(mark in text for mark in ".en") else text + ".0"
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(item) for item in value) + "]"
    raise TypeError(f"no TOML form for {value!r}")


def experiment_toml(spec: TuningSpec, name: str, variant: str, overrides: Mapping[str, Any], games: int,
                    comments: Sequence[str], seed: int | None = None) -> str:
    """An experiment file (``cardlab run`` reads it) that plays ``overrides`` as the
    variant ``variant`` against the current data on paired seeds, with this
    spec's game, agents and player counts and experiment seed ``seed`` (default: the
    spec's); ``comments`` head it."""
    lines = [*(f"# {comment}" for comment in comments), "",
             f"name = {toml_value(name)}",
             f"game = {toml_value(spec.game)}",
             f"description = {toml_value(f'The change found by cardlab tune {spec.name}, against the current data.')}",
             f"games = {games}",
             f"seed = {spec.base.seed if seed is None else seed}",
             f"player_counts = {toml_value(list(spec.base.player_counts))}",
             f"agents = {toml_value([str(agent) for agent in spec.base.agents])}",
             f"rotate_seats = {toml_value(spec.base.rotate_seats)}",
             f"shard_size = {spec.base.shard_size}",
             "paired_seeds = true",
             "",
             f"[variants.{variant}]"]
    lines.extend(f"{json.dumps(path)} = {toml_value(value)}" for path, value in overrides.items())
    return "\n".join(lines) + "\n"
