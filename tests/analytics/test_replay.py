"""``analytics.replay``: the replayed game is the experiment's game, with a
snapshot of the table after set-up and after every action."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from analytics.folders import read_spec
from analytics.replay import events_between, moments_of_turn, replay_game, seat_lines, turns_of
from dataset.storage import SPEC_FILE, write_json_atomically
from experiments.spec import parse_spec, replay_setup
from simcore.play import play_game
from simcore.registry import get_game
from simcore.trace import TraceRecorder
from tests.analytics.replay_helpers import hands_after_every_action
from tests.dashboard.conftest import GAME_OF, tiny_spec

EXPERIMENTS = ["divvy_tiny", "ring_tiny", "party_tiny", "theseus_tiny"]


@pytest.fixture(scope="module")
def specs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tiny experiments' spec.json files (all a replay reads), no games played."""
    root = tmp_path_factory.mktemp("replay-specs")
    for name in EXPERIMENTS:
        write_json_atomically(tiny_spec(name).to_json_dict(), root / name / SPEC_FILE)
    return root


def _first_players(folder: Path) -> int:
    return int(read_spec(folder)["player_counts"][0])


@pytest.mark.parametrize("name", EXPERIMENTS)
def test_the_replay_is_the_game_play_game_plays_with_the_same_events_and_outcome(specs: Path, name: str) -> None:
    folder = specs / name
    n_players = _first_players(folder)
    for index in (0, 3):
        trace = replay_game(folder, "baseline", n_players, index)
        setup = replay_setup(parse_spec(read_spec(folder), name), "baseline", n_players, index)
        game = get_game(setup.game)
        recorder = TraceRecorder()
        played = play_game(game, game.configure(setup.parameters), n_players, setup.seed, setup.lineup,
                           recorder.record)
        assert trace.events["text"].to_list() == [str(event["text"]) for event in recorder.events]
        assert trace.events["type"].to_list() == [str(event["type"]) for event in recorder.events]
        assert trace.winners == played.state.winners() and trace.scores == played.state.scores()
        assert trace.decisions == played.decisions and trace.turns == played.state.turns()
        decisions = [event for event in recorder.events if event["type"] == "decision"]
        assert len(trace.snapshots) == len(decisions) + 1  # set-up, then one per action
        assert [snapshot.action for snapshot in trace.snapshots[1:]] == [event["text"] for event in decisions]
        assert trace.snapshots[-1].view.table_facts[-1].value == played.state.end_reason()


@pytest.mark.parametrize("name", EXPERIMENTS)
def test_every_snapshot_shows_each_seat_s_hand_as_it_was_after_that_action(specs: Path, name: str) -> None:
    folder = specs / name
    n_players = _first_players(folder)
    trace = replay_game(folder, "baseline", n_players, 1)
    expected = hands_after_every_action(folder, "baseline", n_players, 1)
    assert len(expected) == len(trace.snapshots)
    for snapshot, hands in zip(trace.snapshots, expected, strict=True):
        assert [list(seat.hand) for seat in snapshot.view.seats] == hands
    assert GAME_OF[name] == trace.game


def test_turns_group_the_snapshots_and_each_event_belongs_to_the_moment_it_led_to(specs: Path) -> None:
    trace = replay_game(specs / "divvy_tiny", "baseline", 2, 0)
    turns = turns_of(trace)
    assert turns[0] == 0 and turns == list(range(len(turns)))
    assert moments_of_turn(trace, 0) == [0]
    first_turn = moments_of_turn(trace, 1)
    assert first_turn == list(range(1, len(first_turn) + 1))
    assert all(trace.snapshots[moment].turn == 1 for moment in first_turn)
    setup_events = events_between(trace, 0, 0)
    assert setup_events["type"].to_list()[:1] == ["setup"] and "decision" not in setup_events["type"].to_list()
    turn_events = events_between(trace, first_turn[0], first_turn[-1])
    decisions = turn_events.filter(pl.col("type") == "decision")
    assert decisions.height == len(first_turn)  # one decision per action of the turn
    assert events_between(trace, 0, len(trace.snapshots) - 1).height == trace.events.height


def test_a_seat_panel_starts_with_its_hand_in_order_and_marks_hidden_cards(specs: Path) -> None:
    trace = replay_game(specs / "divvy_tiny", "baseline", 2, 0)
    seat = trace.snapshots[0].view.seats[0]
    lines = seat_lines(seat, hand_hidden=True)
    assert lines[0] == f"**Hand** ({len(seat.hand)}) *(hidden from the others)*: " + ", ".join(seat.hand)
    assert seat_lines(seat, hand_hidden=False)[0] == f"**Hand** ({len(seat.hand)}): " + ", ".join(seat.hand)


@pytest.mark.parametrize("name", EXPERIMENTS)
def test_each_moment_is_in_the_turn_its_decision_is_labelled_and_the_turns_never_go_back(
        specs: Path, name: str) -> None:
    trace = replay_game(specs / name, "baseline", _first_players(specs / name), 0)
    turns = trace.events["turn"].to_list()
    assert turns == sorted(turns)  # a decision carries the turn of the events around it
    decisions = trace.events.filter(pl.col("type") == "decision")
    assert decisions["moment"].to_list() == list(range(1, len(trace.snapshots)))
    assert [snapshot.turn for snapshot in trace.snapshots[1:]] == decisions["turn"].to_list()  # the label, as is
