"""Agents, chosen by name: ``random``, ``heuristic`` (each game's own), ``osla``, ``ismcts``, ``sm_ismcts``."""

from simcore.agents.registry import AGENT_NAMES, AgentSpec, make_agent, parse_agent_spec

__all__ = ["AGENT_NAMES", "AgentSpec", "make_agent", "parse_agent_spec"]
