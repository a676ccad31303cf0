"""The ``turn`` of a trace: every event and every decision of a game carries the
turn it happens in, as the game counts turns and its own events label them
(set-up before the first turn: turn 0 in Party Wanted and Ring of Chaos,
whose party draft is set-up; Divvy's and Theseus's set-up belongs to turn 1).
``play_game`` labels the decisions, the rules the other events: the two agree."""

from __future__ import annotations

from typing import Any

import pytest

from simcore.agents.registry import parse_agent_spec
from simcore.play import PlayedGame, play_game
from simcore.registry import get_game
from simcore.trace import TraceRecorder

GAMES = ["divvy", "party_wanted", "ring_of_chaos", "theseus"]


def traced(game_id: str, seed: int, n_players: int | None = None) -> tuple[list[dict[str, Any]], PlayedGame]:
    """The events of the game ``cardlab replay GAME --seed SEED`` plays (random agents)."""
    game = get_game(game_id)
    players = n_players or game.info.min_players
    recorder = TraceRecorder()
    played = play_game(game, game.configure(game.default_parameters()), players, seed,
                       [parse_agent_spec("random")] * players, recorder.record)
    return recorder.events, played


def rules_turns_around(events: list[dict[str, Any]], index: int) -> set[int]:
    """The turns of the nearest events the rules emitted before and after ``events[index]``."""
    before = [event["turn"] for event in events[:index] if event["type"] != "decision"][-1:]
    after = [event["turn"] for event in events[index + 1:] if event["type"] != "decision"][:1]
    return set(before + after)


@pytest.mark.parametrize(("game_id", "seed", "n_players"), [
    *((game_id, seed, None) for game_id in GAMES for seed in (1, 2)),
    ("party_wanted", 1, 3), ("ring_of_chaos", 1, 4), ("theseus", 1, 3),
])
def test_a_decision_carries_the_turn_of_the_events_around_it(game_id: str, seed: int, n_players: int | None) -> None:
    events, _ = traced(game_id, seed, n_players)
    turns = [int(event["turn"]) for event in events]
    back = next((index for index in range(1, len(turns)) if turns[index] < turns[index - 1]), None)
    assert back is None, f"turn goes back at event {back}: {events[back - 1]} then {events[back]}"
    for index, event in enumerate(events):
        if event["type"] == "decision":
            around = rules_turns_around(events, index)
            assert event["turn"] in around, f"{event} among events of turns {sorted(around)}"


def test_the_cases_qa_found() -> None:
    party, _ = traced("party_wanted", 1)
    first_turn = next(index for index, event in enumerate(party) if event["type"] == "turn")
    assert party[first_turn]["text"].startswith("turn 1: seat 0")
    assert [event["turn"] for event in party[first_turn:first_turn + 3]] == [1, 1, 1]  # turn, decision, reveal
    assert party[first_turn + 1]["type"] == "decision" and party[first_turn + 2]["type"] == "reveal"
    ring, _ = traced("ring_of_chaos", 1)
    draft = [event for event in ring if event["type"] == "draft" or "choose the" in event["text"]]
    assert len(draft) == 4 and {event["turn"] for event in draft} == {0}  # two choices, two draft events
    theseus, _ = traced("theseus", 1)
    first_end = next(index for index, event in enumerate(theseus) if event["type"] == "turn_end")
    assert theseus[first_end - 1]["type"] == "decision" and "end the turn" in theseus[first_end - 1]["text"]
    assert theseus[first_end - 1]["turn"] == theseus[first_end]["turn"] == 1


@pytest.mark.parametrize("n_players", [2, 4])
def test_theseus_ends_a_turn_and_the_game_in_the_turn_being_played(n_players: int) -> None:
    events, played = traced("theseus", 1, n_players)
    ends = [index for index, event in enumerate(events) if event["type"] == "turn_end"]
    assert [events[index]["turn"] for index in ends] == list(range(1, len(ends) + 1))
    for index in ends:  # the decision that ended the turn is in the same turn
        assert events[index - 1]["type"] == "decision" and events[index - 1]["turn"] == events[index]["turn"]
    assert events[-1]["type"] == "game_over"
    assert events[-1]["turn"] == len(ends) == played.state.turns()  # the last turn played, not the next one
