"""Who led, turn after turn: ``play_game`` reads each seat's standing after every turn
and at the end (``simcore.standings``), and the ``games`` table keeps the margin, the
lead changes, the winner's largest deficit and the leader at each third."""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from simcore.agents.random_agent import RandomAgent
from simcore.agents.registry import parse_agent_spec
from simcore.api import Agent, CardColumns, GameInfo, GameState, TraceSink
from simcore.play import play_game
from simcore.records import LEAD_COLUMNS, ResultColumns
from simcore.registry import get_game
from simcore.rng import Generator
from simcore.standings import LeadRecord
from tests.gamekit import default_config, walk

INFO = GameInfo(id="race", name="Race (scripted test game)", min_players=2, max_players=4,
                description="Each turn, every seat's points are the script's next line.", card_counters=())


class RaceState(GameState):
    """A race whose standings follow a script: after turn t every seat holds ``script[t - 1]``
    points. Every step is forced and ends a turn; the most points at the end win (ties share)."""

    def __init__(self, script: Sequence[Sequence[int]]) -> None:
        self.script = script
        self.n_players = len(script[0])
        self.current_player = 0
        self.played = 0

    def legal_actions(self) -> Sequence[int]:
        return [0]

    def apply(self, action: int) -> None:
        self.played += 1
        self.current_player = -1 if self.played == len(self.script) else self.played % self.n_players

    def is_terminal(self) -> bool:
        return self.current_player < 0

    def standings(self) -> list[int]:
        return list(self.script[self.played - 1]) if self.played else [0] * self.n_players

    def scores(self) -> list[int]:
        return self.standings()

    def winners(self) -> list[int]:
        final = self.standings()
        return [seat for seat, points in enumerate(final) if points == max(final)] if self.is_terminal() else []

    def returns(self) -> list[float]:
        winners = self.winners()
        return [1.0 / len(winners) if seat in winners else 0.0 for seat in range(self.n_players)]

    def ranks(self) -> list[int]:
        return [1] * self.n_players

    def factions(self) -> list[str | None]:
        return [None] * self.n_players

    def end_reason(self) -> str:
        return "script"

    def turns(self) -> int:
        return self.played

    def game_columns(self) -> dict[str, Any]:
        return {}

    def add_card_rows(self, columns: CardColumns) -> None:
        return None


class RaceGame:
    info = INFO

    def default_parameters(self) -> dict[str, Any]:
        return {}

    def configure(self, parameters: Mapping[str, Any]) -> Any:
        return parameters["script"]

    def new_state(self, config: Any, n_players: int, seed: int, trace: TraceSink | None = None) -> RaceState:
        return RaceState(config)

    def heuristic_agent(self, seat: int, rng: Generator) -> Agent:
        return RandomAgent(rng)


def _lead_columns(script: Sequence[Sequence[int]]) -> dict[str, Any]:
    """The ``games`` lead columns of the race that follows ``script``."""
    n_players = len(script[0])
    played = play_game(RaceGame(), script, n_players, 0, [parse_agent_spec("random")] * n_players)
    columns = ResultColumns(INFO)
    columns.add(0, 0, played)
    return {name: columns.games[name][0] for name in LEAD_COLUMNS}


def test_a_scripted_race_has_its_known_lead_changes_margin_comeback_and_leaders_at_the_thirds() -> None:
    # Leaders by reading: 0, 1, 0, level, 1, 0: four changes (the level reading changes nothing).
    # Seat 0 wins 6 to 5, having trailed by 2 at reading 5. Readings 2 (of 6) and 4 end the thirds.
    script = [[1, 0], [1, 2], [3, 2], [3, 3], [3, 5], [6, 5]]
    assert _lead_columns(script) == {"margin": 1, "lead_changes": 4, "winner_deficit": 2,
                                     "leader_first_third": 1, "leader_second_third": None}


def test_a_wire_to_wire_win_has_no_lead_change_and_no_deficit() -> None:
    script = [[0, 2, 1], [1, 4, 1], [1, 9, 3]]
    assert _lead_columns(script) == {"margin": 6, "lead_changes": 0, "winner_deficit": 0,
                                     "leader_first_third": 1, "leader_second_third": 1}


def test_a_shared_win_has_lead_changes_but_no_margin_and_no_deficit() -> None:
    script = [[2, 0], [2, 3], [4, 4]]
    assert _lead_columns(script) == {"margin": None, "lead_changes": 1, "winner_deficit": None,
                                     "leader_first_third": 0, "leader_second_third": 1}


def test_the_winner_of_a_multi_player_race_is_measured_against_the_best_of_the_others() -> None:
    # Seat 2 comes from 7 behind seat 0 (reading 2) to win by 1 over seat 1.
    script = [[3, 1, 0], [8, 2, 1], [8, 9, 5], [8, 11, 12]]
    assert _lead_columns(script) == {"margin": 1, "lead_changes": 2, "winner_deficit": 7,
                                     "leader_first_third": 0, "leader_second_third": 1}


def test_a_game_without_standings_records_no_lead_columns() -> None:
    game = get_game("party_wanted")
    played = play_game(game, default_config(game), 2, 5, [parse_agent_spec("random")] * 2)
    assert played.lead is None
    columns = ResultColumns(game.info)
    columns.add(0, 5, played)
    assert {name: columns.games[name][0] for name in LEAD_COLUMNS} == dict.fromkeys(LEAD_COLUMNS)


def test_one_reading_is_both_thirds_and_the_thirds_are_readings_ceil_m_over_3_and_ceil_2m_over_3() -> None:
    record = LeadRecord(2)
    record.read([1, 0])
    assert (record.leader_at(1), record.leader_at(2)) == (0, 0)
    for standings in ([1, 2], [3, 2], [3, 4]):  # m = 4: readings 2 and 3
        record.read(standings)
    assert (record.leader_at(1), record.leader_at(2), record.lead_changes) == (1, 0, 3)


def _independent_lead_columns(state: GameState, readings: list[list[int]]) -> dict[str, Any]:
    """The lead columns from a game's readings, computed here the plain way."""
    leaders = [standings.index(max(standings)) if standings.count(max(standings)) == 1 else None
               for standings in readings]
    sole = [leader for leader in leaders if leader is not None]
    winners = state.winners()
    winner = winners[0] if len(winners) == 1 else None
    final = readings[-1]
    m = len(readings)
    return {
        "margin": None if winner is None else final[winner] - max(final[:winner] + final[winner + 1:]),
        "lead_changes": sum(1 for before, after in itertools.pairwise(sole) if before != after),
        "winner_deficit": None if winner is None else max(max(reading) - reading[winner] for reading in readings),
        "leader_first_third": leaders[-(-m // 3) - 1],
        "leader_second_third": leaders[-(-2 * m // 3) - 1],
    }


@pytest.mark.parametrize(("game_id", "n_players"), [("divvy", 2), ("theseus", 3), ("ring_of_chaos", 4)])
def test_every_competitive_game_records_the_lead_columns_of_its_standings_read_after_every_turn(
        game_id: str, n_players: int) -> None:
    game = get_game(game_id)
    config = default_config(game)
    changes = 0
    for seed in range(12):
        readings: list[list[int]] = []
        state: GameState | None = None
        turns: int | None = None
        for state, _ in walk(game, config, n_players, seed):
            if turns is None:
                turns = state.turns()  # as play_game starts: the turns before the first step
            elif state.turns() != turns:
                turns = state.turns()
                readings.append(state.standings())
        assert state is not None and state.is_terminal()
        readings.append(state.standings())
        played = play_game(game, config, n_players, seed, [parse_agent_spec("random")] * n_players)
        columns = ResultColumns(game.info)
        columns.add(0, seed, played)
        recorded = {name: columns.games[name][0] for name in LEAD_COLUMNS}
        assert recorded == _independent_lead_columns(state, readings), seed
        # The last reading is the final score: the margin is the winner's score minus the runner-up's.
        assert readings[-1] == state.scores()
        changes += recorded["lead_changes"]
    assert changes > 0  # not vacuous: the lead did change hands
