"""Party Wanted: the rules (see RULES.md beside this file).

A cooperative dungeon crawl for 1 to 8 heroes. Each level the heroes reveal
one land per tier of the Pyramid of Chaos, from the bottom tier up (one
hero's turn per land), then fight the level's boss; killing the level-4
boss wins, losing every hero loses.

Built with the game kit (``simcore.kit``): every card is in a zone (the four
decks, the boss pools, the Pyramid's tiers, each hero's hand, Hero Deck,
Build Pool and equipment...), every public number (level, HP, the enemies'
and the round's numbers) is a kit number, each step of the rules is a task
on the kit's stack (``TASKS``), and the counters are one ``CardStats``. Hands
are open: every seat sees every card but the face-down order of the decks,
the Pyramid's face-down lands and the face-down boss.

The answer to each question is of one action type (``ACTIONS``):

- ``REVEAL``: ``REVEAL_SLOT``, a face-down land's slot on the current tier;
- ``BURY``, ``REMOVE``: ``HAND_POSITION``;
- ``ORDER``: ``ORDER_POSITION``, a position among the drawn treasures/encounters;
- ``ADD``: ``BUILD_POOL_CARD``, a card id of the hero's Build Pool;
- ``VOTE``: ``VOTE_SEAT``, the seat that gets its Ultimate;
- ``SOCIAL``: ``TAKE_PART``, 1 to take part in the land's Social step, 0 to sit it out;
- ``PLAN`` (combat planning): ``DONE``, ``PLAY_CARD`` (hand position),
  ``BURY_FOR_DEFENSE`` / ``BURY_FOR_ATTACK`` (hand position), ``USE_ITEM``
  (held single-use item) or ``SACRIFICE`` (0 the weapon, 1 the armor, 2 + k
  the k-th minion in play), each with the hero it aims at (0 if none; for a
  card buried for +1 the hero that gets it) and the enemy it is designated
  to (0 if it aims at none);
- ``ITEMS`` (before damage outside combat): ``DONE`` or a ``USE_ITEM`` as in planning;
- ``EQUIP``: ``EQUIP_SEAT``, the other hero who gets a weapon or armor the asked one cannot add.

Compiled with mypyc; docs/development/compiled-style.md says why the code is
written as it is (``Final`` constants, ``elif`` dispatch, ``i64``, plain loops,
native vectors, bit masks).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, cast

from librt.vecs import append, vec
from mypy_extensions import i64

from simcore.api import CardColumns, GameInfo, TraceSink
from simcore.games.party_wanted.config import (
    ARMOR,
    ATTACK,
    DATA_FILE,
    DEFENSE,
    ENCOUNTER,
    HEAL_AMOUNT,
    HEAL_FULL,
    INSTANT,
    LEVELS,
    MINION,
    MULTIPLIERS_PARTY,
    P_ADD,
    P_ARMOR,
    P_ATTACK,
    P_DAMAGE,
    P_DAMAGE_PARTY,
    P_DAMAGE_SELF,
    P_DEFENSE,
    P_DRAW,
    P_DRAW_PARTY,
    P_ENCOUNTER,
    P_ENEMY_ATTACK_PER_DEAD,
    P_EXPOSE,
    P_FIGHT,
    P_GUARD,
    P_HEAL,
    P_HEAL_SELF,
    P_MINI_BOSS,
    P_MULTIPLY_ATTACK,
    P_MULTIPLY_DEFENSE,
    P_NEGATE,
    P_PARTY_ATTACK,
    P_PARTY_DEFENSE,
    P_PARTY_HEAL,
    P_PARTY_SPEED,
    P_PERM_HP,
    P_REMOVE,
    P_RESURRECT,
    P_SLOW,
    P_SPEED,
    P_TREASURE,
    P_WEAKEN,
    P_WEAPON,
    PERM_ATTACK,
    PERM_DEFENSE,
    PERM_HP,
    PERM_SPEED,
    PLANNING_ONCE,
    SINGLE_USE,
    SKILL_KINDS,
    SOCIAL_REWARD,
    SOCIAL_RULEBOOK,
    SOCIAL_SOLO,
    SPEED_LIMIT,
    TARGET_DEAD,
    TARGET_HERO,
    TREASURE,
    ULTIMATE,
    WEAPON,
    Effects,
    PartyConfig,
    check_party_size,
    compile_config,
)
from simcore.kit.cardstats import CardStats
from simcore.kit.decisions import NO_CHOICE, ActionType, ActionTypes, Task, TaskKinds, action_code, answer_list
from simcore.kit.state import SeatZonesState
from simcore.kit.vectors import fill, sort_in_place
from simcore.kit.zones import (
    EVERY_SEAT,
    FACE_UP_COUNT,
    HIDDEN,
    NOBODY,
    PUBLIC,
    TABLE,
    Zone,
    draw_face_down,
    move_card,
)
from simcore.rng import Generator
from simcore.seeding import make_rng

__all__ = ["DATA_FILE", "INFO", "PartyConfig", "PartyState", "compile_config"]

# The task kinds. The first ten are questions (the task's seat answers);
# the others are steps of the rules.
TASKS: Final = TaskKinds()
REVEAL: Final = TASKS.add("reveal")
BURY: Final = TASKS.add("bury")
ORDER: Final = TASKS.add("order", ("owner",))  # the seat asked chooses for the owner of the drawn cards
PLAN: Final = TASKS.add("plan")
ADD: Final = TASKS.add("add", ("any_card",))  # ADD_SKILL_CARD or ADD_ANY_CARD
REMOVE: Final = TASKS.add("remove")
VOTE: Final = TASKS.add("vote")
SOCIAL: Final = TASKS.add("social", ("card",))  # take part in the Social of the land or boss ``card``?
ITEMS: Final = TASKS.add("items")  # use an item before the damage outside combat lands?
EQUIP: Final = TASKS.add("equip", ("kind",))  # Add 1 Weapon or Armor (kind): to the hero, or to whom if it cannot?
START_TURN: Final = TASKS.add("start turn")
SOCIAL_STEP: Final = TASKS.add("social step", ("card",))
EFFECT: Final = TASKS.add("effect", ("primitive", "amount"))
END_TURN: Final = TASKS.add("end turn")
REVEAL_BOSS: Final = TASKS.add("reveal boss")
BOSS_FIGHT: Final = TASKS.add("boss fight")
LEVEL_UP: Final = TASKS.add("level up")
NEXT_LEVEL: Final = TASKS.add("next level", ("advance", "heal"))
DRAW_ITEMS: Final = TASKS.add("draw items", ("count", "kind"))
RESOLVE_ITEM: Final = TASKS.add("resolve item", ("card",))
FIGHT: Final = TASKS.add("fight", ("count",))
MINI_BOSS: Final = TASKS.add("mini boss", ("land",))
DAMAGE: Final = TASKS.add("damage", ("amount", "party"))
COMBAT: Final = TASKS.add("combat")  # walks the planners, executes the round; planning re-pushes it
QUESTIONS: Final = 10
"""Kinds below this are questions."""

MAX_SEATS: Final = 8
# The ready-made task of each fieldless kind and seat (``kind * MAX_SEATS + seat``):
# tasks are immutable, so one object serves every game and clone.
_TASK_OF: Final = [Task(kind, seat) for kind in range(len(TASKS.names)) for seat in range(MAX_SEATS)]
_TABLE_TASK: Final = [Task(kind, -1) for kind in range(len(TASKS.names))]
"""The ready-made task of each kind done for no seat in particular."""

# The answers (see the module docstring). Card actions have three fields of 8
# bits (the card's position or index, the hero, the enemy), so that
# ``action >> CARD_SHIFT`` is the same for every target of one card.
ACTIONS: Final = ActionTypes()
DONE_PLANNING: Final = ACTIONS.add("done")
PLAY_CARD: Final = ACTIONS.add("play", ("position", "hero", "enemy"))
BURY_FOR_DEFENSE: Final = ACTIONS.add("bury for +1 defense", ("position", "hero", "enemy"))
BURY_FOR_ATTACK: Final = ACTIONS.add("bury for +1 attack", ("position", "hero", "enemy"))
USE_ITEM: Final = ACTIONS.add("use", ("index", "hero", "enemy"))
SACRIFICE: Final = ACTIONS.add("sacrifice", ("which", "hero", "enemy"))
REVEAL_SLOT: Final = ACTIONS.add("reveal", ("slot",))
HAND_POSITION: Final = ACTIONS.add("hand position", ("position",))
ORDER_POSITION: Final = ACTIONS.add("resolve next", ("index",))
BUILD_POOL_CARD: Final = ACTIONS.add("add", ("card",))
VOTE_SEAT: Final = ACTIONS.add("vote", ("seat",))
TAKE_PART: Final = ACTIONS.add("take part", ("joins",))
EQUIP_SEAT: Final = ACTIONS.add("equip", ("seat",))
DONE: Final = DONE_PLANNING.encode()
CARD_SHIFT: Final = PLAY_CARD.shift0
"""``action >> CARD_SHIFT``: the action's type and card, without its target."""
BURY_DEFENSE_CODE: Final = BURY_FOR_DEFENSE.code
BURY_ATTACK_CODE: Final = BURY_FOR_ATTACK.code


# The card actions' answers as shared Python ints. A question's answers are a list of
# Python objects: compiled, appending an i64 to it allocates an int object (every card
# action is above 256, past CPython's cached small ints) and freeing the list frees each
# one again, a dozen to fifty a planning question. So each card action is made once, in
# a row per (action type, card index) holding it for every (hero, enemy) target, and the
# questions' lists take references to these objects.
_ROW_HERO_SHIFT: Final = 3  # a row's index: hero << 3 | enemy (enemies below 8: rules.max_enemies <= 7)
_ANSWER_ROWS: Final[list[list[list[object]]]] = [[] for _ in ACTIONS.types]
"""Per action type code, its rows by card index (``answer_row``), made when first asked for."""


def answer_row(action_type: ActionType, index: int) -> list[object]:
    """``action_type`` on card ``index`` at every target, as shared Python ints:
    ``answer_row(t, i)[hero << 3 | enemy] == t.encode(i, hero, enemy)``."""
    rows = _ANSWER_ROWS[action_type.code]
    while len(rows) <= index:
        rows.append([action_type.encode(len(rows), hero, enemy)
                     for hero in range(MAX_SEATS) for enemy in range(1 << _ROW_HERO_SHIFT)])
    return rows[index]


# A planning question's targeted answers come in runs: one card's action at every
# (hero, enemy) target the living heroes and enemies allow, the same run whenever the
# same ones are alive. Each run is made once and kept, and a question's list takes it
# whole with one extend (a copy of pointers), not an append per answer as it grows.
# The runs are found by plain list indexing: one flat list by hero and enemy mask, made
# at import, then a table of that mask pair by card index and kind, grown to the indices
# met, no further.
_ENEMY_MASK_BITS: Final = 7  # enemy masks below 1 << 7: rules.max_enemies <= 7
RunTable = list[list[object] | None]
"""The runs of one (hero mask, enemy mask) pair, at ``index * RUN_KINDS + kind`` (None: not made yet)."""
_RUN_TABLES: Final[list[RunTable | None]] = [None] * (1 << (MAX_SEATS + _ENEMY_MASK_BITS))
"""``run_table``'s tables, at ``heroes << _ENEMY_MASK_BITS | enemies`` (None: no run of that pair yet)."""
_BURIAL_KIND: Final = len(ACTIONS.types)
"""A table's kind of the burials of one hand position (``burial_run``); the others are action type codes."""
RUN_KINDS: Final = _BURIAL_KIND + 1


def run_table(heroes: i64, enemies: i64) -> RunTable:
    """The kept runs of hero mask ``heroes`` and enemy mask ``enemies`` (``target_run``, ``burial_run``)."""
    key = heroes << _ENEMY_MASK_BITS | enemies
    table = _RUN_TABLES[key]
    if table is None:
        table = []
        _RUN_TABLES[key] = table
    return table


def _kept_run(table: RunTable, index: i64, kind: i64) -> list[object] | None:
    """The run of card ``index`` and ``kind`` in ``table``; None if not made yet."""
    slot = index * RUN_KINDS + kind
    return table[slot] if slot < len(table) else None


def _keep_run(table: RunTable, index: i64, kind: i64, run: list[object]) -> None:
    slot = index * RUN_KINDS + kind
    while len(table) <= slot:
        table.append(None)
    table[slot] = run


def target_run(action_type: ActionType, index: i64, heroes: i64, enemies: i64) -> list[object]:
    """``action_type`` on card ``index`` at each hero whose bit ``heroes`` sets times each
    enemy whose bit ``enemies`` sets (hero by hero), as shared Python ints. Shared and
    kept: callers copy it (``extend``), never change it."""
    table = run_table(heroes, enemies)
    run = _kept_run(table, index, action_type.code)
    if run is None:
        row = answer_row(action_type, index)
        run = [row[hero << _ROW_HERO_SHIFT | enemy] for hero in range(MAX_SEATS) if heroes >> hero & 1
               for enemy in range(1 << _ROW_HERO_SHIFT) if enemies >> enemy & 1]
        _keep_run(table, index, action_type.code, run)
    return run


def burial_run(table: RunTable, position: i64, heroes: i64, enemies: i64) -> list[object]:
    """The burials of the card at ``position``: for each hero whose bit ``heroes`` sets,
    +1 defense then +1 attack against each enemy whose bit ``enemies`` sets (shared and
    kept as ``target_run``'s runs, in ``table``: ``run_table(heroes, enemies)``, read once
    per question for every position)."""
    run = _kept_run(table, position, _BURIAL_KIND)
    if run is None:
        run = []
        hero: i64
        for hero in range(MAX_SEATS):
            if heroes >> hero & 1:
                run.extend(target_run(BURY_FOR_DEFENSE, position, 1 << hero, enemies))
                run.extend(target_run(BURY_FOR_ATTACK, position, 1 << hero, enemies))
        _keep_run(table, position, _BURIAL_KIND, run)
    return run


_SOCIAL_ANSWERS: Final = [TAKE_PART.encode(0), TAKE_PART.encode(1)]
"""The answers of every Social question: sit it out, take part."""

for _action_type in (PLAY_CARD, BURY_FOR_DEFENSE, BURY_FOR_ATTACK, USE_ITEM, SACRIFICE):
    answer_row(_action_type, 15)  # made at import: the rows of the first 16 cards (hands are shorter)


def is_burial(action: int) -> bool:
    """Whether ``action`` buries a hand card for +1 (either stat), read from its type's code
    (the loops over every answer of a question spell this test out: a call per answer costs)."""
    return action_code(action) in (BURY_DEFENSE_CODE, BURY_ATTACK_CODE)


UNDESIGNATED: Final = 1
"""The enemy mask of a card aimed at no enemy: enemy 0 (see ``_add_targets``)."""
SACRIFICE_MINION: Final = 2  # sacrifice index of the first minion in play (0 weapon, 1 armor)
# The Add of a level-up is "a Class or Utility card"; a land's or an item's
# Add ("a card of his choice as listed by the card") may be any playing card
# of the Build Pool but armor, weapons and the Ultimate (our card text).
ADD_SKILL_CARD: Final = 0
ADD_ANY_CARD: Final = 1
ADDABLE_BY_CARDS: Final = (ATTACK, DEFENSE, *SKILL_KINDS)

END_VICTORY: Final = "victory"
END_PARTY_DEAD: Final = "party_dead"
END_TURN_CAP: Final = "turn_cap"
END_ROUND_CAP: Final = "round_cap"

ENEMY_MONSTER: Final = 0
ENEMY_MINI_BOSS: Final = 1
ENEMY_BOSS: Final = 2

# The zones: the table's, then ZONES_PER_SEAT per seat (``seat_zone``), then
# the Pyramid's tiers below the boss (``tier_zone``; the longer game adds one
# per level). A deck's cards buried face up lie under its face-down cards.
TREASURE_DECK: Final = 0
ENCOUNTER_DECK: Final = 1
MONSTER_DECK: Final = 2
LAND_DECK: Final = 3
DEFEATED_BOSSES: Final = 4
PENDING_ITEMS: Final = 5  # treasures and encounters drawn, waiting to be resolved
FIGHTING_MONSTERS: Final = 6
BOSS_POOL: Final = 7  # + level - 1: the bosses of each level not drawn yet (face down)
PYRAMID_TOP: Final = 11  # tier 1: the level's boss, face down until revealed
FIRST_SEAT_ZONE: Final = 12
HAND: Final = 0
HERO_DECK: Final = 1
BUILD_POOL: Final = 2
WEAPON_SLOT: Final = 3
ARMOR_SLOT: Final = 4
MINIONS: Final = 5
ITEMS_HELD: Final = 6
ASIDE: Final = 7  # once-per-combat cards used in this combat
IN_PLAY: Final = 8  # cards played this round
ZONES_PER_SEAT: Final = 9
# Re-sampling pools: each deck its own, the bosses one (each level's pool
# holds its level's bosses: ``card_classes``), the Pyramid's face-down lands
# one, each Hero Deck its own (its contents are known from deck building).
BOSSES_POOL: Final = 4
PYRAMID_POOL: Final = 5
HERO_DECK_POOL: Final = 6  # + seat

# Table numbers (all public), then per enemy ``ENEMY_NUMBERS + stat * max_enemies + enemy``.
LEVEL: Final = 0
TIER: Final = 1  # the tier being revealed (0 = the boss's)
HOLDER: Final = 2  # the Turn Counter's seat, -1 before the first turn
HOLDER_STARTS: Final = 3  # 1 when a new level starts with the holder
TURN_COUNT: Final = 4
BOSSES_KILLED: Final = 5
IN_COMBAT: Final = 6
COMBAT_ROUND: Final = 7
PLANNER_INDEX: Final = 8
PASSES: Final = 9
# Bumped by every planning action but "done" and by every new round: while
# it stays the same, so do the round's numbers (agents cache them).
COMBAT_VERSION: Final = 10
ENEMY_ATTACK_BONUS: Final = 11
ENEMY_COUNT: Final = 12
LAST_ENEMY: Final = 13  # the card that ended the game's last fight or killed a hero last, -1 for none
DAMAGE_SOURCE: Final = 14  # the card of the last land, Social or instant item that could do damage
HERO_DEATHS: Final = 15
WIPES: Final = 16
FIRST_WIPE_LEVEL: Final = 17
MODIFIER_TRIGGERS: Final = 18
TOTAL_ROUNDS: Final = 19
BOSS_KILLS: Final = 20  # + level - 1
ENEMY_NUMBERS: Final = 24
NUMBER_NAMES: Final = (
    "level", "tier", "turn holder", "new level starts with the holder", "turns", "bosses killed", "in combat",
    "combat round", "planner", "passes in a row", "combat version", "enemy attack bonus", "enemies",
    "last enemy", "damage source", "hero deaths", "wipes", "first wipe level", "modifier triggers",
    "combat rounds", "boss kills level 1", "boss kills level 2", "boss kills level 3", "boss kills level 4")
ENEMY_CARD: Final = 0
ENEMY_KIND: Final = 1
ENEMY_HP: Final = 2
ENEMY_BASE_ATTACK: Final = 3
ENEMY_BASE_DEFENSE: Final = 4
ENEMY_BASE_SPEED: Final = 5
ENEMY_SLOW: Final = 6
ENEMY_WEAKEN: Final = 7
ENEMY_EXPOSE: Final = 8
ENEMY_STATS: Final = 9
# Seat numbers, then the round's numbers per enemy (``round_index``).
HP: Final = 0
ALIVE: Final = 1
HERO_CLASS: Final = 2
SHIELDED: Final = 3  # a negate item used before damage outside combat
ROUND_NUMBERS: Final = 4
CARD_ATTACK: Final = 0  # Attack card numbers (a multiplier doubles or triples them)
BONUS_ATTACK: Final = 1
CARD_DEFENSE: Final = 2
BONUS_DEFENSE: Final = 3
BONUS_SPEED: Final = 4
MULTIPLY_ATTACK: Final = 5
MULTIPLY_DEFENSE: Final = 6
NEGATED: Final = 7
ROUND_STATS: Final = 8

# Per (seat, card): in the opening hand; drawn (hero cards) or received
# (treasures and encounters); played by the hero's choice (a hand card played
# for its effect, a single-use item used, armor, a weapon or a minion
# Sacrificed); buried for +1; playable: steps at which one of the hero's legal
# actions would play it (see ``note_offered``).
CARD_COUNTERS = ("in_opening_hand", "drawn", "played", "buried_for_bonus", "playable")
_OPENING: Final = 0
_DRAWN: Final = 1
_PLAYED: Final = 2
_BURIED: Final = 3
_PLAYABLE: Final = 4
_ROW_COUNTERS: Final = (_DRAWN, _PLAYED, _BURIED, _PLAYABLE)

INFO = GameInfo(
    id="party_wanted",
    name="Party Wanted",
    min_players=1,
    max_players=8,
    description="Cooperative dungeon crawl: 1-8 heroes climb the Pyramid of Chaos and kill four bosses.",
    game_columns={
        "composition": "string",
        "level_reached": "int8",
        "final_enemy": "string",
        "boss_kills_level_1": "int8",
        "boss_kills_level_2": "int8",
        "boss_kills_level_3": "int8",
        "boss_kills_level_4": "int8",
        "heroes_dead": "int8",
        "hero_deaths": "int16",
        "combat_rounds": "int32",
        "wipes": "int16",
        "first_wipe_level": "int8",
        "modifier_triggers": "int32",
    },
    card_counters=CARD_COUNTERS,
    bench_players=4,  # a typical party
    faction_label="hero class",
    hidden_between_seats=False,  # open hands: every hero sees the whole table
    column_descriptions={
        "composition": "The party's hero classes, sorted and joined by commas.",
        "level_reached": "The Pyramid level (1 to 4) the party had reached when the game ended.",
        "final_enemy": "The last enemy the party faced; empty if none.",
        "boss_kills_level_1": "Level-1 bosses the party killed (real kills, not skips).",
        "boss_kills_level_2": "Level-2 bosses the party killed (real kills, not skips).",
        "boss_kills_level_3": "Level-3 bosses the party killed (real kills, not skips).",
        "boss_kills_level_4": "Level-4 bosses the party killed (real kills, not skips).",
        "heroes_dead": "Heroes dead when the game ended.",
        "hero_deaths": "Hero deaths during the whole game, every death counted (`heroes_dead`: those dead at the end).",
        "combat_rounds": "Combat rounds fought during the game.",
        "wipes": "Times the whole party fell (in Party mode the game goes on at the next level).",
        "first_wipe_level": "The level of the party's first wipe; 0 for none.",
        "modifier_triggers": "Combat rounds in which the Combat Modifier changed a number.",
        "in_opening_hand": "Copies of the card in the hero's opening hand.",
        "drawn": "Copies the hero drew (hero cards) or received (treasures, encounters, armor, weapons).",
        "played": "Times the hero chose to play the card: a hand card played for its effect, an item used, "
                  "armor, a weapon or a minion Sacrificed.",
        "buried_for_bonus": "Times the hero buried the card for +1 (a generic use, not a play of the card).",
        "playable": "Steps at which one of the hero's legal actions would have played the card, once per card "
                    "per step.",
    },
)


def stats_for(config: PartyConfig, card: int, level: int) -> tuple[int, ...]:
    """[attack, defense, speed, hp] of an enemy card at party ``level``."""
    return config.stats_12[card] if level <= 2 else config.stats_34[card]


INITIATIVE_INDEX_SHIFT: Final = 4
INITIATIVE_ENEMY_BIT: Final = 8
INITIATIVE_SPEED_SHIFT: Final = 9
INITIATIVE_SPEED_LIMIT: Final = SPEED_LIMIT  # config._check_speeds keeps every speed within it


def initiative_key(speed: i64, is_enemy: i64, index: i64, target: i64) -> i64:
    """One attack's place in the round, as an int that sorts in initiative order (see
    ``PartyState._initiative_keys``): a hero's attack (``is_enemy`` 0, the seat, its enemy plus
    one) or an enemy's (1, the enemy, 0); seats, enemies and targets below 16 (at most 8 heroes
    and 7 enemies), speeds within +-2**19."""
    if not -INITIATIVE_SPEED_LIMIT < speed < INITIATIVE_SPEED_LIMIT:
        raise ValueError(f"speed {speed} is outside the initiative's range (+-{INITIATIVE_SPEED_LIMIT})")
    return ((INITIATIVE_SPEED_LIMIT - speed) << INITIATIVE_SPEED_SHIFT | is_enemy << INITIATIVE_ENEMY_BIT
            | index << INITIATIVE_INDEX_SHIFT | target)


def initiative_by_enemy(key: i64) -> bool:
    """Whether the attack of an ``initiative_key`` is an enemy's."""
    return (key >> INITIATIVE_ENEMY_BIT & 1) == 1


def initiative_attacker(key: i64) -> i64:
    """The seat (a hero's attack) or the enemy (an enemy's) of an ``initiative_key``."""
    return key >> INITIATIVE_INDEX_SHIFT & 15


def initiative_enemy(key: i64) -> i64:
    """The enemy a hero's attack of an ``initiative_key`` is on."""
    return (key & 15) - 1


# A round's base stats per hero (``PartyState._round_base_stats``): ROUND_BASES numbers a seat.
BASE_ATTACK: Final = 0
BASE_DEFENSE: Final = 1
BASE_SPEED: Final = 2
ROUND_BASES: Final = 3


def distinct_positions(hand: list[int]) -> vec[i64]:
    """The first position of each distinct card (equal cards are one choice), as a native vector."""
    positions = vec[i64](capacity=len(hand))  # room for every position: appended in place
    position: i64
    for position in range(len(hand)):  # a hand is short: native compares beat a set's hashing
        card = hand[position]
        for earlier in positions:
            if hand[earlier] == card:
                break
        else:
            positions = append(positions, position)
    return positions


# The zones' names, made once, not formatted at every new game.
_DECK_NAMES: Final = ("Treasure Deck", "Encounter Deck", "Monster Deck", "Land Deck")
_BOSS_POOL_NAMES: Final = tuple(f"level-{level} bosses" for level in range(1, LEVELS + 1))
_PUBLIC_SEAT_ZONE_NAMES: Final = ("Build Pool", "weapon", "armor", "minions in play", "items",
                                  "set aside this combat", "in play this round")
"""The names of a seat's zones from ``BUILD_POOL`` to ``IN_PLAY``, in zone order."""
_TIER_NAMES: Final[list[str]] = []
"""``tier_name``'s names, by tier number less one (as many as the longest Pyramid met)."""


def tier_name(tier: int) -> str:
    """The name of Pyramid tier ``tier`` (2 and down: the tiers of lands)."""
    while len(_TIER_NAMES) < tier:
        _TIER_NAMES.append(f"Pyramid tier {len(_TIER_NAMES) + 1}")
    return _TIER_NAMES[tier - 1]


class PartyState(SeatZonesState):
    """One game of Party Wanted in progress."""

    config: PartyConfig
    max_enemies: i64  # config.max_enemies, read on every round number
    # The answers of the last planning or item question built, and the cards they would
    # play (each card once), noted as the answers were made (``_add_targets``): the
    # question asked is the last one built, so ``note_offered`` reads its cards here
    # instead of walking every answer (most are burials, which play no card).
    offered_answers: list[int]
    offered_cards: vec[i64]

    # ----------------------------------------------------------------- set-up

    def __init__(self, config: PartyConfig, n_players: int, rng: Generator, trace: TraceSink | None,
                 stats: CardStats | None = None) -> None:
        super().__init__(n_players, rng, trace, ENEMY_NUMBERS + ENEMY_STATS * config.max_enemies,
                         ROUND_NUMBERS + ROUND_STATS * config.max_enemies,
                         stats if stats is not None else CardStats(n_players, len(CARD_COUNTERS), len(config.names)),
                         FIRST_SEAT_ZONE, ZONES_PER_SEAT, HAND)
        self.config = config
        self.max_enemies = config.max_enemies
        self.offered_answers = []
        self.offered_cards = vec[i64]()

    @staticmethod
    def new_game(config: PartyConfig, n_players: int, seed: int, trace: TraceSink | None) -> PartyState:
        """Choose the heroes, build the decks and the Pyramid, deal, and wait
        for the first land reveal."""
        if n_players < 1:
            raise ValueError(f"party_wanted is played by at least 1 hero, not {n_players}")
        # A party the parameters cannot seat (too few classes, a composition of another
        # size): a ParameterError naming the parameter, the one check experiments make first.
        check_party_size(config, n_players)
        state = PartyState(config, n_players, make_rng(seed), trace)
        state._set_up()
        state.run()
        return state

    def blank(self) -> PartyState:
        """An empty state of the same config (``clone`` fills it, its card stats included)."""
        return PartyState(self.config, self.n_players, self.rng, None, self.stats)

    def clone(self) -> PartyState:
        """An exact copy with its own generator state and tracing off (the kit's)."""
        copy = super().clone()
        assert isinstance(copy, PartyState)
        return copy

    def resample_hidden(self, seat: int, rng: Generator) -> PartyState:
        """The kit's re-sampling, typed as a Party Wanted state: the face-down
        order of every deck and of the Pyramid's lands is redrawn, and the
        face-down boss among its level's bosses (RULES.md, assumption 28)."""
        copy = super().resample_hidden(seat, rng)
        assert isinstance(copy, PartyState)
        return copy

    def card_classes(self) -> list[int]:
        """Each card's boss level (0 for a card that is no boss): each level's
        boss pool holds only its level's bosses."""
        return list(self.config.boss_levels)

    def _add_zones(self) -> None:
        for pool in range(len(_DECK_NAMES)):  # the decks' pools are their zones' indices
            self.add_zone(Zone(_DECK_NAMES[pool], TABLE, FACE_UP_COUNT, pool))
        self.add_zone(Zone("defeated bosses", TABLE, PUBLIC))
        self.add_zone(Zone("drawn, waiting to be resolved", TABLE, PUBLIC))
        self.add_zone(Zone("monsters fighting", TABLE, PUBLIC))
        for level in range(1, LEVELS + 1):
            self.add_zone(Zone(_BOSS_POOL_NAMES[level - 1], TABLE, HIDDEN, BOSSES_POOL, card_class=level))
        self.add_zone(Zone("Pyramid tier 1 (top)", TABLE, HIDDEN, BOSSES_POOL))
        for seat in range(self.n_players):
            self.add_zone(Zone("hand", seat, PUBLIC))
            self.add_zone(Zone("Hero Deck", seat, FACE_UP_COUNT, HERO_DECK_POOL + seat))
            for name in _PUBLIC_SEAT_ZONE_NAMES:
                self.add_zone(Zone(name, seat, PUBLIC))

    def _add_tier(self, cards: list[int]) -> None:
        """A new bottom tier of the Pyramid: ``cards`` face down."""
        tier = Zone(tier_name(self.tier_count() + 1), TABLE, HIDDEN, PYRAMID_POOL)
        tier.extend(cards)
        self.add_zone(tier)

    def _set_up(self) -> None:
        config, rng = self.config, self.rng
        decks = config.decks
        if config.composition:
            classes = list(config.composition)  # one per seat (check_party_size)
        else:
            classes = list(decks.enabled_classes)
            rng.shuffle(classes)
        self._add_zones()
        for seat in range(self.n_players):
            self.set_seat_number(seat, HERO_CLASS, classes[seat])
            self.set_seat_number(seat, ALIVE, 1)
        self._reset_round_stats()  # multipliers at 1
        for which, cards in ((TREASURE_DECK, decks.treasure_deck), (ENCOUNTER_DECK, decks.encounter_deck),
                             (MONSTER_DECK, decks.monster_deck), (LAND_DECK, decks.land_deck)):
            self.zones[which].shuffle_in(list(cards), rng)
        for level in range(1, LEVELS + 1):
            self.zones[BOSS_POOL + level - 1].extend(list(decks.bosses_by_level[level - 1]))
        s_lands = list(decks.s_lands)
        rng.shuffle(s_lands)
        self.numbers[LEVEL] = 1
        self.numbers[HOLDER] = -1
        self.numbers[LAST_ENEMY] = -1
        self.numbers[DAMAGE_SOURCE] = -1
        self._draw_boss(1)
        self._add_tier(s_lands[:2])
        self._add_tier(s_lands[2:5])
        self.numbers[TIER] = self.tier_count() - 1
        for seat in range(self.n_players):
            self._build_hero(seat)
        if self.trace is not None:
            names = ", ".join(self.class_name(seat) for seat in range(self.n_players))
            tiers = [len(self.tier_zone(tier).cards) for tier in range(self.tier_count())]
            self.emit("setup", f"party of {self.n_players}: {names}; tiers {tiers}",
                      heroes=[self.class_name(seat) for seat in range(self.n_players)])
        for seat in range(self.n_players):
            self._draw_cards(seat, config.hand_size)
            for card in self.hand(seat):
                self.stats.add(seat, _OPENING, card)
            if self.trace is not None:
                self.emit("deal", f"seat {seat} ({self.class_name(seat)}) holds {self._names(self.hand(seat))}",
                          seat=seat)
        self.push(_TABLE_TASK[START_TURN])

    def _build_hero(self, seat: int) -> None:
        """Build Pool, level-1 HP and the starting Hero Deck: the hero's S
        cards (H class/utility cards instead of the S ones in Hard mode),
        shuffled face down."""
        decks = self.config.decks
        cls = self.seat_number(seat, HERO_CLASS)
        self.seat_zone(seat, BUILD_POOL).extend(list(decks.pools_after_deal[cls]))
        self.seat_zone(seat, HERO_DECK).shuffle_in(list(decks.starting_decks[cls]), self.rng)
        self.set_seat_number(seat, HP, self.max_hp(seat))

    def _draw_boss(self, level: int) -> None:
        """A random boss of ``level`` face down on top of the Pyramid."""
        pool = self.zones[BOSS_POOL + level - 1]
        self.zones[PYRAMID_TOP].add(pool.take(self.rng.below(len(pool))), NOBODY)

    # ----------------------------------------------------------- the zones

    def weapon(self, seat: i64) -> int:
        """``seat``'s weapon; -1 for none."""
        # In place with the game's constants, not through ``seat_zone`` (``SeatZonesState`` says why).
        cards = self.zones[FIRST_SEAT_ZONE + ZONES_PER_SEAT * seat + WEAPON_SLOT].cards
        return cards[0] if cards else -1

    def armor(self, seat: i64) -> int:
        """``seat``'s armor; -1 for none."""
        cards = self.zones[FIRST_SEAT_ZONE + ZONES_PER_SEAT * seat + ARMOR_SLOT].cards  # as ``weapon``
        return cards[0] if cards else -1

    def tier_count(self) -> int:
        """Tiers of the Pyramid, the boss's included."""
        return len(self.zones) - FIRST_SEAT_ZONE - ZONES_PER_SEAT * self.n_players + 1

    def tier_zone(self, tier: int) -> Zone:
        """The zone of Pyramid ``tier`` (0 = the boss's, then 1, 2... down)."""
        if tier == 0:
            return self.zones[PYRAMID_TOP]
        return self.zones[FIRST_SEAT_ZONE + ZONES_PER_SEAT * self.n_players + tier - 1]

    def boss(self) -> int:
        """The boss on top of the Pyramid; -1 between its death and the next level."""
        cards = self.zones[PYRAMID_TOP].cards
        return cards[0] if cards else -1

    def _item_pile(self, card: int) -> Zone:
        return self.zones[TREASURE_DECK if self.config.kinds[card] == TREASURE else ENCOUNTER_DECK]

    # --------------------------------------------------------------- numbers

    def hp(self, seat: i64) -> int:
        """``seat``'s hit points."""
        return self.seat_numbers[seat * self.n_seat_numbers + HP]

    def alive(self, seat: i64) -> bool:
        """Whether ``seat``'s hero lives."""
        return self.seat_numbers[seat * self.n_seat_numbers + ALIVE] != 0

    def _set_hp(self, seat: i64, hp: i64) -> None:
        self.seat_numbers[seat * self.n_seat_numbers + HP] = hp

    def round_index(self, seat: i64, stat: i64, enemy: i64) -> int:
        """Where ``seat``'s round number ``stat`` (``CARD_ATTACK``...) against ``enemy`` is in ``seat_numbers``."""
        return seat * self.n_seat_numbers + ROUND_NUMBERS + stat * self.max_enemies + enemy

    def round_number(self, seat: i64, stat: i64, enemy: i64) -> int:
        """``seat``'s round number ``stat`` against ``enemy``."""
        return self.seat_numbers[seat * self.n_seat_numbers + ROUND_NUMBERS + stat * self.max_enemies + enemy]

    def enemy_count(self) -> int:
        """Enemies in the fight (dead ones included); 0 outside combat."""
        return self.numbers[ENEMY_COUNT]

    def enemy_number(self, stat: i64, enemy: i64) -> int:
        """Number ``stat`` (``ENEMY_CARD``, ``ENEMY_HP``...) of ``enemy``."""
        return self.numbers[ENEMY_NUMBERS + stat * self.max_enemies + enemy]

    def enemy_index(self, stat: i64, enemy: i64) -> int:
        """Where number ``stat`` of ``enemy`` is in ``numbers``."""
        return ENEMY_NUMBERS + stat * self.max_enemies + enemy

    def enemy_cards(self) -> list[int]:
        """The cards of the enemies in the fight, in enemy order."""
        base = ENEMY_NUMBERS + ENEMY_CARD * self.max_enemies
        return list(self.numbers[base:base + self.numbers[ENEMY_COUNT]])

    def in_combat(self) -> bool:
        """Whether a combat is under way."""
        return self.numbers[IN_COMBAT] != 0

    # ------------------------------------------------------------ results

    def winners(self) -> list[int]:
        """Every seat when the level-4 boss died, nobody otherwise."""
        return list(range(self.n_players)) if self.ended_by == END_VICTORY else []

    def returns(self) -> list[float]:
        """1.0 each on a win, 0.0 each otherwise."""
        value = 1.0 if self.ended_by == END_VICTORY else 0.0
        return [value] * self.n_players

    def scores(self) -> list[int]:
        """Bosses killed by the party (the same for every seat)."""
        return [self.numbers[BOSSES_KILLED]] * self.n_players

    def standings(self) -> list[int]:
        """None: the heroes win or lose together, so nobody is ahead of anybody
        (RULES.md, "Standings"); the lead and margin columns are NULL."""
        return []

    def ranks(self) -> list[int]:
        """Everyone shares rank 1: the party wins or loses together."""
        return [1] * self.n_players

    def factions(self) -> list[str | None]:
        """Each seat's hero class."""
        return [self.class_name(seat) for seat in range(self.n_players)]

    def turns(self) -> int:
        """Land turns taken (boss reveals are not turns)."""
        return self.numbers[TURN_COUNT]

    def game_columns(self) -> dict[str, Any]:
        """Composition, level reached, final enemy, boss kills, deaths."""
        numbers = self.numbers
        last = numbers[LAST_ENEMY]
        return {
            "composition": ",".join(sorted(self.class_name(seat) for seat in range(self.n_players))),
            "level_reached": numbers[LEVEL],
            "final_enemy": self.config.names[last] if last >= 0 else "",
            "boss_kills_level_1": numbers[BOSS_KILLS],
            "boss_kills_level_2": numbers[BOSS_KILLS + 1],
            "boss_kills_level_3": numbers[BOSS_KILLS + 2],
            "boss_kills_level_4": numbers[BOSS_KILLS + 3],
            "heroes_dead": sum(1 for seat in range(self.n_players) if not self.alive(seat)),
            "hero_deaths": numbers[HERO_DEATHS],
            "combat_rounds": numbers[TOTAL_ROUNDS],
            "wipes": numbers[WIPES],
            "first_wipe_level": numbers[FIRST_WIPE_LEVEL],
            "modifier_triggers": numbers[MODIFIER_TRIGGERS],
        }

    def add_card_rows(self, columns: CardColumns) -> None:
        """One row per card each seat drew, received, buried, played or could
        have played (hero cards, treasures and encounters, armor and weapons)."""
        self.stats.add_rows(columns, self.config.names, self.config.copies, _ROW_COUNTERS)

    # ------------------------------------------------------ the questions

    def choices(self, task: Task) -> list[int]:
        """The legal answers to question ``task`` (see the module docstring)."""
        kind, seat = task.kind, task.seat
        if kind == PLAN:
            return self._plan_actions(seat)
        if kind == REVEAL:
            tier = self.tier_zone(self.numbers[TIER])
            return [REVEAL_SLOT.encode(slot) for slot in range(len(tier.cards)) if tier.seen[slot] != EVERY_SEAT]
        if kind in (BURY, REMOVE):
            return [HAND_POSITION.encode(position) for position in distinct_positions(self.hand(seat))]
        if kind == ORDER:
            return [ORDER_POSITION.encode(index) for index in range(len(self.zones[PENDING_ITEMS].cards))]
        if kind == ADD:
            return [BUILD_POOL_CARD.encode(card) for card in self._addable(seat, task.a == ADD_ANY_CARD)]
        if kind == VOTE:
            return [VOTE_SEAT.encode(hero) for hero in self._ultimate_candidates()]
        if kind == SOCIAL:
            return _SOCIAL_ANSWERS[:]  # a copy of the shared ints: no encoding or int made per question
        if kind == EQUIP:
            return [EQUIP_SEAT.encode(hero) for hero in self._equip_candidates(seat, task.a)]
        return self._outside_item_actions(seat)  # ITEMS

    def _ask_if(self, task: Task, possible: bool) -> None:
        """Ask ``task``'s question if there is a choice to make."""
        if possible:
            self.ask(task, self.choices(task))

    def perform(self, task: Task, choice: int) -> None:
        """Do one step of the rules, or ask (``NO_CHOICE``) or answer a question."""
        kind, seat = task.kind, task.seat
        if kind < QUESTIONS:
            if choice == NO_CHOICE:
                self._ask_question(task)
            else:
                self._answer(task, choice)
        elif kind == COMBAT:
            self._combat_needs_decision()
        elif kind == START_TURN:
            self._start_turn()
        elif kind == SOCIAL_STEP:
            self._social(seat, task.a)
        elif kind == EFFECT:
            self._out_of_combat_effect(seat, task.a, task.b)
        elif kind == DAMAGE:
            self._damage_outside_combat(seat, task.a, task.b == 1)
        elif kind == END_TURN:
            self._end_turn()
        elif kind == REVEAL_BOSS:
            self._reveal_boss()
        elif kind == BOSS_FIGHT:
            self._start_combat([self.boss()], ENEMY_BOSS)
        elif kind == LEVEL_UP:
            self._level_up()
        elif kind == NEXT_LEVEL:
            self._next_level(advance=task.a == 1, heal=not self.config.hardcore or task.b == 1)
        elif kind == DRAW_ITEMS:
            self._draw_items(seat, task.a, task.b)
        elif kind == RESOLVE_ITEM:
            self._resolve_item(seat, task.a)
        elif kind == FIGHT:
            self._fight_monsters(task.a)
        else:  # MINI_BOSS
            self._start_combat([task.a], ENEMY_MINI_BOSS)

    def _ask_question(self, task: Task) -> None:
        """Ask ``task``'s question if it has a choice (else the task is done)."""
        kind, seat = task.kind, task.seat
        if kind == ORDER:
            self._order(task)
        elif kind == VOTE:
            voter = seat if self.alive(seat) else self._next_living(seat)
            self._ask_if(_TASK_OF[VOTE * MAX_SEATS + voter] if voter >= 0 else task,
                         voter >= 0 and bool(self._ultimate_candidates()))
        elif kind == ITEMS:
            if self.alive(seat):
                actions = self._outside_item_actions(seat)
                if len(actions) > 1:
                    self.ask(task, actions)
        elif kind == ADD:
            # A level-up's Add (a Class or Utility card) reaches the dead too with
            # rules.dead_heroes_level_up; a land's or an item's only the living.
            adds = self.alive(seat) or (task.a == ADD_SKILL_CARD and self.config.dead_heroes_level_up)
            self._ask_if(task, adds and bool(self._addable(seat, task.a == ADD_ANY_CARD)))
        elif kind in (BURY, REMOVE):
            self._ask_if(task, self.alive(seat) and bool(self.hand(seat)))
        elif kind == EQUIP:
            if self._can_equip(seat, task.a):
                self._equip(seat, task.a)
            else:  # "choose another Hero from your Party": asked when one can
                self._ask_if(task, self.alive(seat) and bool(self._equip_candidates(seat, task.a)))
        else:  # REVEAL, PLAN, SOCIAL: asked only when there is a choice
            self.ask(task, self.choices(task))

    def _answer(self, task: Task, action: int) -> None:
        kind, seat = task.kind, task.seat
        if kind == PLAN:
            self._plan(seat, action)
            if self.numbers[IN_COMBAT]:
                self.push(_TABLE_TASK[COMBAT])
        elif kind == REVEAL:
            self._reveal_land(seat, REVEAL_SLOT.value(action))
        elif kind == BURY:
            self._bury_from_hand(seat, HAND_POSITION.value(action))
        elif kind == REMOVE:
            self._remove_from_hand(seat, HAND_POSITION.value(action))
        elif kind == ORDER:
            self._choose_item(task.a, ORDER_POSITION.value(action))
        elif kind == ADD:
            self._add_card(seat, BUILD_POOL_CARD.value(action))
        elif kind == VOTE:
            self._give_ultimate(VOTE_SEAT.value(action))
        elif kind == SOCIAL:
            self._take_part(seat, task.a, TAKE_PART.value(action) == 1)
        elif kind == EQUIP:
            self._equip(EQUIP_SEAT.value(action), task.a)
        else:  # ITEMS
            self._use_outside_combat(seat, action)

    def note_offered(self, legal_actions: Sequence[int]) -> None:
        """Count, once per card, the cards one of ``legal_actions`` would play
        for the current hero: hand cards played for their effect, single-use
        items used, armor, weapons and minions Sacrificed (the ``playable``
        counter; burying a card for +1 is not a play of it)."""
        kind = self.decisions.asked.kind
        if self.over or (kind != PLAN and kind != ITEMS):
            return
        seat = self.current_player
        # play_game passes the list asked, the last one built: its cards were noted then.
        if legal_actions is self.offered_answers:
            cards = self.offered_cards
        else:
            cards = self._cards_played_by(seat, legal_actions)
        counts = self.stats.counts
        base = self.stats.offset(seat, _PLAYABLE)
        index: i64
        earlier: i64
        for index in range(len(cards)):
            card = cards[index]
            for earlier in range(index):
                if cards[earlier] == card:
                    break
            else:
                counts[base + card] += 1

    def _cards_played_by(self, seat: int, legal_actions: Sequence[int]) -> vec[i64]:
        """The cards ``legal_actions`` would play for ``seat`` (read from the answers:
        ``note_offered`` of another list than the one asked, e.g. a copy)."""
        actions = answer_list(legal_actions)
        cards = vec[i64]()
        last_key = -1
        for index in range(len(actions)):
            action = actions[index]
            if action_code(action) in (BURY_DEFENSE_CODE, BURY_ATTACK_CODE):  # is_burial, per answer
                continue  # a burial plays no card: ~half the answers, skipped by their type
            key = action >> CARD_SHIFT
            if key == last_key:
                continue  # the same card with another target
            last_key = key
            card = self.played_card(seat, action)
            if card >= 0:
                cards = append(cards, card)
        return cards

    def played_card(self, seat: i64, action: i64) -> int:
        """The card a planning action plays, uses or sacrifices (-1: none)."""
        if PLAY_CARD.matches(action):
            return self.hand(seat)[PLAY_CARD.value(action)]
        if USE_ITEM.matches(action):
            return self.seat_zone(seat, ITEMS_HELD).cards[USE_ITEM.value(action)]
        if SACRIFICE.matches(action):
            return self.sacrificeable(seat, SACRIFICE.value(action))
        return -1

    def sacrificeable(self, seat: i64, index: i64) -> int:
        """Sacrifice index -> card: 0 the weapon, 1 the armor, 2 + k the k-th minion."""
        if index == 0:
            return self.weapon(seat)
        if index == 1:
            return self.armor(seat)
        return self.seat_zone(seat, MINIONS).cards[index - SACRIFICE_MINION]

    def describe_action(self, action: int) -> str:
        """The action in words, e.g. ``play fighter_strike`` or ``reveal slot 2``."""
        seat, kind, names = self.current_player, self.decisions.asked.kind, self.config.names
        if self.over:
            return "nothing"
        if kind == REVEAL:
            return f"reveal the land in slot {REVEAL_SLOT.value(action)} of tier {self.numbers[TIER] + 1}"
        if kind in (BURY, REMOVE):
            verb = "bury" if kind == BURY else "remove"
            return f"{verb} {names[self.hand(seat)[HAND_POSITION.value(action)]]}"
        if kind == ORDER:
            return f"resolve {names[self.zones[PENDING_ITEMS].cards[ORDER_POSITION.value(action)]]} next"
        if kind == ADD:
            return f"add {names[BUILD_POOL_CARD.value(action)]} to the Hero Deck"
        if kind == VOTE:
            hero = VOTE_SEAT.value(action)
            return f"vote the Ultimate to seat {hero} ({self.class_name(hero)})"
        if kind == SOCIAL:
            return "take part in the Social" if TAKE_PART.value(action) == 1 else "sit the Social out"
        if kind == EQUIP:
            hero, what = EQUIP_SEAT.value(action), "a weapon" if self.decisions.asked.a == WEAPON else "an armor"
            return f"seat {hero} ({self.class_name(hero)}) adds {what}"
        return self._describe_plan(seat, action)

    # --------------------------------------------------------- hero numbers

    def class_name(self, seat: int) -> str:
        """The hero class of ``seat``."""
        return self.config.heroes.names[self.seat_number(seat, HERO_CLASS)]

    def _permanent_total(self, seat: i64, stat: i64) -> int:
        """What the hero's permanents (armor, weapon, minions, permanent
        items) add to ``stat`` (PERM_ATTACK, PERM_DEFENSE, PERM_SPEED, PERM_HP)."""
        bonuses = self.config.permanent_bonuses
        zones = self.zones
        first = self.seat_zone_index(seat, 0)
        total: i64 = 0
        which: i64
        for which in range(first + WEAPON_SLOT, first + ITEMS_HELD + 1):
            for card in zones[which].cards:
                total += bonuses[card][stat]
        return total

    def _level_stat(self, stats: tuple[tuple[int, ...], ...], seat: i64) -> int:
        return stats[self.seat_numbers[seat * self.n_seat_numbers + HERO_CLASS]][self.numbers[LEVEL] - 1]

    def max_hp(self, seat: i64) -> int:
        """HP of the hero's level card plus permanent HP boosts."""
        return self._level_stat(self.config.heroes.hp, seat) + self._permanent_total(seat, PERM_HP)

    def base_attack(self, seat: i64) -> int:
        """Level attack plus permanents (the Base Stat)."""
        return self._level_stat(self.config.heroes.attack, seat) + self._permanent_total(seat, PERM_ATTACK)

    def base_defense(self, seat: i64) -> int:
        """Level defense plus permanents, minus the Nemesis penalty in a nemesis fight."""
        return (self._level_stat(self.config.heroes.defense, seat) + self._permanent_total(seat, PERM_DEFENSE)
                - self._nemesis_penalty(seat))

    def _nemesis_penalty(self, seat: i64) -> int:
        """What a nemesis fight takes off ``seat``'s defense (0 outside one)."""
        config = self.config
        if self.numbers[IN_COMBAT] and config.nemesis and self._facing_nemesis(seat):
            return config.heroes.nemesis_penalty[self.seat_number(seat, HERO_CLASS)]
        return 0

    def base_stats(self, seat: i64) -> tuple[int, int, int]:
        """``(base_attack(seat), base_defense(seat), base_speed(seat))`` from one walk over the
        hero's permanents instead of three (a forecast reads all three for every hero)."""
        attack, defense, speed = self._stats_before_nemesis(seat)
        return attack, defense - self._nemesis_penalty(seat), speed

    def _stats_before_nemesis(self, seat: i64) -> tuple[i64, i64, i64]:
        """Level plus permanents of attack, defense and speed (``base_stats`` before the Nemesis
        penalty, which changes as enemies die), from one walk over the permanents."""
        bonuses = self.config.permanent_bonuses
        zones = self.zones
        first = self.seat_zone_index(seat, 0)
        attack: i64 = 0
        defense: i64 = 0
        speed: i64 = 0
        which: i64
        for which in range(first + WEAPON_SLOT, first + ITEMS_HELD + 1):  # as _permanent_total
            for card in zones[which].cards:
                bonus = bonuses[card]
                attack += bonus[PERM_ATTACK]
                defense += bonus[PERM_DEFENSE]
                speed += bonus[PERM_SPEED]
        heroes = self.config.heroes
        return (self._level_stat(heroes.attack, seat) + attack, self._level_stat(heroes.defense, seat) + defense,
                self._level_stat(heroes.speed, seat) + speed)

    def base_speed(self, seat: i64) -> int:
        """Level speed plus permanents."""
        return self._level_stat(self.config.heroes.speed, seat) + self._permanent_total(seat, PERM_SPEED)

    def _facing_nemesis(self, seat: i64) -> bool:
        config = self.config
        wanted = config.heroes.nemesis_types[self.seat_number(seat, HERO_CLASS)]
        for enemy in range(self.numbers[ENEMY_COUNT]):
            if (self.enemy_number(ENEMY_HP, enemy) > 0 and self.enemy_number(ENEMY_KIND, enemy) != ENEMY_MONSTER
                    and config.enemy_types[self.enemy_number(ENEMY_CARD, enemy)] == wanted):
                return True
        return False

    def hero_attack(self, seat: i64, enemy: i64) -> int:
        """Total attack of ``seat`` against ``enemy`` this round (base stats
        apply to every enemy, cards to the one they are designated to)."""
        return self.attack_against(seat, enemy, self.base_attack(seat))

    def attack_against(self, seat: i64, enemy: i64, base_attack: i64) -> int:
        """``hero_attack`` for a hero whose ``base_attack`` is known (a
        forecast reads each hero's base stats once for every enemy)."""
        numbers, at = self.seat_numbers, seat * self.n_seat_numbers + ROUND_NUMBERS + enemy
        step = self.max_enemies
        return (base_attack + numbers[at + BONUS_ATTACK * step]
                + numbers[at + CARD_ATTACK * step] * numbers[at + MULTIPLY_ATTACK * step])

    def hero_defense(self, seat: i64, enemy: i64) -> int:
        """Total defense of ``seat`` against ``enemy`` this round."""
        return self.defense_against(seat, enemy, self.base_defense(seat))

    def defense_against(self, seat: i64, enemy: i64, base_defense: i64) -> int:
        """``hero_defense`` for a hero whose ``base_defense`` is known."""
        numbers, at = self.seat_numbers, seat * self.n_seat_numbers + ROUND_NUMBERS + enemy
        step = self.max_enemies
        cards = numbers[at + CARD_DEFENSE * step] * numbers[at + MULTIPLY_DEFENSE * step]
        return base_defense + numbers[at + BONUS_DEFENSE * step] + cards

    def hero_speed(self, seat: i64, enemy: i64) -> int:
        """Speed of ``seat`` against ``enemy`` this round."""
        return self.speed_against(seat, enemy, self.base_speed(seat))

    def speed_against(self, seat: i64, enemy: i64, base_speed: i64) -> int:
        """``hero_speed`` for a hero whose ``base_speed`` is known."""
        return base_speed + self.round_number(seat, BONUS_SPEED, enemy)

    def enemy_attack(self, enemy: i64) -> int:
        """Attack of ``enemy`` this round (the Combat Modifier's bonus included)."""
        return max(0, self.enemy_number(ENEMY_BASE_ATTACK, enemy) + self.numbers[ENEMY_ATTACK_BONUS]
                   - self.enemy_number(ENEMY_WEAKEN, enemy))

    def enemy_defense(self, enemy: i64) -> int:
        """Defense of ``enemy`` this round."""
        return max(0, self.enemy_number(ENEMY_BASE_DEFENSE, enemy) - self.enemy_number(ENEMY_EXPOSE, enemy))

    def enemy_speed(self, enemy: i64) -> int:
        """Speed of ``enemy`` this round."""
        return self.enemy_number(ENEMY_BASE_SPEED, enemy) - self.enemy_number(ENEMY_SLOW, enemy)

    def damage_from(self, seat: i64, enemy: i64) -> int:
        """Damage ``enemy`` does to ``seat`` when it attacks this round."""
        if self.round_number(seat, NEGATED, enemy):
            return 0  # before the hero's defense, which walks its permanents
        return self.damage_against(seat, enemy, self.enemy_attack(enemy), self.hero_defense(seat, enemy))

    def damage_against(self, seat: i64, enemy: i64, enemy_attack: i64, hero_defense: i64) -> int:
        """``damage_from`` when ``enemy_attack`` and ``seat``'s ``hero_defense`` against it are known."""
        if self.round_number(seat, NEGATED, enemy):
            return 0
        return max(0, enemy_attack - hero_defense)

    def incoming_damage(self, seat: int) -> int:
        """Damage ``seat`` takes this round if every living enemy attacks it."""
        return sum(self.damage_from(seat, enemy) for enemy in self.living_enemies())

    def living_enemies(self) -> list[int]:
        """Indices of the enemies still alive (the bits of ``_living_enemy_mask``)."""
        mask = self._living_enemy_mask()
        return [enemy for enemy in range(self.numbers[ENEMY_COUNT]) if mask >> enemy & 1]

    # ------------------------------------------------------------- the engine

    def _end(self, reason: str) -> None:
        self.end(reason)
        if self.trace is not None:
            self.emit("game_over", f"game over ({reason}) at level {self.numbers[LEVEL]}; bosses killed "
                      f"{self.numbers[BOSSES_KILLED]}", reason=reason, winners=self.winners())

    def _names(self, cards: Sequence[int]) -> str:
        return ", ".join(self.config.names[card] for card in cards) or "nothing"

    def _push_all(self, tasks: list[Task]) -> None:
        """Push ``tasks`` so that the first one runs first."""
        stack = self.decisions.stack
        for index in range(len(tasks) - 1, -1, -1):
            stack.append(tasks[index])

    # ------------------------------------------------------- cards and decks

    def _draw_cards(self, seat: i64, count: i64) -> int:
        """Draw up to ``count`` cards from the Hero Deck; return how many came."""
        deck, hand = self.seat_zone(seat, HERO_DECK), self.hand(seat)
        counts, drawn = self.stats.counts, self.stats.offset(seat, _DRAWN)
        for done in range(count):
            card = draw_face_down(deck, self.rng)
            if card < 0:
                return done
            hand.append(card)
            counts[drawn + card] += 1
        return count

    def _bury_hero_card(self, seat: i64, card: i64) -> None:
        self.seat_zone(seat, HERO_DECK).bury_face_up(card)

    def _shuffle_into_deck(self, seat: int, cards: list[int]) -> None:
        self.seat_zone(seat, HERO_DECK).shuffle_in(cards, self.rng)

    def _kill_hero(self, seat: int) -> None:
        """Death: permanents and held items are lost, the hand is shuffled back."""
        if not self.alive(seat):
            return
        self.set_seat_number(seat, ALIVE, 0)
        self._set_hp(seat, 0)
        self.numbers[HERO_DEATHS] += 1
        # Every permanent is lost: armor, weapons and minions go back to the
        # Build Pool, treasures and encounters under their decks.
        pool = self.seat_zone(seat, BUILD_POOL)
        for which in (WEAPON_SLOT, ARMOR_SLOT, MINIONS):
            pool.extend(self.seat_zone(seat, which).take_all())
        for card in self.seat_zone(seat, ITEMS_HELD).take_all():
            self._item_pile(card).bury_face_up(card)
        self._shuffle_into_deck(seat, self.seat_zone(seat, HAND).take_all())
        if self.trace is not None:
            self.emit("death", f"seat {seat} ({self.class_name(seat)}) dies", seat=seat)

    def _revive(self, seat: int, hp: int, draw: int) -> None:
        """Resurrection: back with ``hp``, Hero Deck shuffled, ``draw`` cards drawn."""
        self.set_seat_number(seat, ALIVE, 1)
        self._set_hp(seat, max(1, min(hp, self.max_hp(seat))))
        self._shuffle_into_deck(seat, [])
        self._draw_cards(seat, draw)
        if self.trace is not None:
            self.emit("resurrect", f"seat {seat} ({self.class_name(seat)}) returns with {self.hp(seat)} HP",
                      seat=seat)

    def _damage_hero(self, seat: i64, amount: i64) -> None:
        if amount <= 0 or not self.alive(seat):
            return
        hp = self.hp(seat) - amount
        self._set_hp(seat, hp)
        if hp <= 0:
            if not self.numbers[IN_COMBAT]:
                self.numbers[LAST_ENEMY] = self.numbers[DAMAGE_SOURCE]
            self._kill_hero(seat)

    def _heal_hero(self, seat: i64, amount: i64) -> None:
        if self.alive(seat):
            self._set_hp(seat, min(self.max_hp(seat), self.hp(seat) + amount))

    def _cap_hp(self, seat: i64) -> None:
        """HP no higher than the maximum (a permanent HP boost was lost or replaced)."""
        self._set_hp(seat, min(self.hp(seat), self.max_hp(seat)))

    def _party_alive(self) -> bool:
        return self._living_hero_mask() != 0

    def _next_living(self, seat: i64) -> int:
        for step in range(1, self.n_players + 1):
            other = (seat + step) % self.n_players
            if self.alive(other):
                return other
        return -1

    # ------------------------------------------------------------------ turns

    def _start_turn(self) -> None:
        """The next hero takes the Turn Counter and reveals a land on the tier."""
        numbers = self.numbers
        if numbers[TURN_COUNT] >= self.config.max_turns:
            self._end(END_TURN_CAP)
            return
        holder = numbers[HOLDER]
        if holder < 0:  # the first turn: the fastest living hero, the lowest seat of a tie
            fastest = 0
            for seat in range(self.n_players):
                if self.alive(seat):
                    speed = self.base_speed(seat)
                    if holder < 0 or speed > fastest:
                        holder, fastest = seat, speed
        elif not (numbers[HOLDER_STARTS] and self.alive(holder)):  # a new level starts with the holder
            holder = self._next_living(holder)
        numbers[HOLDER] = holder
        numbers[HOLDER_STARTS] = 0
        numbers[TURN_COUNT] += 1
        if self.trace is not None:
            self.emit("turn", f"turn {numbers[TURN_COUNT]}: seat {holder} ({self.class_name(holder)}) takes the "
                      f"Turn Counter and reveals a land on tier {numbers[TIER] + 1}", seat=holder)
        self._ask_question(_TASK_OF[REVEAL * MAX_SEATS + holder])

    def _reveal_land(self, seat: int, slot: int) -> None:
        tier = self.tier_zone(self.numbers[TIER])
        tier.reveal(slot)
        land = tier.cards[slot]
        self.numbers[DAMAGE_SOURCE] = land
        if self.trace is not None:
            self.emit("reveal", f"seat {seat} reveals {self.config.names[land]}", land=self.config.names[land])
        steps = [Task(SOCIAL_STEP, (seat + offset) % self.n_players, land) for offset in range(self.n_players)]
        for primitive, amount in self.config.effects[land]:
            if primitive == P_MINI_BOSS:
                steps.append(Task(MINI_BOSS, seat, land))
            else:
                steps.append(Task(EFFECT, seat, primitive, amount))
        steps.append(_TABLE_TASK[END_TURN])
        self._push_all(steps)

    def _social(self, seat: int, card: int) -> None:
        """The Social step of ``card`` (a land or the boss) for one hero: alone,
        draw 1 and bury 1; in a party, the hero chooses whether to take part
        (``rules.social`` offers the other models)."""
        config = self.config
        if not self.alive(seat):
            return
        if config.social == SOCIAL_SOLO or (config.social == SOCIAL_RULEBOOK and self.n_players == 1):
            self._draw_cards(seat, 1)
            self._ask_question(_TASK_OF[BURY * MAX_SEATS + seat])
        elif config.social == SOCIAL_RULEBOOK:
            self._ask_if(Task(SOCIAL, seat, card), bool(config.socials[card]))
        elif config.social == SOCIAL_REWARD:
            self._draw_cards(seat, config.social_reward)

    def _take_part(self, seat: int, card: int, joins: bool) -> None:
        """A hero takes part in the Social (and gets its reward) or sits it out."""
        if self.trace is not None:
            verb = "takes part in" if joins else "sits out"
            self.emit("social", f"seat {seat} ({self.class_name(seat)}) {verb} the Social of "
                      f"{self.config.names[card]}", seat=seat, joins=joins)
        if joins:
            self.numbers[DAMAGE_SOURCE] = card
            self._push_all([Task(EFFECT, seat, primitive, amount) for primitive, amount in self.config.socials[card]])

    def _bury_from_hand(self, seat: int, position: int) -> None:
        card = self.seat_zone(seat, HAND).take(position)
        self._bury_hero_card(seat, card)
        if self.trace is not None:
            self.emit("bury", f"seat {seat} buries {self.config.names[card]}", seat=seat, card=self.config.names[card])

    def _end_turn(self) -> None:
        """Healing between turns (``rules.heal_between_turns``); the next tier up."""
        config = self.config
        if config.heal_between_turns == HEAL_FULL:
            for seat in range(self.n_players):
                if self.alive(seat):
                    self._set_hp(seat, self.max_hp(seat))
        elif config.heal_between_turns == HEAL_AMOUNT:
            for seat in range(self.n_players):
                self._heal_hero(seat, config.heal_amount)
        self.numbers[TIER] -= 1
        self.push(_TABLE_TASK[REVEAL_BOSS] if self.numbers[TIER] == 0 else _TABLE_TASK[START_TURN])

    def _reveal_boss(self) -> None:
        """The boss is flipped (not a turn), its Social resolved, then the fight."""
        self.zones[PYRAMID_TOP].reveal(0)
        boss = self.boss()
        if self.trace is not None:
            self.emit("boss", f"the level-{self.numbers[LEVEL]} boss {self.config.names[boss]} is revealed",
                      boss=self.config.names[boss])
        holder = self.numbers[HOLDER]
        steps = [Task(SOCIAL_STEP, (holder + offset) % self.n_players, boss) for offset in range(self.n_players)]
        steps.append(_TABLE_TASK[BOSS_FIGHT])
        self._push_all(steps)

    # ------------------------------------------------- out-of-combat effects

    def _out_of_combat_effect(self, seat: int, primitive: int, amount: int) -> None:
        """A land action or an instant treasure/encounter effect for ``seat``."""
        if not self.alive(seat) and primitive not in (P_DAMAGE_PARTY, P_PARTY_HEAL, P_DRAW_PARTY):
            return
        if self._hero_effect(seat, seat, primitive, amount):  # a land's or an instant's: aimed at its hero
            return
        if primitive in (P_DAMAGE_PARTY, P_DAMAGE_SELF):
            self._before_damage(seat, amount, primitive == P_DAMAGE_PARTY)
        elif primitive == P_DRAW_PARTY:
            for other in range(self.n_players):
                if self.alive(other):
                    self._draw_cards(other, amount)
        elif primitive in (P_TREASURE, P_ENCOUNTER):
            self.push(Task(DRAW_ITEMS, seat, amount, TREASURE if primitive == P_TREASURE else ENCOUNTER))
        elif primitive == P_FIGHT:
            self.push(Task(FIGHT, seat, amount))
        elif primitive == P_ADD:
            for _ in range(amount):
                self.push(Task(ADD, seat, ADD_ANY_CARD))
        elif primitive == P_REMOVE:
            for _ in range(amount):
                self.push(_TASK_OF[REMOVE * MAX_SEATS + seat])
        elif primitive in (P_WEAPON, P_ARMOR):
            for _ in range(amount):
                self.push(Task(EQUIP, seat, WEAPON if primitive == P_WEAPON else ARMOR))

    def _can_equip(self, hero: int, kind: int) -> bool:
        """Whether ``hero`` can put a weapon or armor (``kind``) in play: alive, that slot
        empty ("Only 1 Armor and 1 Weapon allowed per Hero") and one in its Build Pool."""
        if not self.alive(hero) or self._equipment_slot(hero, kind).cards:
            return False
        kinds = self.config.kinds
        return any(kinds[card] == kind for card in self.seat_zone(hero, BUILD_POOL).cards)

    def _equipment_slot(self, hero: int, kind: int) -> Zone:
        """``hero``'s weapon or armor slot (``kind``: WEAPON or ARMOR)."""
        return self.seat_zone(hero, WEAPON_SLOT if kind == WEAPON else ARMOR_SLOT)

    def _equip_candidates(self, seat: int, kind: int) -> list[int]:
        """The other heroes who can take the weapon or armor ``seat`` cannot add ("choose
        another Hero from your Party to Add 1 of the specified card type"), clockwise."""
        return [hero for hero in ((seat + offset) % self.n_players for offset in range(1, self.n_players))
                if self._can_equip(hero, kind)]

    def _equip(self, hero: int, kind: int) -> None:
        """Put a weapon or armor (``kind``) from ``hero``'s Build Pool onto it (``_can_equip``)."""
        config = self.config
        pool = self.seat_zone(hero, BUILD_POOL)
        for position, card in enumerate(pool.cards):
            if config.kinds[card] == kind:
                move_card(pool, position, self._equipment_slot(hero, kind))
                if kind == ARMOR or any(p == P_PERM_HP for p, _ in config.effects[card]):
                    self._cap_hp(hero)
                if self.trace is not None:
                    self.emit("equip", f"seat {hero} equips {config.names[card]}", seat=hero)
                return

    def _before_damage(self, seat: int, amount: int, party: bool) -> None:
        """Damage outside combat lands after every hero holding a single-use
        item that works outside combat (negate, heal, resurrection...) has had
        the chance to use it, from ``seat`` clockwise."""
        usable = self.config.usable_outside_combat
        steps: list[Task] = []
        for offset in range(self.n_players):
            hero = (seat + offset) % self.n_players
            if self.alive(hero) and any(usable[card] for card in self.seat_zone(hero, ITEMS_HELD).cards):
                steps.append(_TASK_OF[ITEMS * MAX_SEATS + hero])
        steps.append(Task(DAMAGE, seat, amount, 1 if party else 0))
        self._push_all(steps)

    def pending_outside_damage(self) -> tuple[int, int, bool]:
        """(seat, amount, whole party) of the damage outside combat waiting
        for the item window to close; (-1, 0, False) if none."""
        for task in reversed(self.decisions.stack.tasks()):
            if task.kind == DAMAGE:
                return task.seat, task.a, task.b == 1
        return -1, 0, False

    def _damage_outside_combat(self, seat: int, amount: int, party: bool) -> None:
        """A trap, a hazard or a dare: ``amount`` damage to every hero (or to
        ``seat``) except those shielded by a negate item; then the wipe check."""
        for hero in range(self.n_players) if party else (seat,):
            if self.seat_number(hero, SHIELDED):
                if self.trace is not None:
                    self.emit("negated", f"seat {hero} takes no damage from "
                              f"{self._card_name(self.numbers[DAMAGE_SOURCE])}", seat=hero)
            else:
                self._damage_hero(hero, amount)
        for hero in range(self.n_players):
            self.set_seat_number(hero, SHIELDED, 0)
        self._check_wipe()

    def _card_name(self, card: int) -> str:
        """A card's name; the empty string for none (-1)."""
        return self.config.names[card] if card >= 0 else ""

    def _outside_item_actions(self, seat: int) -> list[int]:
        """DONE, or using a held single-use item that works outside combat on
        each hero it can aim at."""
        config = self.config
        actions = [DONE]
        self.offered_cards = vec[i64]()
        living_heroes = self._living_hero_mask()
        for index, card in enumerate(self.seat_zone(seat, ITEMS_HELD).cards):
            if config.usable_outside_combat[card]:
                self._add_targets(actions, USE_ITEM, index, card, config.targets[card], UNDESIGNATED, living_heroes)
        self.offered_answers = actions
        return actions

    def _use_outside_combat(self, seat: int, action: int) -> None:
        """Use one item before the damage lands (the hero may then use another)."""
        if action == DONE:
            return
        config = self.config
        index, hero = USE_ITEM.field(action, 0), USE_ITEM.field(action, 1)
        card = self.seat_zone(seat, ITEMS_HELD).take(index)
        self._item_pile(card).bury_face_up(card)
        self.stats.note_played(seat, _PLAYED, card, self.numbers[TURN_COUNT])
        if self.trace is not None:
            self.emit("use", f"seat {seat} uses {config.names[card]} outside combat (hero {hero})", seat=seat,
                      card=config.names[card])
        for primitive, amount in config.effects[card]:
            if primitive == P_NEGATE:
                self.set_seat_number(hero, SHIELDED, 1)
            else:
                self._hero_effect(seat, hero, primitive, amount)
        self.push(_TASK_OF[ITEMS * MAX_SEATS + seat])

    def _draw_items(self, seat: int, count: int, kind: int) -> None:
        pile = self.zones[TREASURE_DECK if kind == TREASURE else ENCOUNTER_DECK]
        pending = self.zones[PENDING_ITEMS]
        for _ in range(count):
            card = draw_face_down(pile, self.rng)
            if card < 0:
                break
            pending.add(card)
            if self.trace is not None:
                self.emit("draw_item", f"seat {seat} draws {self.config.names[card]}", seat=seat,
                          card=self.config.names[card])
        # The drawn cards all belong to ``seat``: the items one hero's card
        # brings resolve (on top of the stack) before another hero draws any.
        self.push(Task(ORDER, seat, seat))

    def _order(self, task: Task) -> None:
        """Several drawn treasures/encounters: the party picks which resolves next."""
        count = len(self.zones[PENDING_ITEMS].cards)
        if count == 0:
            return
        owner = task.a
        if count == 1:
            self._choose_item(owner, 0)
            return
        chooser = owner if self.alive(owner) else self._next_living(owner)
        if self._party_alive():
            self.ask(task if chooser == task.seat else Task(ORDER, chooser, owner), self.choices(task))

    def _choose_item(self, owner: int, index: int) -> None:
        pending = self.zones[PENDING_ITEMS]
        card = pending.take(index)
        if pending.cards:
            self.push(Task(ORDER, owner, owner))
        self.push(Task(RESOLVE_ITEM, owner, card))

    def _resolve_item(self, seat: int, card: int) -> None:
        """Instant: resolve, then bury; single use / permanent: keep it (a dead hero's is buried)."""
        if not self.alive(seat):
            self._item_pile(card).bury_face_up(card)
            return
        self._take_item(seat, card)

    def _take_item(self, seat: int, card: int) -> None:
        """``seat`` takes a drawn treasure or encounter: counted as drawn; a single-use or
        permanent one kept, an instant buried after its effects (pushed as tasks)."""
        config = self.config
        self.stats.add(seat, _DRAWN, card)
        if config.uses[card] != INSTANT:
            self.seat_zone(seat, ITEMS_HELD).add(card)
            if any(p == P_PERM_HP for p, _ in config.effects[card]):
                self._cap_hp(seat)
            return
        self._item_pile(card).bury_face_up(card)
        self.numbers[DAMAGE_SOURCE] = card
        self._push_all([Task(EFFECT, seat, primitive, amount) for primitive, amount in config.effects[card]])

    def _addable(self, seat: int, any_card: bool) -> list[int]:
        """Distinct cards of the Build Pool the hero may Add: class and utility
        cards (minions included) at a level-up; any card but armor, weapons
        and the Ultimate for a land's or an item's Add."""
        kinds = self.config.kinds
        allowed = ADDABLE_BY_CARDS if any_card else SKILL_KINDS
        return sorted({card for card in self.seat_zone(seat, BUILD_POOL).cards if kinds[card] in allowed})

    def _add_card(self, seat: int, card: int) -> None:
        """Added cards go to the bury pile (face up under the Hero Deck)."""
        pool = self.seat_zone(seat, BUILD_POOL)
        self._bury_hero_card(seat, pool.take(pool.cards.index(card)))
        if self.trace is not None:
            self.emit("add", f"seat {seat} adds {self.config.names[card]}", seat=seat, card=self.config.names[card])

    def _remove_from_hand(self, seat: int, position: int) -> None:
        """Back to the Build Pool; a card removed from the hand is replaced by a draw."""
        card = move_card(self.seat_zone(seat, HAND), position, self.seat_zone(seat, BUILD_POOL))
        self._draw_cards(seat, 1)
        if self.trace is not None:
            self.emit("remove", f"seat {seat} removes {self.config.names[card]}", seat=seat,
                      card=self.config.names[card])

    # ---------------------------------------------------------------- combat

    def _fight_monsters(self, count: int) -> None:
        deck, fighting = self.zones[MONSTER_DECK], self.zones[FIGHTING_MONSTERS]
        for _ in range(count):
            card = draw_face_down(deck, self.rng)
            if card >= 0:
                fighting.add(card)
        if fighting.cards:
            self._start_combat(list(fighting.cards), ENEMY_MONSTER)

    def _start_combat(self, cards: list[int], kind: int) -> None:
        """Enemy stats by party level, HP multiplied by the number of heroes."""
        config, numbers, step = self.config, self.numbers, self.max_enemies
        numbers[IN_COMBAT] = 1
        numbers[ENEMY_COUNT] = len(cards)
        numbers[COMBAT_ROUND] = 0
        for enemy, card in enumerate(cards):
            stats = stats_for(config, card, numbers[LEVEL])
            for stat, value in ((ENEMY_CARD, card), (ENEMY_KIND, kind), (ENEMY_HP, stats[3] * self.n_players),
                                (ENEMY_BASE_ATTACK, stats[0]), (ENEMY_BASE_DEFENSE, stats[1]),
                                (ENEMY_BASE_SPEED, stats[2]), (ENEMY_SLOW, 0), (ENEMY_WEAKEN, 0), (ENEMY_EXPOSE, 0)):
                numbers[ENEMY_NUMBERS + stat * step + enemy] = value
        if self.trace is not None:
            text = ", ".join(f"{config.names[card]} (attack {self.enemy_number(ENEMY_BASE_ATTACK, enemy)}, defense "
                             f"{self.enemy_number(ENEMY_BASE_DEFENSE, enemy)}, speed "
                             f"{self.enemy_number(ENEMY_BASE_SPEED, enemy)}, HP {self.enemy_number(ENEMY_HP, enemy)})"
                             for enemy, card in enumerate(cards))
            self.emit("combat", f"combat against {text}", enemies=[config.names[card] for card in cards])
        self._start_round()
        self.push(_TABLE_TASK[COMBAT])

    def _start_round(self) -> None:
        numbers = self.numbers
        numbers[COMBAT_ROUND] += 1
        numbers[TOTAL_ROUNDS] += 1
        numbers[PLANNER_INDEX] = 0
        numbers[PASSES] = 0
        numbers[COMBAT_VERSION] += 1
        if self.config.decks.modifier_effects:
            self._apply_combat_modifier()

    def _apply_combat_modifier(self) -> None:
        """The Combat Modifier table cards act at the start of the round, before
        planning (their bonuses end with the round like every other, and count
        against every enemy); a round in which one of them changes a number
        counts as a trigger."""
        config = self.config
        dead = sum(1 for seat in range(self.n_players) if not self.alive(seat))
        triggered = False
        for primitive, amount in config.decks.modifier_effects:
            if primitive == P_ENEMY_ATTACK_PER_DEAD:
                self.numbers[ENEMY_ATTACK_BONUS] += amount * dead
                triggered = triggered or amount * dead != 0
            else:
                self._combat_effects(self.numbers[HOLDER], ((primitive, amount),), 0, -1, False)
                triggered = triggered or amount != 0
        if triggered:
            self.numbers[MODIFIER_TRIGGERS] += 1
            if self.trace is not None:
                bonus = self.numbers[ENEMY_ATTACK_BONUS]
                self.emit("modifier", f"combat modifier {self._names(config.decks.combat_modifiers)}: {dead} dead "
                          f"heroes, enemy attack +{bonus} this round", dead=dead, enemy_attack_bonus=bonus)

    def _combat_needs_decision(self) -> None:
        """Walk the planners (from the Turn Counter holder) and ask the next one
        who can act; when planning is over, execute the round, until the combat ends.

        ``rules.planning = "once"``: each hero plans once, in turn. ``"anytime"``
        (skills "may be used anytime within the combat, even out of turn"):
        planning goes round the table again and again until every hero has
        passed in a row, so a hero who was done may answer what a teammate played."""
        numbers = self.numbers
        count: i64 = self.n_players
        seat: i64
        once = self.config.planning == PLANNING_ONCE
        while numbers[IN_COMBAT]:
            start = numbers[HOLDER] if numbers[HOLDER] >= 0 else 0
            while numbers[PLANNER_INDEX] < count if once else numbers[PASSES] < count:
                seat = (start + numbers[PLANNER_INDEX] % count) % count
                if self.alive(seat) and self._holds_anything_to_plan(seat):
                    actions = self._plan_actions(seat)
                    if len(actions) > 1 or self.hand(seat):
                        self.ask(_TASK_OF[PLAN * MAX_SEATS + seat], actions)
                        return
                if not once:
                    numbers[PASSES] += 1
                numbers[PLANNER_INDEX] += 1
            self._execute_round()

    def _holds_anything_to_plan(self, seat: i64) -> bool:
        """Whether ``seat`` holds a hand card, an item, a weapon, an armor or a minion: without
        any, its only planning answer is done (checked before the answers are built)."""
        zones, first = self.zones, self.seat_zone_index(seat, 0)
        return (len(zones[first + HAND].cards) > 0 or len(zones[first + ITEMS_HELD].cards) > 0
                or len(zones[first + WEAPON_SLOT].cards) > 0 or len(zones[first + ARMOR_SLOT].cards) > 0
                or len(zones[first + MINIONS].cards) > 0)

    def _plan_actions(self, seat: int) -> list[int]:
        config = self.config
        actions = [DONE]
        self.offered_cards = vec[i64]()
        # Heroes and enemies as bit masks (a bit per seat, per enemy): no lists per question.
        enemies = self._living_enemy_mask()
        designate = enemies & (enemies - 1) != 0  # two or more
        # A card not designated to an enemy is aimed at the first living one.
        first_enemy: i64 = UNDESIGNATED  # (set apart: a conditional expression mixing it would box it)
        if enemies:
            first_enemy = enemies & -enemies
        hand = self.hand(seat)
        living_heroes = self._living_hero_mask()
        positions = distinct_positions(hand)
        for position in positions:
            card = hand[position]
            if self._playable(seat, config.effects[card]):
                self._add_targets(actions, PLAY_CARD, position, card, config.targets[card],
                                  enemies if designate and config.aims_at_enemy[card] else first_enemy, living_heroes)
        answers = cast(list[object], actions)  # takes the shared answers of the runs as they are
        burials = run_table(living_heroes, enemies)
        for position in positions:
            answers.extend(burial_run(burials, position, living_heroes, enemies))
        for index, card in enumerate(self.seat_zone(seat, ITEMS_HELD).cards):
            if config.uses[card] == SINGLE_USE and self._playable(seat, config.effects[card]):
                self._add_targets(actions, USE_ITEM, index, card, config.targets[card],
                                  enemies if designate and config.aims_at_enemy[card] else first_enemy, living_heroes)
        for index in range(SACRIFICE_MINION + len(self.seat_zone(seat, MINIONS).cards)):
            card = self.sacrificeable(seat, index)
            if card >= 0 and config.sacrifices[card] and self._playable(seat, config.sacrifices[card]):
                self._add_targets(actions, SACRIFICE, index, card, config.sacrifice_targets[card],
                                  enemies if designate and config.sacrifice_aims_at_enemy[card] else first_enemy,
                                  living_heroes)
        self.offered_answers = actions
        return actions

    def _living_hero_mask(self) -> i64:
        """A bit per living hero (bit ``seat``)."""
        # The ALIVE numbers read directly (``alive``'s reading): asked at every attack of a round.
        seat_numbers, size = self.seat_numbers, self.n_seat_numbers
        mask: i64 = 0
        hero: i64
        n_players: i64 = self.n_players
        for hero in range(n_players):
            if seat_numbers[hero * size + ALIVE] != 0:
                mask |= 1 << hero
        return mask

    def _living_enemy_mask(self) -> i64:
        """A bit per enemy still alive (bit ``enemy``; 0 outside combat)."""
        numbers, first = self.numbers, ENEMY_NUMBERS + ENEMY_HP * self.max_enemies
        mask: i64 = 0
        enemy: i64
        for enemy in range(numbers[ENEMY_COUNT]):
            if numbers[first + enemy] > 0:
                mask |= 1 << enemy
        return mask

    def _playable(self, seat: i64, effects: Effects) -> bool:
        """Only one 2x/3x multiplier per stat per hero per round (``rules.multipliers =
        "party"``: only one per stat per round for the whole party)."""
        for effect in effects:
            primitive = effect[0]
            if primitive in (P_MULTIPLY_ATTACK, P_MULTIPLY_DEFENSE):
                stat = MULTIPLY_ATTACK if primitive == P_MULTIPLY_ATTACK else MULTIPLY_DEFENSE
                # A multiplier in play is a round number above 1 against some enemy.
                first, last = (0, self.n_players) if self.config.multipliers == MULTIPLIERS_PARTY else (seat, seat + 1)
                for hero in range(first, last):
                    for enemy in range(self.max_enemies):
                        if self.round_number(hero, stat, enemy) > 1:
                            return False
        return True

    def _add_targets(self, actions: list[int], action_type: ActionType, index: int, card: int, target: int,
                     enemies: i64, living_heroes: i64) -> None:
        """Append ``action_type`` on ``index`` (which plays ``card``) with every
        (hero, enemy) target the card can take: the heroes it may aim at (none:
        hero 0; a living or a dead one, by ``living_heroes``' bits) times the
        enemies whose bits ``enemies`` sets (the living enemies when it is
        designated to one, else the first living one, or ``UNDESIGNATED``: enemy
        0). A card with at least one answer is noted in ``offered_cards``."""
        if target == TARGET_HERO:
            heroes = living_heroes
        elif target == TARGET_DEAD:
            heroes = ~living_heroes & ((1 << self.n_players) - 1)  # the seats' bits only: a run's key
        else:
            heroes = 1
        run = target_run(action_type, index, heroes, enemies)
        if run:
            cast(list[object], actions).extend(run)  # takes the shared answers of the run as they are
            self.offered_cards = append(self.offered_cards, card)

    def _plan(self, seat: int, action: int) -> None:
        """One planning action: play, bury for +1, use an item, sacrifice, or done."""
        numbers = self.numbers
        if action == DONE:
            numbers[PLANNER_INDEX] += 1
            numbers[PASSES] += 1
            return
        numbers[PASSES] = 0
        numbers[COMBAT_VERSION] += 1
        config = self.config
        index, hero, enemy = PLAY_CARD.field(action, 0), PLAY_CARD.field(action, 1), PLAY_CARD.field(action, 2)
        turn = numbers[TURN_COUNT]
        if PLAY_CARD.matches(action):
            hand = self.seat_zone(seat, HAND)
            card = hand.cards[index]
            self.stats.note_played(seat, _PLAYED, card, turn)
            kind = config.kinds[card]
            # A minion is a permanent from now on; a once-per-combat card waits for the end of the combat.
            move_card(hand, index, self.seat_zone(seat, MINIONS if kind == MINION else
                                                  ASIDE if config.once_per_combat[card] else IN_PLAY))
            if self.trace is not None:
                self.emit("play", f"seat {seat} plays {config.names[card]}{self._aim(card, hero, enemy)}", seat=seat,
                          card=config.names[card], hero=hero, enemy=enemy)
            self._combat_effects(seat, config.effects[card], hero, enemy, kind in (ATTACK, DEFENSE))
        elif BURY_FOR_DEFENSE.matches(action) or BURY_FOR_ATTACK.matches(action):
            card = self.seat_zone(seat, HAND).take(index)
            self.stats.add(seat, _BURIED, card)
            self._bury_hero_card(seat, card)
            attack = BURY_FOR_ATTACK.matches(action)
            self.seat_numbers[self.round_index(hero, BONUS_ATTACK if attack else BONUS_DEFENSE, enemy)] += 1
            if self.trace is not None:
                self.emit("bury_bonus", f"seat {seat} buries {config.names[card]} for "
                          f"{self._bonus_text(hero, enemy, attack)}", seat=seat)
        elif USE_ITEM.matches(action):
            card = self.seat_zone(seat, ITEMS_HELD).take(index)
            self._item_pile(card).bury_face_up(card)
            self.stats.note_played(seat, _PLAYED, card, turn)
            if self.trace is not None:
                self.emit("use", f"seat {seat} uses {config.names[card]}{self._aim(card, hero, enemy)}", seat=seat,
                          card=config.names[card])
            self._combat_effects(seat, config.effects[card], hero, enemy, False)
        else:
            card = self.sacrificeable(seat, index)
            which = WEAPON_SLOT if index == 0 else ARMOR_SLOT if index == 1 else MINIONS
            source = self.seat_zone(seat, which)
            move_card(source, 0 if which != MINIONS else index - SACRIFICE_MINION, self.seat_zone(seat, BUILD_POOL))
            self.stats.note_played(seat, _PLAYED, card, turn)
            self._cap_hp(seat)
            if self.trace is not None:
                aim = self._aim(card, hero, enemy, True)
                self.emit("sacrifice", f"seat {seat} sacrifices {config.names[card]}{aim}", seat=seat,
                          card=config.names[card])
            self._combat_effects(seat, config.sacrifices[card], hero, enemy, False)
        if not self._living_enemy_mask():
            self._finish_round()

    def _combat_effects(self, seat: int, effects: Effects, hero: int, enemy: int, basic_card: bool) -> None:
        """Apply a card's effects, aimed at ``hero`` (for guard, negate, heal,
        resurrect) and designated to ``enemy`` (every enemy when -1: the
        Combat Modifier's party bonuses); the numbers of Attack and Defense
        cards are the ones a 2x/3x multiplier doubles or triples."""
        enemies = [enemy] if enemy >= 0 else list(range(self.numbers[ENEMY_COUNT]))
        numbers = self.seat_numbers
        for primitive, amount in effects:
            # (who, stat, how): the round number it changes for ``who`` (-1: every hero)
            # by adding ``amount`` (or setting it, for multipliers and negate).
            stat = -1
            who = seat
            if primitive == P_ATTACK:
                stat = CARD_ATTACK if basic_card else BONUS_ATTACK
            elif primitive == P_DEFENSE:
                stat = CARD_DEFENSE if basic_card else BONUS_DEFENSE
            elif primitive == P_SPEED:
                stat = BONUS_SPEED
            elif primitive in (P_PARTY_ATTACK, P_PARTY_DEFENSE, P_PARTY_SPEED):
                stat = (BONUS_ATTACK if primitive == P_PARTY_ATTACK else
                        BONUS_DEFENSE if primitive == P_PARTY_DEFENSE else BONUS_SPEED)
                who = -1
            elif primitive in (P_MULTIPLY_ATTACK, P_MULTIPLY_DEFENSE):
                stat = MULTIPLY_ATTACK if primitive == P_MULTIPLY_ATTACK else MULTIPLY_DEFENSE
            elif primitive == P_GUARD:
                stat, who = BONUS_DEFENSE, hero
            elif primitive == P_NEGATE:
                stat, who = NEGATED, hero
            if stat >= 0:
                setting = stat in (MULTIPLY_ATTACK, MULTIPLY_DEFENSE, NEGATED)
                value = 1 if stat == NEGATED else amount
                for other in range(self.n_players) if who < 0 else (who,):
                    for target in enemies:
                        at = self.round_index(other, stat, target)
                        numbers[at] = value if setting else numbers[at] + value
            elif primitive == P_DAMAGE:
                for target in enemies:
                    self._damage_enemy(target, amount)
            elif primitive in (P_SLOW, P_WEAKEN, P_EXPOSE):
                stat = ENEMY_SLOW if primitive == P_SLOW else ENEMY_WEAKEN if primitive == P_WEAKEN else ENEMY_EXPOSE
                for target in enemies:
                    self.numbers[self.enemy_index(stat, target)] += amount
            else:
                self._hero_effect(seat, hero, primitive, amount)

    def _hero_effect(self, seat: int, hero: int, primitive: int, amount: int) -> bool:
        """A heal, resurrect or draw effect of ``seat``'s card, item or land, aimed at
        ``hero`` (the same in combat and out of it); False for another primitive."""
        if primitive == P_HEAL:
            self._heal_hero(hero, amount)
        elif primitive == P_HEAL_SELF:
            self._heal_hero(seat, amount)
        elif primitive == P_PARTY_HEAL:
            for other in range(self.n_players):
                self._heal_hero(other, amount)
        elif primitive == P_RESURRECT:
            if not self.alive(hero):
                self._revive(hero, amount, self.config.hand_size)
        elif primitive == P_DRAW:
            self._draw_cards(seat, amount)
        else:
            return False
        return True

    def _damage_enemy(self, enemy: i64, amount: i64) -> None:
        at = self.enemy_index(ENEMY_HP, enemy)
        hp = self.numbers[at]
        if hp <= 0:
            return
        self.numbers[at] = max(0, hp - amount)
        if hp <= amount and self.trace is not None:
            name = self.config.names[self.enemy_number(ENEMY_CARD, enemy)]
            self.emit("enemy_dies", f"{name} dies", enemy=name)

    def initiative(self) -> list[tuple[bool, int, int]]:
        """The round's attacks by speed, fastest first: ``(True, seat, enemy)``
        for a hero's attack on one enemy (at the hero's speed against it) and
        ``(False, enemy, -1)`` for an enemy's attack on every hero; ties go to
        the heroes, then seat order (heroes) or enemy order."""
        order: list[tuple[bool, int, int]] = []
        for key in self._initiative_keys(self._round_base_stats()):
            if initiative_by_enemy(key):
                order.append((False, initiative_attacker(key), -1))
            else:
                order.append((True, initiative_attacker(key), initiative_enemy(key)))
        return order

    def _round_base_stats(self) -> vec[i64]:
        """Each living hero's ``_stats_before_nemesis`` (``ROUND_BASES * seat`` + ``BASE_ATTACK``,
        ``BASE_DEFENSE``, ``BASE_SPEED``; 0 for a dead hero), read once per round: no permanent
        of a living hero changes while the round executes, and every attack reads them."""
        n_players: i64 = self.n_players
        bases = vec[i64](capacity=ROUND_BASES * n_players)  # appended in place
        seat: i64
        for seat in range(n_players):
            attack: i64 = 0
            defense: i64 = 0
            speed: i64 = 0
            if self.alive(seat):
                attack, defense, speed = self._stats_before_nemesis(seat)
            bases = append(append(append(bases, attack), defense), speed)
        return bases

    def _initiative_keys(self, bases: vec[i64]) -> vec[i64]:
        """``initiative`` as sorted ints: the speed (fastest lowest), heroes before enemies,
        then the seat or enemy, then the enemy a hero attacks (plus one). Ints below 2**30
        in a native vector, sorted natively, instead of tuples compared field by field.
        ``bases``: the round's ``_round_base_stats``."""
        keys = vec[i64]()
        living = self._living_enemy_mask()
        seat: i64
        enemy: i64
        n_players: i64 = self.n_players
        n_enemies = self.numbers[ENEMY_COUNT]
        for seat in range(n_players):
            if self.alive(seat):
                base_speed = bases[ROUND_BASES * seat + BASE_SPEED]
                for enemy in range(n_enemies):
                    if living >> enemy & 1:
                        speed = self.speed_against(seat, enemy, base_speed)
                        keys = append(keys, initiative_key(speed, 0, seat, enemy + 1))
        for enemy in range(n_enemies):
            if living >> enemy & 1:
                keys = append(keys, initiative_key(self.enemy_speed(enemy), 1, enemy, 0))
        sort_in_place(keys)
        return keys

    def _execute_round(self) -> None:
        """Resolve hero attacks and enemy attacks in initiative order."""
        bases = self._round_base_stats()
        for key in self._initiative_keys(bases):
            if not self._living_enemy_mask() or not self._party_alive():
                break
            index = initiative_attacker(key)
            if not initiative_by_enemy(key):
                enemy = initiative_enemy(key)
                if self.alive(index) and self.enemy_number(ENEMY_HP, enemy) > 0:
                    self._hero_attacks(index, enemy, bases[ROUND_BASES * index + BASE_ATTACK])
            elif self.enemy_number(ENEMY_HP, index) > 0:
                self._enemy_attacks(index, bases)
        self._finish_round()

    def _hero_attacks(self, seat: i64, enemy: i64, base_attack: i64) -> None:
        """A hero attacks an enemy once: total attack >= defense hits for 1 HP."""
        total, defense = self.attack_against(seat, enemy, base_attack), self.enemy_defense(enemy)
        hit = total >= defense
        if self.trace is not None:
            self.emit("attack", f"seat {seat} attacks {self.config.names[self.enemy_number(ENEMY_CARD, enemy)]}: "
                      f"{total} against defense {defense}: {'hit' if hit else 'miss'}", seat=seat, hit=hit)
        if hit:
            self._damage_enemy(enemy, 1)

    def _enemy_attacks(self, enemy: i64, bases: vec[i64]) -> None:
        """The enemy attacks every living hero once for the attack above each
        hero's defense against it (``bases``: the round's ``_round_base_stats``; the
        Nemesis penalty read at the attack, as an enemy killed earlier in the round ends it)."""
        attack, card = self.enemy_attack(enemy), self.enemy_number(ENEMY_CARD, enemy)
        seat: i64
        n_players: i64 = self.n_players
        for seat in range(n_players):
            if not self.alive(seat):
                continue
            base_defense = bases[ROUND_BASES * seat + BASE_DEFENSE] - self._nemesis_penalty(seat)
            defense = self.defense_against(seat, enemy, base_defense)
            damage = self.damage_against(seat, enemy, attack, defense)
            if self.trace is not None:
                self.emit("enemy_attack", f"{self.config.names[card]} attacks seat {seat}: {attack} against defense "
                          f"{defense}: {damage} damage", seat=seat, damage=damage)
            self._damage_hero(seat, damage)
            if not self.alive(seat):
                self.numbers[LAST_ENEMY] = card

    def _finish_round(self) -> None:
        """Bury used cards, reset stats, one draw per living hero; then the
        next round, or the end of combat."""
        seat: i64
        n_players: i64 = self.n_players
        for seat in range(n_players):
            in_play = self.seat_zone(seat, IN_PLAY)
            if in_play.cards:  # take_all makes a new list and vector: only for a zone with cards
                for card in in_play.take_all():
                    self._bury_hero_card(seat, card)
        self._reset_round_stats()
        for seat in range(n_players):
            if self.alive(seat):
                self._draw_cards(seat, 1)
        if not self._party_alive() or not self._living_enemy_mask():
            self._end_combat()
            return
        if self.numbers[COMBAT_ROUND] >= self.config.max_combat_rounds:
            self.numbers[IN_COMBAT] = 0
            self._end(END_ROUND_CAP)
            return
        self._start_round()

    def _reset_round_stats(self) -> None:
        """Every hero's round numbers back to 0 (the multipliers to 1), the enemies' slow,
        weaken and expose to 0."""
        seat_numbers, step = self.seat_numbers, self.max_enemies
        seat: i64
        n_players: i64 = self.n_players
        for seat in range(n_players):
            first = seat * self.n_seat_numbers + ROUND_NUMBERS
            fill(seat_numbers, first, ROUND_STATS * step, 0)
            fill(seat_numbers, first + MULTIPLY_ATTACK * step, step, 1)
            fill(seat_numbers, first + MULTIPLY_DEFENSE * step, step, 1)
        numbers = self.numbers
        count = numbers[ENEMY_COUNT]
        fill(numbers, ENEMY_NUMBERS + ENEMY_SLOW * step, count, 0)
        fill(numbers, ENEMY_NUMBERS + ENEMY_WEAKEN * step, count, 0)
        fill(numbers, ENEMY_NUMBERS + ENEMY_EXPOSE * step, count, 0)
        numbers[ENEMY_ATTACK_BONUS] = 0

    def _end_combat(self) -> None:
        """Once-per-combat cards are buried; dead monsters buried; rewards."""
        config, numbers = self.config, self.numbers
        numbers[IN_COMBAT] = 0
        for seat in range(self.n_players):
            for card in self.seat_zone(seat, ASIDE).take_all():
                self._bury_hero_card(seat, card)
        won = self._party_alive()
        boss_killed = False
        nemesis_rewards: list[Task] = []
        monster_deck = self.zones[MONSTER_DECK]
        for card in self.zones[FIGHTING_MONSTERS].take_all():
            monster_deck.bury_face_up(card)
        enemies = self.enemy_cards()
        for enemy, card in enumerate(enemies):
            kind = self.enemy_number(ENEMY_KIND, enemy)
            if kind == ENEMY_BOSS:
                boss_killed = won
            if won and kind != ENEMY_MONSTER and config.nemesis:
                for seat in range(self.n_players):
                    cls = self.seat_number(seat, HERO_CLASS)
                    if self.alive(seat) and config.heroes.nemesis_types[cls] == config.enemy_types[card]:
                        nemesis_rewards.append(Task(DRAW_ITEMS, seat, config.heroes.nemesis_reward[cls], TREASURE))
        if won:
            numbers[LAST_ENEMY] = enemies[-1]
        if self.trace is not None:
            self.emit("combat_end", "the party wins the combat" if won else "the party is wiped out")
        numbers[ENEMY_COUNT] = 0
        numbers[ENEMY_ATTACK_BONUS] = 0
        numbers[COMBAT_ROUND] = 0
        if not won:
            self._check_wipe()
            return
        if boss_killed:
            self.push(_TABLE_TASK[LEVEL_UP])
        self._push_all(nemesis_rewards)

    def _check_wipe(self) -> None:
        """Every hero dead: the party loses - or, in Party mode, goes on."""
        if self._party_alive():
            return
        numbers = self.numbers
        numbers[IN_COMBAT] = 0
        numbers[WIPES] += 1
        if numbers[WIPES] == 1:
            numbers[FIRST_WIPE_LEVEL] = numbers[LEVEL]
        if not self.config.party_mode:
            self._end(END_PARTY_DEAD)
            return
        if self.trace is not None:
            self.emit("wipe", "Party mode: the party is revived and advances")
        self.decisions.stack.clear()
        for card in self.zones[PENDING_ITEMS].take_all():
            self._item_pile(card).bury_face_up(card)
        for seat in range(self.n_players):
            self.set_seat_number(seat, SHIELDED, 0)
            self.set_seat_number(seat, ALIVE, 1)
            self._set_hp(seat, 1)  # full HP on the next level card, even in Hardcore
        boss = self.boss()
        if boss >= 0:  # back into its level's pool, face down: nobody knows where
            self.zones[BOSS_POOL + self.config.boss_levels[boss] - 1].add(self.zones[PYRAMID_TOP].take(0), NOBODY)
        steps = [Task(ADD, seat, ADD_SKILL_CARD) for seat in range(self.n_players)]
        steps.append(Task(NEXT_LEVEL, -1, 1 if numbers[LEVEL] < LEVELS else 0, 1))
        self._push_all(steps)

    # -------------------------------------------------------------- level-up

    def _level_up(self) -> None:
        """After a boss: a treasure each, an added class/utility card each,
        the Ultimate vote, then the next level."""
        numbers = self.numbers
        level = numbers[LEVEL]
        boss = move_card(self.zones[PYRAMID_TOP], 0, self.zones[DEFEATED_BOSSES])
        numbers[BOSS_KILLS + level - 1] += 1
        numbers[BOSSES_KILLED] += 1
        if self.trace is not None:
            self.emit("boss_killed", f"the party kills {self.config.names[boss]}: level {level} done")
        if level == LEVELS:
            self._end(END_VICTORY)
            return
        if self.config.revive_at_level_up and not self.config.hardcore:
            # Not in the rulebook, which brings the dead back only by
            # resurrection: the switch rules.revive_at_level_up (off).
            for seat in range(self.n_players):
                if not self.alive(seat):
                    self.set_seat_number(seat, ALIVE, 1)
                    self._set_hp(seat, 1)
        holder = numbers[HOLDER]
        order = [(holder + offset) % self.n_players for offset in range(self.n_players)]  # from the holder
        dead_too = self.config.dead_heroes_level_up
        if dead_too:
            # "each Hero Draws 1 Treasure": a dead hero's is drawn now (the living draw
            # theirs below, a card whose items may need answers): an instant resolves
            # what works for a dead hero (party effects), another waits with it.
            for seat in order:
                if not self.alive(seat):
                    self._dead_heros_treasure(seat)
        steps = [Task(DRAW_ITEMS, seat, 1, TREASURE) for seat in order if self.alive(seat) or not dead_too]
        steps += [Task(ADD, seat, ADD_SKILL_CARD) for seat in order]
        if self._ultimate_due(numbers[BOSSES_KILLED]):
            steps.append(_TASK_OF[VOTE * MAX_SEATS + holder])
        steps.append(Task(NEXT_LEVEL, -1, 1, 0))
        self._push_all(steps)

    def _dead_heros_treasure(self, seat: int) -> None:
        """A dead hero's level-up Treasure (``rules.dead_heroes_level_up``): kept, or
        buried after its instant effects (those that reach a dead hero: party ones)."""
        card = draw_face_down(self.zones[TREASURE_DECK], self.rng)
        if card < 0:
            return
        if self.trace is not None:
            name = self.config.names[card]
            self.emit("draw_item", f"seat {seat} (dead) draws {name}", seat=seat, card=name)
        self._take_item(seat, card)

    def _ultimate_due(self, boss_number: int) -> bool:
        """4+ heroes: after every boss; 2-3: from the 2nd boss; solo: after the 3rd."""
        if self.n_players >= 4:
            return True
        if self.n_players >= 2:
            return boss_number >= 2
        return boss_number == 3

    def _ultimate_candidates(self) -> list[int]:
        kinds = self.config.kinds
        dead_too = self.config.dead_heroes_level_up
        return [seat for seat in range(self.n_players)
                if (dead_too or self.alive(seat))
                and any(kinds[card] == ULTIMATE for card in self.seat_zone(seat, BUILD_POOL).cards)]

    def _give_ultimate(self, seat: int) -> None:
        pool = self.seat_zone(seat, BUILD_POOL)
        for position, card in enumerate(pool.cards):
            if self.config.kinds[card] == ULTIMATE:
                self._bury_hero_card(seat, pool.take(position))
                if self.trace is not None:
                    self.emit("ultimate",
                              f"the party votes the Ultimate to seat {seat} ({self.class_name(seat)})", seat=seat)
                return

    def _next_level(self, advance: bool, heal: bool) -> None:
        """Flip the level card, reset HP (not in Hardcore), rebuild the Pyramid,
        shuffle every Hero Deck and draw a new hand."""
        config, rng, numbers = self.config, self.rng, self.numbers
        if advance:
            numbers[LEVEL] += 1
        for seat in range(self.n_players):
            if self.alive(seat):
                self._set_hp(seat, self.max_hp(seat) if heal else min(self.hp(seat), self.max_hp(seat)))
        # Revealed lands are buried and replaced; the longer game adds a tier.
        land_deck = self.zones[LAND_DECK]
        tiers = [self.tier_zone(tier) for tier in range(1, self.tier_count())]
        for tier in tiers:
            for slot in range(len(tier.cards)):
                if tier.seen[slot] == EVERY_SEAT:
                    land_deck.bury_face_up(tier.cards[slot])
                    tier.cards[slot] = draw_face_down(land_deck, rng)
        if config.longer_game:
            self._add_tier([draw_face_down(land_deck, rng) for _ in range(self.tier_count() + 1)])
            tiers.append(self.tier_zone(self.tier_count() - 1))
        lands = [land for tier in tiers for land in tier.cards]
        rng.shuffle(lands)
        position = 0
        for tier in tiers:
            for slot in range(len(tier.cards)):
                tier.cards[slot] = lands[position]
                tier.seen[slot] = NOBODY
                position += 1
        self._draw_boss(numbers[LEVEL])
        numbers[TIER] = self.tier_count() - 1
        for seat in range(self.n_players):
            # "your Hand and any cards in play": minions come back into the deck.
            cards: list[int] = []
            for which in (HAND, IN_PLAY, ASIDE, MINIONS):
                cards += self.seat_zone(seat, which).take_all()
            self._shuffle_into_deck(seat, cards)
            if self.alive(seat):
                self._draw_cards(seat, config.hand_size)
        if self.trace is not None:
            hp = [self.hp(seat) for seat in range(self.n_players)]
            self.emit("level", f"the party is now level {numbers[LEVEL]}; HP {hp}", level=numbers[LEVEL])
        numbers[HOLDER_STARTS] = 1
        self.push(_TABLE_TASK[START_TURN])

    # ---------------------------------------------------------- descriptions

    def _describe_plan(self, seat: int, action: int) -> str:
        if action == DONE:
            return "done"
        config = self.config
        index, hero, enemy = PLAY_CARD.field(action, 0), PLAY_CARD.field(action, 1), PLAY_CARD.field(action, 2)
        if BURY_FOR_DEFENSE.matches(action) or BURY_FOR_ATTACK.matches(action):
            return (f"bury {config.names[self.hand(seat)[index]]} for "
                    f"{self._bonus_text(hero, enemy, BURY_FOR_ATTACK.matches(action))}")
        card = self.played_card(seat, action)
        words = "play" if PLAY_CARD.matches(action) else "use" if USE_ITEM.matches(action) else "sacrifice"
        return f"{words} {config.names[card]}{self._aim(card, hero, enemy, SACRIFICE.matches(action))}"

    def _aim(self, card: int, hero: int, enemy: int, sacrifice: bool = False) -> str:
        """" on seat 1", " against goblin" or both: what a played card aims at."""
        config = self.config
        target = (config.sacrifice_targets if sacrifice else config.targets)[card]
        aims = (config.sacrifice_aims_at_enemy if sacrifice else config.aims_at_enemy)[card]
        text = f" on seat {hero}" if target in (TARGET_HERO, TARGET_DEAD) else ""
        count = self.numbers[ENEMY_COUNT]
        if aims and enemy < count:
            text += f" against {config.names[self.enemy_number(ENEMY_CARD, enemy)]}"
            if count > 1:
                text += f" (enemy {enemy})"
        return text

    def _bonus_text(self, hero: int, enemy: int, attack: bool) -> str:
        """"+1 defense to seat 0 against goblin" for a card buried for +1."""
        count = self.numbers[ENEMY_COUNT]
        against = f" against {self.config.names[self.enemy_number(ENEMY_CARD, enemy)]}" if enemy < count else ""
        if count > 1:
            against += f" (enemy {enemy})"
        return f"+1 {'attack' if attack else 'defense'} to seat {hero}{against}"
