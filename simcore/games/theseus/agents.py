"""The Theseus heuristic: build an engine early, subjugate high-VP cards late, take Bonuses.

Strategy (documented in RULES.md):

- **Two modes.** Before Rank ``LATE_RANK`` (4) the agent builds its engine; from
  Rank 4 on it converts cards into VP.
- **Card worths.** A card's *engine* worth is what using it does: 1 for the
  icon plus, per unit of its effect, 1 (explore, recruit, subjugate, draw,
  pillage), 0.5 (hex) or 0.3 (hand limit). Its *recruit* value is its engine
  worth (a quarter of it in late mode) plus the end-of-game VP it would score
  from the Party; its *subjugate* value is its printed VP plus the end VP it
  would score from the Reward. Its *keep* value is the larger of the two.
- **Which card to use.** Each usable Party card is valued as the sum of its
  steps (the icon, then effect steps at 0.8): explore = best Board card's
  keep value (+ the Bonus VP on it; minus the worst Hand card when the Hand is
  full), recruit = best recruit value in Hand (minus the worst Party card
  when the Party is full), subjugate = best subjugate value in Hand (at 0.6
  in engine mode), draw 0.5, hex 0.3 per other player with a Hand, pillage =
  best card in another Reward (draw is worth 0 once the deck is empty).
  Each ability without a card is valued as its step minus 0.5 (it ends the
  card uses). The most valuable option is taken; when none is worth more
  than 0.05 the turn ends.
- **Targets.** Explore the Board card with the highest keep value plus
  Bonus; recruit the highest recruit value; subjugate the highest subjugate
  value (in engine mode minus half its recruit value, keeping engine cards);
  pillage the best subjugate value; exile the lowest recruit value from the
  Party, the lowest keep value from the Hand.

The agent reads only its own Hand, the Parties, Rewards and the Board, so it
is seat-honest.
"""

from __future__ import annotations

from collections.abc import Sequence

from simcore.api import Agent, GameState
from simcore.games.theseus.rules import (
    ALT_EXPLORE,
    END_TURN,
    EXILE,
    EXPLORE,
    MAIN,
    PARTY_AREA,
    PILLAGE,
    PILLAGE_STRIDE,
    RECRUIT,
    REWARD_AREA,
    STEP_DRAW,
    STEP_EXPLORE,
    STEP_HAND_LIMIT,
    STEP_HEX,
    STEP_PILLAGE,
    STEP_RECRUIT,
    STEP_SUBJUGATE,
    SUBJUGATE,
    TheseusConfig,
    TheseusState,
)
from simcore.rng import Generator

LATE_RANK = 4
STEP_WORTH = (1.0, 1.0, 1.0, 1.0, 0.3, 0.5, 1.0)  # per STEP_* code: engine worth of one unit
LATE_ENGINE_WEIGHT = 0.25
EFFECT_WEIGHT = 0.8
EARLY_SUBJUGATE_WEIGHT = 0.6
DRAW_VALUE = 0.5
HEX_VALUE = 0.3
ALTERNATIVE_PENALTY = 0.5
WORTHWHILE = 0.05


class TheseusHeuristicAgent(Agent):
    """The documented strategy above; deterministic, ignores its generator."""

    def __init__(self, seat: int, rng: Generator) -> None:
        self.name = "heuristic"
        self.seat = seat
        # Engine worth per card type, computed once per configuration.
        self.engine_config: TheseusConfig | None = None
        self.engine: list[float] = []

    def choose(self, state: GameState, legal_actions: Sequence[int]) -> int:
        """Pick the action the strategy prescribes for the current phase."""
        assert isinstance(state, TheseusState)
        if state.config is not self.engine_config:
            self.engine_config = state.config
            self.engine = engine_worths(state.config)
        values = CardValues(state, self.seat, self.engine)
        phase = state.phase
        if phase == MAIN:
            return values.main_choice(legal_actions)
        if phase == EXPLORE:
            return max(legal_actions, key=lambda p: values.explore_value(state.board[p]))
        if phase == RECRUIT:
            return max(legal_actions, key=lambda p: values.recruit_value(state.hands[self.seat][p]))
        if phase == SUBJUGATE:
            return max(legal_actions, key=lambda p: values.subjugate_target(state.hands[self.seat][p]))
        if phase == EXILE:
            if state.exile_areas[-1] == PARTY_AREA:
                return min(legal_actions, key=lambda p: values.recruit_value(state.parties[self.seat][p]))
            return min(legal_actions, key=lambda p: values.keep_value(state.hands[self.seat][p]))
        if phase == PILLAGE:
            return max(legal_actions, key=lambda a: values.subjugate_value(
                state.rewards[a // PILLAGE_STRIDE][a % PILLAGE_STRIDE]))
        return legal_actions[0]


def engine_worths(config: TheseusConfig) -> list[float]:
    """Engine worth of every card type: its icon plus the units of its effect."""
    return [
        STEP_WORTH[config.icons[card]] + sum(STEP_WORTH[step] for step in config.effect_steps[card])
        for card in range(len(config.names))
    ]


class CardValues:
    """The worths of the strategy for one seat in one position."""

    def __init__(self, state: TheseusState, seat: int, engine: list[float]) -> None:
        self.state = state
        self.seat = seat
        self.late = state.rank >= LATE_RANK
        self.engine = engine

    def engine_worth(self, instance: int) -> float:
        """What using the card does (see the module docstring)."""
        return self.engine[self.state.card_of[instance]]

    def recruit_value(self, instance: int) -> float:
        """Engine worth (less in late mode) plus end VP scored from the Party."""
        state = self.state
        card = state.card_of[instance]
        worth = self.engine[card] * (LATE_ENGINE_WEIGHT if self.late else 1.0)
        if state.config.end_counts_from[card][PARTY_AREA]:
            worth += state.end_effect_vp(self.seat, card)
        return worth

    def subjugate_value(self, instance: int) -> float:
        """Printed VP plus end VP scored from the Reward."""
        state = self.state
        card = state.card_of[instance]
        worth = float(state.config.vps[card])
        if state.config.end_counts_from[card][REWARD_AREA]:
            worth += state.end_effect_vp(self.seat, card)
        return worth

    def keep_value(self, instance: int) -> float:
        """The better of recruiting and subjugating the card."""
        return max(self.recruit_value(instance), self.subjugate_value(instance))

    def explore_value(self, instance: int) -> float:
        """Keep value plus the Bonus on the card."""
        bonus = self.state.config.bonus_vp if self.state.has_bonus[instance] else 0
        return self.keep_value(instance) + bonus

    def subjugate_target(self, instance: int) -> float:
        """Subjugate value, keeping engine cards while in engine mode."""
        value = self.subjugate_value(instance)
        return value if self.late else value - 0.5 * self.recruit_value(instance)

    # ------------------------------------------------------------ the turn

    def step_value(self, step: int) -> float:
        """What one unit step is worth now (independently of the others)."""
        state, seat = self.state, self.seat
        hand = state.hands[seat]
        if step == STEP_EXPLORE:
            if not state.board:
                return 0.0
            best = max(self.explore_value(instance) for instance in state.board)
            if len(hand) >= state.config.hand_limit + state.hand_limit_bonus and hand:
                best -= min(self.keep_value(instance) for instance in hand)
            return max(best, 0.0)
        if step == STEP_RECRUIT:
            if not hand:
                return 0.0
            best = max(self.recruit_value(instance) for instance in hand)
            party = state.parties[seat]
            if len(party) >= state.config.party_limit:
                best -= min(self.recruit_value(instance) for instance in party)
            return max(best, 0.0)
        if step == STEP_SUBJUGATE:
            if not hand:
                return 0.0
            best = max(self.subjugate_value(instance) for instance in hand)
            return best if self.late else best * EARLY_SUBJUGATE_WEIGHT
        if step == STEP_DRAW:
            return DRAW_VALUE if state.decks[state.rank] else 0.0
        if step == STEP_HEX:
            return HEX_VALUE * sum(1 for other in range(state.n_players) if other != seat and state.hands[other])
        if step == STEP_PILLAGE:
            loot = [self.subjugate_value(instance) for other in range(state.n_players) if other != seat
                    for instance in state.rewards[other]]
            return max(loot, default=0.0)
        return 0.1 if step == STEP_HAND_LIMIT else 0.0

    def card_use_value(self, instance: int) -> float:
        """The icon's step value plus the effect's steps at ``EFFECT_WEIGHT``."""
        config = self.state.config
        card = self.state.card_of[instance]
        value = self.step_value(config.icons[card])
        for step in config.effect_steps[card]:
            value += EFFECT_WEIGHT * self.step_value(step)
        return value

    def main_choice(self, legal_actions: Sequence[int]) -> int:
        """The most valuable option: a Party card, or an ability without a card
        (worth ``ALTERNATIVE_PENALTY`` less, since it ends the card uses); the
        turn ends when nothing is worth ``WORTHWHILE``."""
        party = self.state.parties[self.seat]
        best_action, best_value = END_TURN, WORTHWHILE
        for action in legal_actions:
            if action < ALT_EXPLORE:
                value = self.card_use_value(party[action])
            elif action < END_TURN:
                value = self.step_value(action - ALT_EXPLORE) - ALTERNATIVE_PENALTY
            else:
                continue
            if value > best_value:
                best_action, best_value = action, value
        return best_action
