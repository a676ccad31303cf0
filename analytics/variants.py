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
