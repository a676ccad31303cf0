"""Agent specs such as ``random`` or ``ismcts(iterations=200)`` and the factory behind them.

A spec is a name with optional keyword parameters, ``name(key=value, ...)``.
Parameters are checked when the spec is read (an unknown key or a bad value
is an ``AgentSpecError`` with a one-line message) and kept in a normal form,
so ``ismcts(iterations=0200)`` and ``ismcts(iterations=200)`` are the same agent.

- ``random``: uniform over the legal actions;
- ``heuristic``: the game's documented strategy;
- ``osla(rollouts=10, rollout=random, max_steps=2000)``: one-step lookahead;
- ``ismcts(iterations=200, exploration=0.7, rollout=random, max_steps=2000)``:
  information-set Monte Carlo tree search;
- ``sm_ismcts(...)``, the same parameters: ISMCTS with decoupled selection at
  the simultaneous moves a game marks (Divvy's reveals); ``ismcts`` elsewhere;
- ``module.path:ClassName(key=value, ...)``: your own agent class
  (``simcore.agents.imported``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache

from simcore.agents.imported import ImportedAgentError, class_parameters, is_import_path, load_agent_class
from simcore.agents.ismcts import IsmctsAgent
from simcore.agents.osla import OslaAgent
from simcore.agents.random_agent import RandomAgent
from simcore.agents.search import float_parameter, integer_parameter, policy_parameter
from simcore.agents.sm_ismcts import SimultaneousIsmctsAgent
from simcore.api import Agent, Game
from simcore.seeding import make_rng

AGENT_NAMES = ("random", "heuristic", "osla", "ismcts", "sm_ismcts")

_Reader = Callable[[str], object]


def _integer(name: str, smallest: int) -> _Reader:
    """A reader of an integer parameter of at least ``smallest``."""
    return lambda text: integer_parameter(name, text, smallest)


# Each agent's parameters: key -> reader turning the text into its value
# (raising ValueError with a readable message).
AGENT_PARAMETERS: dict[str, dict[str, _Reader]] = {
    "random": {},
    "heuristic": {},
    "osla": {"rollouts": _integer("rollouts", 1), "rollout": policy_parameter, "max_steps": _integer("max_steps", 1)},
    "ismcts": {
        "iterations": _integer("iterations", 1),
        "exploration": lambda text: float_parameter("exploration", text, 0.0),
        "rollout": policy_parameter,
        "max_steps": _integer("max_steps", 1),
    },
}
AGENT_PARAMETERS["sm_ismcts"] = AGENT_PARAMETERS["ismcts"]

# A built-in name, or an import path ``module.path:ClassName`` (``simcore.agents.imported``).
_SPEC_PATTERN = re.compile(
    r"^\s*([a-z_][a-z0-9_]*|[A-Za-z_][A-Za-z0-9_.]*:[A-Za-z_][A-Za-z0-9_]*)\s*(?:\((.*)\))?\s*$")


class AgentSpecError(ValueError):
    """An agent spec that names no known agent or has bad parameters."""


@dataclass(frozen=True)
class AgentSpec:
    """A parsed agent spec: its name and keyword parameters."""

    name: str
    parameters: dict[str, str] = field(default_factory=dict)

    def __str__(self) -> str:
        if not self.parameters:
            return self.name
        inner = ",".join(f"{key}={value}" for key, value in sorted(self.parameters.items()))
        return f"{self.name}({inner})"

    def __reduce__(self) -> tuple[type[AgentSpec], tuple[str, dict[str, str]]]:
        # Rebuilt by its constructor: a compiled frozen class refuses the attribute
        # assignments pickle's default restore makes (Ray sends specs to its workers).
        return (AgentSpec, (self.name, self.parameters))


def read_agent_text(text: str) -> tuple[str, dict[str, str]]:
    """The name and the ``key=value`` texts of ``name`` or ``name(key=value, ...)``, read
    without importing anything (so a caller may look before ``parse_agent_spec`` imports an
    agent class named by import path); ``AgentSpecError`` for text of another form."""
    match = _SPEC_PATTERN.match(text)
    if not match:
        raise AgentSpecError(f"cannot read agent {text!r}; expected a name such as 'random'")
    name, inner = match.group(1), match.group(2)
    parameters: dict[str, str] = {}
    if inner and inner.strip():
        for item in inner.split(","):
            key, sep, value = item.partition("=")
            if not sep or not key.strip():
                raise AgentSpecError(f"agent {text!r}: expected key=value, got {item!r}")
            if key.strip() in parameters:
                raise AgentSpecError(f"agent {text!r}: parameter {key.strip()!r} given twice")
            parameters[key.strip()] = value.strip()
    return name, parameters


def parse_agent_spec(text: str) -> AgentSpec:
    """Parse ``name`` or ``name(key=value, ...)``; raise ``AgentSpecError``."""
    name, parameters = read_agent_text(text)
    if name not in AGENT_NAMES and not is_import_path(name):
        raise AgentSpecError(
            f"unknown agent {name!r}; expected one of: {', '.join(AGENT_NAMES)}, "
            "or an agent class by import path (module.path:ClassName)"
        )
    return AgentSpec(name, _checked_parameters(name, parameters))


def parameter_readers(name: str) -> tuple[dict[str, _Reader], set[str]]:
    """The agent's parameters (key -> reader of its text value) and the
    required ones: the tables above for a built-in agent, the constructor's
    keyword parameters for a class named by import path (imported here, so
    a bad path is an ``AgentSpecError`` when the spec is read)."""
    if not is_import_path(name):
        return AGENT_PARAMETERS[name], set()
    try:
        return _imported_parameters(name)
    except ImportedAgentError as error:
        raise AgentSpecError(f"agent {name!r}: {error}") from None


@cache
def _imported_parameters(name: str) -> tuple[dict[str, _Reader], set[str]]:
    """``class_parameters`` of an imported class, read once per process (failures are not kept)."""
    return class_parameters(load_agent_class(name))


def _checked_parameters(name: str, parameters: dict[str, str]) -> dict[str, str]:
    """The parameters in normal form; ``AgentSpecError`` for an unknown key, a
    bad value or a missing required parameter."""
    readers, required = parameter_readers(name)
    missing = sorted(required - set(parameters))
    if missing:
        raise AgentSpecError(f"agent {name!r}: missing parameter {missing[0]!r}")
    checked: dict[str, str] = {}
    for key, text in parameters.items():
        if key not in readers:
            if not readers:
                raise AgentSpecError(f"agent {name!r} takes no parameters, got {key!r}")
            raise AgentSpecError(
                f"agent {name!r}: unknown parameter {key!r}; expected one of: {', '.join(readers)}"
            )
        try:
            checked[key] = str(readers[key](text))
        except ValueError as error:
            raise AgentSpecError(f"agent {name!r}: {error}") from None
    return checked


def _values(spec: AgentSpec) -> dict[str, object]:
    """The spec's parameters read into their values."""
    readers, _ = parameter_readers(spec.name)
    return {key: readers[key](text) for key, text in spec.parameters.items()}


def make_agent(spec: AgentSpec, game: Game, seat: int, seed: int) -> Agent:
    """Build the agent for ``seat`` with its own generator seeded by ``seed``."""
    rng = make_rng(seed)
    # The built-in names first: every game of a shard makes its agents here.
    if spec.name == "random":
        return RandomAgent(rng)
    if spec.name == "heuristic":
        return game.heuristic_agent(seat, rng)
    if is_import_path(spec.name):
        return load_agent_class(spec.name)(game, seat, rng, **_values(spec))  # type: ignore[call-arg]
    if spec.name == "osla":
        return OslaAgent(game, seat, rng, **_values(spec))  # type: ignore[arg-type]
    if spec.name == "ismcts":
        return IsmctsAgent(game, seat, rng, **_values(spec))  # type: ignore[arg-type]
    if spec.name == "sm_ismcts":
        return SimultaneousIsmctsAgent(game, seat, rng, **_values(spec))  # type: ignore[arg-type]
    raise AgentSpecError(f"unknown agent {spec.name!r}")


def split_agent_list(text: str) -> list[str]:
    """Split ``"ismcts(iterations=50,rollout=heuristic),random"`` into agent
    specs: commas inside parentheses belong to an agent's parameters."""
    parts: list[str] = []
    current: list[str] = []
    depth = 0
    for character in text:
        if character == "," and depth == 0:
            parts.append("".join(current).strip())
            current = []
            continue
        depth += {"(": 1, ")": -1}.get(character, 0)
        current.append(character)
    parts.append("".join(current).strip())
    return [part for part in parts if part]
