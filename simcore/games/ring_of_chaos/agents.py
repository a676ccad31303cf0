"""The Ring of Chaos heuristic: go for the Ring, hit its wearer, keep Heroes alive.

Strategy (documented in RULES.md):

- **Draft:** one of the two offered parties at random (its own generator), so
  that a balance study sees every party about equally often.
- **Main menu**, first that applies: pick up or steal the Ring; Dominance or
  Mind Control when another party wears it; Healing Potion / Resurrection
  when a Hero is hurt; an attack card on the best target (see below; Pit
  Trap only when another party's Rogue is Dead); move
  toward the Ring (to its space when it lies on the map, next to its wearer
  otherwise; a wearer stays put); Chaos Magic on the points leader; draw a
  card instead of attacking; end the turn. It never plays other cards.
- **Targets:** the Ring wearer, else the party with the most points, else the
  one with the fewest living Heroes; the Hero attacked: a Wounded one (to
  kill), else the Fighter, Wizard, Cleric, Rogue in that order.
- **Defending:** counter every attack it can counter (Dodge/Parry first,
  then Hasty Retreat, then an Attack card against a Guardian); when it
  chooses its own Hero to be hit, a Full Strength one (Wounded ones die).
  Heroic Sacrifice to keep the Ring; Chaos Magic to stop one aimed at itself;
  Hell Raisers' negation whenever it holds two cards or more.
- **Cards to give up** (hand limit, Poison, Tithe, Defenders): the least
  valuable by ``CARD_VALUE`` (0 for cards of a Dead class); to take
  (Scavenge, Tithe), the most valuable that is not a Temple Guardian.
- **Spaces:** its own party as close to the Ring as possible; others pushed
  or placed (Leadership) as far from it as possible.

It reads only its own hand and the public table, so it is seat-honest.
"""

from __future__ import annotations

from collections.abc import Sequence

from simcore.api import Agent, GameState
from simcore.games.ring_of_chaos.config import (
    ATTACK_SLOT,
    CARD_SLOTS,
    CHAOS_MAGIC,
    CLERIC,
    DODGE,
    DOMINANCE,
    FIGHTER,
    HASTY_RETREAT,
    HEALING_POTION,
    MIND_CONTROL,
    PARRY,
    PIT_TRAP,
    RESURRECTION,
    ROGUE,
    TEMPLE_GUARDIAN,
    WIZARD,
)
from simcore.games.ring_of_chaos.rules import (
    DEAD,
    DRAW_CARD,
    END_TURN,
    FULL,
    K_ATTACKER_HERO,
    K_BULLY_TARGET,
    K_CHAOS_OFFER,
    K_COUNTER,
    K_DEFENDERS_DISCARD,
    K_DISCARD_EXCESS,
    K_DRAFT,
    K_GUARDIAN_DEFEND,
    K_HELL_OFFER,
    K_LEADERSHIP,
    K_MAIN,
    K_OWN_HERO_HIT,
    K_POISON_DISCARD,
    K_PUSH,
    K_RETREAT,
    K_SACRIFICE,
    K_SAVAGE_MORE,
    K_SCAVENGE,
    K_SPACE,
    K_TARGET,
    K_TITHE_DROP,
    K_TITHE_PICK,
    MOVE_TO,
    PASS,
    PICK_UP_RING,
    PLAY_AS_RANGED,
    PLAY_CARD,
    STEAL_RING,
    WOUNDED,
    RingState,
)
from simcore.rng import Generator

HERO_TARGET_ORDER = (FIGHTER, WIZARD, CLERIC, ROGUE)
COUNTER_PREFERENCE = (DODGE, PARRY, HASTY_RETREAT)

# How much the heuristic wants to keep a card (higher = keep).
CARD_VALUE = {
    DOMINANCE: 9, MIND_CONTROL: 9, HEALING_POTION: 7, RESURRECTION: 7, DODGE: 6, PARRY: 6,
    HASTY_RETREAT: 6, CHAOS_MAGIC: 5, TEMPLE_GUARDIAN: -1,
}
ATTACK_VALUE = 5
OTHER_VALUE = 3


class RingHeuristicAgent(Agent):
    """The documented strategy above; its generator only picks the party."""

    def __init__(self, seat: int, rng: Generator) -> None:
        self.name = "heuristic"
        self.seat = seat
        self.rng = rng

    def choose(self, state: GameState, legal_actions: Sequence[int]) -> int:
        """Pick the answer the strategy prescribes for the question asked."""
        assert isinstance(state, RingState)
        kind = state.asked[0]
        seat = state.current_player
        if kind == K_MAIN:
            return main_action(state, seat, legal_actions)
        if kind == K_DRAFT:
            return legal_actions[self.rng.below(len(legal_actions))]
        if kind in (K_TARGET, K_BULLY_TARGET):
            return best_target(state, legal_actions)
        if kind == K_ATTACKER_HERO:
            return hero_to_attack(state, state.asked[2], legal_actions)
        if kind in (K_GUARDIAN_DEFEND, K_OWN_HERO_HIT):
            return hero_to_lose(state, seat, legal_actions)
        if kind == K_COUNTER:
            return counter_choice(state, seat, legal_actions)
        if kind in (K_DISCARD_EXCESS, K_POISON_DISCARD, K_TITHE_DROP, K_DEFENDERS_DISCARD):
            return min(legal_actions, key=lambda position: card_value(state, seat, state.hands[seat][position]))
        if kind in (K_SCAVENGE, K_TITHE_PICK):
            return max(legal_actions, key=lambda card: card_value(state, seat, card))
        if kind in (K_SPACE, K_RETREAT):
            return min(legal_actions, key=lambda space: ring_distance(state, space))
        if kind in (K_PUSH, K_LEADERSHIP):
            return max(legal_actions, key=lambda space: ring_distance(state, space))
        if kind == K_CHAOS_OFFER:
            victim = state.asked[2] % 8
            return legal_actions[0] if victim == seat else PASS
        if kind == K_HELL_OFFER:
            return legal_actions[0] if len(state.hands[seat]) >= 2 else PASS
        if kind in (K_SACRIFICE, K_SAVAGE_MORE):
            return next((action for action in legal_actions if action != PASS), PASS)
        return legal_actions[0]


def card_value(state: RingState, seat: int, card: int) -> int:
    """How much ``seat`` wants to keep ``card``: 0 when its class is Dead."""
    if card != TEMPLE_GUARDIAN and not state.can_use_class(seat, card):
        return 0
    if card in CARD_VALUE:
        return CARD_VALUE[card]
    return ATTACK_VALUE if CARD_SLOTS[card] == ATTACK_SLOT else OTHER_VALUE


def ring_space(state: RingState) -> int:
    """Where the Ring is: its space on the map, or its wearer's space."""
    return state.ring_space if state.ring_holder < 0 else state.position[state.ring_holder]


def ring_distance(state: RingState, space: int) -> int:
    """Steps from ``space`` to the Ring (to a space next to it when it is worn)."""
    distance = state.config.board.distance[space][ring_space(state)]
    return abs(distance - 1) if state.ring_holder >= 0 else distance


def best_target(state: RingState, legal_actions: Sequence[int]) -> int:
    """The Ring wearer, else the points leader, else the party with fewest living Heroes."""
    if state.ring_holder in legal_actions:
        return state.ring_holder
    return max(legal_actions, key=lambda seat: (state.points[seat], -len(state.living_heroes(seat))))


def hero_to_attack(state: RingState, defender: int, legal_actions: Sequence[int]) -> int:
    """A Wounded Hero (a kill), else the first of Fighter, Wizard, Cleric, Rogue."""
    statuses = state.heroes[defender]
    wounded = [hero for hero in legal_actions if statuses[hero] == WOUNDED]
    if wounded:
        return wounded[0]
    return min(legal_actions, key=HERO_TARGET_ORDER.index)


def hero_to_lose(state: RingState, seat: int, legal_actions: Sequence[int]) -> int:
    """A Full Strength Hero if any (it survives, and may be defended)."""
    statuses = state.heroes[seat]
    full = [hero for hero in legal_actions if statuses[hero] == FULL]
    return full[-1] if full else legal_actions[0]


def counter_choice(state: RingState, seat: int, legal_actions: Sequence[int]) -> int:
    """Counter with the cheapest card: Dodge/Parry, then Hasty Retreat, then an Attack card."""
    hand = state.hands[seat]
    for preferred in COUNTER_PREFERENCE:
        for action in legal_actions:
            if action != PASS and hand[action] == preferred:
                return action
    playable = [action for action in legal_actions if action != PASS]
    if playable:
        return min(playable, key=lambda position: card_value(state, seat, hand[position]))
    return PASS


def main_action(state: RingState, seat: int, legal_actions: Sequence[int]) -> int:
    """The first of the main-menu priorities (module docstring) that is legal."""
    legal = set(legal_actions)
    if PICK_UP_RING in legal:
        return PICK_UP_RING
    if STEAL_RING in legal:
        return STEAL_RING
    hand = state.hands[seat]
    plays = {hand[action - PLAY_CARD]: action for action in legal_actions if PLAY_CARD <= action < PLAY_AS_RANGED}
    for card in (DOMINANCE, MIND_CONTROL, HEALING_POTION, RESURRECTION):
        if card in plays:
            return plays[card]
    attack = _attack_play(state, seat, plays, legal_actions)
    if attack >= 0:
        return attack
    moves = [action for action in legal_actions if MOVE_TO <= action < PLAY_CARD]
    if moves and state.ring_holder != seat:
        here = ring_distance(state, state.position[seat])
        best = min(moves, key=lambda action: ring_distance(state, action - MOVE_TO))
        if ring_distance(state, best - MOVE_TO) < here:
            return best
    if CHAOS_MAGIC in plays:
        return plays[CHAOS_MAGIC]
    if DRAW_CARD in legal:
        return DRAW_CARD
    return END_TURN


def _attack_play(state: RingState, seat: int, plays: dict[int, int], legal_actions: Sequence[int]) -> int:
    """An attack card that can reach the Ring wearer (or anyone when nobody wears it); -1 if none."""
    ranged = [action for action in legal_actions if action >= PLAY_AS_RANGED]
    holder = state.ring_holder
    for card, action in plays.items():
        if CARD_SLOTS[card] != ATTACK_SLOT:
            continue
        if card == PIT_TRAP:
            if any(state.heroes[other][ROGUE] == DEAD for other in state.others_alive(seat)):
                return action  # it only hurts parties whose Rogue is Dead
            continue
        targets = state.attack_targets(seat, card, False)
        if targets and (holder < 0 or holder == seat or holder in targets):
            return action
    if ranged and holder >= 0 and holder != seat and not state.is_adjacent(seat, holder):
        return ranged[0]
    return -1
