"""Experiment specs: read a TOML file, validate every key, expand into shards.

A spec names a game, the number of games, the seed, the player counts, the
agents per seat, the shard size and the variants (sets of dotted-path
parameter overrides). Every mistake raises ``SpecError`` whose message names
the file, the key and what was expected, in one line.

See the README ("Experiment files") for the format.
"""

from __future__ import annotations

import itertools
import json
import math
import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from experiments.impact import ImpactPlan, ImpactTableError, parse_impact_table
from simcore.agents.registry import AgentSpec, AgentSpecError, parse_agent_spec
from simcore.api import Game
from simcore.parameters import ParameterError, apply_overrides, flatten_overrides
from simcore.registry import UnknownGameError, get_game

BASELINE = "baseline"
NAME_PATTERN = re.compile(r"\A[A-Za-z0-9][A-Za-z0-9_.-]{0,99}\Z")
"""An experiment, variant or token name: no slash, no leading dot, nothing after it (checked with
``fullmatch``; ``\\Z``, not ``$``, which would let a final newline through, even to ``match``)."""
KNOWN_KEYS = {
    "name", "game", "games", "seed", "player_counts", "agents", "rotate_seats",
    "shard_size", "variants", "description", "sweep", "paired_seeds", "stop_when", "impact", "deal_replays",
}
SWEEP_AGENTS = "agents"
DEFAULT_SHARD_SIZE = 5000

# Upper bounds of every count in a spec. Far above any real experiment (the
# largest shipped one plays 10,000,000 games), they turn a typo such as
# ``games = 9223372036854775807`` into a one-line error instead of a driver
# that plans shards for ever.
MAX_GAMES = 1_000_000_000
"""Games per variant and player count."""
MAX_SHARD_SIZE = 1_000_000
"""Games per shard: one worker holds a whole shard's rows in memory (about 4 GB at this size)."""
MAX_TOTAL_GAMES = 10_000_000_000
"""Games over every variant and player count."""
MAX_SHARDS = 1_000_000
"""Shards (Ray tasks, Parquet files per table, manifest entries) of one experiment."""
MAX_VARIANTS = 10_000
"""Variants, the baseline and every sweep grid point included."""
MAX_DEAL_REPLAYS = 1000
"""Plays of one deal (``deal_replays``)."""
MAX_SEED = 2**63 - 1
"""The largest experiment seed (TOML integers are signed 64-bit)."""


class SpecError(ValueError):
    """A problem with an experiment file; the message is the whole story."""


@dataclass(frozen=True)
class Variant:
    """A named set of parameter overrides, with its resolved parameter tree.

    A variant made by a ``[sweep]`` grid point has ``from_sweep`` set and may
    carry its own ``agents`` lineup (when the sweep varies the agents).
    """

    name: str
    overrides: dict[str, Any]
    parameters: dict[str, Any]
    agents: tuple[AgentSpec, ...] | None = None
    from_sweep: bool = False
    from_impact: bool = False
    """An arm of a card impact run (``[impact]``, ``experiments.impact``): ``impact.<card>.<arm>``."""
    own_seeds: bool = False
    """Played on seeds of its own even with ``paired_seeds`` (an impact run's ``one_fewer`` arms:
    a deck of another size would shift the game's random stream, see ``experiments.impact``)."""


@dataclass(frozen=True)
class Shard:
    """A contiguous range of game indices of one variant and player count."""

    variant: str
    n_players: int
    start: int
    stop: int

    @property
    def id(self) -> str:
        """A stable name, also used in file names."""
        return f"{self.variant}-{self.n_players}p-{self.start:010d}"

    @property
    def games(self) -> int:
        """Number of games in the shard."""
        return self.stop - self.start


@dataclass(frozen=True)
class ExperimentSpec:
    """A validated experiment (see the module docstring)."""

    name: str
    game: str
    games: int
    seed: int
    player_counts: tuple[int, ...]
    agents: tuple[AgentSpec, ...]
    rotate_seats: bool
    shard_size: int
    variants: tuple[Variant, ...]
    description: str = ""
    source: str = ""
    paired_seeds: bool = False
    stop_when: tuple[dict[str, Any], ...] = ()
    sweep: dict[str, list[Any]] = field(default_factory=dict)
    impact: ImpactPlan | None = None
    deal_replays: int = 1

    def deal(self, game_index: int) -> tuple[int, int]:
        """(deal, agent replay) of game ``game_index``: with ``deal_replays = K``, game i plays
        deal i // K (its seed and seating those of game i // K without replays) with the
        agents' seeds of replay i % K (``simcore.seeding.agent_seed``); K = 1, the default,
        plays deal i with replay 0: every game as it always was. The K plays of a deal
        differ only by the agents' choices, which measures how much the deal decides
        (``analytics.views.design``)."""
        return divmod(game_index, self.deal_replays)

    def seed_variant(self, variant: str) -> str:
        """The variant name that goes into a game's seed: with ``paired_seeds``
        every variant plays the baseline's seeds (so the same game index is the
        same deal, and variants can be compared game by game with McNemar's
        test); otherwise each variant has its own, as has a variant with ``own_seeds``."""
        if not self.paired_seeds:
            return variant
        own = any(chosen.own_seeds for chosen in self.variants if chosen.name == variant)
        return variant if own else BASELINE

    @property
    def total_games(self) -> int:
        """Games over all variants and player counts."""
        return self.games * len(self.variants) * len(self.player_counts)

    def variant(self, name: str) -> Variant:
        """The variant called ``name``."""
        for variant in self.variants:
            if variant.name == name:
                return variant
        raise KeyError(name)

    def lineup(self, n_players: int, game_index: int, variant: str | None = None) -> list[AgentSpec]:
        """Agents by seat: ``agents`` (or the variant's own, from a sweep)
        repeated around the table, then, when ``rotate_seats`` is on, that
        table rotated by one seat per game, so over any ``n_players``
        games every seat holds each agent equally often and every game
        seats the same agents (two agents at three seats: A B A, B A A,
        A A B; rotating the agent list itself would give A B A, B A B)."""
        agents = self.agents
        if variant is not None:
            agents = self.variant(variant).agents or agents
        table = [agents[seat % len(agents)] for seat in range(n_players)]
        offset = game_index % n_players if self.rotate_seats else 0
        return [table[(seat + offset) % n_players] for seat in range(n_players)]

    def sweep_values(self, variant: str) -> dict[str, Any]:
        """The value of each swept parameter (and ``agents``) in ``variant``;
        these become columns of the ``games`` table."""
        chosen = self.variant(variant)
        values: dict[str, Any] = {}
        for path in self.sweep:
            if path == SWEEP_AGENTS:
                values[path] = ",".join(str(agent) for agent in (chosen.agents or self.agents))
            else:
                node: Any = chosen.parameters
                for key in path.split("."):
                    node = node[key]
                values[path] = node
        return values

    def shards(self) -> list[Shard]:
        """All shards, in play order: the first shard of every variant and
        player count, then the second of each... so that partial results (and
        an early stop, see ``stop_when``) cover every variant evenly."""
        return [
            Shard(variant.name, n_players, start, min(start + self.shard_size, self.games))
            for start in range(0, self.games, self.shard_size)
            for variant in self.variants
            for n_players in self.player_counts
        ]

    def to_json_dict(self) -> dict[str, Any]:
        """The resolved spec as plain data (stored beside the results)."""
        return {
            "name": self.name,
            "game": self.game,
            "games": self.games,
            "seed": self.seed,
            "player_counts": list(self.player_counts),
            "agents": [str(agent) for agent in self.agents],
            "rotate_seats": self.rotate_seats,
            "shard_size": self.shard_size,
            "description": self.description,
            "variants": {variant.name: variant.overrides for variant in self.variants
                         if not variant.from_sweep and not variant.from_impact},
            "sweep": self.sweep,
            "paired_seeds": self.paired_seeds,
            "stop_when": list(self.stop_when),
            # Only in an impact run's spec, so that the stored identity of every other run is unchanged.
            **({"impact": self.impact.to_json_dict()} if self.impact is not None else {}),
            # Only when asked for: the specs of runs made without it stay the same (--resume).
            **({"deal_replays": self.deal_replays} if self.deal_replays != 1 else {}),
        }

    def identity(self) -> dict[str, Any]:
        """What must match for ``--resume`` to continue a run: everything that
        decides which games are played and how they are split into shards."""
        identity = self.to_json_dict()
        identity.pop("description")
        return identity


def first_difference(stored: Any, now: Any, then: str, path: str = "") -> str:
    """The first key where two specs (plain JSON data) differ, in words, e.g.
    ``confirm.games: 80000 when the search started, 8000 now`` (``then`` is "when
    the search started"), so a refused ``--resume`` says what changed."""
    if isinstance(stored, dict) and isinstance(now, dict):
        for key in sorted(set(stored) | set(now)):
            inner = f"{path}.{key}" if path else str(key)
            if key not in stored:
                return f"{inner}: not there {then}, {json.dumps(now[key])} now"
            if key not in now:
                return f"{inner}: {json.dumps(stored[key])} {then}, not there now"
            if stored[key] != now[key]:
                return first_difference(stored[key], now[key], then, inner)
    if isinstance(stored, list) and isinstance(now, list) and len(stored) == len(now):
        for index, (old, new) in enumerate(zip(stored, now, strict=True)):
            if old != new:
                return first_difference(old, new, then, f"{path}[{index}]")
    return f"{path or 'the spec'}: {json.dumps(stored)} {then}, {json.dumps(now)} now"


def _fail(source: str, key: str, expected: str) -> SpecError:
    return SpecError(f"{source}: {key}: {expected}")


def _positive_int(raw: Mapping[str, Any], key: str, default: int | None, source: str, maximum: int) -> int:
    value = raw.get(key, default)
    if value is None:
        raise _fail(source, key, "missing; expected a positive integer")
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise _fail(source, key, f"expected a positive integer, got {value!r}")
    if value > maximum:
        raise _fail(source, key, f"expected a positive integer of at most {maximum:,}, got {value:,}")
    return value


def _check_size(source: str, games: int, shard_size: int, variants: int, player_counts: int) -> None:
    """Refuse an experiment too large to plan: too many games or shards in all."""
    total = games * variants * player_counts
    if total > MAX_TOTAL_GAMES:
        raise _fail(source, "games", f"{games:,} games x {variants:,} variant(s) x {player_counts} player count(s) "
                    f"= {total:,} games; expected at most {MAX_TOTAL_GAMES:,} in all")
    shards = -(-games // shard_size) * variants * player_counts
    if shards > MAX_SHARDS:
        raise _fail(source, "shard_size", f"{shard_size:,} games per shard make {shards:,} shards; expected at "
                    f"most {MAX_SHARDS:,} (a larger shard_size)")


def read_toml_file(path: Path, expected: str, error: type[SpecError] = SpecError) -> dict[str, Any]:
    """The TOML table in ``path``; a missing file, a folder or bad TOML raises
    ``error`` in one line naming the file and saying it should be ``expected``
    (e.g. "an experiment TOML file")."""
    source = str(path)
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except FileNotFoundError:
        raise error(f"{source}: file not found; expected {expected}") from None
    except IsADirectoryError:
        raise error(f"{source}: is a folder; expected {expected}") from None
    except tomllib.TOMLDecodeError as problem:
        raise error(f"{source}: not valid TOML ({problem})") from None


def load_spec(path: str | Path) -> ExperimentSpec:
    """Read and validate an experiment file; raise ``SpecError`` on any problem.

    The ``[[stop_when]]`` targets are checked here for their shape only; whether
    the metric views have them is a question for ``analytics``, which the
    callers that run a spec ask next (``drivers.run.load_checked_spec``).
    """
    path = Path(path)
    raw = read_toml_file(path, "an experiment TOML file")
    return parse_spec(raw, str(path), default_name=path.stem)


def parse_spec(raw: Mapping[str, Any], source: str, default_name: str = "") -> ExperimentSpec:
    """Validate an already-parsed spec mapping (``source`` names it in errors)."""
    unknown = sorted(set(raw) - KNOWN_KEYS)
    if unknown:
        raise _fail(source, unknown[0], f"unknown key; expected one of {', '.join(sorted(KNOWN_KEYS))}")

    name = raw.get("name", default_name)
    if not isinstance(name, str) or not NAME_PATTERN.fullmatch(name):
        raise _fail(source, "name", f"expected letters, digits, '_', '-' or '.' (no slashes), got {name!r}")

    game_id = raw.get("game")
    if not isinstance(game_id, str):
        raise _fail(source, "game", f"expected a game id string, got {game_id!r}")
    try:
        game = get_game(game_id)
    except UnknownGameError as error:
        raise _fail(source, "game", str(error)) from None

    games = _positive_int(raw, "games", None, source, MAX_GAMES)
    shard_size = _positive_int(raw, "shard_size", DEFAULT_SHARD_SIZE, source, MAX_SHARD_SIZE)
    seed = raw.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise _fail(source, "seed", f"expected a non-negative integer, got {seed!r}")
    if seed > MAX_SEED:
        raise _fail(source, "seed", f"expected a non-negative integer of at most {MAX_SEED}, got {seed}")

    player_counts = _player_counts(raw, game, source)
    agents = _agents(raw, source)
    rotate_seats = raw.get("rotate_seats", False)
    if not isinstance(rotate_seats, bool):
        raise _fail(source, "rotate_seats", f"expected true or false, got {rotate_seats!r}")
    description = raw.get("description", "")
    if not isinstance(description, str):
        raise _fail(source, "description", "expected a string")
    paired_seeds = raw.get("paired_seeds", False)
    if not isinstance(paired_seeds, bool):
        raise _fail(source, "paired_seeds", f"expected true or false, got {paired_seeds!r}")

    deal_replays = _positive_int(raw, "deal_replays", 1, source, MAX_DEAL_REPLAYS)
    if games % deal_replays:
        raise _fail(source, "deal_replays", f"{games:,} games are not whole deals of {deal_replays} plays; expected "
                    f"games to be a multiple of deal_replays")
    variants = _variants(raw, game, source, player_counts)
    sweep = _sweep_table(raw, source)
    variants += _sweep_variants(sweep, game, source, {variant.name for variant in variants}, player_counts)
    impact = None
    if "impact" in raw:
        if raw.get("paired_seeds", True) is not True:
            raise _fail(source, "paired_seeds", "a card impact run ([impact]) plays its arms on the baseline's "
                        "seeds; leave paired_seeds out or set it to true")
        impact, arms = _impact_variants(raw["impact"], game, source, {variant.name for variant in variants})
        variants += arms
        paired_seeds = True
    _check_size(source, games, shard_size, len(variants), len(player_counts))
    return ExperimentSpec(
        name=name,
        game=game_id,
        games=games,
        seed=seed,
        player_counts=player_counts,
        agents=agents,
        rotate_seats=rotate_seats,
        shard_size=shard_size,
        variants=variants,
        description=description,
        source=source,
        sweep=sweep,
        paired_seeds=paired_seeds,
        stop_when=_stop_when(raw, source),
        impact=impact,
        deal_replays=deal_replays,
    )


def _impact_variants(table: Any, game: Game, source: str, taken: set[str]
                     ) -> tuple[ImpactPlan, tuple[Variant, ...]]:
    """The ``[impact]`` table (``experiments.impact``) and one variant per arm of each card."""
    try:
        plan = parse_impact_table(table, game)
    except ImpactTableError as error:
        raise _fail(source, error.key, error.expected) from None
    if len(plan.played) + len(taken) > MAX_VARIANTS:
        raise _fail(source, "impact.cards", f"{len(plan.played):,} arms; expected at most {MAX_VARIANTS:,} "
                    "variants in all")
    clash = sorted(taken & {arm.variant for arm in plan.played})
    if clash:
        raise _fail(source, f"variants.{clash[0]}", "this name is used by an arm of [impact]")
    return plan, tuple(Variant(arm.variant, arm.overrides, arm.parameters, from_impact=True,
                               own_seeds=not arm.paired) for arm in plan.played)


def _player_counts(raw: Mapping[str, Any], game: Game, source: str) -> tuple[int, ...]:
    info = game.info
    value = raw.get("player_counts", [info.min_players])
    if isinstance(value, int) and not isinstance(value, bool):
        value = [value]
    if not isinstance(value, list) or not value:
        raise _fail(source, "player_counts", f"expected a non-empty list of integers, got {value!r}")
    allowed = f"{info.min_players}" if info.min_players == info.max_players else (
        f"{info.min_players} to {info.max_players}")
    for count in value:
        if isinstance(count, bool) or not isinstance(count, int):
            raise _fail(source, "player_counts", f"expected integers, got {count!r}")
        if not info.min_players <= count <= info.max_players:
            raise _fail(source, "player_counts",
                        f"{info.id} is played by {allowed} players, got {count}")
    if len(set(value)) != len(value):
        raise _fail(source, "player_counts", f"each player count once, got {value!r}")
    return tuple(value)


def _agents(raw: Mapping[str, Any], source: str, key: str = "agents") -> tuple[AgentSpec, ...]:
    value = raw.get("agents", ["random"])
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not value:
        raise _fail(source, key, f"expected a non-empty list of agent names, got {value!r}")
    agents = []
    for index, text in enumerate(value):
        if not isinstance(text, str):
            raise _fail(source, f"{key}[{index}]", f"expected an agent name string, got {text!r}")
        try:
            agents.append(parse_agent_spec(text))
        except AgentSpecError as error:
            raise _fail(source, f"{key}[{index}]", str(error)) from None
    return tuple(agents)


def _stop_when(raw: Mapping[str, Any], source: str) -> tuple[dict[str, Any], ...]:
    """``[[stop_when]]`` targets: stop once every interval is narrow enough
    (format: ``analytics.metrics.targets_met``). Their form is checked here; what
    needs the metric views (the view, the rate, the where columns) by
    ``load_spec``."""
    targets = raw.get("stop_when", [])
    if not isinstance(targets, list):
        raise _fail(source, "stop_when", "expected an array of tables ([[stop_when]])")
    for index, target in enumerate(targets):
        key = f"stop_when[{index}]"
        if not isinstance(target, dict):
            raise _fail(source, key, "expected a table with view, rate and max_width")
        unknown = sorted(set(target) - {"view", "rate", "max_width", "where"})
        if unknown:
            raise _fail(source, f"{key}.{unknown[0]}", "unknown key; expected view, rate, max_width or where")
        for name in ("view", "rate"):
            if not isinstance(target.get(name), str):
                raise _fail(source, f"{key}.{name}", f"expected a string, got {target.get(name)!r}")
        width = target.get("max_width")
        if isinstance(width, bool) or not isinstance(width, (int, float)) or not 0 < width < 1:
            raise _fail(source, f"{key}.max_width", f"expected a number between 0 and 1, got {width!r}")
        if not isinstance(target.get("where", {}), dict):
            raise _fail(source, f"{key}.where", "expected a table of column = value")
    return tuple(dict(target) for target in targets)


def _sweep_table(raw: Mapping[str, Any], source: str) -> dict[str, list[Any]]:
    """The ``[sweep]`` table: dotted parameter path (or ``agents``) -> list of values."""
    table = raw.get("sweep", {})
    if not isinstance(table, dict):
        raise _fail(source, "sweep", "expected a table of parameter paths to lists of values")
    sweep = {}
    for path, values in flatten_overrides(table).items():
        if not isinstance(values, list) or not values:
            raise _fail(source, f"sweep.{path}", f"expected a non-empty list of values, got {values!r}")
        if len({repr(value) for value in values}) != len(values):
            raise _fail(source, f"sweep.{path}", f"each value once, got {values!r}")
        sweep[path] = values
    return sweep


def check_player_counts(game: Game, config: Any, player_counts: Sequence[int]) -> None:
    """Raise ``ParameterError`` naming the parameter of ``config`` (a configured variant) that
    makes one of ``player_counts`` impossible (``KitGame.check_players``: a Party Wanted
    composition naming fewer heroes than seats...), so that the spec is refused before
    anything is played instead of every shard failing in its worker. A game object without
    ``check_players`` (one not made with the kit) has no such parameters to check."""
    check = getattr(game, "check_players", None)
    if check is None:
        return
    for n_players in player_counts:
        check(config, n_players)


def _sweep_variants(
    sweep: dict[str, list[Any]], game: Game, source: str, taken: set[str], player_counts: Sequence[int]
) -> tuple[Variant, ...]:
    """One variant per point of the sweep grid, named ``sweep-000``, ``sweep-001``..."""
    if not sweep:
        return ()
    points = math.prod(len(values) for values in sweep.values())
    if points + len(taken) > MAX_VARIANTS:
        raise _fail(source, "sweep", f"a grid of {points:,} points; expected at most {MAX_VARIANTS:,} variants in all")
    defaults = game.default_parameters()
    paths = list(sweep)
    variants = []
    for index, point in enumerate(itertools.product(*(sweep[path] for path in paths))):
        name = f"sweep-{index:03d}"
        if name in taken:
            raise _fail(source, f"variants.{name}", "this name is used by the sweep's grid points")
        overrides = {path: value for path, value in zip(paths, point, strict=True) if path != SWEEP_AGENTS}
        agents = None
        if SWEEP_AGENTS in sweep:
            lineup = point[paths.index(SWEEP_AGENTS)]
            agents = _agents({"agents": lineup}, source, key=f"sweep.agents[{sweep[SWEEP_AGENTS].index(lineup)}]")
        try:
            parameters = apply_overrides(defaults, overrides)
            check_player_counts(game, game.configure(parameters), player_counts)
        except ParameterError as error:
            raise _fail(source, f"sweep.{error.path}", f"{error.message} (grid point {dict(overrides)})") from None
        variants.append(Variant(name, overrides, parameters, agents=agents, from_sweep=True))
    return tuple(variants)


def _variants(raw: Mapping[str, Any], game: Game, source: str, player_counts: Sequence[int]) -> tuple[Variant, ...]:
    table = raw.get("variants", {})
    if not isinstance(table, dict):
        raise _fail(source, "variants", "expected a table of variants ([variants.NAME])")
    if len(table) > MAX_VARIANTS:
        raise _fail(source, "variants", f"{len(table):,} variants; expected at most {MAX_VARIANTS:,}")
    defaults = game.default_parameters()
    variants = []
    names = [BASELINE] + [name for name in table if name != BASELINE]
    for name in names:
        overrides_table = table.get(name, {})
        key = f"variants.{name}"
        if not NAME_PATTERN.fullmatch(name):
            shown = key if name.isprintable() else f"variants.{name!r}"  # the error stays one line
            raise _fail(source, shown, "variant names use letters, digits, '_', '-' or '.'")
        if not isinstance(overrides_table, dict):
            raise _fail(source, key, "expected a table of parameter overrides")
        if name == BASELINE and overrides_table:
            raise _fail(source, key, "the baseline uses the game's defaults; put overrides in another variant")
        overrides = flatten_overrides(overrides_table)
        try:
            parameters = apply_overrides(defaults, overrides)
            check_player_counts(game, game.configure(parameters), player_counts)
        except ParameterError as error:
            # The baseline has no overrides: what its defaults cannot seat is the player count's fault.
            where = f"{key}.{error.path}" if overrides else f"player_counts: {error.path}"
            raise _fail(source, where, error.message) from None
        variants.append(Variant(name, overrides, parameters))
    return tuple(variants)


class ReplayError(SpecError):
    """A game that the experiment did not play (unknown variant, player count or game index)."""


@dataclass(frozen=True)
class ReplaySetup:
    """Everything needed to play one game of an experiment again, exactly as it was played."""

    game: str
    parameters: dict[str, Any]
    n_players: int
    seed: int
    lineup: list[AgentSpec]
    variant: str
    game_index: int
    agent_replay: int = 0


def replay_setup(spec: ExperimentSpec, variant: str = BASELINE, n_players: int | None = None,
                 game_index: int = 0) -> ReplaySetup:
    """The game, parameters, seed and agents of game ``game_index`` of ``variant``
    at ``n_players`` (default: the spec's first player count), rebuilt from the
    spec the way the shards played it (``experiments.spec`` seeds, lineups
    and variant parameters). Raises ``ReplayError`` naming the bad argument.
    """
    from simcore.seeding import game_seed

    try:
        chosen = spec.variant(variant)
    except KeyError:
        names = ", ".join(known.name for known in spec.variants)
        raise ReplayError(f"variant: {spec.name} has no variant {variant!r}; expected one of {names}") from None
    players = n_players or spec.player_counts[0]
    if players not in spec.player_counts:
        raise ReplayError(f"players: {spec.name} was played with {list(spec.player_counts)} players, got {players}")
    if not 0 <= game_index < spec.games:
        raise ReplayError(f"game-index: expected 0 to {spec.games - 1}, got {game_index}")
    deal, agent_replay = spec.deal(game_index)
    seed = game_seed(spec.seed, spec.seed_variant(chosen.name), players, deal)
    return ReplaySetup(spec.game, chosen.parameters, players, seed, spec.lineup(players, deal, chosen.name),
                       chosen.name, game_index, agent_replay)
