"""The Theseus heuristic: build an engine early, subjugate high-VP cards late, take Bonuses.

Strategy (documented, with the rule for each card, in RULES.md "Heuristic"):

- **Two modes.** Before Rank ``LATE_RANK`` (4) the agent builds its engine; from
  Rank 4 on it converts cards into VP.
- **Card worths.** A card's *engine* worth is what using it does: 1 for the
  icon plus, per unit of its effect, 1 (explore, recruit, subjugate, draw,
  pillage), 0.5 (hex) or 0.3 (hand limit). A Party card that is its Party's
  only card of its icon is worth ``COVERAGE_WORTH`` (1) more, and so is a Hand
  card whose icon the Party lacks: without an icon in the Party that ability
  is left only "without a card", which ends the turn's card uses. Its
  *recruit* value is its engine worth (a quarter of it in late mode), plus
  that icon cover, plus the end-of-game VP the Party gains with it (its own
  Party effect, and what it adds to cards that count the Party's icons); a
  Party card's value is the same with the VP the Party would lose without
  it. Its *subjugate* value is its printed VP plus the end VP it would score
  from the Reward. Its *keep* value is the larger of recruit and subjugate.
- **Which card to use.** Each usable Party card is valued as the sum of its
  steps (the icon, then effect steps at 0.8): explore = best Board card's
  explore value (keep value + the Bonus VP on it; minus the worst Hand card
  when the Hand is full), recruit = best recruit value in Hand (minus the
  worst Party card when the Party is full), subjugate = best subjugate value
  in Hand (at 0.6 in engine mode), draw 0.5, hex 0.3 per other player with a
  Hand, pillage = the best card in another Reward (its worth to this seat
  plus what its owner loses). Draw is worth 0 once the deck is empty. Each
  ability without a card is valued as its step minus 0.5 (it ends the card
  uses). The most valuable option is taken; when none is worth more than
  0.05 the turn ends.
- **The end of the game.** Exploring the last Rank 6 card ends the game at
  the end of the turn: worth ``ENDING_LEAD_WORTH`` more when no other seat is
  ahead on (visible score, Party Rank total), its own Party counted after the
  exile its limit still demands, and ``ENDING_BEHIND_PENALTY`` less when one
  is, so it never ends a game it is losing while another Board card is there
  (and two seats level on both keys do not wait for each other until the
  turn cap). In the final turn only VP count: engine worth and icon cover
  are 0, so its last exiles keep the most VP.
- **Targets.** Explore the best explore value; recruit the best recruit
  value; subjugate the best subjugate value (in engine mode minus half its
  recruit value, keeping engine cards); pillage the best pillage value;
  exile from the Party the lowest Party value (an icon's last card counts
  its cover), from the Hand the lowest keep value.

The agent reads only its own Hand, the Parties, Rewards, Bonuses and the
Board, so it is seat-honest.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from mypy_extensions import mypyc_attr

from simcore.api import Agent, GameState
from simcore.games.theseus.rules import (
    BOARD_POSITION,
    BONUSES,
    END_ALL_ICONS,
    END_PER_ICON,
    END_TURN,
    ENDING,
    EXILE,
    HAND_AREA,
    HAND_LIMIT_BONUS,
    HAND_POSITION,
    LAST_RANK,
    MAIN,
    PARTY_AREA,
    PARTY_POSITION,
    PILLAGE,
    RANK,
    REWARD_AREA,
    STEP_DRAW,
    STEP_EXPLORE,
    STEP_HAND_LIMIT,
    STEP_HEX,
    STEP_PILLAGE,
    STEP_RECRUIT,
    STEP_SUBJUGATE,
    WITHOUT_A_CARD,
    TheseusConfig,
    TheseusState,
)
from simcore.kit.decisions import answer_list
from simcore.rng import Generator

LATE_RANK: Final = 4
STEP_WORTH: Final = (1.0, 1.0, 1.0, 1.0, 0.3, 0.5, 1.0)  # per STEP_* code: engine worth of one unit
LATE_ENGINE_WEIGHT: Final = 0.25
COVERAGE_WORTH: Final = 1.0
EFFECT_WEIGHT: Final = 0.8
EARLY_SUBJUGATE_WEIGHT: Final = 0.6
DRAW_VALUE: Final = 0.5
HEX_VALUE: Final = 0.3
HAND_LIMIT_VALUE: Final = 0.1
ALTERNATIVE_PENALTY: Final = 0.5
WORTHWHILE: Final = 0.05
ENDING_LEAD_WORTH: Final = 2.0
ENDING_BEHIND_PENALTY: Final = 20.0
TIE: Final = 1e-9  # values closer than this are equal
EXILE_FROM_PARTY: Final = -1
EXILE_FROM_HAND: Final = -2
"""``CardValues.target_value``'s codes for an exile (the step codes name the other targets)."""


class TheseusHeuristicAgent(Agent):
    """The documented strategy above; deterministic, ignores its generator."""

    def __init__(self, seat: int, rng: Generator) -> None:
        self.name = "heuristic"
        self.seat = seat

    def choose(self, state: GameState, offered: Sequence[int]) -> int:
        """Pick the action the strategy prescribes for the current phase."""
        assert isinstance(state, TheseusState)
        legal_actions = answer_list(offered)  # a typed list: iterated natively by the picks
        worths = _CONFIG_WORTHS.of(state.config)
        values = CardValues(state, self.seat, worths.engine, worths.party_dependent)
        kind = state.asked_kind()
        if kind == MAIN:
            return values.main_choice(legal_actions)
        if kind == EXILE:
            target = EXILE_FROM_PARTY if state.decisions.asked.a == PARTY_AREA else EXILE_FROM_HAND
            return values.first_best(target, legal_actions, False)
        if kind in (STEP_EXPLORE, STEP_RECRUIT, STEP_SUBJUGATE, STEP_PILLAGE):
            return values.first_best(kind, legal_actions, True)
        return legal_actions[0]


class ConfigWorths:
    """Engine worth and party dependence per card type of the last
    configuration asked for: worked out once per configuration, not once per
    agent (an agent lives for one game)."""

    config: TheseusConfig | None
    engine: list[float]
    party_dependent: list[bool]

    def __init__(self) -> None:
        self.config = None
        self.engine = []
        self.party_dependent = []

    def of(self, config: TheseusConfig) -> ConfigWorths:
        """These worths, for ``config`` (worked out again when it is another one)."""
        if config is not self.config:
            self.engine = engine_worths(config)
            self.party_dependent = party_dependent_cards(config)
            self.config = config
        return self


def engine_worths(config: TheseusConfig) -> list[float]:
    """Engine worth of every card type: its icon plus the units of its effect."""
    return [
        STEP_WORTH[config.icons[card]] + sum(STEP_WORTH[step] for step in config.effect_steps[card])
        for card in range(len(config.names))
    ]


def party_dependent_cards(config: TheseusConfig) -> list[bool]:
    """Per card type: does one of its end effects count the Party's icons?"""
    return [any(kind in (END_PER_ICON, END_ALL_ICONS) for kind, _, _ in effects) for effects in config.end_effects]


_CONFIG_WORTHS: Final = ConfigWorths()
"""The worths of the configuration last played (a pure function of it: the
same in every process, whatever order games come in)."""


def icon_vp_gain(config: TheseusConfig, card: int, icon_counts: list[int], icon: int, with_extra: int) -> int:
    """What ``card``'s end effects that count the Party's icons (``vp_per_icon``,
    ``vp_if_all_icons``; as ``TheseusState.end_effect_vp`` counts them) score
    more for a Party with ``icon_counts`` cards of each icon and ``with_extra``
    more of ``icon`` than for the same Party with one ``icon`` card fewer: what
    one card of that icon adds. Worked out as a difference, not as two
    counts: this runs for every card valued at every choice."""
    gain = 0
    for kind, argument, amount in config.end_effects[card]:
        if kind == END_PER_ICON:
            if argument == icon:
                gain += amount
        elif kind == END_ALL_ICONS:
            # Only the card that brings ``icon`` from none to one completes the set.
            completes = icon_counts[icon] + with_extra == 1
            for shown, count in enumerate(icon_counts):
                if shown != icon and count <= 0:
                    completes = False
            if completes:
                gain += amount
    return gain


def own_score_with_party(state: TheseusState, seat: int, party: list[int]) -> int:
    """``seat``'s VP (printed, Bonuses, every end effect that counts where its
    card lies) if ``party`` (instances) were its Party; Hand cards that are in
    ``party`` count there."""
    config, card_of = state.config, state.card_of
    total = state.seat_number(seat, BONUSES) * config.bonus_vp
    for instance in state.reward(seat):
        card = card_of[instance]
        total += config.vps[card]
        if config.end_effects[card] and config.end_counts_from[card][REWARD_AREA]:
            total += state.end_effect_vp_with_party(seat, card, party)
    for instance in party:
        card = card_of[instance]
        if config.end_effects[card] and config.end_counts_from[card][PARTY_AREA]:
            total += state.end_effect_vp_with_party(seat, card, party)
    for instance in state.hand(seat):
        card = card_of[instance]
        if config.end_effects[card] and config.end_counts_from[card][HAND_AREA] and instance not in party:
            total += state.end_effect_vp_with_party(seat, card, party)
    return total


def visible_score(state: TheseusState, seat: int, viewer: int) -> int:
    """``seat``'s VP as ``viewer`` can count it: printed VP of the Reward,
    Bonuses, and the end effects of the face-up Party and Reward (and of the
    Hand, only when ``seat`` is the viewer: other Hands are hidden)."""
    config, card_of = state.config, state.card_of
    total = state.seat_number(seat, BONUSES) * config.bonus_vp
    for instance in state.reward(seat):
        card = card_of[instance]
        total += config.vps[card]
        if config.end_effects[card] and config.end_counts_from[card][REWARD_AREA]:
            total += state.end_effect_vp(seat, card)
    for instance in state.party(seat):
        card = card_of[instance]
        if config.end_effects[card] and config.end_counts_from[card][PARTY_AREA]:
            total += state.end_effect_vp(seat, card)
    if seat == viewer:
        for instance in state.hand(seat):
            card = card_of[instance]
            if config.end_effects[card] and config.end_counts_from[card][HAND_AREA]:
                total += state.end_effect_vp(seat, card)
    return total


# One per choice, freed when the choice is made: kept for the next (free
# list), and never in a reference cycle (it only points to the state).
@mypyc_attr(acyclic=True, free_list_len=1)
class CardValues:
    """The worths of the strategy for one seat in one position."""

    def __init__(self, state: TheseusState, seat: int, engine: list[float], party_dependent: list[bool]) -> None:
        self.state = state
        self.seat = seat
        self.late = state.numbers[RANK] >= LATE_RANK
        # The game ends after this turn: only VP count now (no engine, no cover).
        self.final_turn = state.numbers[ENDING] != 0
        self.engine = engine
        self.party_dependent = party_dependent
        icons = state.config.icons
        card_of = state.card_of
        self.party_icons = [0, 0, 0]
        for instance in state.party(seat):
            self.party_icons[icons[card_of[instance]]] += 1
        # The seat's instances whose end effect counts the Party's icons and
        # counts where they lie: only their VP moves when the Party changes.
        counts_from = state.config.end_counts_from
        self.icon_counters = [instance for area in (PARTY_AREA, HAND_AREA, REWARD_AREA)
                              for instance in state.seat_zone(seat, area).cards
                              if party_dependent[card_of[instance]] and counts_from[card_of[instance]][area]]
        # -1 until needed: whether this seat leads on the visible score.
        self.leading = -1
        # The position does not change during one choice: each step's value
        # and each card's recruit value are computed once (-1.0: not yet).
        self.step_values = [-1.0] * len(STEP_WORTH)
        self.recruit_values: list[float] = []  # per instance, made when first asked

    def party_vp(self, instance: int, joining: bool) -> float:
        """The end VP the Party gains when ``instance`` joins it (``joining``)
        or loses when it leaves: its own Party effect, and what it adds to the
        effects of other cards that count the Party's icons."""
        state, seat = self.state, self.seat
        config = state.config
        card = state.card_of[instance]
        if not self.icon_counters and not self.party_dependent[card]:
            return float(state.end_effect_vp(seat, card)) if config.end_counts_from[card][PARTY_AREA] else 0.0
        icon = config.icons[card]
        counts = self.party_icons
        # The Party with the card has one more of its icon than now when it
        # joins, and is now's Party when it leaves.
        with_card = 1 if joining else 0
        gain = 0
        if config.end_counts_from[card][PARTY_AREA]:
            # Its own effect as it stands now, moved to the Party it would be in
            # (leaving, the Party it counts stays now's: no change).
            gain += state.end_effect_vp(seat, card)
            if joining and self.party_dependent[card]:
                gain += icon_vp_gain(config, card, counts, icon, with_card)
        for other in self.icon_counters:
            if other != instance:
                gain += icon_vp_gain(config, state.card_of[other], counts, icon, with_card)
        return float(gain)

    def engine_value(self, instance: int) -> float:
        """Engine worth, less in late mode, nothing in the final turn."""
        if self.final_turn:
            return 0.0
        return self.engine[self.state.card_of[instance]] * (LATE_ENGINE_WEIGHT if self.late else 1.0)

    def cover(self, instance: int, icon_count: int) -> float:
        """``COVERAGE_WORTH`` when the Party has ``icon_count`` cards of the card's
        icon and ``icon_count`` is the count that makes it the icon's only card."""
        if self.final_turn:
            return 0.0
        icon = self.state.config.icons[self.state.card_of[instance]]
        return COVERAGE_WORTH if self.party_icons[icon] == icon_count else 0.0

    def recruit_value(self, instance: int) -> float:
        """A Hand card's worth in the Party: engine worth, the icon cover it
        would give a Party that lacks its icon, and the VP it adds there."""
        if not self.recruit_values:
            self.recruit_values = [-1.0] * len(self.state.card_of)
        value = self.recruit_values[instance]
        if value < 0.0:
            value = self.engine_value(instance) + self.cover(instance, 0) + self.party_vp(instance, True)
            self.recruit_values[instance] = value
        return value

    def party_value(self, instance: int) -> float:
        """A Party card's worth for keeping it there: engine worth, the icon
        cover it gives when it is the Party's only card of its icon, and the
        VP the Party would lose without it."""
        return self.engine_value(instance) + self.cover(instance, 1) + self.party_vp(instance, False)

    def subjugate_value(self, instance: int) -> float:
        """Printed VP plus end VP scored from the Reward."""
        return self.reward_worth(self.seat, instance)

    def reward_worth(self, seat: int, instance: int) -> float:
        """What ``instance`` in ``seat``'s Reward scores for ``seat``."""
        state = self.state
        card = state.card_of[instance]
        worth = float(state.config.vps[card])
        if state.config.end_counts_from[card][REWARD_AREA]:
            worth += state.end_effect_vp(seat, card)
        return worth

    def keep_value(self, instance: int) -> float:
        """The better of recruiting and subjugating the card."""
        return max(self.recruit_value(instance), self.subjugate_value(instance))

    def explore_value(self, position: int) -> float:
        """Keep value of the Board card at ``position`` plus its Bonus, and what
        ending the game is worth if it is the last Rank 6 card."""
        state = self.state
        instance = state.board()[position]
        value = self.keep_value(instance) + (state.config.bonus_vp if state.has_bonus(position) else 0)
        if self.ends_game(instance):
            value += ENDING_LEAD_WORTH if self.is_leading() else -ENDING_BEHIND_PENALTY
        return value

    def ends_game(self, instance: int) -> bool:
        """Taking ``instance`` from the Board ends the game this turn: it is the
        last Rank 6 card, with Rank 6 active and its deck empty."""
        state = self.state
        if state.numbers[ENDING] or state.numbers[RANK] < LAST_RANK or state.zones[LAST_RANK].cards:
            return False
        rank_of = state.rank_of
        if rank_of[instance] != LAST_RANK:
            return False
        last_rank_cards = 0
        for other in state.board():
            if rank_of[other] == LAST_RANK:
                last_rank_cards += 1
        return last_rank_cards == 1

    def is_leading(self) -> bool:
        """No other seat is ahead on (visible score, Party Rank total), the
        first two keys of the final ranking, counting this seat's Party after
        the exiles its limit still demands: ending the game now cannot lose on
        them (an equal seat still ties or loses on the Hand Ranks, unseen)."""
        if self.leading < 0:
            state, seat = self.state, self.seat
            party = self.party_after_limit()
            mine = (own_score_with_party(state, seat, party), state.rank_total(party))
            best_other = max((visible_score(state, other, seat), state.rank_total(state.party(other)))
                             for other in range(state.n_players) if other != seat)
            self.leading = 1 if mine >= best_other else 0
        return self.leading == 1

    def party_after_limit(self) -> list[int]:
        """The seat's Party once brought down to the limit, dropping each time
        the card whose loss costs the fewest VP (the Party itself when within it)."""
        state, seat = self.state, self.seat
        party = list(state.party(seat))
        while len(party) > state.config.party_limit:
            party.remove(max(party, key=lambda instance: own_score_with_party(
                state, seat, [other for other in party if other != instance])))
        return party

    def subjugate_target(self, instance: int) -> float:
        """Subjugate value, keeping engine cards while in engine mode."""
        value = self.subjugate_value(instance)
        return value if self.late else value - 0.5 * self.recruit_value(instance)

    def pillage_value(self, victim: int, instance: int) -> float:
        """The card's worth in this seat's Reward plus what the victim loses."""
        return self.subjugate_value(instance) + self.reward_worth(victim, instance)

    def pillage_action_value(self, action: int) -> float:
        """``pillage_value`` of a ``PILLAGE`` action (victim, position in its Reward)."""
        victim, position = PILLAGE.field(action, 0), PILLAGE.field(action, 1)
        return self.pillage_value(victim, self.state.reward(victim)[position])

    def target_value(self, target: int, action: int) -> float:
        """The value of answer ``action`` to a target question: ``target`` is
        the step asked (explore, recruit, subjugate, pillage) or
        ``EXILE_FROM_PARTY`` / ``EXILE_FROM_HAND``."""
        state, seat = self.state, self.seat
        if target == STEP_EXPLORE:
            return self.explore_value(BOARD_POSITION.value(action))
        if target == STEP_RECRUIT:
            return self.recruit_value(state.hand(seat)[HAND_POSITION.value(action)])
        if target == STEP_SUBJUGATE:
            return self.subjugate_target(state.hand(seat)[HAND_POSITION.value(action)])
        if target == STEP_PILLAGE:
            return self.pillage_action_value(action)
        if target == EXILE_FROM_PARTY:
            return self.party_value(state.party(seat)[PARTY_POSITION.value(action)])
        return self.keep_value(state.hand(seat)[HAND_POSITION.value(action)])

    def first_best(self, target: int, legal_actions: list[int], highest: bool) -> int:
        """The first answer of highest (or lowest) ``target_value``, as
        ``max``/``min`` with a key would pick it (a loop: no key function
        called through Python's calling convention)."""
        best_action, best_value = -1, 0.0
        for action in legal_actions:
            value = self.target_value(target, action)
            if best_action < 0 or (value > best_value if highest else value < best_value):
                best_action, best_value = action, value
        if best_action < 0:
            raise ValueError("no legal answer to choose from")
        return best_action

    # ------------------------------------------------------------ the turn

    def step_value(self, step: int) -> float:
        """What one unit step is worth now (independently of the others)."""
        value = self.step_values[step]
        if value < 0.0:
            value = self.compute_step_value(step)
            self.step_values[step] = value
        return value

    def compute_step_value(self, step: int) -> float:
        """``step_value`` before caching."""
        state, seat = self.state, self.seat
        hand = state.hand(seat)
        if step == STEP_EXPLORE:
            board = state.board()
            if not board:
                return 0.0
            # Plain loops for the max and min: a generator is an object per call, compiled.
            best = self.explore_value(0)
            for position in range(1, len(board)):
                best = max(best, self.explore_value(position))
            if len(hand) >= state.config.hand_limit + state.numbers[HAND_LIMIT_BONUS] and hand:
                worst = self.keep_value(hand[0])
                for index in range(1, len(hand)):
                    worst = min(worst, self.keep_value(hand[index]))
                best -= worst
            return max(best, 0.0)
        if step == STEP_RECRUIT:
            if not hand:
                return 0.0
            best = self.recruit_value(hand[0])
            for index in range(1, len(hand)):
                best = max(best, self.recruit_value(hand[index]))
            party = state.party(seat)
            if len(party) >= state.config.party_limit:
                worst = self.party_value(party[0])
                for index in range(1, len(party)):
                    worst = min(worst, self.party_value(party[index]))
                best -= worst
            return max(best, 0.0)
        if step == STEP_SUBJUGATE:
            if not hand:
                return 0.0
            best = self.subjugate_value(hand[0])
            for index in range(1, len(hand)):
                best = max(best, self.subjugate_value(hand[index]))
            return best if self.late else best * EARLY_SUBJUGATE_WEIGHT
        if step == STEP_DRAW:
            return DRAW_VALUE if state.zones[state.numbers[RANK]].cards else 0.0
        if step == STEP_HEX:
            hands = 0
            for other in range(state.n_players):
                if other != seat and state.hand(other):
                    hands += 1
            return HEX_VALUE * hands
        if step == STEP_PILLAGE:
            loot, any_loot = 0.0, False
            for other in range(state.n_players):
                if other != seat:
                    for instance in state.reward(other):
                        value = self.pillage_value(other, instance)
                        if not any_loot or value > loot:
                            loot, any_loot = value, True
            return loot
        return HAND_LIMIT_VALUE if step == STEP_HAND_LIMIT else 0.0

    def card_use_value(self, instance: int) -> float:
        """The icon's step value plus the effect's steps at ``EFFECT_WEIGHT``."""
        config = self.state.config
        card = self.state.card_of[instance]
        value = self.step_value(config.icons[card])
        for step in config.effect_steps[card]:
            value += EFFECT_WEIGHT * self.step_value(step)
        return value

    def main_choice(self, legal_actions: list[int]) -> int:
        """The most valuable option: a Party card, or an ability without a card
        (worth ``ALTERNATIVE_PENALTY`` less, since it ends the card uses); the
        turn ends when nothing is worth ``WORTHWHILE``. Between Party cards of
        equal value (the same steps, e.g. the Knight and another plain
        subjugate card) the higher Rank is used: the position is the same
        either way, and the card's own play rate then says how often it was
        worth using."""
        state = self.state
        party, rank_of = state.party(self.seat), state.rank_of
        best_action, best_value, best_rank = END_TURN, WORTHWHILE, -1
        for action in legal_actions:
            rank = -1
            if PARTY_POSITION.matches(action):
                instance = party[PARTY_POSITION.value(action)]
                value = self.card_use_value(instance)
                rank = rank_of[instance]
            elif WITHOUT_A_CARD.matches(action):
                value = self.step_value(WITHOUT_A_CARD.value(action)) - ALTERNATIVE_PENALTY
            else:
                continue
            if value > best_value + TIE or (value > best_value - TIE and rank > best_rank and best_rank >= 0):
                best_action, best_value, best_rank = action, value, rank
        return best_action
