"""The Party Wanted heuristic: one shared party plan (hands are open).

Every seat runs the same deterministic rules on the same open table, so the
heroes act as one party. Each planning action is summarised as an
``Impact`` (what it adds to whose attack, defense, speed, HP... against which
enemy), and a **round forecast** plays the round's initiative order on the
numbers as they stand (who hits, which enemy dies before it attacks, how
much damage each hero takes). In combat planning, in this order (RULES.md,
"The heuristic agent", gives the rule for every card and item):

1. **Refill, build up, revive:** play a once-per-combat draw card; put a
   minion into play; resurrect a dead hero.
2. **Save a hero the forecast kills:** the cheapest single action that
   saves it (negate, defense, guard, weaken, heal, a faster or slower
   initiative that kills the enemy before it strikes, a card buried for +1
   defense...), else the action that cuts the most damage.
3. **Direct damage** on the enemy it kills, else the weakest one.
4. **Hits:** the action that gains the party the most hits this round for
   its cost (own attack cards, party attack, expose, multipliers, a card
   buried for +1 attack), or two actions when one is not enough; a gap two
   actions cannot close is left alone (no cards wasted).
5. **Initiative:** speed and slow cards when they let the party kill an
   enemy before it attacks.
6. **Heavy damage:** the cheapest action that halves damage of at least
   half the hero's HP (in a boss fight: any damage, since every card is
   shuffled back after it).
7. **Top up:** heal a hero under 40% HP, or several wounded heroes at once.
8. Otherwise done.

Cards that lower the player's own defense (``defense:-1``) are played only
where the lower defense costs no HP; armor, weapons and minions are
Sacrificed only to save a hero or to land a hit no card can.

Outside combat: bury and remove the least valuable card, add the most
valuable one, take part in a Social unless its dare would leave the hero
under half its HP, resolve permanents first and fights last, use a held item
before damage outside combat only to save a hero, vote the Ultimate to the
hero in most trouble (lowest HP share), reveal the first face-down land
(they are face down: there is nothing to choose between).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, final

from librt.vecs import append, vec
from mypy_extensions import i64, mypyc_attr

from simcore.api import Agent, GameState
from simcore.games.party_wanted.config import (
    ATTACK,
    DEFENSE,
    INSTANT,
    MINION,
    P_ATTACK,
    P_DAMAGE,
    P_DAMAGE_SELF,
    P_DEFENSE,
    P_DRAW,
    P_EXPOSE,
    P_FIGHT,
    P_GUARD,
    P_HEAL,
    P_HEAL_SELF,
    P_MULTIPLY_ATTACK,
    P_MULTIPLY_DEFENSE,
    P_NEGATE,
    P_PARTY_ATTACK,
    P_PARTY_DEFENSE,
    P_PARTY_HEAL,
    P_PARTY_SPEED,
    P_PERM_ATTACK,
    P_PERM_DEFENSE,
    P_PERM_HP,
    P_PERM_SPEED,
    P_RESURRECT,
    P_SLOW,
    P_SPEED,
    P_WEAKEN,
    PERMANENT,
    Effects,
    PartyConfig,
)
from simcore.games.party_wanted.rules import (
    ADD,
    ASIDE,
    BUILD_POOL_CARD,
    BURY,
    BURY_ATTACK_CODE,
    BURY_DEFENSE_CODE,
    BURY_FOR_ATTACK,
    BURY_FOR_DEFENSE,
    CARD_ATTACK,
    CARD_DEFENSE,
    CARD_SHIFT,
    COMBAT_VERSION,
    DONE,
    ENEMY_BOSS,
    ENEMY_HP,
    ENEMY_KIND,
    EQUIP,
    EQUIP_SEAT,
    HAND,
    HAND_POSITION,
    HERO_DECK,
    IN_PLAY,
    ITEMS,
    ITEMS_HELD,
    MINIONS,
    MULTIPLY_ATTACK,
    MULTIPLY_DEFENSE,
    NEGATED,
    ORDER,
    ORDER_POSITION,
    PENDING_ITEMS,
    PLAN,
    PLAY_CARD,
    REMOVE,
    SACRIFICE,
    SOCIAL,
    TAKE_PART,
    USE_ITEM,
    VOTE,
    VOTE_SEAT,
    PartyState,
    initiative_attacker,
    initiative_by_enemy,
    initiative_enemy,
    initiative_key,
    is_burial,
)
from simcore.kit.decisions import ActionType, action_code, answer_list
from simcore.rng import Generator

# Worth of one point of each primitive when choosing what to keep, add or spend.
_WORTH: Final = {
    P_ATTACK: 1.0, P_DEFENSE: 1.0, P_PARTY_ATTACK: 2.5, P_PARTY_DEFENSE: 2.5, P_GUARD: 1.0, P_NEGATE: 3.0,
    P_DAMAGE: 3.0, P_EXPOSE: 1.2, P_WEAKEN: 1.5, P_HEAL: 0.6, P_HEAL_SELF: 0.6, P_PARTY_HEAL: 1.5,
    P_RESURRECT: 0.8, P_DRAW: 1.5, P_MULTIPLY_ATTACK: 0.75, P_MULTIPLY_DEFENSE: 0.75, P_SPEED: 0.4,
    P_PARTY_SPEED: 0.8, P_SLOW: 0.5, P_PERM_ATTACK: 2.5, P_PERM_DEFENSE: 2.5, P_PERM_SPEED: 1.0, P_PERM_HP: 1.0,
}
LOW_HP_SHARE: Final = 0.4
# The cost of giving up armor or a weapon for its sacrifice effect.
SACRIFICE_COST: Final = 6.0
# Items are worth a little more than their effects: they never come back.
ITEM_SURCHARGE: Final = 1.0


def card_worth(config: PartyConfig, card: int) -> float:
    """How much a card is worth keeping (sum of its effects' worth)."""
    return _worths(config)[card]


class _WorthTable:
    """Every card's worth and main effect (its first primitive, -1 for none)
    for the last configuration seen (kept by reference, so a new
    configuration is always recomputed)."""

    config: PartyConfig | None
    worths: tuple[float, ...]
    main_effects: tuple[int, ...]

    def __init__(self) -> None:
        self.config = None
        self.worths = ()
        self.main_effects = ()


_TABLE: Final = _WorthTable()


def _worths(config: PartyConfig) -> tuple[float, ...]:
    """Every card's worth, computed once per configuration."""
    if _TABLE.config is not config:
        _TABLE.worths = tuple(
            sum(_WORTH.get(primitive, 0.5) * max(amount, 1) for primitive, amount in effects)
            for effects in config.effects
        )
        _TABLE.main_effects = tuple(effects[0][0] if effects else -1 for effects in config.effects)
        _TABLE.config = config
    return _TABLE.worths


# A card's worth for the Add shrinks by this factor per card with the same
# main effect the hero already owns (a deck with four attack cards wants a
# fifth less than its first guard or heal); of the cards scoring within
# ADD_SPREAD of the best, the agent's generator picks one, so that decks vary.
SAME_EFFECT_DISCOUNT: Final = 0.75
ADD_SPREAD: Final = 0.25


def card_to_add(state: PartyState, seat: int, legal: list[int], rng: Generator) -> int:
    """The card to Add: worth discounted by the same-effect cards owned
    outside the Build Pool, chosen at random among the near-best."""
    worths = _worths(state.config)
    main = _TABLE.main_effects
    owned: dict[int, int] = {}
    for which in (HAND, HERO_DECK, IN_PLAY, ASIDE, MINIONS):
        for card in state.seat_zone(seat, which).cards:
            owned[main[card]] = owned.get(main[card], 0) + 1
    cards = [BUILD_POOL_CARD.value(action) for action in legal]
    scores = [worths[card] * SAME_EFFECT_DISCOUNT ** owned.get(main[card], 0) for card in cards]
    best = max(scores)
    near = [action for action, score in zip(legal, scores, strict=True) if score >= (1 - ADD_SPREAD) * best]
    return near[rng.below(len(near))]


class Impact:
    """What one planning action (one card, item or sacrifice, before its
    target is chosen) adds this round, in numbers."""

    attack: int  # to the acting hero's attack (an Attack card's number: multipliable)
    basic: bool  # an Attack or Defense card, whose numbers a 2x/3x multiplies
    party_attack: int
    expose: int
    defense: int  # to the acting hero's defense (negative: a card that lowers it)
    guard: int  # to the target hero's defense
    party_defense: int
    negate: bool  # the target hero takes no damage from the enemy
    heal: int  # to the target hero
    heal_self: int
    party_heal: int
    weaken: int
    slow: int
    damage: int
    speed: int  # the acting hero's speed
    party_speed: int
    multiply_attack: int  # the factor, 0 for none
    multiply_defense: int
    resurrect: int
    draw: int
    bury: bool  # burying a card for +1 (the target says which stat)
    minion: bool  # playing a minion into play
    cost: float
    protects: bool  # whether it can protect at all (worked out once, not per option)
    attacks: bool  # whether it can add attack at all

    def __init__(self, effects: Effects, basic: bool, cost: float) -> None:
        self.attack = self.party_attack = self.expose = self.defense = self.guard = self.party_defense = 0
        self.heal = self.heal_self = self.party_heal = self.weaken = self.slow = self.damage = 0
        self.speed = self.party_speed = self.multiply_attack = self.multiply_defense = 0
        self.resurrect = self.draw = 0
        self.negate = self.bury = self.minion = False
        self.basic = basic
        self.cost = cost
        for primitive, amount in effects:
            if primitive == P_ATTACK:
                self.attack += amount
            elif primitive == P_PARTY_ATTACK:
                self.party_attack += amount
            elif primitive == P_EXPOSE:
                self.expose += amount
            elif primitive == P_DEFENSE:
                self.defense += amount
            elif primitive == P_GUARD:
                self.guard += amount
            elif primitive == P_PARTY_DEFENSE:
                self.party_defense += amount
            elif primitive == P_NEGATE:
                self.negate = True
            elif primitive == P_HEAL:
                self.heal += amount
            elif primitive == P_HEAL_SELF:
                self.heal_self += amount
            elif primitive == P_PARTY_HEAL:
                self.party_heal += amount
            elif primitive == P_WEAKEN:
                self.weaken += amount
            elif primitive == P_SLOW:
                self.slow += amount
            elif primitive == P_DAMAGE:
                self.damage += amount
            elif primitive == P_SPEED:
                self.speed += amount
            elif primitive == P_PARTY_SPEED:
                self.party_speed += amount
            elif primitive == P_MULTIPLY_ATTACK:
                self.multiply_attack = amount
            elif primitive == P_MULTIPLY_DEFENSE:
                self.multiply_defense = amount
            elif primitive == P_RESURRECT:
                self.resurrect = max(self.resurrect, amount)
            elif primitive == P_DRAW:
                self.draw += amount
        self.protects = (self.defense > 0 or self.guard > 0 or self.party_defense > 0 or self.negate
                         or self.heal > 0 or self.heal_self > 0 or self.party_heal > 0 or self.weaken > 0
                         or self.slow > 0 or self.speed > 0 or self.party_speed > 0 or self.damage > 0
                         or self.multiply_defense > 0)
        self.attacks = self.attack > 0 or self.party_attack > 0 or self.expose > 0 or self.multiply_attack > 0


class _ImpactTable:
    """Every card's ``Impact`` when played, buried for +1, used (items) and
    Sacrificed, for the last configuration seen (they never change)."""

    config: PartyConfig | None
    play: list[Impact]
    bury: list[Impact]
    use: list[Impact]
    sacrifice: list[Impact]

    def __init__(self) -> None:
        self.config = None
        self.play, self.bury, self.use, self.sacrifice = [], [], [], []


_IMPACTS: Final = _ImpactTable()


def _impact_table(config: PartyConfig) -> _ImpactTable:
    """The impacts of every card under ``config`` (computed once per configuration)."""
    table = _IMPACTS
    if table.config is not config:
        worths = _worths(config)
        table.play, table.bury, table.use, table.sacrifice = [], [], [], []
        for card, effects in enumerate(config.effects):
            kind = config.kinds[card]
            played = Impact(effects if kind != MINION else (), kind in (ATTACK, DEFENSE), worths[card])
            played.minion = kind == MINION
            table.play.append(played)
            buried = Impact((), False, worths[card])
            buried.bury = True
            table.bury.append(buried)
            table.use.append(Impact(effects, False, worths[card] + ITEM_SURCHARGE))
            cost = SACRIFICE_COST if kind != MINION else worths[card] + ITEM_SURCHARGE
            table.sacrifice.append(Impact(config.sacrifices[card], False, cost))
        table.config = config
    return table


def _impact(state: PartyState, seat: int, action: int) -> Impact:
    """The ``Impact`` of the card, item or sacrifice behind a planning action."""
    table = _impact_table(state.config)
    index = PLAY_CARD.value(action)  # every card action's first field
    code = action_code(action)  # one shift, then native compares (no method call per type)
    if code == _PLAY_CODE:
        return table.play[state.hand(seat)[index]]
    if is_burial(action):
        return table.bury[state.hand(seat)[index]]
    if code == _USE_CODE:
        return table.use[state.seat_zone(seat, ITEMS_HELD).cards[index]]
    return table.sacrifice[state.sacrificeable(seat, index)]


_PLAY_CODE: Final = PLAY_CARD.code
_USE_CODE: Final = USE_ITEM.code


class PartyHeuristicAgent(Agent):
    """The shared party plan above; its generator only picks among near-best
    cards to Add (every other choice is deterministic)."""

    def __init__(self, seat: int, rng: Generator) -> None:
        self.name = "heuristic"
        self.seat = seat
        self.rng = rng

    def choose(self, state: GameState, offered: Sequence[int]) -> int:
        """Pick the action the plan prescribes for the question asked."""
        assert isinstance(state, PartyState)
        legal_actions = answer_list(offered)  # a typed list: iterated natively by the picks
        kind = state.decisions.asked.kind
        seat = state.current_player
        if kind == PLAN:
            return plan_action(state, seat, legal_actions)
        # Loops, not min() with key lambdas: a lambda here made a closure at every question.
        if kind in (BURY, REMOVE):
            return _least_worth_in_hand(state, seat, legal_actions)
        if kind == ADD:
            return card_to_add(state, seat, legal_actions, self.rng)
        if kind == ORDER:
            return _first_item_to_resolve(state, legal_actions)
        if kind == VOTE:
            return _most_hurt_hero(state, legal_actions, VOTE_SEAT)
        if kind == EQUIP:
            # "When it comes to rewards, if a Hero is having more trouble than the rest of
            # the party choose that Hero" (the rulebook's advice for level-up rewards).
            return _most_hurt_hero(state, legal_actions, EQUIP_SEAT)
        if kind == SOCIAL:
            return TAKE_PART.encode(1 if _takes_part(state, seat) else 0)
        if kind == ITEMS:
            return _item_before_damage(state, seat, legal_actions)
        return legal_actions[0]


def _least_worth_in_hand(state: PartyState, seat: int, legal: list[int]) -> int:
    """The hand card of the least worth to bury or remove (the lowest answer on a tie)."""
    hand = state.hand(seat)
    best, best_worth = -1, 0.0
    for action in legal:
        worth = card_worth(state.config, hand[HAND_POSITION.value(action)])
        if best < 0 or worth < best_worth or (worth == best_worth and action < best):
            best, best_worth = action, worth
    return best


def _first_item_to_resolve(state: PartyState, legal: list[int]) -> int:
    """The pending item that resolves first (``_order_rank``; the lowest answer on a tie)."""
    pending = state.zones[PENDING_ITEMS].cards
    best, best_rank = -1, 0
    for action in legal:
        rank = _order_rank(state, pending[ORDER_POSITION.value(action)])
        if best < 0 or rank < best_rank or (rank == best_rank and action < best):
            best, best_rank = action, rank
    return best


def _most_hurt_hero(state: PartyState, legal: list[int], answer: ActionType) -> int:
    """The living hero (``answer``'s seat field) with the least share of its HP left (the
    lowest answer on a tie); a dead one (a candidate with rules.dead_heroes_level_up) only
    when nobody lives."""
    best, best_share = -1, 0.0
    for action in legal:
        hero = answer.value(action)
        share = state.hp(hero) / state.max_hp(hero) if state.alive(hero) else 2.0
        if best < 0 or share < best_share or (share == best_share and action < best):
            best, best_share = action, share
    return best


def _order_rank(state: PartyState, card: int) -> int:
    """Permanents first, then single-use items, then instants; fights last."""
    config = state.config
    if config.uses[card] == PERMANENT:
        return 0
    if config.uses[card] != INSTANT:
        return 1
    return 3 if any(p == P_FIGHT for p, _ in config.effects[card]) else 2


def _takes_part(state: PartyState, seat: int) -> bool:
    """Take part in a Social unless its dare would leave the hero under half its HP."""
    card = state.decisions.asked.a  # the land or boss whose Social is asked
    cost = sum(amount for primitive, amount in state.config.socials[card] if primitive == P_DAMAGE_SELF)
    return cost == 0 or 2 * (state.hp(seat) - cost) >= state.max_hp(seat)


def _item_before_damage(state: PartyState, seat: int, legal: list[int]) -> int:
    """Before damage outside combat: an item that keeps a hero alive (negate
    or heal on a hero the damage kills; a resurrection that survives it)."""
    victim, amount, party = state.pending_outside_damage()
    hit = [party or hero == victim for hero in range(state.n_players)]
    best, best_cost = DONE, 1e9
    for action in legal:
        if action == DONE:
            continue
        hero = USE_ITEM.field(action, 1)
        impact = _impact(state, seat, action)
        dies = state.alive(hero) and hit[hero] and state.hp(hero) <= amount
        saves = (dies and (impact.negate or state.hp(hero) + impact.heal + impact.party_heal > amount)) or (
            not state.alive(hero) and impact.resurrect > (amount if hit[hero] else 0))
        if saves and impact.cost < best_cost:
            best, best_cost = action, impact.cost
    return best


# --------------------------------------------------------------- forecast


@final
@mypyc_attr(acyclic=True)  # made per choice, points only to the state and numbers: no cycle
class Numbers:
    """The round's numbers as they stand, read once per decision: each hero's
    attack, defense and speed against each enemy and the damage each enemy
    does to it (flat, at ``at(hero, enemy)``); each enemy's attack, defense
    and speed. Native vectors, not lists of lists: a forecast is made at
    most planning choices, and boxing and appending its numbers was most
    of its cost."""

    state: PartyState
    n_enemies: i64
    living: list[int]
    attack: vec[i64]
    defense: vec[i64]
    speed: vec[i64]
    damage: vec[i64]
    enemy_attack: vec[i64]
    enemy_defense: vec[i64]
    enemy_speed: vec[i64]

    def __init__(self, state: PartyState) -> None:
        self.state = state
        self.living = state.living_enemies()
        n_enemies: i64 = state.enemy_count()
        n_players: i64 = state.n_players
        self.n_enemies = n_enemies
        # Built by appends to vectors made at their size (``filled`` looks its vector up per call).
        enemy_attack = vec[i64](capacity=n_enemies)
        enemy_defense = vec[i64](capacity=n_enemies)
        enemy_speed = vec[i64](capacity=n_enemies)
        for enemy in range(n_enemies):
            enemy_attack = append(enemy_attack, state.enemy_attack(enemy))
            enemy_defense = append(enemy_defense, state.enemy_defense(enemy))
            enemy_speed = append(enemy_speed, state.enemy_speed(enemy))
        size = n_players * n_enemies
        attack, defense = vec[i64](capacity=size), vec[i64](capacity=size)
        speed, damage = vec[i64](capacity=size), vec[i64](capacity=size)
        for hero in range(n_players):
            # A hero's base stats are the same against every enemy: read once.
            base_attack, base_defense, base_speed = state.base_stats(hero)
            for enemy in range(n_enemies):
                hero_defense = state.defense_against(hero, enemy, base_defense)
                attack = append(attack, state.attack_against(hero, enemy, base_attack))
                defense = append(defense, hero_defense)
                speed = append(speed, state.speed_against(hero, enemy, base_speed))
                damage = append(damage, state.damage_against(hero, enemy, enemy_attack[enemy], hero_defense))
        self.enemy_attack, self.enemy_defense, self.enemy_speed = enemy_attack, enemy_defense, enemy_speed
        self.attack, self.defense, self.speed, self.damage = attack, defense, speed, damage

    def at(self, hero: i64, enemy: i64) -> i64:
        """Where ``hero``'s numbers against ``enemy`` are in ``attack``, ``defense``, ``speed`` and ``damage``."""
        return hero * self.n_enemies + enemy

    def gap(self, hero: i64, enemy: i64) -> i64:
        """The attack ``hero`` lacks to hit ``enemy`` (0 or less: it hits already)."""
        return self.enemy_defense[enemy] - self.attack[self.at(hero, enemy)]


class _RoundCache:
    """The last ``Numbers`` and ``Forecast`` computed, for the state and
    ``combat_version`` they were computed on: after a hero says "done" the
    next hero plans on the same numbers, so they are not computed again."""

    state: PartyState | None
    version: int
    numbers: Numbers | None
    forecast: Forecast | None

    def __init__(self) -> None:
        self.state = None
        self.version = -1
        self.numbers = None
        self.forecast = None


_ROUND: Final = _RoundCache()


def _round_numbers(state: PartyState) -> tuple[Numbers, Forecast]:
    """The round's ``Numbers`` and ``Forecast`` (cached while they hold)."""
    numbers, forecast, version = _ROUND.numbers, _ROUND.forecast, state.numbers[COMBAT_VERSION]
    if _ROUND.state is not state or _ROUND.version != version or numbers is None or forecast is None:
        numbers = Numbers(state)
        forecast = Forecast(numbers)
        _ROUND.state, _ROUND.version, _ROUND.numbers, _ROUND.forecast = state, version, numbers, forecast
    return numbers, forecast


@final
@mypyc_attr(acyclic=True)  # made per choice, points only to the state and numbers: no cycle
class Forecast:
    """The round played out on today's numbers: each hero's damage and
    whether it dies, each enemy's HP after the round and whether it attacks."""

    damage: vec[i64]
    dies: list[bool]
    enemy_hp: vec[i64]
    enemy_attacks: list[bool]

    def __init__(self, numbers: Numbers) -> None:
        state = numbers.state
        n: i64 = state.n_players
        n_enemies = numbers.n_enemies
        hp, damage = vec[i64](capacity=n), vec[i64](capacity=n)
        alive: list[bool] = []
        for hero in range(n):
            hp = append(hp, state.hp(hero))
            damage = append(damage, 0)
            alive.append(state.alive(hero))
        enemy_hp = vec[i64](capacity=n_enemies)
        enemy: i64
        for enemy in range(n_enemies):
            enemy_hp = append(enemy_hp, state.enemy_number(ENEMY_HP, enemy))
        enemy_attacks = [False] * n_enemies
        # The round's attacks in initiative order, as the rules sort them (packed ints, not tuples).
        keys: list[int] = []
        for hero in range(n):
            if alive[hero]:
                for target in numbers.living:
                    keys.append(initiative_key(numbers.speed[numbers.at(hero, target)], 0, hero, target + 1))
        for attacker in numbers.living:
            keys.append(initiative_key(numbers.enemy_speed[attacker], 1, attacker, 0))
        keys.sort()
        living: i64 = len(numbers.living)
        for key in keys:
            if living == 0:
                break
            index: i64 = initiative_attacker(key)
            if not initiative_by_enemy(key):
                enemy = initiative_enemy(key)
                hits = numbers.attack[numbers.at(index, enemy)] >= numbers.enemy_defense[enemy]
                if hits and alive[index] and enemy_hp[enemy] > 0:
                    enemy_hp[enemy] -= 1
                    if enemy_hp[enemy] == 0:
                        living -= 1
            elif enemy_hp[index] > 0:
                enemy_attacks[index] = True
                at = numbers.at(0, index)
                for hero in range(n):
                    if alive[hero]:
                        hurt = numbers.damage[at]
                        damage[hero] += hurt
                        hp[hero] -= hurt
                        if hp[hero] <= 0:
                            alive[hero] = False
                    at += n_enemies
        self.dies = [state.alive(hero) and not alive[hero] for hero in range(n)]
        self.damage, self.enemy_hp, self.enemy_attacks = damage, enemy_hp, enemy_attacks


def _hits_before(numbers: Numbers, enemy: int, seat: int, party_speed: int, own_speed: int, slow: int) -> int:
    """Hits the party lands on ``enemy`` before it attacks, with ``party_speed``
    more for every hero and ``own_speed`` more for ``seat``'s, and the enemy
    slowed by ``slow`` (ties go to the heroes)."""
    state = numbers.state
    enemy_speed = numbers.enemy_speed[enemy] - slow
    defense = numbers.enemy_defense[enemy]
    hits = 0
    for hero in range(state.n_players):
        at = numbers.at(hero, enemy)
        speed = numbers.speed[at] + party_speed + (own_speed if hero == seat else 0)
        if state.alive(hero) and speed >= enemy_speed and numbers.attack[at] >= defense:
            hits += 1
    return hits


# ------------------------------------------------------------ the plan


@mypyc_attr(acyclic=True)  # made per choice, points only to the state and numbers: no cycle
class Option:
    """One planning action decoded once: its ``Impact``, the hero it aims at
    (for a card buried for +1, the hero who gets the +1), the enemy it is
    designated to, and whether it can protect or add attack at all."""

    action: int
    type_code: int  # the code of its action type (PLAY_CARD.code...)
    impact: Impact
    hero: int
    enemy: int
    bury_attack: bool
    protects: bool
    attacks: bool

    def __init__(self, action: int, impact: Impact) -> None:
        self.action = action
        self.type_code = action_code(action)
        self.impact = impact
        self.hero = PLAY_CARD.field(action, 1)  # the same fields in every card action
        self.enemy = PLAY_CARD.field(action, 2)
        self.bury_attack = BURY_FOR_ATTACK.matches(action)
        if impact.bury:  # a burial's +1 protects or adds attack by the stat its answer names
            self.protects, self.attacks = not self.bury_attack, self.bury_attack
        else:
            self.protects, self.attacks = impact.protects, impact.attacks


def _defense_gain(state: PartyState, seat: int, option: Option, hero: int) -> int:
    """Defense ``hero`` gains against the option's enemy from ``seat``'s action."""
    impact, enemy = option.impact, option.enemy
    if impact.bury:
        return 1 if option.hero == hero else 0
    gain = impact.party_defense
    if impact.guard and option.hero == hero:
        gain += impact.guard
    if hero == seat:
        gain += impact.defense * state.round_number(seat, MULTIPLY_DEFENSE, enemy) if impact.basic else impact.defense
        if impact.multiply_defense:
            gain += state.round_number(seat, CARD_DEFENSE, enemy) * (impact.multiply_defense - 1)
    return gain


def _attack_gain(state: PartyState, seat: int, option: Option, hero: int) -> int:
    """Attack ``hero`` gains against the option's enemy (or defense the enemy
    loses) from ``seat``'s action."""
    impact, enemy = option.impact, option.enemy
    if impact.bury:
        return 1 if option.hero == hero else 0
    gain = impact.party_attack + impact.expose
    if hero == seat:
        gain += impact.attack * state.round_number(seat, MULTIPLY_ATTACK, enemy) if impact.basic else impact.attack
        if impact.multiply_attack:
            gain += state.round_number(seat, CARD_ATTACK, enemy) * (impact.multiply_attack - 1)
    return gain


def _lowers_own_defense_safely(numbers: Numbers, forecast: Forecast, seat: int, option: Option) -> bool:
    """A card with ``defense:-1`` is played only if the HP the lower defense
    costs (against its enemy, if that one attacks) leaves the hero alive."""
    impact, enemy = option.impact, option.enemy
    if impact.defense >= 0 or impact.basic:
        return True
    state = numbers.state
    if state.round_number(seat, NEGATED, enemy) or not forecast.enemy_attacks[enemy]:
        return True
    now = numbers.damage[numbers.at(seat, enemy)]
    after = max(0, numbers.enemy_attack[enemy] - numbers.defense[numbers.at(seat, enemy)] - impact.defense)
    return not forecast.dies[seat] and forecast.damage[seat] + after - now < state.hp(seat)


def plan_action(state: PartyState, seat: int, legal: list[int]) -> int:
    """The party plan's next action for ``seat`` (see the module docstring)."""
    # Legal actions come grouped by card (action type and index); every card but
    # one buried for +1 is an option, and of the cards that can be buried
    # only the least valuable one (the +1 is the same).
    options: list[Option] = []
    table = _impact_table(state.config)
    hand = state.hand(seat)
    bury_position, bury_cost = -1, 1e9
    last_buried = -1
    key, impact = -1, Impact((), False, 0.0)
    for action in legal:
        if action == DONE:
            continue
        if action_code(action) in (BURY_DEFENSE_CODE, BURY_ATTACK_CODE):  # is_burial, per answer
            # A burial's cost is its card's: weighed once per card, not once per hero and stat.
            position = PLAY_CARD.value(action)
            if position != last_buried:
                last_buried = position
                cost = table.bury[hand[position]].cost
                if cost < bury_cost:
                    bury_position, bury_cost = position, cost
            continue
        if action >> CARD_SHIFT != key:
            key = action >> CARD_SHIFT
            impact = _impact(state, seat, action)
        options.append(Option(action, impact))
    if bury_position >= 0:
        # The burials of that card (both stats, every hero and enemy) share one Impact; found by
        # the action type and card an answer's high bits hold, not by decoding each answer.
        defense_key = BURY_FOR_DEFENSE.encode(bury_position) >> CARD_SHIFT
        attack_key = BURY_FOR_ATTACK.encode(bury_position) >> CARD_SHIFT
        bury_impact = table.bury[hand[bury_position]]
        for action in legal:
            if action >> CARD_SHIFT in (defense_key, attack_key):
                options.append(Option(action, bury_impact))
    if not options:
        return DONE
    chosen = _build_up(state, options)
    if chosen != DONE:
        return chosen
    numbers, forecast = _round_numbers(state)
    safe = [option for option in options if _lowers_own_defense_safely(numbers, forecast, seat, option)]
    protecting = [option for option in safe if option.protects]
    attacking = [option for option in safe if option.attacks]
    chosen = _save_the_dying(numbers, seat, protecting, forecast)
    if chosen == DONE:
        chosen = _direct_damage(state, protecting)
    if chosen == DONE:
        chosen = _hits(numbers, seat, attacking, forecast)
    if chosen == DONE:
        chosen = _initiative(numbers, seat, protecting, forecast)
    if chosen == DONE:
        chosen = _heavy_damage(numbers, seat, protecting, forecast)
    if chosen == DONE:
        chosen = _top_up(state, seat, protecting)
    return chosen


def _build_up(state: PartyState, options: list[Option]) -> int:
    """A once-per-combat draw card, a minion into play, a resurrection."""
    best, best_cost = DONE, 1e9
    for option in options:
        impact = option.impact
        if option.type_code == PLAY_CARD.code and (impact.draw > 0 or impact.minion):
            return option.action
        if impact.resurrect > 0 and not state.alive(option.hero) and impact.cost < best_cost:
            best, best_cost = option.action, impact.cost
    return best


def _damage_cut(numbers: Numbers, seat: int, option: Option, hero: int, forecast: Forecast) -> tuple[int, int]:
    """(damage ``hero`` no longer takes, HP it gains) if ``seat`` takes the option."""
    state = numbers.state
    impact, enemy = option.impact, option.enemy
    if impact.bury:
        if option.hero != hero or not forecast.enemy_attacks[enemy] or numbers.damage[numbers.at(hero, enemy)] == 0:
            return 0, 0
        return 1, 0
    heal = impact.party_heal + (impact.heal if option.hero == hero else 0) + (impact.heal_self if seat == hero else 0)
    if not forecast.enemy_attacks[enemy]:
        return 0, heal
    now = numbers.damage[numbers.at(hero, enemy)]
    if now == 0:
        return 0, heal
    if impact.negate and option.hero == hero:
        return now, heal
    enemy_hp = state.enemy_number(ENEMY_HP, enemy)
    if impact.damage > 0 and (impact.damage >= enemy_hp
                              or _hits_before(numbers, enemy, seat, 0, 0, 0) >= enemy_hp - impact.damage):
        return now, heal  # killed in planning, or by the hits before its initiative: it never attacks
    if (impact.speed or impact.party_speed or impact.slow) \
            and _hits_before(numbers, enemy, seat, impact.party_speed, impact.speed, impact.slow) >= enemy_hp:
        return now, heal
    gained = _defense_gain(state, seat, option, hero)
    after = max(0, numbers.enemy_attack[enemy] - impact.weaken - numbers.defense[numbers.at(hero, enemy)] - gained)
    return now - after, heal


def _save_the_dying(numbers: Numbers, seat: int, options: list[Option], forecast: Forecast) -> int:
    """For each hero the forecast kills (the most urgent first), the cheapest
    action that saves it, else the one that cuts most of its damage."""
    state = numbers.state
    # (HP left after the round, hero), sorted as tuples: no key lambda (a closure per call).
    dying = [(state.hp(hero) - forecast.damage[hero], hero) for hero in range(state.n_players) if forecast.dies[hero]]
    dying.sort()
    for _, hero in dying:
        best, best_cost = DONE, 1e9
        fallback, fallback_cut = DONE, 0
        for option in options:
            cut, heal = _damage_cut(numbers, seat, option, hero, forecast)
            if cut <= 0 and heal <= 0:
                continue
            if forecast.damage[hero] - cut < state.hp(hero) + heal:
                if option.impact.cost < best_cost:
                    best, best_cost = option.action, option.impact.cost
            elif cut + heal > fallback_cut and option.type_code != SACRIFICE.code:
                fallback, fallback_cut = option.action, cut + heal
        if best == DONE and hero == seat:
            best = _defense_card_for_multiplier(numbers, seat, options, forecast.damage[hero])
        if best != DONE:
            return best
        if fallback != DONE:
            return fallback
    return DONE


def _defense_card_for_multiplier(numbers: Numbers, seat: int, options: list[Option], damage: int) -> int:
    """A Defense card that, doubled or tripled by a multiplier in hand, saves
    the hero (one enemy): play the Defense card first, the multiplier next."""
    state = numbers.state
    living = numbers.living
    if len(living) != 1:
        return DONE
    enemy = living[0]
    factor = max((option.impact.multiply_defense for option in options), default=0)
    if factor == 0:
        return DONE
    played = state.round_number(seat, CARD_DEFENSE, enemy)
    by_cost = [(option.impact.cost, option.action, index) for index, option in enumerate(options)]
    by_cost.sort()  # tuples, not a key lambda: (cost, answer) is unique per option
    for _, _, index in by_cost:
        option = options[index]
        impact = option.impact
        if option.type_code == PLAY_CARD.code and impact.basic and impact.defense > 0:
            gained = (played + impact.defense) * factor - played
            if damage - min(gained, numbers.damage[numbers.at(seat, enemy)]) < state.hp(seat):
                return option.action
    return DONE


def _direct_damage(state: PartyState, options: list[Option]) -> int:
    """Direct damage (cards and items; a sacrifice only for a kill) on the
    enemy it kills, else on the enemy with the least HP."""
    best, best_key = DONE, (2, 0, 0.0)
    for option in options:
        impact = option.impact
        if impact.damage <= 0:
            continue
        enemy_hp = state.enemy_number(ENEMY_HP, option.enemy)
        kills = impact.damage >= enemy_hp
        if option.type_code == SACRIFICE.code and not kills:
            continue
        key = (0 if kills else 1, enemy_hp, impact.cost)
        if key < best_key:
            best, best_key = option.action, key
    return best


def _hits(numbers: Numbers, seat: int, options: list[Option], forecast: Forecast) -> int:
    """The action that gains the party the most hits this round per cost (a
    sacrifice only when those hits kill the enemy this round); if this hero
    cannot hit an enemy and no single action closes the gap, the first of the
    cheapest two that do (an Attack card before the multiplier that doubles
    it); nothing if two cannot."""
    state = numbers.state
    living = numbers.living
    if not living or not options:
        return DONE
    heroes = [hero for hero in range(state.n_players) if state.alive(hero)]
    best, best_value = DONE, 0.0
    for option in options:
        impact, enemy = option.impact, option.enemy
        if impact.bury:
            gained = 1 if state.alive(option.hero) and numbers.gap(option.hero, enemy) == 1 else 0
        else:
            gained = 0
            for hero in heroes:
                gap = numbers.gap(hero, enemy)
                if gap > 0 and _attack_gain(state, seat, option, hero) >= gap:
                    gained += 1
        if gained == 0 or (option.type_code == SACRIFICE.code and forecast.enemy_hp[enemy] > gained):
            continue
        value = gained / (impact.cost + 0.5)
        if value > best_value:
            best, best_value = option.action, value
    if best != DONE:
        return best
    # Two actions for this hero's own gap against the weakest enemy it misses.
    weakest_first = [(state.enemy_number(ENEMY_HP, enemy), enemy) for enemy in living]
    weakest_first.sort()  # tuples, not a key lambda (a closure at every call)
    for _, enemy in weakest_first:
        gap = numbers.gap(seat, enemy)
        if gap <= 0:
            continue
        useful: list[tuple[int, int, Impact]] = []
        for option in options:
            if option.type_code == SACRIFICE.code or option.enemy != enemy:
                continue
            gain = _attack_gain(state, seat, option, seat)
            if gain > 0 or option.impact.multiply_attack:
                useful.append((option.action, gain, option.impact))
        first = _first_of_two(state.round_number(seat, CARD_ATTACK, enemy), useful, gap)
        if first != DONE:
            return first
    return DONE


def _first_of_two(played: int, useful: list[tuple[int, int, Impact]], gap: int) -> int:
    """Of the cheapest two actions on different cards that together close
    ``gap`` (an Attack card and a multiplier count as the card's number
    times the factor; ``played``: the Attack card numbers already in play),
    the one to take first: the non-multiplier. DONE if no two do."""
    best, best_cost = DONE, 1e9
    for i, (first, first_gain, first_impact) in enumerate(useful):
        for second, second_gain, second_impact in useful[i + 1:]:
            if _on_hand_card(first) and _on_hand_card(second) and PLAY_CARD.value(first) == PLAY_CARD.value(second):
                continue  # the same hand card
            lead, lead_impact = (second, second_impact) if first_impact.multiply_attack else (first, first_impact)
            other_impact = first_impact if lead == second else second_impact
            if other_impact.multiply_attack and lead_impact.basic and lead_impact.attack > 0:
                total = (played + lead_impact.attack) * other_impact.multiply_attack - played
            else:
                total = first_gain + second_gain
            cost = first_impact.cost + second_impact.cost
            if total >= gap and cost < best_cost:
                best, best_cost = lead, cost
    return best


def _on_hand_card(action: int) -> bool:
    """Whether ``action`` plays or buries a hand card."""
    return PLAY_CARD.matches(action) or is_burial(action)


def _initiative(numbers: Numbers, seat: int, options: list[Option], forecast: Forecast) -> int:
    """Speed or slow that lets the party's hits kill an enemy before it
    attacks (when it would otherwise hurt someone)."""
    state = numbers.state
    best, best_cost = DONE, 1e9
    for option in options:
        impact, enemy = option.impact, option.enemy
        if not (impact.speed or impact.party_speed or impact.slow) or option.type_code == SACRIFICE.code:
            continue
        if not forecast.enemy_attacks[enemy]:
            continue
        if not any(state.alive(hero) and numbers.damage[numbers.at(hero, enemy)] > 0
                   for hero in range(state.n_players)):
            continue
        if _hits_before(numbers, enemy, seat, impact.party_speed, impact.speed, impact.slow) \
                >= state.enemy_number(ENEMY_HP, enemy) > _hits_before(numbers, enemy, seat, 0, 0, 0) \
                and impact.cost < best_cost:
            best, best_cost = option.action, impact.cost
    return best


def _heavy_damage(numbers: Numbers, seat: int, options: list[Option], forecast: Forecast) -> int:
    """The cheapest action that halves a heavy hit: damage of at least half
    the hero's HP (in a boss fight, any damage; its cards come back anyway)."""
    state = numbers.state
    boss_fight = any(state.enemy_number(ENEMY_KIND, enemy) == ENEMY_BOSS for enemy in range(state.enemy_count()))
    for hero in range(state.n_players):
        damage = forecast.damage[hero]
        if not state.alive(hero) or damage == 0 or (not boss_fight and 2 * damage < state.hp(hero)):
            continue
        best, best_cost = DONE, 1e9
        for option in options:
            if option.type_code == SACRIFICE.code or option.impact.cost >= best_cost:
                continue
            cut, _ = _damage_cut(numbers, seat, option, hero, forecast)
            if 2 * cut >= damage:
                best, best_cost = option.action, option.impact.cost
        if best != DONE:
            return best
    return DONE


def _top_up(state: PartyState, seat: int, options: list[Option]) -> int:
    """Heal a hero under 40% HP, or two or more wounded heroes at once (the
    hero itself when alone)."""
    for option in options:
        impact = option.impact
        if option.type_code == SACRIFICE.code:
            continue
        hero = option.hero
        if impact.heal and state.alive(hero) and state.hp(hero) < LOW_HP_SHARE * state.max_hp(hero):
            return option.action
        if impact.heal_self and state.hp(seat) < LOW_HP_SHARE * state.max_hp(seat):
            return option.action
        if impact.party_heal:
            living = sum(1 for other in range(state.n_players) if state.alive(other))
            wounded = sum(1 for other in range(state.n_players)
                          if state.alive(other) and state.max_hp(other) - state.hp(other) >= impact.party_heal)
            if wounded >= min(2, living):
                return option.action
    return DONE
