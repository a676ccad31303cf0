"""Attack Action cards and their counters (Sanctum map, see test_turn.py for its layout)."""

from __future__ import annotations

import pytest

from simcore.games.ring_of_chaos.rules import (
    ACTIVE,
    DEAD,
    DISCARD_PILE,
    END_TURN,
    FULL,
    K_ATTACKER_HERO,
    K_COUNTER,
    K_MAIN,
    K_OWN_HERO_HIT,
    K_SAVAGE_MORE,
    K_TARGET,
    PASS,
    PLAY,
    RING_HOLDER,
    WOUNDED,
    RingState,
)

from .helpers import act, build, card, hand_names, hero, play, position_of

NEUTRAL = "nameless_band"


def _attack(state: RingState, name: str, target: int, victim_hero: str) -> None:
    play(state, name)
    act(state, target)
    act(state, hero(victim_hero))


def _playable(state: RingState, name: str) -> bool:
    return PLAY.encode(position_of(state, state.current_player, name)) in state.legal_actions()


def test_melee_attacks_reach_only_adjacent_parties_and_ranged_attacks_only_the_others() -> None:
    state = build([NEUTRAL, NEUTRAL, NEUTRAL], [1, 2, 15], [["sword", "bow"], [], []])
    play(state, "sword")
    assert state.decisions.asked.kind == K_TARGET and list(state.legal_actions()) == [1]
    state = build([NEUTRAL, NEUTRAL, NEUTRAL], [1, 2, 15], [["sword", "bow"], [], []])
    play(state, "bow")
    assert list(state.legal_actions()) == [2]


def test_an_attack_card_without_a_target_in_range_cannot_be_played() -> None:
    state = build([NEUTRAL, NEUTRAL], [13, 16], [["sword", "bow"], []])
    assert not _playable(state, "sword") and _playable(state, "bow")
    state = build([NEUTRAL, NEUTRAL], [1, 2], [["sword", "bow"], []])
    assert _playable(state, "sword") and not _playable(state, "bow")


def test_the_attacker_chooses_the_hero_and_each_hit_lowers_it_one_level() -> None:
    state = build([NEUTRAL, NEUTRAL], [1, 2], [["sword", "mace"], []], heroes=[(2, 2, 2, 2), (2, 2, 1, 2)])
    play(state, "sword")
    act(state, 1)
    assert state.decisions.asked.kind == K_ATTACKER_HERO and state.current_player == 0
    assert sorted(state.legal_actions()) == [0, 1, 2, 3]
    act(state, hero("wizard"))
    assert state.statuses(1) == [FULL, FULL, WOUNDED, WOUNDED]


def test_a_hit_on_a_wounded_hero_kills_it() -> None:
    state = build([NEUTRAL, NEUTRAL], [1, 2], [["sword"], []], heroes=[(2, 2, 2, 2), (2, 2, 1, 2)])
    _attack(state, "sword", 1, "rogue")
    assert state.status(1, hero("rogue")) == DEAD


def test_parry_counters_a_melee_attack_and_dodge_does_not() -> None:
    state = build([NEUTRAL, NEUTRAL], [1, 2], [["sword"], ["dodge", "parry"]])
    _attack(state, "sword", 1, "cleric")
    assert state.decisions.asked.kind == K_COUNTER and state.current_player == 1
    assert sorted(state.legal_actions()) == [position_of(state, 1, "parry"), PASS]
    act(state, position_of(state, 1, "parry"))
    assert state.statuses(1) == [FULL] * 4 and hand_names(state, 1) == {"dodge": 1}
    assert state.stats.get(0, 3, card("sword")) == 1 and state.stats.get(1, 4, card("parry")) == 1


def test_dodge_counters_a_ranged_attack_and_parry_does_not() -> None:
    state = build([NEUTRAL, NEUTRAL], [1, 15], [["bow"], ["dodge", "parry"]])
    _attack(state, "bow", 1, "cleric")
    assert sorted(state.legal_actions()) == [position_of(state, 1, "dodge"), PASS]
    act(state, PASS)
    assert state.status(1, hero("cleric")) == WOUNDED


def test_dagger_of_biting_and_sword_of_slaying_cannot_be_parried() -> None:
    for name in ("dagger_of_biting", "sword_of_slaying"):
        state = build([NEUTRAL, NEUTRAL], [1, 2], [[name], ["parry"]])
        _attack(state, name, 1, "cleric")
        assert state.decisions.asked.kind == K_MAIN and state.status(1, hero("cleric")) == WOUNDED
        assert hand_names(state, 1) == {"parry": 1}


def test_lightning_storm_and_holy_vengeance_cannot_be_dodged() -> None:
    for name in ("lightning_storm", "holy_vengeance"):
        state = build([NEUTRAL, NEUTRAL], [1, 15], [[name], ["dodge"]])
        _attack(state, name, 1, "rogue")
        assert state.decisions.asked.kind == K_MAIN and state.status(1, hero("rogue")) == WOUNDED


def test_hasty_retreat_avoids_any_attack_even_one_that_cannot_be_parried_and_moves_the_party() -> None:
    state = build([NEUTRAL, NEUTRAL], [1, 2], [["sword_of_slaying"], ["hasty_retreat"]])
    _attack(state, "sword_of_slaying", 1, "cleric")
    assert state.decisions.asked.kind == K_COUNTER
    act(state, position_of(state, 1, "hasty_retreat"))
    act(state, 14)  # three spaces away: 2 - 8 - 14
    assert state.statuses(1) == [FULL] * 4 and state.position(1) == 14


def test_hasty_retreat_must_move_at_least_one_space_and_at_most_three() -> None:
    state = build([NEUTRAL, NEUTRAL], [1, 2], [["sword"], ["hasty_retreat"]])
    _attack(state, "sword", 1, "cleric")
    act(state, position_of(state, 1, "hasty_retreat"))
    assert 2 not in state.legal_actions()  # at least one space
    assert 14 in state.legal_actions() and 16 not in state.legal_actions()  # 16 is four steps away


def test_fireball_also_attacks_every_party_adjacent_to_its_target_even_one_adjacent_to_the_caster() -> None:
    # seat 1 on 13 is the target; seat 2 on 7 touches 13 and the caster's 1; seat 3 on 14 touches 13; seat 4 does not.
    state = build([NEUTRAL] * 5, [1, 13, 7, 14, 16], [["fireball"], [], [], [], []])
    _attack(state, "fireball", 1, "cleric")
    assert state.decisions.asked.kind == K_ATTACKER_HERO and state.decisions.asked.a == 2
    act(state, hero("rogue"))
    assert state.decisions.asked.kind == K_ATTACKER_HERO and state.decisions.asked.a == 3
    act(state, hero("wizard"))
    assert state.decisions.asked.kind == K_MAIN
    assert state.status(1, hero("cleric")) == WOUNDED
    assert state.status(2, hero("rogue")) == WOUNDED
    assert state.status(3, hero("wizard")) == WOUNDED
    assert state.statuses(4) == [FULL] * 4


def test_each_fireball_attack_can_be_dodged_on_its_own() -> None:
    state = build([NEUTRAL] * 3, [1, 13, 14], [["fireball"], ["dodge"], ["dodge"]])
    _attack(state, "fireball", 1, "cleric")
    act(state, position_of(state, 1, "dodge"))
    act(state, hero("fighter"))
    assert state.current_player == 2 and state.decisions.asked.kind == K_COUNTER
    act(state, PASS)
    assert state.statuses(1) == [FULL] * 4 and state.status(2, hero("fighter")) == WOUNDED


def test_imprison_takes_away_the_targets_actions_on_its_next_turn_and_cannot_be_countered() -> None:
    state = build([NEUTRAL, NEUTRAL], [1, 2], [["imprison"], ["dodge", "parry", "hasty_retreat"]],
                  ring_holder=1, points=[0, 2], draw_top=["sneak", "teleport", "mace", "bow", "staff", "sword"])
    play(state, "imprison")
    assert sorted(state.legal_actions()) == [1]
    act(state, 1)
    assert state.imprisoned(1) == [card("imprison")] and state.decisions.asked.kind == K_MAIN
    act(state, END_TURN)
    # Seat 1's turn: it scores for the Ring, draws three cards, takes no Action, discards down to five.
    assert state.points(1) == 5 and state.current_player == 1
    assert len(state.hand(1)) == 6 and state.decisions.asked.kind != K_MAIN
    act(state, position_of(state, 1, "mace"))
    assert state.imprisoned(1) == [] and card("imprison") in state.zones[DISCARD_PILE].cards
    assert state.numbers[ACTIVE] == 0 and state.decisions.asked.kind == K_MAIN


def test_imprison_is_an_any_attack_it_targets_adjacent_and_distant_parties() -> None:
    state = build([NEUTRAL] * 3, [1, 2, 15], [["imprison"], [], []])
    play(state, "imprison")
    assert sorted(state.legal_actions()) == [1, 2]


def test_pit_trap_hits_every_other_party_whose_rogue_is_dead_and_the_defender_picks_the_hero() -> None:
    state = build([NEUTRAL] * 3, [1, 2, 15], [["pit_trap"], ["dodge"], ["dodge", "parry"]],
                  heroes=[(2, 2, 2, 2), (2, 2, 1, 2), (2, 2, 0, 2)])
    play(state, "pit_trap")
    # Seat 1's Rogue is alive (Wounded): the Pit Trap fails there. Seat 2 chooses, with no counter.
    assert state.decisions.asked.kind == K_OWN_HERO_HIT and state.current_player == 2
    act(state, hero("cleric"))
    assert state.statuses(2) == [WOUNDED, FULL, DEAD, FULL] and state.statuses(1) == [FULL, FULL, WOUNDED, FULL]
    assert state.statuses(0) == [FULL] * 4  # never the player's own party
    assert state.decisions.asked.kind == K_MAIN and hand_names(state, 2) == {"dodge": 1, "parry": 1}


def test_savage_attack_adds_further_melee_attacks_each_parry_countering_one() -> None:
    state = build([NEUTRAL] * 3, [1, 2, 6], [["savage_attack", "sword", "dagger", "bow"], ["parry"], []])
    _attack(state, "savage_attack", 1, "cleric")
    act(state, position_of(state, 1, "parry"))
    assert state.decisions.asked.kind == K_SAVAGE_MORE and state.current_player == 0
    legal = state.legal_actions()
    assert sorted(legal) == sorted([position_of(state, 0, "sword"), position_of(state, 0, "dagger"), PASS])
    act(state, position_of(state, 0, "sword"))
    act(state, 2)  # another Adjacent party
    act(state, hero("fighter"))
    act(state, position_of(state, 0, "dagger"))
    act(state, 1)
    act(state, hero("cleric"))  # no Parry left
    assert state.status(1, hero("cleric")) == WOUNDED and state.status(2, hero("fighter")) == WOUNDED
    assert state.decisions.asked.kind == K_MAIN and hand_names(state, 0) == {"bow": 1}
    assert state.stats.get(0, 2, card("sword")) == 1 and state.stats.get(0, 2, card("dagger")) == 1


def test_class_cards_can_be_played_only_while_that_class_hero_is_alive() -> None:
    state = build([NEUTRAL, NEUTRAL], [1, 2], [["sword", "dagger"], []], heroes=[(2, 0, 1, 2), (2, 2, 2, 2)])
    assert not _playable(state, "sword")  # Fighter Dead
    assert _playable(state, "dagger")  # Rogue Wounded is alive


def test_a_counter_card_of_a_dead_class_cannot_be_played() -> None:
    state = build([NEUTRAL, NEUTRAL], [1, 2], [["dominance"], ["heroic_sacrifice"]], ring_holder=1,
                  heroes=[(2, 2, 2, 2), (2, 0, 2, 2)])
    play(state, "dominance")
    assert state.numbers[RING_HOLDER] == 0  # no Heroic Sacrifice offered with the Fighter Dead


@pytest.mark.parametrize(("name", "needed"), [("dagger", "rogue"), ("mace", "cleric"), ("staff", "wizard"),
                                              ("sword", "fighter")])
def test_each_basic_melee_card_lowers_an_adjacent_hero_one_level_is_parried_and_needs_its_class(
    name: str, needed: str,
) -> None:
    state = build([NEUTRAL, NEUTRAL], [1, 2], [[name], ["parry"]])
    _attack(state, name, 1, "rogue")
    assert position_of(state, 1, "parry") in state.legal_actions()
    act(state, PASS)
    assert state.statuses(1) == [FULL, FULL, WOUNDED, FULL]
    dead = [2, 2, 2, 2]
    dead[hero(needed)] = DEAD
    assert not _playable(build([NEUTRAL, NEUTRAL], [1, 2], [[name], []], heroes=[dead, (2, 2, 2, 2)]), name)


@pytest.mark.parametrize(("name", "needed"), [("bow", "rogue"), ("holy_strike", "cleric"),
                                              ("lightning_bolt", "wizard"), ("throwing_axe", "fighter")])
def test_each_basic_ranged_card_lowers_a_distant_hero_one_level_is_dodged_and_needs_its_class(
    name: str, needed: str,
) -> None:
    state = build([NEUTRAL, NEUTRAL], [1, 15], [[name], ["dodge"]])
    _attack(state, name, 1, "wizard")
    assert position_of(state, 1, "dodge") in state.legal_actions()
    act(state, PASS)
    assert state.statuses(1) == [FULL, FULL, FULL, WOUNDED]
    dead = [2, 2, 2, 2]
    dead[hero(needed)] = DEAD
    assert not _playable(build([NEUTRAL, NEUTRAL], [1, 15], [[name], []], heroes=[dead, (2, 2, 2, 2)]), name)
