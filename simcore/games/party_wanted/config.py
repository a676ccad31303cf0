"""Party Wanted: the compiled configuration (``cards.toml`` -> ``PartyConfig``).

Every card of every box is one entry of ``[cards.<name>]``; its effects are
``"primitive:amount"`` strings from ``PRIMITIVES``. ``compile_config``
validates the tree (errors name the dotted path) and turns it into tuples
indexed by card id, so the rules never look anything up by name.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from simcore.parameters import Constraint, ParameterError, require

DATA_FILE = Path(__file__).with_name("cards.toml")

# Card kinds. A minion is a Necromancer class card that stays in play as a
# permanent once played (until Sacrificed back to the Build Pool).
(
    ATTACK, DEFENSE, CLASS, UTILITY, ULTIMATE, ARMOR, WEAPON, LAND, MONSTER, BOSS, TREASURE, ENCOUNTER, MODIFIER,
    MINION,
) = range(14)
KIND_NAMES = (
    "attack", "defense", "class", "utility", "ultimate", "armor", "weapon",
    "land", "monster", "boss", "treasure", "encounter", "modifier", "minion",
)
HERO_KINDS = (ATTACK, DEFENSE, CLASS, UTILITY, ULTIMATE, ARMOR, WEAPON, MINION)
# Kinds a hero may Add from its Build Pool ("a Class or Utility card"; minions
# are Necromancer class cards) and that the S/H marks choose for the deck.
SKILL_KINDS = (CLASS, UTILITY, MINION)
# Kinds whose card, once equipped or played, can be Sacrificed for its
# ``sacrifice`` effects.
SACRIFICE_KINDS = (ARMOR, WEAPON, MINION)

# How a treasure or encounter is used (the words in parentheses on the card).
INSTANT, SINGLE_USE, PERMANENT = range(3)
USE_NAMES = ("instant", "single_use", "permanent")

# Effect primitives. Combat primitives act during the planning phase of a
# combat round; "any time" ones also act when an instant card resolves;
# out-of-combat ones belong to lands and instant treasures/encounters;
# permanent ones to armor, weapons and permanent treasures/encounters;
# modifier ones to Combat Modifier table cards (they act at the start of
# every combat round).
(
    P_ATTACK, P_DEFENSE, P_SPEED, P_PARTY_ATTACK, P_PARTY_DEFENSE, P_PARTY_SPEED,
    P_MULTIPLY_ATTACK, P_MULTIPLY_DEFENSE, P_GUARD, P_NEGATE, P_DAMAGE, P_SLOW, P_WEAKEN, P_EXPOSE,
    P_HEAL, P_HEAL_SELF, P_PARTY_HEAL, P_RESURRECT, P_DRAW,
    P_DAMAGE_PARTY, P_DAMAGE_SELF, P_DRAW_PARTY, P_TREASURE, P_ENCOUNTER, P_FIGHT, P_MINI_BOSS,
    P_ADD, P_REMOVE, P_WEAPON, P_ARMOR,
    P_PERM_ATTACK, P_PERM_DEFENSE, P_PERM_SPEED, P_PERM_HP,
    P_ENEMY_ATTACK_PER_DEAD,
) = range(35)
PRIMITIVES = (
    "attack", "defense", "speed", "party_attack", "party_defense", "party_speed",
    "multiply_attack", "multiply_defense", "guard", "negate", "damage", "slow", "weaken", "expose",
    "heal", "heal_self", "party_heal", "resurrect", "draw",
    "damage_party", "damage_self", "draw_party", "treasure", "encounter", "fight", "mini_boss",
    "add", "remove", "weapon", "armor",
    "perm_attack", "perm_defense", "perm_speed", "perm_hp",
    "enemy_attack_per_dead",
)
COMBAT_PRIMITIVES = frozenset(range(P_ATTACK, P_EXPOSE + 1)) | {P_HEAL, P_HEAL_SELF, P_PARTY_HEAL, P_RESURRECT, P_DRAW}
INSTANT_PRIMITIVES = frozenset(range(P_DAMAGE_PARTY, P_ARMOR + 1)) | {P_HEAL, P_HEAL_SELF, P_PARTY_HEAL, P_DRAW}
PERMANENT_PRIMITIVES = frozenset(range(P_PERM_ATTACK, P_PERM_HP + 1))
# Indices of PartyConfig.permanent_bonuses.
PERM_ATTACK, PERM_DEFENSE, PERM_SPEED, PERM_HP = range(4)
# A Combat Modifier acts on the whole table, so only untargeted primitives.
MODIFIER_PRIMITIVES = frozenset({P_PARTY_ATTACK, P_PARTY_DEFENSE, P_PARTY_SPEED, P_PARTY_HEAL, P_ENEMY_ATTACK_PER_DEAD})

# Which hero a card played in combat targets (besides the enemy it is
# designated to, see ENEMY_RELATIVE).
TARGET_NONE, TARGET_HERO, TARGET_DEAD = range(3)
_HERO_TARGETED = frozenset({P_HEAL, P_GUARD, P_NEGATE})
# "The Party will need to designate cards played to each creature
# separately": every primitive that changes a hero's or an enemy's numbers in
# the fight acts against the one enemy the card is designated to (with a
# single enemy, that one). Healing, resurrection and drawing do not.
ENEMY_RELATIVE = frozenset(range(P_ATTACK, P_EXPOSE + 1))
# Single-use items "used at any time unless specified": these primitives also
# work outside combat ("Negate damage cards refer to any kind of damage").
OUTSIDE_COMBAT_USABLE = frozenset({P_NEGATE, P_HEAL, P_HEAL_SELF, P_PARTY_HEAL, P_RESURRECT, P_DRAW})
# What a Social step may reward each participant with.
SOCIAL_PRIMITIVES = frozenset({P_DRAW, P_HEAL, P_HEAL_SELF, P_DAMAGE_SELF, P_TREASURE, P_ENCOUNTER, P_ADD, P_REMOVE,
                               P_WEAPON, P_ARMOR})

# rules.social: "rulebook" (solo: draw 1 and bury 1; two or more heroes: each
# chooses to take part, every participant gets the land's Social reward),
# "solo" (every hero draws 1 and buries 1), "reward" (every hero draws
# rules.social_reward), "none".
SOCIAL_MODES = ("rulebook", "solo", "reward", "none")
SOCIAL_RULEBOOK, SOCIAL_SOLO, SOCIAL_REWARD, SOCIAL_NONE = range(4)
# rules.heal_between_turns: how much the heroes heal after each land.
HEAL_MODES = ("full", "amount", "none")
HEAL_FULL, HEAL_AMOUNT, HEAL_NONE = range(3)
# rules.planning: heroes may act "anytime within the combat (even out of
# turn)" (planning goes round until everyone passes in a row), or each hero
# plans once per round, in turn.
PLANNING_MODES = ("anytime", "once")
PLANNING_ANYTIME, PLANNING_ONCE = range(2)
ENEMY_TYPES = ("U", "H", "B")
LEVELS = 4

Effects = tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class PartyConfig:
    """Compiled parameters: card attributes as tuples indexed by card id,
    hero classes as tuples indexed by class id."""

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
    permanent_bonuses: tuple[tuple[int, int, int, int], ...]
    once_per_combat: tuple[bool, ...]
    class_names: tuple[str, ...]
    class_sets: tuple[str, ...]
    class_hp: tuple[tuple[int, ...], ...]
    class_attack: tuple[tuple[int, ...], ...]
    class_defense: tuple[tuple[int, ...], ...]
    class_speed: tuple[tuple[int, ...], ...]
    nemesis_types: tuple[str, ...]
    nemesis_penalty: tuple[int, ...]
    nemesis_reward: tuple[int, ...]
    enabled_classes: tuple[int, ...]
    build_pools: tuple[tuple[int, ...], ...]
    starting_decks: tuple[tuple[int, ...], ...]
    land_deck: tuple[int, ...]
    s_lands: tuple[int, ...]
    monster_deck: tuple[int, ...]
    treasure_deck: tuple[int, ...]
    encounter_deck: tuple[int, ...]
    bosses_by_level: tuple[tuple[int, ...], ...]
    composition: tuple[int, ...]
    combat_modifiers: tuple[int, ...]
    modifier_effects: Effects
    hand_size: int
    social: int
    social_reward: int
    heal_between_turns: int
    heal_amount: int
    revive_at_level_up: bool
    planning: int
    nemesis: bool
    hard_mode: bool
    party_mode: bool
    hardcore: bool
    longer_game: bool
    max_turns: int
    max_combat_rounds: int
    max_enemies: int


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
    Constraint("heroes.*.set", choices_at="rules.sets"),
    Constraint("heroes.*.nemesis_type", choices=ENEMY_TYPES, expected="expected U, H or B"),
    Constraint("cards.*.kind", choices=KIND_NAMES),
    Constraint("cards.*.set", choices_at="rules.sets"),
    Constraint("cards.*.copies", minimum=0, expected="expected at least 0 copies"),
)


def parse_effects(values: Any, path: str) -> Effects:
    """``["attack:2", "negate:0"]`` -> ((P_ATTACK, 2), (P_NEGATE, 0))."""
    require(isinstance(values, list), path, "expected a list of 'primitive:amount' strings")
    parsed: list[tuple[int, int]] = []
    for text in values:
        name, _, amount = str(text).partition(":")
        require(name in PRIMITIVES, path,
                f"unknown effect primitive {name!r}; expected one of {', '.join(PRIMITIVES)}")
        try:
            value = int(amount)
        except ValueError:
            raise ParameterError(path, f"expected 'primitive:amount' with an integer amount, got {text!r}") from None
        parsed.append((PRIMITIVES.index(name), value))
    return tuple(parsed)


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


def compile_config(parameters: Mapping[str, Any]) -> PartyConfig:
    """Compile a tree that passed ``CONSTRAINTS``; the other checks name their path."""
    rules = parameters["rules"]
    sets = rules["sets"]
    enabled_sets = {name for name, on in sets.items() if on}

    class_names: list[str] = []
    class_sets: list[str] = []
    hp, attack, defense, speed = [], [], [], []
    nemesis_types, nemesis_penalty, nemesis_reward = [], [], []
    for name, hero in parameters["heroes"].items():
        path = f"heroes.{name}"
        for stat in ("hp", "attack", "defense", "speed"):
            values = hero[stat]
            require(len(values) == LEVELS and all(isinstance(v, int) and v >= 0 for v in values),
                    f"{path}.{stat}", "expected 4 non-negative integers, one per level")
        require(min(hero["hp"]) >= 1, f"{path}.hp", "expected at least 1 hp at every level")
        class_names.append(name)
        class_sets.append(hero["set"])
        hp.append(tuple(hero["hp"]))
        attack.append(tuple(hero["attack"]))
        defense.append(tuple(hero["defense"]))
        speed.append(tuple(hero["speed"]))
        nemesis_types.append(hero["nemesis_type"])
        nemesis_penalty.append(hero["nemesis_penalty"])
        nemesis_reward.append(hero["nemesis_reward"])

    names: list[str] = []
    kinds, card_sets, owners, marks, uses, boss_levels, enemy_types = [], [], [], [], [], [], []
    stats_12: list[tuple[int, ...]] = []
    stats_34: list[tuple[int, ...]] = []
    effects: list[Effects] = []
    sacrifices: list[Effects] = []
    socials: list[Effects] = []
    copies, targets, sacrifice_targets, once = [], [], [], []
    aims, sacrifice_aims, outside = [], [], []
    permanents: list[tuple[int, int, int, int]] = []
    for name, card in parameters["cards"].items():
        path = f"cards.{name}"
        kind = KIND_NAMES.index(card["kind"])
        card_effects = parse_effects(card["effects"], f"{path}.effects")
        card_sacrifice = parse_effects(card.get("sacrifice", []), f"{path}.sacrifice")
        card_social = parse_effects(card.get("social", []), f"{path}.social")
        _check_primitives(card_social, SOCIAL_PRIMITIVES, f"{path}.social", "a Social reward")
        require(not card_social or kind in (LAND, BOSS), f"{path}.social",
                "expected a Social only on a land or a boss")
        require(not card_sacrifice or kind in SACRIFICE_KINDS, f"{path}.sacrifice",
                "expected a sacrifice only on armor, a weapon or a minion")
        owner = -1
        use = -1
        if kind in HERO_KINDS:
            require(card.get("owner") in class_names, f"{path}.owner", f"expected one of {', '.join(class_names)}")
            owner = class_names.index(card["owner"])
            if kind in SACRIFICE_KINDS:
                _check_primitives(card_effects, PERMANENT_PRIMITIVES, f"{path}.effects", "armor, a weapon or a minion")
                _check_primitives(card_sacrifice, COMBAT_PRIMITIVES, f"{path}.sacrifice", "a sacrifice")
            else:
                _check_primitives(card_effects, COMBAT_PRIMITIVES, f"{path}.effects", "a hero card (combat only)")
        elif kind in (TREASURE, ENCOUNTER):
            require(card.get("use") in USE_NAMES, f"{path}.use", f"expected one of {', '.join(USE_NAMES)}")
            use = USE_NAMES.index(card["use"])
            allowed = (INSTANT_PRIMITIVES, COMBAT_PRIMITIVES, PERMANENT_PRIMITIVES)[use]
            _check_primitives(card_effects, allowed, f"{path}.effects", f"a {card['use']} card")
        elif kind == LAND:
            _check_primitives(card_effects, INSTANT_PRIMITIVES | {P_MINI_BOSS}, f"{path}.effects", "a land")
        elif kind == MODIFIER:
            _check_primitives(card_effects, MODIFIER_PRIMITIVES, f"{path}.effects", "a combat modifier")
        target = combat_target(card_effects)
        require(target >= 0, f"{path}.effects", "expected effects aimed at a living or a dead hero, not both")
        sacrifice_target = combat_target(card_sacrifice)
        require(sacrifice_target >= 0, f"{path}.sacrifice",
                "expected effects aimed at a living or a dead hero, not both")
        for primitive, amount in card_effects:
            if primitive == P_FIGHT:
                require(1 <= amount <= rules["max_enemies"], f"{path}.effects",
                        "expected fight:n with n from 1 to rules.max_enemies")
            if primitive in (P_MULTIPLY_ATTACK, P_MULTIPLY_DEFENSE):
                require(amount in (2, 3), f"{path}.effects", "expected a multiplier of 2 or 3")
        is_mini_boss = any(primitive == P_MINI_BOSS for primitive, _ in card_effects)
        low: tuple[int, ...] = ()
        high: tuple[int, ...] = ()
        level = 0
        enemy_type = ""
        if kind in (MONSTER, BOSS) or is_mini_boss:
            require(card.get("enemy_type") in ENEMY_TYPES, f"{path}.enemy_type", "expected U, H or B")
            enemy_type = card["enemy_type"]
            if kind == BOSS:
                require(card.get("level") in (1, 2, 3, 4), f"{path}.level", "expected a level from 1 to 4")
                level = card["level"]
                low = high = _stats(card.get("stats"), f"{path}.stats")
            else:
                low = _stats(card.get("stats_12"), f"{path}.stats_12")
                high = _stats(card.get("stats_34"), f"{path}.stats_34")
        names.append(name)
        kinds.append(kind)
        card_sets.append(card["set"])
        owners.append(owner)
        marks.append(card.get("mark", ""))
        uses.append(use)
        boss_levels.append(level)
        enemy_types.append(enemy_type)
        stats_12.append(low)
        stats_34.append(high)
        effects.append(card_effects)
        sacrifices.append(card_sacrifice)
        socials.append(card_social)
        copies.append(card["copies"])
        targets.append(target)
        sacrifice_targets.append(sacrifice_target)
        aims.append(aims_at_enemy(card_effects))
        sacrifice_aims.append(aims_at_enemy(card_sacrifice))
        outside.append(use == SINGLE_USE and bool(card_effects)
                       and all(primitive in OUTSIDE_COMBAT_USABLE for primitive, _ in card_effects))
        totals = [0, 0, 0, 0]
        if kind in SACRIFICE_KINDS or use == PERMANENT:
            for primitive, amount in card_effects:
                if primitive in PERMANENT_PRIMITIVES:
                    totals[primitive - P_PERM_ATTACK] += amount
        permanents.append((totals[0], totals[1], totals[2], totals[3]))
        draws = any(primitive == P_DRAW for primitive, _ in card_effects)
        once.append(kind == ULTIMATE or (kind in (CLASS, UTILITY) and draws))

    def in_game(card_id: int) -> bool:
        return card_sets[card_id] in enabled_sets

    def deck_of(kind: int, extra: bool = True) -> tuple[int, ...]:
        return tuple(
            card_id for card_id in range(len(names)) if kinds[card_id] == kind and in_game(card_id) and extra
            for _ in range(copies[card_id])
        )

    enabled_classes = tuple(index for index, box in enumerate(class_sets) if box in enabled_sets)
    build_pools = tuple(
        tuple(card_id for card_id in range(len(names)) if owners[card_id] == cls for _ in range(copies[card_id]))
        for cls in range(len(class_names))
    )
    # The starting Hero Deck: "the 10 cards with the S symbol" (every S card
    # of the Build Pool); in Hard mode the H class/utility cards "instead of
    # the S cards", with "the same S cards for Attack and Defense Cards".
    starting_decks: list[tuple[int, ...]] = []
    special_mark = "H" if rules["hard_mode"] else "S"
    for cls in range(len(class_names)):
        pool = build_pools[cls]
        basics = [c for c in pool if marks[c] == "S" and kinds[c] in (ATTACK, DEFENSE)]
        specials = [c for c in pool if marks[c] == special_mark and kinds[c] in SKILL_KINDS]
        starting_decks.append(tuple(basics + specials))
        if cls in enabled_classes:
            require(bool(basics) and bool(specials), f"heroes.{class_names[cls]}",
                    f"expected S attack/defense cards and {special_mark} class/utility cards for the starting deck")
    lands = [c for c in range(len(names)) if kinds[c] == LAND and in_game(c)]
    s_lands = tuple(c for c in lands if marks[c] == "S" for _ in range(copies[c]))
    land_deck = tuple(c for c in lands if marks[c] != "S" for _ in range(copies[c]))
    require(len(s_lands) == 5, "cards", f"expected 5 S lands for tiers 2 and 3, got {len(s_lands)}")
    bosses_by_level = tuple(
        tuple(c for c in range(len(names)) if kinds[c] == BOSS and boss_levels[c] == level and in_game(c)
              for _ in range(copies[c]))
        for level in range(1, LEVELS + 1)
    )
    for level, bosses in enumerate(bosses_by_level, start=1):
        require(len(bosses) >= 1, "cards", f"expected at least one boss of level {level}")
    monster_deck = deck_of(MONSTER)
    require(len(monster_deck) >= rules["max_enemies"], "cards", "expected at least rules.max_enemies monsters")
    extra_tiers = LEVELS - 1 if rules["longer_game"] else 0
    needed_lands = sum(range(2, 4 + extra_tiers)) * 2
    require(len(land_deck) >= needed_lands, "cards", f"expected at least {needed_lands} lands in the Land Deck")
    treasure_deck = deck_of(TREASURE)
    encounter_deck = deck_of(ENCOUNTER)
    require(len(treasure_deck) >= 1 and len(encounter_deck) >= 1, "cards", "expected treasures and encounters")

    # Combat Modifier table cards: on the table (in no deck) while their box is
    # in the game and rules.combat_modifier is on; their effects, once per copy.
    combat_modifiers = deck_of(MODIFIER, rules["combat_modifier"])
    modifier_effects = tuple(effect for card_id in combat_modifiers for effect in effects[card_id])

    composition: tuple[int, ...] = ()
    if rules["composition"].strip():
        chosen = [part.strip() for part in rules["composition"].split(",")]
        for part in chosen:
            require(part in class_names, "rules.composition",
                    f"unknown hero {part!r}; expected one of {', '.join(class_names)}")
            require(class_names.index(part) in enabled_classes, "rules.composition",
                    f"{part!r} needs its set in rules.sets")
        require(len(set(chosen)) == len(chosen), "rules.composition", "expected each hero class at most once")
        composition = tuple(class_names.index(part) for part in chosen)

    return PartyConfig(
        names=tuple(names), kinds=tuple(kinds), sets=tuple(card_sets), owners=tuple(owners), marks=tuple(marks),
        uses=tuple(uses), boss_levels=tuple(boss_levels), enemy_types=tuple(enemy_types),
        stats_12=tuple(stats_12), stats_34=tuple(stats_34), effects=tuple(effects), sacrifices=tuple(sacrifices),
        socials=tuple(socials), copies=tuple(copies), targets=tuple(targets),
        sacrifice_targets=tuple(sacrifice_targets), aims_at_enemy=tuple(aims),
        sacrifice_aims_at_enemy=tuple(sacrifice_aims), usable_outside_combat=tuple(outside),
        permanent_bonuses=tuple(permanents), once_per_combat=tuple(once),
        class_names=tuple(class_names), class_sets=tuple(class_sets), class_hp=tuple(hp),
        class_attack=tuple(attack), class_defense=tuple(defense), class_speed=tuple(speed),
        nemesis_types=tuple(nemesis_types), nemesis_penalty=tuple(nemesis_penalty),
        nemesis_reward=tuple(nemesis_reward),
        enabled_classes=enabled_classes, build_pools=build_pools, starting_decks=tuple(starting_decks),
        land_deck=land_deck, s_lands=s_lands,
        monster_deck=monster_deck, treasure_deck=treasure_deck, encounter_deck=encounter_deck,
        bosses_by_level=bosses_by_level, composition=composition,
        combat_modifiers=combat_modifiers, modifier_effects=modifier_effects,
        hand_size=rules["hand_size"],
        social=SOCIAL_MODES.index(rules["social"]), social_reward=rules["social_reward"],
        heal_between_turns=HEAL_MODES.index(rules["heal_between_turns"]), heal_amount=rules["heal_amount"],
        revive_at_level_up=rules["revive_at_level_up"], planning=PLANNING_MODES.index(rules["planning"]),
        nemesis=rules["nemesis"], hard_mode=rules["hard_mode"], party_mode=rules["party_mode"],
        hardcore=rules["hardcore"], longer_game=rules["longer_game"], max_turns=rules["max_turns"],
        max_combat_rounds=rules["max_combat_rounds"], max_enemies=rules["max_enemies"],
    )
