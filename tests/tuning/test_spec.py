"""Reading tuning specs: the space, targets, cost and settings, and one-line errors for bad ones."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardlab.cli import main
from drivers.tuning import load_checked_tuning_spec
from experiments.spec import load_spec
from experiments.tuning import (
    CATEGORICAL,
    FLOAT,
    INTEGER,
    ChangeCost,
    Dimension,
    TuningSpec,
    TuningSpecError,
    experiment_toml,
    load_tuning_spec,
    parse_tuning_spec,
)

VALID = """
name = "divvy_probe"
game = "divvy"
agents = ["random"]
seed = 3

[space]
"rules.treasure_target" = [12, 30]

[[targets]]
metric = "game_stats.draw_rate"
at_most = 0.05
"""


def write(tmp_path: Path, text: str, name: str = "spec.toml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def load(tmp_path: Path, text: str) -> TuningSpec:
    return load_checked_tuning_spec(write(tmp_path, text))


def test_a_valid_spec_reads_its_space_targets_cost_and_defaults(tmp_path: Path) -> None:
    spec = load(tmp_path, VALID)
    assert spec.name == "divvy_probe" and spec.game == "divvy"
    (dimension,) = spec.space
    assert (dimension.path, dimension.kind, dimension.low, dimension.high, dimension.current) == (
        "rules.treasure_target", INTEGER, 12, 30, 20)
    assert spec.search.games == (200, 800) and spec.search.sampler == "tpe" and spec.confirm.candidates == 3
    (target,) = spec.targets
    assert (target.view, target.column, target.low, target.high) == ("game_stats", "draw_rate", None, 0.05)


def test_the_kind_of_a_range_follows_the_type_of_the_current_value(tmp_path: Path) -> None:
    text = VALID.replace('"rules.treasure_target" = [12, 30]', """
"rules.treasure_target" = [12, 30]
"rules.tied_strength" = ["carry_over", "discard"]
"cards.axes_1.copies" = { choices = [0, 2] }
"rules.hand_size" = { low = 4, high = 8, step = 2 }
""")
    spec = load(tmp_path, text)
    kinds = {dimension.path: dimension.kind for dimension in spec.space}
    assert kinds == {"rules.treasure_target": INTEGER, "rules.tied_strength": CATEGORICAL,
                     "cards.axes_1.copies": CATEGORICAL, "rules.hand_size": INTEGER}
    assert spec.space[3].step == 2


def test_a_float_parameter_gets_a_float_range(duel_registered: None) -> None:
    raw = {"name": "duel_floats", "game": "duel", "space": {"rules.second_accuracy": [0.3, 0.9]},
           "targets": [{"metric": "seat_stats.win_rate", "where": {"seat": 0}, "between": [0.45, 0.55]}]}
    spec = parse_tuning_spec(raw, "inline")
    (dimension,) = spec.space
    assert (dimension.kind, dimension.low, dimension.high, dimension.current) == (FLOAT, 0.3, 0.9, 0.6)
    assert dimension.distance(0.75) == pytest.approx(0.25)
    with pytest.raises(TuningSpecError, match=r"the game refuses 0\.0: expected a probability above 0"):
        parse_tuning_spec({**raw, "space": {"rules.second_accuracy": [0.0, 0.9]}}, "inline")


def test_a_choice_of_stat_lines_costs_by_the_size_of_the_change_and_a_choice_of_names_by_the_parameter(
        tmp_path: Path) -> None:
    text = VALID.replace('"rules.treasure_target" = [12, 30]', """
"rules.tied_strength" = ["carry_over", "discard"]
"rules.hand_size" = { choices = [5, 3, 7] }
""") + """
[cost]
per_parameter = 1.0
per_range = 2.0
"""
    spec = load(tmp_path, text)
    current = spec.current_values
    assert current["rules.hand_size"] == 5
    # numbers as choices: |3 - 5| = 2 of the farthest 2: the whole range; 7 likewise
    assert spec.change_cost({**current, "rules.hand_size": 3}) == pytest.approx(1.0 + 2.0 * 1.0)
    # names: the parameter's price alone, whichever choice
    assert spec.change_cost({**current, "rules.tied_strength": "discard"}) == pytest.approx(1.0)
    lines = Dimension("cards.hydra.stats", CATEGORICAL, [12, 8, 3, 4],
                      choices=([12, 8, 3, 4], [13, 9, 3, 4], [15, 11, 3, 4], [12, 8, 3]))
    assert lines.choice_distance([13, 9, 3, 4]) is None  # one choice is not a stat line like the others
    lines = Dimension("cards.hydra.stats", CATEGORICAL, [12, 8, 3, 4],
                      choices=([12, 8, 3, 4], [13, 9, 3, 4], [15, 11, 3, 4], [10, 8, 3, 3]))
    # offsets 0, 2, 6, 3: +1/+1 is a third of +3/+3
    assert lines.choice_distance([13, 9, 3, 4]) == pytest.approx(2 / 6)
    assert lines.choice_distance([15, 11, 3, 4]) == pytest.approx(1.0)
    assert ChangeCost(1.0, 2.0).of([lines], {"cards.hydra.stats": [13, 9, 3, 4]}) == pytest.approx(1.0 + 2.0 / 3)


def test_change_cost_counts_changed_parameters_and_distance(tmp_path: Path) -> None:
    text = VALID.replace('"rules.treasure_target" = [12, 30]', """
"rules.treasure_target" = [12, 30]
"rules.tied_strength" = ["carry_over", "discard"]
""") + """
[cost]
per_parameter = 1.0
per_range = 2.0
"""
    spec = load(tmp_path, text)
    current = spec.current_values
    assert spec.change_cost(current) == 0.0
    # treasure_target 20 -> 29: 1 + 2 * 9/18 = 2; tied_strength changed: 1 (no distance for a choice)
    assert spec.change_cost({**current, "rules.treasure_target": 29}) == pytest.approx(2.0)
    assert spec.change_cost({"rules.treasure_target": 29, "rules.tied_strength": "discard"}) == pytest.approx(3.0)
    assert spec.changes({"rules.treasure_target": 20, "rules.tied_strength": "discard"}) == {
        "rules.tied_strength": "discard"}


def test_the_exported_experiment_is_read_back_by_the_experiment_reader(tmp_path: Path) -> None:
    spec = load(tmp_path, VALID)
    overrides = {"rules.treasure_target": 27, "rules.tied_strength": "discard"}
    text = experiment_toml(spec, "probe_tuned", "tuned", overrides, 500, ["a comment"])
    exported = load_spec(write(tmp_path, text, "exported.toml"))
    assert exported.paired_seeds and exported.games == 500
    assert [variant.name for variant in exported.variants] == ["baseline", "tuned"]
    assert exported.variant("tuned").overrides == {"rules.treasure_target": 27, "rules.tied_strength": "discard"}


BAD_SPECS: list[tuple[str, str, str, str]] = [
    ("unknown path", '"rules.treasure_target" = [12, 30]', '"rules.treasure_targets" = [12, 30]',
     "space.rules.treasure_targets: unknown parameter path (known under rules:"),
    ("empty range", '"rules.treasure_target" = [12, 30]', '"rules.treasure_target" = [30, 12]',
     "space.rules.treasure_target: empty range: low 30 is above high 12"),
    ("one-value range", '"rules.treasure_target" = [12, 30]', '"rules.treasure_target" = [12, 12]',
     "space.rules.treasure_target: empty range: low and high are both 12"),
    ("no choices", '"rules.treasure_target" = [12, 30]', '"rules.tied_strength" = { choices = [] }',
     "space.rules.tied_strength: empty range: expected at least two choices"),
    ("float range on an integer", '"rules.treasure_target" = [12, 30]', '"rules.treasure_target" = [12.5, 30]',
     "space.rules.treasure_target: low: expected an integer (the type of 20), got 12.5"),
    ("choice of the wrong type", '"rules.treasure_target" = [12, 30]', '"rules.tied_strength" = ["discard", 3]',
     "space.rules.tied_strength: choices: expected a string, got 3"),
    ("range the game refuses", '"rules.treasure_target" = [12, 30]', '"cards.axes_1.copies" = [-1, 2]',
     "space.cards.axes_1.copies: the game refuses -1:"),
    ("unknown metric view", 'metric = "game_stats.draw_rate"', 'metric = "party_stats.draw_rate"',
     "targets[0].metric: unknown metric view 'party_stats'; expected one of"),
    ("unknown metric column", 'metric = "game_stats.draw_rate"', 'metric = "game_stats.draw_chance"',
     "targets[0].metric: game_stats has no column 'draw_chance'; expected one of"),
    ("metric without an interval", 'metric = "game_stats.draw_rate"', 'metric = "game_stats.p90_turns"',
     "targets[0].metric: game_stats.p90_turns has no interval"),
    ("view this game does not fill", 'metric = "game_stats.draw_rate"', 'metric = "faction_stats.win_rate"',
     "targets[0]: impossible target: faction_stats has no win_rate for divvy at [2] players"),
    ("reversed band", "at_most = 0.05", "between = [0.6, 0.4]",
     "targets[0].between: impossible target: the band [0.6, 0.4] is empty"),
    ("rate band outside [0, 1]", "at_most = 0.05", "at_least = 1.5",
     "targets[0]: impossible target: game_stats.draw_rate is a proportion in [0, 1], the band is at least 1.5"),
    ("rate band below [0, 1]", "at_most = 0.05", "at_most = -0.5",
     "targets[0]: impossible target: game_stats.draw_rate is a proportion in [0, 1], the band is at most -0.5"),
    # A band around all of a rate's values can never be missed: it was accepted and steered nothing.
    ("rate band over all of [0, 1]", "at_most = 0.05", "at_most = 1.5",
     "targets[0]: a target that can never be missed: game_stats.draw_rate is a proportion in [0, 1], the band is "
     "at most 1.5; expected a band that excludes part of it"),
    ("rate band from 0 up", "at_most = 0.05", "at_least = 0",
     "targets[0]: a target that can never be missed: game_stats.draw_rate is a proportion in [0, 1]"),
    # A difference of two rates lies in [-1, 1]: this band made a whole search end "not met".
    ("rate difference band outside [-1, 1]", 'metric = "game_stats.draw_rate"\nat_most = 0.05',
     'metric = "seat_balance.first_seat_advantage"\nbetween = [1.2, 1.5]',
     "targets[0]: impossible target: seat_balance.first_seat_advantage is a difference of two proportions in "
     "[-1, 1], the band is in [1.2, 1.5]"),
    ("rate difference band over all of [-1, 1]", 'metric = "game_stats.draw_rate"\nat_most = 0.05',
     'metric = "seat_balance.first_seat_advantage"\naround = 0\nwithin = 1',
     "targets[0]: a target that can never be missed: seat_balance.first_seat_advantage is a difference of two "
     "proportions in [-1, 1], the band is within 1 of 0"),
    ("player count not played", "at_most = 0.05", "at_most = 0.05\nwhere = { n_players = 3 }",
     "targets[0].where.n_players: impossible target: the spec plays [2] players, not 3"),
    ("zero tolerance", "at_most = 0.05", 'around = 0.5\nwithin = 0',
     "targets[0].within: impossible target: expected a positive distance, got 0"),
    ("two bands", "at_most = 0.05", "at_most = 0.05\nat_least = 0.01",
     "targets[0]: expected exactly one of between, at_most, at_least or around + within, got at_most, at_least"),
    ("unknown where column", "at_most = 0.05", "at_most = 0.05\nwhere = { faction = 'x' }",
     "targets[0]: game_stats has no column 'faction'"),
    ("where value of the wrong type", 'metric = "game_stats.draw_rate"',
     'metric = "seat_stats.win_rate"\nwhere = { seat = "zero" }',
     "targets[0].where: a value of the wrong type for seat_stats (Conversion Error"),
    ("unknown key", 'seed = 3', 'seed = 3\ngames = 100',
     "games: unknown key; expected one of name, game, description"),
    ("bad rungs", 'seed = 3', 'seed = 3\n[search]\ngames = [800, 200]',
     "search.games: expected increasing game counts"),
    ("unknown sampler", 'seed = 3', 'seed = 3\n[search]\nsampler = "grid"',
     "search.sampler: expected one of tpe, nsga2, random, got 'grid'"),
    ("unknown game", 'game = "divvy"', 'game = "chess"', "game: unknown game 'chess'"),
    ("a band around a column wider than the metric's range", 'metric = "game_stats.draw_rate"\nat_most = 0.05',
     'metric = "faction_stats.win_rate"\naround = "expected"\nwithin = 1',
     "targets[0]: a target that can never be missed: faction_stats.win_rate is a proportion in [0, 1], the band "
     "is within 1 of expected; expected a distance below 1"),
    ("a list of strings for an integer range", "[12, 30]", '["12", "30"]',
     "space.rules.treasure_target: expected a range [low, high] of integers, or { choices = [...] }, "
     "got ['12', '30']"),
    ("a seat no player count has", 'metric = "game_stats.draw_rate"\nat_most = 0.05',
     'metric = "seat_stats.win_rate"\nbetween = [0.4, 0.6]\nwhere = { seat = 7 }',
     "targets[0].where.seat: impossible target: seats are 0 to 1 at [2] players, not 7"),
    ("more games per rung than a run may play", 'seed = 3', 'seed = 3\n[search]\ngames = [50, 2000000000]',
     "search.games: expected a list of positive integers of at most 1,000,000,000"),
    ("more confirmation games than a run may play", 'seed = 3', 'seed = 3\n[confirm]\ngames = 100000000000',
     "confirm.games: expected an integer from 1 to 1,000,000,000, got 100,000,000,000"),
    ("more trials than an experiment has variants", 'seed = 3', 'seed = 3\n[search]\ntrials = 1000000',
     "search.trials: expected an integer from 1 to 9,999, got 1,000,000"),
    ("a search too large in all", 'seed = 3', 'seed = 3\n[search]\ntrials = 9999\ngames = [1000, 2000000]',
     "search: up to 10,000 variants x 2,000,000 games x 1 player count(s) = 20,000,000,000 games; expected at "
     "most 10,000,000,000 in all"),
    ("a confirmation too large in all", 'seed = 3',
     'seed = 3\n[search]\ngames = [1000, 100000000]\n[confirm]\ncandidates = 200',
     "confirm: up to 201 variants x 1,000,000,000 games x 1 player count(s)"),
]


@pytest.mark.parametrize(("case", "old", "new", "message"), BAD_SPECS, ids=[case[0] for case in BAD_SPECS])
def test_a_bad_tuning_spec_is_one_line_naming_the_key(tmp_path: Path, case: str, old: str, new: str,
                                                      message: str) -> None:
    assert old in VALID
    path = write(tmp_path, VALID.replace(old, new, 1))
    with pytest.raises(TuningSpecError) as raised:
        load_checked_tuning_spec(path)
    text = str(raised.value)
    assert "\n" not in text
    assert text.startswith(f"{path}: ")
    assert message in text, text


def test_a_band_inside_a_metrics_range_that_excludes_part_of_it_is_accepted(tmp_path: Path) -> None:
    for target in ('metric = "game_stats.draw_rate"\nat_most = 0', 'metric = "game_stats.draw_rate"\nat_least = 1',
                   'metric = "seat_balance.first_seat_advantage"\nbetween = [-1, 0.03]',
                   'metric = "game_stats.mean_turns"\nat_least = -3'):  # a mean: no range known
        load_tuning_spec(write(tmp_path, VALID.replace('metric = "game_stats.draw_rate"\nat_most = 0.05', target)))


def test_a_searched_value_that_cannot_seat_a_player_count_is_refused_before_the_search(tmp_path: Path) -> None:
    # A composition of one hero at 2 heroes: every candidate drawing it failed in its shards.
    text = """
name = "party_probe"
game = "party_wanted"
player_counts = [2]
[space]
"rules.composition" = ["wizard,fighter", "wizard"]
[[targets]]
metric = "run_stats.win_rate"
between = [0.45, 0.55]
"""
    with pytest.raises(TuningSpecError) as raised:
        load_tuning_spec(write(tmp_path, text))
    assert str(raised.value) == (
        f"{tmp_path / 'spec.toml'}: space.rules.composition: the game refuses 'wizard': expected one hero per seat, "
        '2 for a party of 2 (or "" to draw them by seed), got 1: \'wizard\'')


def test_cardlab_tune_with_a_bad_spec_prints_one_line_exits_2_and_writes_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, VALID.replace("[12, 30]", "[30, 12]"))
    results = tmp_path / "results"
    assert main(["tune", str(path), "--results", str(results)]) == 2
    error = capsys.readouterr().err
    assert error == f"cardlab: error: {path}: space.rules.treasure_target: empty range: low 30 is above high 12\n"
    assert not results.exists()


LATE_REFUSALS = [case for case in BAD_SPECS if case[0] in (
    "a seat no player count has", "more games per rung than a run may play",
    "more confirmation games than a run may play")]


@pytest.mark.parametrize(("case", "old", "new", "message"), LATE_REFUSALS, ids=[case[0] for case in LATE_REFUSALS])
def test_a_spec_the_runner_would_refuse_later_is_refused_before_anything_is_played(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str, old: str, new: str, message: str) -> None:
    # Each of these used to play batches (or the whole search) and then fail, leaving the folder behind.
    path = write(tmp_path, VALID.replace(old, new, 1))
    results = tmp_path / "results"
    assert main(["tune", str(path), "--results", str(results), "--workers", "1"]) == 2
    error = capsys.readouterr().err
    assert error.startswith(f"cardlab: error: {path}: {message}") and error.count("\n") == 1
    assert not results.exists()


def test_a_spec_that_is_not_toml_or_missing_is_one_line(tmp_path: Path) -> None:
    for text, message in (("name = [", "not valid TOML"), (None, "file not found")):
        path = tmp_path / "missing.toml" if text is None else write(tmp_path, text)
        with pytest.raises(TuningSpecError, match=message):
            load_checked_tuning_spec(path)


SHIPPED = sorted((Path(__file__).resolve().parents[2] / "experiments" / "tune").glob("*.toml"))


@pytest.mark.parametrize("path", SHIPPED, ids=[path.stem for path in SHIPPED])
def test_every_shipped_tuning_spec_reads_and_its_targets_exist_for_its_game(path: Path) -> None:
    spec = load_checked_tuning_spec(path)
    assert spec.name == path.stem
    assert spec.base.paired_seeds and spec.space and spec.targets
    assert spec.in_space(spec.current_values)  # the current data is trial 0, the reference


def test_a_tuning_spec_is_shipped_for_every_game() -> None:
    games = Path(__file__).resolve().parents[2] / "simcore" / "games"
    packages = sorted(folder.name for folder in games.iterdir() if (folder / "rules.py").is_file())
    # One search per game, named after it; a game may have more (theseus_oracle_tune: a known answer).
    stems = [path.stem for path in SHIPPED]
    assert len(packages) == 4 and all(f"{game}_tune" in stems for game in packages)
    assert all(any(stem.startswith(game) for game in packages) for stem in stems)
