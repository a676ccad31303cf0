"""Bad input that used to escape: parameters a player count cannot have (a Party
Wanted ``rules.composition`` naming fewer heroes than seats passed the spec
check, then every shard task crashed in Ray with a traceback, exit code 1,
leaving shards and a run.json whose failure was Ray's coloured banner; one naming
more was cut without a word). Run, dry run and replay: one line naming the file
(when there is one) and the path, exit code 2, nothing written."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardlab.cli import main

PARTY = """
name = "party"
game = "party_wanted"
games = 4
shard_size = 2
player_counts = [2]
agents = ["random"]

[variants.x]
"rules.composition" = "{composition}"
"""

EXPECTED = 'expected one hero per seat, 2 for a party of 2 (or "" to draw them by seed), got {count}: {composition!r}'
COMPOSITIONS = [("wizard", 1), ("wizard,fighter,rogue", 3)]


@pytest.mark.parametrize("dry_run", [False, True], ids=["run", "dry run"])
@pytest.mark.parametrize(("composition", "count"), COMPOSITIONS, ids=["too few heroes", "too many heroes"])
def test_a_composition_of_another_size_than_the_party_is_refused_before_anything_runs(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], composition: str, count: int, dry_run: bool) -> None:
    spec_file = tmp_path / "party.toml"
    spec_file.write_text(PARTY.format(composition=composition))
    results = tmp_path / "results"
    code = main(["run", str(spec_file), "--results", str(results), "--workers", "1", "--no-progress",
                 *(["--dry-run"] if dry_run else [])])
    captured = capsys.readouterr()
    assert code == 2 and captured.out == ""
    assert captured.err == (f"cardlab: error: {spec_file}: variants.x.rules.composition: "
                            f"{EXPECTED.format(count=count, composition=composition)}\n")
    assert not results.exists()


@pytest.mark.parametrize(("composition", "count"), COMPOSITIONS, ids=["too few heroes", "too many heroes"])
def test_replay_of_a_composition_of_another_size_than_the_party_is_one_line(
        capsys: pytest.CaptureFixture[str], composition: str, count: int) -> None:
    code = main(["replay", "party_wanted", "--seed", "1", "--players", "2",
                 "--set", f"rules.composition={composition}"])
    captured = capsys.readouterr()
    assert code == 2 and captured.out == ""
    expected = EXPECTED.format(count=count, composition=composition)
    assert captured.err == f"cardlab: error: rules.composition: {expected}\n"


def test_replay_of_a_party_larger_than_the_boxes_switched_on_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", "party_wanted", "--seed", "1", "--players", "8", "--set", "rules.sets.bard=false"]) == 2
    assert capsys.readouterr().err == (
        "cardlab: error: rules.sets: expected boxes with at least 8 hero classes for a party of 8 (one class per "
        "hero); the boxes switched on have 7\n")


RING = """
name = "ring"
game = "ring_of_chaos"
games = 4
shard_size = 2
player_counts = [3, 4]
agents = ["random"]

[variants.fewer_parties]
"parties.brute_squad.in_draft" = false
"parties.death_from_above.in_draft" = false
"parties.defenders_of_the_faith.in_draft" = false
"""


@pytest.mark.parametrize("dry_run", [False, True], ids=["run", "dry run"])
def test_a_ring_of_chaos_draft_without_a_card_more_than_players_is_refused_before_anything_runs(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], dry_run: bool) -> None:
    # Four parties are left: enough for three players (n + 1 cards), not for four. It passed
    # the spec check, then the 4-player shards crashed in Ray.
    spec_file = tmp_path / "ring.toml"
    spec_file.write_text(RING)
    results = tmp_path / "results"
    code = main(["run", str(spec_file), "--results", str(results), "--workers", "1", "--no-progress",
                 *(["--dry-run"] if dry_run else [])])
    captured = capsys.readouterr()
    assert code == 2 and captured.out == ""
    assert captured.err == (
        f"cardlab: error: {spec_file}: variants.fewer_parties.parties: expected at least 5 parties in the draft "
        "(parties.<key>.in_draft) for 4 players, got 4: den_of_thieves, dread_legion, giant_slayers, hell_raisers\n")
    assert not results.exists()


def test_replay_of_a_ring_of_chaos_draft_too_small_for_the_table_is_one_line(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", "ring_of_chaos", "--seed", "1", "--players", "6",
                 "--set", "parties.brute_squad.in_draft=false"]) == 2
    assert capsys.readouterr().err.startswith(
        "cardlab: error: parties: expected at least 7 parties in the draft (parties.<key>.in_draft) for 6 players, "
        "got 6: ")
