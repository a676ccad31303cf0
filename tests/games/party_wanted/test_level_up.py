"""Level-up after each boss: a treasure each, an added card, the Ultimate
vote by party size, the next level card, HP, the Pyramid rebuilt, a new
boss, everything shuffled, a new hand."""

from __future__ import annotations

from collections import Counter

from simcore.games.party_wanted.config import ULTIMATE
from simcore.games.party_wanted.rules import ADD, VOTE, PartyState

from .helpers import act, fight, finish_planning, party, set_enemy, set_hand


def _kill_boss(state: PartyState) -> None:
    """Fight the pyramid's boss and kill it in one round."""
    for seat in range(state.n_players):
        set_hand(state, seat, ["fighter_strike"] if seat == 0 else [])
    state.revealed[0][0] = True
    state.holder = 0
    fight(state, [state.config.names[state.tiers[0][0]]])
    set_enemy(state, 0, attack=0, defense=0, speed=0, hp=1)
    finish_planning(state)


def _finish_level_up(state: PartyState) -> list[int]:
    """Play the level-up choices; return who got the Ultimate vote choices."""
    votes: list[int] = []
    while state.phase in (ADD, VOTE) or state.phase == 2:
        if state.phase == VOTE:
            votes = list(state.legal_actions())
        act(state, state.legal_actions()[0])
    return votes


def test_killing_the_boss_gives_each_hero_a_treasure_and_an_added_card() -> None:
    state = party("fighter,wizard")
    treasures_before = len(state.treasure_deck.cards)
    pools_before = [len(pool) for pool in state.pools]
    _kill_boss(state)
    assert state.phase == ADD and state.boss_kills[0] == 1
    _finish_level_up(state)
    held = sum(len(items) for items in state.items)
    buried = state.treasure_deck.face_up
    assert held + buried == 2 and len(state.treasure_deck.cards) == treasures_before - held
    assert [len(pool) for pool in state.pools] == [size - 1 for size in pools_before]


def _ultimate_votes(composition: str, bosses: int) -> list[bool]:
    state = party(composition)
    offered = []
    for _ in range(bosses):
        _kill_boss(state)
        votes = _finish_level_up(state)
        offered.append(bool(votes))
    return offered


def test_four_or_more_heroes_vote_an_ultimate_after_every_boss() -> None:
    assert _ultimate_votes("fighter,wizard,healer,rogue", 3) == [True, True, True]


def test_two_or_three_heroes_vote_an_ultimate_from_the_second_boss() -> None:
    assert _ultimate_votes("fighter,wizard", 3) == [False, True, True]
    assert _ultimate_votes("fighter,wizard,healer", 2) == [False, True]


def test_a_solo_hero_adds_the_ultimate_after_the_third_boss() -> None:
    state = party("fighter")
    for boss in range(3):
        _kill_boss(state)
        _finish_level_up(state)
        has_ultimate = any(state.config.kinds[card] == ULTIMATE for card in state.decks[0].cards + state.hands[0])
        assert has_ultimate == (boss == 2)


def test_the_voted_hero_adds_its_ultimate_to_its_hero_deck() -> None:
    state = party("fighter,wizard,healer,rogue")
    _kill_boss(state)
    while state.phase != VOTE:
        act(state, state.legal_actions()[0])
    act(state, 2)
    ultimate = state.config.names.index("healer_ultimate")
    assert ultimate not in state.pools[2] and ultimate in state.decks[2].cards + state.hands[2]


def test_the_next_level_card_resets_hp_to_the_new_maximum() -> None:
    state = party("fighter,wizard")
    state.hp = [2, 3]
    _kill_boss(state)
    _finish_level_up(state)
    assert state.level == 2
    assert state.hp == [state.max_hp(seat) for seat in range(2)]
    assert [state.max_hp(seat) for seat in range(2)] >= [state.config.class_hp[cls][1] for cls in state.classes]
    assert state.base_attack(0) == state.config.class_attack[state.classes[0]][1]


def test_hardcore_mode_does_not_heal_on_level_up() -> None:
    state = party("fighter,wizard", overrides={"rules.hardcore": True})
    state.hp = [2, 3]
    _kill_boss(state)
    _finish_level_up(state)
    assert state.level == 2 and state.hp == [2, 3]


def test_revealed_lands_are_buried_and_replaced_and_a_boss_of_the_next_level_waits_face_down() -> None:
    state = party("fighter")
    state.revealed[2][1] = True
    state.revealed[1][0] = True
    revealed = [state.tiers[2][1], state.tiers[1][0]]
    hidden = [state.tiers[2][0], state.tiers[2][2], state.tiers[1][1]]
    _kill_boss(state)
    _finish_level_up(state)
    lands = state.tiers[1] + state.tiers[2]
    assert Counter(hidden) <= Counter(lands)
    assert all(card in state.land_deck.cards[: state.land_deck.face_up] for card in revealed)
    assert state.config.boss_levels[state.tiers[0][0]] == 2
    assert not any(any(row) for row in state.revealed) and state.tier == 2


def test_the_longer_game_adds_one_more_tier_after_each_boss() -> None:
    state = party("fighter", overrides={"rules.longer_game": True})
    _kill_boss(state)
    _finish_level_up(state)
    assert [len(row) for row in state.tiers] == [1, 2, 3, 4] and state.tier == 3


def test_after_the_level_up_every_card_is_shuffled_back_and_each_hero_draws_four() -> None:
    state = party("fighter,wizard")
    _kill_boss(state)
    _finish_level_up(state)
    for seat in range(2):
        assert len(state.hands[seat]) == 4 and state.decks[seat].face_up == 0
        assert state.in_play[seat] == [] and state.aside[seat] == []


def test_the_next_level_starts_with_whoever_has_the_turn_counter() -> None:
    state = party("fighter,wizard,healer")
    state.holder = 2
    _kill_boss(state)
    state.holder = 2
    _finish_level_up(state)
    assert state.holder == 2 and state.current_player == 2 and state.tier == 2
    act(state, 0)
    while state.phase == 1:
        act(state, state.legal_actions()[0])
    if state.phase == 0:
        assert state.holder == 0  # then clockwise again


def test_a_hero_dead_at_the_level_up_stays_dead_until_resurrected() -> None:
    state = party("fighter,wizard")
    state._kill_hero(1)
    _kill_boss(state)
    _finish_level_up(state)
    assert state.level == 2 and not state.alive[1] and state.hp[1] == 0 and state.hands[1] == []
    assert state.alive[0] and state.hp[0] == state.max_hp(0)


def test_with_the_revive_switch_the_dead_come_back_at_the_level_up_with_the_new_maximum() -> None:
    state = party("fighter,wizard", overrides={"rules.revive_at_level_up": True})
    state._kill_hero(1)
    _kill_boss(state)
    _finish_level_up(state)
    assert state.alive[1] and state.hp[1] == state.max_hp(1) and len(state.hands[1]) == 4
