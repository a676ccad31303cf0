"""Optional modes as parameters: Nemesis cards, healing between turns
(full, an amount, none), Hard mode, Party mode and Hardcore (see also
test_setup.py, test_end_of_game.py and test_level_up.py)."""

from __future__ import annotations

import pytest

from simcore.games.party_wanted.rules import BURY, ENEMY_BOSS, ENEMY_MONSTER

from .helpers import act, cid, fight, finish_planning, party, set_enemy, set_hand


def test_a_nemesis_boss_lowers_the_troubled_heros_defense_only_in_nemesis_mode() -> None:
    for nemesis in (False, True):
        state = party("fighter,wizard", overrides={"rules.nemesis": nemesis})
        set_hand(state, 0, ["fighter_strike"])
        set_hand(state, 1, ["wizard_strike"])
        fighter_defense, wizard_defense = state.base_defense(0), state.base_defense(1)
        fight(state, ["dire_wolf"], kinds=[ENEMY_BOSS])  # a beast: the fighter's nemesis type
        penalty = state.config.nemesis_penalty[state.classes[0]] if nemesis else 0
        assert state.hero_defense(0, 0) == fighter_defense - penalty
        assert state.hero_defense(1, 0) == wizard_defense


def test_monsters_are_never_nemeses() -> None:
    state = party("fighter", overrides={"rules.nemesis": True})
    set_hand(state, 0, ["fighter_strike"])
    before = state.base_defense(0)
    fight(state, ["wolf"], kinds=[ENEMY_MONSTER])
    assert state.hero_defense(0, 0) == before


def test_slaying_a_nemesis_rewards_the_troubled_hero_with_treasures() -> None:
    state = party("fighter,wizard", overrides={"rules.nemesis": True, "rules.heal_between_turns": "none"})
    set_hand(state, 0, ["fighter_strike"])
    set_hand(state, 1, [])
    state.tasks = []
    fight(state, ["dire_wolf"], kinds=[ENEMY_MONSTER + 1])  # fought as a mini-boss: no level-up
    set_enemy(state, 0, attack=0, defense=0, speed=0, hp=1)
    treasures = len(state.treasure_deck.cards)
    finish_planning(state)
    while state.phase == 2:
        act(state, state.legal_actions()[0])
    reward = state.config.nemesis_reward[state.classes[0]]
    drawn = treasures - len(state.treasure_deck.cards) + state.treasure_deck.face_up
    assert drawn == reward
    assert state.items[1] == []


@pytest.mark.parametrize(("mode", "expected"), [("full", 12), ("amount", 5 + 2), ("none", 5)])
def test_heroes_heal_after_each_land_fully_by_an_amount_or_not_at_all(mode: str, expected: int) -> None:
    state = party("fighter", overrides={"rules.heal_between_turns": mode, "rules.heal_amount": 2})
    assert state.max_hp(0) == 12
    state.hp[0] = 5
    state.tiers[state.tier][0] = cid("training_yard")  # no fight, no healing of its own
    act(state, 0)
    while state.phase == BURY:
        act(state, state.legal_actions()[0])
    assert state.turns() == 2 and state.hp[0] == expected
