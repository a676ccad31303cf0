"""Move, Bonus and Counter Action cards (Sanctum map, see test_turn.py for its layout)."""

from __future__ import annotations

from collections import Counter

from simcore.games.ring_of_chaos.rules import (
    DEAD,
    DISCARD_PILE,
    DRAW_PILE,
    FULL,
    K_ATTACKER_HERO,
    K_CHAOS_OFFER,
    K_COUNTER,
    K_GUARDIAN_DEFEND,
    K_LEADERSHIP,
    K_MAIN,
    K_OWN_HERO_HIT,
    K_POISON_DISCARD,
    K_RAISE,
    K_SACRIFICE,
    K_SCAVENGE,
    K_SPACE,
    K_TITHE_DROP,
    K_TITHE_PICK,
    PASS,
    PLAY,
    RING_HOLDER,
    STEAL_RING,
    TITHE_POOL,
    WOUNDED,
    RingState,
)

from .helpers import (
    DEFAULT,
    act,
    all_heroes,
    all_positions,
    build,
    card,
    hand_names,
    hero,
    locations,
    play,
    position_of,
)

NEUTRAL = "nameless_band"


def _playable(state: RingState, name: str) -> bool:
    return PLAY.encode(position_of(state, state.current_player, name)) in state.legal_actions()


def test_dominance_switches_places_with_the_ring_wearer_and_takes_the_ring_for_a_point() -> None:
    state = build([NEUTRAL, NEUTRAL, NEUTRAL], [13, 0, 16], [["dominance"], [], []], ring_holder=1, points=[2, 6, 0])
    play(state, "dominance")
    assert all_positions(state)[:2] == [0, 13] and state.occupant(0) == 0 and state.occupant(13) == 1
    assert state.numbers[RING_HOLDER] == 0 and state.scores()[:2] == [3, 6]


def test_dominance_needs_another_party_wearing_the_ring() -> None:
    state = build([NEUTRAL, NEUTRAL], [13, 16], [["dominance", "mind_control"], []])
    assert not _playable(state, "dominance") and not _playable(state, "mind_control")


def test_heroic_sacrifice_keeps_the_ring_and_costs_one_of_the_wearers_heroes_a_level() -> None:
    state = build([NEUTRAL, NEUTRAL], [13, 0], [["dominance"], ["heroic_sacrifice"]], ring_holder=1, points=[2, 6])
    play(state, "dominance")
    assert state.decisions.asked.kind == K_SACRIFICE and state.current_player == 1
    act(state, position_of(state, 1, "heroic_sacrifice"))
    assert state.decisions.asked.kind == K_OWN_HERO_HIT and state.current_player == 1
    act(state, hero("fighter"))
    assert state.numbers[RING_HOLDER] == 1 and state.scores() == [2, 6]
    assert state.status(1, hero("fighter")) == WOUNDED
    assert all_positions(state)[:2] == [0, 13]  # the switch itself is not prevented
    assert state.stats.get(0, 3, card("dominance")) == 1


def test_heroic_sacrifice_also_stops_stealing_the_ring_and_mind_control() -> None:
    state = build([NEUTRAL, NEUTRAL], [1, 2], [[], ["heroic_sacrifice", "heroic_sacrifice"]], ring_holder=1)
    act(state, STEAL_RING)
    act(state, position_of(state, 1, "heroic_sacrifice"))
    act(state, hero("cleric"))
    assert state.numbers[RING_HOLDER] == 1
    state = build([NEUTRAL, NEUTRAL], [13, 2], [["mind_control"], ["heroic_sacrifice"]], ring_holder=1)
    play(state, "mind_control")
    act(state, PASS)
    assert state.numbers[RING_HOLDER] == 0 and state.points(0) == 1


def test_mind_control_makes_the_wearer_give_the_ring_wherever_it_stands() -> None:
    state = build([NEUTRAL, NEUTRAL], [13, 16], [["mind_control"], []], ring_holder=1, points=[0, 4])
    play(state, "mind_control")
    assert state.numbers[RING_HOLDER] == 0 and state.scores() == [1, 4] and all_positions(state) == [13, 16]


def test_leadership_moves_every_other_party_to_any_space_the_player_chooses() -> None:
    state = build([NEUTRAL, NEUTRAL, NEUTRAL], [1, 2, 15], [["leadership"], [], []], ring_holder=2)
    play(state, "leadership")
    assert state.decisions.asked.kind == K_LEADERSHIP and state.current_player == 0 and state.decisions.asked.a == 1
    assert 1 not in state.legal_actions() and 0 in state.legal_actions() and 2 in state.legal_actions()
    act(state, 18)
    assert state.decisions.asked.a == 2
    act(state, 0)
    assert all_positions(state) == [1, 18, 0] and state.numbers[RING_HOLDER] == 2  # the Ring moves with its wearer


def test_leadership_can_swap_two_other_parties_since_every_layout_of_them_is_any_location() -> None:
    state = build([NEUTRAL, NEUTRAL, NEUTRAL], [1, 2, 15], [["leadership"], [], []], ring_holder=2)
    play(state, "leadership")
    assert 15 in state.legal_actions()  # where seat 2, still to be placed, stands
    act(state, 15)
    assert all_positions(state) == [1, 15, 2]  # seat 2 waits on seat 1's old space
    assert state.decisions.asked.a == 2
    legal = state.legal_actions()
    assert 15 not in legal and 1 not in legal and 2 in legal  # a placed party's space is taken
    act(state, 2)
    assert all_positions(state) == [1, 15, 2] and state.numbers[RING_HOLDER] == 2


def test_leadership_never_offers_the_players_own_space_or_a_space_already_placed_onto() -> None:
    state = build([NEUTRAL, NEUTRAL, NEUTRAL, NEUTRAL], [1, 2, 15, 7], [["leadership"], [], [], []])
    play(state, "leadership")
    first = sorted(state.legal_actions())
    assert 1 not in first and {2, 15, 7} <= set(first)
    act(state, 18)
    second = sorted(state.legal_actions())
    assert 18 not in second and 1 not in second and {15, 7, 2} <= set(second)
    act(state, 7)  # seat 2 onto seat 3's space: seat 3 now stands on 15
    assert all_positions(state) == [1, 18, 7, 15]
    third = sorted(state.legal_actions())
    assert 18 not in third and 7 not in third and 1 not in third and 15 in third
    act(state, 2)
    assert all_positions(state) == [1, 18, 7, 2]


def test_sneak_swaps_places_with_a_party_that_does_not_wear_the_ring() -> None:
    state = build([NEUTRAL, NEUTRAL, NEUTRAL], [13, 0, 16], [["sneak"], [], []], ring_holder=1)
    play(state, "sneak")
    assert list(state.legal_actions()) == [2]
    act(state, 2)
    assert all_positions(state) == [16, 0, 13]


def test_the_ring_wearer_cannot_play_sneak_since_sneak_never_moves_the_party_that_possesses_the_ring() -> None:
    state = build([NEUTRAL, NEUTRAL, NEUTRAL], [0, 13, 16], [["sneak"], [], []], ring_holder=0)
    assert not _playable(state, "sneak")
    state = build([NEUTRAL, NEUTRAL, NEUTRAL], [0, 13, 16], [["sneak"], [], []], ring_holder=-1, ring_space=5)
    assert _playable(state, "sneak")


def test_teleport_moves_to_any_open_space_except_the_chaos_altar() -> None:
    state = build([NEUTRAL, NEUTRAL], [13, 16], [["teleport"], []])
    play(state, "teleport")
    assert state.decisions.asked.kind == K_SPACE
    assert sorted(state.legal_actions()) == [s for s in range(DEFAULT.board.n_spaces) if s not in (0, 13, 16)]
    act(state, 4)
    assert state.position(0) == 4


def test_bully_moves_next_to_a_party_and_makes_a_melee_attack_that_parry_counters() -> None:
    state = build([NEUTRAL, NEUTRAL], [13, 3], [["bully"], ["parry"]])
    play(state, "bully")
    assert sorted(state.legal_actions()) == [2, 4, 9]  # open, Adjacent to seat 1, and not the Altar
    act(state, 9)
    act(state, 1)
    assert state.decisions.asked.kind == K_ATTACKER_HERO
    act(state, hero("wizard"))
    assert state.decisions.asked.kind == K_COUNTER and position_of(state, 1, "parry") in state.legal_actions()
    act(state, PASS)
    assert state.position(0) == 9 and state.status(1, hero("wizard")) == WOUNDED


def test_bully_is_a_fighter_card() -> None:
    state = build([NEUTRAL, NEUTRAL], [13, 3], [["bully"], []], heroes=[(2, 0, 2, 2), (2, 2, 2, 2)])
    assert not _playable(state, "bully")


def test_earthquake_lowers_one_hero_of_every_party_including_the_caster_and_cannot_be_countered() -> None:
    state = build([NEUTRAL] * 3, [13, 15, 17], [["earthquake"], ["dodge", "parry", "hasty_retreat"], []])
    play(state, "earthquake")
    order = []
    for choice in ("rogue", "cleric", "fighter"):
        assert state.decisions.asked.kind == K_OWN_HERO_HIT  # each party picks its own Hero, no counter question
        order.append(state.current_player)
        act(state, hero(choice))
    assert order == [1, 2, 0]  # the caster last
    assert state.status(1, hero("rogue")) == WOUNDED and state.status(2, hero("cleric")) == WOUNDED
    assert state.status(0, hero("fighter")) == WOUNDED and len(state.hand(1)) == 3


def test_pickpocket_takes_a_random_card_from_an_adjacent_players_hand() -> None:
    state = build([NEUTRAL, NEUTRAL, NEUTRAL], [1, 2, 15], [["pickpocket"], ["dodge", "bow"], ["sword"]])
    play(state, "pickpocket")
    assert list(state.legal_actions()) == [1]  # seat 2 is not Adjacent
    act(state, 1)
    assert len(state.hand(1)) == 1 and len(state.hand(0)) == 1
    assert hand_names(state, 0) + hand_names(state, 1) == Counter({"dodge": 1, "bow": 1})


def test_scavenge_takes_any_card_from_the_discard_pile() -> None:
    state = build([NEUTRAL, NEUTRAL], [13, 16], [["scavenge"], []], discard=["fireball", "dodge", "dodge"])
    play(state, "scavenge")
    assert state.decisions.asked.kind == K_SCAVENGE
    assert sorted(state.legal_actions()) == sorted([card("dodge"), card("fireball")])
    act(state, card("fireball"))
    assert hand_names(state, 0) == {"fireball": 1}
    assert Counter(state.zones[DISCARD_PILE].cards) == Counter([card("dodge"), card("dodge"), card("scavenge")])


def test_a_temple_guardian_taken_with_scavenge_attacks_at_once_and_is_not_replaced() -> None:
    state = build([NEUTRAL, NEUTRAL], [13, 16], [["scavenge"], []], discard=["temple_guardian"],
                  draw_top=["dodge"])
    play(state, "scavenge")
    act(state, card("temple_guardian"))
    assert state.decisions.asked.kind == K_GUARDIAN_DEFEND
    act(state, hero("cleric"))
    act(state, hero("cleric"))
    assert state.hand(0) == [] and state.zones[DRAW_PILE].cards[-1] == card("dodge")  # no replacement card
    assert state.status(0, hero("cleric")) == WOUNDED and state.decisions.asked.kind == K_MAIN


def test_tithe_makes_every_other_player_drop_a_card_and_the_player_keeps_one_of_them() -> None:
    state = build([NEUTRAL] * 4, [1, 2, 15, 17], [["tithe"], ["dodge", "bow"], ["sword"], []])
    play(state, "tithe")
    assert state.decisions.asked.kind == K_TITHE_DROP and state.current_player == 1
    act(state, position_of(state, 1, "bow"))
    assert state.current_player == 2
    act(state, position_of(state, 2, "sword"))
    assert state.decisions.asked.kind == K_TITHE_PICK and state.current_player == 0  # seat 3 had nothing to drop
    assert sorted(state.legal_actions()) == sorted([card("bow"), card("sword")])
    act(state, card("sword"))
    assert hand_names(state, 0) == {"sword": 1} and hand_names(state, 1) == {"dodge": 1}
    assert card("bow") in state.zones[DISCARD_PILE].cards and state.zones[TITHE_POOL].cards == []


def test_chaos_magic_takes_a_point_from_any_player() -> None:
    state = build([NEUTRAL] * 3, [13, 15, 17], [["chaos_magic"], [], []], points=[3, 0, 4])
    play(state, "chaos_magic")
    assert list(state.legal_actions()) == [2]  # seat 1 has no point to give
    act(state, 2)
    assert state.scores() == [4, 0, 3]


def test_chaos_magic_is_countered_by_chaos_magic_from_any_player_and_that_counter_can_be_countered() -> None:
    state = build([NEUTRAL] * 3, [13, 15, 17], [["chaos_magic", "chaos_magic"], ["chaos_magic"], []], points=[3, 0, 4])
    play(state, "chaos_magic")
    act(state, 2)
    # Seat 1, not the target, counters; then seat 0 may counter the counter.
    assert state.decisions.asked.kind == K_CHAOS_OFFER and state.current_player == 1
    act(state, position_of(state, 1, "chaos_magic"))
    assert state.decisions.asked.kind == K_CHAOS_OFFER and state.current_player == 0
    act(state, position_of(state, 0, "chaos_magic"))
    assert state.scores() == [4, 0, 3]  # the first counter was countered: the theft happens
    again = build([NEUTRAL] * 3, [13, 15, 17], [["chaos_magic"], ["chaos_magic"], []], points=[3, 0, 4])
    play(again, "chaos_magic")
    act(again, 2)
    act(again, position_of(again, 1, "chaos_magic"))
    assert again.scores() == [3, 0, 4] and again.stats.get(0, 3, card("chaos_magic")) == 1


def test_chaos_magic_never_takes_a_party_past_ten_points() -> None:
    state = build([NEUTRAL, NEUTRAL], [13, 16], [["chaos_magic"], []], points=[10, 4])
    play(state, "chaos_magic")
    act(state, 1)
    assert state.scores() == [10, 4] and not state.is_terminal()  # rules.chaos_magic_at_ten_costs_victim: false


def test_healing_potion_raises_a_wounded_hero_to_full_strength() -> None:
    state = build([NEUTRAL, NEUTRAL], [13, 16], [["healing_potion"], []], heroes=[(1, 0, 2, 1), (2, 2, 2, 2)])
    play(state, "healing_potion")
    assert state.decisions.asked.kind == K_RAISE and sorted(state.legal_actions()) == [hero("cleric"), hero("wizard")]
    act(state, hero("wizard"))
    assert state.statuses(0) == [WOUNDED, DEAD, FULL, FULL]


def test_healing_potion_needs_a_wounded_hero() -> None:
    state = build([NEUTRAL, NEUTRAL], [13, 16], [["healing_potion"], []], heroes=[(2, 0, 2, 2), (2, 2, 2, 2)])
    assert not _playable(state, "healing_potion")


def test_resurrection_raises_a_dead_hero_to_wounded() -> None:
    state = build([NEUTRAL, NEUTRAL], [13, 16], [["resurrection"], []], heroes=[(2, 0, 1, 2), (2, 2, 2, 2)])
    play(state, "resurrection")
    assert list(state.legal_actions()) == [hero("fighter")]
    act(state, hero("fighter"))
    assert state.statuses(0) == [FULL, WOUNDED, WOUNDED, FULL]


def test_necromancy_raises_a_dead_hero_of_the_player_and_of_every_adjacent_party() -> None:
    state = build([NEUTRAL] * 4, [1, 2, 6, 15], [["necromancy"], [], [], []],
                  heroes=[(0, 2, 2, 2), (2, 0, 0, 2), (2, 2, 2, 2), (0, 2, 2, 2)])
    play(state, "necromancy")
    raised = []
    while state.decisions.asked.kind == K_RAISE:
        raised.append(state.current_player)
        act(state, state.legal_actions()[0])
    assert raised == [0, 1]  # seat 2 has no Dead Hero, seat 3 is not Adjacent
    assert state.status(0, hero("cleric")) == WOUNDED and sorted(state.statuses(1)) == [0, 1, 2, 2]
    assert state.status(3, hero("cleric")) == DEAD


def test_poison_makes_any_player_discard_a_card_of_its_choice() -> None:
    state = build([NEUTRAL, NEUTRAL, NEUTRAL], [1, 2, 15], [["poison"], [], ["dodge", "bow"]])
    play(state, "poison")
    assert list(state.legal_actions()) == [2]
    act(state, 2)
    assert state.decisions.asked.kind == K_POISON_DISCARD and state.current_player == 2
    act(state, position_of(state, 2, "bow"))
    assert hand_names(state, 2) == {"dodge": 1} and card("bow") in state.zones[DISCARD_PILE].cards


def test_counter_cards_cannot_be_played_as_actions() -> None:
    state = build([NEUTRAL, NEUTRAL], [1, 2], [["dodge", "parry", "hasty_retreat", "heroic_sacrifice"], []],
                  ring_holder=1)
    assert all(not _playable(state, name) for name in ("dodge", "parry", "hasty_retreat", "heroic_sacrifice"))


def test_every_card_stays_in_one_place_through_the_card_effects() -> None:
    state = build([NEUTRAL] * 3, [1, 2, 15], [["tithe", "imprison"], ["dodge", "bow"], ["sword"]])
    play(state, "tithe")
    act(state, 0)
    assert locations(state) == Counter(DEFAULT.deck)
    act(state, 0)
    act(state, state.legal_actions()[0])
    play(state, "imprison")
    assert locations(state) == Counter(DEFAULT.deck)
    act(state, 2)
    assert locations(state) == Counter(DEFAULT.deck) and state.decisions.asked.kind == K_MAIN
    assert all_heroes(state) == [[FULL] * 4] * 3
