"""Combat, rule by rule: stats by level, HP per hero, initiative, hits,
enemy attacks, defense, burying for +1, multipliers, once-per-combat cards,
the end of a round, several enemies, mini-bosses, the Combat Modifier card."""

from __future__ import annotations

from typing import Any

import pytest

from simcore.games.party_wanted.rules import (
    ARMOR_SLOT,
    ASIDE,
    BURY_FOR_ATTACK,
    BURY_FOR_DEFENSE,
    COMBAT_ROUND,
    ENEMY_ATTACK_BONUS,
    IN_COMBAT,
    IN_PLAY,
    LEVEL,
    MODIFIER_TRIGGERS,
    PLAN,
    PLAY_CARD,
    REVEAL,
    WEAPON_SLOT,
    PartyState,
    stats_for,
)

from .helpers import (
    DEFAULT,
    ENEMY_MINI_BOSS,
    alive,
    buried,
    bury_for,
    cid,
    configured,
    done,
    enemy_hps,
    enemy_stats,
    fight,
    finish_planning,
    hps,
    named,
    party,
    phase,
    play,
    random_play,
    reask,
    set_deck,
    set_enemy,
    set_enemy_hp,
    set_hand,
    set_hp,
    set_number,
    set_zone,
    zone,
)

STEADY = {"heroes.fighter.attack": [4, 4, 4, 4], "heroes.fighter.defense": [10, 10, 10, 10],
          "heroes.fighter.speed": [3, 3, 3, 3], "heroes.fighter.hp": [12, 12, 12, 12]}


def _solo_fighter(hand: list[str], overrides: dict[str, object] | None = None) -> PartyState:
    state = party("fighter", overrides={**STEADY, **(overrides or {})})
    set_hand(state, 0, hand)
    set_deck(state, 0, ["fighter_guard"] * 3)
    return state


def test_enemy_stats_follow_the_party_level_one_two_and_three_four() -> None:
    state = party("fighter")
    goblin = cid("goblin")
    for level, expected in ((1, state.config.stats_12[goblin]), (2, state.config.stats_12[goblin]),
                            (3, state.config.stats_34[goblin]), (4, state.config.stats_34[goblin])):
        set_number(state, LEVEL, level)
        set_hand(state, 0, ["fighter_strike"])
        fight(state, ["goblin"])
        assert enemy_stats(state)[0] == expected[:3] == stats_for(state.config, goblin, level)[:3]
        set_number(state, IN_COMBAT, 0)
    assert state.config.stats_12[goblin] != state.config.stats_34[goblin]


def test_a_two_hp_boss_has_eight_hp_against_four_heroes() -> None:
    state = party("fighter,wizard,healer,rogue", overrides={"cards.goblin_chief.stats": [7, 6, 3, 2]})
    for seat in range(4):
        set_hand(state, seat, ["fighter_strike"] if seat == 0 else [])
    fight(state, ["goblin_chief"])
    assert enemy_hps(state) == [8]
    solo = party("fighter", overrides={"cards.goblin_chief.stats": [7, 6, 3, 2]})
    set_hand(solo, 0, ["fighter_strike"])
    fight(solo, ["goblin_chief"])
    assert enemy_hps(solo) == [2]


def test_an_enemy_attack_of_twelve_against_defense_ten_costs_two_hp() -> None:
    state = _solo_fighter(["fighter_strike"])
    fight(state, ["goblin"])
    set_enemy(state, 0, attack=12, defense=99, speed=9, hp=5)
    before = state.hp(0)
    done(state)
    assert state.hp(0) == before - 2


def test_an_attack_at_or_below_defense_does_no_damage() -> None:
    state = _solo_fighter(["fighter_strike"])
    fight(state, ["goblin"])
    set_enemy(state, 0, attack=10, defense=99, speed=9, hp=5)
    before = state.hp(0)
    done(state)
    assert state.hp(0) == before


def test_a_hit_needs_total_attack_at_least_the_defense_and_deals_one_hp() -> None:
    state = _solo_fighter(["fighter_strike"])
    fight(state, ["goblin"])
    set_enemy(state, 0, attack=0, defense=5, speed=0, hp=5)
    done(state)  # attack 4 against defense 5: a miss
    assert enemy_hps(state) == [5]
    play(state, "fighter_strike")  # 4 + 2 = 6 >= 5: one hit
    done(state)
    assert enemy_hps(state) == [4]
    set_enemy(state, 0, attack=0, defense=4, speed=0, hp=4)
    done(state)  # 4 >= 4: meeting the defense is enough
    assert enemy_hps(state) == [3]


def test_each_hero_attacks_each_enemy_once_per_round() -> None:
    state = party("fighter,rogue", overrides=STEADY)
    for seat in range(2):
        set_hand(state, seat, ["fighter_strike"] if seat == 0 else ["rogue_strike"])
    fight(state, ["goblin", "wolf"])
    for enemy in range(2):
        set_enemy(state, enemy, attack=0, defense=0, speed=0, hp=9)
    finish_planning(state)
    assert enemy_hps(state) == [7, 7]  # two heroes, one hit each on each enemy


def test_speed_decides_initiative_and_ties_go_to_the_heroes() -> None:
    state = _solo_fighter(["fighter_strike"])
    fight(state, ["goblin"])
    set_enemy(state, 0, attack=20, defense=0, speed=3, hp=1)  # same speed as the fighter
    assert state.initiative() == [(True, 0, 0), (False, 0, -1)]
    before = state.hp(0)
    done(state)
    assert enemy_hps(state) == [] and state.hp(0) == before  # the hero struck first: the enemy never attacked
    faster = _solo_fighter(["fighter_strike"])
    fight(faster, ["goblin"])
    set_enemy(faster, 0, attack=20, defense=0, speed=4, hp=1)
    assert faster.initiative() == [(False, 0, -1), (True, 0, 0)]
    done(faster)
    assert faster.hp(0) == before - 10


def test_buffs_played_before_initiative_change_the_order() -> None:
    state = party("wizard", overrides={"heroes.wizard.speed": [4, 4, 4, 4]})
    set_hand(state, 0, ["wizard_haste", "wizard_strike"])
    fight(state, ["goblin"])
    set_enemy(state, 0, attack=0, defense=99, speed=6, hp=3)
    assert state.initiative()[0] == (False, 0, -1)
    play(state, "wizard_haste")  # party speed +3: 7 against 6
    assert state.initiative()[0] == (True, 0, 0)


def test_defense_cards_played_in_response_reduce_the_damage() -> None:
    state = _solo_fighter(["fighter_guard", "fighter_strike"])
    fight(state, ["goblin"])
    set_enemy(state, 0, attack=13, defense=99, speed=9, hp=5)
    before = state.hp(0)
    play(state, "fighter_guard")  # defense 10 + 2
    done(state)
    assert state.hp(0) == before - 1


def test_burying_any_card_gives_plus_one_attack_or_defense_to_any_hero() -> None:
    state = party("fighter,wizard", overrides=STEADY)
    set_hand(state, 0, ["fighter_cleave", "fighter_rally"])
    set_hand(state, 1, ["wizard_strike"])
    fight(state, ["goblin"])
    set_enemy(state, 0, attack=0, defense=99, speed=0, hp=5)
    defense_before = state.hero_defense(1, 0)
    bury_for(state, "fighter_cleave", hero=1)  # the fighter helps the wizard
    assert state.hero_defense(1, 0) == defense_before + 1
    attack_before = state.hero_attack(0, 0)
    bury_for(state, "fighter_rally", hero=0, attack=True)
    assert state.hero_attack(0, 0) == attack_before + 1
    bottom = named(buried(state, 0))
    assert sorted(bottom) == ["fighter_cleave", "fighter_rally"]  # buried face up under the Hero Deck
    assert state.stats.get(0, 3, cid("fighter_cleave")) == 1


def test_only_one_multiplier_per_stat_applies_each_round_and_it_multiplies_the_card_numbers() -> None:
    state = _solo_fighter(["fighter_strike", "fighter_double_strike", "fighter_double_strike", "fighter_bulwark"])
    fight(state, ["goblin"])
    set_enemy(state, 0, attack=0, defense=99, speed=0, hp=5)
    base = state.hero_attack(0, 0)
    play(state, "fighter_strike")
    play(state, "fighter_double_strike")
    assert state.hero_attack(0, 0) == base + 2 * 2
    legal_plays = {state.describe_action(a) for a in state.legal_actions()}
    assert not any("double_strike" in text and text.startswith("play") for text in legal_plays)
    assert any("bulwark" in text and text.startswith("play") for text in legal_plays)  # defense has its own


def _fighter_doubles_a_strike(multipliers: str) -> PartyState:
    """The fighter plays a Strike and doubles it; it still holds its Defense
    multiplier, and the wizard, next to plan, a Strike and its own attack multiplier
    (``rules.multipliers`` as given)."""
    state = party("fighter,wizard", overrides={**STEADY, "rules.multipliers": multipliers})
    set_hand(state, 0, ["fighter_strike", "fighter_double_strike", "fighter_bulwark"])
    set_hand(state, 1, ["wizard_strike", "wizard_empower"])
    fight(state, ["goblin"])
    set_enemy(state, 0, attack=0, defense=99, speed=0, hp=5)
    play(state, "fighter_strike")
    play(state, "fighter_double_strike")
    return state


def _wizard_plans_a_strike(state: PartyState) -> None:
    done(state)
    assert state.current_player == 1
    play(state, "wizard_strike")


def _can_play(state: PartyState, name: str) -> bool:
    position = state.hand(state.current_player).index(cid(name))
    return any(PLAY_CARD.matches(action) and PLAY_CARD.value(action) == position for action in state.legal_actions())


def test_by_default_each_hero_may_apply_its_own_multiplier_in_the_same_round() -> None:
    # "only one can be applied per Round for either Attack and/or Defense", read per hero.
    state = _fighter_doubles_a_strike("hero")
    _wizard_plans_a_strike(state)
    assert _can_play(state, "wizard_empower")
    base = state.base_attack(1)
    play(state, "wizard_empower")
    assert state.hero_attack(1, 0) == base + 2 * 2 and state.hero_attack(0, 0) == 4 + 2 * 2


def test_with_the_party_reading_a_multiplier_in_play_bars_every_other_heros_for_that_stat() -> None:
    # "only one can be applied per Round", read for the whole party (rules.multipliers = "party").
    state = _fighter_doubles_a_strike("party")
    assert _can_play(state, "fighter_bulwark")  # the other stat still has its one multiplier
    _wizard_plans_a_strike(state)
    assert not _can_play(state, "wizard_empower")
    finish_planning(state)  # the next round: the limit starts again
    set_hand(state, 0, [])
    set_hand(state, 1, ["wizard_strike", "wizard_empower"])
    while state.current_player != 1:
        done(state)
    assert _can_play(state, "wizard_empower")


def test_once_per_combat_cards_are_set_aside_until_the_combat_ends_then_buried() -> None:
    state = _solo_fighter(["fighter_rally", "fighter_strike"])
    fight(state, ["goblin"])
    set_enemy(state, 0, attack=0, defense=0, speed=0, hp=2)
    play(state, "fighter_rally")  # draws: once per combat
    assert named(zone(state, 0, ASIDE)) == ["fighter_rally"]
    done(state)  # round 1: one hit, the rally stays aside
    assert named(zone(state, 0, ASIDE)) == ["fighter_rally"] and state.in_combat()
    done(state)  # round 2: the goblin dies, combat ends
    assert not state.in_combat() and zone(state, 0, ASIDE) == []
    assert cid("fighter_rally") in buried(state, 0)


def test_stats_reset_used_cards_are_buried_and_each_hero_draws_one_at_the_end_of_a_round() -> None:
    state = _solo_fighter(["fighter_strike", "fighter_guard"])
    fight(state, ["goblin"])
    set_enemy(state, 0, attack=0, defense=99, speed=0, hp=5)
    play(state, "fighter_strike")
    play(state, "fighter_guard")  # the hand is empty: nothing left to plan, the round runs
    assert phase(state) == PLAN and state.numbers[COMBAT_ROUND] == 2
    assert state.hero_attack(0, 0) == 4 and state.hero_defense(0, 0) == 10  # back to base
    assert sorted(named(buried(state, 0))) == ["fighter_guard", "fighter_strike"]
    assert named(state.hand(0)) == ["fighter_guard"]  # the one draw of the round
    assert zone(state, 0, IN_PLAY) == []


def test_with_several_enemies_attack_cards_are_assigned_to_one_enemy() -> None:
    state = _solo_fighter(["fighter_strike", "fighter_guard"])
    fight(state, ["goblin", "wolf"])
    for enemy in range(2):
        set_enemy(state, enemy, attack=0, defense=6, speed=0, hp=4)
    play(state, "fighter_strike", enemy=1)
    assert state.hero_attack(0, 0) == 4 and state.hero_attack(0, 1) == 6
    done(state)
    assert enemy_hps(state) == [4, 3]


def test_every_enemy_attacks_every_hero_once_on_its_initiative() -> None:
    state = party("fighter,rogue", overrides={**STEADY, "heroes.rogue.defense": [8, 8, 8, 8],
                                              "heroes.rogue.hp": [12, 12, 12, 12]})
    set_hand(state, 0, ["fighter_strike"])
    set_hand(state, 1, ["rogue_strike"])
    fight(state, ["goblin", "wolf"])
    set_enemy(state, 0, attack=11, defense=99, speed=9, hp=5)
    set_enemy(state, 1, attack=12, defense=99, speed=9, hp=5)
    finish_planning(state)
    assert hps(state) == [12 - 1 - 2, 12 - 3 - 4]  # defense 10 and 8 against attacks 11 and 12


def test_a_mini_boss_land_is_fought_with_its_own_stats() -> None:
    state = _solo_fighter(["fighter_strike"])
    land = cid("troll_bridge")
    fight(state, ["troll_bridge"], kind=ENEMY_MINI_BOSS)
    assert enemy_stats(state) == [state.config.stats_12[land][:3]]
    assert enemy_hps(state) == [state.config.stats_12[land][3]]


def test_combat_ends_when_every_enemy_is_dead_and_play_goes_on() -> None:
    state = _solo_fighter(["fighter_strike"])
    fight(state, ["goblin"])
    set_enemy(state, 0, attack=0, defense=0, speed=0, hp=1)
    done(state)
    assert not state.in_combat() and phase(state) == REVEAL


# The Necromancer box's Combat Modifier card (necrotic_aura, our design).
STEADY_ROGUE = {**STEADY, "heroes.rogue.attack": [4, 4, 4, 4], "heroes.rogue.defense": [8, 8, 8, 8],
                "heroes.rogue.speed": [3, 3, 3, 3], "heroes.rogue.hp": [12, 12, 12, 12]}


def _fighter_and_rogue_with_a_dead_healer(overrides: dict[str, object] | None = None) -> PartyState:
    state = party("fighter,rogue,healer", overrides={**STEADY_ROGUE, **(overrides or {})})
    set_hand(state, 0, ["fighter_strike"])
    set_hand(state, 1, ["rogue_strike"])
    state._kill_hero(2)
    reask(state)
    return state


def test_the_combat_modifier_gives_every_enemy_one_attack_per_dead_hero_counted_each_round() -> None:
    state = _fighter_and_rogue_with_a_dead_healer()
    assert named(state.config.decks.combat_modifiers) == ["necrotic_aura"]
    fight(state, ["goblin"])
    set_enemy(state, 0, attack=11, defense=99, speed=0, hp=50)
    assert state.numbers[ENEMY_ATTACK_BONUS] == 1 and state.enemy_attack(0) == 12
    set_hp(state, 1, 4)
    finish_planning(state)
    # Round 1: attack 11 + 1 against defense 10 and 8; the rogue (4 HP) dies.
    assert hps(state) == [12 - 2, 0, 0] and alive(state) == [True, False, False]
    # Round 2 counts two dead heroes: attack 11 + 2 against defense 10.
    assert state.numbers[COMBAT_ROUND] == 2 and state.enemy_attack(0) == 13
    finish_planning(state)
    assert state.hp(0) == 12 - 2 - 3
    assert state.numbers[MODIFIER_TRIGGERS] == 3 and state.game_columns()["modifier_triggers"] == 3


def test_the_combat_modifier_does_nothing_while_every_hero_lives() -> None:
    state = party("fighter,rogue", overrides=STEADY_ROGUE)
    set_hand(state, 0, ["fighter_strike"])
    set_hand(state, 1, ["rogue_strike"])
    fight(state, ["goblin"])
    set_enemy(state, 0, attack=11, defense=99, speed=0, hp=50)
    finish_planning(state)
    assert hps(state) == [12 - 1, 12 - 3]
    assert state.numbers[ENEMY_ATTACK_BONUS] == 0 and state.numbers[MODIFIER_TRIGGERS] == 0


@pytest.mark.parametrize("overrides", [
    {"rules.combat_modifier": False}, {"rules.sets.necromancer": False}, {"cards.necrotic_aura.copies": 0},
])
def test_without_the_combat_modifier_a_dead_hero_does_not_strengthen_the_enemies(overrides: dict[str, object]) -> None:
    state = _fighter_and_rogue_with_a_dead_healer(overrides)
    assert state.config.decks.combat_modifiers == () and state.config.decks.modifier_effects == ()
    fight(state, ["goblin"])
    set_enemy(state, 0, attack=11, defense=99, speed=0, hp=50)
    assert state.enemy_attack(0) == 11
    finish_planning(state)
    assert hps(state) == [12 - 1, 12 - 3, 0] and state.numbers[MODIFIER_TRIGGERS] == 0


def test_a_combat_modifier_built_from_party_primitives_acts_at_the_start_of_every_round() -> None:
    state = party("fighter,rogue", overrides={**STEADY_ROGUE,
                                              "cards.necrotic_aura.effects": ["party_attack 1", "party_defense 2"]})
    set_hand(state, 0, ["fighter_strike"])
    set_hand(state, 1, ["rogue_strike"])
    fight(state, ["goblin"])
    set_enemy(state, 0, attack=11, defense=99, speed=0, hp=50)
    assert state.hero_attack(0, 0) == 4 + 1 and state.hero_defense(0, 0) == 10 + 2
    finish_planning(state)
    assert hps(state) == [12, 12 - 1]  # attack 11 against defense 12 and 10
    # The round's bonuses were reset and the modifier acted again for round 2.
    assert state.numbers[COMBAT_ROUND] == 2 and state.hero_defense(1, 0) == 8 + 2
    assert state.numbers[MODIFIER_TRIGGERS] == 2


# Several enemies: "Only Base Stats will apply to both monsters. The Party will
# need to designate cards played to each creature separately."

def _two_attackers(hand: list[str], composition: str = "fighter") -> PartyState:
    """The fighter (defense 10, 12 HP) against two enemies that attack for 13
    and never get hit (defense 99, speed 9: they strike first)."""
    state = party(composition, overrides=STEADY)
    set_hand(state, 0, [*hand, "fighter_block"])  # one card more, so the fighter keeps planning
    for seat in range(1, state.n_players):
        set_hand(state, seat, [])
    set_deck(state, 0, ["fighter_strike"] * 3)
    fight(state, ["goblin", "wolf"])
    for enemy in range(2):
        set_enemy(state, enemy, attack=13, defense=99, speed=9, hp=9)
    return state


@pytest.mark.parametrize("card", ["fighter_guard", "fighter_cover", "fighter_war_banner", "wizard_mirror_image"])
def test_with_two_enemies_a_defense_card_guard_party_defense_or_negate_counts_against_one_only(card: str) -> None:
    state = _two_attackers([card])
    assert state.incoming_damage(0) == 3 + 3
    play(state, card, hero=0, enemy=1)  # designated to the wolf
    protected = {"fighter_guard": 3 - 2, "fighter_cover": 0, "fighter_war_banner": 1, "wizard_mirror_image": 0}[card]
    assert state.damage_from(0, 0) == 3 and state.damage_from(0, 1) == protected
    finish_planning(state)
    assert state.hp(0) == 12 - 3 - protected  # the goblin's attack is not reduced


def test_with_two_enemies_a_card_buried_for_one_defense_counts_against_one_enemy() -> None:
    state = _two_attackers(["fighter_strike"])
    bury_for(state, "fighter_strike", hero=0, enemy=0)
    assert state.damage_from(0, 0) == 2 and state.damage_from(0, 1) == 3
    finish_planning(state)
    assert state.hp(0) == 12 - 2 - 3


def test_with_two_enemies_every_play_offers_each_living_enemy_and_one_enemy_offers_one_target() -> None:
    state = _two_attackers(["fighter_guard"])
    plays = [state.describe_action(action) for action in state.legal_actions()
             if state.describe_action(action).startswith("play fighter_guard")]
    assert plays == ["play fighter_guard against goblin (enemy 0)", "play fighter_guard against wolf (enemy 1)"]
    set_enemy_hp(state, 0, 0)  # with one enemy left there is nothing to choose
    plays = [state.describe_action(action) for action in state.legal_actions()
             if state.describe_action(action).startswith("play fighter_guard")]
    assert plays == ["play fighter_guard against wolf (enemy 1)"]


def test_with_two_enemies_a_card_aimed_at_no_enemy_is_offered_once_per_hero_against_the_first_living_one() -> None:
    # fighter_second_wind aims at a hero and at no enemy: its answers carry the first living enemy.
    state = _two_attackers(["fighter_second_wind"], composition="fighter,wizard")
    plays = [action for action in state.legal_actions()
             if state.describe_action(action).startswith("play fighter_second_wind")]
    assert [(PLAY_CARD.field(action, 1), PLAY_CARD.field(action, 2)) for action in plays] == [(0, 0), (1, 0)]
    set_enemy_hp(state, 0, 0)
    plays = [action for action in state.legal_actions()
             if state.describe_action(action).startswith("play fighter_second_wind")]
    assert [(PLAY_CARD.field(action, 1), PLAY_CARD.field(action, 2)) for action in plays] == [(0, 1), (1, 1)]


def test_with_two_enemies_a_party_attack_bonus_helps_every_hero_against_the_designated_enemy_only() -> None:
    state = party("bard,fighter", overrides={**STEADY, "heroes.bard.attack": [4, 4, 4, 4]})
    set_hand(state, 0, ["bard_inspire", "bard_strike"])
    set_hand(state, 1, [])
    fight(state, ["goblin", "wolf"])
    play(state, "bard_inspire", enemy=1)
    assert [state.hero_attack(seat, 0) for seat in range(2)] == [4, 4]
    assert [state.hero_attack(seat, 1) for seat in range(2)] == [5, 5]


def test_with_two_enemies_a_speed_bonus_puts_the_heroes_first_against_the_designated_enemy_only() -> None:
    state = party("wizard", overrides={"heroes.wizard.speed": [4, 4, 4, 4]})
    set_hand(state, 0, ["wizard_haste", "wizard_strike"])
    fight(state, ["goblin", "wolf"])
    set_enemy(state, 0, attack=0, defense=99, speed=6, hp=3)
    set_enemy(state, 1, attack=0, defense=99, speed=6, hp=3)
    play(state, "wizard_haste", enemy=1)  # party speed +3 against the wolf: 7 against 6
    assert state.initiative() == [(True, 0, 1), (False, 0, -1), (False, 1, -1), (True, 0, 0)]


def test_with_two_enemies_a_multiplier_doubles_the_attack_cards_against_its_enemy_and_allows_no_second() -> None:
    state = _solo_fighter(["fighter_strike", "fighter_strike", "fighter_double_strike", "fighter_double_strike",
                           "fighter_guard"])
    fight(state, ["goblin", "wolf"])
    play(state, "fighter_strike", enemy=0)
    play(state, "fighter_strike", enemy=1)
    play(state, "fighter_double_strike", enemy=1)
    assert state.hero_attack(0, 0) == 4 + 2 and state.hero_attack(0, 1) == 4 + 2 * 2
    assert not any(state.describe_action(action).startswith("play fighter_double_strike")
                   for action in state.legal_actions())


def test_with_two_enemies_each_hero_attacks_each_at_its_own_speed_against_it() -> None:
    state = party("rogue", overrides={"heroes.rogue.speed": [5, 5, 5, 5], "heroes.rogue.attack": [9, 9, 9, 9]})
    set_hand(state, 0, ["rogue_strike"])
    fight(state, ["goblin", "wolf"])
    set_enemy(state, 0, attack=0, defense=0, speed=6, hp=1)
    set_enemy(state, 1, attack=0, defense=0, speed=4, hp=1)
    assert state.initiative() == [(False, 0, -1), (True, 0, 0), (True, 0, 1), (False, 1, -1)]
    done(state)
    assert not state.in_combat()  # both killed in one round


# Planning: skills "may be used anytime within the combat (even out of turn)".

def _fighter_then_healer(planning: str) -> PartyState:
    state = party("fighter,healer", overrides={**STEADY, "rules.planning": planning})
    set_hand(state, 0, ["fighter_strike"])
    set_hand(state, 1, ["healer_strike", "healer_guard"])
    fight(state, ["goblin"])
    set_enemy(state, 0, attack=0, defense=99, speed=0, hp=9)
    return state


def test_anytime_planning_asks_a_hero_again_after_a_teammate_acts_until_everyone_passes_in_a_row() -> None:
    state = _fighter_then_healer("anytime")
    asked = []
    assert state.current_player == 0
    done(state)  # the fighter is done for now
    asked.append(state.current_player)
    play(state, "healer_strike")  # the healer acts...
    done(state)
    asked.append(state.current_player)  # ...so the fighter may answer
    assert asked == [1, 0] and state.numbers[COMBAT_ROUND] == 1
    done(state)  # the healer's pass and the fighter's: everyone passed in a row, the round runs
    assert state.numbers[COMBAT_ROUND] == 2 and state.current_player == 0


def test_once_planning_asks_each_hero_once_per_round_in_turn() -> None:
    state = _fighter_then_healer("once")
    done(state)
    play(state, "healer_strike")
    done(state)
    assert state.numbers[COMBAT_ROUND] == 2 and state.current_player == 0


def _assert_every_burial_is_offered(state: PartyState) -> None:
    # _plan_actions or-s each burial's hero and enemy into the position's encoded answer:
    # held here against encode over every distinct card, living hero and living enemy.
    hand = state.hand(state.current_player)
    positions = [p for p in range(len(hand)) if hand.index(hand[p]) == p]
    heroes = [hero for hero in range(state.n_players) if state.alive(hero)]
    enemies = state.living_enemies()
    legal = state.legal_actions()
    for action_type in (BURY_FOR_DEFENSE, BURY_FOR_ATTACK):
        expected = [action_type.encode(p, hero, enemy) for p in positions for hero in heroes for enemy in enemies]
        assert [action for action in legal if action_type.matches(action)] == expected


def test_a_planner_may_bury_each_card_for_plus_one_to_every_living_hero_against_every_living_enemy() -> None:
    state = _two_attackers(["fighter_strike", "fighter_guard"], composition="fighter,wizard,healer")
    assert len(state.living_enemies()) == 2 and state.n_players == 3
    _assert_every_burial_is_offered(state)
    questions = 0
    for seed in range(30):
        for position in random_play(PartyState.new_game(DEFAULT, 4, seed, None), 4000 + seed, 3000):
            if position.decisions.asked.kind == PLAN:
                _assert_every_burial_is_offered(position)
                questions += 1
    assert questions > 500


@pytest.mark.parametrize("overrides", [{}, {"rules.nemesis": True}], ids=["plain", "nemesis"])
def test_a_heros_base_stats_read_in_one_walk_are_its_base_attack_defense_and_speed(overrides: dict[str, Any]) -> None:
    # base_stats (the forecast's one walk over a hero's permanents) against the three readings.
    config = configured(overrides)
    compared = with_permanents = 0
    for seed in range(20):
        state = PartyState.new_game(config, 4, seed, None)
        for hero in range(2):  # permanents for two heroes (rogue armor: defense and speed)
            set_zone(state, hero, WEAPON_SLOT, ["fighter_longsword"])
            set_zone(state, hero, ARMOR_SLOT, ["rogue_leather_armor"])
        for position in random_play(state, 7000 + seed, 3000):
            for hero in range(4):
                expected = (position.base_attack(hero), position.base_defense(hero), position.base_speed(hero))
                assert position.base_stats(hero) == expected
                compared += 1
                with_permanents += position.weapon(hero) >= 0 or position.armor(hero) >= 0
    assert compared > 4_000 and with_permanents > 300, (compared, with_permanents)
