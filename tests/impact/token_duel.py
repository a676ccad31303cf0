"""A synthetic card game whose card impacts are known exactly: ``token_duel``.

Two seats are each dealt one card from a shuffled deck of distinct cards
(``cards.<name>.bonus`` and ``.edge``, one copy each). Then one draw ``u`` of
the game's generator decides: seat 0 wins when ``u < 0.5 + bonus(seat 0's
card) − bonus(seat 1's card) + edge(either card dealt)``, else seat 1. A
dealt card with an edge (the ``banner``) also makes the game one turn longer
and end by ``banner`` instead of ``flip``. Every step is forced, so the agents
never matter.

The neutral stand-in of a card is the same card with bonus 0 and edge 0.
Replaced in place, the deal and ``u`` are unchanged, so the holder's win
chance falls by exactly the card's bonus: its impact (``stand_in``) is
``bonus`` (``expected_impact``). The banner has no bonus, and helps seat 0
whoever holds it: +20 points for a holder at seat 0, −20 at seat 1, 0 over
its holders (each seat is dealt it alike). A card of bonus 0 and no edge
changes nothing in place: every pair of games is identical and its impact is 0.

With one copy fewer (the card gone) the deck is shorter; what that changes
for everyone is exact too (``expected_removal``): the banner is dealt in
``2 / deck`` of the games, so seat 0 wins ``0.5 + 0.2 · 2 / deck`` of them
(the bonuses cancel: either seat is dealt any card alike), the games last
``1 + 2 / deck`` turns and end by ``banner`` that often.

Not in ``simcore.registry``: a test adds it with ``register`` (Ray worker
processes too, through ``worker_process_setup_hook``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from simcore.agents.random_agent import RandomAgent
from simcore.api import Agent, CardColumns, GameInfo, GameState, TraceSink
from simcore.parameters import ParameterError
from simcore.rng import Generator

INFO = GameInfo(id="token_duel", name="Token duel (synthetic test game)", min_players=2, max_players=2,
                description="Each seat is dealt a card; the bonuses tilt one coin flip.")
DEAL = 0

BONUSES = {"strong": 0.10, "blank": 0.0, "weak": -0.05, "banner": 0.0, "plain_1": 0.0, "plain_2": 0.0,
           "plain_3": 0.0, "plain_4": 0.0, "plain_5": 0.0}
"""The deck: one card that helps its holder by 10 points, one of no effect, one that hurts by 5, and
the banner, of no bonus but an edge."""
EDGES = {"banner": 0.20}
"""Seat 0's edge while the card is dealt to either seat (every other card: none)."""
BANNER_ENDS = "banner"
"""The end reason of a game in which a card with an edge was dealt (every other game: ``flip``)."""


@dataclass(frozen=True)
class TokenConfig:
    """The cards' names, bonuses, edges and the deck (card ids, one per copy)."""

    names: tuple[str, ...]
    bonuses: tuple[float, ...]
    edges: tuple[float, ...]
    deck: tuple[int, ...]


class TokenState(GameState):
    """One deal and one flip."""

    def __init__(self, config: TokenConfig, rng: Generator) -> None:
        self.config = config
        self.rng = rng
        self.n_players = 2
        deck = list(config.deck)
        rng.shuffle(deck)
        self.hands = (deck[0], deck[1])
        self.current_player = 0
        self.winner = -1

    def legal_actions(self) -> Sequence[int]:
        """Flipping is the only thing to do."""
        return [DEAL]

    def apply(self, action: int) -> None:
        """The flip: seat 0 wins below 0.5 plus its card's bonus minus the other's, plus a dealt card's edge."""
        bonuses = self.config.bonuses
        threshold = 0.5 + bonuses[self.hands[0]] - bonuses[self.hands[1]] + self.edge()
        self.winner = 0 if self.rng.random() < threshold else 1
        self.current_player = -1

    def is_terminal(self) -> bool:
        return self.winner >= 0

    def winners(self) -> list[int]:
        return [self.winner] if self.winner >= 0 else []

    def returns(self) -> list[float]:
        return [1.0 if seat == self.winner else 0.0 for seat in range(2)]

    def scores(self) -> list[int]:
        return [1 if seat == self.winner else 0 for seat in range(2)]

    def ranks(self) -> list[int]:
        return [1 if seat == self.winner else 2 for seat in range(2)]

    def factions(self) -> list[str | None]:
        return [None, None]

    def edge(self) -> float:
        """Seat 0's edge from the dealt cards."""
        return sum(self.config.edges[card] for card in self.hands)

    def end_reason(self) -> str:
        return BANNER_ENDS if self.edge() else "flip"

    def turns(self) -> int:
        return 2 if self.edge() else 1

    def game_columns(self) -> dict[str, Any]:
        return {}

    def add_card_rows(self, columns: CardColumns) -> None:
        """Each seat's card: dealt in its opening hand (in hand), never played."""
        columns.names = self.config.names
        for seat, card in enumerate(self.hands):
            columns.seat.append(seat)
            columns.card.append(card)
            columns.copies.append(1)
            for counter, value in zip(columns.counters, (1, 1, 0), strict=True):
                counter.append(value)
            columns.first_played_turn.append(-1)

    def observation(self, seat: int) -> Any:
        return (self.hands[seat], self.winner)

    def resample_hidden(self, seat: int, rng: Generator) -> GameState:
        return self.clone()

    def clone(self) -> GameState:
        copy = TokenState.__new__(TokenState)
        copy.config, copy.rng, copy.n_players = self.config, self.rng.copy(), 2
        copy.hands, copy.current_player, copy.winner = self.hands, self.current_player, self.winner
        return copy

    def describe_action(self, action: int) -> str:
        return "flip"


class TokenGame:
    """The ``token_duel`` game object."""

    info: GameInfo = INFO

    def default_parameters(self) -> dict[str, Any]:
        return {"cards": {name: {"bonus": bonus, "edge": EDGES.get(name, 0.0), "copies": 1}
                          for name, bonus in BONUSES.items()}}

    def configure(self, parameters: Mapping[str, Any]) -> TokenConfig:
        cards = parameters["cards"]
        for name, card in cards.items():
            for key in ("bonus", "edge"):
                if not -0.2 <= card[key] <= 0.2:
                    raise ParameterError(f"cards.{name}.{key}", "expected a number from -0.2 to 0.2")
            if card["copies"] not in (0, 1):
                raise ParameterError(f"cards.{name}.copies", "expected 0 or 1")
        names = tuple(cards)
        deck = tuple(index for index, name in enumerate(names) if cards[name]["copies"])
        if len(deck) < 2:
            raise ParameterError("cards", "expected at least 2 cards in the deck")
        return TokenConfig(names, tuple(float(cards[name]["bonus"]) for name in names),
                           tuple(float(cards[name]["edge"]) for name in names), deck)

    def new_state(self, config: Any, n_players: int, seed: int, trace: TraceSink | None = None) -> TokenState:
        return TokenState(config, Generator(seed))

    def heuristic_agent(self, seat: int, rng: Generator) -> Agent:
        return RandomAgent(rng)


GAME = TokenGame()


def stand_in(parameters: Mapping[str, Any], card: str) -> dict[str, Any] | None:
    """The neutral token: the same card with bonus 0 and no edge."""
    return {f"cards.{card}.bonus": 0.0, f"cards.{card}.edge": 0.0} if card in parameters["cards"] else None


def expected_impact(card: str, seat: int | None = None) -> float:
    """The exact impact of ``card`` against its stand-in in place, for its holders at ``seat``
    (None: all of them, each seat holding it alike; see the module docstring)."""
    edge = EDGES.get(card, 0.0)
    at_seat = {0: BONUSES[card] + edge, 1: BONUSES[card] - edge}
    return at_seat[seat] if seat is not None else (at_seat[0] + at_seat[1]) / 2


def expected_removal(removed: str | None) -> dict[str, float]:
    """Seat 0's win rate, the mean turns and the share of games ending by ``banner`` with the
    card ``removed`` (None: the whole deck), exact (see the module docstring)."""
    deck = [name for name in BONUSES if name != removed]
    banner = sum(2 / len(deck) for name in deck if EDGES.get(name, 0.0))
    edge = sum(EDGES.get(name, 0.0) * 2 / len(deck) for name in deck)
    return {"seat_0_win_rate": 0.5 + edge, "turns": 1 + banner, "banner_share": banner}


def register() -> None:
    """Add ``token_duel`` and its stand-in to this process's registries (a Ray worker setup hook too)."""
    from simcore.games.stand_ins import STAND_INS
    from simcore.registry import GAMES

    GAMES.setdefault(INFO.id, GAME)
    STAND_INS.setdefault(INFO.id, stand_in)


def unregister() -> None:
    """Take ``token_duel`` out of this process's registries again."""
    from simcore.games.stand_ins import STAND_INS
    from simcore.registry import GAMES

    GAMES.pop(INFO.id, None)
    STAND_INS.pop(INFO.id, None)
