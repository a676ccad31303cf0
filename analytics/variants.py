"""What each variant of an experiment is: its overrides as text and a short label.

A sweep's grid points are variants named ``sweep-000``, ``sweep-001``...
whose meaning is only in the spec; everywhere a variant is shown (report
tables, dashboard pickers, charts) its label carries the swept values, e.g.
``sweep-004 (rounds=4, treasure_target=20)``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from experiments.spec import SpecError, parse_spec

DEFAULT_OVERRIDES = "(game defaults)"
"""The overrides text of a variant that changes nothing (the baseline)."""


@dataclass(frozen=True)
class VariantInfo:
    """A variant's overrides (dotted path -> value; ``agents`` for a swept lineup), whether
    it is a sweep grid point, its overrides as text and its label."""

    name: str
    overrides: dict[str, Any]
    from_sweep: bool

    @property
    def text(self) -> str:
        """The overrides as ``path = value, ...`` (``DEFAULT_OVERRIDES`` for none)."""
        if not self.overrides:
            return DEFAULT_OVERRIDES
        return ", ".join(f"{path} = {_value(value)}" for path, value in self.overrides.items())

    @property
    def label(self) -> str:
        """The name, with the swept values of a sweep grid point: ``sweep-004 (rounds=4, treasure_target=20)``."""
        if not self.from_sweep or not self.overrides:
            return self.name
        values = ", ".join(f"{path.removeprefix('rules.')}={_value(value)}" for path, value in self.overrides.items())
        return f"{self.name} ({values})"


def _value(value: Any) -> str:
    if isinstance(value, list):
        return " vs ".join(str(item) for item in value)
    if isinstance(value, bool):
        return str(value).lower()
    return json.dumps(value) if isinstance(value, str) else str(value)


def variant_infos(spec: Mapping[str, Any]) -> dict[str, VariantInfo]:
    """Every variant of a resolved spec (``spec.json``), baseline first, sweep grid points
    included, by name. A spec that no longer parses (e.g. a game since renamed) falls back
    to its listed ``variants``."""
    try:
        parsed = parse_spec(dict(spec), "spec.json")
    except SpecError:
        listed = spec.get("variants")
        if not isinstance(listed, dict):
            return {}
        return {name: VariantInfo(name, dict(overrides) if isinstance(overrides, dict) else {}, False)
                for name, overrides in listed.items()}
    infos = {}
    for variant in parsed.variants:
        overrides = dict(variant.overrides)
        if variant.from_sweep and variant.agents is not None and "agents" in (spec.get("sweep") or {}):
            overrides = {"agents": [str(agent) for agent in variant.agents], **overrides}
        infos[variant.name] = VariantInfo(variant.name, overrides, variant.from_sweep)
    return infos


def variant_labels(spec: Mapping[str, Any]) -> dict[str, str]:
    """Variant name -> label (``VariantInfo.label``)."""
    return {name: info.label for name, info in variant_infos(spec).items()}


@dataclass(frozen=True)
class SweepBaseline:
    """Where the baseline sits in a sweep's grid: its value of each swept path (the
    game default; ``agents``: its lineup) and whether every one of them is a grid value,
    i.e. whether the baseline repeats a grid point."""

    values: dict[str, Any]
    in_grid: bool

    def text(self) -> str:
        """One sentence for a caption."""
        values = ", ".join(f"{path} = {_value(value)}" for path, value in self.values.items())
        if self.in_grid:
            return f"The baseline ({values}) is also a grid point; it is left out of the curve."
        return f"The baseline ({values}) is not a grid point; it is left out of the curve."


def sweep_baseline(spec: Mapping[str, Any]) -> SweepBaseline | None:
    """The baseline's place in the spec's ``[sweep]`` grid; None without a sweep or a parsable spec."""
    sweep = spec.get("sweep")
    if not isinstance(sweep, dict) or not sweep:
        return None
    try:
        parsed = parse_spec(dict(spec), "spec.json")
    except SpecError:
        return None
    baseline = next(variant for variant in parsed.variants if variant.name == "baseline")
    values: dict[str, Any] = {}
    for path in sweep:
        if path == "agents":
            values[path] = [str(agent) for agent in parsed.agents]
            continue
        node: Any = baseline.parameters
        for part in path.split("."):
            node = node[part]
        values[path] = node
    in_grid = all(value in sweep[path] for path, value in values.items())
    return SweepBaseline(values, in_grid)
