"""Optional modes as parameters: Nemesis cards, healing between turns
(full, an amount, none), Hard mode, Party mode and Hardcore (see also
test_setup.py, test_end_of_game.py and test_level_up.py)."""

from __future__ import annotations

import pytest

from simcore.games.party_wanted.rules import BURY, ITEMS_HELD, ORDER, TREASURE_DECK

from .helpers import (
    ENEMY_BOSS,
    ENEMY_MINI_BOSS,
    ENEMY_MONSTER,
    act,
    answer,
    classes,
    fight,
    finish_planning,
    party,
    phase,
    place_land,
    set_enemy,
    set_hand,
    set_hp,
    zone,
)


def test_a_nemesis_boss_lowers_the_troubled_heros_defense_only_in_nemesis_mode() -> None:
    for nemesis in (False, True):
        state = party("fighter,wizard", overrides={"rules.nemesis": nemesis})
        set_hand(state, 0, ["fighter_strike"])
        set_hand(state, 1, ["wizard_strike"])
        fighter_defense, wizard_defense = state.base_defense(0), state.base_defense(1)
        fight(state, ["dire_wolf"], kind=ENEMY_BOSS)  # a beast: the fighter's nemesis type
        penalty = state.config.heroes.nemesis_penalty[classes(state)[0]] if nemesis else 0
        assert state.hero_defense(0, 0) == fighter_defense - penalty
        assert state.hero_defense(1, 0) == wizard_defense


def test_monsters_are_never_nemeses() -> None:
    state = party("fighter", overrides={"rules.nemesis": True})
    set_hand(state, 0, ["fighter_strike"])
    before = state.base_defense(0)
    fight(state, ["wolf"], kind=ENEMY_MONSTER)
    assert state.hero_defense(0, 0) == before


def test_slaying_a_nemesis_rewards_the_troubled_hero_with_treasures() -> None:
    state = party("fighter,wizard", overrides={"rules.nemesis": True, "rules.heal_between_turns": "none"})
    set_hand(state, 0, ["fighter_strike"])
    set_hand(state, 1, [])
    fight(state, ["dire_wolf"], kind=ENEMY_MINI_BOSS)  # fought as a mini-boss: no level-up
    set_enemy(state, 0, attack=0, defense=0, speed=0, hp=1)
    treasures = len(state.zones[TREASURE_DECK].cards)
    finish_planning(state)
    while phase(state) == ORDER:
        act(state, state.legal_actions()[0])
    reward = state.config.heroes.nemesis_reward[classes(state)[0]]
    drawn = treasures - len(state.zones[TREASURE_DECK].cards) + state.zones[TREASURE_DECK].face_up
    assert drawn == reward
    assert zone(state, 1, ITEMS_HELD) == []


@pytest.mark.parametrize(("mode", "expected"), [("full", 12), ("amount", 5 + 2), ("none", 5)])
def test_heroes_heal_after_each_land_fully_by_an_amount_or_not_at_all(mode: str, expected: int) -> None:
    state = party("fighter", overrides={"rules.heal_between_turns": mode, "rules.heal_amount": 2})
    assert state.max_hp(0) == 12
    set_hp(state, 0, 5)
    place_land(state, "training_yard", slot=0)  # no fight, no healing of its own
    answer(state, 0)
    while phase(state) == BURY:
        act(state, state.legal_actions()[0])
    assert state.turns() == 2 and state.hp(0) == expected
