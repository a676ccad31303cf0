"""Is an agent seat-honest? The check the shipped agents pass, for any agent.

A seat-honest agent chooses from what its seat can see, never from the
opponents' hidden cards or from the game's future shuffles. The check plays
a seeded random game of the chosen game and, at several of its decisions
(positions spread along the game), asks the agent — built afresh with the
same seed each time — to choose:

1. in the real position and in a copy whose hidden cards were redrawn by
   ``resample_hidden`` (same observation for the acting seat, the same
   legal actions): the choices must be equal;
2. in the real position and in a copy whose own game generator (what
   decides future shuffles and draws) was replaced: the choices must be
   equal (only for games whose state keeps it as ``rng``);
3. the agent must leave the position it is shown unchanged (every seat's
   observation before and after ``choose``): a search plays on copies.

It cannot prove honesty (an agent may peek only in positions the walk does
not reach), but an agent that reads hidden cards fails it quickly; the
shipped search agents pass it on every game (``tests/agents``). Run it as
``cardlab check-agent AGENT --game GAME`` or call ``check_seat_honesty``.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from simcore.agents.registry import AgentSpec, make_agent, parse_agent_spec
from simcore.api import Game, GameState
from simcore.rng import Generator

DEFAULT_POSITIONS = 6
DEFAULT_SEED = 31


def decision_points(state: GameState, rng: Generator) -> Iterator[GameState]:
    """Copies of ``state`` at every real choice (two or more legal actions)
    of a random walk (drawn from ``rng``) from ``state`` to the end."""
    while not state.is_terminal():
        actions = state.legal_actions()
        if len(actions) > 1:
            yield state.clone()
        state.apply(actions[rng.below(len(actions))])


def spread_positions(game: Game, n_players: int, seed: int, count: int) -> list[GameState]:
    """Up to ``count`` decision points spread evenly along one seeded random game."""
    config = game.configure(game.default_parameters())
    walk = list(decision_points(game.new_state(config, n_players, seed), Generator(seed + 1)))
    step = max(1, len(walk) // count)
    return walk[::step][:count]


@dataclass
class HonestyReport:
    """What ``check_seat_honesty`` found: ``problems`` is empty for an agent
    that passed. ``hidden_differed`` counts the positions whose redrawn copy
    really differed from the real one in what some other seat holds (0 in a
    game where every seat sees everything)."""

    agent: str
    game: str
    n_players: int
    positions: int = 0
    hidden_differed: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def honest(self) -> bool:
        """True when no check failed."""
        return not self.problems


def check_seat_honesty(game: Game, agent: AgentSpec | str, n_players: int | None = None, *,
                       seed: int = DEFAULT_SEED, positions: int = DEFAULT_POSITIONS) -> HonestyReport:
    """Run the three checks of the module docstring on ``agent`` (a spec or
    its text, e.g. ``"ismcts(iterations=40)"`` or ``"mypackage.agents:Greedy"``)
    at ``positions`` decisions of a random ``game`` for ``n_players`` (default:
    the game's smallest count of two or more) seeded by ``seed``.

    Raises ``AgentSpecError`` for a spec that cannot be read.
    """
    spec = parse_agent_spec(agent) if isinstance(agent, str) else agent
    players = n_players or max(2, game.info.min_players)
    report = HonestyReport(str(spec), game.info.id, players)
    for index, real in enumerate(spread_positions(game, players, seed, positions)):
        report.positions += 1
        seat = real.current_player
        redrawn = real.resample_hidden(seat, Generator(1000 + index))
        if any(redrawn.observation(other) != real.observation(other) for other in range(players) if other != seat):
            report.hidden_differed += 1
        before = [real.observation(each) for each in range(players)]
        try:
            chosen = _choice(spec, game, real, seat)
            if [real.observation(each) for each in range(players)] != before:
                report.problems.append(f"position {index}: choose() changed the state it was shown")
                continue
            if _choice(spec, game, redrawn, seat) != chosen:
                report.problems.append(
                    f"position {index}: another choice when only the cards seat {seat} cannot see differ")
            if hasattr(real, "rng"):
                reshuffled = real.clone()
                reshuffled.rng = Generator(900 + index)  # type: ignore[attr-defined]
                if _choice(spec, game, reshuffled, seat) != chosen:
                    report.problems.append(
                        f"position {index}: another choice when only the game's future shuffles differ")
        except Exception as error:  # the agent's own failure is a finding, not a crash of the check
            first_line = (str(error).splitlines() or [""])[0]
            report.problems.append(f"position {index}: the agent raised {type(error).__name__}: {first_line}")
            break
    return report


def _choice(spec: AgentSpec, game: Game, state: GameState, seat: int) -> int:
    """The choice of a freshly built agent (always the same seed) in ``state``."""
    return make_agent(spec, game, seat, seed=77).choose(state, state.legal_actions())
