"""What-if experiments: a base experiment, a few changed parameters, written out as a full spec.

A what-if is what a designer asks from the dashboard's New run page ("what if
Fireball had two copies?"): the base experiment's game, seed, agents, seat
rotation and shard size, a number of games and player counts, and one variant
``whatif`` holding the changed parameters, played on the baseline's seeds
(``paired_seeds = true``) so that the comparison is game by game.

``whatif_spec`` builds the experiment through the spec reader itself
(``experiments.spec.parse_spec``), so a bad value is the reader's own
one-line ``SpecError``; ``whatif_toml`` writes it out as the TOML file a user
could have written (``cardlab run`` reads it back to the same spec).

``parameter_rows`` lists every ``rules.*`` and ``cards.*`` path of a game with
its type and current value (the game's default, which is the baseline);
``probe_range`` adds the range the game's own validator (``Game.configure``)
accepts, found by asking that validator (no game declares its ranges
elsewhere). Probing costs tens of validator calls per parameter (a Party
Wanted tree of 1,700 leaves would take minutes), so the form probes only the
rows it shows.
"""

from __future__ import annotations

import contextlib
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from experiments.spec import BASELINE, ExperimentSpec, SpecError, parse_spec
from experiments.tuning import toml_value
from simcore.agents.imported import is_import_path
from simcore.agents.registry import AGENT_NAMES, AgentSpecError, parameter_readers, read_agent_text
from simcore.parameters import ParameterError, apply_overrides, flatten, flatten_overrides, type_name
from simcore.registry import get_game

WHATIF_VARIANT = "whatif"
"""The name of the variant holding the changed parameters."""
PROBE_LIMIT = 2**16
"""How far from its current value an integer's range is looked for; beyond it, no bound is shown.
Also the largest number a what-if may set: a card's copies or a round count far beyond it would
build decks or games the size of the machine's memory in the dashboard's own process."""
SEARCH_LIMITS = {"iterations": 2_000, "rollouts": 200, "max_steps": 10_000}
"""The most search a what-if's agents may ask for per decision (``ismcts(iterations=...)``,
``osla(rollouts=...)``, either's ``max_steps``): a run launched from the browser holds one of
the dashboard's few run slots, and the games cap does not bound a decision's cost."""


@dataclass(frozen=True)
class ParameterRow:
    """One parameter of a game as the New run form shows it; ``probed`` once its range was asked for."""

    path: str
    type: str
    current: Any
    low: float | None = None
    high: float | None = None
    probed: bool = False
    choices: str = ""
    """For a string: what the validator expects (``one of a, b, c``), or ``any text``."""

    @property
    def range_text(self) -> str:
        """``0 to 20``, ``at least 1``, ``at most 1``, ``true or false``, ``any`` (``""`` before probing)."""
        if isinstance(self.current, bool):
            return "true or false"
        if not self.probed:
            return ""
        if self.choices:
            return self.choices
        if self.low is not None and self.high is not None:
            return f"{self.low:g} to {self.high:g}"
        if self.low is not None:
            return f"at least {self.low:g}"
        if self.high is not None:
            return f"at most {self.high:g}"
        return "any"


def _refusal(game_id: str, defaults: Mapping[str, Any], path: str, value: Any) -> str | None:
    """The game validator's message refusing ``value`` at ``path`` (every other parameter at
    its default), or None when it accepts the value."""
    game = get_game(game_id)
    try:
        game.configure(apply_overrides(defaults, {path: value}))
    except ParameterError as error:
        return error.message
    return None


def _accepted(game_id: str, defaults: Mapping[str, Any], path: str, value: Any) -> bool:
    """Whether the game's validator accepts ``value`` at ``path``."""
    return _refusal(game_id, defaults, path, value) is None


def _integer_bound(game_id: str, defaults: Mapping[str, Any], path: str, current: int, direction: int) -> int | None:
    """The last accepted integer from ``current`` going in ``direction`` (-1 or +1), or None
    when every value up to ``PROBE_LIMIT`` away is accepted. Assumes the accepted values
    form one interval around ``current`` (true of every bound the games check)."""
    good, step = current, 1
    while step <= PROBE_LIMIT:
        candidate = current + direction * step
        if not _accepted(game_id, defaults, path, candidate):
            bad = candidate
            while abs(bad - good) > 1:  # bisect between the last accepted and the first refused
                middle = (good + bad) // 2
                if _accepted(game_id, defaults, path, middle):
                    good = middle
                else:
                    bad = middle
            return good
        good, step = candidate, step * 2
    return None


def _number_bounds(game_id: str, defaults: Mapping[str, Any], path: str, current: float) -> tuple[float | None,
                                                                                                 float | None]:
    """Bounds of a real-valued parameter: 0 and 1 when the validator stops there (shares,
    probabilities), else none shown."""
    low = 0.0 if current >= 0 and not _accepted(game_id, defaults, path, -1e-9) else None
    high = 1.0 if current <= 1 and not _accepted(game_id, defaults, path, 1 + 1e-9) else None
    return low, high


def parameter_rows(game_id: str) -> list[ParameterRow]:
    """Every ``rules.*`` and ``cards.*`` leaf of ``game_id`` with its type and default (not yet
    probed: ``probe_range`` asks the validator, a few milliseconds per value tried)."""
    defaults = get_game(game_id).default_parameters()
    return [ParameterRow(path, type_name(value), value) for path, value in flatten(defaults)
            if path.startswith(("rules.", "cards."))]


def probe_range(game_id: str, row: ParameterRow) -> ParameterRow:
    """``row`` with the range the game's validator accepts for it, every other parameter at its
    default: integers searched both ways from the current value, real numbers checked at 0 and 1."""
    defaults = get_game(game_id).default_parameters()
    low: float | None = None
    high: float | None = None
    value = row.current
    if isinstance(value, int) and not isinstance(value, bool):
        low = _integer_bound(game_id, defaults, row.path, value, -1)
        high = _integer_bound(game_id, defaults, row.path, value, +1)
    elif isinstance(value, float):
        low, high = _number_bounds(game_id, defaults, row.path, value)
    elif isinstance(value, str):
        # A string the game checks says what it expects when refused (``expected one of ...``).
        refusal = _refusal(game_id, defaults, row.path, "\u2049 not a value \u2049")
        return replace(row, probed=True, choices=refusal.split("expected ", 1)[-1] if refusal else "any text")
    return replace(row, low=low, high=high, probed=True)


def parse_form_value(text: str, current: Any) -> Any:
    """A value typed into the form, read as TOML the way ``--set PATH=VALUE`` reads it (``2``,
    ``0.5``, ``true``, ``[1, 2]``, ``"text"``); text that is not TOML stays a string, and so
    does anything typed for a string parameter (``4`` there is the text ``"4"``). A table, a
    date or more than one value (``5`` and further TOML lines) is a ``SpecError``."""
    try:
        parsed = tomllib.loads(f"value = {text.strip()}")
    except tomllib.TOMLDecodeError:
        return text.strip()
    value = parsed["value"]
    if isinstance(current, str) and not isinstance(value, str):
        return text.strip()
    if len(parsed) != 1 or not _plain(value):
        raise SpecError(f"new value {text.strip()!r}: expected one number, true or false, text, or a list of those")
    return value


def _plain(value: Any) -> bool:
    """A number, boolean, text or (nested) list of them: what a parameter can hold."""
    if isinstance(value, list):
        return all(_plain(item) for item in value)
    return isinstance(value, bool | int | float | str)


def _too_large(value: Any) -> bool:
    """Whether a number in ``value`` (a list's too) is beyond ``PROBE_LIMIT`` either way."""
    if isinstance(value, list):
        return any(_too_large(item) for item in value)
    return isinstance(value, int | float) and not isinstance(value, bool) and abs(value) > PROBE_LIMIT


def import_path_refusal(source: str, agents: Sequence[Any]) -> str | None:
    """Why the New run page must not even read this lineup, or None: an agent class by import
    path, refused by its name alone, before the spec reader sees it (reading such an agent
    imports its module, running its code in the dashboard). ``cardlab run`` takes it from a file."""
    for index, text in enumerate(agents):
        try:
            name, _parameters = read_agent_text(str(text))
        except AgentSpecError:
            continue  # not an agent's form: the spec reader says so in its own words
        if is_import_path(name):
            return (f"{source}: agents[{index}]: {name!r} is an agent class by import path, which the New "
                    f"run page does not load (importing it would run its module's code in the dashboard); expected "
                    f"one of {', '.join(AGENT_NAMES)}, or play it with `cardlab run`")
    return None


def browser_refusal(spec: ExperimentSpec, source: str) -> str | None:
    """Why the New run page must not launch ``spec``, or None. Checked on the spec as parsed,
    so on the values the run will play, whatever their spelling in the form (``2_000_000``,
    ``+5000`` and ``2000000`` are one number to the agent reader).

    Refused: search beyond ``SEARCH_LIMITS`` per decision (``iterations``, ``rollouts``,
    ``max_steps`` of every agent the run plays), agent classes by import path (refused by
    ``import_path_refusal`` before they are read), and numbers beyond ``PROBE_LIMIT`` in the
    variants' parameters; ``cardlab run`` takes them all from a file."""
    lineups = [spec.agents, *(variant.agents for variant in spec.variants if variant.agents is not None)]
    for lineup in lineups:
        refusal = import_path_refusal(source, [str(agent) for agent in lineup])
        if refusal is not None:
            return refusal
        for index, agent in enumerate(lineup):
            readers, _required = parameter_readers(agent.name)
            for key, text in sorted(agent.parameters.items()):
                limit = SEARCH_LIMITS.get(key)
                value = readers[key](text) if key in readers else None
                if limit is not None and isinstance(value, int) and value > limit:
                    return (f"{source}: agents[{index}]: {key}={value} is more search per decision than the New "
                            f"run page launches (at most {limit:,}); play it with `cardlab run`")
    return next((refusal for variant in spec.variants
                 if (refusal := _number_refusal(source, variant.name, variant.overrides)) is not None), None)


def _number_refusal(source: str, variant: str, overrides: Mapping[str, Any]) -> str | None:
    """Why a variant's parameters are beyond the numbers the New run page launches, or None."""
    for path, value in overrides.items():
        if _too_large(value):
            return (f"{source}: variants.{variant}.{path}: {value!r} is beyond what the New run page launches "
                    f"(numbers up to {PROBE_LIMIT:,} either way); play it with `cardlab run`")
    return None


def read_launch(toml_text: str, source: str) -> ExperimentSpec:
    """The experiment a launched run will play: ``toml_text`` (the file ``cardlab run`` reads)
    read as ``cardlab run`` reads it, then held to the New run page's bounds
    (``browser_refusal``); ``SpecError`` (one line naming ``source``) otherwise."""
    try:
        raw = tomllib.loads(toml_text)
    except tomllib.TOMLDecodeError as error:
        raise SpecError(f"{source}: not valid TOML ({error})") from None
    agents, variants = raw.get("agents"), raw.get("variants")
    refusal = import_path_refusal(source, agents) if isinstance(agents, list) else None
    for name, table in (variants.items() if isinstance(variants, dict) else ()):
        with contextlib.suppress(ParameterError, AttributeError):  # a bad shape: the spec reader names it
            refusal = refusal or _number_refusal(source, str(name), flatten_overrides(table))
    if refusal is not None:
        raise SpecError(refusal)
    spec = parse_spec(raw, source)
    refusal = browser_refusal(spec, source)
    if refusal is not None:
        raise SpecError(refusal)
    return spec


def whatif_raw(base: ExperimentSpec, name: str, overrides: Mapping[str, Any], games: int,
               player_counts: Sequence[int], agents: Sequence[str], description: str = "") -> dict[str, Any]:
    """The what-if as the plain mapping a TOML file holds (see the module docstring)."""
    changed = ", ".join(f"{path} = {toml_value(value)}" for path, value in overrides.items()) or "nothing"
    return {
        "name": name,
        "game": base.game,
        "description": description or f"What if {changed}? (from {base.name}, against the game's defaults)",
        "games": games,
        "seed": base.seed,
        "player_counts": list(player_counts),
        "agents": list(agents),
        "rotate_seats": base.rotate_seats,
        "shard_size": min(base.shard_size, games),
        "paired_seeds": True,
        "variants": {WHATIF_VARIANT: dict(overrides)},
    }


def whatif_spec(base: ExperimentSpec, name: str, overrides: Mapping[str, Any], games: int,
                player_counts: Sequence[int], agents: Sequence[str], source: str,
                description: str = "") -> ExperimentSpec:
    """The what-if experiment, validated by the spec reader (``source`` names it in errors).

    Raises ``SpecError`` (one line: ``source: key: expected ...``) for any bad
    value, and for a what-if that changes nothing.
    """
    if not overrides:
        raise SpecError(f"{source}: variants.{WHATIF_VARIANT}: no parameter changed; expected at least one")
    # Both before the spec reader: it would import the class, and build decks of that size to check them.
    refusal = import_path_refusal(source, agents) or _number_refusal(source, WHATIF_VARIANT, overrides)
    if refusal is not None:
        raise SpecError(refusal)
    spec = parse_spec(whatif_raw(base, name, overrides, games, player_counts, agents, description), source)
    refusal = browser_refusal(spec, source)
    if refusal is not None:
        raise SpecError(refusal)
    return spec


def whatif_toml(spec: ExperimentSpec) -> str:
    """``spec`` (a what-if: the baseline and one variant, no sweep) as the full TOML file a
    user could have written; ``experiments.spec.load_spec`` reads it back to the same spec."""
    if spec.sweep or spec.stop_when:
        raise ValueError("whatif_toml writes experiments without [sweep] or [[stop_when]]")
    lines = [
        "# A what-if launched from the dashboard's New run page: the baseline (the game's defaults)",
        "# and the variant below, on the same seeds (paired_seeds), game by game.",
        f"name = {toml_value(spec.name)}",
        f"game = {toml_value(spec.game)}",
        f"description = {toml_value(spec.description)}",
        f"games = {spec.games}",
        f"seed = {spec.seed}",
        f"player_counts = {toml_value(list(spec.player_counts))}",
        f"agents = {toml_value([str(agent) for agent in spec.agents])}",
        f"rotate_seats = {toml_value(spec.rotate_seats)}",
        f"shard_size = {spec.shard_size}",
        f"paired_seeds = {toml_value(spec.paired_seeds)}",
    ]
    for variant in spec.variants:
        if variant.name == BASELINE:
            continue
        lines += ["", f"[variants.{variant.name}]"]
        lines += [f"{toml_value(path)} = {toml_value(value)}" for path, value in variant.overrides.items()]
    return "\n".join(lines) + "\n"
