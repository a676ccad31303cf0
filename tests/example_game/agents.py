"""Orchard's heuristic: the answer worth most, by a few plain rules of thumb.

Worth, in half points: planting a card is worth twice its value, plus twice
the set bonus when it completes a set; picking a market card is worth its
value (it still has to be planted); drawing blind is worth 2 (a card of about
average value, unseen); blocking is worth twice the planted card's value
minus the blocking card's value, passing 3 (so only cards worth 2 or more are
blocked); a discard costs the discarded card's value. Ties go to the first
answer in ``legal_actions``. The answers are read through the action types
(``simcore.kit.decisions``), never by arithmetic on the integers.
"""

from __future__ import annotations

from collections.abc import Sequence

from simcore.api import Agent, GameState
from simcore.rng import Generator
from tests.example_game.rules import BLOCK, DISCARD, KIND_NAMES, MARKET, PASS, PICK, PLANT, OrchardState


class OrchardHeuristicAgent(Agent):
    """The strategy of the module docstring, for one seat."""

    def __init__(self, seat: int, rng: Generator) -> None:
        self.name = "heuristic"
        self.seat = seat
        self.rng = rng

    def worth(self, state: OrchardState, action: int) -> int:
        """The half points ``action`` is worth to the seat to act."""
        config = state.config
        seat = state.current_player
        hand = state.hand(seat).cards
        if PLANT.matches(action):
            card = hand[PLANT.value(action)]
            kinds_planted = {config.kinds[planted] for planted in state.orchard(seat).cards}
            completes = len(kinds_planted | {config.kinds[card]}) == len(KIND_NAMES) > len(kinds_planted)
            return 2 * config.values[card] + (2 * config.set_bonus if completes else 0)
        if PICK.matches(action):
            return config.values[state.zones[MARKET].cards[PICK.value(action)]]
        if BLOCK.matches(action):
            task = state.decisions.asked
            return 2 * config.values[task.b] - config.values[hand[BLOCK.value(action)]]
        if PASS.matches(action):
            return 3
        if DISCARD.matches(action):
            return -config.values[hand[DISCARD.value(action)]]
        return 2  # draw

    def choose(self, state: GameState, legal_actions: Sequence[int]) -> int:
        """The first answer of the highest worth."""
        assert isinstance(state, OrchardState)
        best, best_worth = legal_actions[0], self.worth(state, legal_actions[0])
        for action in legal_actions[1:]:
            worth = self.worth(state, action)
            if worth > best_worth:
                best, best_worth = action, worth
        return best
