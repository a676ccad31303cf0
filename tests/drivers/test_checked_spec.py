"""A spec's [[stop_when]] targets are checked against the real metric views before a run starts."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from drivers.run import load_checked_spec
from experiments.spec import SpecError, parse_spec

STOP_WHEN_SPEC = """
name = "stopping"
game = "divvy"
games = 800
shard_size = 100
[variants.short]
"rules.rounds" = 4
[[stop_when]]
max_width = 0.05
"""

BAD_STOP_WHEN = [
    ('view = "nosuch_view"\nrate = "win_rate"',
     "stop_when[0].view: expected one of experiment_modes, seat_stats"),
    ('view = "seat_stats"\nrate = "nosuch_rate"',
     "stop_when[0].rate: expected one of win_rate, win_share for seat_stats, got 'nosuch_rate'"),
    ('view = "seat_stats"\nrate = "win_rate"\nwhere = { faction = "x" }',
     "stop_when[0].where: expected a table of seat_stats columns and values"),
    ('view = "seat_stats"\nrate = "win_rate"\nwhere = { seat = "zero" }',
     "stop_when[0].where: a value of the wrong type for seat_stats (Conversion Error"),
    ('view = "seat_stats"\nrate = "win_rate"\nwhere = { n_players = 3 }',
     "stop_when[0].where.n_players: impossible target: the spec plays [2] players, not 3"),
    ('view = "seat_stats"\nrate = "win_rate"\nwhere = { variant = "long" }',
     "stop_when[0].where.variant: impossible target: the spec has no variant 'long'; expected one of baseline, short"),
    ('view = "faction_stats"\nrate = "win_rate"',
     "stop_when[0]: impossible target: faction_stats has no win_rate for divvy at [2] players"),
]


@pytest.mark.parametrize(("target", "message"), BAD_STOP_WHEN, ids=[case[1].split(":")[0] for case in BAD_STOP_WHEN])
def test_a_stop_when_target_is_checked_against_the_real_views_when_the_file_is_read(
        tmp_path: Path, target: str, message: str) -> None:
    # Before, a mistake here surfaced after the first round of shards (exit 2, shards left
    # behind, "stop_when: targets[0].view"), or never, with fewer shards than a round.
    path = tmp_path / "stopping.toml"
    path.write_text(STOP_WHEN_SPEC + target + "\n")
    spec = parse_spec(tomllib.loads(path.read_text()), str(path))  # the form alone is fine
    assert spec.stop_when
    with pytest.raises(SpecError) as raised:
        load_checked_spec(path)
    assert str(raised.value).startswith(f"{path}: {message}"), raised.value
    assert "\n" not in str(raised.value)


def test_a_good_stop_when_target_passes_the_check(tmp_path: Path) -> None:
    path = tmp_path / "stopping.toml"
    path.write_text(STOP_WHEN_SPEC + 'view = "seat_stats"\nrate = "win_rate"\nwhere = { variant = "short" }\n')
    assert load_checked_spec(path).stop_when[0]["where"] == {"variant": "short"}
