"""Agent specs such as ``random`` or ``heuristic`` and the factory behind them.

A spec is a name with optional keyword parameters, ``name(key=value, ...)``,
so that later agents (search with a budget) fit the same string form.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from simcore.agents.random_agent import RandomAgent
from simcore.api import Agent, Game
from simcore.seeding import make_rng

AGENT_NAMES = ("random", "heuristic")

_SPEC_PATTERN = re.compile(r"^\s*([a-z_][a-z0-9_]*)\s*(?:\((.*)\))?\s*$")


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


def parse_agent_spec(text: str) -> AgentSpec:
    """Parse ``name`` or ``name(key=value, ...)``; raise ``AgentSpecError``."""
    match = _SPEC_PATTERN.match(text)
    if not match:
        raise AgentSpecError(f"cannot read agent {text!r}; expected a name such as 'random'")
    name, inner = match.group(1), match.group(2)
    if name not in AGENT_NAMES:
        raise AgentSpecError(
            f"unknown agent {name!r}; expected one of: {', '.join(AGENT_NAMES)}"
        )
    parameters: dict[str, str] = {}
    if inner and inner.strip():
        for item in inner.split(","):
            key, sep, value = item.partition("=")
            if not sep or not key.strip():
                raise AgentSpecError(f"agent {text!r}: expected key=value, got {item!r}")
            parameters[key.strip()] = value.strip()
    if parameters:
        raise AgentSpecError(f"agent {name!r} takes no parameters, got {sorted(parameters)}")
    return AgentSpec(name, parameters)


def make_agent(spec: AgentSpec, game: Game, seat: int, seed: int) -> Agent:
    """Build the agent for ``seat`` with its own generator seeded by ``seed``."""
    rng = make_rng(seed)
    if spec.name == "random":
        return RandomAgent(rng)
    return game.heuristic_agent(seat, rng)
