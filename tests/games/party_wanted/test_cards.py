"""Hero cards: burying, Add, Remove, Sacrifice, one armor and one weapon per
hero, death and resurrection."""

from __future__ import annotations

from collections import Counter

from simcore.games.party_wanted.config import ARMOR, MINION, WEAPON
from simcore.games.party_wanted.rules import (
    ADD,
    ADD_SKILL_CARD,
    BUILD_POOL,
    COMBAT_ROUND,
    EQUIP,
    HERO_DECK,
    ITEMS_HELD,
    MINIONS,
    NEGATED,
    REMOVE,
    TREASURE_DECK,
    PartyState,
)
from simcore.kit.decisions import Task

from .helpers import (
    answer,
    cid,
    deck,
    done,
    fight,
    finish_planning,
    hero_cards,
    legal_values,
    named,
    party,
    phase,
    play,
    reask,
    sacrifice,
    set_deck,
    set_enemy,
    set_enemy_hp,
    set_hand,
    set_zone,
    start,
    zone,
)


def test_a_buried_card_goes_face_up_under_the_hero_deck_and_the_deck_is_reshuffled_when_it_surfaces() -> None:
    state = party("fighter")
    set_deck(state, 0, ["fighter_guard"])
    deck(state, 0).bury_face_up(cid("fighter_strike"))
    deck(state, 0).bury_face_up(cid("fighter_block"))
    assert named(deck(state, 0).cards) == ["fighter_block", "fighter_strike", "fighter_guard"]
    assert state._draw_cards(0, 1) == 1 and named(state.hand(0)[-1:]) == ["fighter_guard"]
    assert deck(state, 0).face_up == 2  # only face-up cards are left
    state._draw_cards(0, 1)
    assert deck(state, 0).face_up == 0 and len(deck(state, 0).cards) == 1  # reshuffled face down, then drawn
    assert Counter(named(state.hand(0)[-1:] + deck(state, 0).cards)) == Counter(["fighter_strike", "fighter_block"])


def test_an_empty_hero_deck_draws_nothing() -> None:
    state = party("fighter")
    set_zone(state, 0, HERO_DECK, [])
    before = list(state.hand(0))
    assert state._draw_cards(0, 2) == 0 and state.hand(0) == before


def test_add_takes_a_class_or_utility_card_from_the_build_pool_to_the_bury_pile() -> None:
    state = party("fighter")
    start(state, Task(ADD, 0, ADD_SKILL_CARD))
    assert phase(state) == ADD
    kinds = {state.config.kinds[card] for card in legal_values(state)}
    assert kinds <= {2, 3}  # class and utility only
    card = cid("fighter_war_banner")
    answer(state, card)
    assert card not in zone(state, 0, BUILD_POOL) and deck(state, 0).cards[0] == card and deck(state, 0).face_up == 1


def test_remove_sends_a_hand_card_back_to_the_build_pool_and_draws_a_replacement() -> None:
    state = party("fighter")
    set_hand(state, 0, ["fighter_strike", "fighter_guard"])
    set_deck(state, 0, ["fighter_block"])
    start(state, Task(REMOVE, 0))
    assert phase(state) == REMOVE
    answer(state, 0)
    assert named(state.hand(0)) == ["fighter_guard", "fighter_block"]
    assert cid("fighter_strike") in zone(state, 0, BUILD_POOL)


def test_only_one_weapon_and_one_armor_per_hero_and_a_hero_who_has_both_chooses_who_adds_the_extra_one() -> None:
    state = party("fighter,wizard,healer")
    start(state, Task(EQUIP, 0, WEAPON))  # the fighter can: it adds its own, nobody is asked
    start(state, Task(EQUIP, 0, ARMOR))
    assert state.config.kinds[state.weapon(0)] == WEAPON and state.config.kinds[state.armor(0)] == ARMOR
    assert state.weapon(1) == state.weapon(2) == -1
    start(state, Task(EQUIP, 0, WEAPON))  # the fighter has one: it chooses another hero
    assert phase(state) == EQUIP and state.current_player == 0
    assert legal_values(state) == [1, 2]
    assert [state.describe_action(action) for action in state.legal_actions()] == [
        "seat 1 (wizard) adds a weapon", "seat 2 (healer) adds a weapon"]
    answer(state, 2)  # the healer, not the next hero clockwise
    assert state.weapon(1) == -1 and state.config.names[state.weapon(2)] == "healer_mace"


def test_with_one_other_hero_able_to_add_the_weapon_it_is_the_only_answer() -> None:
    state = party("fighter,wizard,healer")
    for hero in (0, 1):
        state._equip(hero, WEAPON)
    start(state, Task(EQUIP, 0, WEAPON))
    assert phase(state) == EQUIP and legal_values(state) == [2]  # forced: play_game applies it unasked
    answer(state, 2)
    assert state.config.names[state.weapon(2)] == "healer_mace"


def test_when_no_hero_can_add_the_weapon_nobody_does_good_job_geared_up() -> None:
    state = party("fighter,wizard")
    for hero in (0, 1):
        state._equip(hero, WEAPON)
    start(state, Task(EQUIP, 0, WEAPON))
    assert phase(state) != EQUIP
    assert named(zone(state, 0, BUILD_POOL)).count("fighter_longsword") == 1


def test_a_weapon_raises_the_base_attack_and_sacrificing_it_returns_it_to_the_build_pool() -> None:
    state = party("fighter")
    base = state.base_attack(0)
    state._equip(0, WEAPON)
    reask(state)
    weapon = state.weapon(0)
    assert state.base_attack(0) == base + 1
    set_hand(state, 0, ["fighter_strike"])
    fight(state, ["goblin"])
    set_enemy(state, 0, attack=0, defense=99, speed=0, hp=5)
    before = state.hero_attack(0, 0)
    sacrifice(state, 0)  # longsword: +4 attack this round
    assert state.weapon(0) == -1 and weapon in zone(state, 0, BUILD_POOL)
    assert state.hero_attack(0, 0) == before - 1 + 4


def test_a_dead_hero_loses_armor_weapon_and_items_and_shuffles_the_hand_into_the_hero_deck() -> None:
    state = party("fighter,wizard")
    state._equip(0, WEAPON)
    reask(state)
    state._equip(0, ARMOR)
    reask(state)
    set_zone(state, 0, ITEMS_HELD, ["ring_of_power", "bomb"])
    owned = hero_cards(state, 0)
    set_hand(state, 1, ["wizard_strike"])
    fight(state, ["goblin"])
    set_enemy(state, 0, attack=99, defense=99, speed=9, hp=5)
    state.seat_numbers[state.round_index(1, NEGATED, 0)] = 1  # only the fighter is hit
    done(state)
    while state.current_player == 1 and state.in_combat() and state.numbers[COMBAT_ROUND] == 1:
        done(state)
    assert not state.alive(0) and state.hp(0) == 0
    assert state.weapon(0) == state.armor(0) == -1 and zone(state, 0, ITEMS_HELD) == [] and state.hand(0) == []
    assert hero_cards(state, 0) == owned  # nothing lost from the hero's cards: back to pool or deck
    assert cid("ring_of_power") in state.zones[TREASURE_DECK].cards and cid("bomb") in state.zones[TREASURE_DECK].cards


def test_resurrection_shuffles_the_hero_deck_and_draws_four() -> None:
    state = party("healer,fighter")
    set_hand(state, 0, ["healer_resurrect", "healer_strike"])
    fight(state, ["goblin"])
    set_enemy(state, 0, attack=0, defense=99, speed=0, hp=5)
    state._kill_hero(1)
    reask(state)
    assert state.hand(1) == []
    play(state, "healer_resurrect", hero=1)
    assert state.alive(1) and state.hp(1) == 5 and len(state.hand(1)) == 4


# Necromancer minions: permanents once played; "Sacrificing weapon, minions
# or armor sends it back to that hero's build pool".

def _necromancer_with(hand: list[str]) -> PartyState:
    state = party("necromancer,fighter")
    set_hand(state, 0, hand)
    set_hand(state, 1, [])
    set_deck(state, 0, ["necromancer_guard"] * 4)
    return state


def test_a_minion_played_stays_in_play_and_adds_to_the_base_stat_round_after_round_and_fight_after_fight() -> None:
    state = _necromancer_with(["necromancer_skeleton_minion", "necromancer_strike"])
    base = state.base_attack(0)
    fight(state, ["goblin"])
    set_enemy(state, 0, attack=0, defense=99, speed=0, hp=5)
    play(state, "necromancer_skeleton_minion")
    assert named(zone(state, 0, MINIONS)) == ["necromancer_skeleton_minion"] and state.base_attack(0) == base + 1
    finish_planning(state)
    assert state.numbers[COMBAT_ROUND] == 2 and state.base_attack(0) == base + 1  # not buried at the end of the round
    set_enemy_hp(state, 0, 0)
    state._finish_round()
    assert not state.in_combat() and named(zone(state, 0, MINIONS)) == ["necromancer_skeleton_minion"]
    fight(state, ["wolf"])
    assert state.hero_attack(0, 0) == base + 1


def test_sacrificing_a_minion_gives_its_sacrifice_effect_and_sends_it_back_to_the_build_pool() -> None:
    state = _necromancer_with(["necromancer_skeleton_minion", "necromancer_strike", "necromancer_guard"])
    fight(state, ["goblin"])
    set_enemy(state, 0, attack=0, defense=99, speed=0, hp=5)
    play(state, "necromancer_skeleton_minion")
    before = state.hero_attack(0, 0)
    minion = cid("necromancer_skeleton_minion")
    sacrifice(state, 2)  # the first minion in play: attack +3 this round
    assert zone(state, 0, MINIONS) == [] and minion in zone(state, 0, BUILD_POOL) and minion not in deck(state, 0).cards
    assert state.hero_attack(0, 0) == before - 1 + 3
    assert state.stats.get(0, 2, minion) == 2  # played, then sacrificed: two plays by the hero's choice


def test_a_dead_necromancer_loses_its_minions_to_the_build_pool() -> None:
    state = _necromancer_with(["necromancer_zombie_minion"])
    set_zone(state, 0, MINIONS, ["necromancer_zombie_minion"])
    set_hand(state, 0, [])
    owned = hero_cards(state, 0)
    state._kill_hero(0)
    reask(state)
    assert zone(state, 0, MINIONS) == [] and cid("necromancer_zombie_minion") in zone(state, 0, BUILD_POOL)
    assert hero_cards(state, 0) == owned


def test_at_level_up_the_minions_in_play_are_shuffled_back_into_the_hero_deck() -> None:
    state = _necromancer_with([])
    set_zone(state, 0, MINIONS, ["necromancer_zombie_minion"])
    state._next_level(advance=True, heal=True)
    assert zone(state, 0, MINIONS) == []
    assert cid("necromancer_zombie_minion") in deck(state, 0).cards + state.hand(0)


def test_minions_are_class_cards_a_necromancer_may_add() -> None:
    state = party("necromancer")
    start(state, Task(ADD, 0, ADD_SKILL_CARD))
    assert phase(state) == ADD and cid("necromancer_wraith_minion") in legal_values(state)
    assert state.config.kinds[cid("necromancer_wraith_minion")] == MINION
