"""A synthetic test game whose fair value is known exactly: ``duel``.

Two shooters take turns, seat 0 first. A shot of seat 0 hits with
probability ``rules.first_accuracy``, one of seat 1 with
``rules.second_accuracy``; the first seat to land its number of hits
(``rules.first_hits``, ``rules.second_hits``) wins. Every step is forced
(one legal action: shoot), so the agents never matter and the outcome
depends only on the game's seeded generator.

``seat_zero_win_probability`` computes seat 0's exact chance by dynamic
programming, so a test knows which ``rules.second_hits`` makes the duel
fair. The game is not registered in ``simcore.registry``: tests add it with
``register`` (the Ray worker processes too, through Ray's
``worker_process_setup_hook``), so no other test ever sees a fifth game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from simcore.agents.random_agent import RandomAgent
from simcore.api import Agent, CardColumns, GameInfo, GameState, TraceSink
from simcore.parameters import ParameterError
from simcore.rng import Generator

INFO = GameInfo(id="duel", name="Duel (synthetic test game)", min_players=2, max_players=2,
                description="Two shooters take turns; the first to land its hits wins.", card_counters=())
SHOOT = 0


@dataclass(frozen=True)
class DuelConfig:
    """Compiled parameters: each seat's accuracy and hits needed."""

    accuracy: tuple[float, float]
    hits: tuple[int, int]


class DuelState(GameState):
    """One duel in progress."""

    def __init__(self, config: DuelConfig, rng: Generator) -> None:
        self.config = config
        self.rng = rng
        self.n_players = 2
        self.current_player = 0
        self.needed = list(config.hits)
        self.shots = 0
        self.winner = -1

    def legal_actions(self) -> Sequence[int]:
        """Shooting is the only thing to do."""
        return [SHOOT]

    def apply(self, action: int) -> None:
        """The current seat shoots; a hit brings it one closer to winning."""
        seat = self.current_player
        self.shots += 1
        if self.rng.random() < self.config.accuracy[seat]:
            self.needed[seat] -= 1
        if self.needed[seat] == 0:
            self.winner = seat
            self.current_player = -1
        else:
            self.current_player = 1 - seat

    def is_terminal(self) -> bool:
        """Over once a seat has landed its hits."""
        return self.winner >= 0

    def winners(self) -> list[int]:
        """The seat that landed its hits."""
        return [self.winner] if self.winner >= 0 else []

    def returns(self) -> list[float]:
        """1 for the winner, 0 for the other."""
        return [1.0 if seat == self.winner else 0.0 for seat in range(2)]

    def scores(self) -> list[int]:
        """Hits landed."""
        return [hits - needed for hits, needed in zip(self.config.hits, self.needed, strict=True)]

    def ranks(self) -> list[int]:
        """1 for the winner, 2 for the other."""
        return [1 if seat == self.winner else 2 for seat in range(2)]

    def factions(self) -> list[str | None]:
        """No factions."""
        return [None, None]

    def end_reason(self) -> str:
        """Always ``hits``."""
        return "hits"

    def turns(self) -> int:
        """Shots fired."""
        return self.shots

    def game_columns(self) -> dict[str, Any]:
        """No extra columns."""
        return {}

    def add_card_rows(self, columns: CardColumns) -> None:
        """No cards."""

    def observation(self, seat: int) -> Any:
        """Everything is public."""
        return (tuple(self.needed), self.current_player)

    def resample_hidden(self, seat: int, rng: Generator) -> GameState:
        """Nothing is hidden but the future shots: a copy with a fresh generator."""
        copy = self.clone()
        assert isinstance(copy, DuelState)
        copy.rng = Generator(rng.next_u32())
        return copy

    def clone(self) -> GameState:
        """An independent copy."""
        copy = DuelState(self.config, self.rng.copy())
        copy.current_player, copy.needed, copy.shots, copy.winner = (
            self.current_player, list(self.needed), self.shots, self.winner)
        return copy

    def describe_action(self, action: int) -> str:
        """``shoot``."""
        return "shoot"


class DuelGame:
    """The ``duel`` game object."""

    info: GameInfo = INFO

    def default_parameters(self) -> dict[str, Any]:
        """Seat 0 hits 20% of its shots, seat 1 60%; each needs 2 hits."""
        return {"rules": {"first_accuracy": 0.2, "second_accuracy": 0.6, "first_hits": 2, "second_hits": 2}}

    def configure(self, parameters: Mapping[str, Any]) -> DuelConfig:
        """Check the accuracies (in (0, 1]) and the hits (at least 1)."""
        rules = parameters["rules"]
        for seat in ("first", "second"):
            if not 0 < rules[f"{seat}_accuracy"] <= 1:
                raise ParameterError(f"rules.{seat}_accuracy", "expected a probability above 0, at most 1")
            if rules[f"{seat}_hits"] < 1:
                raise ParameterError(f"rules.{seat}_hits", "expected at least 1 hit")
        return DuelConfig((rules["first_accuracy"], rules["second_accuracy"]),
                          (rules["first_hits"], rules["second_hits"]))

    def new_state(self, config: Any, n_players: int, seed: int, trace: TraceSink | None = None) -> DuelState:
        """A new duel whose shots are drawn from ``seed``'s generator."""
        return DuelState(config, Generator(seed))

    def heuristic_agent(self, seat: int, rng: Generator) -> Agent:
        """There is nothing to decide: the random agent."""
        return RandomAgent(rng)


GAME = DuelGame()


def register() -> None:
    """Add ``duel`` to the game registry of this process (a Ray worker setup hook too)."""
    from simcore.registry import GAMES

    GAMES.setdefault(INFO.id, GAME)


def seat_zero_win_probability(first_accuracy: float, second_accuracy: float, first_hits: int,
                              second_hits: int) -> float:
    """Seat 0's exact chance to win, seat 0 shooting first.

    ``g(a, b)``: seat 0's chance when seat 0 is to shoot needing ``a`` hits and
    seat 1 needs ``b``. Seat 0 hits (p) and then seat 1 is to shoot:
    ``h(a − 1, b)``; or misses, and seat 1 hits (q): ``g(a, b − 1)``, or both
    miss and the position repeats. With ``h(a, b) = q·g(a, b − 1) + (1 − q)·g(a, b)``
    and solving the repeat: ``g = (p·h(a − 1, b) + (1 − p)·q·g(a, b − 1)) / (1 − (1 − p)(1 − q))``.
    """
    p, q = first_accuracy, second_accuracy

    @cache
    def g(a: int, b: int) -> float:
        if a == 0:
            return 1.0
        if b == 0:
            return 0.0
        after_hit = 1.0 if a == 1 else q * g(a - 1, b - 1) + (1 - q) * g(a - 1, b)
        return (p * after_hit + (1 - p) * q * g(a, b - 1)) / (1 - (1 - p) * (1 - q))

    return g(first_hits, second_hits)
