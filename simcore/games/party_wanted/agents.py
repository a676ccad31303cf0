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
    ATTACK_SLOT,
    BURY,
    BURY_BONUS,
    DONE,
    ENEMY_BOSS,
    ITEMS,
    ORDER,
    PLAN,
    PLAY,
    REMOVE,
    SACRIFICE,
    SLOTS,
    SOCIAL,
    USE,
    VOTE,
    PartyState,
)
from simcore.rng import Generator

# Worth of one point of each primitive when choosing what to keep, add or spend.
_WORTH = {
    P_ATTACK: 1.0, P_DEFENSE: 1.0, P_PARTY_ATTACK: 2.5, P_PARTY_DEFENSE: 2.5, P_GUARD: 1.0, P_NEGATE: 3.0,
    P_DAMAGE: 3.0, P_EXPOSE: 1.2, P_WEAKEN: 1.5, P_HEAL: 0.6, P_HEAL_SELF: 0.6, P_PARTY_HEAL: 1.5,
    P_RESURRECT: 0.8, P_DRAW: 1.5, P_MULTIPLY_ATTACK: 1.5, P_MULTIPLY_DEFENSE: 1.5, P_SPEED: 0.4,
    P_PARTY_SPEED: 0.8, P_SLOW: 0.5, P_PERM_ATTACK: 2.5, P_PERM_DEFENSE: 2.5, P_PERM_SPEED: 1.0, P_PERM_HP: 1.0,
}
LOW_HP_SHARE = 0.4
# The cost of giving up armor or a weapon for its sacrifice effect.
SACRIFICE_COST = 6.0
# Items are worth a little more than their effects: they never come back.
ITEM_SURCHARGE = 1.0


def card_worth(config: PartyConfig, card: int) -> float:
    """How much a card is worth keeping (sum of its effects' worth)."""
    return _worths(config)[card]


class _WorthTable:
    """Every card's worth for the last configuration seen (kept by reference,
    so a new configuration is always recomputed)."""

    config: PartyConfig | None
    worths: tuple[float, ...]

    def __init__(self) -> None:
        self.config = None
        self.worths = ()


_TABLE = _WorthTable()


def _worths(config: PartyConfig) -> tuple[float, ...]:
    """Every card's worth, computed once per configuration."""
    if _TABLE.config is not config:
        _TABLE.worths = tuple(
            sum(_WORTH.get(primitive, 0.5) * max(amount, 1) for primitive, amount in effects)
            for effects in config.effects
        )
        _TABLE.config = config
    return _TABLE.worths


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


def _impact(state: PartyState, seat: int, verb: int, index: int) -> Impact:
    """The ``Impact`` of the card, item or sacrifice behind a planning action."""
    config = state.config
    if verb == PLAY:
        card = state.hands[seat][index]
        kind = config.kinds[card]
        impact = Impact(config.effects[card] if kind != MINION else (), kind in (ATTACK, DEFENSE),
                        card_worth(config, card))
        impact.minion = kind == MINION
        return impact
    if verb == BURY_BONUS:
        impact = Impact((), False, card_worth(config, state.hands[seat][index]))
        impact.bury = True
        return impact
    if verb == USE:
        card = state.items[seat][index]
        return Impact(config.effects[card], False, card_worth(config, card) + ITEM_SURCHARGE)
    card = state._sacrificeable(seat, index)
    cost = SACRIFICE_COST if config.kinds[card] != MINION else card_worth(config, card) + ITEM_SURCHARGE
    return Impact(config.sacrifices[card], False, cost)


class PartyHeuristicAgent(Agent):
    """The shared party plan above; deterministic, ignores its generator."""

    def __init__(self, seat: int, rng: Generator) -> None:
        self.name = "heuristic"
        self.seat = seat

    def choose(self, state: GameState, legal_actions: Sequence[int]) -> int:
        """Pick the action the plan prescribes for the current phase."""
        assert isinstance(state, PartyState)
        phase = state.phase
        seat = state.current_player
        if phase == PLAN:
            return plan_action(state, seat, legal_actions)
        if phase in (BURY, REMOVE):
            hand = state.hands[seat]
            return min(legal_actions, key=lambda position: (card_worth(state.config, hand[position]), position))
        if phase == ADD:
            return max(legal_actions, key=lambda card: (card_worth(state.config, card), -card))
        if phase == ORDER:
            return min(legal_actions, key=lambda index: (_order_rank(state, state.pending_items[index]), index))
        if phase == VOTE:
            return min(legal_actions, key=lambda hero: (state.hp[hero] / state.max_hp(hero), hero))
        if phase == SOCIAL:
            return 1 if _takes_part(state, seat) else 0
        if phase == ITEMS:
            return _item_before_damage(state, seat, legal_actions)
        return legal_actions[0]


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
    card = state.social_card
    cost = sum(amount for primitive, amount in state.config.socials[card] if primitive == P_DAMAGE_SELF)
    return cost == 0 or 2 * (state.hp[seat] - cost) >= state.max_hp(seat)


def _item_before_damage(state: PartyState, seat: int, legal: Sequence[int]) -> int:
    """Before damage outside combat: an item that keeps a hero alive (negate
    or heal on a hero the damage kills; a resurrection that survives it)."""
    victim, amount, party = state.pending_outside_damage()
    hit = [party or hero == victim for hero in range(state.n_players)]
    best, best_cost = DONE, 1e9
    for action in legal:
        if action == DONE:
            continue
        index, hero = action >> 8 & 0xFF, (action & 0xFF) // SLOTS
        impact = _impact(state, seat, USE, index)
        dies = state.alive[hero] and hit[hero] and state.hp[hero] <= amount
        saves = (dies and (impact.negate or state.hp[hero] + impact.heal + impact.party_heal > amount)) or (
            not state.alive[hero] and impact.resurrect > (amount if hit[hero] else 0))
        if saves and impact.cost < best_cost:
            best, best_cost = action, impact.cost
    return best


# --------------------------------------------------------------- forecast


class Numbers:
    """The round's numbers as they stand, read once per decision: each hero's
    attack, defense and speed against each enemy and the damage each enemy
    does to it; each enemy's attack, defense, speed and HP."""

    state: PartyState
    living: list[int]
    attack: list[list[int]]
    defense: list[list[int]]
    speed: list[list[int]]
    damage: list[list[int]]
    enemy_attack: list[int]
    enemy_defense: list[int]
    enemy_speed: list[int]
    no_speed: list[int]

    def __init__(self, state: PartyState) -> None:
        self.state = state
        self.living = state.living_enemies()
        enemies = range(len(state.enemies))
        self.enemy_attack = [state.enemy_attack(e) for e in enemies]
        self.enemy_defense = [state.enemy_defense(e) for e in enemies]
        self.enemy_speed = [state.enemy_speed(e) for e in enemies]
        heroes = range(state.n_players)
        self.attack = [[state.hero_attack(hero, e) for e in enemies] for hero in heroes]
        self.defense = [[state.hero_defense(hero, e) for e in enemies] for hero in heroes]
        self.speed = [[state.hero_speed(hero, e) for e in enemies] for hero in heroes]
        self.damage = [[state.damage_from(hero, e) for e in enemies] for hero in heroes]
        self.no_speed = [0] * state.n_players


class Forecast:
    """The round played out on today's numbers: each hero's damage and
    whether it dies, each enemy's HP after the round and whether it attacks."""

    damage: list[int]
    dies: list[bool]
    enemy_hp: list[int]
    enemy_attacks: list[bool]

    def __init__(self, numbers: Numbers) -> None:
        state = numbers.state
        n = state.n_players
        hp = list(state.hp)
        alive = list(state.alive)
        enemy_hp = list(state.enemy_hp)
        self.damage = [0] * n
        self.enemy_attacks = [False] * len(enemy_hp)
        order: list[tuple[int, int, int, int]] = []
        for hero in range(n):
            if alive[hero]:
                for enemy in numbers.living:
                    order.append((-numbers.speed[hero][enemy], 0, hero, enemy))
        for enemy in numbers.living:
            order.append((-numbers.enemy_speed[enemy], 1, enemy, -1))
        order.sort()
        living = len(numbers.living)
        for _, is_enemy, index, enemy in order:
            if living == 0:
                break
            if not is_enemy:
                hits = numbers.attack[index][enemy] >= numbers.enemy_defense[enemy]
                if hits and alive[index] and enemy_hp[enemy] > 0:
                    enemy_hp[enemy] -= 1
                    if enemy_hp[enemy] == 0:
                        living -= 1
            elif enemy_hp[index] > 0:
                self.enemy_attacks[index] = True
                for hero in range(n):
                    if alive[hero]:
                        hurt = numbers.damage[hero][index]
                        self.damage[hero] += hurt
                        hp[hero] -= hurt
                        if hp[hero] <= 0:
                            alive[hero] = False
        self.dies = [state.alive[hero] and not alive[hero] for hero in range(n)]
        self.enemy_hp = enemy_hp


def _hits_before(numbers: Numbers, enemy: int, speed_bonus: list[int], slow: int) -> int:
    """Hits the party lands on ``enemy`` before it attacks, with extra speed
    per hero and the enemy slowed by ``slow`` (ties go to the heroes)."""
    state = numbers.state
    enemy_speed = numbers.enemy_speed[enemy] - slow
    defense = numbers.enemy_defense[enemy]
    hits = 0
    for hero in range(state.n_players):
        if state.alive[hero] and numbers.speed[hero][enemy] + speed_bonus[hero] >= enemy_speed \
                and numbers.attack[hero][enemy] >= defense:
            hits += 1
    return hits


# ------------------------------------------------------------ the plan


def _enemy_of(action: int, living: list[int]) -> int:
    """The enemy a planning action is designated to (for a card buried for +1, the enemy of its bonus)."""
    slot = (action & 0xFF) % SLOTS
    if action >> 16 == BURY_BONUS:
        return slot % ATTACK_SLOT
    return slot if slot in living else living[0]


def _defense_gain(state: PartyState, seat: int, impact: Impact, action: int, hero: int, enemy: int) -> int:
    """Defense ``hero`` gains against ``enemy`` from ``seat``'s action (designated to ``enemy``)."""
    if impact.bury:
        slot = (action & 0xFF) % SLOTS
        return 1 if (action & 0xFF) // SLOTS == hero and slot == enemy else 0
    gain = impact.party_defense
    if impact.guard and (action & 0xFF) // SLOTS == hero:
        gain += impact.guard
    if hero == seat:
        gain += impact.defense * state.multiply_defense[seat][enemy] if impact.basic else impact.defense
        if impact.multiply_defense:
            gain += state.card_defense[seat][enemy] * (impact.multiply_defense - 1)
    return gain


def _attack_gain(state: PartyState, seat: int, impact: Impact, action: int, hero: int, enemy: int) -> int:
    """Attack ``hero`` gains against ``enemy`` (or defense the enemy loses)
    from ``seat``'s action (designated to ``enemy``)."""
    if impact.bury:
        target = action & 0xFF
        return 1 if target // SLOTS == hero and target % SLOTS == ATTACK_SLOT + enemy else 0
    gain = impact.party_attack + impact.expose
    if hero == seat:
        gain += impact.attack * state.multiply_attack[seat][enemy] if impact.basic else impact.attack
        if impact.multiply_attack:
            gain += state.card_attack[seat][enemy] * (impact.multiply_attack - 1)
    return gain


def _lowers_own_defense_safely(numbers: Numbers, seat: int, impact: Impact, enemy: int) -> bool:
    """A card with ``defense:-1`` is safe only if the lower defense costs the
    hero no HP against that enemy."""
    if impact.defense >= 0 or impact.basic:
        return True
    if numbers.state.negated[seat][enemy]:
        return True
    return numbers.enemy_attack[enemy] <= numbers.defense[seat][enemy] + impact.defense


def plan_action(state: PartyState, seat: int, legal: Sequence[int]) -> int:
    """The party plan's next action for ``seat`` (see the module docstring)."""
    options = [action for action in legal if action != DONE]
    if not options:
        return DONE
    # One Impact per card (verb and index), shared by all its targets.
    impacts: dict[int, Impact] = {}
    for action in options:
        key = action >> 8
        if key not in impacts:
            impacts[key] = _impact(state, seat, key >> 8, key & 0xFF)
    chosen = _build_up(state, options, impacts)
    if chosen != DONE:
        return chosen
    numbers = Numbers(state)
    living = numbers.living
    safe = [action for action in options
            if _lowers_own_defense_safely(numbers, seat, impacts[action >> 8], _enemy_of(action, living))]
    forecast = Forecast(numbers)
    chosen = _save_the_dying(numbers, seat, safe, impacts, forecast)
    if chosen == DONE:
        chosen = _direct_damage(state, safe, impacts, living)
    if chosen == DONE:
        chosen = _hits(numbers, seat, safe, impacts)
    if chosen == DONE:
        chosen = _initiative(numbers, seat, safe, impacts, forecast)
    if chosen == DONE:
        chosen = _heavy_damage(numbers, seat, safe, impacts, forecast)
    if chosen == DONE:
        chosen = _top_up(state, seat, safe, impacts)
    return chosen


def _build_up(state: PartyState, options: list[int], impacts: dict[int, Impact]) -> int:
    """A once-per-combat draw card, a minion into play, a resurrection."""
    best, best_cost = DONE, 1e9
    for action in options:
        impact = impacts[action >> 8]
        if action >> 16 == PLAY and (impact.draw > 0 or impact.minion):
            return action
        if impact.resurrect > 0 and not state.alive[(action & 0xFF) // SLOTS] and impact.cost < best_cost:
            best, best_cost = action, impact.cost
    return best


def _damage_cut(numbers: Numbers, seat: int, impact: Impact, action: int, hero: int,
                forecast: Forecast) -> tuple[int, int]:
    """(damage ``hero`` no longer takes, HP it gains) if ``seat`` takes ``action``."""
    state = numbers.state
    target = (action & 0xFF) // SLOTS
    heal = impact.party_heal + (impact.heal if target == hero else 0) + (impact.heal_self if seat == hero else 0)
    enemy = _enemy_of(action, numbers.living)
    if not forecast.enemy_attacks[enemy]:
        return 0, heal
    now = numbers.damage[hero][enemy]
    if now == 0:
        return 0, heal
    if impact.negate and target == hero:
        return now, heal
    enemy_hp = state.enemy_hp[enemy]
    if impact.damage > 0 and (impact.damage >= enemy_hp
                              or _hits_before(numbers, enemy, numbers.no_speed, 0) >= enemy_hp - impact.damage):
        return now, heal  # killed in planning, or by the hits before its initiative: it never attacks
    if impact.speed or impact.party_speed or impact.slow:
        bonus = [impact.party_speed + (impact.speed if other == seat else 0) for other in range(state.n_players)]
        if _hits_before(numbers, enemy, bonus, impact.slow) >= enemy_hp:
            return now, heal
    gained = _defense_gain(state, seat, impact, action, hero, enemy)
    after = max(0, numbers.enemy_attack[enemy] - impact.weaken - numbers.defense[hero][enemy] - gained)
    return now - after, heal


def _save_the_dying(numbers: Numbers, seat: int, options: list[int], impacts: dict[int, Impact],
                    forecast: Forecast) -> int:
    """For each hero the forecast kills (the most urgent first), the cheapest
    action that saves it, else the one that cuts most of its damage."""
    state = numbers.state
    dying = [hero for hero in range(state.n_players) if forecast.dies[hero]]
    dying.sort(key=lambda hero: (state.hp[hero] - forecast.damage[hero], hero))
    for hero in dying:
        best, best_cost = DONE, 1e9
        fallback, fallback_cut = DONE, 0
        for action in options:
            impact = impacts[action >> 8]
            cut, heal = _damage_cut(numbers, seat, impact, action, hero, forecast)
            if cut <= 0 and heal <= 0:
                continue
            if forecast.damage[hero] - cut < state.hp[hero] + heal:
                if impact.cost < best_cost:
                    best, best_cost = action, impact.cost
            elif cut + heal > fallback_cut and action >> 16 != SACRIFICE:
                fallback, fallback_cut = action, cut + heal
        if best != DONE:
            return best
        if fallback != DONE:
            return fallback
    return DONE


def _direct_damage(state: PartyState, options: list[int], impacts: dict[int, Impact], living: list[int]) -> int:
    """Direct damage (cards and items; a sacrifice only for a kill) on the
    enemy it kills, else on the enemy with the least HP."""
    best, best_key = DONE, (2, 0, 0.0)
    for action in options:
        impact = impacts[action >> 8]
        if impact.damage <= 0:
            continue
        enemy = _enemy_of(action, living)
        kills = impact.damage >= state.enemy_hp[enemy]
        if action >> 16 == SACRIFICE and not kills:
            continue
        key = (0 if kills else 1, state.enemy_hp[enemy], impact.cost)
        if key < best_key:
            best, best_key = action, key
    return best


def _hits(numbers: Numbers, seat: int, options: list[int], impacts: dict[int, Impact]) -> int:
    """The action that gains the party the most hits this round per cost;
    if this hero cannot hit an enemy and no single action closes the gap,
    the bigger of two that do; nothing if two cannot."""
    state = numbers.state
    living = numbers.living
    heroes = [hero for hero in range(state.n_players) if state.alive[hero]]
    best, best_value = DONE, 0.0
    for action in options:
        impact = impacts[action >> 8]
        if impact.attack <= 0 and impact.party_attack <= 0 and impact.expose <= 0 and not impact.multiply_attack \
                and not impact.bury:
            continue
        enemy = _enemy_of(action, living)
        defense = numbers.enemy_defense[enemy]
        gained = 0
        for hero in heroes:
            now = numbers.attack[hero][enemy]
            if now < defense <= now + _attack_gain(state, seat, impact, action, hero, enemy):
                gained += 1
        if gained == 0:
            continue
        cost = impact.cost + (SACRIFICE_COST if action >> 16 == SACRIFICE else 0.0)
        value = gained / (cost + 0.5)
        if value > best_value:
            best, best_value = action, value
    if best != DONE:
        return best
    # Two actions for this hero's own gap against the weakest enemy it misses.
    for enemy in sorted(living, key=lambda e: (state.enemy_hp[e], e)):
        gap = numbers.enemy_defense[enemy] - numbers.attack[seat][enemy]
        if gap <= 0:
            continue
        useful = []
        for action in options:
            if action >> 16 == SACRIFICE or _enemy_of(action, living) != enemy:
                continue
            gain = _attack_gain(state, seat, impacts[action >> 8], action, seat, enemy)
            if gain > 0:
                useful.append((action, gain))
        useful.sort(key=lambda pair: (-pair[1], impacts[pair[0] >> 8].cost, pair[0]))
        if _two_close(useful, gap):
            return useful[0][0]
    return DONE


def _two_close(useful: list[tuple[int, int]], gap: int) -> bool:
    """Whether the two biggest gains, from different cards, close the gap."""
    if not useful:
        return False
    first_action, first_gain = useful[0]
    first_card = first_action >> 8 & 0xFF if first_action >> 16 in (PLAY, BURY_BONUS) else -1
    for action, gain in useful[1:]:
        card = action >> 8 & 0xFF if action >> 16 in (PLAY, BURY_BONUS) else -2
        if card != first_card:
            return first_gain + gain >= gap
    return False


def _initiative(numbers: Numbers, seat: int, options: list[int], impacts: dict[int, Impact],
                forecast: Forecast) -> int:
    """Speed or slow that lets the party's hits kill an enemy before it
    attacks (when it would otherwise hurt someone)."""
    state = numbers.state
    best, best_cost = DONE, 1e9
    for action in options:
        impact = impacts[action >> 8]
        if not (impact.speed or impact.party_speed or impact.slow) or action >> 16 == SACRIFICE:
            continue
        enemy = _enemy_of(action, numbers.living)
        if not forecast.enemy_attacks[enemy]:
            continue
        if not any(state.alive[hero] and numbers.damage[hero][enemy] > 0 for hero in range(state.n_players)):
            continue
        bonus = [impact.party_speed + (impact.speed if hero == seat else 0) for hero in range(state.n_players)]
        if _hits_before(numbers, enemy, bonus, impact.slow) >= state.enemy_hp[enemy] > \
                _hits_before(numbers, enemy, numbers.no_speed, 0) and impact.cost < best_cost:
            best, best_cost = action, impact.cost
    return best


def _heavy_damage(numbers: Numbers, seat: int, options: list[int], impacts: dict[int, Impact],
                  forecast: Forecast) -> int:
    """The cheapest action that halves a heavy hit: damage of at least half
    the hero's HP (in a boss fight, any damage; its cards come back anyway)."""
    state = numbers.state
    boss_fight = ENEMY_BOSS in state.enemy_kinds
    for hero in range(state.n_players):
        damage = forecast.damage[hero]
        if not state.alive[hero] or damage == 0 or (not boss_fight and 2 * damage < state.hp[hero]):
            continue
        best, best_cost = DONE, 1e9
        for action in options:
            if action >> 16 == SACRIFICE:
                continue
            impact = impacts[action >> 8]
            cut, _ = _damage_cut(numbers, seat, impact, action, hero, forecast)
            if 2 * cut >= damage and impact.cost < best_cost:
                best, best_cost = action, impact.cost
        if best != DONE:
            return best
    return DONE


def _top_up(state: PartyState, seat: int, options: list[int], impacts: dict[int, Impact]) -> int:
    """Heal a hero under 40% HP, or two or more wounded heroes at once."""
    for action in options:
        if action >> 16 == SACRIFICE:
            continue
        impact = impacts[action >> 8]
        target = (action & 0xFF) // SLOTS
        if impact.heal and state.alive[target] and state.hp[target] < LOW_HP_SHARE * state.max_hp(target):
            return action
        if impact.heal_self and state.hp[seat] < LOW_HP_SHARE * state.max_hp(seat):
            return action
        if impact.party_heal:
            wounded = sum(1 for hero in range(state.n_players)
                          if state.alive[hero] and state.max_hp(hero) - state.hp[hero] >= impact.party_heal)
            if wounded >= 2:
                return action
    return DONE
