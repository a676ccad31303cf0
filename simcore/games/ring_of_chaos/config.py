"""Ring of Chaos: the compiled configuration (cards, parties, the battle map).

``compile_config`` validates a resolved parameter tree (``cards.toml`` plus
overrides) and turns it into tuples indexed by card, party and space ids, so
the rules never look anything up by name during play.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from simcore.parameters import COPIES, Constraint, require

DATA_FILE = Path(__file__).with_name("cards.toml")

CLERIC: Final = 0
FIGHTER: Final = 1
ROGUE: Final = 2
WIZARD: Final = 3
CLASS_NAMES = ("cleric", "fighter", "rogue", "wizard")
NO_CLASS: Final = -1

# Every card of the rulebook, in the order of its "Action Deck Cards" section.
# A card's behaviour is its entry in ``rules.CARD_BEHAVIOUR``, by name.
DOMINANCE: Final = 0
LEADERSHIP: Final = 1
SNEAK: Final = 2
TELEPORT: Final = 3
BULLY: Final = 4
EARTHQUAKE: Final = 5
PICKPOCKET: Final = 6
SCAVENGE: Final = 7
TITHE: Final = 8
DAGGER: Final = 9
MACE: Final = 10
STAFF: Final = 11
SWORD: Final = 12
DAGGER_OF_BITING: Final = 13
SWORD_OF_SLAYING: Final = 14
BOW: Final = 15
HOLY_STRIKE: Final = 16
LIGHTNING_BOLT: Final = 17
THROWING_AXE: Final = 18
LIGHTNING_STORM: Final = 19
HOLY_VENGEANCE: Final = 20
FIREBALL: Final = 21
IMPRISON: Final = 22
PIT_TRAP: Final = 23
SAVAGE_ATTACK: Final = 24
CHAOS_MAGIC: Final = 25
HEALING_POTION: Final = 26
MIND_CONTROL: Final = 27
NECROMANCY: Final = 28
POISON: Final = 29
RESURRECTION: Final = 30
DODGE: Final = 31
HASTY_RETREAT: Final = 32
HEROIC_SACRIFICE: Final = 33
PARRY: Final = 34
TEMPLE_GUARDIAN: Final = 35
CARD_NAMES = (
    "dominance", "leadership", "sneak", "teleport", "bully", "earthquake", "pickpocket", "scavenge", "tithe",
    "dagger", "mace", "staff", "sword", "dagger_of_biting", "sword_of_slaying",
    "bow", "holy_strike", "lightning_bolt", "throwing_axe", "lightning_storm", "holy_vengeance",
    "fireball", "imprison", "pit_trap", "savage_attack",
    "chaos_magic", "healing_potion", "mind_control", "necromancy", "poison", "resurrection",
    "dodge", "hasty_retreat", "heroic_sacrifice", "parry", "temple_guardian",
)

# A card's facts (``cards.<name>.action``, ``reach``, ``sure``, ``counters`` in cards.toml), compiled
# to one tuple per fact in ``RingConfig``: the Action it is played as, whom its attack reaches, and
# the attack styles (who may counter with what) it counters.
MOVE_SLOT: Final = 0
ATTACK_SLOT: Final = 1
BONUS_SLOT: Final = 2
COUNTER_ONLY: Final = 3
THREAT: Final = 4
SLOT_NAMES = ("move", "attack", "bonus", "counter", "threat")
NO_REACH: Final = 0
MELEE_REACH: Final = 1
RANGED_REACH: Final = 2
REACH_NAMES = ("none", "melee", "ranged")
MELEE: Final = 0
MELEE_SURE: Final = 1
RANGED: Final = 2
RANGED_SURE: Final = 3
GUARDIAN: Final = 4
STYLE_KEYS = ("melee", "melee_sure", "ranged", "ranged_sure", "guardian")

# Party powers, by the party's key in cards.toml.
BRUTE_SQUAD: Final = 0
DEATH_FROM_ABOVE: Final = 1
DEFENDERS_OF_THE_FAITH: Final = 2
DEN_OF_THIEVES: Final = 3
DREAD_LEGION: Final = 4
GIANT_SLAYERS: Final = 5
HELL_RAISERS: Final = 6
NO_POWER: Final = 7
POWER_KEYS = (
    "brute_squad", "death_from_above", "defenders_of_the_faith", "den_of_thieves",
    "dread_legion", "giant_slayers", "hell_raisers",
)


@dataclass(frozen=True)
class BattleMap:
    """One battle map: adjacency lists, all-pairs distances, Altar and starts."""

    name: str
    n_spaces: int
    neighbours: tuple[tuple[int, ...], ...]
    distance: tuple[tuple[int, ...], ...]
    altar: int
    starts: tuple[int, ...]


@dataclass(frozen=True)
class RingConfig:
    """Compiled parameters: card attributes as tuples indexed by card id."""

    card_classes: tuple[int, ...]
    class_cards: tuple[int, ...]  # per class: a bit per card id of that class (the rules' card masks)
    card_slots: tuple[int, ...]  # the Action each card is played as (``MOVE_SLOT``...)
    card_reach: tuple[int, ...]  # ``NO_REACH``, ``MELEE_REACH``, ``RANGED_REACH``
    card_sure: tuple[bool, ...]  # its attack cannot be parried or dodged
    card_counter_styles: tuple[int, ...]  # a bit per attack style it counters (``MELEE``...)
    copies: tuple[int, ...]
    blank_cards: int  # a bit per card id made blank (``rules.blank_cards``): never played nor countered with
    deck: tuple[int, ...]
    party_keys: tuple[str, ...]
    party_names: tuple[str, ...]
    party_powers: tuple[int, ...]
    brute_squad_melee_hits: int  # the numbers in the powers' texts ([powers] in cards.toml)
    giant_slayers_cards_per_hit: int
    defenders_cards_to_discard: int
    draft_parties: tuple[int, ...]
    board: BattleMap
    move_reach: tuple[tuple[int, ...], ...]  # per space: the spaces 1..move_spaces steps away
    retreat_reach: tuple[tuple[int, ...], ...]  # per space: the spaces 1..retreat_spaces steps away
    opening_hand: int
    draws_per_turn: int
    hand_limit: int
    move_spaces: int
    retreat_spaces: int
    points_to_win: int
    ring_take_points: int
    ring_wear_points: int
    max_taken_points: int
    max_turns: int
    # Readings of the rulebook that can go two ways (RULES.md, "Readings"): True/False as in cards.toml.
    guardian_every_counter_card: bool
    guardian_counter_full_effects: bool
    death_from_above_dead_classes: bool
    heroic_sacrifice_any_player: bool
    retreat_may_push: bool
    chaos_magic_at_ten_costs_victim: bool
    fireball_splash_optional: bool
    push_to_vacated_space_always: bool
    savage_attack_adds_savage_attacks: bool


# The rules.* switches between readings, in the order of RULES.md's "Readings" table.
READING_SWITCHES = (
    "guardian_every_counter_card", "guardian_counter_full_effects", "death_from_above_dead_classes",
    "heroic_sacrifice_any_player", "retreat_may_push", "chaos_magic_at_ten_costs_victim", "fireball_splash_optional",
    "push_to_vacated_space_always", "savage_attack_adds_savage_attacks",
)


# What each parameter must be, checked by ``GAME.configure`` before ``compile_config``
# (simcore.parameters.check_constraints); the cross-field checks and the map's shape
# stay in compile_config and compile_map.
CONSTRAINTS = (
    *(Constraint(f"rules.{key}", minimum=1, expected="expected an integer of at least 1")
      for key in ("opening_hand", "draws_per_turn", "hand_limit", "move_spaces", "retreat_spaces",
                  "points_to_win", "max_turns")),
    *(Constraint(f"rules.{key}", minimum=0, expected="expected an integer of at least 0")
      for key in ("ring_take_points", "ring_wear_points")),
    Constraint("rules.map", choices_at="maps", expected="expected one of: {choices}"),
    Constraint("cards.*.class", choices=("none", *CLASS_NAMES),
               expected="expected none, cleric, fighter, rogue or wizard"),
    COPIES,
    Constraint("cards.*.action", choices=SLOT_NAMES, expected="expected move, attack, bonus, counter or threat"),
    Constraint("cards.*.reach", choices=REACH_NAMES, expected="expected none, melee or ranged"),
    Constraint("cards.*.sure", choices=(True, False), expected="expected true or false"),
    Constraint("cards.*.counters", choices=STYLE_KEYS, each_item=True,
               expected="expected a list of: melee, melee_sure, ranged, ranged_sure, guardian"),
    Constraint("parties.*.power", choices=("none", *POWER_KEYS),
               expected=f"expected none or one of: {', '.join(POWER_KEYS)}"),
    Constraint("powers.brute_squad.melee_hits", choices=(1, 2),
               expected="expected 1 or 2 (a Hero has two levels to lose: Full Strength, Wounded, Dead)"),
    Constraint("powers.giant_slayers.cards_per_hit", minimum=0, maximum=5, expected="expected 0 to 5 cards"),
)


def compile_map(name: str, table: Mapping[str, Any]) -> BattleMap:
    """Validate one ``[maps.<name>]`` table and compute its distances."""
    path = f"maps.{name}"
    n_spaces = table["spaces"]
    require(isinstance(n_spaces, int) and 2 <= n_spaces <= 99, f"{path}.spaces", "expected 2 to 99 spaces")
    neighbours: list[list[int]] = [[] for _ in range(n_spaces)]
    for link in table["links"]:
        require(
            isinstance(link, list) and len(link) == 2 and all(0 <= end < n_spaces for end in link)
            and link[0] != link[1],
            f"{path}.links", f"expected pairs of two different spaces 0..{n_spaces - 1}, got {link!r}",
        )
        first, second = link
        if second not in neighbours[first]:
            neighbours[first].append(second)
            neighbours[second].append(first)
    require(0 <= table["altar"] < n_spaces, f"{path}.altar", f"expected a space 0..{n_spaces - 1}")
    starts = table["starts"]
    require(
        len(starts) == 6 and len(set(starts)) == 6 and all(0 <= s < n_spaces for s in starts)
        and table["altar"] not in starts,
        f"{path}.starts", "expected six different spaces, not the Altar",
    )
    distance = [[-1] * n_spaces for _ in range(n_spaces)]
    for origin in range(n_spaces):
        row = distance[origin]
        row[origin] = 0
        frontier = [origin]
        while frontier:
            following = []
            for space in frontier:
                for other in neighbours[space]:
                    if row[other] < 0:
                        row[other] = row[space] + 1
                        following.append(other)
            frontier = following
        require(all(d >= 0 for d in row), f"{path}.links", "expected a connected map")
    return BattleMap(
        name=name,
        n_spaces=n_spaces,
        neighbours=tuple(tuple(sorted(adjacent)) for adjacent in neighbours),
        distance=tuple(tuple(row) for row in distance),
        altar=table["altar"],
        starts=tuple(starts),
    )


def spaces_within(board: BattleMap, most: int) -> tuple[tuple[int, ...], ...]:
    """For each space, the spaces 1..``most`` steps from it (shortest paths)."""
    return tuple(
        tuple(space for space in range(board.n_spaces) if 1 <= row[space] <= most) for row in board.distance
    )


def check_party_draft(config: RingConfig, n_players: int) -> None:
    """Refuse a draft that cannot seat ``n_players`` (``ParameterError`` naming the parameter):
    the draft offers two parties to each player in turn, so it needs ``n_players + 1`` party
    cards (``parties.<key>.in_draft``). ``KitGame.check_players`` for ``experiments.spec``, so
    that a variant taking parties out is refused before anything is played."""
    needed = n_players + 1
    require(len(config.draft_parties) >= needed, "parties",
            f"expected at least {needed} parties in the draft (parties.<key>.in_draft) for {n_players} players, "
            f"got {len(config.draft_parties)}: {', '.join(config.party_keys[party] for party in config.draft_parties)}")


def compile_config(parameters: Mapping[str, Any]) -> RingConfig:
    """Compile a tree that passed ``CONSTRAINTS``; the cross-field checks name their path."""
    rules = parameters["rules"]
    require(
        0 <= rules["max_taken_points"] < rules["points_to_win"], "rules.max_taken_points",
        "expected at least 0 and less than rules.points_to_win",
    )
    cards = parameters["cards"]
    require(
        sorted(cards) == sorted(CARD_NAMES), "cards",
        f"expected exactly the rulebook's cards: {', '.join(CARD_NAMES)}",
    )
    classes = [NO_CLASS if cards[name]["class"] == "none" else CLASS_NAMES.index(cards[name]["class"])
               for name in CARD_NAMES]
    copies = [cards[name]["copies"] for name in CARD_NAMES]
    counter_styles = [sum(1 << STYLE_KEYS.index(style) for style in set(cards[name]["counters"]))
                      for name in CARD_NAMES]
    if not rules["guardian_every_counter_card"]:  # the reading that keeps these two off a Temple Guardian
        for card in (CHAOS_MAGIC, HEROIC_SACRIFICE):
            counter_styles[card] &= ~(1 << GUARDIAN)
    blank = rules["blank_cards"]
    for name in blank:
        require(isinstance(name, str) and name in CARD_NAMES and name != CARD_NAMES[TEMPLE_GUARDIAN],
                "rules.blank_cards", f"expected names of Action cards (not the Temple Guardian), got {name!r}")
    deck = tuple(card for card, count in enumerate(copies) for _ in range(count))
    non_guardians = len(deck) - copies[TEMPLE_GUARDIAN]
    require(non_guardians >= 6 * rules["opening_hand"] + 1, "cards",
            f"expected at least {6 * rules['opening_hand'] + 1} cards besides Temple Guardians")
    keys, names, powers, draft = [], [], [], []
    for index, (key, party) in enumerate(parameters["parties"].items()):
        keys.append(key)
        names.append(party["name"])
        power = party["power"]
        powers.append(NO_POWER if power == "none" else POWER_KEYS.index(power))
        if party["in_draft"]:
            draft.append(index)
    require(len(draft) >= 3, "parties", "expected at least 3 parties in the draft (two players and one spare)")
    power_numbers = parameters["powers"]
    melee_hits = power_numbers["brute_squad"]["melee_hits"]
    cards_per_hit = power_numbers["giant_slayers"]["cards_per_hit"]
    cards_to_discard = power_numbers["defenders_of_the_faith"]["cards_to_discard"]
    require(0 <= cards_to_discard <= rules["hand_limit"], "powers.defenders_of_the_faith.cards_to_discard",
            "expected 0 cards up to rules.hand_limit")
    map_name = rules["map"]
    board = compile_map(map_name, parameters["maps"][map_name])
    return RingConfig(
        card_classes=tuple(classes),
        class_cards=tuple(sum(1 << card for card, card_class in enumerate(classes) if card_class == hero)
                          for hero in range(len(CLASS_NAMES))),
        card_slots=tuple(SLOT_NAMES.index(cards[name]["action"]) for name in CARD_NAMES),
        card_reach=tuple(REACH_NAMES.index(cards[name]["reach"]) for name in CARD_NAMES),
        card_sure=tuple(cards[name]["sure"] for name in CARD_NAMES),
        card_counter_styles=tuple(counter_styles),
        copies=tuple(copies),
        blank_cards=sum(1 << CARD_NAMES.index(name) for name in set(blank)),
        deck=deck,
        party_keys=tuple(keys),
        party_names=tuple(names),
        party_powers=tuple(powers),
        brute_squad_melee_hits=melee_hits,
        giant_slayers_cards_per_hit=cards_per_hit,
        defenders_cards_to_discard=cards_to_discard,
        draft_parties=tuple(draft),
        board=board,
        move_reach=spaces_within(board, rules["move_spaces"]),
        retreat_reach=spaces_within(board, rules["retreat_spaces"]),
        opening_hand=rules["opening_hand"],
        draws_per_turn=rules["draws_per_turn"],
        hand_limit=rules["hand_limit"],
        move_spaces=rules["move_spaces"],
        retreat_spaces=rules["retreat_spaces"],
        points_to_win=rules["points_to_win"],
        ring_take_points=rules["ring_take_points"],
        ring_wear_points=rules["ring_wear_points"],
        max_taken_points=rules["max_taken_points"],
        max_turns=rules["max_turns"],
        guardian_every_counter_card=rules["guardian_every_counter_card"],
        guardian_counter_full_effects=rules["guardian_counter_full_effects"],
        death_from_above_dead_classes=rules["death_from_above_dead_classes"],
        heroic_sacrifice_any_player=rules["heroic_sacrifice_any_player"],
        retreat_may_push=rules["retreat_may_push"],
        chaos_magic_at_ten_costs_victim=rules["chaos_magic_at_ten_costs_victim"],
        fireball_splash_optional=rules["fireball_splash_optional"],
        push_to_vacated_space_always=rules["push_to_vacated_space_always"],
        savage_attack_adds_savage_attacks=rules["savage_attack_adds_savage_attacks"],
    )
