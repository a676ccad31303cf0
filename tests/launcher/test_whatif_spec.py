"""The what-if experiment: built by the spec reader (same one-line errors), written out as
the full TOML file a user could have written, and the form's parameter table (types,
current values, the ranges the game's validator accepts)."""

from __future__ import annotations

from pathlib import Path

import pytest

from drivers.launcher import LaunchRefused, launch, launch_log, list_runs
from experiments.spec import BASELINE, SpecError, load_spec
from experiments.whatif import (
    PROBE_LIMIT,
    SEARCH_LIMITS,
    WHATIF_VARIANT,
    parameter_rows,
    parse_form_value,
    probe_range,
    whatif_spec,
)
from tests.launcher.helpers import DIVVY_BASELINE, LOCAL, small_whatif


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
    ({"cards.axes_12.copies": -1}, "new run: variants.whatif.cards.axes_12.copies: expected 0 to 1,000 copies"),
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
    assert (copies.type, copies.low, copies.high, copies.range_text) == ("an integer", 0, 1000, "0 to 1000")
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



@pytest.mark.parametrize("text", ["{a = 1}", "1979-05-27", "5\nother = 1", "[1, {b = 2}]"])
def test_a_form_value_that_no_parameter_can_hold_is_one_line_error(text: str) -> None:
    with pytest.raises(SpecError) as raised:
        parse_form_value(text, 3)
    assert str(raised.value) == (f"new value {text!r}: expected one number, true or false, text, or a list of "
                                 "those")


def test_an_agent_class_by_import_path_is_refused_before_its_module_is_imported(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A module in the working folder that leaves a mark when imported (reading an agent spec
    # by import path imports it to learn its parameters).
    (tmp_path / "marker_agent.py").write_text(f"open({str(tmp_path / 'imported')!r}, 'w').close()\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(SpecError) as raised:
        whatif_spec(load_spec(DIVVY_BASELINE), "bad", {"rules.rounds": 4}, 10, [2], ["random", "marker_agent:Nope"],
                    source="new run")
    assert str(raised.value).startswith("new run: agents[1]: 'marker_agent:Nope' is an agent class by import path, "
                                        "which the New run page does not load")
    assert not (tmp_path / "imported").exists()


@pytest.mark.parametrize(("agent", "key"), [("ismcts(iterations=2001)", "iterations"),
                                            ("osla(rollouts=201,rollout=heuristic)", "rollouts"),
                                            ("sm_ismcts(iterations=50, max_steps=10001)", "max_steps")])
def test_search_beyond_the_browsers_budget_per_decision_is_refused(agent: str, key: str) -> None:
    with pytest.raises(SpecError) as raised:
        whatif_spec(load_spec(DIVVY_BASELINE), "bad", {"rules.rounds": 4}, 10, [2], [agent, "random"],
                    source="new run")
    limit = SEARCH_LIMITS[key]
    assert str(raised.value).startswith(f"new run: agents[0]: {key}={limit + 1} is more search per decision than "
                                        f"the New run page launches (at most {limit:,})")
    # At the budget it is an ordinary what-if.
    within = agent.replace(str(limit + 1), str(limit))
    assert whatif_spec(load_spec(DIVVY_BASELINE), "fine", {"rules.rounds": 4}, 10, [2], [within, "random"],
                       source="new run").games == 10


@pytest.mark.parametrize(("path", "value"), [("cards.axes_12.copies", 10**12), ("rules.rounds", 10**20),
                                             ("rules.treasure_target", -(PROBE_LIMIT + 1))])
def test_a_number_beyond_the_probed_range_is_refused_before_the_game_builds_anything(path: str, value: int) -> None:
    with pytest.raises(SpecError) as raised:
        whatif_spec(load_spec(DIVVY_BASELINE), "bad", {path: value}, 10, [2], ["random"], source="new run")
    assert str(raised.value) == (f"new run: variants.whatif.{path}: {value!r} is beyond what the New run page "
                                 f"launches (numbers up to {PROBE_LIMIT:,} either way); play it with `cardlab run`")


HOSTILE_SPELLINGS = [("ismcts(iterations=2_000_000)", "iterations=2000000", 2_000),
                     ("ismcts(iterations=+5000)", "iterations=5000", 2_000),
                     ("ismcts(max_steps=10_000_000)", "max_steps=10000000", 10_000),
                     ("osla(rollouts=1_000_000)", "rollouts=1000000", 200)]
"""Agents whose search the form's bounds refuse, spelled so that the digits alone do not show it."""


@pytest.mark.parametrize(("agent", "read", "limit"), HOSTILE_SPELLINGS)
def test_search_is_bounded_on_the_number_the_agent_reads_whatever_its_spelling(agent: str, read: str,
                                                                               limit: int) -> None:
    with pytest.raises(SpecError) as raised:
        whatif_spec(load_spec(DIVVY_BASELINE), "bad", {"rules.rounds": 4}, 10, [2], [agent, "random"],
                    source="new run")
    assert str(raised.value) == (f"new run: agents[0]: {read} is more search per decision than the New run page "
                                 f"launches (at most {limit:,}); play it with `cardlab run`")


@pytest.mark.parametrize(("agent", "read", "limit"), HOSTILE_SPELLINGS)
def test_a_launch_whose_experiment_file_asks_for_more_search_is_refused_and_nothing_queued(
        tmp_path: Path, agent: str, read: str, limit: int) -> None:
    # The file a launch would hand to `cardlab run`, edited past the form: the launcher reads it as the run will.
    spec, text = small_whatif("edited")
    edited = text.replace('agents = ["heuristic", "random"]', f'agents = ["{agent}", "random"]')
    assert edited != text
    with pytest.raises(LaunchRefused) as raised:
        launch(tmp_path, spec, edited, LOCAL, None, start=False)
    assert str(raised.value) == (f"new run: agents[0]: {read} is more search per decision than the New run page "
                                 f"launches (at most {limit:,}); play it with `cardlab run`")
    assert list_runs(tmp_path) == [] and [entry["action"] for entry in launch_log(tmp_path)] == ["refused"]


def test_a_launch_whose_experiment_file_says_something_else_is_refused(tmp_path: Path) -> None:
    spec, text = small_whatif("edited")
    with pytest.raises(LaunchRefused) as raised:
        launch(tmp_path, spec, text.replace("games = 40", "games = 50"), LOCAL, None, start=False)
    assert str(raised.value) == ("edited: the experiment file to run differs from the launch asked for (games: 40 "
                                 "asked for, 50 now)")
    assert list_runs(tmp_path) == []
