"""Properties every registered game must have (run over every game in the
registry, and over the game kit's example game, ``tests/example_game``)."""

from __future__ import annotations

import pytest

from simcore.agents.registry import parse_agent_spec
from simcore.api import Game, GameState
from simcore.kit.state import KitState
from simcore.play import play_game
from simcore.registry import GAMES
from simcore.rng import Generator
from simcore.trace import TraceRecorder
from tests.example_game import GAME as EXAMPLE_GAME
from tests.gamekit import default_config, recorded_actions, results

ALL_GAMES: dict[str, Game] = {**GAMES, EXAMPLE_GAME.info.id: EXAMPLE_GAME}
GAME_IDS = sorted(ALL_GAMES)


def _config(game: Game) -> object:
    return game.configure(game.default_parameters())


def _states_along_a_game(game: Game, n_players: int, seed: int) -> list[GameState]:
    """Snapshots of a random game at every decision point."""
    state = game.new_state(_config(game), n_players, seed)
    agent_rng = Generator(seed + 1)
    snapshots = []
    while not state.is_terminal():
        snapshots.append(state.clone())
        actions = state.legal_actions()
        state.apply(actions[agent_rng.below(len(actions))])
    return snapshots


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_random_games_end_with_legal_actions_all_along(game_id: str) -> None:
    game = ALL_GAMES[game_id]
    for n_players in range(game.info.min_players, game.info.max_players + 1):
        for seed in range(50):
            played = play_game(game, _config(game), n_players, seed, [parse_agent_spec("random")] * n_players)
            state = played.state
            assert state.is_terminal() and state.current_player == -1
            assert state.end_reason()
            assert len(state.returns()) == n_players
            assert all(0.0 <= value <= 1.0 for value in state.returns())
            assert set(state.winners()) <= set(range(n_players))


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_same_seed_and_agents_give_the_same_game(game_id: str) -> None:
    game = ALL_GAMES[game_id]
    lineup = [parse_agent_spec("random"), parse_agent_spec("heuristic")] * game.info.max_players
    traces = []
    for _ in range(2):
        recorder = TraceRecorder()
        play_game(game, _config(game), game.info.min_players, 1234, lineup[: game.info.min_players], recorder.record)
        traces.append(recorder.events)
    assert traces[0] == traces[1]
    other = TraceRecorder()
    play_game(game, _config(game), game.info.min_players, 1235, lineup[: game.info.min_players], other.record)
    assert other.events != traces[0]


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_changing_an_agent_never_changes_the_shuffle(game_id: str) -> None:
    """Agents draw from their own generators: the opening set-up is the same
    whichever agents play."""
    game = ALL_GAMES[game_id]
    n_players = game.info.min_players
    openings = []
    for agent in ("random", "heuristic"):
        recorder = TraceRecorder()
        play_game(game, _config(game), n_players, 99, [parse_agent_spec(agent)] * n_players, recorder.record)
        first_decision = next(i for i, event in enumerate(recorder.events) if event["type"] == "decision")
        openings.append(recorder.events[:first_decision])
    assert openings[0] == openings[1]
    assert openings[0], "the set-up must emit events before the first decision"


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_tracing_does_not_change_the_game(game_id: str) -> None:
    game = ALL_GAMES[game_id]
    n_players = game.info.min_players
    lineup = [parse_agent_spec("random")] * n_players
    quiet = play_game(game, _config(game), n_players, 7, lineup)
    traced = play_game(game, _config(game), n_players, 7, lineup, TraceRecorder().record)
    assert quiet.state.observation(0) == traced.state.observation(0)
    assert quiet.decisions == traced.decisions


def _another_seat_sees_what_it_cannot(state: KitState, seat: int) -> bool:
    """A card another seat sees and ``seat`` does not (the zones, with their history)."""
    others = [other for other in range(state.n_players) if other != seat]
    return any(zone.hidden_from(seat, position) and not zone.hidden_from(other, position)
               for zone in state.zones for position in range(len(zone)) for other in others)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_resampling_keeps_what_a_seat_sees_and_redraws_what_it_cannot(game_id: str) -> None:
    game = ALL_GAMES[game_id]
    n_players = game.info.min_players
    changed_for_others = 0
    checked = 0
    hiding = 0
    for seed in range(20):
        for state in _states_along_a_game(game, n_players, seed)[::3]:
            for seat in range(n_players):
                copy = state.resample_hidden(seat, Generator(seed * 1000 + checked))
                checked += 1
                if isinstance(state, KitState):
                    hiding += _another_seat_sees_what_it_cannot(state, seat)
                assert copy.observation(seat) == state.observation(seat)
                assert copy.legal_actions() == state.legal_actions() or copy.current_player != seat
                if any(copy.observation(other) != state.observation(other)
                       for other in range(n_players) if other != seat):
                    changed_for_others += 1
    if game.info.hidden_between_seats and n_players > 1:
        if hiding:
            # A kit game: re-samples where another seat sees a card this one
            # cannot must often change what the others see. Not always: a
            # card every seat saw (one a Theseus player took from the face-up
            # Board) stays where it is, and a hidden card the seat can deduce
            # (a Theseus card whose Rank deck is used up) has nowhere else to go.
            assert hiding > 100 and changed_for_others > hiding // 4
        else:
            # Seats hide things from each other: most re-samples must change what the others see.
            assert changed_for_others > checked // 2
    else:
        # Every seat sees the same table, so re-sampling may change only what nobody sees.
        assert changed_for_others == 0


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_clone_is_independent_of_the_original(game_id: str) -> None:
    game = ALL_GAMES[game_id]
    state = game.new_state(_config(game), game.info.min_players, 3)
    copy = state.clone()
    before = state.observation(0)
    copy.apply(copy.legal_actions()[-1])
    assert state.observation(0) == before
    assert copy.observation(0) != before or copy.current_player != state.current_player


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_played_game_counts_its_decisions_and_the_options_each_one_offered(game_id: str) -> None:
    """Recomputed by hand: only choices with more than one legal action count."""
    game = ALL_GAMES[game_id]
    n_players = game.info.min_players
    played = play_game(game, _config(game), n_players, 21, [parse_agent_spec("random")] * n_players)
    state = game.new_state(_config(game), n_players, 21)
    from simcore.agents.registry import make_agent
    from simcore.seeding import agent_seed

    agents = [make_agent(parse_agent_spec("random"), game, seat, agent_seed(21, seat)) for seat in range(n_players)]
    decisions = options = 0
    while not state.is_terminal():
        actions = state.legal_actions()
        if len(actions) > 1:
            decisions += 1
            options += len(actions)
            state.apply(agents[state.current_player].choose(state, actions))
        else:
            state.apply(actions[0])
    assert (played.decisions, played.legal_actions) == (decisions, options)
    assert options >= 2 * decisions


def _replay(state: GameState, actions: list[int], offered: list[list[int]] | None = None) -> None:
    """Apply ``actions`` as ``play_game`` would (``note_offered`` first), checking
    each is legal; with ``offered``, check the legal actions match it step by step."""
    for step, action in enumerate(actions):
        legal = list(state.legal_actions())
        if offered is not None:
            assert legal == offered[step], f"step {step}: the legal actions differ"
        assert action in legal, f"step {step}: {action} is not legal"
        state.note_offered(legal)
        state.apply(action)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_clone_plays_on_exactly_like_its_original(game_id: str) -> None:
    """Cloned at the start, a third and two thirds into random-versus-heuristic
    games, the clone given the same answers offers the same legal actions at
    every step and ends with the same results (scores, winners, ranks, game,
    player and card columns, every seat's observation) as an uncloned game;
    so does the original, which the cloning must leave untouched."""
    game = ALL_GAMES[game_id]
    config = default_config(game)
    for n_players in sorted({game.info.min_players, game.info.max_players}):
        for seed in range(5):
            actions = recorded_actions(game, config, n_players, seed, ("random", "heuristic"))
            reference = game.new_state(config, n_players, seed)
            offered: list[list[int]] = []
            for action in actions:
                offered.append(list(reference.legal_actions()))
                reference.note_offered(offered[-1])
                reference.apply(action)
            expected = results(game, reference)
            for start in (0, len(actions) // 3, 2 * len(actions) // 3):
                original = game.new_state(config, n_players, seed)
                _replay(original, actions[:start])
                copy = original.clone()
                _replay(copy, actions[start:], offered[start:])
                assert results(game, copy) == expected, f"{n_players} players, seed {seed}, cloned at {start}"
                _replay(original, actions[start:], offered[start:])
                assert results(game, original) == expected
