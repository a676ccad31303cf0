"""Readings of the rulebook that go two ways: each is a ``rules.*`` switch whose default is the most
literal reading (RULES.md, "Readings"). Each test sets the situation up under the default and under
the other reading. Sanctum map (layout in test_turn.py).
"""

from __future__ import annotations

from typing import Any

import pytest

from cardlab.cli import main
from simcore.games.ring_of_chaos import GAME
from simcore.games.ring_of_chaos.config import READING_SWITCHES
from simcore.games.ring_of_chaos.rules import (
    ACTIVE,
    DISCARD_PILE,
    END_TURN,
    FULL,
    K_ATTACKER_HERO,
    K_COUNTER,
    K_DISCARD_EXCESS,
    K_GUARDIAN_DEFEND,
    K_MAIN,
    K_OWN_HERO_HIT,
    K_PUSH,
    K_SACRIFICE,
    K_SAVAGE_MORE,
    K_SPLASH,
    K_TARGET,
    MOVE,
    PASS,
    PLAY,
    PLAY_AS_RANGED,
    RING_HOLDER,
    STEAL_RING,
    WOUNDED,
)

from .helpers import act, all_positions, build, card, configured, hero, play, position_of

NEUTRAL = "nameless_band"
GUARDIAN_FIRST = ["temple_guardian", "mace", "mace", "mace"]  # seat 0's draws: a Guardian, then its replacement


def test_every_reading_is_a_boolean_rules_parameter_listed_by_cardlab_games(capsys: pytest.CaptureFixture[str]) -> None:
    rules = GAME.default_parameters()["rules"]
    assert all(isinstance(rules[name], bool) for name in READING_SWITCHES)
    assert main(["games", "ring_of_chaos"]) == 0
    listed = capsys.readouterr().out
    for name in READING_SWITCHES:
        assert f"rules.{name} = {rules[name]}" in listed


# --------------------------------------------------- countering a Temple Guardian


def test_a_temple_guardian_can_be_countered_with_chaos_magic_or_heroic_sacrifice_which_are_counter_cards_too() -> None:
    state = build([NEUTRAL, NEUTRAL], [13, 16], [[], ["chaos_magic"]], points=[3, 0], draw_top=GUARDIAN_FIRST,
                  start_turn=True)
    act(state, hero("cleric"))
    act(state, hero("wizard"))
    assert state.decisions.asked.kind == K_COUNTER and position_of(state, 1, "chaos_magic") in state.legal_actions()
    act(state, position_of(state, 1, "chaos_magic"))
    assert state.statuses(1) == [FULL] * 4 and state.scores() == [3, 0]  # a counter, not its Bonus Action theft
    assert state.stats.get(1, 4, card("chaos_magic")) == 1
    # Heroic Sacrifice avoids the attack, and its other effect takes place: one of its Heroes loses a level.
    state = build([NEUTRAL, NEUTRAL], [13, 16], [[], ["heroic_sacrifice"]], draw_top=GUARDIAN_FIRST,
                  start_turn=True)
    act(state, hero("cleric"))
    act(state, hero("wizard"))
    act(state, position_of(state, 1, "heroic_sacrifice"))
    assert state.decisions.asked.kind == K_OWN_HERO_HIT and state.current_player == 1
    act(state, hero("rogue"))
    assert state.statuses(1) == [FULL, FULL, WOUNDED, FULL]


def test_with_the_other_reading_chaos_magic_and_heroic_sacrifice_do_not_counter_a_guardian() -> None:
    config = configured({"rules.guardian_every_counter_card": False})
    for name in ("chaos_magic", "heroic_sacrifice"):
        state = build([NEUTRAL, NEUTRAL], [13, 16], [[], [name]], draw_top=GUARDIAN_FIRST, start_turn=True,
                      config=config)
        act(state, hero("cleric"))
        act(state, hero("wizard"))  # the only answer to the counter question is PASS
        assert state.status(1, hero("wizard")) == WOUNDED and state.hand(1) == [card(name)]


def test_imprison_played_against_a_guardian_also_imprisons_a_player_even_the_drawer_for_its_next_turn() -> None:
    draws = GUARDIAN_FIRST + ["bow"] * 3 + ["staff"] * 3 + ["dagger"] * 3
    state = build([NEUTRAL] * 3, [13, 15, 17], [[], ["imprison"], []], draw_top=draws, start_turn=True)
    act(state, hero("cleric"))
    act(state, hero("wizard"))
    act(state, position_of(state, 1, "imprison"))
    assert state.decisions.asked.kind == K_TARGET and state.current_player == 1
    assert sorted(state.legal_actions()) == [0, 2]
    act(state, 0)  # the drawer, in the middle of its turn
    assert state.imprisoned(0) == [card("imprison")] and state.statuses(1) == [FULL] * 4
    act(state, hero("fighter"))  # the Guardian goes on to seat 2
    assert state.decisions.asked.kind == K_MAIN and state.current_player == 0  # this turn's Actions are not lost
    act(state, END_TURN)
    assert state.imprisoned(0) == [card("imprison")]  # it waits for seat 0's next turn
    act(state, END_TURN)
    act(state, END_TURN)
    assert state.numbers[ACTIVE] == 0
    assert state.decisions.asked.kind == K_DISCARD_EXCESS  # no Actions: straight to the hand limit
    act(state, state.legal_actions()[0])
    assert state.imprisoned(0) == []
    assert card("imprison") in state.zones[DISCARD_PILE].cards and state.numbers[ACTIVE] == 1


def test_savage_attack_played_against_a_guardian_may_add_further_melee_attacks_on_adjacent_parties() -> None:
    state = build([NEUTRAL] * 3, [13, 1, 2], [[], ["savage_attack", "sword"], []], draw_top=GUARDIAN_FIRST,
                  start_turn=True)
    act(state, hero("cleric"))
    act(state, hero("wizard"))
    act(state, position_of(state, 1, "savage_attack"))
    assert state.decisions.asked.kind == K_SAVAGE_MORE and state.current_player == 1
    act(state, position_of(state, 1, "sword"))
    assert list(state.legal_actions()) == [2]  # the party Adjacent to seat 1
    act(state, 2)
    act(state, hero("fighter"))
    assert state.status(2, hero("fighter")) == WOUNDED
    assert state.statuses(1) == [FULL] * 4
    assert state.decisions.asked.kind == K_GUARDIAN_DEFEND
    assert state.current_player == 2  # then the Guardian reaches seat 2


def test_with_the_other_reading_imprison_and_savage_attack_are_spent_on_the_guardian() -> None:
    config = configured({"rules.guardian_counter_full_effects": False})
    state = build([NEUTRAL] * 3, [13, 1, 2], [[], ["imprison", "savage_attack", "sword"], []],
                  draw_top=GUARDIAN_FIRST, start_turn=True, config=config)
    act(state, hero("cleric"))
    act(state, hero("wizard"))
    act(state, position_of(state, 1, "imprison"))
    assert state.decisions.asked.kind == K_GUARDIAN_DEFEND and state.current_player == 2
    assert not any(state.imprisoned(seat) for seat in range(3)) and card("imprison") in state.zones[DISCARD_PILE].cards
    state = build([NEUTRAL] * 3, [13, 1, 2], [[], ["savage_attack", "sword"], []], draw_top=GUARDIAN_FIRST,
                  start_turn=True, config=config)
    act(state, hero("cleric"))
    act(state, hero("wizard"))
    act(state, position_of(state, 1, "savage_attack"))
    assert state.decisions.asked.kind == K_GUARDIAN_DEFEND and state.current_player == 2


# ---------------------------------------------------------------- the other readings


def test_death_from_above_plays_a_card_as_a_ranged_attack_only_while_its_class_lives_unless_any_class_may() -> None:
    hands = [["sword_of_slaying", "staff"], []]
    state = build(["death_from_above", NEUTRAL], [1, 15], hands, heroes=[(2, 0, 2, 2), (2, 2, 2, 2)])
    slaying, staff = position_of(state, 0, "sword_of_slaying"), position_of(state, 0, "staff")
    assert PLAY_AS_RANGED.encode(slaying) not in state.legal_actions()  # the Fighter is Dead
    assert PLAY_AS_RANGED.encode(staff) in state.legal_actions()
    config = configured({"rules.death_from_above_dead_classes": True})
    state = build(["death_from_above", NEUTRAL], [1, 15], hands, heroes=[(2, 0, 2, 2), (2, 2, 2, 2)], config=config)
    assert PLAY_AS_RANGED.encode(slaying) in state.legal_actions()


def test_only_the_party_losing_the_ring_plays_heroic_sacrifice_unless_any_player_may() -> None:
    hands = [[], [], ["heroic_sacrifice"]]
    state = build([NEUTRAL] * 3, [1, 2, 15], hands, ring_holder=1, points=[2, 5, 0])
    act(state, STEAL_RING)  # seat 1, holding no Heroic Sacrifice, passes; seat 2 is not asked
    assert state.numbers[RING_HOLDER] == 0 and state.scores() == [3, 5, 0]
    assert state.hand(2) == [card("heroic_sacrifice")]
    config = configured({"rules.heroic_sacrifice_any_player": True})
    state = build([NEUTRAL] * 3, [1, 2, 15], hands, ring_holder=1, points=[2, 5, 0], config=config)
    act(state, STEAL_RING)
    assert state.decisions.asked.kind == K_SACRIFICE and state.current_player == 2
    act(state, position_of(state, 2, "heroic_sacrifice"))
    act(state, hero("cleric"))  # seat 2 pays with one of its own Heroes
    assert state.numbers[RING_HOLDER] == 1 and state.scores() == [2, 5, 0]
    assert state.status(2, hero("cleric")) == WOUNDED and state.statuses(1) == [FULL] * 4


def test_hasty_retreat_may_end_on_an_occupied_space_pushing_that_party_aside_as_a_move_does() -> None:
    state = build([NEUTRAL] * 3, [1, 2, 8], [["sword"], ["hasty_retreat"], []])
    play(state, "sword")
    act(state, 1)
    act(state, hero("cleric"))
    act(state, position_of(state, 1, "hasty_retreat"))
    assert 8 in state.legal_actions()
    assert 1 in state.legal_actions()  # occupied spaces whose party can move aside
    act(state, 8)
    assert state.decisions.asked.kind == K_PUSH and sorted(state.legal_actions()) == [2, 14]  # 2: seat 1's space
    act(state, 14)
    assert all_positions(state) == [1, 8, 14] and state.statuses(1) == [FULL] * 4
    config = configured({"rules.retreat_may_push": False})
    state = build([NEUTRAL] * 3, [1, 2, 8], [["sword"], ["hasty_retreat"], []], config=config)
    play(state, "sword")
    act(state, 1)
    act(state, hero("cleric"))
    act(state, position_of(state, 1, "hasty_retreat"))
    assert 8 not in state.legal_actions() and 1 not in state.legal_actions() and 14 in state.legal_actions()


def test_chaos_magic_by_a_party_at_ten_points_takes_nothing_unless_the_victim_still_loses_its_point() -> None:
    state = build([NEUTRAL, NEUTRAL], [13, 16], [["chaos_magic"], []], points=[10, 4])
    play(state, "chaos_magic")
    act(state, 1)
    assert state.scores() == [10, 4] and not state.is_terminal()
    config = configured({"rules.chaos_magic_at_ten_costs_victim": True})
    state = build([NEUTRAL, NEUTRAL], [13, 16], [["chaos_magic"], []], points=[10, 4], config=config)
    play(state, "chaos_magic")
    act(state, 1)
    assert state.scores() == [10, 3] and not state.is_terminal()


def test_the_point_a_victim_loses_to_chaos_magic_by_a_party_at_ten_points_is_traced() -> None:
    events: list[dict[str, Any]] = []
    config = configured({"rules.chaos_magic_at_ten_costs_victim": True})
    state = build([NEUTRAL, NEUTRAL], [13, 16], [["chaos_magic"], []], points=[10, 4], config=config, events=events)
    play(state, "chaos_magic")
    act(state, 1)
    points = [event for event in events if event["type"] == "points"]
    assert [(event["seat"], event["points"], event["caster"]) for event in points] == [(1, 3, 0)]
    assert points[0]["text"] == ("seat 1 loses a Summoning Point to seat 0's Chaos Magic, "
                                 "which gains none at 10: 3 Summoning Points")


def test_the_fireball_attacks_every_party_adjacent_to_its_target_unless_its_caster_may_choose() -> None:
    hands = [["fireball"], [], [], []]
    state = build([NEUTRAL] * 4, [1, 13, 14, 18], hands)
    play(state, "fireball")
    act(state, 1)
    act(state, hero("cleric"))
    assert state.decisions.asked.kind == K_ATTACKER_HERO and state.decisions.asked.a == 2  # no question whether to
    config = configured({"rules.fireball_splash_optional": True})
    state = build([NEUTRAL] * 4, [1, 13, 14, 18], hands, config=config)
    play(state, "fireball")
    act(state, 1)
    act(state, hero("cleric"))
    assert state.decisions.asked.kind == K_SPLASH and sorted(state.legal_actions()) == [2, PASS]
    act(state, PASS)  # spare seat 2
    assert state.decisions.asked.kind == K_SPLASH and sorted(state.legal_actions()) == [3, PASS]
    act(state, 3)
    act(state, hero("rogue"))
    assert state.statuses(2) == [FULL] * 4 and state.status(3, hero("rogue")) == WOUNDED
    assert state.decisions.asked.kind == K_MAIN and PLAY.encode(0) not in state.legal_actions()


def test_a_party_pushed_after_a_two_space_move_goes_next_to_its_space_unless_the_vacated_space_is_always_open() -> None:
    # Seat 0 walks 13 - 7 - 1 onto seat 1; the space it vacates, 13, is not Adjacent to 1.
    hands: list[list[str]] = [[], [], []]
    state = build([NEUTRAL] * 3, [13, 1, 2], hands)
    act(state, MOVE.encode(1))
    assert state.decisions.asked.kind == K_PUSH and sorted(state.legal_actions()) == [0, 6, 7]
    config = configured({"rules.push_to_vacated_space_always": True})
    state = build([NEUTRAL] * 3, [13, 1, 2], hands, config=config)
    act(state, MOVE.encode(1))
    assert sorted(state.legal_actions()) == [0, 6, 7, 13]
    act(state, 13)
    assert all_positions(state) == [1, 13, 2]


def test_with_every_space_next_to_it_taken_a_party_can_be_pushed_only_to_an_always_open_vacated_space() -> None:
    # Seat 1 on 13 is hemmed in by seats 2, 3, 4 on 7, 18 and 14; seat 0 walks 15 - 14 - 13 onto it.
    parties, spaces = [NEUTRAL] * 5, [15, 13, 7, 18, 14]
    state = build(parties, spaces)
    assert MOVE.encode(13) not in state.legal_actions()
    state = build(parties, spaces, config=configured({"rules.push_to_vacated_space_always": True}))
    act(state, MOVE.encode(13))
    assert list(state.legal_actions()) == [15]
    act(state, 15)
    assert all_positions(state) == [13, 15, 7, 18, 14]


def test_savage_attack_may_add_another_savage_attack_as_a_melee_attack_unless_only_the_listed_melee_cards_may() -> None:
    hands = [["savage_attack", "savage_attack", "sword"], [], []]
    state = build([NEUTRAL] * 3, [1, 2, 6], hands)
    play(state, "savage_attack")
    act(state, 1)
    act(state, hero("cleric"))
    assert state.decisions.asked.kind == K_SAVAGE_MORE
    assert sorted(state.legal_actions()) == sorted([position_of(state, 0, "savage_attack"),
                                                    position_of(state, 0, "sword"), PASS])
    act(state, position_of(state, 0, "savage_attack"))
    act(state, 2)
    act(state, hero("rogue"))
    assert state.status(2, hero("rogue")) == WOUNDED
    config = configured({"rules.savage_attack_adds_savage_attacks": False})
    state = build([NEUTRAL] * 3, [1, 2, 6], hands, config=config)
    play(state, "savage_attack")
    act(state, 1)
    act(state, hero("cleric"))
    assert sorted(state.legal_actions()) == sorted([position_of(state, 0, "sword"), PASS])
