"""Parameter trees and dotted-path overrides.

A game's parameters are a nested dict loaded from its data file (for example
``cards.toml``). Designers change them with overrides keyed by dotted paths
such as ``cards.axes_7.copies`` or ``rules.rounds``. An override must name an
existing leaf and keep its type; anything else raises ``ParameterError``
naming the path and what was expected.
"""

from __future__ import annotations

import copy
import tomllib
from collections.abc import Iterator, Mapping
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
            raise ParameterError(
                path, f"expected {type_name(default)}, got {value!r}"
            )
        node[leaf] = float(value) if isinstance(default, float) else value
    return resolved


def flatten_overrides(table: Mapping[str, Any]) -> dict[str, Any]:
    """Turn a TOML variant table into dotted-path overrides.

    Both ``"rules.rounds" = 4`` and nested tables (``[x.rules] rounds = 4``) are
    accepted, since TOML writes unquoted dotted keys as nested tables.
    """
    return dict(flatten(table))
