"""What the search agents (``osla``, ``ismcts``) share: determinizations,
rollouts and the value of a rollout that hit its step cap.

Seat-honesty rests on ``determinize``: a search agent never plays on the real
state, only on copies in which everything its seat cannot see has been drawn
again from the agent's own generator.
"""

from __future__ import annotations

from collections.abc import Sequence

from simcore.api import Agent, Game, GameState
from simcore.kit.decisions import answer_list
from simcore.rng import Generator
from simcore.seeding import derive_seed, make_rng

ROLLOUT_POLICIES = ("random", "heuristic")
DEFAULT_MAX_STEPS = 2000


def determinize(state: GameState, seat: int, rng: Generator) -> GameState:
    """A copy of ``state`` with all ``seat`` cannot see drawn again from ``rng``:
    the hidden cards, and future chance (every game's ``resample_hidden``
    gives the copy a generator of its own, drawn from ``rng``)."""
    return state.resample_hidden(seat, rng)


class RolloutPolicy:
    """Plays a determinization on to the end (or to ``max_steps`` actions)."""

    def __init__(self, kind: str, game: Game, rng: Generator, max_steps: int) -> None:
        self.kind = kind
        self.game = game
        self.rng = rng
        self.max_steps = max_steps
        # Heuristics are seat-bound and made on first use (the player count is
        # known only then), each with a generator derived from this seed.
        self.heuristic_seed = rng.next_u32()
        self.heuristics: dict[int, Agent] = {}

    def heuristic(self, seat: int) -> Agent:
        """The game's heuristic for ``seat`` in rollouts."""
        agent = self.heuristics.get(seat)
        if agent is None:
            agent = self.game.heuristic_agent(seat, make_rng(derive_seed("rollout", self.heuristic_seed, seat)))
            self.heuristics[seat] = agent
        return agent

    def play_out(self, state: GameState) -> list[float]:
        """Play ``state`` (a determinization, changed in place) on and return its value per seat."""
        # The hot loop of every search, compiled: direct method calls (a bound
        # method in a local would be a Python object call in the compiled core).
        rng = self.rng
        use_heuristic = self.kind == "heuristic"
        for _ in range(self.max_steps):
            if state.is_terminal():
                return state.returns()
            offered = state.legal_actions()
            actions = answer_list(offered)
            count = len(actions)
            if count == 1:
                state.apply(actions[0])
            elif use_heuristic:
                state.apply(self.heuristic(state.current_player).choose(state, actions))
            else:
                state.apply(actions[rng.below(count)])
        return value_of(state)


def value_of(state: GameState) -> list[float]:
    """Per-seat value in [0, 1]: the returns once over, otherwise a guess from
    the current ranks (the leaders share 1, as a win would be shared), used
    only when a rollout hits its step cap."""
    if state.is_terminal():
        return state.returns()
    ranks = state.ranks()
    leaders = sum(1 for rank in ranks if rank == 1)
    return [1.0 / leaders if rank == 1 else 0.0 for rank in ranks]


def integer_parameter(name: str, value: str, smallest: int | None = None) -> int:
    """``value`` as an integer (of at least ``smallest``, if given); ValueError with a readable message."""
    try:
        number = int(value)
    except ValueError:
        raise ValueError(f"{name}: expected an integer, got {value!r}") from None
    if smallest is not None and number < smallest:
        raise ValueError(f"{name}: expected an integer of at least {smallest}, got {number}")
    return number


def float_parameter(name: str, value: str, smallest: float | None = None) -> float:
    """``value`` as a finite number (of at least ``smallest``, if given); ValueError otherwise."""
    try:
        number = float(value)
    except ValueError:
        raise ValueError(f"{name}: expected a number, got {value!r}") from None
    if not abs(number) < float("inf"):
        raise ValueError(f"{name}: expected a finite number, got {value}")
    if smallest is not None and not smallest <= number:
        raise ValueError(f"{name}: expected a number of at least {smallest}, got {value}")
    return number


def boolean_parameter(name: str, value: str) -> bool:
    """``value`` as true or false (any letter case); ValueError otherwise."""
    lowered = value.lower()
    if lowered not in ("true", "false"):
        raise ValueError(f"{name}: expected true or false, got {value!r}")
    return lowered == "true"


def policy_parameter(value: str) -> str:
    """``value`` as a rollout policy name; ValueError otherwise."""
    if value not in ROLLOUT_POLICIES:
        raise ValueError(f"rollout: expected one of {', '.join(ROLLOUT_POLICIES)}, got {value!r}")
    return value


def first_best(actions: Sequence[int], scores: Sequence[float]) -> int:
    """The action with the highest score; the earliest one on ties (deterministic)."""
    best = 0
    for index in range(1, len(actions)):
        if scores[index] > scores[best]:
            best = index
    return actions[best]
