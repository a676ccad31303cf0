"""Set-up: the party, the four decks, the Pyramid of Chaos, each hero's
Build Pool, level card, health, starting Hero Deck and hand."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from simcore.games.party_wanted import GAME
from simcore.games.party_wanted.config import ARMOR, ATTACK, CLASS, DEFENSE, LAND, MINION, ULTIMATE, UTILITY, WEAPON
from simcore.games.party_wanted.rules import (
    BUILD_POOL,
    ENCOUNTER_DECK,
    HOLDER,
    LAND_DECK,
    LEVEL,
    MONSTER_DECK,
    REVEAL,
    TIER,
    TREASURE_DECK,
    PartyConfig,
    PartyState,
)
from simcore.parameters import ParameterError

from .helpers import DEFAULT, classes, configured, counter, deck, legal_values, party, phase, revealed, tier, zone


def test_one_to_eight_heroes_each_a_different_class_drawn_by_seed() -> None:
    for n_players in range(1, 9):
        for seed in range(5):
            state = GAME.new_state(DEFAULT, n_players, seed)
            assert len(classes(state)) == n_players == len(set(classes(state)))
            assert state.factions() == [DEFAULT.heroes.names[cls] for cls in classes(state)]
    drawn = {tuple(classes(GAME.new_state(DEFAULT, 4, seed))) for seed in range(20)}
    assert len(drawn) > 10  # many compositions


def test_the_eight_classes_are_the_four_base_heroes_and_the_four_expansion_heroes() -> None:
    assert set(DEFAULT.heroes.names) == {"fighter", "wizard", "healer", "rogue", "minotaur", "druid", "bard",
                                        "necromancer"}


def test_a_fixed_composition_seats_those_heroes_in_order() -> None:
    state = party("rogue,healer")
    assert state.factions() == ["rogue", "healer"]


@pytest.mark.parametrize("composition", ["wizard", "wizard,fighter,rogue"])
def test_a_composition_naming_another_number_of_heroes_than_the_party_is_refused_naming_it(composition: str) -> None:
    # Too few left a seat without a class (an IndexError deep in the set-up, or a ValueError
    # without a path); too many were cut to the party without a word.
    config = configured({"rules.composition": composition})
    message = (f'rules.composition: expected one hero per seat, 2 for a party of 2 (or "" to draw them by seed), '
               f"got {len(composition.split(','))}: {composition!r}")
    with pytest.raises(ParameterError) as checked:
        GAME.check_players(config, 2)  # what an experiment asks before anything is played
    with pytest.raises(ParameterError) as played:
        GAME.new_state(config, 2, 1)
    with pytest.raises(ParameterError) as set_up:
        PartyState.new_game(config, 2, 1, None)
    assert str(checked.value) == str(played.value) == str(set_up.value) == message
    GAME.check_players(configured({"rules.composition": "wizard,fighter"}), 2)


def test_a_party_larger_than_the_classes_of_the_boxes_switched_on_is_refused_naming_rules_sets() -> None:
    config = configured({"rules.sets.necromancer": False})
    with pytest.raises(ParameterError, match=r"^rules\.sets: expected boxes with at least 8 hero classes for a party "
                                             r"of 8 \(one class per hero\); the boxes switched on have 7$"):
        GAME.check_players(config, 8)
    GAME.check_players(config, 7)


def test_more_than_eight_heroes_or_none_is_refused() -> None:
    for n_players in (0, 9):
        with pytest.raises(ValueError):
            GAME.new_state(DEFAULT, n_players, 1)


def test_the_pyramid_has_the_level_one_boss_on_tier_one_and_the_five_s_lands_below() -> None:
    state = GAME.new_state(DEFAULT, 3, 11)
    boss = state.boss()
    assert len(tier(state, 0)) == 1 and DEFAULT.boss_levels[boss] == 1
    assert [len(tier(state, row)) for row in range(state.tier_count())] == [1, 2, 3]
    s_lands = tier(state, 1) + tier(state, 2)
    assert Counter(s_lands) == Counter(DEFAULT.decks.s_lands)
    assert all(DEFAULT.marks[land] == "S" and DEFAULT.kinds[land] == LAND for land in s_lands)
    assert not any(revealed(state, row, slot) for row in range(3) for slot in range(len(tier(state, row))))


def test_the_land_treasure_encounter_and_monster_decks_hold_every_other_card_shuffled() -> None:
    state = GAME.new_state(DEFAULT, 2, 5)
    assert Counter(state.zones[LAND_DECK].cards) == Counter(DEFAULT.decks.land_deck)
    assert not set(state.zones[LAND_DECK].cards) & set(DEFAULT.decks.s_lands)
    assert Counter(state.zones[TREASURE_DECK].cards) == Counter(DEFAULT.decks.treasure_deck)
    assert Counter(state.zones[ENCOUNTER_DECK].cards) == Counter(DEFAULT.decks.encounter_deck)
    assert Counter(state.zones[MONSTER_DECK].cards) == Counter(DEFAULT.decks.monster_deck)
    other = GAME.new_state(DEFAULT, 2, 6)
    assert other.zones[MONSTER_DECK].cards != state.zones[MONSTER_DECK].cards


def test_each_hero_starts_at_level_one_with_full_health_and_a_hand_of_four() -> None:
    state = party("fighter,wizard,healer,rogue")
    assert state.numbers[LEVEL] == 1
    for seat in range(4):
        cls = classes(state)[seat]
        assert state.hp(seat) == DEFAULT.heroes.hp[cls][0]
        assert state.base_attack(seat) == DEFAULT.heroes.attack[cls][0]
        assert len(state.hand(seat)) == 4
        assert counter(state, seat, 0) == counter(state, seat, 1)  # the opening hand is the only draw so far


def _starting_decks(config: PartyConfig, seeds: range) -> dict[str, set[tuple[int, ...]]]:
    """Each class's starting Hero Deck (sorted, hand included) in the games of ``seeds``."""
    decks: dict[str, set[tuple[int, ...]]] = {}
    for seed in seeds:
        state = GAME.new_state(config, 8, seed)
        for seat in range(8):
            cards = tuple(sorted(state.hand(seat) + deck(state, seat).cards))
            decks.setdefault(state.class_name(seat), set()).add(cards)
    return decks


def test_every_hero_starts_every_game_with_its_ten_s_cards_and_the_rest_stays_in_the_build_pool() -> None:
    decks = _starting_decks(DEFAULT, range(12))
    assert sorted(decks) == sorted(DEFAULT.heroes.names)
    for name, seen in decks.items():
        cls = DEFAULT.heroes.names.index(name)
        s_cards = sorted(card for card in DEFAULT.decks.build_pools[cls] if DEFAULT.marks[card] == "S")
        assert seen == {tuple(s_cards)}, name  # the same ten cards in every game
        assert len(s_cards) == 10
        basics = [card for card in s_cards if DEFAULT.kinds[card] in (ATTACK, DEFENSE)]
        assert len(basics) == 8  # 3 strikes, a heavy blow, 3 guards, a block
        assert not [card for card in s_cards if DEFAULT.kinds[card] in (ULTIMATE, ARMOR, WEAPON)]
    state = party("fighter,wizard")
    for seat in range(2):
        owned = Counter(state.hand(seat) + deck(state, seat).cards) + Counter(zone(state, seat, BUILD_POOL))
        assert owned == Counter(DEFAULT.decks.build_pools[classes(state)[seat]])
        assert not [card for card in zone(state, seat, BUILD_POOL) if DEFAULT.marks[card] == "S"]


def test_hard_mode_starts_with_every_h_class_and_utility_card_instead_and_the_same_s_attack_and_defense() -> None:
    config = configured({"rules.hard_mode": True})
    for name, seen in _starting_decks(config, range(6)).items():
        cls = config.heroes.names.index(name)
        pool = config.decks.build_pools[cls]
        basics = [card for card in pool if config.marks[card] == "S" and config.kinds[card] in (ATTACK, DEFENSE)]
        expected = sorted(basics + [card for card in pool if config.marks[card] == "H"])
        assert seen == {tuple(expected)}, name
        assert all(config.kinds[card] in (ATTACK, DEFENSE, CLASS, UTILITY, MINION) for card in expected)
        assert len(expected) == 8 + 3


@pytest.mark.parametrize(("speeds", "fastest"), [((3, 7, 5), 1), ((3, 5, 7), 2), ((7, 5, 3), 0)])
def test_the_fastest_hero_takes_the_turn_counter_and_reveals_on_the_lowest_tier(
        speeds: tuple[int, int, int], fastest: int) -> None:
    overrides: dict[str, Any] = {"rules.composition": "fighter,rogue,wizard"}
    for hero, speed in zip(("fighter", "rogue", "wizard"), speeds, strict=True):
        overrides[f"heroes.{hero}.speed"] = [speed] * 4  # the same speed at every level
    state = PartyState.new_game(configured(overrides), 3, 1, None)
    assert phase(state) == REVEAL and state.current_player == fastest == state.numbers[HOLDER]
    assert state.numbers[TIER] == 2 and legal_values(state) == [0, 1, 2]


def test_speed_ties_for_the_turn_counter_go_to_the_first_seat() -> None:
    same = [4, 4, 4, 4]
    state = party("fighter,wizard", overrides={"heroes.fighter.speed": same, "heroes.wizard.speed": same})
    assert state.numbers[HOLDER] == 0
