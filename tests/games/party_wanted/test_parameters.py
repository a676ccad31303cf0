"""Parameters: dotted-path overrides of cards.toml, and configure errors
that name the path."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from simcore.games.party_wanted import GAME
from simcore.games.party_wanted.config import (
    HEAL_AMOUNT,
    HEAL_FULL,
    HEAL_NONE,
    MULTIPLIERS_HERO,
    MULTIPLIERS_PARTY,
    P_ATTACK,
    P_DEFENSE,
    P_MINI_BOSS,
    P_NEGATE,
    P_PARTY_SPEED,
    P_PERM_SPEED,
    P_SLOW,
    P_SPEED,
    PLANNING_ANYTIME,
    PLANNING_ONCE,
    SOCIAL_RULEBOOK,
    SOCIAL_SOLO,
    parse_effects,
)
from simcore.parameters import ParameterError, apply_overrides

from .helpers import DEFAULT, cid, configured, fight, party, random_play, set_hand


def _count(kind: str, box: str) -> int:
    cards = GAME.default_parameters()["cards"]
    return sum(card["copies"] for card in cards.values() if card["kind"] == kind and card["set"] == box)


def test_the_card_counts_are_the_rulebooks() -> None:
    cards = GAME.default_parameters()["cards"]
    assert _count("land", "base") == 42 and _count("monster", "base") == 10 and _count("boss", "base") == 8
    assert _count("treasure", "base") == 17 and _count("encounter", "base") == 17
    minis = sum(card["copies"] for card in cards.values() if card["set"] == "base" and "mini_boss" in card["effects"])
    assert minis == 5
    # Each hero deck: its playable cards plus 2 level cards, a health counter and a Nemesis card.
    hero_totals: Counter[str] = Counter()
    for card in cards.values():
        if "owner" in card:
            hero_totals[card["owner"]] += card["copies"]
    assert {hero: total + 4 for hero, total in hero_totals.items()} == {
        "fighter": 32, "wizard": 32, "healer": 32, "rogue": 32,
        "minotaur": 25, "druid": 27, "bard": 27, "necromancer": 29,
    }
    expansions = {"minotaur": (7, 1, 1, 2, 2), "druid": (5, 1, 1, 2, 2), "bard": (5, 1, 1, 2, 2),
                  "necromancer": (13, 6, 2, 4, 3)}
    for box, (lands, monsters, bosses, treasures, encounters) in expansions.items():
        got = tuple(_count(kind, box) for kind in ("land", "monster", "boss", "treasure", "encounter"))
        assert got == (lands, monsters, bosses, treasures, encounters), box
        box_minis = sum(card["copies"] for card in cards.values()
                        if card["set"] == box and "mini_boss" in card["effects"])
        assert box_minis == 1


# The rulebook's itemised contents per box. Base: 42 lands + 4 hero decks of 32
# + 17 encounters + 17 treasures + 10 monsters + 8 bosses = 222, although its
# first line says "216 Cards Base Game" (RULES.md, assumption 1). Necromancer:
# 29 hero cards + 13 lands + 6 monsters + 2 bosses + 4 treasures + 3 encounters
# + 1 Combat Modifier = 58, its "58 Card Necromancer Expansion Deck".
BOX_TOTALS = {"base": 222, "minotaur": 38, "druid": 38, "bard": 38, "necromancer": 58}


def test_each_box_holds_the_rulebooks_itemised_total_of_cards() -> None:
    parameters = GAME.default_parameters()
    totals: Counter[str] = Counter()
    for card in parameters["cards"].values():
        totals[card["set"]] += card["copies"]
    for hero in parameters["heroes"].values():
        totals[hero["set"]] += 4  # two level cards, a health counter and a Nemesis card, not in cards.toml
    assert dict(totals) == BOX_TOTALS
    assert _count("modifier", "necromancer") == 1
    assert sum(_count("modifier", box) for box in BOX_TOTALS if box != "necromancer") == 0


def test_effects_are_primitives_with_amounts() -> None:
    assert parse_effects(["attack 2", "speed 1", "defense -1"], "x") == ((P_ATTACK, 2), (P_SPEED, 1), (P_DEFENSE, -1))
    assert parse_effects([], "x") == ()
    with pytest.raises(ParameterError, match=r"^cards\.x\.effects: unknown effect 'teleport 1'; expected one of "
                                             r"attack, defense, speed, "):
        parse_effects(["teleport 1"], "cards.x.effects")


def test_negate_and_mini_boss_take_no_argument_and_compile_to_the_amounts_their_rules_always_had() -> None:
    assert parse_effects(["negate", "mini_boss"], "x") == ((P_NEGATE, 0), (P_MINI_BOSS, 1))
    assert DEFAULT.effects[cid("wizard_mirror_image")] == ((P_NEGATE, 0),)
    with pytest.raises(ParameterError) as raised:
        parse_effects(["negate 0"], "cards.x.effects")
    assert str(raised.value) == "cards.x.effects: 'negate 0': expected 'negate' (no arguments), got 1 argument"


@pytest.mark.parametrize(("overrides", "message"), [
    ({"cards.goblin.effects": ["attack:2"]}, "cards.goblin.effects: unknown effect 'attack:2'; expected one of "),
    ({"cards.goblin.effects": ["attack x"]},
     "cards.goblin.effects: 'attack x': expected 'attack N' with N an integer, got N = x"),
    ({"cards.fighter_double_strike.effects": ["multiply_attack 5"]},
     "cards.fighter_double_strike.effects: 'multiply_attack 5': expected 'multiply_attack N' with N an integer "
     "from 2 to 3, got N = 5"),
    ({"cards.quiet_glade.social": ["heal -2"]},
     "cards.quiet_glade.social: 'heal -2': expected 'heal N' with N an integer of at least 0, got N = -2"),
    ({"cards.fighter_longsword.sacrifice": ["attack"]},
     "cards.fighter_longsword.sacrifice: 'attack': expected 'attack N' with N an integer, got no arguments"),
    ({"cards.wandering_monster.effects": ["fight 4"]},
     "cards.wandering_monster.effects: expected 'fight N' with N from 1 to rules.max_enemies"),
    ({"cards.wandering_monster.effects": ["fight 0"]},
     "cards.wandering_monster.effects: 'fight 0': expected 'fight N' with N an integer of at least 1, got N = 0"),
])
def test_a_bad_effect_is_a_one_line_error_naming_the_card_and_the_form_expected(
        overrides: dict[str, Any], message: str) -> None:
    with pytest.raises(ParameterError) as raised:
        configured(overrides)
    assert str(raised.value).startswith(message)


def test_an_override_changes_one_leaf_and_leaves_the_defaults_untouched() -> None:
    defaults = GAME.default_parameters()
    resolved = apply_overrides(defaults, {"cards.goblin.stats_12": [9, 9, 9, 9], "rules.hand_size": 5})
    config = GAME.configure(resolved)
    assert config.stats_12[cid("goblin", config)] == (9, 9, 9, 9) and config.hand_size == 5
    assert DEFAULT.stats_12[cid("goblin")] != (9, 9, 9, 9) and defaults["rules"]["hand_size"] == 4


def test_copies_overrides_change_the_decks() -> None:
    config = configured({"cards.goblin.copies": 0, "cards.wolf.copies": 4})
    assert cid("goblin", config) not in config.decks.monster_deck
    assert Counter(config.decks.monster_deck)[cid("wolf", config)] == 4


def test_turning_a_box_off_removes_its_heroes_and_cards() -> None:
    config = configured({"rules.sets.necromancer": False})
    assert "necromancer" not in [config.heroes.names[c] for c in config.decks.enabled_classes]
    assert cid("ghoul", config) not in config.decks.monster_deck
    with pytest.raises(ValueError):
        GAME.new_state(config, 8, 1)


@pytest.mark.parametrize(("overrides", "path"), [
    ({"rules.hand_size": 0}, "rules.hand_size"),
    ({"rules.social": "karaoke"}, "rules.social"),
    ({"rules.composition": "paladin"}, "rules.composition"),
    ({"rules.composition": "fighter,fighter"}, "rules.composition"),
    ({"cards.goblin.effects": ["attack x"]}, "cards.goblin.effects"),
    ({"cards.fighter_strike.effects": ["treasure 1"]}, "cards.fighter_strike.effects"),
    ({"cards.goblin.stats_12": [1, 2, 3]}, "cards.goblin.stats_12"),
    ({"cards.fighter_double_strike.effects": ["multiply_attack 5"]}, "cards.fighter_double_strike.effects"),
    ({"heroes.fighter.hp": [0, 1, 1, 1]}, "heroes.fighter.hp"),
    ({"cards.fighter_cleave.mark": "", "cards.fighter_battle_cry.mark": ""}, "heroes.fighter"),
    ({"rules.heal_between_turns": "some"}, "rules.heal_between_turns"),
    ({"rules.planning": "never"}, "rules.planning"),
    ({"rules.multipliers": "table"}, "rules.multipliers"),
    ({"rules.dead_heroes_level_up": 1}, "rules.dead_heroes_level_up"),
    ({"cards.quiet_glade.social": ["fight 1"]}, "cards.quiet_glade.social"),
    ({"cards.necromancer_skeleton_minion.effects": ["attack 1"]}, "cards.necromancer_skeleton_minion.effects"),
    ({"cards.necromancer_skeleton_minion.sacrifice": ["treasure 1"]}, "cards.necromancer_skeleton_minion.sacrifice"),
    ({"rules.sets.base": False}, "rules.sets.base"),
    ({"cards.necrotic_aura.effects": ["attack 1"]}, "cards.necrotic_aura.effects"),
    ({"cards.fighter_strike.effects": ["enemy_attack_per_dead 1"]}, "cards.fighter_strike.effects"),
    ({"rules.combat_modifier": 1}, "rules.combat_modifier"),
])
def test_configure_rejects_bad_values_naming_the_path(overrides: dict[str, Any], path: str) -> None:
    with pytest.raises(ParameterError) as error:
        configured(overrides)
    assert error.value.path == path


def test_each_reading_is_a_rules_switch_whose_default_is_the_literal_reading() -> None:
    assert DEFAULT.planning == PLANNING_ANYTIME and DEFAULT.social == SOCIAL_RULEBOOK
    assert DEFAULT.heal_between_turns == HEAL_FULL and not DEFAULT.revive_at_level_up
    other = configured({"rules.planning": "once", "rules.social": "solo", "rules.revive_at_level_up": True,
                        "rules.heal_between_turns": "amount"})
    assert other.planning == PLANNING_ONCE and other.social == SOCIAL_SOLO and other.revive_at_level_up
    assert other.heal_between_turns == HEAL_AMOUNT
    assert configured({"rules.heal_between_turns": "none"}).heal_between_turns == HEAL_NONE
    assert DEFAULT.multipliers == MULTIPLIERS_HERO and DEFAULT.dead_heroes_level_up  # "each Hero Draws 1 Treasure"
    other = configured({"rules.multipliers": "party", "rules.dead_heroes_level_up": False})
    assert other.multipliers == MULTIPLIERS_PARTY and not other.dead_heroes_level_up


def test_an_unknown_path_is_an_error_that_names_it() -> None:
    with pytest.raises(ParameterError, match=r"rules\.dragons"):
        apply_overrides(GAME.default_parameters(), {"rules.dragons": 3})


@pytest.mark.parametrize(("path", "value", "message"), [
    ("rules.sets.base", False, "rules.sets.base: expected true: the base game is always needed"),
    ("rules.max_combat_rounds", 0, "rules.max_combat_rounds: expected an integer of at least 1"),
    ("rules.max_enemies", 8, "rules.max_enemies: expected at most 7"),
    ("rules.heal_amount", -1, "rules.heal_amount: expected an integer of at least 0"),
    ("rules.planning", "never", "rules.planning: expected one of anytime, once"),
    ("heroes.bard.set", "moon", "heroes.bard.set: expected one of base, minotaur, druid, bard, necromancer"),
    ("heroes.bard.nemesis_type", "X", "heroes.bard.nemesis_type: expected U, H or B"),
    ("cards.goblin.copies", -1, "cards.goblin.copies: expected 0 to 1,000 copies"),
])
def test_a_declared_constraint_broken_gives_the_one_line_path_expected_message(
        path: str, value: Any, message: str) -> None:
    with pytest.raises(ParameterError) as raised:
        configured({path: value})
    assert str(raised.value) == message


def test_every_kind_primitive_and_mode_constant_is_the_index_of_its_name() -> None:
    # One constant per line (so that the compiled core reads them as numbers, not
    # names): each must still be its name's place in the list the parameters use.
    from simcore.games.party_wanted import config

    for names, prefix in ((config.KIND_NAMES, ""), (config.PRIMITIVES, "P_"), (config.USE_NAMES, ""),
                          (config.SOCIAL_MODES, "SOCIAL_"), (config.HEAL_MODES, "HEAL_"),
                          (config.PLANNING_MODES, "PLANNING_"), (config.MULTIPLIER_MODES, "MULTIPLIERS_")):
        for index, name in enumerate(names):
            assert getattr(config, prefix + name.upper()) == index, name


@pytest.mark.parametrize(("overrides", "message"), [
    ({"cards.goblin.stats_12": [5, 5, 600_000, 1]},
     r"^cards\.goblin\.stats_12: expected a speed within \+-\d[\d,]* \(the initiative's limit less every speed card\), "
     r"got 600,000$"),
    ({"cards.dragon.stats": [14, 10, -600_000, 4]}, r"^cards\.dragon\.stats: expected a speed within"),
    ({"heroes.fighter.speed": [600_000, 3, 4, 4]}, r"^heroes\.fighter\.speed: expected speeds of at most \d"),
    ({"cards.wizard_haste.effects": ["speed 600000"]},
     r"^cards: expected speed, party_speed, slow and perm_speed amounts times their copies to add up to less than "
     r"524,288, got \d"),
    ({"cards.wizard_haste.effects": ["party_speed 600"], "cards.wizard_haste.copies": 1000}, r"^cards: expected"),
])
def test_a_speed_the_initiative_cannot_order_is_refused_at_configure_naming_its_path(
        overrides: dict[str, Any], message: str) -> None:
    # Each of these used to pass configure and stop a game mid-combat with a ValueError
    # from the initiative ("speed 600000 is outside the initiative's range").
    with pytest.raises(ParameterError, match=message):
        configured(overrides)


def test_the_fastest_and_slowest_speeds_configure_accepts_are_ordered_in_combat() -> None:
    moved = sum(DEFAULT.copies[card] * abs(amount) for card in range(len(DEFAULT.names))
                for primitive, amount in DEFAULT.effects[card] + DEFAULT.sacrifices[card]
                if primitive in (P_SPEED, P_PARTY_SPEED, P_SLOW, P_PERM_SPEED))
    room = (1 << 19) - 1 - moved
    state = party("fighter,wizard", overrides={"heroes.fighter.speed": [room] * 4,
                                               "cards.goblin.stats_12": [5, 5, -room, 1],
                                               "cards.wolf.stats_12": [5, 4, room, 1]})
    set_hand(state, 0, ["fighter_strike"])
    set_hand(state, 1, ["wizard_haste", "wizard_slow"])
    fight(state, ["goblin", "wolf"])
    for _ in random_play(state, 4):  # the wizard's party speed +3 and slow 4 may move them further
        pass
    assert state.is_terminal()
