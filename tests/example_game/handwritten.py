"""Orchard written by hand, without the game kit: the yardstick of the kit's cost.

The same rules as ``rules.py`` in the style of the four engines before the
kit (plain list fields listed by hand in ``clone`` and ``observation``, a
phase number, the same answers as integers), drawing from the generator in
the same order, so it plays exactly the same games
(``test_handwritten_twin.py``). ``bench/kit_overhead.py`` times the two side
by side. ``resample_hidden`` is left out: the measure is play and clone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from simcore.api import Agent, CardColumns, GameInfo, GameState, TraceSink, ranks_from_scores
from simcore.rng import Generator
from simcore.seeding import make_rng
from tests.example_game.rules import CARD_COUNTERS, END_NO_CARDS, END_ROUNDS, INFO, OrchardConfig, compile_config

# The kit's action values, written out: code << 24 | position.
PLANT_CODE: Final = 0
PICK_CODE: Final = 1 << 24
DRAW_ACTION: Final = 2 << 24
BLOCK_CODE: Final = 3 << 24
PASS_ACTION: Final = 4 << 24
DISCARD_CODE: Final = 5 << 24
POSITION_MASK: Final = (1 << 24) - 1

TURN_PHASE, BLOCK_PHASE, DISCARD_PHASE, OVER = range(4)
_OPENING, _DRAWN, _PLAYED, _BLOCKED_WITH, _PLAYABLE = range(5)


class HandwrittenOrchardState(GameState):
    """One game of Orchard, every field by hand."""

    config: OrchardConfig
    rng: Generator
    phase: int
    round: int
    blocks: int
    draw_pile: list[int]
    market: list[int]
    discard_pile: list[int]
    hands: list[list[int]]
    orchards: list[list[int]]
    values: list[int]
    planter: int
    planted: int
    choices: list[int]
    ended_by: str
    counters: list[list[list[int]]]
    first_played: list[dict[int, int]]

    def __init__(self, config: OrchardConfig, n_players: int, rng: Generator) -> None:
        self.config = config
        self.n_players = n_players
        self.current_player = 0
        self.rng = rng
        self.phase = TURN_PHASE
        self.round = 0
        self.blocks = 0
        self.draw_pile = []
        self.market = []
        self.discard_pile = []
        self.hands = [[] for _ in range(n_players)]
        self.orchards = [[] for _ in range(n_players)]
        self.values = [0] * n_players
        self.planter = -1
        self.planted = -1
        self.choices = []
        self.ended_by = ""
        self.counters = [[[0] * len(config.names) for _ in CARD_COUNTERS] for _ in range(n_players)]
        self.first_played = [{} for _ in range(n_players)]

    @staticmethod
    def new_game(config: OrchardConfig, n_players: int, seed: int) -> HandwrittenOrchardState:
        """Shuffle, deal, fill the market, ask seat 0."""
        state = HandwrittenOrchardState(config, n_players, make_rng(seed))
        state.draw_pile = list(config.deck)
        state.rng.shuffle(state.draw_pile)
        for _ in range(config.hand_size):
            for seat in range(n_players):
                card = state.draw_pile.pop()
                state.hands[seat].append(card)
                state.counters[seat][_OPENING][card] += 1
                state.counters[seat][_DRAWN][card] += 1
        state._refill_market()
        state._start_turn(0)
        return state

    def legal_actions(self) -> Sequence[int]:
        """The answers to the question asked."""
        return self.choices

    def apply(self, action: int) -> None:
        """Answer with ``action`` and play on."""
        seat = self.current_player
        if self.phase == TURN_PHASE:
            self._turn(seat, action)
        elif self.phase == BLOCK_PHASE:
            self._block(seat, action)
        else:
            self.discard_pile.append(self.hands[seat].pop(action & POSITION_MASK))
            self._end_turn(seat)

    def _start_turn(self, seat: int) -> None:
        choices = [PLANT_CODE | position for position in range(len(self.hands[seat]))]
        choices.extend(PICK_CODE | position for position in range(len(self.market)))
        if self.draw_pile or self.discard_pile:
            choices.append(DRAW_ACTION)
        if not choices:
            self._end(END_NO_CARDS)
            return
        self.phase = TURN_PHASE
        self.current_player = seat
        self.choices = choices

    def _turn(self, seat: int, action: int) -> None:
        if action >> 24 == PLANT_CODE >> 24:
            card = self.hands[seat].pop(action & POSITION_MASK)
            self.orchards[seat].append(card)
            self.counters[seat][_PLAYED][card] += 1
            self.first_played[seat].setdefault(card, self.round + 1)
            self.values[seat] += self.config.values[card]
            blocker = (seat + 1) % self.n_players
            kinds = self.config.kinds
            matching = [position for position, held in enumerate(self.hands[blocker]) if kinds[held] == kinds[card]]
            if matching:
                self.phase = BLOCK_PHASE
                self.current_player = blocker
                self.planter = seat
                self.planted = card
                self.choices = [BLOCK_CODE | position for position in matching] + [PASS_ACTION]
                return
        elif action >> 24 == PICK_CODE >> 24:
            card = self.market.pop(action & POSITION_MASK)
            self.hands[seat].append(card)
            self.counters[seat][_DRAWN][card] += 1
            self._refill_market()
        else:
            if not self.draw_pile:
                self.draw_pile = self.discard_pile
                self.discard_pile = []
                self.rng.shuffle(self.draw_pile)
            card = self.draw_pile.pop()
            self.hands[seat].append(card)
            self.counters[seat][_DRAWN][card] += 1
        self._end_turn(seat)

    def _block(self, blocker: int, action: int) -> None:
        planter = self.planter
        if action != PASS_ACTION:
            blocking = self.hands[blocker].pop(action & POSITION_MASK)
            self.discard_pile.append(blocking)
            self.counters[blocker][_PLAYED][blocking] += 1
            self.first_played[blocker].setdefault(blocking, self.round + 1)
            self.counters[blocker][_BLOCKED_WITH][blocking] += 1
            self.discard_pile.append(self.orchards[planter].pop())
            self.values[planter] -= self.config.values[self.planted]
            self.blocks += 1
        self._end_turn(planter)

    def _end_turn(self, seat: int) -> None:
        if len(self.hands[seat]) > self.config.hand_limit:
            self.phase = DISCARD_PHASE
            self.current_player = seat
            self.choices = [DISCARD_CODE | position for position in range(len(self.hands[seat]))]
            return
        following = (seat + 1) % self.n_players
        if following == 0:
            self.round += 1
            if self.round >= self.config.rounds:
                self._end(END_ROUNDS)
                return
        self._start_turn(following)

    def _refill_market(self) -> None:
        while len(self.market) < self.config.market_size and self.draw_pile:
            self.market.append(self.draw_pile.pop())

    def _end(self, reason: str) -> None:
        self.phase = OVER
        self.current_player = -1
        self.choices = []
        self.ended_by = reason

    def note_offered(self, legal_actions: Sequence[int]) -> None:
        """Count, once per card, the cards a plant or block would play."""
        seat = self.current_player
        hand = self.hands[seat]
        counted: list[int] = []
        playable = self.counters[seat][_PLAYABLE]
        for action in legal_actions:
            code = action >> 24
            if code == PLANT_CODE >> 24 or code == BLOCK_CODE >> 24:
                card = hand[action & POSITION_MASK]
                if card not in counted:
                    counted.append(card)
                    playable[card] += 1

    def complete_sets(self, seat: int) -> int:
        """Complete sets in ``seat``'s orchard."""
        counts = [0, 0, 0]
        for card in self.orchards[seat]:
            counts[self.config.kinds[card]] += 1
        return min(counts)

    def scores(self) -> list[int]:
        """Orchard values plus the set bonus."""
        return [self.values[seat] + self.config.set_bonus * self.complete_sets(seat) for seat in range(self.n_players)]

    def standings(self) -> list[int]:
        """What each orchard would score now."""
        return self.scores()

    def winners(self) -> list[int]:
        """The best scores."""
        if self.phase != OVER:
            return []
        scores = self.scores()
        return [seat for seat in range(self.n_players) if scores[seat] == max(scores)]

    def returns(self) -> list[float]:
        """1 shared among the winners."""
        winners = self.winners()
        return [1.0 / len(winners) if seat in winners else 0.0 for seat in range(self.n_players)]

    def ranks(self) -> list[int]:
        """Competition ranks."""
        return ranks_from_scores(self.scores())

    def factions(self) -> list[str | None]:
        """No factions."""
        return [None] * self.n_players

    def is_terminal(self) -> bool:
        """True once over."""
        return self.phase == OVER

    def end_reason(self) -> str:
        """Why it ended."""
        return self.ended_by

    def turns(self) -> int:
        """Rounds completed."""
        return self.round

    def game_columns(self) -> dict[str, Any]:
        """Blocked plants."""
        return {"blocks": self.blocks}

    def add_card_rows(self, columns: CardColumns) -> None:
        """One row per card drawn, played or playable."""
        columns.names = self.config.names
        for seat in range(self.n_players):
            counters = self.counters[seat]
            for card in range(len(self.config.names)):
                if counters[_DRAWN][card] or counters[_PLAYED][card] or counters[_PLAYABLE][card]:
                    columns.seat.append(seat)
                    columns.card.append(card)
                    columns.copies.append(self.config.copies[card])
                    for index in range(len(CARD_COUNTERS)):
                        columns.counters[index].append(counters[index][card])
                    columns.first_played_turn.append(self.first_played[seat].get(card, -1))

    def observation(self, seat: int) -> tuple[Any, ...]:
        """What ``seat`` sees, every field by hand."""
        return (
            self.phase, self.current_player, self.round, self.blocks, len(self.draw_pile), tuple(self.market),
            tuple(self.discard_pile), tuple(self.hands[seat]), tuple(len(hand) for hand in self.hands),
            tuple(map(tuple, self.orchards)), tuple(self.values), self.planter, self.planted,
            tuple(self.choices) if self.current_player == seat else (), self.ended_by,
        )

    def clone(self) -> HandwrittenOrchardState:
        """An exact copy, every field by hand."""
        copy = HandwrittenOrchardState(self.config, self.n_players, self.rng.copy())
        copy.current_player = self.current_player
        copy.phase = self.phase
        copy.round = self.round
        copy.blocks = self.blocks
        copy.draw_pile = list(self.draw_pile)
        copy.market = list(self.market)
        copy.discard_pile = list(self.discard_pile)
        copy.hands = [list(hand) for hand in self.hands]
        copy.orchards = [list(orchard) for orchard in self.orchards]
        copy.values = list(self.values)
        copy.planter = self.planter
        copy.planted = self.planted
        copy.choices = list(self.choices)
        copy.ended_by = self.ended_by
        copy.counters = [[list(counter) for counter in seat] for seat in self.counters]
        copy.first_played = [dict(seat) for seat in self.first_played]
        return copy

    def describe_action(self, action: int) -> str:
        """The answer as a number (the twin is for timing, not for reading)."""
        return str(action)


class HandwrittenOrchardGame:
    """The twin as a ``simcore.api.Game`` (random agents only: no heuristic)."""

    info: GameInfo = INFO

    def default_parameters(self) -> dict[str, Any]:
        """The example game's parameters."""
        from tests.example_game import GAME

        return GAME.default_parameters()

    def configure(self, parameters: Mapping[str, Any]) -> OrchardConfig:
        """Compiled as the example game compiles them."""
        return compile_config(parameters)

    def new_state(self, config: Any, n_players: int, seed: int, trace: TraceSink | None = None) -> GameState:
        """A new game (tracing is not written for the twin)."""
        return HandwrittenOrchardState.new_game(config, n_players, seed)

    def heuristic_agent(self, seat: int, rng: Generator) -> Agent:
        """Not written for the twin."""
        raise NotImplementedError("the hand-written twin has no heuristic")


HANDWRITTEN_GAME = HandwrittenOrchardGame()
