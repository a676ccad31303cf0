"""Test helpers shared by every game's tests (issue 20).

Each game's tests used to write these again (``tests/games/*/``): a random
walk that checks invariants at every step, the recorded actions of a game,
"the heuristic beats random play", and the RULES.md checks that every test a
rule row names exists. They live here once; the per-game ``helpers.py``
files keep what is specific to one game (hand-made positions by card name).

Replaces, as the games are ported to the kit (part two of issue 20): the
step loops of ``tests/games/*/test_invariants.py``, the win-rate loops of
``tests/games/*/test_heuristic.py`` ("beats random play"), and
``test_every_test_named_in_the_rule_table_exists`` of
``tests/games/*/test_rules_md.py``.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from simcore.agents.registry import make_agent, parse_agent_spec
from simcore.api import CardColumns, Game, GameState
from simcore.play import play_game
from simcore.seeding import agent_seed


def default_config(game: Game) -> Any:
    """The game's default parameters, compiled."""
    return game.configure(game.default_parameters())


def walk(game: Game, config: Any, n_players: int, seed: int,
         lineup: Sequence[str] = ("random",)) -> Iterator[tuple[GameState, int]]:
    """Play one game as ``simcore.play.play_game`` does (same agents and
    seeds, a single legal action applied without asking) and yield (state,
    action) before each step; the state is the live one, so a caller that
    keeps it must clone it. ``lineup`` is cycled over the seats."""
    agents = [make_agent(parse_agent_spec(lineup[seat % len(lineup)]), game, seat, agent_seed(seed, seat))
              for seat in range(n_players)]
    state = game.new_state(config, n_players, seed)
    while not state.is_terminal():
        actions = state.legal_actions()
        state.note_offered(actions)
        action = actions[0] if len(actions) == 1 else agents[state.current_player].choose(state, actions)
        yield state, action
        state.apply(action)


def recorded_actions(game: Game, config: Any, n_players: int, seed: int,
                     lineup: Sequence[str] = ("random",)) -> list[int]:
    """Every action of one game played as ``play_game`` plays it."""
    return [action for _, action in walk(game, config, n_players, seed, lineup)]


def check_every_step(game: Game, config: Any, n_players: int, seeds: Sequence[int],
                     check: Callable[[GameState], None], lineup: Sequence[str] = ("random",)) -> int:
    """Run ``check`` on the state before every step of each seed's game and
    on the finished state; the number of states checked."""
    checked = 0
    for seed in seeds:
        state: GameState | None = None
        for state, _ in walk(game, config, n_players, seed, lineup):
            check(state)
            checked += 1
        if state is not None:
            check(state)
            checked += 1
    return checked


def card_rows(state: GameState, n_counters: int) -> tuple[tuple[str, ...], list[bytes]]:
    """The ``cards`` rows ``state`` adds, as (card names, every column's bytes)."""
    columns = CardColumns(n_counters)
    state.add_card_rows(columns)
    parts = [columns.seat, columns.card, columns.copies, *columns.counters, columns.first_played_turn]
    return columns.names, [part.to_bytes() for part in parts]


def results(game: Game, state: GameState) -> dict[str, Any]:
    """Everything a finished game leaves in the results tables, and every seat's observation."""
    return {
        "scores": state.scores(), "winners": state.winners(), "returns": state.returns(),
        "ranks": state.ranks(), "factions": state.factions(), "end_reason": state.end_reason(),
        "turns": state.turns(), "game_columns": state.game_columns(),
        "player_columns": [state.player_columns(seat) for seat in range(state.n_players)],
        "cards": card_rows(state, len(game.info.card_counters)),
        "observations": [state.observation(seat) for seat in range(state.n_players)],
    }


def share_won(game: Game, config: Any, n_players: int, seeds: Sequence[int], hero: str = "heuristic",
              others: str = "random") -> float:
    """The mean return of one ``hero`` seat (rotating over the seats by seed)
    against ``others`` in every other seat."""
    total = 0.0
    for seed in seeds:
        seat = seed % n_players
        lineup = [parse_agent_spec(hero if other == seat else others) for other in range(n_players)]
        total += play_game(game, config, n_players, seed, lineup).state.returns()[seat]
    return total / len(seeds)


def named_tests(rules_md: str) -> set[tuple[str, str]]:
    """(module, test) of every `test_x.py::test_y` a RULES.md names."""
    return set(re.findall(r"`(test_\w+)\.py::(test_\w+)`", rules_md))


def missing_tests(rules_md: str, package: str) -> list[str]:
    """The tests a RULES.md names that do not exist in ``package`` (empty when all do)."""
    missing = []
    for module_name, function in sorted(named_tests(rules_md)):
        try:
            module = importlib.import_module(f"{package}.{module_name}")
        except ModuleNotFoundError:
            missing.append(f"{module_name}.py")
            continue
        if not callable(getattr(module, function, None)):
            missing.append(f"{module_name}.py::{function}")
    return missing
