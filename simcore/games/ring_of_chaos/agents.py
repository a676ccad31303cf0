"""The Ring of Chaos heuristic: go for the Ring, hit its wearer, keep Heroes alive, and use every
card and party power when it helps.

Its rules, card by card and power by power, are RULES.md's "Heuristic" section; in short:

- **Draft:** one of the two offered parties at random (its own generator), so that a balance
  study sees every party about equally often.
- **Main menu**, the first that applies: the Ring (pick it up, steal it, Mind Control,
  Dominance, Leadership that brings its wearer next to us before a steal); Heroes (Healing
  Potion, Resurrection, Necromancy when no Adjacent rival gains, the Defenders of the Faith
  power); attacks (Earthquake when it kills a rival's Hero and spares ours, Bully next to the
  wearer, an Attack card at the best target, a Death from Above ranged play); the Move Action
  (toward the Ring on foot, by Teleport or by Sneak; the wearer walks or teleports away from the
  others; Leadership to scatter parties near the Ring or near us while we wear it); an unused
  Bonus Action (Chaos Magic unless it would take nothing, Poison); an unused Move Action
  (Tithe, Pickpocket, Scavenge of a valuable card); an unused Attack Action (the Den of Thieves
  theft, else a draw); end the turn.
- **Targets:** the Ring wearer, else the party with the most points; the Hero attacked: a
  Wounded one (a kill), else Fighter, Wizard, Cleric, Rogue. Poison and Pickpocket: the wearer,
  else the fullest hand. Sneak: the party standing nearest the Ring.
- **Defending:** counter every attack it can (Dodge/Parry, then Hasty Retreat, then its least
  valuable Attack card or Chaos Magic; never Heroic Sacrifice against a Guardian, whose price
  equals the hit); offer a Full Strength Hero when it chooses its own; Heroic Sacrifice to keep
  the Ring (or, when any player may, to stop a taker that would then win) unless it would
  eliminate itself; Chaos Magic against one aimed at itself; Hell Raisers' negation with two
  cards or more; always every Savage Attack extra and every Fireball splash.
- **Cards to give up** (hand limit, Poison, Tithe, Defenders): the least valuable by
  ``CARD_VALUE`` (0 for a card of a Dead class); to take (Scavenge, Tithe), the most valuable,
  never a Temple Guardian.
- **Spaces:** itself next to (or onto) the Ring; others pushed or placed by Leadership far from
  the Ring (from us when we wear it or are about to), the wearer placed next to us.

It reads only its own hand and the public table, so it is seat-honest.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, final

from mypy_extensions import mypyc_attr

from simcore.api import Agent, GameState
from simcore.games.ring_of_chaos.config import (
    ATTACK_SLOT,
    BULLY,
    CARD_NAMES,
    CHAOS_MAGIC,
    CLERIC,
    DODGE,
    DOMINANCE,
    EARTHQUAKE,
    FIGHTER,
    HASTY_RETREAT,
    HEALING_POTION,
    HELL_RAISERS,
    HEROIC_SACRIFICE,
    LEADERSHIP,
    MIND_CONTROL,
    NECROMANCY,
    PARRY,
    PICKPOCKET,
    PIT_TRAP,
    POISON,
    RESURRECTION,
    ROGUE,
    SCAVENGE,
    SNEAK,
    TELEPORT,
    TEMPLE_GUARDIAN,
    TITHE,
    WIZARD,
)
from simcore.games.ring_of_chaos.rules import (
    BEHAVIOUR_BY_CARD,
    CARD,
    DEAD,
    DEFENDERS_POWER,
    DISCARD_PILE,
    DRAW_CARD,
    END_TURN,
    FULL,
    HAND_POSITION,
    HERO,
    K_ATTACKER_HERO,
    K_BULLY_TARGET,
    K_CHAOS_OFFER,
    K_COUNTER,
    K_DEFENDERS_DISCARD,
    K_DEFENDERS_HERO,
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
    K_SPLASH,
    K_TARGET,
    K_TITHE_DROP,
    K_TITHE_PICK,
    MOVE,
    PAIR,
    PASS,
    PICK_UP_RING,
    PLAY,
    PLAY_AS_RANGED,
    RING_HOLDER,
    RING_SPACE,
    SEAT,
    SPACE,
    STEAL_CARD,
    STEAL_RING,
    USED_BONUS,
    WOUNDED,
    RingState,
)
from simcore.kit.decisions import ActionType, answer_list
from simcore.rng import Generator

HERO_TARGET_ORDER: Final = (FIGHTER, WIZARD, CLERIC, ROGUE)
COUNTER_PREFERENCE: Final = (DODGE, PARRY, HASTY_RETREAT)

# How much the heuristic wants to keep a card (higher = keep).
CARD_VALUE: Final = {
    DOMINANCE: 9, MIND_CONTROL: 9, HEALING_POTION: 7, RESURRECTION: 7, DODGE: 6, PARRY: 6,
    HASTY_RETREAT: 6, CHAOS_MAGIC: 5, TEMPLE_GUARDIAN: -1,
}
ATTACK_VALUE: Final = 5
OTHER_VALUE: Final = 3
SCAVENGE_WORTH: Final = 6  # Scavenge only for a card at least this valuable
# A party this many steps away (or nearer) can come Adjacent in one Move and steal the Ring.
STEAL_REACH: Final = 3


class RingHeuristicAgent(Agent):
    """The documented strategy above; its generator only picks the party."""

    def __init__(self, seat: int, rng: Generator) -> None:
        self.name = "heuristic"
        self.seat = seat
        self.rng = rng
        self.plays = Plays(len(CARD_NAMES))

    def choose(self, state: GameState, offered: Sequence[int]) -> int:
        """Pick the answer the strategy prescribes for the question asked."""
        assert isinstance(state, RingState)
        # A typed list for every pick below: iterated and indexed natively, not as a Sequence.
        legal_actions = answer_list(offered)
        kind = state.decisions.asked.kind
        seat = state.current_player
        if kind == K_MAIN:
            return main_action(state, seat, legal_actions, self.plays)
        if kind == K_DRAFT:
            return legal_actions[self.rng.below(len(legal_actions))]
        if kind == K_TARGET:
            return card_target(state, seat, state.decisions.asked.a, legal_actions)
        if kind == K_BULLY_TARGET:
            return best_target(state, legal_actions)
        if kind == K_ATTACKER_HERO:
            return hero_to_attack(state, state.decisions.asked.a, legal_actions)
        if kind in (K_GUARDIAN_DEFEND, K_OWN_HERO_HIT):
            return hero_to_lose(state, seat, legal_actions)
        if kind == K_COUNTER:
            return counter_choice(state, seat, legal_actions)
        if kind in (K_DISCARD_EXCESS, K_POISON_DISCARD, K_TITHE_DROP, K_DEFENDERS_DISCARD):
            return least_valuable_in_hand(state, seat, legal_actions)
        if kind in (K_SCAVENGE, K_TITHE_PICK):
            # The most valuable card named (the first such on a tie, as ``max`` keeps it).
            best, best_value = -1, 0
            for action in legal_actions:
                value = card_value(state, seat, CARD.value(action))
                if best < 0 or value > best_value:
                    best, best_value = action, value
            return best
        if kind in (K_SPACE, K_RETREAT):
            return own_space(state, seat, legal_actions)
        if kind == K_PUSH:
            return push_space(state, legal_actions)
        if kind == K_LEADERSHIP:
            return leadership_space(state, seat, state.decisions.asked.a, legal_actions)
        if kind == K_CHAOS_OFFER:
            victim = PAIR.field(state.decisions.asked.a, 1)
            return legal_actions[0] if victim == seat else PASS
        if kind == K_HELL_OFFER:
            return legal_actions[0] if len(state.hand(seat)) >= 2 else PASS
        if kind == K_SACRIFICE:
            return sacrifice_choice(state, seat, legal_actions)
        if kind == K_DEFENDERS_HERO:
            return defenders_hero(state, seat, legal_actions)
        if kind in (K_SAVAGE_MORE, K_SPLASH):
            return next((action for action in legal_actions if action != PASS), PASS)
        return legal_actions[0]


# ------------------------------------------------------------------ values and places


def least_valuable_in_hand(state: RingState, seat: int, actions: list[int],
                           action_type: ActionType = HAND_POSITION) -> int:
    """The answer (an ``action_type`` on a hand position) of the least
    ``card_value``, the first such on a tie (as ``min`` with a key keeps it; a
    loop: no key function called through Python's calling convention)."""
    hand = state.hand(seat)
    best, best_value = -1, 0
    for action in actions:
        value = card_value(state, seat, hand[action_type.value(action)])
        if best < 0 or value < best_value:
            best, best_value = action, value
    return best


def card_value(state: RingState, seat: int, card: int) -> int:
    """How much ``seat`` wants to keep ``card``: 0 when its class is Dead."""
    if card != TEMPLE_GUARDIAN and not state.can_use_class(seat, card):
        return 0
    if card in CARD_VALUE:
        return CARD_VALUE[card]
    return ATTACK_VALUE if state.config.card_slots[card] == ATTACK_SLOT else OTHER_VALUE


def ring_space(state: RingState) -> int:
    """Where the Ring is: its space on the map, or its wearer's space."""
    return state.numbers[RING_SPACE] if state.numbers[RING_HOLDER] < 0 else state.position(state.numbers[RING_HOLDER])


def ring_distance(state: RingState, space: int) -> int:
    """Steps from ``space`` to the Ring (to a space next to it when it is worn)."""
    distance = state.config.board.distance[space][ring_space(state)]
    return abs(distance - 1) if state.numbers[RING_HOLDER] >= 0 else distance


def nearest_rival(state: RingState, seat: int, space: int) -> int:
    """Steps from ``space`` to the nearest other living party (99 when there is none)."""
    return nearest_of(state, space, rival_spaces(state, seat))


def rival_spaces(state: RingState, seat: int) -> list[int]:
    """The spaces of the other living parties (read once when many spaces are weighed)."""
    return [state.position(other) for other in state.others_alive(seat)]


def nearest_of(state: RingState, space: int, spaces: list[int]) -> int:
    """Steps from ``space`` to the nearest of ``spaces`` (99 when there is none)."""
    distance = state.config.board.distance[space]
    nearest = 99
    for other_space in spaces:
        nearest = min(nearest, distance[other_space])
    return nearest


def open_spaces(state: RingState, altar_too: bool) -> list[int]:
    """Spaces nobody stands on (the Chaos Altar only if ``altar_too``)."""
    altar = state.config.board.altar
    return [space for space in range(state.config.board.n_spaces)
            if state.occupant(space) < 0 and (altar_too or space != altar)]


def own_space(state: RingState, seat: int, legal_actions: list[int]) -> int:
    """Where to go (Teleport, Bully, Hasty Retreat): next to or onto the Ring; the wearer away from the others."""
    # The first best answer (as ``max``/``min`` keep it), by a loop.
    wearer = state.numbers[RING_HOLDER] == seat
    rivals = rival_spaces(state, seat) if wearer else []
    best, best_gap = -1, 0
    for action in legal_actions:
        space = SPACE.value(action)
        if wearer:
            gap = nearest_of(state, space, rivals)
            if best < 0 or gap > best_gap:
                best, best_gap = action, gap
        else:
            gap = ring_distance(state, space)
            if best < 0 or gap < best_gap:
                best, best_gap = action, gap
    return best


def push_space(state: RingState, legal_actions: list[int]) -> int:
    """Where to push a party: the space farthest from the Ring (the first such)."""
    best, best_distance = -1, 0
    for action in legal_actions:
        distance = ring_distance(state, SPACE.value(action))
        if best < 0 or distance > best_distance:
            best, best_distance = action, distance
    return best


def leadership_space(state: RingState, seat: int, target: int, legal_actions: list[int]) -> int:
    """Leadership: another party's wearer next to us (to steal the Ring), everyone else far from
    the Ring, or far from us when we wear it or are about to (the first best space, by a loop)."""
    distance_from_me = state.config.board.distance[state.position(seat)]
    closest = target == state.numbers[RING_HOLDER]
    if closest or state.numbers[RING_HOLDER] >= 0:
        anchor = distance_from_me
    else:
        anchor = state.config.board.distance[state.numbers[RING_SPACE]]
    best, best_gap = -1, 0
    for action in legal_actions:
        space = SPACE.value(action)
        # Next to us: the smallest gap to distance 1, as the largest negative one.
        gap = -abs(distance_from_me[space] - 1) if closest else anchor[space]
        if best < 0 or gap > best_gap:
            best, best_gap = action, gap
    return best


# ------------------------------------------------------------------------ targets


def best_target(state: RingState, legal_actions: list[int]) -> int:
    """The Ring wearer, else the points leader, else the party with fewest living Heroes."""
    holder = state.numbers[RING_HOLDER]
    for action in legal_actions:
        if SEAT.value(action) == holder:
            return action
    # The first answer of the most points, then the fewest living Heroes.
    best, best_points, best_living = -1, 0, 0
    for action in legal_actions:
        target = SEAT.value(action)
        points = state.points(target)
        living = len(state.living_heroes(target))
        if best < 0 or points > best_points or (points == best_points and living < best_living):
            best, best_points, best_living = action, points, living
    return best


def card_target(state: RingState, seat: int, card: int, legal_actions: list[int]) -> int:
    """The party a targeted card is aimed at (see the module docstring)."""
    if card == SNEAK:
        # The first party nearest the Ring.
        best, best_distance = -1, 0
        for action in legal_actions:
            distance = ring_distance(state, state.position(SEAT.value(action)))
            if best < 0 or distance < best_distance:
                best, best_distance = action, distance
        return best
    if card in (POISON, PICKPOCKET):
        holder = state.numbers[RING_HOLDER]
        for action in legal_actions:
            if SEAT.value(action) == holder:
                return action
        # The first of the most cards in hand, then the most points.
        best, best_cards, best_points = -1, 0, 0
        for action in legal_actions:
            target = SEAT.value(action)
            cards = len(state.hand(target))
            points = state.points(target)
            if best < 0 or cards > best_cards or (cards == best_cards and points > best_points):
                best, best_cards, best_points = action, cards, points
        return best
    return best_target(state, legal_actions)


def hero_to_attack(state: RingState, defender: int, legal_actions: list[int]) -> int:
    """A Wounded Hero (a kill), else the first of Fighter, Wizard, Cleric, Rogue."""
    statuses = state.statuses(defender)
    wounded = [action for action in legal_actions if statuses[HERO.value(action)] == WOUNDED]
    if wounded:
        return wounded[0]
    # The first answer whose Hero comes first in HERO_TARGET_ORDER.
    best, best_rank = -1, 0
    for action in legal_actions:
        rank = HERO_TARGET_ORDER.index(HERO.value(action))
        if best < 0 or rank < best_rank:
            best, best_rank = action, rank
    return best


def hero_to_lose(state: RingState, seat: int, legal_actions: list[int]) -> int:
    """A Full Strength Hero if any (it survives, and may be defended)."""
    statuses = state.statuses(seat)
    full = [action for action in legal_actions if statuses[HERO.value(action)] == FULL]
    return full[-1] if full else legal_actions[0]


def can_lose_a_level(state: RingState, seat: int) -> bool:
    """Whether one of the party's Heroes can lose a level without the party being eliminated."""
    statuses = state.statuses(seat)
    return FULL in statuses or len(state.living_heroes(seat)) >= 2


def defenders_hero(state: RingState, seat: int, legal_actions: list[int]) -> int:
    """Defenders of the Faith's raise: a Dead Hero (its Class cards come back) unless Hell Raisers
    with cards could negate that; else a Wounded one."""
    statuses = state.statuses(seat)
    negator = any(state.power(other) == HELL_RAISERS and state.hand(other) for other in state.others_alive(seat))
    dead = [action for action in legal_actions if statuses[HERO.value(action)] == DEAD]
    wounded = [action for action in legal_actions if statuses[HERO.value(action)] == WOUNDED]
    if dead and not (negator and wounded):
        return dead[0]
    return wounded[0] if wounded else legal_actions[0]


# ---------------------------------------------------------------------- defending


def counter_choice(state: RingState, seat: int, legal_actions: list[int]) -> int:
    """Counter with the cheapest card: Dodge/Parry, then Hasty Retreat, then an Attack card or
    Chaos Magic; never Heroic Sacrifice against a Guardian (its price is the hit it avoids)."""
    hand = state.hand(seat)
    for preferred in COUNTER_PREFERENCE:
        for action in legal_actions:
            if action != PASS and hand[HAND_POSITION.value(action)] == preferred:
                return action
    playable = [action for action in legal_actions
                if action != PASS and hand[HAND_POSITION.value(action)] != HEROIC_SACRIFICE]
    if playable:
        return least_valuable_in_hand(state, seat, playable)
    return PASS


def sacrifice_choice(state: RingState, seat: int, legal_actions: list[int]) -> int:
    """Heroic Sacrifice: keep our Ring, or (another's Ring) stop a taker that would then win;
    never when it would eliminate us."""
    if len(legal_actions) == 1 or not can_lose_a_level(state, seat):
        return PASS
    taker = state.decisions.asked.a
    if state.numbers[RING_HOLDER] != seat:
        config = state.config
        if state.points(taker) + config.ring_take_points + config.ring_wear_points < config.points_to_win:
            return PASS
    return next(action for action in legal_actions if action != PASS)


# ---------------------------------------------------------------------- main menu


@final
@mypyc_attr(acyclic=True)  # holds numbers only
class Plays:
    """The cards the main menu offers to play, each with its answer: looked up
    by card id (-1: not offered), and listed in the order their answers came.
    Lists, not a dict: a dozen cards are asked about at every main question.
    The heuristic keeps one and ``clear``s it per question (no list of every
    card made and freed at each of the ~90 main questions of a game)."""

    action_of: list[int]
    cards: list[int]

    def __init__(self, n_cards: int) -> None:
        self.action_of = [-1] * n_cards
        self.cards = []

    def clear(self) -> None:
        """Offer nothing again (only the cards offered are reset)."""
        for card in self.cards:
            self.action_of[card] = -1
        self.cards.clear()

    def add(self, card: int, action: int) -> None:
        """``action`` plays ``card`` (a card offered twice keeps its first place, as a dict would)."""
        if self.action_of[card] < 0:
            self.cards.append(card)
        self.action_of[card] = action

    def has(self, card: int) -> bool:
        """Whether ``card`` may be played."""
        return self.action_of[card] >= 0

    def action(self, card: int) -> int:
        """The answer that plays ``card``."""
        return self.action_of[card]


def main_action(state: RingState, seat: int, legal_actions: list[int], plays: Plays) -> int:
    """The first of the main-menu priorities (module docstring) that is legal
    (``plays``: the agent's own, cleared here and filled with this menu's cards)."""
    # One pass over the answers (a plain loop: no set or dict built by a comprehension).
    hand = state.hand(seat)
    plays.clear()
    can_pick_up = can_steal_ring = can_use_power = can_draw = False
    for action in legal_actions:
        if PLAY.matches(action):
            plays.add(hand[PLAY.value(action)], action)
        elif action == PICK_UP_RING:
            can_pick_up = True
        elif action == STEAL_RING:
            can_steal_ring = True
        elif action == DEFENDERS_POWER:
            can_use_power = True
        elif action == DRAW_CARD:
            can_draw = True
    if can_pick_up:
        return PICK_UP_RING
    if can_steal_ring:
        return STEAL_RING
    if plays.has(MIND_CONTROL):
        return plays.action(MIND_CONTROL)
    if plays.has(DOMINANCE):
        return plays.action(DOMINANCE)
    if plays.has(LEADERSHIP) and leadership_brings_the_ring(state, seat):
        return plays.action(LEADERSHIP)
    heal = _heal_play(state, seat, plays, can_use_power)
    if heal >= 0:
        return heal
    if plays.has(EARTHQUAKE) and earthquake_helps(state, seat):
        return plays.action(EARTHQUAKE)
    if plays.has(BULLY) and bully_reaches_the_wearer(state, seat):
        return plays.action(BULLY)
    attack = _attack_play(state, seat, plays, legal_actions)
    if attack >= 0:
        return attack
    move = _move_play(state, seat, plays, legal_actions)
    if move >= 0:
        return move
    if plays.has(CHAOS_MAGIC) and chaos_magic_takes_something(state, seat):
        return plays.action(CHAOS_MAGIC)
    if plays.has(POISON):
        return plays.action(POISON)
    if plays.has(TITHE):
        return plays.action(TITHE)
    if plays.has(PICKPOCKET):
        return plays.action(PICKPOCKET)
    discard_pile = state.zones[DISCARD_PILE].cards
    if plays.has(SCAVENGE) and max(card_value(state, seat, card) for card in discard_pile) >= SCAVENGE_WORTH:
        return plays.action(SCAVENGE)
    # The theft from the fullest hand, then the most points (the first such on a tie).
    theft, theft_hand, theft_points = -1, 0, 0
    for action in legal_actions:
        if STEAL_CARD.matches(action):
            victim = STEAL_CARD.value(action)
            victim_hand, victim_points = len(state.hand(victim)), state.points(victim)
            if theft < 0 or victim_hand > theft_hand or (victim_hand == theft_hand and victim_points > theft_points):
                theft, theft_hand, theft_points = action, victim_hand, victim_points
    if theft >= 0:
        return theft
    if can_draw:
        return DRAW_CARD
    return END_TURN


def leadership_brings_the_ring(state: RingState, seat: int) -> bool:
    """Leadership can place another party's wearer next to us while our Bonus Action is open:
    any space next to us will do, an occupied one too (its party is placed elsewhere, since
    Leadership places every other party anywhere; those placed before the wearer go far from us)."""
    holder = state.numbers[RING_HOLDER]
    if holder < 0 or holder == seat or state.numbers[USED_BONUS]:
        return False
    return len(state.config.board.neighbours[state.position(seat)]) > 0


def leadership_scatters(state: RingState, seat: int) -> bool:
    """Leadership can move away the parties that threaten to take the Ring: any within reach of
    stealing it from us, or (the Ring on the map) any that stands nearer it than we do."""
    distance = state.config.board.distance
    others = state.others_alive(seat)
    if state.numbers[RING_HOLDER] == seat:
        here = distance[state.position(seat)]
        return any(here[state.position(other)] <= STEAL_REACH for other in others)
    if state.numbers[RING_HOLDER] >= 0:
        return False
    ring = distance[state.numbers[RING_SPACE]]
    mine = ring[state.position(seat)]
    return any(ring[state.position(other)] < mine and ring[state.position(other)] <= 2 for other in others)


def chaos_magic_takes_something(state: RingState, seat: int) -> bool:
    """Below 10 points Chaos Magic takes a point; at 10 it only costs the victim one, and only
    under ``rules.chaos_magic_at_ten_costs_victim``."""
    config = state.config
    return state.points(seat) < config.max_taken_points or config.chaos_magic_at_ten_costs_victim


def earthquake_helps(state: RingState, seat: int) -> bool:
    """Earthquake: our party keeps all its Heroes (one is at Full Strength) and a rival loses one."""
    if not state.has_hero_at(seat, FULL):
        return False
    return any(not state.has_hero_at(other, FULL) for other in state.others_alive(seat))


def bully_reaches_the_wearer(state: RingState, seat: int) -> bool:
    """Bully can put us next to another party wearing the Ring (then attack it, then steal it)."""
    holder = state.numbers[RING_HOLDER]
    if holder < 0 or holder == seat:
        return False
    wearer_space = state.position(holder)
    distance = state.config.board.distance
    return any(distance[space][wearer_space] == 1 for space in state.bully_spaces(seat))


def _heal_play(state: RingState, seat: int, plays: Plays, can_use_power: bool) -> int:
    """Healing Potion, Resurrection, Necromancy when no Adjacent rival also raises a Hero, or the
    Defenders of the Faith power when cheap cards can pay for it; -1 if none."""
    if plays.has(HEALING_POTION):
        return plays.action(HEALING_POTION)
    if plays.has(RESURRECTION):
        return plays.action(RESURRECTION)
    if plays.has(NECROMANCY) and state.has_hero_at(seat, DEAD) and state.necromancy_parties(seat) == [seat]:
        return plays.action(NECROMANCY)
    if can_use_power:
        cost = state.config.defenders_cards_to_discard
        values = sorted(card_value(state, seat, card) for card in state.hand(seat))
        # the dearest card paid must be cheap, and a Wounded Hero is not worth the last card
        if (cost == 0 or values[cost - 1] <= ATTACK_VALUE) and (state.has_hero_at(seat, DEAD) or len(values) > cost):
            return DEFENDERS_POWER
    return -1


def _attack_play(state: RingState, seat: int, plays: Plays, legal_actions: list[int]) -> int:
    """An attack card that can reach the Ring wearer (or anyone when nobody wears it), else a
    Death from Above ranged play of the least valuable Attack card at a distant target; -1 if none."""
    holder = state.numbers[RING_HOLDER]
    for card in plays.cards:
        action = plays.action(card)
        if state.config.card_slots[card] != ATTACK_SLOT:
            continue
        if card == PIT_TRAP:
            if any(state.statuses(other)[ROGUE] == DEAD for other in state.others_alive(seat)):
                return action  # it only hurts parties whose Rogue is Dead
            continue
        targets = BEHAVIOUR_BY_CARD[card].targets(state, seat, card)
        if targets and (holder < 0 or holder == seat or holder in targets):
            return action
    ranged = [action for action in legal_actions if PLAY_AS_RANGED.matches(action)]
    if ranged and (holder < 0 or holder == seat or not state.is_adjacent(seat, holder)):
        return least_valuable_in_hand(state, seat, ranged, PLAY_AS_RANGED)
    return -1


def _move_play(state: RingState, seat: int, plays: Plays, legal_actions: list[int]) -> int:
    """The Move Action that helps most, or -1: toward the Ring on foot, by Teleport or by Sneak;
    the wearer away from the others; Leadership to scatter the parties that threaten the Ring."""
    walks = [action for action in legal_actions if MOVE.matches(action)]
    if state.numbers[RING_HOLDER] == seat:
        rivals = rival_spaces(state, seat)  # the same for every space weighed
        here = nearest_of(state, state.position(seat), rivals)
        best, best_gap = -1, here
        for action in walks:
            gap = nearest_of(state, MOVE.value(action), rivals)
            if gap > best_gap:
                best, best_gap = action, gap
        if best_gap <= STEAL_REACH:
            if plays.has(LEADERSHIP) and leadership_scatters(state, seat):
                return plays.action(LEADERSHIP)
            if plays.has(TELEPORT) and max(nearest_of(state, space, rivals)
                                         for space in open_spaces(state, False)) > best_gap:
                return plays.action(TELEPORT)
        return best
    here = ring_distance(state, state.position(seat))
    best, best_distance = -1, here
    for action in walks:
        distance = ring_distance(state, MOVE.value(action))
        if distance < best_distance:
            best, best_distance = action, distance
    if best_distance > 0:
        teleport_distance = 99
        if plays.has(TELEPORT):
            teleport_distance = min(ring_distance(state, space) for space in open_spaces(state, False))
        if teleport_distance < best_distance:
            return plays.action(TELEPORT)
        if plays.has(SNEAK):
            holder = state.numbers[RING_HOLDER]
            swaps = [ring_distance(state, state.position(other)) for other in state.others_alive(seat)
                     if other != holder]
            if swaps and min(swaps) < best_distance:
                return plays.action(SNEAK)
    if best < 0 and plays.has(LEADERSHIP) and leadership_scatters(state, seat):
        return plays.action(LEADERSHIP)
    return best
