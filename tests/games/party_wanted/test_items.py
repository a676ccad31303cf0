"""Single-use items outside combat: "these items are placed next to your
Hero and you choose when it takes effect, at any time unless specified", and
"Negate damage cards refer to any kind of damage, including damage outside
of Combat". Before damage outside combat lands (a trap land, a hazard
encounter, a dare), each hero holding an item that works outside combat may
use it."""

from __future__ import annotations

from simcore.games.party_wanted.rules import (
    DONE,
    ENCOUNTER_DECK,
    HOLDER,
    ITEMS,
    ITEMS_HELD,
    REVEAL,
    SOCIAL,
    USE_ITEM,
    PartyState,
)

from .helpers import (
    act,
    answer,
    cid,
    hps,
    party,
    phase,
    place_land,
    reask,
    set_hp,
    set_number,
    set_zone,
    use_item,
    zone,
)

NO_HEALING = {"rules.heal_between_turns": "none", "heroes.wizard.speed": [9, 9, 9, 9]}


def _spike_trap(state: PartyState) -> None:
    """Reveal the spike trap (2 damage to every hero) and sit its Social out."""
    place_land(state, "spike_trap", slot=0)
    answer(state, 0)
    while phase(state) == SOCIAL:
        answer(state, 0)


def test_a_negate_item_shields_its_target_from_a_trap_and_the_others_take_the_damage() -> None:
    state = party("fighter,wizard", overrides=NO_HEALING)
    set_zone(state, 1, ITEMS_HELD, ["lucky_charm"])
    hp = list(hps(state))
    _spike_trap(state)
    assert phase(state) == ITEMS and state.current_player == 1  # before the damage lands
    assert list(state.legal_actions()) == [DONE, USE_ITEM.encode(0, 0, 0), USE_ITEM.encode(0, 1, 0)]
    use_item(state, 0, hero=0)  # the wizard shields the fighter
    assert phase(state) == REVEAL
    assert hps(state) == [hp[0], hp[1] - 2] and zone(state, 1, ITEMS_HELD) == []
    assert state.zones[ENCOUNTER_DECK].cards[0] == cid("lucky_charm")  # buried under its deck after use


def test_a_healing_item_used_before_the_damage_saves_a_hero_the_trap_would_kill() -> None:
    for use in (True, False):
        state = party("fighter,wizard", overrides=NO_HEALING)
        set_zone(state, 0, ITEMS_HELD, ["healing_potion"])
        set_hp(state, 0, 2)
        _spike_trap(state)
        assert phase(state) == ITEMS and state.current_player == 0
        if use:
            use_item(state, 0, hero=0)  # 2 + 4 HP, then 2 damage
        else:
            act(state, DONE)
        assert state.alive(0) == use and state.hp(0) == (4 if use else 0)


def test_a_resurrection_item_brings_a_dead_hero_back_outside_combat() -> None:
    state = party("fighter,wizard", overrides=NO_HEALING)
    state._kill_hero(1)
    reask(state)
    set_number(state, HOLDER, 1)
    set_zone(state, 0, ITEMS_HELD, ["phoenix_feather"])
    _spike_trap(state)
    assert phase(state) == ITEMS
    assert USE_ITEM.encode(0, 1, 0) in state.legal_actions()  # only the dead hero is a target
    use_item(state, 0, hero=1)
    assert state.alive(1) and state.hp(1) == 5 - 2 and len(state.hand(1)) == 4


def test_an_item_that_works_only_in_combat_opens_no_window_and_nobody_is_asked() -> None:
    state = party("fighter,wizard", overrides=NO_HEALING)
    set_zone(state, 0, ITEMS_HELD, ["bomb", "scroll_of_might"])
    hp = list(hps(state))
    _spike_trap(state)
    assert phase(state) == REVEAL and hps(state) == [hp[0] - 2, hp[1] - 2]
    assert state.config.usable_outside_combat[cid("lucky_charm")]
    assert not state.config.usable_outside_combat[cid("bomb")]
