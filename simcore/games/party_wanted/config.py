"""Party Wanted: the compiled configuration (``cards.toml`` -> ``PartyConfig``).

Every card of every box is one entry of ``[cards.<name>]``; its effects are
lists of ``"primitive amount"`` strings (``["attack 2", "speed 1"]``, the one
effect syntax of ``simcore.effects``) from the vocabulary ``EFFECTS``. ``compile_config``
validates the tree (errors name the dotted path) and turns it into tuples
indexed by card id, so the rules never look anything up by name.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from simcore.effects import Argument, Integer, Vocabulary
from simcore.parameters import COPIES, Constraint, ParameterError, require

DATA_FILE = Path(__file__).with_name("cards.toml")

# Card kinds. A minion is a Necromancer class card that stays in play as a
# permanent once played (until Sacrificed back to the Build Pool).
ATTACK: Final = 0
DEFENSE: Final = 1
CLASS: Final = 2
UTILITY: Final = 3
ULTIMATE: Final = 4
ARMOR: Final = 5
WEAPON: Final = 6
LAND: Final = 7
MONSTER: Final = 8
BOSS: Final = 9
TREASURE: Final = 10
ENCOUNTER: Final = 11
MODIFIER: Final = 12
MINION: Final = 13
KIND_NAMES = (
    "attack", "defense", "class", "utility", "ultimate", "armor", "weapon",
    "land", "monster", "boss", "treasure", "encounter", "modifier", "minion",
)
HERO_KINDS: Final = (ATTACK, DEFENSE, CLASS, UTILITY, ULTIMATE, ARMOR, WEAPON, MINION)
# Kinds a hero may Add from its Build Pool ("a Class or Utility card"; minions
# are Necromancer class cards) and that the S/H marks choose for the deck.
SKILL_KINDS: Final = (CLASS, UTILITY, MINION)
# Kinds whose card, once equipped or played, can be Sacrificed for its
# ``sacrifice`` effects.
SACRIFICE_KINDS: Final = (ARMOR, WEAPON, MINION)

# How a treasure or encounter is used (the words in parentheses on the card).
INSTANT: Final = 0
SINGLE_USE: Final = 1
PERMANENT: Final = 2
USE_NAMES = ("instant", "single_use", "permanent")

# Effect primitives. Combat primitives act during the planning phase of a
# combat round; "any time" ones also act when an instant card resolves;
# out-of-combat ones belong to lands and instant treasures/encounters;
# permanent ones to armor, weapons and permanent treasures/encounters;
# modifier ones to Combat Modifier table cards (they act at the start of
# every combat round).
P_ATTACK: Final = 0
P_DEFENSE: Final = 1
P_SPEED: Final = 2
P_PARTY_ATTACK: Final = 3
P_PARTY_DEFENSE: Final = 4
P_PARTY_SPEED: Final = 5
P_MULTIPLY_ATTACK: Final = 6
P_MULTIPLY_DEFENSE: Final = 7
P_GUARD: Final = 8
P_NEGATE: Final = 9
P_DAMAGE: Final = 10
P_SLOW: Final = 11
P_WEAKEN: Final = 12
P_EXPOSE: Final = 13
P_HEAL: Final = 14
P_HEAL_SELF: Final = 15
P_PARTY_HEAL: Final = 16
P_RESURRECT: Final = 17
P_DRAW: Final = 18
P_DAMAGE_PARTY: Final = 19
P_DAMAGE_SELF: Final = 20
P_DRAW_PARTY: Final = 21
P_TREASURE: Final = 22
P_ENCOUNTER: Final = 23
P_FIGHT: Final = 24
P_MINI_BOSS: Final = 25
P_ADD: Final = 26
P_REMOVE: Final = 27
P_WEAPON: Final = 28
P_ARMOR: Final = 29
P_PERM_ATTACK: Final = 30
P_PERM_DEFENSE: Final = 31
P_PERM_SPEED: Final = 32
P_PERM_HP: Final = 33
P_ENEMY_ATTACK_PER_DEAD: Final = 34
PRIMITIVES = (
    "attack", "defense", "speed", "party_attack", "party_defense", "party_speed",
    "multiply_attack", "multiply_defense", "guard", "negate", "damage", "slow", "weaken", "expose",
    "heal", "heal_self", "party_heal", "resurrect", "draw",
    "damage_party", "damage_self", "draw_party", "treasure", "encounter", "fight", "mini_boss",
    "add", "remove", "weapon", "armor",
    "perm_attack", "perm_defense", "perm_speed", "perm_hp",
    "enemy_attack_per_dead",
)
COMBAT_PRIMITIVES: Final = frozenset(range(P_ATTACK, P_EXPOSE + 1)) | {P_HEAL, P_HEAL_SELF, P_PARTY_HEAL, P_RESURRECT,
                                                                      P_DRAW}
INSTANT_PRIMITIVES: Final = frozenset(range(P_DAMAGE_PARTY, P_ARMOR + 1)) | {P_HEAL, P_HEAL_SELF, P_PARTY_HEAL, P_DRAW}
PERMANENT_PRIMITIVES: Final = frozenset(range(P_PERM_ATTACK, P_PERM_HP + 1))
# Indices of PartyConfig.permanent_bonuses.
PERM_ATTACK: Final = 0
PERM_DEFENSE: Final = 1
PERM_SPEED: Final = 2
PERM_HP: Final = 3
# A Combat Modifier acts on the whole table, so only untargeted primitives.
MODIFIER_PRIMITIVES: Final = frozenset({P_PARTY_ATTACK, P_PARTY_DEFENSE, P_PARTY_SPEED, P_PARTY_HEAL,
                                        P_ENEMY_ATTACK_PER_DEAD})

# The argument of each primitive (simcore.effects; the syntax: docs/game-kit.md,
# "Effects as data"). A bonus or malus is any integer (``defense -1``); an
# amount of damage, healing or cards is at least 0; a resurrected hero comes
# back with at least 1 HP; ``fight N`` brings at least one monster (and at most
# rules.max_enemies, checked with the rules); a multiplier doubles or triples.
# ``negate`` and ``mini_boss`` take no argument: their rules read no amount, and
# they compile to the amount they always carried (``_AMOUNT_WITHOUT_ARGUMENT``).
_SIGNED = (Integer("N"),)
_AT_LEAST_0 = (Integer("N", minimum=0),)
_PRIMITIVE_ARGUMENTS: dict[str, tuple[Argument, ...]] = {
    "resurrect": (Integer("N", minimum=1),),
    "fight": (Integer("N", minimum=1),),
    "multiply_attack": (Integer("N", 2, 3),),
    "multiply_defense": (Integer("N", 2, 3),),
    "negate": (),
    "mini_boss": (),
    **{name: _AT_LEAST_0 for name in ("damage", "heal", "heal_self", "party_heal", "draw", "damage_party",
                                      "damage_self", "draw_party", "treasure", "encounter", "add", "remove",
                                      "weapon", "armor")},
}
EFFECTS = Vocabulary({name: _PRIMITIVE_ARGUMENTS.get(name, _SIGNED) for name in PRIMITIVES})
_AMOUNT_WITHOUT_ARGUMENT = {P_NEGATE: 0, P_MINI_BOSS: 1}

# Which hero a card played in combat targets (besides the enemy it is
# designated to, see ENEMY_RELATIVE).
TARGET_NONE: Final = 0
TARGET_HERO: Final = 1
TARGET_DEAD: Final = 2
_HERO_TARGETED: Final = frozenset({P_HEAL, P_GUARD, P_NEGATE})
# "The Party will need to designate cards played to each creature
# separately": every primitive that changes a hero's or an enemy's numbers in
# the fight acts against the one enemy the card is designated to (with a
# single enemy, that one). Healing, resurrection and drawing do not.
ENEMY_RELATIVE: Final = frozenset(range(P_ATTACK, P_EXPOSE + 1))
# Single-use items "used at any time unless specified": these primitives also
# work outside combat ("Negate damage cards refer to any kind of damage").
OUTSIDE_COMBAT_USABLE: Final = frozenset({P_NEGATE, P_HEAL, P_HEAL_SELF, P_PARTY_HEAL, P_RESURRECT, P_DRAW})
# What a Social step may reward each participant with.
SOCIAL_PRIMITIVES: Final = frozenset({P_DRAW, P_HEAL, P_HEAL_SELF, P_DAMAGE_SELF, P_TREASURE, P_ENCOUNTER, P_ADD,
                                      P_REMOVE, P_WEAPON, P_ARMOR})

# rules.social: "rulebook" (solo: draw 1 and bury 1; two or more heroes: each
# chooses to take part, every participant gets the land's Social reward),
# "solo" (every hero draws 1 and buries 1), "reward" (every hero draws
# rules.social_reward), "none".
SOCIAL_MODES = ("rulebook", "solo", "reward", "none")
SOCIAL_RULEBOOK: Final = 0
SOCIAL_SOLO: Final = 1
SOCIAL_REWARD: Final = 2
SOCIAL_NONE: Final = 3
# rules.heal_between_turns: how much the heroes heal after each land.
HEAL_MODES = ("full", "amount", "none")
HEAL_FULL: Final = 0
HEAL_AMOUNT: Final = 1
HEAL_NONE: Final = 2
# rules.planning: heroes may act "anytime within the combat (even out of
# turn)" (planning goes round until everyone passes in a row), or each hero
# plans once per round, in turn.
PLANNING_MODES = ("anytime", "once")
PLANNING_ANYTIME: Final = 0
PLANNING_ONCE: Final = 1
# rules.multipliers: "Certain cards can double (2x) or triple (3x) the numbers
# on the Attack or Defense Cards, but only one can be applied per Round for
# either Attack and/or Defense": one per stat per hero per round ("hero"), or
# one per stat per round for the whole party ("party").
MULTIPLIER_MODES = ("hero", "party")
MULTIPLIERS_HERO: Final = 0
MULTIPLIERS_PARTY: Final = 1
ENEMY_TYPES = ("U", "H", "B")
LEVELS: Final = 4
# rules.initiative_key packs a speed into 20 bits: every speed of a round must
# lie strictly within +-SPEED_LIMIT (checked by ``_check_speeds``).
SPEED_LIMIT: Final = 1 << 19
# The primitives that move a speed in a round: a hero's (speed, party_speed,
# perm_speed) or an enemy's (slow).
SPEED_PRIMITIVES: Final = frozenset({P_SPEED, P_PARTY_SPEED, P_SLOW, P_PERM_SPEED})

Effects = tuple[tuple[int, int], ...]


# What each parameter must be, checked by ``GAME.configure`` before ``compile_config``
# (simcore.parameters.check_constraints). The checks that depend on a card's kind
# (owner, use, enemy type, level, stats), the effect strings, the heroes' per-level
# lists and the cross-field checks stay in compile_config.
CONSTRAINTS = (
    Constraint("rules.sets.base", choices=(True,), expected="expected true: the base game is always needed"),
    *(Constraint(f"rules.{key}", minimum=1, expected="expected an integer of at least 1")
      for key in ("hand_size", "max_turns", "max_combat_rounds", "max_enemies")),
    Constraint("rules.max_enemies", maximum=7),
    *(Constraint(f"rules.{key}", minimum=0, expected="expected an integer of at least 0")
      for key in ("social_reward", "heal_amount")),
    Constraint("rules.social", choices=SOCIAL_MODES),
    Constraint("rules.heal_between_turns", choices=HEAL_MODES),
    Constraint("rules.planning", choices=PLANNING_MODES),
    Constraint("rules.multipliers", choices=MULTIPLIER_MODES),
    Constraint("heroes.*.set", choices_at="rules.sets"),
    Constraint("heroes.*.nemesis_type", choices=ENEMY_TYPES, expected="expected U, H or B"),
    Constraint("cards.*.kind", choices=KIND_NAMES),
    Constraint("cards.*.set", choices_at="rules.sets"),
    COPIES,
)


def parse_effects(values: Any, path: str) -> Effects:
    """An effect list as (primitive, amount) pairs, e.g. ``["attack 2", "negate"]``
    -> ((P_ATTACK, 2), (P_NEGATE, 0))."""
    return tuple((effect.kind, effect.arguments[0] if effect.arguments else _AMOUNT_WITHOUT_ARGUMENT[effect.kind])
                 for effect in EFFECTS.parse(values, path))


def _check_primitives(effects: Effects, allowed: frozenset[int], path: str, what: str) -> None:
    for primitive, _ in effects:
        require(primitive in allowed, path, f"{PRIMITIVES[primitive]!r} cannot be used on {what}")


def combat_target(effects: Effects) -> int:
    """The one hero a combat card or item is aimed at (TARGET_HERO: a living
    hero, TARGET_DEAD: a dead one, TARGET_NONE: none); -1 for effects aimed at
    both a living and a dead hero."""
    kinds = set()
    for primitive, _ in effects:
        if primitive in _HERO_TARGETED:
            kinds.add(TARGET_HERO)
        elif primitive == P_RESURRECT:
            kinds.add(TARGET_DEAD)
    return kinds.pop() if len(kinds) == 1 else (TARGET_NONE if not kinds else -1)


def aims_at_enemy(effects: Effects) -> bool:
    """Whether a card with these effects is designated to one enemy."""
    return any(primitive in ENEMY_RELATIVE for primitive, _ in effects)


def _stats(value: Any, path: str) -> tuple[int, ...]:
    require(
        isinstance(value, list) and len(value) == 4 and all(isinstance(v, int) for v in value),
        path, "expected [attack, defense, speed, hp]",
    )
    require(value[3] >= 1 and value[0] >= 0 and value[1] >= 0, path,
            "expected hp of at least 1 and no negative attack/defense")
    return tuple(value)


@dataclass(frozen=True)
class HeroClasses:
    """The ``[heroes.<name>]`` table compiled: one entry per hero class, in file order."""

    names: tuple[str, ...]
    sets: tuple[str, ...]
    hp: tuple[tuple[int, ...], ...]
    attack: tuple[tuple[int, ...], ...]
    defense: tuple[tuple[int, ...], ...]
    speed: tuple[tuple[int, ...], ...]
    nemesis_types: tuple[str, ...]
    nemesis_penalty: tuple[int, ...]
    nemesis_reward: tuple[int, ...]


def compile_heroes(heroes: Mapping[str, Any]) -> HeroClasses:
    """Check every hero's per-level lists and compile the ``[heroes]`` table."""
    for name, hero in heroes.items():
        path = f"heroes.{name}"
        for stat in ("hp", "attack", "defense", "speed"):
            values = hero[stat]
            require(len(values) == LEVELS and all(isinstance(v, int) and v >= 0 for v in values),
                    f"{path}.{stat}", "expected 4 non-negative integers, one per level")
        require(min(hero["hp"]) >= 1, f"{path}.hp", "expected at least 1 hp at every level")
    entries = list(heroes.values())
    return HeroClasses(
        names=tuple(heroes), sets=tuple(hero["set"] for hero in entries),
        hp=tuple(tuple(hero["hp"]) for hero in entries), attack=tuple(tuple(hero["attack"]) for hero in entries),
        defense=tuple(tuple(hero["defense"]) for hero in entries),
        speed=tuple(tuple(hero["speed"]) for hero in entries),
        nemesis_types=tuple(hero["nemesis_type"] for hero in entries),
        nemesis_penalty=tuple(hero["nemesis_penalty"] for hero in entries),
        nemesis_reward=tuple(hero["nemesis_reward"] for hero in entries),
    )


@dataclass(frozen=True)
class CardEntry:
    """One ``[cards.<name>]`` entry compiled: its value in each per-card column of ``PartyConfig``."""

    name: str
    kind: int
    box: str
    owner: int
    mark: str
    use: int
    boss_level: int
    enemy_type: str
    stats_12: tuple[int, ...]
    stats_34: tuple[int, ...]
    effects: Effects
    sacrifice: Effects
    social: Effects
    copies: int
    target: int
    sacrifice_target: int
    aims_at_enemy: bool
    sacrifice_aims_at_enemy: bool
    usable_outside_combat: bool
    permanent_bonus: tuple[int, int, int, int]
    once_per_combat: bool


def _owner_and_use(kind: int, card: Mapping[str, Any], path: str, effects: Effects, sacrifice: Effects,
                   class_names: tuple[str, ...]) -> tuple[int, int]:
    """The hero class that owns a hero card and the use of a treasure or encounter
    (-1 where a kind has none), after checking that the card's effects suit its kind."""
    owner = -1
    use = -1
    if kind in HERO_KINDS:
        require(card.get("owner") in class_names, f"{path}.owner", f"expected one of {', '.join(class_names)}")
        owner = class_names.index(card["owner"])
        if kind in SACRIFICE_KINDS:
            _check_primitives(effects, PERMANENT_PRIMITIVES, f"{path}.effects", "armor, a weapon or a minion")
            _check_primitives(sacrifice, COMBAT_PRIMITIVES, f"{path}.sacrifice", "a sacrifice")
        else:
            _check_primitives(effects, COMBAT_PRIMITIVES, f"{path}.effects", "a hero card (combat only)")
    elif kind in (TREASURE, ENCOUNTER):
        require(card.get("use") in USE_NAMES, f"{path}.use", f"expected one of {', '.join(USE_NAMES)}")
        use = USE_NAMES.index(card["use"])
        allowed = (INSTANT_PRIMITIVES, COMBAT_PRIMITIVES, PERMANENT_PRIMITIVES)[use]
        _check_primitives(effects, allowed, f"{path}.effects", f"a {card['use']} card")
    elif kind == LAND:
        _check_primitives(effects, INSTANT_PRIMITIVES | {P_MINI_BOSS}, f"{path}.effects", "a land")
    elif kind == MODIFIER:
        _check_primitives(effects, MODIFIER_PRIMITIVES, f"{path}.effects", "a combat modifier")
    return owner, use


def _check_fights(effects: Effects, path: str, max_enemies: int) -> None:
    """``fight N`` brings at most rules.max_enemies monsters (the vocabulary
    checks the other bounds)."""
    for primitive, amount in effects:
        if primitive == P_FIGHT:
            require(amount <= max_enemies, path, "expected 'fight N' with N from 1 to rules.max_enemies")


def _enemy_entry(kind: int, card: Mapping[str, Any], path: str,
                 effects: Effects) -> tuple[str, int, tuple[int, ...], tuple[int, ...]]:
    """(enemy type, boss level, stats at levels 1-2, stats at levels 3-4) of a monster,
    a boss or a mini-boss land; ("", 0, (), ()) for any other card."""
    if not (kind in (MONSTER, BOSS) or any(primitive == P_MINI_BOSS for primitive, _ in effects)):
        return "", 0, (), ()
    require(card.get("enemy_type") in ENEMY_TYPES, f"{path}.enemy_type", "expected U, H or B")
    if kind == BOSS:
        require(card.get("level") in (1, 2, 3, 4), f"{path}.level", "expected a level from 1 to 4")
        stats = _stats(card.get("stats"), f"{path}.stats")
        return card["enemy_type"], card["level"], stats, stats
    return card["enemy_type"], 0, _stats(card.get("stats_12"), f"{path}.stats_12"), \
        _stats(card.get("stats_34"), f"{path}.stats_34")


def _permanent_bonus(kind: int, use: int, effects: Effects) -> tuple[int, int, int, int]:
    """What a card adds to attack, defense, speed and HP while it is a hero's permanent."""
    totals = [0, 0, 0, 0]
    if kind in SACRIFICE_KINDS or use == PERMANENT:
        for primitive, amount in effects:
            if primitive in PERMANENT_PRIMITIVES:
                totals[primitive - P_PERM_ATTACK] += amount
    return totals[0], totals[1], totals[2], totals[3]


def compile_card(name: str, card: Mapping[str, Any], class_names: tuple[str, ...], max_enemies: int) -> CardEntry:
    """Check one ``[cards.<name>]`` entry against its kind and compile it."""
    path = f"cards.{name}"
    kind = KIND_NAMES.index(card["kind"])
    effects = parse_effects(card["effects"], f"{path}.effects")
    sacrifice = parse_effects(card.get("sacrifice", []), f"{path}.sacrifice")
    social = parse_effects(card.get("social", []), f"{path}.social")
    _check_primitives(social, SOCIAL_PRIMITIVES, f"{path}.social", "a Social reward")
    require(not social or kind in (LAND, BOSS), f"{path}.social", "expected a Social only on a land or a boss")
    require(not sacrifice or kind in SACRIFICE_KINDS, f"{path}.sacrifice",
            "expected a sacrifice only on armor, a weapon or a minion")
    owner, use = _owner_and_use(kind, card, path, effects, sacrifice, class_names)
    target = combat_target(effects)
    require(target >= 0, f"{path}.effects", "expected effects aimed at a living or a dead hero, not both")
    sacrifice_target = combat_target(sacrifice)
    require(sacrifice_target >= 0, f"{path}.sacrifice", "expected effects aimed at a living or a dead hero, not both")
    _check_fights(effects, f"{path}.effects", max_enemies)
    enemy_type, level, low, high = _enemy_entry(kind, card, path, effects)
    draws = any(primitive == P_DRAW for primitive, _ in effects)
    return CardEntry(
        name=name, kind=kind, box=card["set"], owner=owner, mark=card.get("mark", ""), use=use, boss_level=level,
        enemy_type=enemy_type, stats_12=low, stats_34=high, effects=effects, sacrifice=sacrifice, social=social,
        copies=card["copies"], target=target, sacrifice_target=sacrifice_target,
        aims_at_enemy=aims_at_enemy(effects), sacrifice_aims_at_enemy=aims_at_enemy(sacrifice),
        usable_outside_combat=use == SINGLE_USE and bool(effects)
        and all(primitive in OUTSIDE_COMBAT_USABLE for primitive, _ in effects),
        permanent_bonus=_permanent_bonus(kind, use, effects),
        once_per_combat=kind == ULTIMATE or (kind in (CLASS, UTILITY) and draws),
    )


@dataclass(frozen=True)
class Decks:
    """The decks, pools and table cards built from the cards of the enabled boxes."""

    enabled_classes: tuple[int, ...]
    build_pools: tuple[tuple[int, ...], ...]
    starting_decks: tuple[tuple[int, ...], ...]
    pools_after_deal: tuple[tuple[int, ...], ...]
    """Each class's Build Pool less its starting deck: the hero's Build Pool at the deal."""
    land_deck: tuple[int, ...]
    s_lands: tuple[int, ...]
    monster_deck: tuple[int, ...]
    treasure_deck: tuple[int, ...]
    encounter_deck: tuple[int, ...]
    bosses_by_level: tuple[tuple[int, ...], ...]
    combat_modifiers: tuple[int, ...]
    modifier_effects: Effects


def _copies(cards: tuple[CardEntry, ...], card_ids: list[int]) -> tuple[int, ...]:
    """Every copy of each of ``card_ids``, in order."""
    return tuple(card_id for card_id in card_ids for _ in range(cards[card_id].copies))


def _deck_of(cards: tuple[CardEntry, ...], enabled_sets: set[str], kind: int) -> tuple[int, ...]:
    """Every copy of every card of ``kind`` from the enabled boxes."""
    return _copies(cards, [card_id for card_id, card in enumerate(cards)
                           if card.kind == kind and card.box in enabled_sets])


def _starting_decks(hard_mode: bool, heroes: HeroClasses, cards: tuple[CardEntry, ...],
                    build_pools: tuple[tuple[int, ...], ...], enabled_classes: tuple[int, ...]
                    ) -> tuple[tuple[int, ...], ...]:
    """Each class's starting Hero Deck: "the 10 cards with the S symbol" (every S card
    of the Build Pool); in Hard mode the H class/utility cards "instead of the S
    cards", with "the same S cards for Attack and Defense Cards"."""
    starting_decks: list[tuple[int, ...]] = []
    special_mark = "H" if hard_mode else "S"
    for cls, pool in enumerate(build_pools):
        basics = [c for c in pool if cards[c].mark == "S" and cards[c].kind in (ATTACK, DEFENSE)]
        specials = [c for c in pool if cards[c].mark == special_mark and cards[c].kind in SKILL_KINDS]
        starting_decks.append(tuple(basics + specials))
        if cls in enabled_classes:
            require(bool(basics) and bool(specials), f"heroes.{heroes.names[cls]}",
                    f"expected S attack/defense cards and {special_mark} class/utility cards for the starting deck")
    return tuple(starting_decks)


def _pools_after_deal(build_pools: tuple[tuple[int, ...], ...], starting_decks: tuple[tuple[int, ...], ...]
                      ) -> tuple[tuple[int, ...], ...]:
    """Each Build Pool with one copy of each card of its class's starting deck taken out."""
    pools: list[tuple[int, ...]] = []
    for pool, deck in zip(build_pools, starting_decks, strict=True):
        rest = list(pool)
        for card in deck:
            rest.remove(card)
        pools.append(tuple(rest))
    return tuple(pools)


def compile_decks(rules: Mapping[str, Any], heroes: HeroClasses, cards: tuple[CardEntry, ...]) -> Decks:
    """Build the decks from the enabled boxes and check that a game can be set up with them."""
    enabled_sets = {name for name, on in rules["sets"].items() if on}
    enabled_classes = tuple(index for index, box in enumerate(heroes.sets) if box in enabled_sets)
    build_pools = tuple(_copies(cards, [card_id for card_id, card in enumerate(cards) if card.owner == cls])
                        for cls in range(len(heroes.names)))
    starting_decks = _starting_decks(rules["hard_mode"], heroes, cards, build_pools, enabled_classes)
    lands = [card_id for card_id, card in enumerate(cards) if card.kind == LAND and card.box in enabled_sets]
    s_lands = _copies(cards, [card_id for card_id in lands if cards[card_id].mark == "S"])
    land_deck = _copies(cards, [card_id for card_id in lands if cards[card_id].mark != "S"])
    require(len(s_lands) == 5, "cards", f"expected 5 S lands for tiers 2 and 3, got {len(s_lands)}")
    bosses_by_level = tuple(
        _copies(cards, [card_id for card_id, card in enumerate(cards)
                        if card.kind == BOSS and card.boss_level == level and card.box in enabled_sets])
        for level in range(1, LEVELS + 1)
    )
    for level, bosses in enumerate(bosses_by_level, start=1):
        require(len(bosses) >= 1, "cards", f"expected at least one boss of level {level}")
    monster_deck = _deck_of(cards, enabled_sets, MONSTER)
    require(len(monster_deck) >= rules["max_enemies"], "cards", "expected at least rules.max_enemies monsters")
    extra_tiers = LEVELS - 1 if rules["longer_game"] else 0
    needed_lands = sum(range(2, 4 + extra_tiers)) * 2
    require(len(land_deck) >= needed_lands, "cards", f"expected at least {needed_lands} lands in the Land Deck")
    treasure_deck = _deck_of(cards, enabled_sets, TREASURE)
    encounter_deck = _deck_of(cards, enabled_sets, ENCOUNTER)
    require(len(treasure_deck) >= 1 and len(encounter_deck) >= 1, "cards", "expected treasures and encounters")
    # Combat Modifier table cards: on the table (in no deck) while their box is in
    # the game and rules.combat_modifier is on; their effects, once per copy.
    combat_modifiers = _deck_of(cards, enabled_sets, MODIFIER) if rules["combat_modifier"] else ()
    return Decks(
        enabled_classes=enabled_classes, build_pools=build_pools, starting_decks=starting_decks,
        pools_after_deal=_pools_after_deal(build_pools, starting_decks),
        land_deck=land_deck, s_lands=s_lands, monster_deck=monster_deck, treasure_deck=treasure_deck,
        encounter_deck=encounter_deck, bosses_by_level=bosses_by_level, combat_modifiers=combat_modifiers,
        modifier_effects=tuple(effect for card_id in combat_modifiers for effect in cards[card_id].effects),
    )


@dataclass(frozen=True)
class PartyConfig:
    """Compiled parameters: card attributes as tuples indexed by card id, the
    hero classes (``heroes``), the decks built from the enabled boxes
    (``decks``) and the rules' settings; each field is listed once."""

    names: tuple[str, ...]
    kinds: tuple[int, ...]
    sets: tuple[str, ...]
    owners: tuple[int, ...]
    marks: tuple[str, ...]
    uses: tuple[int, ...]
    boss_levels: tuple[int, ...]
    enemy_types: tuple[str, ...]
    stats_12: tuple[tuple[int, ...], ...]
    stats_34: tuple[tuple[int, ...], ...]
    effects: tuple[Effects, ...]
    sacrifices: tuple[Effects, ...]
    socials: tuple[Effects, ...]
    copies: tuple[int, ...]
    targets: tuple[int, ...]
    sacrifice_targets: tuple[int, ...]
    aims_at_enemy: tuple[bool, ...]
    sacrifice_aims_at_enemy: tuple[bool, ...]
    usable_outside_combat: tuple[bool, ...]
    # What a card adds to attack, defense, speed and HP while it is a hero's
    # permanent (armor, weapons, minions in play, permanent items); zeros otherwise.
    # Inner tuples typed variable-length: compiled, a fixed-length tuple read at a variable index
    # is unboxed whole and boxed again into a new tuple per read.
    permanent_bonuses: tuple[tuple[int, ...], ...]
    once_per_combat: tuple[bool, ...]
    heroes: HeroClasses
    decks: Decks
    composition: tuple[int, ...]
    hand_size: int
    social: int
    social_reward: int
    heal_between_turns: int
    heal_amount: int
    revive_at_level_up: bool
    dead_heroes_level_up: bool
    planning: int
    multipliers: int
    nemesis: bool
    hard_mode: bool
    party_mode: bool
    hardcore: bool
    longer_game: bool
    max_turns: int
    max_combat_rounds: int
    max_enemies: int


def compile_composition(text: str, heroes: HeroClasses, enabled_classes: tuple[int, ...]) -> tuple[int, ...]:
    """``rules.composition`` ("fighter, wizard") as class ids; () for an empty text."""
    if not text.strip():
        return ()
    chosen = [part.strip() for part in text.split(",")]
    for part in chosen:
        require(part in heroes.names, "rules.composition",
                f"unknown hero {part!r}; expected one of {', '.join(heroes.names)}")
        require(heroes.names.index(part) in enabled_classes, "rules.composition",
                f"{part!r} needs its set in rules.sets")
    require(len(set(chosen)) == len(chosen), "rules.composition", "expected each hero class at most once")
    return tuple(heroes.names.index(part) for part in chosen)


def check_party_size(config: PartyConfig, n_players: int) -> None:
    """Refuse a party of ``n_players`` heroes that ``config`` cannot seat, naming the parameter
    (``ParameterError``): fewer hero classes in the boxes of ``rules.sets`` than heroes (each
    hero is a different class), or a ``rules.composition`` that does not name one hero per
    seat. A composition is "heroes in seat order": one naming fewer left seats without a
    class, one naming more would have been cut without a word (RULES.md, assumption 4).
    ``KitGame.check_players`` for ``experiments.spec``, and ``PartyState.new_game``'s guard."""
    # Checked before each game: the messages are made only for a party refused.
    classes = len(config.decks.enabled_classes)
    if n_players > classes:
        raise ParameterError("rules.sets",
                             f"expected boxes with at least {n_players} hero classes for a party of {n_players} "
                             f"(one class per hero); the boxes switched on have {classes}")
    named = len(config.composition)
    if named and named != n_players:
        heroes = ",".join(config.heroes.names[cls] for cls in config.composition)
        raise ParameterError("rules.composition",
                             f"expected one hero per seat, {n_players} for a party of {n_players} (or \"\" to draw "
                             f"them by seed), got {named}: {heroes!r}")


def _check_speeds(heroes: HeroClasses, cards: tuple[CardEntry, ...]) -> None:
    """Refuse speeds the initiative cannot order (``rules.initiative_key``: within
    +-SPEED_LIMIT), naming the path, before a game meets them mid-combat. A round's speed
    is a hero's level speed or an enemy's card speed moved by at most every speed card
    of the game, each copy once (a card is played or held once; round bonuses reset)."""
    moved = sum(card.copies * sum(abs(amount) for primitive, amount in card.effects + card.sacrifice
                                  if primitive in SPEED_PRIMITIVES) for card in cards)
    require(moved < SPEED_LIMIT, "cards", f"expected speed, party_speed, slow and perm_speed amounts times their "
            f"copies to add up to less than {SPEED_LIMIT:,}, got {moved:,}")
    room = SPEED_LIMIT - 1 - moved
    for name, speeds in zip(heroes.names, heroes.speed, strict=True):
        fastest = max(speeds)
        require(fastest <= room, f"heroes.{name}.speed",
                f"expected speeds of at most {room:,} (the initiative's limit less every speed card), got {fastest:,}")
    for card in cards:
        sets = (("stats", card.stats_12),) if card.kind == BOSS else (("stats_12", card.stats_12),
                                                                      ("stats_34", card.stats_34))
        for key, stats in sets:
            require(not stats or abs(stats[2]) <= room, f"cards.{card.name}.{key}",
                    f"expected a speed within +-{room:,} (the initiative's limit less every speed card), "
                    f"got {stats[2] if stats else 0:,}")


def compile_config(parameters: Mapping[str, Any]) -> PartyConfig:
    """Compile a tree that passed ``CONSTRAINTS`` table by table (heroes, cards, the
    decks built from them, the composition); the other checks name their path."""
    rules = parameters["rules"]
    heroes = compile_heroes(parameters["heroes"])
    cards = tuple(compile_card(name, card, heroes.names, rules["max_enemies"])
                  for name, card in parameters["cards"].items())
    _check_speeds(heroes, cards)
    decks = compile_decks(rules, heroes, cards)
    return PartyConfig(
        names=tuple(card.name for card in cards), kinds=tuple(card.kind for card in cards),
        sets=tuple(card.box for card in cards), owners=tuple(card.owner for card in cards),
        marks=tuple(card.mark for card in cards), uses=tuple(card.use for card in cards),
        boss_levels=tuple(card.boss_level for card in cards), enemy_types=tuple(card.enemy_type for card in cards),
        stats_12=tuple(card.stats_12 for card in cards), stats_34=tuple(card.stats_34 for card in cards),
        effects=tuple(card.effects for card in cards), sacrifices=tuple(card.sacrifice for card in cards),
        socials=tuple(card.social for card in cards), copies=tuple(card.copies for card in cards),
        targets=tuple(card.target for card in cards),
        sacrifice_targets=tuple(card.sacrifice_target for card in cards),
        aims_at_enemy=tuple(card.aims_at_enemy for card in cards),
        sacrifice_aims_at_enemy=tuple(card.sacrifice_aims_at_enemy for card in cards),
        usable_outside_combat=tuple(card.usable_outside_combat for card in cards),
        permanent_bonuses=tuple(card.permanent_bonus for card in cards),
        once_per_combat=tuple(card.once_per_combat for card in cards),
        heroes=heroes, decks=decks,
        composition=compile_composition(rules["composition"], heroes, decks.enabled_classes),
        hand_size=rules["hand_size"],
        social=SOCIAL_MODES.index(rules["social"]), social_reward=rules["social_reward"],
        heal_between_turns=HEAL_MODES.index(rules["heal_between_turns"]), heal_amount=rules["heal_amount"],
        revive_at_level_up=rules["revive_at_level_up"], dead_heroes_level_up=rules["dead_heroes_level_up"],
        planning=PLANNING_MODES.index(rules["planning"]),
        multipliers=MULTIPLIER_MODES.index(rules["multipliers"]),
        nemesis=rules["nemesis"], hard_mode=rules["hard_mode"], party_mode=rules["party_mode"],
        hardcore=rules["hardcore"], longer_game=rules["longer_game"], max_turns=rules["max_turns"],
        max_combat_rounds=rules["max_combat_rounds"], max_enemies=rules["max_enemies"],
    )
