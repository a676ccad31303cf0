"""Parameter trees and dotted-path overrides.

A game's parameters are a nested dict loaded from its data file (for example
``cards.toml``). Designers change them with overrides keyed by dotted paths
such as ``cards.axes_7.copies`` or ``rules.rounds``. An override must name an
existing leaf and keep its type; anything else raises ``ParameterError``
naming the path and what was expected.

A game declares what its parameters must be as ``Constraint``s (minimum,
maximum, choices) and checks a tree with ``check_constraints``, instead of a
chain of hand-written checks.
"""

from __future__ import annotations

import copy
import tomllib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any


class ParameterError(ValueError):
    """An unknown parameter path or a value of the wrong type."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}")
        self.path = path
        self.message = message


def load_parameter_file(path: Path) -> dict[str, Any]:
    """Read a game's TOML parameter file into a nested dict."""
    with path.open("rb") as handle:
        return tomllib.load(handle)


def flatten(tree: Mapping[str, Any], prefix: str = "") -> Iterator[tuple[str, Any]]:
    """Yield (dotted path, leaf value) for every leaf of a nested mapping."""
    for key, value in tree.items():
        path = f"{prefix}{key}"
        if isinstance(value, Mapping):
            yield from flatten(value, path + ".")
        else:
            yield path, value


def type_name(value: Any) -> str:
    """A user-facing name for the type of a parameter value."""
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    return type(value).__name__


def _plural(name: str) -> str:
    """``type_name``'s words for several values: "an integer" -> "integers", "a list of
    strings" -> "lists of strings"."""
    first, _, rest = name.split(" ", 1)[1].partition(" ")
    return f"{first}s {rest}".rstrip()


def expected_type(default: Any) -> str:
    """What a value replacing ``default`` must be, in words: ``type_name``, with a list's
    item type ("a list of integers"), taken from its first item as ``_same_type`` does."""
    if isinstance(default, list) and default:
        return f"a list of {_plural(expected_type(default[0]))}"
    return type_name(default)


def _wrong_item(default: list[Any], value: list[Any]) -> str:
    """The first item of ``value`` that does not have the type of ``default``'s items, in words
    (``'a' (index 1) is a string``), for the error of a list with one wrong item."""
    for index, item in enumerate(value):
        if not _same_type(default[0], item):
            if isinstance(item, list) and isinstance(default[0], list) and default[0]:
                return f"{item!r} (index {index}): {_wrong_item(default[0], item)}"
            return f"{item!r} (index {index}) is {type_name(item)}"
    return ""


def _same_type(default: Any, value: Any) -> bool:
    if isinstance(default, bool) or isinstance(value, bool):
        return isinstance(default, bool) and isinstance(value, bool)
    if isinstance(default, float):
        return isinstance(value, (int, float))
    if isinstance(default, list):
        return isinstance(value, list) and all(
            _same_type(default[0], item) for item in value
        ) if default else isinstance(value, list)
    return type(default) is type(value)


def apply_overrides(
    defaults: Mapping[str, Any], overrides: Mapping[str, Any]
) -> dict[str, Any]:
    """Return a copy of ``defaults`` with dotted-path ``overrides`` applied.

    Raises ``ParameterError`` for a path that is not a leaf of ``defaults`` or a
    value whose type differs from the default's (an integer is accepted where a
    number is expected).
    """
    resolved: dict[str, Any] = copy.deepcopy(dict(defaults))
    for path, value in overrides.items():
        keys = path.split(".")
        node: Any = resolved
        for depth, key in enumerate(keys):
            if not isinstance(node, dict) or key not in node:
                known = ", ".join(sorted(node)) if isinstance(node, dict) else ""
                where = ".".join(keys[:depth]) or "the top level"
                hint = f" (known under {where}: {known})" if known else ""
                raise ParameterError(path, f"unknown parameter path{hint}")
            if depth < len(keys) - 1:
                node = node[key]
        leaf = keys[-1]
        default = node[leaf]
        if isinstance(default, dict):
            raise ParameterError(
                path, "is a group of parameters; override one of its leaves"
            )
        if not _same_type(default, value):
            # A list of the right shape with one wrong item names that item: "expected a
            # list" alone would describe the value given, not what was wrong with it.
            listed = isinstance(default, list) and bool(default) and isinstance(value, list)
            wrong = _wrong_item(default, value) if listed else ""
            raise ParameterError(
                path, f"expected {expected_type(default)}, got {value!r}" + (f": {wrong}" if wrong else "")
            )
        node[leaf] = float(value) if isinstance(default, float) else value
    return resolved


def flatten_overrides(table: Mapping[str, Any]) -> dict[str, Any]:
    """Turn a TOML variant table into dotted-path overrides.

    Both ``"rules.rounds" = 4`` and nested tables (``[x.rules] rounds = 4``) are
    accepted, since TOML writes unquoted dotted keys as nested tables.
    """
    return dict(flatten(table))


def require(condition: bool, path: str, expected: str) -> None:
    """Raise ``ParameterError(path, expected)`` unless ``condition``: the one helper
    for the checks a ``Constraint`` cannot say (cross-field, shape, effect texts)."""
    if not condition:
        raise ParameterError(path, expected)


# --------------------------------------------------------------- constraints

@dataclass(frozen=True)
class Constraint:
    """What one parameter (or, with ``*``, each entry of a table) must be.

    ``path`` is dotted; a ``*`` stands for every key of the table there
    (``cards.*.copies``). ``minimum`` and ``maximum`` bound a number (both
    inclusive); ``choices`` lists the allowed values, ``choices_at`` names a
    parameter whose keys (a table) or items (a list) are the allowed values.
    With ``each_item`` the parameter is a list and every item must meet the
    constraint (the error names the list). ``expected`` replaces the
    generated message (``expected at least 1``, ``expected a number from 1 to
    20``, ``expected one of a, b``); a ``{choices}`` in it becomes the allowed
    values joined by commas, for a game whose message words them its own way.
    """

    path: str
    minimum: int | float | None = None
    maximum: int | float | None = None
    choices: tuple[Any, ...] | None = None
    choices_at: str | None = None
    each_item: bool = False
    expected: str = ""

    def message(self, choices: tuple[Any, ...] | None) -> str:
        """The one-line "expected ..." of a value breaking this constraint."""
        joined = ", ".join(str(choice) for choice in choices) if choices is not None else ""
        if self.expected:
            return self.expected.replace("{choices}", joined)
        if choices is not None:
            return "expected one of " + joined
        if self.minimum is not None and self.maximum is not None:
            return f"expected a number from {self.minimum} to {self.maximum}"
        if self.minimum is not None:
            return f"expected at least {self.minimum}"
        return f"expected at most {self.maximum}"


def _leaves(tree: Mapping[str, Any], keys: list[str], prefix: str) -> Iterator[tuple[str, Any]]:
    """(dotted path, value) of every parameter a constraint path names."""
    if not keys:
        yield prefix, tree
        return
    head, rest = keys[0], keys[1:]
    names = list(tree) if head == "*" else [head]
    for name in names:
        path = f"{prefix}.{name}" if prefix else name
        if not isinstance(tree, Mapping) or name not in tree:
            raise ParameterError(path, "missing parameter")
        yield from _leaves(tree[name], rest, path)


def _lookup(tree: Mapping[str, Any], path: str) -> Any:
    node: Any = tree
    for key in path.split("."):
        if not isinstance(node, Mapping) or key not in node:
            raise ParameterError(path, "missing parameter")
        node = node[key]
    return node


def _breaks(constraint: Constraint, choices: tuple[Any, ...] | None, value: Any) -> bool:
    """Whether one value (not a list of them) falls outside ``constraint``."""
    if choices is not None:
        return value not in choices
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return True
    if constraint.minimum is not None and value < constraint.minimum:
        return True
    return constraint.maximum is not None and value > constraint.maximum


MAX_COPIES = 1_000
"""The most copies of one card a game's data may ask for. Every deck is built in memory when a
game is configured, so a typo of ``10**12`` copies would take the machine's memory (and the
process) with it instead of being one line; no designer needs a thousand copies of a card."""

COPIES = Constraint("cards.*.copies", minimum=0, maximum=MAX_COPIES, expected=f"expected 0 to {MAX_COPIES:,} copies")
"""Every game's constraint on ``cards.<name>.copies``."""


def check_constraints(parameters: Mapping[str, Any], constraints: Sequence[Constraint]) -> None:
    """Raise ``ParameterError`` (path and what was expected, one line) for the
    first parameter that breaks one of ``constraints``, in order."""
    for constraint in constraints:
        choices = constraint.choices
        if constraint.choices_at is not None:
            choices = tuple(_lookup(parameters, constraint.choices_at))
        for path, value in _leaves(parameters, constraint.path.split("."), ""):
            if constraint.each_item:
                broken = not isinstance(value, list) or any(_breaks(constraint, choices, item) for item in value)
            else:
                broken = _breaks(constraint, choices, value)
            if broken:
                raise ParameterError(path, constraint.message(choices))
