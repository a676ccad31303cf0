"""Properties of every step of a few hundred games played by random and heuristic agents.

The loop below is ``simcore.play.play_game`` step by step (same agents, same
seeds, forced single-option moves applied without asking), so each state can
be checked; the finished game is then compared with ``play_game``'s.
"""

from __future__ import annotations

from collections import Counter

import pytest

from simcore.agents import parse_agent_spec
from simcore.agents.registry import make_agent
from simcore.api import CardColumns
from simcore.games.theseus import GAME
from simcore.games.theseus.rules import END_FINAL, LAST_RANK, MAIN, TheseusState
from simcore.play import play_game
from simcore.seeding import agent_seed

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
    config, ranks, card_of = state.config, state.config.ranks, state.card_of
    assert every_card_once(state)
    assert len(state.board) <= config.board_size
    if state.phase == MAIN:
        seat = state.active
        # Limits hold at every check point: before each card use and when the turn begins.
        assert len(state.parties[seat]) <= config.party_limit
        assert len(state.hands[seat]) <= config.hand_limit + state.hand_limit_bonus
        if turn_started:  # the previous turn ended within the limits, for every player
            assert state.hand_limit_bonus == 0
            for other in range(state.n_players):
                assert len(state.parties[other]) <= config.party_limit
                assert len(state.hands[other]) <= config.hand_limit
        assert state.uses <= config.uses_per_turn
        if state.decks[state.rank]:
            assert len(state.board) == config.board_size  # refilled whenever three or fewer remain
    for instance, bonus in enumerate(state.has_bonus):
        if bonus:
            assert instance in state.board  # Bonuses only on the Board ...
            assert ranks[card_of[instance]] < state.rank  # ... on lower-Rank cards, never on Rank 6
            assert ranks[card_of[instance]] != LAST_RANK
    for rank in range(1, state.rank):
        assert state.decks[rank] == []  # the active deck is the first non-empty one
    if not state.is_terminal():
        assert len(state.legal_actions()) > 0


@pytest.mark.parametrize("lineup", ["random", "heuristic"])
@pytest.mark.parametrize("n_players", [2, 3, 4])
def test_every_card_is_in_exactly_one_place_and_the_limits_hold_at_every_check_point(
    lineup: str, n_players: int,
) -> None:
    specs = [parse_agent_spec(lineup if seat == 0 else "random") for seat in range(n_players)]
    endings: Counter[str] = Counter()
    for seed in range(25):
        agents = [make_agent(specs[seat], GAME, seat, agent_seed(seed, seat)) for seat in range(n_players)]
        state = TheseusState.new_game(DEFAULT, n_players, seed, None)
        decisions = 0
        _check_step(state, True)
        while not state.is_terminal():
            turn_before = state.turn
            actions = state.legal_actions()
            if len(actions) == 1:
                action = actions[0]
            else:
                decisions += 1
                action = agents[state.current_player].choose(state, actions)
            state.apply(action)
            _check_step(state, state.turn != turn_before)
        endings[state.end_reason()] += 1
        assert sum(len(reward) for reward in state.rewards) > 0
        played = play_game(GAME, DEFAULT, n_players, seed, specs)
        assert isinstance(played.state, TheseusState)
        assert played.decisions == decisions
        assert played.state.rewards == state.rewards and played.state.scores() == state.scores()
        assert played.state.winners() == state.winners()
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
