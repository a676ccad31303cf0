"""Sweep grid points are named by their swept values, and the baseline's place in the grid is
said correctly (issue 13: "say correctly whether the baseline is in the grid")."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from analytics.variants import sweep_baseline, variant_infos

SWEEP_FILE = Path(__file__).resolve().parents[2] / "experiments" / "divvy_sweep.toml"


def sweep_spec(**grid: list[Any]) -> dict[str, Any]:
    """The shipped ``divvy_sweep`` spec, its grid replaced by ``grid`` (paths with dots as ``__``)."""
    spec = tomllib.loads(SWEEP_FILE.read_text())
    if grid:
        spec["sweep"] = {path.replace("__", "."): values for path, values in grid.items()}
    return spec


def test_the_shipped_sweep_holds_the_baseline_as_a_grid_point() -> None:
    # Divvy's defaults (5 rounds, treasure target 20) are values of the shipped grid.
    place = sweep_baseline(sweep_spec())
    assert place is not None and place.in_grid
    assert place.values == {"rules.rounds": 5, "rules.treasure_target": 20}
    assert place.text() == ("The baseline (rules.rounds = 5, rules.treasure_target = 20) is also a grid point; "
                            "it is left out of the curve.")


def test_a_grid_missing_one_baseline_value_does_not_hold_the_baseline() -> None:
    place = sweep_baseline(sweep_spec(rules__rounds=[3, 5], rules__treasure_target=[15, 25]))
    assert place is not None and not place.in_grid
    assert place.text().startswith("The baseline (rules.rounds = 5, rules.treasure_target = 20) is not a grid point")


def test_without_a_sweep_there_is_no_baseline_place() -> None:
    spec = sweep_spec()
    del spec["sweep"]
    assert sweep_baseline(spec) is None


def test_every_grid_point_is_labelled_with_its_swept_values() -> None:
    infos = variant_infos(sweep_spec(rules__rounds=[3, 5], rules__treasure_target=[15, 25]))
    labels = {name: info.label for name, info in infos.items() if name != "baseline"}
    assert len(labels) == 4
    assert all(name.startswith("sweep-") for name in labels)
    assert {label.split(" ", 1)[1] for label in labels.values()} == {
        f"(rounds={rounds}, treasure_target={target})" for rounds in (3, 5) for target in (15, 25)}
    assert {infos[name].text for name in labels} == {
        f"rules.rounds = {rounds}, rules.treasure_target = {target}" for rounds in (3, 5) for target in (15, 25)}
