"""Properties of every step of a few hundred games played by random and heuristic agents.

``tests.gamekit.play_checked`` plays each game as ``simcore.play.play_game``
does, step by step (same agents, same seeds, forced single-option moves applied
without asking), so each state can be checked; the finished game is then
compared with ``play_game``'s.
"""

from __future__ import annotations

from collections import Counter

import pytest

from simcore.api import CardColumns, GameState
from simcore.games.theseus import GAME
from simcore.games.theseus.rules import (
    ACTIVE,
    BONUS_MASK,
    END_FINAL,
    HAND_LIMIT_BONUS,
    LAST_RANK,
    MAIN,
    RANK,
    TURN,
    USES,
    TheseusState,
)
from tests import gamekit

from .helpers import (
    DEFAULT,
    build,
    configured,
    end_turn,
    every_card_once,
    explore,
    pillage,
    recruit,
    use,
)


def _check_step(state: TheseusState, turn_started: bool) -> None:
    config = state.config
    assert every_card_once(state)
    assert len(state.board()) <= config.board_size
    if state.asked_kind() == MAIN:
        seat = state.numbers[ACTIVE]
        # Limits hold at every check point: before each card use and when the turn begins.
        assert len(state.party(seat)) <= config.party_limit
        assert len(state.hand(seat)) <= config.hand_limit + state.numbers[HAND_LIMIT_BONUS]
        if turn_started:  # the previous turn ended within the limits, for every player
            assert state.numbers[HAND_LIMIT_BONUS] == 0
            for other in range(state.n_players):
                assert len(state.party(other)) <= config.party_limit
                assert len(state.hand(other)) <= config.hand_limit
        assert state.numbers[USES] <= config.uses_per_turn
        if state.zones[state.numbers[RANK]].cards:
            assert len(state.board()) == config.board_size  # refilled whenever three or fewer remain
    for position, instance in enumerate(state.board()):
        if state.has_bonus(position):  # Bonuses only on the Board, on lower-Rank cards, never on Rank 6
            assert state.rank_of[instance] < state.numbers[RANK]
            assert state.rank_of[instance] != LAST_RANK
    assert state.numbers[BONUS_MASK] < 1 << len(state.board())  # no Bonus on a position past the Board's end
    for rank in range(1, state.numbers[RANK]):
        assert state.zones[rank].cards == []  # the active deck is the first non-empty one
    if not state.is_terminal():
        assert len(state.legal_actions()) > 0


class TurnChecker:
    """``_check_step`` for every state of one game, told whether a turn has just
    begun (the first state, or a turn number other than the last state's)."""

    def __init__(self) -> None:
        self.last_turn: int | None = None

    def __call__(self, state: GameState) -> None:
        assert isinstance(state, TheseusState)
        _check_step(state, state.numbers[TURN] != self.last_turn)
        self.last_turn = state.numbers[TURN]


@pytest.mark.parametrize("lineup", ["random", "heuristic"])
@pytest.mark.parametrize("n_players", [2, 3, 4])
def test_every_card_is_in_exactly_one_place_and_the_limits_hold_at_every_check_point(
    lineup: str, n_players: int,
) -> None:
    lineup_by_seat = (lineup, *["random"] * (n_players - 1))
    endings: Counter[str] = Counter()
    for seed in range(25):
        state, played = gamekit.play_checked(GAME, DEFAULT, n_players, seed, TurnChecker(), lineup_by_seat)
        assert isinstance(state, TheseusState) and isinstance(played.state, TheseusState)
        endings[state.end_reason()] += 1
        rewards = [state.reward(seat) for seat in range(n_players)]
        assert sum(len(reward) for reward in rewards) > 0
        assert [played.state.reward(seat) for seat in range(n_players)] == rewards
    assert endings == Counter({END_FINAL: 25})


def test_card_rows_count_what_each_seat_did_with_each_card() -> None:
    state = build(hands=[["shepherd"], []], rewards=[[], ["hero"]], board=["scout", "porter", "herald", "fisherman"],
                  config=configured({"cards.rogue.use": "pillage 1"}))
    use(state, "rogue")
    explore(state, "scout")  # explored and drawn
    pillage(state, 1, "hero")  # drawn (into the Hand) without being explored
    use(state, "mage")
    recruit(state, "scout")
    end_turn(state)
    columns = CardColumns(len(GAME.info.card_counters))
    state.add_card_rows(columns)
    rows = {
        (columns.seat[row], columns.names[columns.card[row]]): dict(
            zip(GAME.info.card_counters, (counter[row] for counter in columns.counters), strict=True))
        for row in range(len(columns))
    }
    assert set(rows) == {(0, "rogue"), (0, "mage"), (0, "scout"), (0, "hero")}  # shepherd: nothing done with it
    assert rows[(0, "scout")] == {"explored": 1, "recruited": 1, "subjugated": 0, "exiled": 0, "used": 0,
                                  "drawn": 1, "played": 0, "playable": 0, "effect_copies": 0, "effect_vp": 0}
    assert rows[(0, "hero")]["drawn"] == 1 and rows[(0, "hero")]["explored"] == 0
    assert rows[(0, "rogue")]["used"] == rows[(0, "rogue")]["played"] == 1
    first_turn = {columns.names[columns.card[row]]: columns.first_played_turn[row] for row in range(len(columns))}
    assert first_turn["rogue"] == 1 and first_turn["scout"] == -1
    assert columns.copies[list(rows).index((0, "rogue"))] == 2  # a starting card: one per player
