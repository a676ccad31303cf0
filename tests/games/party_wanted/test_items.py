"""Single-use items outside combat: "these items are placed next to your
Hero and you choose when it takes effect, at any time unless specified", and
"Negate damage cards refer to any kind of damage, including damage outside
of Combat". Before damage outside combat lands (a trap land, a hazard
encounter, a dare), each hero holding an item that works outside combat may
use it."""

from __future__ import annotations

from simcore.games.party_wanted.config import P_DRAW, P_HEAL, P_HEAL_SELF, P_PARTY_HEAL, P_RESURRECT
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
    DEFAULT,
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



def _aimed_at_the_second_hero(primitive: int) -> PartyState:
    """Two heroes, the first at 3 HP; the second at 2 HP, or dead for a resurrection."""
    state = party("fighter,wizard", overrides=NO_HEALING)
    set_hp(state, 0, 3)
    if primitive == P_RESURRECT:
        state._kill_hero(1)
    else:
        set_hp(state, 1, 2)
    return state


def _after(state: PartyState) -> tuple[list[int], list[bool], list[int]]:
    return hps(state), [state.alive(seat) for seat in (0, 1)], [len(state.hand(seat)) for seat in (0, 1)]



def _expected(primitive: int, amount: int) -> tuple[list[int], list[bool], list[int]]:
    """What seat 0's effect aimed at hero 1 does to ``_aimed_at_the_second_hero``'s heroes:
    heal hero 1, heal seat 0, heal both, resurrect hero 1 with ``amount`` HP and a hand of
    4 (``rules.hand_size``), seat 0 draws ``amount``."""
    before = _after(_aimed_at_the_second_hero(primitive))
    hp, living, hands = list(before[0]), list(before[1]), list(before[2])
    if primitive in (P_HEAL, P_PARTY_HEAL):
        hp[1] += amount
    if primitive in (P_HEAL_SELF, P_PARTY_HEAL):
        hp[0] += amount
    if primitive == P_RESURRECT:
        hp[1], living[1], hands[1] = amount, True, DEFAULT.hand_size
    if primitive == P_DRAW:
        hands[0] += amount
    return hp, living, hands


def test_heal_resurrect_and_draw_do_the_same_in_combat_and_outside_it() -> None:
    """Aimed by seat 0 at hero 1, each effect of a card played in combat
    (``_combat_effects``) and of an item used before damage outside combat heals,
    resurrects or draws as written (one helper, ``_hero_effect``, for both)."""
    for primitive, amount in [(P_HEAL, 3), (P_HEAL_SELF, 2), (P_PARTY_HEAL, 1), (P_RESURRECT, 2), (P_DRAW, 2)]:
        in_combat = _aimed_at_the_second_hero(primitive)
        in_combat._combat_effects(0, ((primitive, amount),), 1, 0, False)
        assert _after(in_combat) == _expected(primitive, amount), primitive
    for item in ("healing_potion", "phoenix_feather", "seed_of_life"):
        (primitive, amount), = DEFAULT.effects[cid(item)]
        outside = _aimed_at_the_second_hero(primitive)
        set_zone(outside, 0, ITEMS_HELD, [item])
        outside._use_outside_combat(0, USE_ITEM.encode(0, 1, 0))
        assert _after(outside) == _expected(primitive, amount), item
