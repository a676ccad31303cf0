"""Level-up after each boss: a treasure each, an added card, the Ultimate
vote by party size, the next level card, HP, the Pyramid rebuilt, a new
boss, everything shuffled, a new hand."""

from __future__ import annotations

from collections import Counter

from simcore.games.party_wanted.config import TREASURE, ULTIMATE
from simcore.games.party_wanted.rules import (
    ADD,
    ASIDE,
    BUILD_POOL,
    HOLDER,
    IN_PLAY,
    ITEMS_HELD,
    LAND_DECK,
    LEVEL,
    ORDER,
    REVEAL,
    TIER,
    TREASURE_DECK,
    VOTE,
    PartyState,
)

from .helpers import (
    OVER,
    act,
    answer,
    boss_kills,
    cid,
    classes,
    counter,
    deck,
    fight,
    finish_planning,
    hps,
    legal_values,
    named,
    party,
    phase,
    reask,
    revealed,
    set_enemy,
    set_hand,
    set_hp,
    set_number,
    tier,
    zone,
)


def _kill_boss(state: PartyState) -> None:
    """Fight the pyramid's boss and kill it in one round."""
    for seat in range(state.n_players):
        set_hand(state, seat, ["fighter_strike"] if seat == 0 else [])
    state.tier_zone(0).reveal(0)
    set_number(state, HOLDER, 0)
    fight(state, [state.config.names[state.boss()]])
    set_enemy(state, 0, attack=0, defense=0, speed=0, hp=1)
    finish_planning(state)


def _finish_level_up(state: PartyState) -> list[int]:
    """Play the level-up choices; return who got the Ultimate vote choices."""
    votes: list[int] = []
    while phase(state) in (ADD, VOTE, ORDER):
        if phase(state) == VOTE:
            votes = legal_values(state)
        act(state, state.legal_actions()[0])
    return votes


def test_killing_the_boss_gives_each_hero_a_treasure_and_an_added_card() -> None:
    state = party("fighter,wizard")
    treasures_before = len(state.zones[TREASURE_DECK].cards)
    pools_before = [len(zone(state, seat, BUILD_POOL)) for seat in range(2)]
    _kill_boss(state)
    assert phase(state) == ADD and boss_kills(state)[0] == 1
    _finish_level_up(state)
    held = sum(len(zone(state, seat, ITEMS_HELD)) for seat in range(2))
    buried = state.zones[TREASURE_DECK].face_up
    assert held + buried == 2 and len(state.zones[TREASURE_DECK].cards) == treasures_before - held
    assert [len(zone(state, seat, BUILD_POOL)) for seat in range(2)] == [size - 1 for size in pools_before]
    for seat in range(2):  # one treasure each, not two for one of them
        drawn = counter(state, seat, 1)
        assert sum(drawn[card] for card in range(len(drawn)) if state.config.kinds[card] == TREASURE) == 1


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
        has_ultimate = any(state.config.kinds[card] == ULTIMATE for card in deck(state, 0).cards + state.hand(0))
        assert has_ultimate == (boss == 2)


def test_the_voted_hero_adds_its_ultimate_to_its_hero_deck() -> None:
    state = party("fighter,wizard,healer,rogue")
    _kill_boss(state)
    while phase(state) != VOTE:
        act(state, state.legal_actions()[0])
    answer(state, 2)
    ultimate = state.config.names.index("healer_ultimate")
    assert ultimate not in zone(state, 2, BUILD_POOL) and ultimate in deck(state, 2).cards + state.hand(2)


def test_the_next_level_card_resets_hp_to_the_new_maximum() -> None:
    state = party("fighter,wizard")
    set_hp(state, 0, 2)
    set_hp(state, 1, 3)
    _kill_boss(state)
    _finish_level_up(state)
    assert state.numbers[LEVEL] == 2
    assert hps(state) == [state.max_hp(seat) for seat in range(2)]
    assert [state.max_hp(seat) for seat in range(2)] >= [state.config.heroes.hp[cls][1] for cls in classes(state)]
    assert state.base_attack(0) == state.config.heroes.attack[classes(state)[0]][1]


def test_hardcore_mode_does_not_heal_on_level_up() -> None:
    state = party("fighter,wizard", overrides={"rules.hardcore": True})
    set_hp(state, 0, 2)
    set_hp(state, 1, 3)
    _kill_boss(state)
    _finish_level_up(state)
    assert state.numbers[LEVEL] == 2 and hps(state) == [2, 3]


def test_revealed_lands_are_buried_and_replaced_and_a_boss_of_the_next_level_waits_face_down() -> None:
    state = party("fighter")
    state.tier_zone(2).reveal(1)
    state.tier_zone(1).reveal(0)
    shown = [tier(state, 2)[1], tier(state, 1)[0]]
    hidden = [tier(state, 2)[0], tier(state, 2)[2], tier(state, 1)[1]]
    _kill_boss(state)
    _finish_level_up(state)
    lands = tier(state, 1) + tier(state, 2)
    assert Counter(hidden) <= Counter(lands)
    assert all(card in state.zones[LAND_DECK].cards[: state.zones[LAND_DECK].face_up] for card in shown)
    assert state.config.boss_levels[state.boss()] == 2
    assert not any(revealed(state, row, slot) for row in range(3) for slot in range(len(tier(state, row))))
    assert state.numbers[TIER] == 2


def test_the_longer_game_adds_one_more_tier_after_each_boss() -> None:
    state = party("fighter", overrides={"rules.longer_game": True})
    _kill_boss(state)
    _finish_level_up(state)
    assert [len(tier(state, row)) for row in range(state.tier_count())] == [1, 2, 3, 4] and state.numbers[TIER] == 3


def test_after_the_level_up_every_card_is_shuffled_back_and_each_hero_draws_four() -> None:
    state = party("fighter,wizard")
    _kill_boss(state)
    _finish_level_up(state)
    for seat in range(2):
        assert len(state.hand(seat)) == 4 and deck(state, seat).face_up == 0
        assert zone(state, seat, IN_PLAY) == [] and zone(state, seat, ASIDE) == []


def test_the_next_level_starts_with_whoever_has_the_turn_counter() -> None:
    state = party("fighter,wizard,healer")
    set_number(state, HOLDER, 2)
    _kill_boss(state)
    set_number(state, HOLDER, 2)
    _finish_level_up(state)
    assert state.numbers[HOLDER] == 2 and state.current_player == 2 and state.numbers[TIER] == 2
    answer(state, 0)
    while phase(state) != REVEAL:  # seat 2's land played out, whatever it holds
        assert phase(state) != OVER
        act(state, state.legal_actions()[0])
    assert state.numbers[HOLDER] == 0 and state.current_player == 0  # then clockwise again


def test_a_hero_dead_at_the_level_up_stays_dead_until_resurrected() -> None:
    state = party("fighter,wizard")
    state._kill_hero(1)
    reask(state)
    _kill_boss(state)
    _finish_level_up(state)
    assert state.numbers[LEVEL] == 2 and not state.alive(1) and state.hp(1) == 0 and state.hand(1) == []
    assert state.alive(0) and state.hp(0) == state.max_hp(0)


def test_with_the_living_only_reading_a_dead_hero_gets_no_treasure_no_add_and_no_ultimate_vote_at_the_level_up(
) -> None:
    state = party("fighter,wizard,healer,rogue", overrides={"rules.dead_heroes_level_up": False})
    state._kill_hero(1)
    reask(state)
    pool = Counter(zone(state, 1, BUILD_POOL))
    _kill_boss(state)
    asked: list[int] = []
    votes: list[int] = []
    while phase(state) in (ADD, VOTE, ORDER):
        if phase(state) == ADD:
            asked.append(state.current_player)
        if phase(state) == VOTE:
            votes = legal_values(state)
        act(state, state.legal_actions()[0])
    assert 1 not in asked and sorted(asked) == [0, 2, 3] and 1 not in votes and sorted(votes) == [0, 2, 3]
    assert Counter(zone(state, 1, BUILD_POOL)) == pool and zone(state, 1, ITEMS_HELD) == []
    drawn = counter(state, 1, 1)
    assert sum(drawn[card] for card in range(len(drawn)) if state.config.kinds[card] == TREASURE) == 0


def test_by_default_a_dead_hero_draws_its_treasure_adds_a_card_and_may_be_voted_the_ultimate() -> None:
    # "each Hero Draws 1 Treasure, picks a Class or Utility card ... and vote on 1 Hero in the Party"
    state = party("fighter,wizard,healer,rogue")
    state._kill_hero(1)
    reask(state)
    state.zones[TREASURE_DECK].cards.extend([cid("ring_of_power")] * 4)  # permanents: kept by whoever draws one
    pool = len(zone(state, 1, BUILD_POOL))
    _kill_boss(state)
    asked: list[int] = []
    votes: list[int] = []
    while phase(state) in (ADD, VOTE, ORDER):
        if phase(state) == ADD:
            asked.append(state.current_player)
        if phase(state) == VOTE:
            votes = legal_values(state)
            answer(state, 1)
            continue
        act(state, state.legal_actions()[0])
    assert sorted(asked) == [0, 1, 2, 3] and votes == [0, 1, 2, 3]
    assert named(zone(state, 1, ITEMS_HELD)) == ["ring_of_power"]
    assert len(zone(state, 1, BUILD_POOL)) == pool - 2  # its added card and its Ultimate
    assert cid("wizard_ultimate") in deck(state, 1).cards
    assert not state.alive(1) and state.hp(1) == 0 and state.hand(1) == []  # still dead


def test_with_the_revive_switch_the_dead_come_back_at_the_level_up_with_the_new_maximum() -> None:
    state = party("fighter,wizard", overrides={"rules.revive_at_level_up": True})
    state._kill_hero(1)
    reask(state)
    _kill_boss(state)
    _finish_level_up(state)
    assert state.alive(1) and state.hp(1) == state.max_hp(1) and len(state.hand(1)) == 4
