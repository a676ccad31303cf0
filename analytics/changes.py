"""What a variant changes, in a designer's words: the parameters it sets, the cards they
touch, and those cards' faces before and after (the dashboard's Variants, Compare and
What-if pages open on it).

A variant's parameters are resolved by the spec reader (``experiments.spec``: the
game's defaults with the variant's overrides), so the change of a variant is the
difference of two resolved parameter trees, leaf by leaf: the same function
compares a variant with its baseline and one experiment's variant with another
experiment's (``experiment_change``, which also lists what differs in the
experiment itself: agents, player counts, games per variant...).

A card is *touched* when a leaf under ``cards.<card>.`` differs; its face
(``simcore.describe.CardFace``: name, what it is, what it does, copies) is read
from the game's own card data through ``simcore.registry.card_faces``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import polars as pl

from experiments.spec import BASELINE, ExperimentSpec, SpecError, parse_spec
from simcore.describe import CardFace
from simcore.parameters import flatten
from simcore.registry import UnknownGameError, card_faces, get_game

ABSENT = "(none)"
"""How a parameter one side does not have at all is shown."""
FACE_COLUMNS = {"card": pl.String, "name": pl.String, "kind": pl.String, "text": pl.String, "copies": pl.Int64}
"""The columns of ``faces_frame``."""
SPEC_FIELDS = ("agents", "player_counts", "games", "seed", "rotate_seats", "paired_seeds")
"""The experiment's own settings ``experiment_change`` compares, besides the parameters."""


@dataclass(frozen=True)
class ParameterChange:
    """One leaf of the parameter tree that differs: its dotted path and both values
    (``ABSENT`` where one side has no such leaf)."""

    path: str
    before: Any
    after: Any

    @property
    def card(self) -> str | None:
        """The card this leaf belongs to (``cards.<card>.<field>``), None for a rule."""
        parts = self.path.split(".")
        return parts[1] if len(parts) >= 3 and parts[0] == "cards" else None

    def text(self) -> str:
        """``cards.oracle.use: ["draw 2"] -> ["draw 1"]``."""
        return f"{self.path}: {value_text(self.before)} -> {value_text(self.after)}"


@dataclass(frozen=True)
class Change:
    """What one side (``after``) changes against the other (``before``): the parameters,
    the faces of the cards they touch on both sides, and the experiment's own settings
    that differ (only between two experiments)."""

    game: str
    parameters: tuple[ParameterChange, ...]
    faces_before: dict[str, CardFace] = field(default_factory=dict)
    faces_after: dict[str, CardFace] = field(default_factory=dict)
    settings: tuple[ParameterChange, ...] = ()

    @property
    def cards(self) -> list[str]:
        """The cards touched, in the order their first changed leaf comes."""
        return list(dict.fromkeys(change.card for change in self.parameters if change.card is not None))

    @property
    def rules(self) -> list[ParameterChange]:
        """The changed leaves that are not a card's (``rules.*``, maps, parties...)."""
        return [change for change in self.parameters if change.card is None]

    @property
    def empty(self) -> bool:
        """Nothing differs."""
        return not self.parameters and not self.settings

    def card_changes(self, card: str) -> list[ParameterChange]:
        """The changed leaves of ``card``."""
        return [change for change in self.parameters if change.card == card]


def value_text(value: Any) -> str:
    """A parameter value as an experiment file writes it (``2``, ``true``, ``"labyrinth"``, ``["draw 1"]``)."""
    if value is ABSENT:
        return ABSENT
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, list | tuple):
        return "[" + ", ".join(value_text(item) for item in value) + "]"
    return str(value)


def parameter_changes(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[ParameterChange]:
    """Every leaf that differs between two parameter trees, in ``after``'s order, then the
    leaves only ``before`` has."""
    old, new = dict(flatten(before)), dict(flatten(after))
    changes = [ParameterChange(path, old.get(path, ABSENT), value) for path, value in new.items()
               if path not in old or old[path] != value]
    return changes + [ParameterChange(path, value, ABSENT) for path, value in old.items() if path not in new]


def parsed_spec(spec: Mapping[str, Any]) -> ExperimentSpec | None:
    """The resolved spec of an experiment (``spec.json``), None when it no longer reads
    (a game since changed): then no change can be said."""
    try:
        return parse_spec(dict(spec), "spec.json")
    except SpecError:
        return None


def _faces(game: str, parameters: Mapping[str, Any], cards: list[str]) -> dict[str, CardFace]:
    faces = {face.card: face for face in card_faces(game, parameters)}
    return {card: faces[card] for card in cards if card in faces}


def _change(game: str, before: Mapping[str, Any], after: Mapping[str, Any],
            settings: tuple[ParameterChange, ...] = ()) -> Change:
    changes = tuple(parameter_changes(before, after))
    touched = list(dict.fromkeys(change.card for change in changes if change.card is not None))
    return Change(game, changes, _faces(game, before, touched), _faces(game, after, touched), settings)


def variant_change(spec: Mapping[str, Any], variant: str) -> Change | None:
    """What ``variant`` of the experiment ``spec`` changes against its baseline; None when the
    spec no longer reads or has no such variant."""
    parsed = parsed_spec(spec)
    if parsed is None or variant not in {each.name for each in parsed.variants}:
        return None
    chosen, baseline = parsed.variant(variant), parsed.variant(BASELINE)
    settings: tuple[ParameterChange, ...] = ()
    if chosen.agents is not None and tuple(chosen.agents) != tuple(parsed.agents):
        settings = (ParameterChange("agents", [str(agent) for agent in parsed.agents],
                                    [str(agent) for agent in chosen.agents]),)
    return _change(parsed.game, baseline.parameters, chosen.parameters, settings)


def _setting(spec: ExperimentSpec, variant: str, name: str) -> Any:
    if name == "agents":
        return [str(agent) for agent in (spec.variant(variant).agents or spec.agents)]
    value = getattr(spec, name)
    return list(value) if isinstance(value, tuple) else value


def experiment_change(left: Mapping[str, Any], left_variant: str, right: Mapping[str, Any],
                      right_variant: str) -> Change | None:
    """What ``right_variant`` of the experiment ``right`` changes against ``left_variant`` of
    ``left`` (two experiments of one game): the parameters, and the settings of
    ``SPEC_FIELDS`` that differ. None when either spec no longer reads, names no such
    variant, or the two are of different games."""
    before, after = parsed_spec(left), parsed_spec(right)
    if before is None or after is None or before.game != after.game:
        return None
    if left_variant not in {each.name for each in before.variants} or right_variant not in {
            each.name for each in after.variants}:
        return None
    settings = tuple(ParameterChange(name, old, new) for name in SPEC_FIELDS
                     if (old := _setting(before, left_variant, name)) != (new := _setting(after, right_variant, name)))
    return _change(before.game, before.variant(left_variant).parameters, after.variant(right_variant).parameters,
                   settings)


def faces_frame(spec: Mapping[str, Any], variant: str = BASELINE) -> pl.DataFrame:
    """Every card of the experiment's game as its face reads in ``variant`` (its resolved
    parameters; the game's defaults when the spec no longer reads): card, name, kind
    (what it is), text (what it does), copies (``FACE_COLUMNS``)."""
    parsed = parsed_spec(spec)
    names = {each.name for each in parsed.variants} if parsed is not None else set()
    try:
        if parsed is not None and variant in names:
            faces = card_faces(parsed.game, parsed.variant(variant).parameters)
        else:
            game = str(spec.get("game", ""))
            faces = card_faces(game, get_game(game).default_parameters())
    except UnknownGameError:
        faces = []
    return pl.DataFrame([{"card": face.card, "name": face.name, "kind": face.kind, "text": face.text,
                          "copies": face.copies} for face in faces], schema=FACE_COLUMNS)
