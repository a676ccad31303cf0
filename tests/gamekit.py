"""Test helpers shared by every game's tests (issue 20).

Each game's tests used to write these again (``tests/games/*/``): a random
walk that checks invariants at every step (and that ``play_game`` plays the
same game), the recorded actions of a game, "the heuristic beats random
play", and the RULES.md checks (the tests a rule row names exist, the rule
rows, a section's table as cells). They live here once; the per-game
``helpers.py`` files keep what is specific to one game (hand-made positions
by card name) and each ``test_invariants.py`` its game's invariants.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from simcore.agents.registry import make_agent, parse_agent_spec
from simcore.api import CardColumns, Game, GameState
from simcore.play import PlayedGame, play_game
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


def play_checked(game: Game, config: Any, n_players: int, seed: int, check: Callable[[GameState], None],
                 lineup: Sequence[str] = ("random",)) -> tuple[GameState, PlayedGame]:
    """Play one game step by step as ``walk`` does, running ``check`` on the state
    before every step and on the finished state, then play the same game with
    ``play_game`` and assert it is the same game (decisions, scores, winners, end
    reason). Returns (the finished state, ``play_game``'s result) so a caller can
    compare what is specific to its game."""
    decisions = 0
    state: GameState | None = None
    for state, _ in walk(game, config, n_players, seed, lineup):
        check(state)
        if len(state.legal_actions()) > 1:
            decisions += 1
    assert state is not None, "the game ended before its first step"
    check(state)
    specs = [parse_agent_spec(lineup[seat % len(lineup)]) for seat in range(n_players)]
    played = play_game(game, config, n_players, seed, specs)
    assert played.decisions == decisions
    assert played.state.scores() == state.scores() and played.state.winners() == state.winners()
    assert played.state.end_reason() == state.end_reason()
    return state, played


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


def rule_rows(rules_md: str, letters: str) -> list[tuple[str, str]]:
    """(row id, tests cell) of every rule row of a RULES.md whose id is one of
    ``letters`` and a number (``S1``, ``T12``), in the file's order."""
    return re.findall(rf"^\| ([{letters}]\d+) \|.*\|(.*)\|$", rules_md, flags=re.MULTILINE)


def table_rows(rules_md: str, heading: str, header_start: str = "| card ") -> list[list[str]]:
    """The cells of every row of the table in a RULES.md's ``## heading`` section
    (up to the next ``## ``), without its header row (the row starting ``header_start``)."""
    section = rules_md.split(f"\n## {heading}\n", 1)[1].split("\n## ", 1)[0]
    return [
        [cell.strip() for cell in line.strip().strip("|").split("|")]
        for line in section.splitlines()
        if line.startswith("| ") and not line.startswith(header_start)
    ]


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
