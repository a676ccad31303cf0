"""Hand-made Party Wanted positions, shared by the rule tests.

A position starts from ``PartyState.new_game`` with a fixed composition
(``rules.composition``) and then has its zones and numbers set: hands, Hero
Decks, HP, enemies. Each change asks the question of the moment again (its
legal answers follow the new position). Moves go through
``legal_actions``/``apply`` only; the helpers turn card names and plain
values into the actions the rules expect (``ActionType.encode``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from simcore.games.party_wanted import GAME
from simcore.games.party_wanted.rules import (
    ADD,
    ALIVE,
    BOSS_KILLS,
    BUILD_POOL_CARD,
    BURY,
    BURY_FOR_ATTACK,
    BURY_FOR_DEFENSE,
    COMBAT_ROUND,
    DONE,
    ENEMY_BASE_ATTACK,
    ENEMY_BASE_DEFENSE,
    ENEMY_BASE_SPEED,
    ENEMY_BOSS,
    ENEMY_HP,
    ENEMY_MINI_BOSS,
    ENEMY_MONSTER,
    EQUIP,
    EQUIP_SEAT,
    FIGHTING_MONSTERS,
    HAND,
    HAND_POSITION,
    HERO_CLASS,
    HERO_DECK,
    HOLDER,
    HP,
    ORDER,
    ORDER_POSITION,
    PLAN,
    PLAY_CARD,
    REMOVE,
    REVEAL,
    REVEAL_SLOT,
    SACRIFICE,
    SOCIAL,
    START_TURN,
    TAKE_PART,
    TIER,
    USE_ITEM,
    VOTE,
    VOTE_SEAT,
    ZONES_PER_SEAT,
    PartyConfig,
    PartyState,
)
from simcore.kit.decisions import NO_CHOICE, ActionType, Task
from simcore.kit.zones import EVERY_SEAT, Zone
from simcore.parameters import apply_overrides
from simcore.seeding import make_rng

DEFAULT: PartyConfig = GAME.configure(GAME.default_parameters())
BASE_FOUR = "fighter,wizard,healer,rogue"
OVER = -1
"""``phase`` of a finished game."""
ANSWER_TYPES: dict[int, ActionType] = {REVEAL: REVEAL_SLOT, BURY: HAND_POSITION, REMOVE: HAND_POSITION,
                                       ORDER: ORDER_POSITION, ADD: BUILD_POOL_CARD, VOTE: VOTE_SEAT,
                                       SOCIAL: TAKE_PART, EQUIP: EQUIP_SEAT}
"""The action type of the answers to each question of one value."""


def configured(overrides: dict[str, Any]) -> PartyConfig:
    """The default configuration with dotted-path ``overrides``."""
    return GAME.configure(apply_overrides(GAME.default_parameters(), overrides))


def cid(name: str, config: PartyConfig = DEFAULT) -> int:
    """The card id of ``name``."""
    return config.names.index(name)


def ids(names: Iterable[str], config: PartyConfig = DEFAULT) -> list[int]:
    """Card ids of ``names``, in order."""
    return [cid(name, config) for name in names]


def named(cards: Iterable[int], config: PartyConfig = DEFAULT) -> list[str]:
    """Card names of ``cards``, in order."""
    return [config.names[card] for card in cards]


def party(
    composition: str = BASE_FOUR,
    seed: int = 3,
    overrides: dict[str, Any] | None = None,
    events: list[dict[str, Any]] | None = None,
) -> PartyState:
    """A new game with the heroes of ``composition`` in seat order."""
    config = configured({"rules.composition": composition, **(overrides or {})})
    n_players = len(composition.split(","))
    return PartyState.new_game(config, n_players, seed, None if events is None else events.append)


# ----------------------------------------------------------------- reading

def phase(state: PartyState) -> int:
    """The question asked now (``REVEAL``, ``PLAN``...); ``OVER`` once the game has ended."""
    return OVER if state.over else state.decisions.asked.kind


def zone(state: PartyState, seat: int, which: int) -> list[int]:
    """The cards of ``seat``'s zone ``which`` (``HAND``, ``BUILD_POOL``, ``ITEMS_HELD``...)."""
    return state.seat_zone(seat, which).cards


def deck(state: PartyState, seat: int) -> Zone:
    """``seat``'s Hero Deck."""
    return state.seat_zone(seat, HERO_DECK)


def buried(state: PartyState, seat: int) -> list[int]:
    """The cards buried face up under ``seat``'s Hero Deck."""
    hero_deck = deck(state, seat)
    return hero_deck.cards[: hero_deck.face_up]


def tier(state: PartyState, row: int) -> list[int]:
    """The cards of Pyramid tier ``row`` (0: the boss's)."""
    return state.tier_zone(row).cards


def revealed(state: PartyState, row: int, slot: int) -> bool:
    """Whether the card at ``slot`` of Pyramid tier ``row`` lies face up."""
    return state.tier_zone(row).seen[slot] == EVERY_SEAT


def hps(state: PartyState) -> list[int]:
    """Every hero's HP."""
    return [state.hp(seat) for seat in range(state.n_players)]


def alive(state: PartyState) -> list[bool]:
    """Whether each hero lives."""
    return [state.alive(seat) for seat in range(state.n_players)]


def classes(state: PartyState) -> list[int]:
    """Each seat's hero class id."""
    return [state.seat_number(seat, HERO_CLASS) for seat in range(state.n_players)]


def enemy_hps(state: PartyState) -> list[int]:
    """The HP of each enemy in the fight."""
    return [state.enemy_number(ENEMY_HP, enemy) for enemy in range(state.enemy_count())]


def enemy_stats(state: PartyState) -> list[tuple[int, int, int]]:
    """(attack, defense, speed) of each enemy in the fight, as they started it."""
    return [(state.enemy_number(ENEMY_BASE_ATTACK, enemy), state.enemy_number(ENEMY_BASE_DEFENSE, enemy),
             state.enemy_number(ENEMY_BASE_SPEED, enemy)) for enemy in range(state.enemy_count())]


def boss_kills(state: PartyState) -> list[int]:
    """Bosses killed at each level, 1 to 4."""
    return [state.numbers[BOSS_KILLS + level] for level in range(4)]


def counter(state: PartyState, seat: int, which: int) -> list[int]:
    """``seat``'s counter ``which`` (0 in the opening hand ... 4 playable) of every card."""
    return [state.stats.get(seat, which, card) for card in range(len(state.config.names))]


def legal_values(state: PartyState) -> list[int]:
    """The legal answers to a question of one value, as values (slots, positions, cards, seats)."""
    answer_type = ANSWER_TYPES[phase(state)]
    return [answer_type.value(action) for action in state.legal_actions()]


def hero_cards(state: PartyState, seat: int) -> Counter[int]:
    """Every hero card ``seat`` owns, wherever it is."""
    return Counter(card for which in range(ZONES_PER_SEAT) for card in state.seat_zone(seat, which).cards
                   if state.config.owners[card] >= 0)


# ------------------------------------------------------------ hand-made positions

def reask(state: PartyState) -> None:
    """Ask the question of the moment again: its answers follow a hand-made change."""
    if state.decisions.waiting:
        state.perform(state.decisions.answered(), NO_CHOICE)


def set_zone(state: PartyState, seat: int, which: int, names: Sequence[str]) -> None:
    """``seat``'s zone ``which`` holds exactly the cards ``names``."""
    cards = state.seat_zone(seat, which)
    cards.take_all()
    cards.extend(ids(names, state.config))
    reask(state)


def set_hand(state: PartyState, seat: int, names: Sequence[str]) -> None:
    """Give ``seat`` exactly the cards ``names``."""
    set_zone(state, seat, HAND, names)


def set_deck(state: PartyState, seat: int, top_first: Sequence[str]) -> None:
    """``seat``'s Hero Deck, face down, top card first."""
    set_zone(state, seat, HERO_DECK, list(reversed(top_first)))


def set_hp(state: PartyState, seat: int, hp: int) -> None:
    """``seat``'s HP (alive while above 0)."""
    state.set_seat_number(seat, HP, hp)
    state.set_seat_number(seat, ALIVE, int(hp > 0))
    reask(state)


def set_number(state: PartyState, index: int, value: int) -> None:
    """Table number ``index`` (``LEVEL``, ``HOLDER``...)."""
    state.numbers[index] = value
    reask(state)


def place_land(state: PartyState, name: str, slot: int = 0, row: int = -1) -> None:
    """Put ``name`` face down at ``slot`` of Pyramid tier ``row`` (default: the tier being revealed)."""
    state.tier_zone(state.numbers[TIER] if row < 0 else row).cards[slot] = cid(name, state.config)


def reveal(state: PartyState, slot: int) -> None:
    """The Turn Counter holder reveals the land at ``slot`` of the current tier."""
    assert phase(state) == REVEAL
    act(state, REVEAL_SLOT.encode(slot))


def start(state: PartyState, task: Task) -> None:
    """Forget the pending steps, do ``task`` (then a new turn) and run to the next question."""
    state.decisions.stack.replace([Task(START_TURN, -1), task])
    state.decisions.waiting = False
    state.run()


def fight(state: PartyState, enemies: Sequence[str], kind: int = -1) -> None:
    """Start a combat against ``enemies`` now and run to the first plan
    (seat 0 holds the Turn Counter, so it plans first); a new turn follows it."""
    config = state.config
    state.numbers[HOLDER] = 0
    cards = ids(enemies, config)
    if kind < 0:
        kind = ENEMY_BOSS if config.kinds[cards[0]] == 9 else ENEMY_MONSTER
    if kind == ENEMY_MONSTER:
        state.zones[FIGHTING_MONSTERS].extend(cards)
    state.decisions.stack.replace([Task(START_TURN, -1)])
    state.decisions.waiting = False
    state._start_combat(cards, kind)
    state.run()


def set_enemy(state: PartyState, enemy: int, attack: int, defense: int, speed: int, hp: int) -> None:
    """Overwrite an enemy's stats for this combat."""
    for stat, value in ((ENEMY_BASE_ATTACK, attack), (ENEMY_BASE_DEFENSE, defense), (ENEMY_BASE_SPEED, speed),
                        (ENEMY_HP, hp)):
        state.numbers[state.enemy_index(stat, enemy)] = value
    reask(state)


def set_enemy_hp(state: PartyState, enemy: int, hp: int) -> None:
    """An enemy's HP (0: dead)."""
    state.numbers[state.enemy_index(ENEMY_HP, enemy)] = hp
    reask(state)


def act(state: PartyState, action: int) -> None:
    """Apply ``action`` after checking that it is legal."""
    assert action in state.legal_actions(), (state.describe_action(action), phase(state))
    state.apply(action)


def answer(state: PartyState, value: int) -> None:
    """Answer the question of one value asked now with ``value`` (a slot, position, card, seat, 0/1)."""
    act(state, ANSWER_TYPES[phase(state)].encode(value))


def position(state: PartyState, seat: int, name: str) -> int:
    """The first position of ``name`` in ``seat``'s hand."""
    return state.hand(seat).index(cid(name, state.config))


def play(state: PartyState, name: str, hero: int = 0, enemy: int = 0) -> None:
    """The current planner plays ``name`` (aimed at ``hero``, designated to ``enemy``)."""
    act(state, PLAY_CARD.encode(position(state, state.current_player, name), hero, enemy))


def bury_for(state: PartyState, name: str, hero: int, attack: bool = False, enemy: int = 0) -> None:
    """The current planner buries ``name`` for +1 defense (or +1 attack) to
    ``hero`` against ``enemy``."""
    action_type = BURY_FOR_ATTACK if attack else BURY_FOR_DEFENSE
    act(state, action_type.encode(position(state, state.current_player, name), hero, enemy))


def use_item(state: PartyState, index: int, hero: int = 0, enemy: int = 0) -> None:
    """The current planner uses its held single-use item ``index``."""
    act(state, USE_ITEM.encode(index, hero, enemy))


def sacrifice(state: PartyState, which: int, hero: int = 0, enemy: int = 0) -> None:
    """The current planner sacrifices its weapon (0), armor (1) or minion k (2 + k)."""
    act(state, SACRIFICE.encode(which, hero, enemy))


def done(state: PartyState) -> None:
    """The current planner is done."""
    act(state, DONE)


def finish_planning(state: PartyState) -> None:
    """Every remaining planner of this round is done: the round executes."""
    round_number = state.numbers[COMBAT_ROUND]
    while phase(state) == PLAN and state.numbers[COMBAT_ROUND] == round_number and state.in_combat():
        state.apply(DONE)



def random_play(state: PartyState, choice_seed: int, max_steps: int = 100_000) -> Iterator[PartyState]:
    """Every position of ``state``'s game played on by random answers (``make_rng(choice_seed)``),
    at most ``max_steps``: the same state object, advanced after each yield (clone one to keep it)."""
    choices = make_rng(choice_seed)
    for _ in range(max_steps):
        if state.is_terminal():
            return
        yield state
        legal = state.legal_actions()
        state.apply(legal[choices.below(len(legal))])


__all__ = [
    "BASE_FOUR",
    "DEFAULT",
    "ENEMY_BOSS",
    "ENEMY_MINI_BOSS",
    "ENEMY_MONSTER",
    "OVER",
    "act",
    "alive",
    "answer",
    "boss_kills",
    "buried",
    "bury_for",
    "cid",
    "classes",
    "configured",
    "counter",
    "deck",
    "done",
    "enemy_hps",
    "enemy_stats",
    "fight",
    "finish_planning",
    "hero_cards",
    "hps",
    "ids",
    "legal_values",
    "named",
    "party",
    "phase",
    "place_land",
    "play",
    "position",
    "random_play",
    "reask",
    "reveal",
    "revealed",
    "sacrifice",
    "set_deck",
    "set_enemy",
    "set_enemy_hp",
    "set_hand",
    "set_hp",
    "set_number",
    "set_zone",
    "start",
    "tier",
    "use_item",
    "zone",
]
