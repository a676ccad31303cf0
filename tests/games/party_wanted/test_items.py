"""Single-use items outside combat: "these items are placed next to your
Hero and you choose when it takes effect, at any time unless specified", and
"Negate damage cards refer to any kind of damage, including damage outside
of Combat". Before damage outside combat lands (a trap land, a hazard
encounter, a dare), each hero holding an item that works outside combat may
use it."""

from __future__ import annotations

from simcore.games.party_wanted.rules import DONE, ITEMS, REVEAL, SOCIAL, PartyState

from .helpers import act, cid, ids, party, target, use_item

NO_HEALING = {"rules.heal_between_turns": "none", "heroes.wizard.speed": [9, 9, 9, 9]}


def _spike_trap(state: PartyState) -> None:
    """Reveal the spike trap (2 damage to every hero) and sit its Social out."""
    state.tiers[state.tier][0] = cid("spike_trap")
    act(state, 0)
    while state.phase == SOCIAL:
        act(state, 0)


def test_a_negate_item_shields_its_target_from_a_trap_and_the_others_take_the_damage() -> None:
    state = party("fighter,wizard", overrides=NO_HEALING)
    state.items[1] = ids(["lucky_charm"])
    hp = list(state.hp)
    _spike_trap(state)
    assert state.phase == ITEMS and state.current_player == 1  # before the damage lands
    assert list(state.legal_actions()) == [DONE, 3 << 16 | target(hero=0), 3 << 16 | target(hero=1)]
    use_item(state, 0, hero=0)  # the wizard shields the fighter
    assert state.phase == REVEAL
    assert state.hp == [hp[0], hp[1] - 2] and state.items[1] == []
    assert state.encounter_deck.cards[0] == cid("lucky_charm")  # buried under its deck after use


def test_a_healing_item_used_before_the_damage_saves_a_hero_the_trap_would_kill() -> None:
    for use in (True, False):
        state = party("fighter,wizard", overrides=NO_HEALING)
        state.items[0] = ids(["healing_potion"])
        state.hp[0] = 2
        _spike_trap(state)
        assert state.phase == ITEMS and state.current_player == 0
        if use:
            use_item(state, 0, hero=0)  # 2 + 4 HP, then 2 damage
        else:
            act(state, DONE)
        assert state.alive[0] == use and state.hp[0] == (4 if use else 0)


def test_a_resurrection_item_brings_a_dead_hero_back_outside_combat() -> None:
    state = party("fighter,wizard", overrides=NO_HEALING)
    state._kill_hero(1)
    state.holder = 1
    state.items[0] = ids(["phoenix_feather"])
    _spike_trap(state)
    assert state.phase == ITEMS
    assert 3 << 16 | target(hero=1) in state.legal_actions()  # only the dead hero is a target
    use_item(state, 0, hero=1)
    assert state.alive[1] and state.hp[1] == 5 - 2 and len(state.hands[1]) == 4


def test_an_item_that_works_only_in_combat_opens_no_window_and_nobody_is_asked() -> None:
    state = party("fighter,wizard", overrides=NO_HEALING)
    state.items[0] = ids(["bomb", "scroll_of_might"])
    hp = list(state.hp)
    _spike_trap(state)
    assert state.phase == REVEAL and state.hp == [hp[0] - 2, hp[1] - 2]
    assert state.config.usable_outside_combat[cid("lucky_charm")]
    assert not state.config.usable_outside_combat[cid("bomb")]
