"""What a variant changes (``analytics.changes``): the parameters that differ from the
baseline, the cards they touch with their faces before and after, and between two
experiments also the experiment's own settings."""

from __future__ import annotations

import tomllib
from pathlib import Path

from analytics.changes import ABSENT, experiment_change, faces_frame, parameter_changes, value_text, variant_change
from experiments.spec import parse_spec

EXPERIMENTS = Path(__file__).resolve().parents[2] / "experiments"


def spec_of(file: str, **changes: object) -> dict[str, object]:
    """A shipped experiment file, as its results' ``spec.json`` holds it."""
    raw = tomllib.loads((EXPERIMENTS / file).read_text())
    raw.update(changes)
    return parse_spec(raw, file).to_json_dict()


def test_a_card_variant_touches_each_card_it_changes_with_its_face_before_and_after() -> None:
    change = variant_change(spec_of("divvy_baseline.toml"), "no_twelves")
    assert change is not None
    assert change.cards == ["axes_12", "blades_12", "bows_12", "staves_12"] and change.rules == []
    assert [each.text() for each in change.card_changes("axes_12")] == ["cards.axes_12.copies: 1 -> 0"]
    assert (change.faces_before["axes_12"].copies, change.faces_after["axes_12"].copies) == (1, 0)
    assert change.faces_after["axes_12"].name == "Axes 12"


def test_a_rules_variant_touches_no_card() -> None:
    change = variant_change(spec_of("divvy_baseline.toml"), "four_rounds")
    assert change is not None and change.cards == [] and not change.faces_after
    assert [each.text() for each in change.rules] == ["rules.rounds: 5 -> 4"]


def test_the_baseline_changes_nothing_and_an_unknown_variant_has_no_change() -> None:
    spec = spec_of("divvy_baseline.toml")
    baseline = variant_change(spec, "baseline")
    assert baseline is not None and baseline.empty
    assert variant_change(spec, "no_such_variant") is None


def test_two_experiments_differ_by_their_parameters_and_their_own_settings() -> None:
    left = spec_of("theseus_baseline.toml", name="left", variants={})
    right = spec_of("theseus_baseline.toml", name="right", games=50,
                    variants={"draw_one": {"cards.oracle.use": ["draw 1"]}})
    change = experiment_change(left, "baseline", right, "draw_one")
    assert change is not None and change.cards == ["oracle"]
    assert [each.text() for each in change.parameters] == ['cards.oracle.use: ["draw 2"] -> ["draw 1"]']
    assert change.faces_before["oracle"].text.startswith("use: draw 2")
    assert change.faces_after["oracle"].text.startswith("use: draw 1")
    assert [each.path for each in change.settings] == ["games"]
    assert experiment_change(left, "baseline", spec_of("divvy_baseline.toml"), "baseline") is None  # another game


def test_a_leaf_only_one_side_has_is_shown_as_absent() -> None:
    changes = parameter_changes({"rules": {"a": 1, "b": 2}}, {"rules": {"a": 1, "c": [1, "x"]}})
    assert [(each.path, each.before, each.after) for each in changes] == [
        ("rules.c", ABSENT, [1, "x"]), ("rules.b", 2, ABSENT)]
    assert value_text([1, "x"]) == '[1, "x"]' and value_text(True) == "true" and value_text(ABSENT) == ABSENT


def test_the_faces_of_a_variant_read_its_own_card_data() -> None:
    spec = spec_of("divvy_baseline.toml")
    baseline, variant = faces_frame(spec), faces_frame(spec, "no_twelves")
    assert baseline.height == variant.height == 48 and baseline.columns == ["card", "name", "kind", "text", "copies"]
    copies = dict(variant.select("card", "copies").iter_rows())
    assert copies["axes_12"] == 0 and copies["axes_11"] == 1
    assert baseline.filter(baseline["card"] == "axes_12")["copies"][0] == 1
