"""Properties every registered game must have (run over every game in the
registry, and over the game kit's example game, ``tests/example_game``)."""

from __future__ import annotations

import copy
import pickle
from dataclasses import dataclass
from typing import Any

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
def test_copy_and_deepcopy_give_independent_clones_and_pickling_is_refused_in_one_line(game_id: str) -> None:
    """A custom agent's author reaches for ``copy.deepcopy``: it (and ``copy.copy``)
    gives a copy that shows every seat what the original shows and plays on
    alone; ``pickle`` says what to do instead of failing inside a vector."""
    game = ALL_GAMES[game_id]
    n_players = game.info.min_players
    state = _states_along_a_game(game, n_players, 5)[3]
    before = [state.observation(seat) for seat in range(n_players)]
    for copier in (copy.copy, copy.deepcopy):
        twin = copier(state)
        assert type(twin) is type(state)
        assert [twin.observation(seat) for seat in range(n_players)] == before
        assert list(twin.legal_actions()) == list(state.legal_actions())
        while not twin.is_terminal():
            twin.apply(twin.legal_actions()[0])
        assert [state.observation(seat) for seat in range(n_players)] == before, copier.__name__
    with pytest.raises(TypeError, match=rf"^a {type(state).__name__} cannot be pickled: copy it with clone\(\)"):
        pickle.dumps(state)


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


def _replay(state: GameState, actions: list[int]) -> None:
    """Apply ``actions`` as ``play_game`` would (``note_offered`` first), checking each is legal."""
    for step, action in enumerate(actions):
        legal = list(state.legal_actions())
        assert action in legal, f"step {step}: {action} is not legal"
        state.note_offered(legal)
        state.apply(action)


def _observations(state: GameState) -> list[Any]:
    return [state.observation(seat) for seat in range(state.n_players)]


@dataclass
class _Reference:
    """One game played from its set-up by recorded actions, traced: before each
    step the legal actions, the acting seat's observation and how many trace
    events had been sent, every seat's observation at the clone points; at
    the end its results (every seat's observation among them) and every event."""

    legal: list[list[int]]
    acting_observation: list[Any]
    events_before: list[int]
    observations_at: dict[int, list[Any]]
    events: list[dict[str, Any]]
    results: dict[str, Any]


def _reference(game: Game, config: Any, n_players: int, seed: int, actions: list[int],
               clone_points: list[int]) -> _Reference:
    """The game of ``actions`` played from its set-up, traced (see ``_Reference``)."""
    recorder = TraceRecorder()
    state = game.new_state(config, n_players, seed, recorder.record)
    reference = _Reference([], [], [], {}, recorder.events, {})
    for step, action in enumerate(actions):
        reference.legal.append(list(state.legal_actions()))
        reference.acting_observation.append(state.observation(state.current_player))
        reference.events_before.append(len(recorder.events))
        if step in clone_points:
            reference.observations_at[step] = _observations(state)
        state.note_offered(reference.legal[-1])
        state.apply(action)
    reference.results = results(game, state)
    return reference


def _plays_on_like(game: Game, state: GameState, actions: list[int], reference: _Reference, start: int,
                   who: str, observe: bool = True) -> None:
    """Play ``state`` (at clone point ``start`` of ``reference``'s game) to the
    end with the recorded actions, checking before each step the legal
    actions and, with ``observe``, the acting seat's observation (every
    seat's at ``start``: all of them at every step made Party Wanted's 8-seat
    games take 15 s), and the results at the end."""
    if observe:
        assert _observations(state) == reference.observations_at[start], f"{who}: an observation differs at once"
    for step in range(start, len(actions)):
        assert list(state.legal_actions()) == reference.legal[step], f"{who}, step {step}: the legal actions differ"
        if observe and state.observation(state.current_player) != reference.acting_observation[step]:
            raise AssertionError(f"{who}, step {step}: the acting seat's observation differs")
        state.note_offered(reference.legal[step])
        state.apply(actions[step])
    assert results(game, state) == reference.results, f"{who}: the results differ"


def _trace_into(state: GameState, recorder: TraceRecorder) -> None:
    """Send ``state``'s trace events to ``recorder`` from now on. Every game's state
    keeps its sink in ``trace`` (``KitState.trace``; the engines before the kit
    likewise); ``GameState`` has no setter, since only this test needs one."""
    assert hasattr(state, "trace"), f"{type(state).__name__} keeps no trace sink"
    state.trace = recorder.record


def _clone_points(steps: int) -> list[int]:
    """About ten steps spread over a game of ``steps`` steps: the first, every
    tenth of the way, and the last."""
    return sorted({*range(0, steps, max(1, steps // 10)), max(0, steps - 1)})


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_clone_plays_on_exactly_like_its_original(game_id: str) -> None:
    """Cloned at about ten points of each random-versus-heuristic game (seeds
    0-4, fewest and most players), a clone given the recorded answers offers
    the same legal actions and shows the acting seat the same observation at
    each step (every seat at the clone point and at the end), sends the same
    trace events once given a tracer, and ends with the
    same results (scores, winners, ranks, game, player and card columns) as
    the game played uncloned. Playing a clone leaves the original as it was
    (every observation, and no event in the original's trace), and the
    original then plays on to the same end, trace included."""
    game = ALL_GAMES[game_id]
    config = default_config(game)
    clones = 0
    for n_players in sorted({game.info.min_players, game.info.max_players}):
        for seed in range(5):
            actions = recorded_actions(game, config, n_players, seed, ("random", "heuristic"))
            clone_points = _clone_points(len(actions))
            reference = _reference(game, config, n_players, seed, actions, clone_points)
            for start in clone_points:
                where = f"{n_players} players, seed {seed}, cloned at step {start}"
                recorder = TraceRecorder()
                original = game.new_state(config, n_players, seed, recorder.record)
                _replay(original, actions[:start])
                events = len(recorder.events)
                _plays_on_like(game, original.clone(), actions, reference, start, f"clone ({where})")
                assert _observations(original) == reference.observations_at[start], (
                    f"playing the clone changed the original ({where})")
                assert len(recorder.events) == events, f"the clone traced into the original's sink ({where})"
                traced_clone, clone_recorder = original.clone(), TraceRecorder()
                _trace_into(traced_clone, clone_recorder)
                _plays_on_like(game, traced_clone, actions, reference, start, f"traced clone ({where})", observe=False)
                expected_events = reference.events[reference.events_before[start]:]
                assert clone_recorder.events == expected_events, f"the clone's trace differs ({where})"
                _plays_on_like(game, original, actions, reference, start, f"original ({where})", observe=False)
                assert recorder.events == reference.events, f"the original's trace differs ({where})"
                clones += 1
    assert clones >= 5 * 9  # about ten clone points a game
