"""The what-if experiment: built by the spec reader (same one-line errors), written out as
the full TOML file a user could have written, and the form's parameter table (types,
current values, the ranges the game's validator accepts)."""

from __future__ import annotations

from pathlib import Path

import pytest

from experiments.spec import BASELINE, SpecError, load_spec
from experiments.whatif import (
    WHATIF_VARIANT,
    parameter_rows,
    parse_form_value,
    probe_range,
    whatif_spec,
)
from tests.launcher.helpers import DIVVY_BASELINE, small_whatif


def test_the_toml_written_out_reads_back_to_the_same_spec_with_paired_seeds(tmp_path: Path) -> None:
    spec, text = small_whatif("two_axes", games=30, copies=2)
    path = tmp_path / "two_axes.toml"
    path.write_text(text)
    again = load_spec(path)
    assert again.identity() == spec.identity()
    assert again.paired_seeds
    assert [variant.name for variant in again.variants] == [BASELINE, WHATIF_VARIANT]
    assert again.variant(WHATIF_VARIANT).overrides == {"cards.axes_12.copies": 2}
    base = load_spec(DIVVY_BASELINE)
    assert (again.seed, again.rotate_seats, again.shard_size, again.games) == (base.seed, True, 30, 30)
    assert '"cards.axes_12.copies" = 2' in text and "paired_seeds = true" in text


@pytest.mark.parametrize(("overrides", "message"), [
    ({"cards.axes_12.copies": -1}, "new run: variants.whatif.cards.axes_12.copies: expected at least 0 copies"),
    ({"cards.axes_12.copies": "two"}, "new run: variants.whatif.cards.axes_12.copies: expected an integer, "
                                      "got 'two'"),
    ({"rules.no_such_rule": 3}, "new run: variants.whatif.rules.no_such_rule: unknown parameter path"),
    ({}, "new run: variants.whatif: no parameter changed; expected at least one"),
])
def test_a_bad_value_is_the_spec_readers_one_line_error(overrides: dict[str, object], message: str) -> None:
    with pytest.raises(SpecError) as raised:
        whatif_spec(load_spec(DIVVY_BASELINE), "bad", overrides, 10, [2], ["random"], source="new run")
    assert str(raised.value).startswith(message)
    assert "\n" not in str(raised.value)


def test_bad_games_player_counts_and_agents_are_the_readers_errors_too() -> None:
    base = load_spec(DIVVY_BASELINE)
    change = {"rules.rounds": 4}
    cases = [((0, [2], ["random"]), "new run: games: expected a positive integer, got 0"),
             ((10, [3], ["random"]), "new run: player_counts: divvy is played by 2 players, got 3"),
             ((10, [2], ["no_such_agent"]), "new run: agents[0]: ")]
    for (games, counts, agents), message in cases:
        with pytest.raises(SpecError, match="^" + message.replace("[", r"\[").replace("]", r"\]")):
            whatif_spec(base, "bad", change, games, counts, agents, source="new run")


def test_the_parameter_table_has_every_rules_and_cards_path_with_its_type_value_and_range() -> None:
    rows = {row.path: probe_range("divvy", row) for row in parameter_rows("divvy")
            if row.path.startswith(("rules.", "cards.axes_12."))}
    unprobed = parameter_rows("divvy")
    from simcore.parameters import flatten
    from simcore.registry import get_game

    leaves = {path for path, _ in flatten(get_game("divvy").default_parameters())
              if path.startswith(("rules.", "cards."))}
    assert {row.path for row in unprobed} == leaves
    assert {row.type for row in unprobed} >= {"an integer", "a string"}
    assert unprobed[0].range_text == ""
    copies = rows["cards.axes_12.copies"]
    assert (copies.type, copies.low, copies.high, copies.range_text) == ("an integer", 0, None, "at least 0")
    d20 = rows["cards.axes_12.d20"]
    assert (d20.low, d20.high, d20.range_text) == (1, 20, "1 to 20")
    assert rows["rules.min_chaff"].low == 1
    assert rows["rules.rounds"].current == get_game("divvy").default_parameters()["rules"]["rounds"]


def test_a_form_value_is_read_as_toml_except_for_strings() -> None:
    assert parse_form_value("[1, 2]", [3]) == [1, 2]
    assert parse_form_value("not toml [", [3]) == "not toml ["
    assert parse_form_value("4", "text") == "4"
    assert parse_form_value('"labyrinth"', "sanctum") == "labyrinth"
    assert parse_form_value("true", False) is True
