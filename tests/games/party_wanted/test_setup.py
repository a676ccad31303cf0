"""Set-up: the party, the four decks, the Pyramid of Chaos, each hero's
Build Pool, level card, health, starting Hero Deck and hand."""

from __future__ import annotations

from collections import Counter

import pytest

from simcore.games.party_wanted import GAME
from simcore.games.party_wanted.config import ARMOR, ATTACK, CLASS, DEFENSE, LAND, MINION, ULTIMATE, UTILITY, WEAPON
from simcore.games.party_wanted.rules import REVEAL, PartyConfig, PartyState

from .helpers import DEFAULT, configured, party


def test_one_to_eight_heroes_each_a_different_class_drawn_by_seed() -> None:
    for n_players in range(1, 9):
        for seed in range(5):
            state = GAME.new_state(DEFAULT, n_players, seed)
            assert len(state.classes) == n_players == len(set(state.classes))
            assert state.factions() == [DEFAULT.class_names[cls] for cls in state.classes]
    drawn = {tuple(GAME.new_state(DEFAULT, 4, seed).classes) for seed in range(20)}
    assert len(drawn) > 10  # many compositions


def test_the_eight_classes_are_the_four_base_heroes_and_the_four_expansion_heroes() -> None:
    assert set(DEFAULT.class_names) == {"fighter", "wizard", "healer", "rogue", "minotaur", "druid", "bard",
                                        "necromancer"}


def test_a_fixed_composition_seats_those_heroes_in_order() -> None:
    state = party("rogue,healer")
    assert state.factions() == ["rogue", "healer"]


def test_more_than_eight_heroes_or_none_is_refused() -> None:
    for n_players in (0, 9):
        with pytest.raises(ValueError):
            GAME.new_state(DEFAULT, n_players, 1)


def test_the_pyramid_has_the_level_one_boss_on_tier_one_and_the_five_s_lands_below() -> None:
    state = GAME.new_state(DEFAULT, 3, 11)
    boss = state.tiers[0][0]
    assert len(state.tiers[0]) == 1 and DEFAULT.boss_levels[boss] == 1
    assert [len(row) for row in state.tiers] == [1, 2, 3]
    s_lands = state.tiers[1] + state.tiers[2]
    assert Counter(s_lands) == Counter(DEFAULT.s_lands)
    assert all(DEFAULT.marks[land] == "S" and DEFAULT.kinds[land] == LAND for land in s_lands)
    assert not any(any(row) for row in state.revealed)


def test_the_land_treasure_encounter_and_monster_decks_hold_every_other_card_shuffled() -> None:
    state = GAME.new_state(DEFAULT, 2, 5)
    assert Counter(state.land_deck.cards) == Counter(DEFAULT.land_deck)
    assert not set(state.land_deck.cards) & set(DEFAULT.s_lands)
    assert Counter(state.treasure_deck.cards) == Counter(DEFAULT.treasure_deck)
    assert Counter(state.encounter_deck.cards) == Counter(DEFAULT.encounter_deck)
    assert Counter(state.monster_deck.cards) == Counter(DEFAULT.monster_deck)
    other = GAME.new_state(DEFAULT, 2, 6)
    assert other.monster_deck.cards != state.monster_deck.cards


def test_each_hero_starts_at_level_one_with_full_health_and_a_hand_of_four() -> None:
    state = party("fighter,wizard,healer,rogue")
    assert state.level == 1
    for seat in range(4):
        cls = state.classes[seat]
        assert state.hp[seat] == DEFAULT.class_hp[cls][0]
        assert state.base_attack(seat) == DEFAULT.class_attack[cls][0]
        assert len(state.hands[seat]) == 4
        assert state.counters[seat][0] == state.counters[seat][1]  # the opening hand is the only draw so far


def _starting_decks(config: PartyConfig, seeds: range) -> dict[str, set[tuple[int, ...]]]:
    """Each class's starting Hero Deck (sorted, hand included) in the games of ``seeds``."""
    decks: dict[str, set[tuple[int, ...]]] = {}
    for seed in seeds:
        state = GAME.new_state(config, 8, seed)
        for seat in range(8):
            deck = tuple(sorted(state.hands[seat] + state.decks[seat].cards))
            decks.setdefault(state.class_name(seat), set()).add(deck)
    return decks


def test_every_hero_starts_every_game_with_its_ten_s_cards_and_the_rest_stays_in_the_build_pool() -> None:
    decks = _starting_decks(DEFAULT, range(12))
    assert sorted(decks) == sorted(DEFAULT.class_names)
    for name, seen in decks.items():
        cls = DEFAULT.class_names.index(name)
        s_cards = sorted(card for card in DEFAULT.build_pools[cls] if DEFAULT.marks[card] == "S")
        assert seen == {tuple(s_cards)}, name  # the same ten cards in every game
        assert len(s_cards) == 10
        basics = [card for card in s_cards if DEFAULT.kinds[card] in (ATTACK, DEFENSE)]
        assert len(basics) == 8  # 3 strikes, a heavy blow, 3 guards, a block
        assert not [card for card in s_cards if DEFAULT.kinds[card] in (ULTIMATE, ARMOR, WEAPON)]
    state = party("fighter,wizard")
    for seat in range(2):
        deck = state.hands[seat] + state.decks[seat].cards
        assert Counter(deck) + Counter(state.pools[seat]) == Counter(DEFAULT.build_pools[state.classes[seat]])
        assert not [card for card in state.pools[seat] if DEFAULT.marks[card] == "S"]


def test_hard_mode_starts_with_every_h_class_and_utility_card_instead_and_the_same_s_attack_and_defense() -> None:
    config = configured({"rules.hard_mode": True})
    for name, seen in _starting_decks(config, range(6)).items():
        cls = config.class_names.index(name)
        pool = config.build_pools[cls]
        basics = [card for card in pool if config.marks[card] == "S" and config.kinds[card] in (ATTACK, DEFENSE)]
        expected = sorted(basics + [card for card in pool if config.marks[card] == "H"])
        assert seen == {tuple(expected)}, name
        assert all(config.kinds[card] in (ATTACK, DEFENSE, CLASS, UTILITY, MINION) for card in expected)
        assert len(expected) == 8 + 3


def test_the_fastest_hero_takes_the_turn_counter_and_reveals_on_the_lowest_tier() -> None:
    config = configured({"rules.composition": "fighter,rogue,wizard"})
    state = PartyState.new_game(config, 3, 1, None)
    fastest = max(range(3), key=lambda seat: (state.base_speed(seat), -seat))
    assert state.phase == REVEAL and state.current_player == fastest == state.holder
    assert state.tier == 2 and list(state.legal_actions()) == [0, 1, 2]


def test_speed_ties_for_the_turn_counter_go_to_the_first_seat() -> None:
    same = [4, 4, 4, 4]
    state = party("fighter,wizard", overrides={"heroes.fighter.speed": same, "heroes.wizard.speed": same})
    assert state.holder == 0
