"""Bring your own agent: an agent class named by import path.

An experiment file (or ``--agents`` on the command line) may name any agent
class as ``module.path:ClassName``, with parameters like the built-in
agents: ``"mypackage.agents:Greedy(depth=2)"``. The class must

- subclass ``simcore.api.Agent`` (its ``choose(state, legal_actions)``
  returns one of ``legal_actions``);
- take ``(game, seat, rng)`` first — the game object, the agent's seat and
  its own seeded generator (``simcore.rng.Generator``; draw every random
  number from it, so a seed always gives the same game) — then its
  parameters as keyword arguments;
- annotate each parameter as ``int``, ``float``, ``bool`` or ``str``, or give
  it a default of one of those types: the spec's text values are read into
  that type (``depth=02`` is ``depth=2``) and checked when the spec is read;
  a parameter without a default must be given.

The module must be importable by every process that plays games: the
driver, where the spec is read, and each Ray worker. Imports here also look
in the current working folder (as ``python -m`` does; the ``cardlab``
console script would not), and local Ray workers start in the driver's
working folder, so a package in the folder where ``cardlab run`` starts
works as it is; on a cluster, install it on every node.
``simcore.agents.honesty.check_seat_honesty`` (``cardlab check-agent``)
tests such a class the way the shipped agents are tested. The worked
example: ``experiments/agents/greedy_agent.py``.
"""

from __future__ import annotations

import importlib
import inspect
import os
import sys
import typing
from collections.abc import Callable

from simcore.agents.search import boolean_parameter, float_parameter, integer_parameter
from simcore.api import Agent

ParameterReader = Callable[[str], object]

_BUILT_IN_ARGUMENTS = ("game", "seat", "rng")


class ImportedAgentError(ValueError):
    """An import path that names no usable agent class; the message is one line."""


def is_import_path(name: str) -> bool:
    """Whether an agent name is an import path (``module.path:ClassName``)."""
    return ":" in name


def load_agent_class(path: str) -> type[Agent]:
    """The ``Agent`` subclass named by ``module.path:ClassName``; ``ImportedAgentError`` otherwise."""
    module_name, _, class_name = path.partition(":")
    _search_working_folder()
    try:
        module = importlib.import_module(module_name)
    except Exception as error:  # any failure inside the user's module is the user's to see, in one line
        first_line = (str(error).splitlines() or [""])[0]
        raise ImportedAgentError(
            f"cannot import module {module_name!r} ({type(error).__name__}: {first_line})") from None
    found = getattr(module, class_name, None)
    if found is None:
        raise ImportedAgentError(f"module {module_name!r} has no class {class_name!r}")
    if not (inspect.isclass(found) and issubclass(found, Agent)):
        raise ImportedAgentError(
            f"{path!r} is not an agent class; expected a subclass of simcore.api.Agent, got {type(found).__name__}")
    return found


def _search_working_folder() -> None:
    """Let imports find modules in the current working folder, as ``python -m``
    and ``python script.py`` do but the ``cardlab`` console script does not
    (appended, so it never shadows an installed package)."""
    folder = os.getcwd()
    if folder not in sys.path and "" not in sys.path:
        sys.path.append(folder)


def _reader_for(name: str, kind: object) -> ParameterReader:
    if kind is bool:
        return lambda text: boolean_parameter(name, text)
    if kind is int:
        return lambda text: integer_parameter(name, text)
    if kind is float:
        return lambda text: float_parameter(name, text)
    if kind is str:
        return str
    raise ImportedAgentError(
        f"parameter {name!r}: expected an int, float, bool or str annotation or default, got {kind!r}")


def class_parameters(agent_class: type[Agent]) -> tuple[dict[str, ParameterReader], set[str]]:
    """The class's parameters after ``(game, seat, rng)``: name -> reader of
    its text value, and the names that have no default (required)."""
    try:
        signature = inspect.signature(agent_class)
        hints = typing.get_type_hints(agent_class.__init__)
    except (TypeError, ValueError, NameError) as error:
        raise ImportedAgentError(f"cannot read the parameters of {agent_class.__name__} ({error})") from None
    listed = list(signature.parameters.values())
    leading = [parameter.name for parameter in listed[:3]]
    if len(listed) < 3 or any(parameter.kind not in (parameter.POSITIONAL_ONLY, parameter.POSITIONAL_OR_KEYWORD)
                              for parameter in listed[:3]):
        raise ImportedAgentError(
            f"{agent_class.__name__} must take (game, seat, rng) first, then its parameters; "
            f"got ({', '.join(leading)})")
    readers: dict[str, ParameterReader] = {}
    required: set[str] = set()
    for parameter in listed[3:]:
        if parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
            continue
        has_default = parameter.default is not parameter.empty
        kind = hints.get(parameter.name, type(parameter.default) if has_default else str)
        readers[parameter.name] = _reader_for(parameter.name, kind)
        if not has_default:
            required.add(parameter.name)
    return readers, required
