"""Turns and lands: the Turn Counter goes clockwise and one tier up, the boss
reveal is not a turn, each land resolves Social, Action and Drinking;
treasures and encounters resolve by type, in the order the party picks."""

from __future__ import annotations

from simcore.games.party_wanted.config import INSTANT, P_DRAW, P_FIGHT, TREASURE
from simcore.games.party_wanted.rules import (
    BURY,
    DRAW_ITEMS,
    ENCOUNTER_DECK,
    HOLDER,
    ITEMS_HELD,
    ORDER,
    PENDING_ITEMS,
    PLAN,
    RESOLVE_ITEM,
    REVEAL,
    SOCIAL,
    TIER,
    TREASURE_DECK,
    PartyState,
)
from simcore.kit.decisions import Task

from .helpers import (
    act,
    answer,
    cid,
    deck,
    enemy_hps,
    fight,
    legal_values,
    named,
    party,
    phase,
    place_land,
    revealed,
    set_deck,
    set_enemy,
    set_hand,
    set_hp,
    set_number,
    start,
    use_item,
    zone,
)


def _reveal(state: PartyState, land: str, slot: int = 0) -> None:
    assert phase(state) == REVEAL
    place_land(state, land, slot=slot)
    answer(state, slot)


def _skip_socials(state: PartyState) -> None:
    """Bury the first card (solo Social) or sit the Social out (a party's)."""
    while phase(state) in (BURY, SOCIAL):
        act(state, state.legal_actions()[0])


def test_the_turn_counter_goes_clockwise_and_each_turn_reveals_one_tier_higher() -> None:
    state = party("fighter,wizard,healer", overrides={"heroes.wizard.speed": [9, 9, 9, 9]})
    assert state.numbers[HOLDER] == 1 and state.numbers[TIER] == 2 and state.turns() == 1
    _reveal(state, "quiet_glade")
    _skip_socials(state)
    assert phase(state) == REVEAL and state.numbers[HOLDER] == 2 and state.numbers[TIER] == 1 and state.turns() == 2
    assert legal_values(state) == [0, 1]


def test_the_boss_reveal_is_not_a_turn() -> None:
    state = party("fighter")
    _reveal(state, "quiet_glade")
    _skip_socials(state)
    _reveal(state, "training_yard")
    _skip_socials(state)
    assert state.in_combat() or phase(state) == PLAN
    assert revealed(state, 0, 0) and state.turns() == 2
    assert state.enemy_cards() == [state.boss()]


def test_the_solo_social_draws_one_card_then_buries_one() -> None:
    state = party("fighter")
    set_hand(state, 0, ["fighter_strike"])
    set_deck(state, 0, ["fighter_guard", "fighter_block"])
    _reveal(state, "quiet_glade")
    assert phase(state) == BURY and named(state.hand(0)) == ["fighter_strike", "fighter_guard"]
    answer(state, state.hand(0).index(cid("fighter_strike")))
    assert named(state.hand(0)) == ["fighter_guard"]
    assert named(deck(state, 0).cards[:1]) == ["fighter_strike"] and deck(state, 0).face_up == 1


def test_the_reward_social_draws_the_configured_cards() -> None:
    state = party("fighter", overrides={"rules.social": "reward", "rules.social_reward": 2})
    set_hand(state, 0, [])
    set_deck(state, 0, ["fighter_guard", "fighter_block", "fighter_strike"])
    _reveal(state, "training_yard")  # action: each hero draws 1 more
    assert named(state.hand(0)) == ["fighter_guard", "fighter_block", "fighter_strike"]


def test_the_action_follows_the_social_and_drinking_changes_nothing() -> None:
    state = party("fighter", overrides={"rules.heal_between_turns": "none"})
    set_hp(state, 0, 5)
    _reveal(state, "quiet_glade")  # action: the party heals 2
    assert phase(state) == BURY and state.hp(0) == 5  # social first
    _skip_socials(state)
    assert state.hp(0) == 7 and phase(state) == REVEAL


def test_an_instant_treasure_resolves_at_once_and_is_buried_under_its_deck() -> None:
    state = party("fighter", overrides={"rules.heal_between_turns": "none"})
    set_hp(state, 0, 3)
    state.zones[TREASURE_DECK].cards.append(cid("elixir"))
    _reveal(state, "abandoned_camp")
    _skip_socials(state)
    assert state.hp(0) == 6 and zone(state, 0, ITEMS_HELD) == []
    assert state.zones[TREASURE_DECK].cards[0] == cid("elixir") and state.zones[TREASURE_DECK].face_up == 1


def test_a_single_use_item_is_kept_used_once_in_combat_and_buried() -> None:
    state = party("fighter")
    state.zones[TREASURE_DECK].cards.append(cid("bomb"))
    _reveal(state, "abandoned_camp")
    _skip_socials(state)
    assert named(zone(state, 0, ITEMS_HELD)) == ["bomb"]
    set_hand(state, 0, ["fighter_strike"])
    fight(state, ["goblin"])
    set_enemy(state, 0, attack=0, defense=99, speed=0, hp=3)
    use_item(state, 0)
    assert enemy_hps(state)[0] == 2 and zone(state, 0, ITEMS_HELD) == []
    assert state.zones[TREASURE_DECK].cards[0] == cid("bomb")


def test_a_permanent_stays_with_the_hero_and_adds_to_the_base_stat() -> None:
    state = party("fighter")
    before = state.base_attack(0)
    state.zones[TREASURE_DECK].cards.append(cid("ring_of_power"))
    _reveal(state, "abandoned_camp")
    _skip_socials(state)
    assert named(zone(state, 0, ITEMS_HELD)) == ["ring_of_power"] and state.base_attack(0) == before + 1


def test_the_party_chooses_the_order_of_several_drawn_cards() -> None:
    state = party("fighter")
    state.zones[ENCOUNTER_DECK].cards.extend([cid("healing_spring"), cid("wandering_monster")])
    _reveal(state, "fork_in_the_road")  # two encounters at once
    _skip_socials(state)
    assert phase(state) == ORDER
    assert sorted(named(state.zones[PENDING_ITEMS].cards)) == ["healing_spring", "wandering_monster"]
    fight_first = state.zones[PENDING_ITEMS].cards.index(cid("wandering_monster"))
    answer(state, fight_first)
    assert state.in_combat() and named(state.zones[PENDING_ITEMS].cards) == ["healing_spring"]


def test_draws_of_several_cards_are_resolved_one_by_one() -> None:
    state = party("fighter")
    state.zones[TREASURE_DECK].cards.extend([cid("ring_of_power"), cid("amulet_of_warding")])
    start(state, Task(DRAW_ITEMS, 0, 2, TREASURE))  # two treasures
    assert phase(state) == ORDER
    chosen = state.zones[PENDING_ITEMS].cards[1]
    answer(state, 1)
    held = zone(state, 0, ITEMS_HELD)
    assert held[0] == chosen and len(held) == 2  # the chosen first, the last one by itself
    assert RESOLVE_ITEM not in [task.kind for task in state.decisions.stack.tasks()]
    assert state.config.uses[cid("wandering_monster")] == INSTANT
    assert any(p == P_FIGHT for p, _ in state.config.effects[cid("wandering_monster")])


# The Social step: "Each Hero chooses whether or not they wish to participate
# in the Social step ... the Social step provides a reward to each
# participant. (If playing solo, Draw 1 card and Bury 1 card for the Social.)"

def test_in_a_party_each_hero_chooses_to_take_part_and_only_participants_get_the_lands_reward() -> None:
    state = party("fighter,wizard", overrides={"heroes.wizard.speed": [9, 9, 9, 9]})
    assert state.numbers[HOLDER] == 1
    hands = [list(state.hand(0)), list(state.hand(1))]
    _reveal(state, "abandoned_camp")
    assert state.config.socials[cid("abandoned_camp")] == ((P_DRAW, 1),)  # each participant draws 1
    assert phase(state) == SOCIAL and state.current_player == 1  # the revealing hero first, then clockwise
    assert legal_values(state) == [0, 1]
    answer(state, 1)  # the wizard takes part
    assert phase(state) == SOCIAL and state.current_player == 0 and len(state.hand(1)) == len(hands[1]) + 1
    answer(state, 0)  # the fighter sits it out
    assert state.hand(0) == hands[0]


def test_a_dare_social_costs_its_participants_hp_for_its_reward() -> None:
    state = party("fighter,wizard", overrides={"rules.heal_between_turns": "none"})
    holder = state.numbers[HOLDER]
    before = len(state.hand(holder))
    hp = state.hp(holder)
    _reveal(state, "tavern")  # a drinking contest: 1 damage, draw 2
    answer(state, 1)
    assert state.hp(holder) == hp - 1 and len(state.hand(holder)) == before + 2


def test_the_boss_social_rewards_its_participants_too() -> None:
    state = party("fighter,wizard")
    set_number(state, TIER, 1)
    for slot in range(3):
        state.tier_zone(2).reveal(slot)
    _reveal(state, "training_yard", slot=0)
    answer(state, 0)
    answer(state, 0)  # the land's Social: both sit out
    assert revealed(state, 0, 0) and phase(state) == SOCIAL  # the boss's Social
    before = [len(state.hand(seat)) for seat in range(2)]
    while phase(state) == SOCIAL:
        answer(state, 1)
    assert [len(state.hand(seat)) for seat in range(2)] == [size + 1 for size in before]


def test_the_solo_social_for_everyone_is_the_rules_social_solo_switch() -> None:
    state = party("fighter,wizard", overrides={"rules.social": "solo"})
    _reveal(state, "abandoned_camp")
    assert phase(state) == BURY  # every hero draws 1 and buries 1
