"""The Party Wanted heuristic: one shared party plan (hands are open).

Every seat runs the same deterministic rules on the same open table, so the
heroes act as one party. In combat planning (documented in RULES.md):

1. **Refill and revive:** play a once-per-combat draw card; resurrect a dead hero.
2. **Protect the hero in danger:** a hero whose incoming damage this round
   (every living enemy's attack above its defense) would kill it gets the
   cheapest single action that saves it (negate, heal, defense, guard,
   weaken, or burying a card for +1 defense); if no single action saves it,
   the action that cuts the most damage.
3. **Kill with as few cards as possible:** direct damage goes to the weakest
   enemy; otherwise, for the enemy with the least HP that this hero cannot
   hit yet, the cheapest single action that closes the gap to its defense;
   if two actions are needed, the bigger one first; a gap that two actions
   cannot close is left alone (no cards wasted).
4. **Top up:** a hero under 40% HP is healed by a heal card if one is at hand.
5. Otherwise done.

Outside combat: bury and remove the least valuable card, add the most
valuable one, resolve permanents first and fights last, vote the Ultimate to
the hero in most trouble (lowest HP share), reveal the first face-down land
(they are face down: there is nothing to choose between).
"""

from __future__ import annotations

from collections.abc import Sequence

from simcore.api import Agent, GameState
from simcore.games.party_wanted.config import (
    ATTACK,
    DEFENSE,
    INSTANT,
    P_ATTACK,
    P_DAMAGE,
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
    P_RESURRECT,
    P_WEAKEN,
    PERMANENT,
    Effects,
    PartyConfig,
)
from simcore.games.party_wanted.rules import (
    ADD,
    BURY,
    BURY_BONUS,
    DONE,
    ORDER,
    PLAN,
    PLAY,
    REMOVE,
    SLOTS,
    USE,
    VOTE,
    PartyState,
)
from simcore.rng import Generator

# Worth of one point of each primitive when choosing what to keep or add.
_WORTH = {
    P_ATTACK: 1.0, P_DEFENSE: 1.0, P_PARTY_ATTACK: 2.5, P_PARTY_DEFENSE: 2.5, P_GUARD: 1.0, P_NEGATE: 3.0,
    P_DAMAGE: 3.0, P_EXPOSE: 1.2, P_WEAKEN: 1.5, P_HEAL: 0.6, P_HEAL_SELF: 0.6, P_PARTY_HEAL: 1.5,
    P_RESURRECT: 0.8, P_DRAW: 1.5, P_MULTIPLY_ATTACK: 1.5, P_MULTIPLY_DEFENSE: 1.5,
}
LOW_HP_SHARE = 0.4


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


class PartyHeuristicAgent(Agent):
    """The shared party plan above; deterministic, ignores its generator."""

    def __init__(self, seat: int, rng: Generator) -> None:
        self.name = "heuristic"
        self.seat = seat

    def choose(self, state: GameState, legal_actions: Sequence[int]) -> int:
        """Pick the action the plan prescribes for the current phase."""
        assert isinstance(state, PartyState)
        phase = state.phase
        if phase == PLAN:
            return plan_action(state, state.current_player, legal_actions)
        if phase in (BURY, REMOVE):
            hand = state.hands[state.current_player]
            return min(legal_actions, key=lambda position: (card_worth(state.config, hand[position]), position))
        if phase == ADD:
            return max(legal_actions, key=lambda card: (card_worth(state.config, card), -card))
        if phase == ORDER:
            return min(legal_actions, key=lambda index: (_order_rank(state, state.pending_items[index]), index))
        if phase == VOTE:
            return min(legal_actions, key=lambda seat: (state.hp[seat] / state.max_hp(seat), seat))
        return legal_actions[0]


def _order_rank(state: PartyState, card: int) -> int:
    """Permanents first, then single-use items, then instants; fights last."""
    config = state.config
    if config.uses[card] == PERMANENT:
        return 0
    if config.uses[card] != INSTANT:
        return 1
    return 3 if any(p == P_FIGHT for p, _ in config.effects[card]) else 2


def _action_card(state: PartyState, seat: int, action: int) -> tuple[Effects, bool, float]:
    """(effects, is an Attack/Defense card, cost) of a planning action."""
    config = state.config
    verb, index = action >> 16, action >> 8 & 0xFF
    if verb == PLAY:
        card = state.hands[seat][index]
        return config.effects[card], config.kinds[card] in (ATTACK, DEFENSE), card_worth(config, card)
    if verb == BURY_BONUS:
        return (), False, card_worth(config, state.hands[seat][index])
    if verb == USE:
        card = state.items[seat][index]
        return config.effects[card], False, card_worth(config, card) + 1.0
    card = state.weapons[seat] if index == 0 else state.armors[seat]
    return config.sacrifices[card], False, 6.0


def _protection(state: PartyState, seat: int, action: int, hero: int) -> tuple[int, int, bool, list[int]]:
    """(defense gained, HP gained, damage negated, attack taken off each enemy)
    for ``hero`` if ``seat`` takes ``action``."""
    verb, target = action >> 16, action & 0xFF
    weaken = [0] * len(state.enemies)
    if verb == BURY_BONUS:
        gained = 1 if target == hero * SLOTS else 0
        return gained, 0, False, weaken
    effects, basic, _ = _action_card(state, seat, action)
    defense = heal = 0
    negate = False
    for primitive, amount in effects:
        if primitive == P_DEFENSE and seat == hero:
            defense += amount * state.multiply_defense[seat] if basic else amount
        elif (primitive == P_GUARD and target == hero) or primitive == P_PARTY_DEFENSE:
            defense += amount
        elif primitive == P_MULTIPLY_DEFENSE and seat == hero:
            defense += state.card_defense[seat] * (amount - 1)
        elif primitive == P_NEGATE and target == hero:
            negate = True
        elif (primitive == P_HEAL and target == hero) or (primitive == P_HEAL_SELF and seat == hero) \
                or primitive == P_PARTY_HEAL:
            heal += amount
        elif primitive == P_WEAKEN and target < len(weaken):
            weaken[target] += amount
    return defense, heal, negate, weaken


def _damage_after(state: PartyState, hero: int, defense: int, weaken: list[int]) -> int:
    total_defense = state.hero_defense(hero) + defense
    return sum(max(0, state.enemy_attack(e) - weaken[e] - total_defense) for e in state.living_enemies())


def _attack_gain(state: PartyState, seat: int, action: int, enemy: int) -> int:
    """Attack ``seat`` gains against ``enemy`` (or defense the enemy loses) by ``action``."""
    verb, target = action >> 16, action & 0xFF
    if verb == BURY_BONUS:
        return 1 if target == seat * SLOTS + 1 + enemy else 0
    effects, basic, _ = _action_card(state, seat, action)
    gain = 0
    for primitive, amount in effects:
        if primitive == P_ATTACK and target == enemy:
            gain += amount * state.multiply_attack[seat] if basic else amount
        elif primitive == P_PARTY_ATTACK or (primitive == P_EXPOSE and target == enemy):
            gain += amount
        elif primitive == P_MULTIPLY_ATTACK:
            gain += state.card_attack[seat][enemy] * (amount - 1)
    return gain


def _has(effects: Effects, primitive: int) -> bool:
    return any(p == primitive for p, _ in effects)


def plan_action(state: PartyState, seat: int, legal: Sequence[int]) -> int:
    """The party plan's next action for ``seat`` (see the module docstring)."""
    options = [action for action in legal if action != DONE]
    if not options:
        return DONE
    # One look-up per card (verb and index), shared by all its targets.
    by_card: dict[int, tuple[Effects, bool, float]] = {}
    cards: dict[int, tuple[Effects, bool, float]] = {}
    for action in options:
        key = action >> 8
        found = by_card.get(key)
        if found is None:
            found = _action_card(state, seat, action)
            by_card[key] = found
        cards[action] = found
    plays = [action for action in options if action >> 16 == PLAY]
    for action in plays:
        effects = cards[action][0]
        if _has(effects, P_DRAW) or _has(effects, P_RESURRECT):
            return action
    saving = _protect(state, seat, options, cards)
    if saving != DONE:
        return saving
    attacking = _attack(state, seat, options, cards)
    if attacking != DONE:
        return attacking
    for action in plays:
        target = action & 0xFF
        if _has(cards[action][0], P_HEAL) and target < state.n_players \
                and state.hp[target] < LOW_HP_SHARE * state.max_hp(target):
            return action
    return DONE


def _protect(state: PartyState, seat: int, options: list[int], cards: dict[int, tuple[Effects, bool, float]]) -> int:
    incoming = [state.incoming_damage(hero) if state.alive[hero] else 0 for hero in range(state.n_players)]
    in_danger = [hero for hero in range(state.n_players) if state.alive[hero] and incoming[hero] >= state.hp[hero]]
    for hero in sorted(in_danger, key=lambda h: (state.hp[h] - incoming[h], h)):
        best, best_cost = DONE, 1e9
        fallback, fallback_cut = DONE, 0
        now = incoming[hero]
        for action in options:
            if action >> 16 == BURY_BONUS and action & 0xFF != hero * SLOTS:
                continue  # a +1 for someone else does not save this hero
            defense, heal, negate, weaken = _protection(state, seat, action, hero)
            if not (defense or heal or negate or any(weaken)):
                continue
            after = 0 if negate else _damage_after(state, hero, defense, weaken)
            cost = cards[action][2]
            if after < state.hp[hero] + heal:
                if cost < best_cost:
                    best, best_cost = action, cost
            elif now - after + heal > fallback_cut:
                fallback, fallback_cut = action, now - after + heal
        if best != DONE:
            return best
        if fallback != DONE:
            return fallback
    return DONE


def _attack(state: PartyState, seat: int, options: list[int], cards: dict[int, tuple[Effects, bool, float]]) -> int:
    living = state.living_enemies()
    if not living:
        return DONE
    weakest = min(living, key=lambda e: (state.enemy_hp[e], e))
    for action in options:
        if action >> 16 != BURY_BONUS and _has(cards[action][0], P_DAMAGE) and action & 0xFF == weakest:
            return action
    for enemy in sorted(living, key=lambda e: (state.enemy_hp[e], e)):
        gap = state.enemy_defense(enemy) - state.hero_attack(seat, enemy)
        if gap <= 0:
            continue
        own_bonus = seat * SLOTS + 1 + enemy
        gains = [(action, _attack_gain(state, seat, action, enemy)) for action in options
                 if action >> 16 != BURY_BONUS or action & 0xFF == own_bonus]
        useful = [(action, gain) for action, gain in gains if gain > 0]
        closing = [action for action, gain in useful if gain >= gap]
        if closing:
            return min(closing, key=lambda action: (cards[action][2], action))
        useful.sort(key=lambda pair: (-pair[1], cards[pair[0]][2]))
        if len(useful) >= 2 and _two_close(state, seat, useful, gap):
            return useful[0][0]
    return DONE


def _two_close(state: PartyState, seat: int, useful: list[tuple[int, int]], gap: int) -> bool:
    """Whether the two biggest gains, from different hand cards, close the gap."""
    first_action, first_gain = useful[0]
    first_index = first_action >> 8 & 0xFF if first_action >> 16 in (PLAY, BURY_BONUS) else -1
    for action, gain in useful[1:]:
        index = action >> 8 & 0xFF if action >> 16 in (PLAY, BURY_BONUS) else -2
        if index != first_index:
            return first_gain + gain >= gap
    return False
