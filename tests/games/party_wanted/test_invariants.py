"""Properties of every step of many games: cards conserved, HP within
bounds, level 1-4, a legal action whenever the game is not over."""

from __future__ import annotations

from collections import Counter
from functools import partial
from typing import Any

import pytest

from simcore.api import GameState
from simcore.games.party_wanted import GAME
from simcore.games.party_wanted.config import BOSS, ENCOUNTER, LAND, MONSTER, TREASURE
from simcore.games.party_wanted.rules import PartyState
from tests import gamekit

from .helpers import DEFAULT, configured


def _table_cards(state: PartyState) -> Counter[int]:
    """Every land, monster, boss, treasure and encounter, wherever it is."""
    cards = state.land_deck.cards + state.monster_deck.cards + state.treasure_deck.cards + state.encounter_deck.cards
    cards += [card for row in state.tiers for card in row if card >= 0]
    cards += [card for pool in state.boss_pools for card in pool] + state.defeated_bosses
    cards += [card for held in state.items for card in held] + state.pending_items
    cards += [card for card in state.enemies if state.config.kinds[card] == MONSTER]
    return Counter(cards)


def _expected_table(state: PartyState) -> Counter[int]:
    config = state.config
    wanted = (LAND, MONSTER, BOSS, TREASURE, ENCOUNTER)
    return Counter(card for card in range(len(config.names)) if config.kinds[card] in wanted
                   and config.sets[card] in {"base", "minotaur", "druid", "bard", "necromancer"}
                   for _ in range(config.copies[card]))


def _hero_cards(state: PartyState, seat: int) -> Counter[int]:
    cards = state.hands[seat] + state.decks[seat].cards + state.pools[seat] + state.in_play[seat] + state.aside[seat]
    cards += state.minions[seat] + [card for card in (state.weapons[seat], state.armors[seat]) if card >= 0]
    return Counter(cards)


def _check(state: GameState, table: Counter[int]) -> None:
    """Every invariant of a position: ``table`` is the land, monster, boss, treasure
    and encounter cards of the game."""
    assert isinstance(state, PartyState)
    assert _table_cards(state) == table
    for seat in range(state.n_players):
        assert _hero_cards(state, seat) == Counter(state.config.build_pools[state.classes[seat]])
        assert 0 <= state.hp[seat] <= state.max_hp(seat)
        assert state.alive[seat] == (state.hp[seat] > 0)
        assert 0 <= state.decks[seat].face_up <= len(state.decks[seat].cards)
    assert 1 <= state.level <= 4
    assert not state.is_terminal() or state.end_reason()
    if not state.is_terminal():
        assert 0 <= state.current_player < state.n_players and state.legal_actions()
        assert state.alive[state.current_player]


@pytest.mark.parametrize("agent", ["random", "heuristic"])
def test_cards_are_conserved_hp_stays_in_bounds_and_the_level_is_one_to_four(agent: str) -> None:
    endings: Counter[str] = Counter()
    for seed in range(24):
        n_players = 1 + seed % 8
        table = _expected_table(GAME.new_state(DEFAULT, n_players, seed))
        state, _ = gamekit.play_checked(GAME, DEFAULT, n_players, seed, partial(_check, table=table), (agent,))
        endings[state.end_reason()] += 1
    assert sum(endings.values()) == 24


def test_every_optional_mode_keeps_the_invariants_to_a_legal_end() -> None:
    modes: list[dict[str, Any]] = [
        {"rules.nemesis": True}, {"rules.hard_mode": True}, {"rules.heal_between_turns": "none"},
        {"rules.party_mode": True, "rules.max_turns": 30}, {"rules.hardcore": True}, {"rules.longer_game": True},
        {"rules.social": "reward"},
    ]
    for overrides in modes:
        config = configured(overrides)
        for seed in range(4):
            n_players = 1 + seed * 2
            table = _expected_table(GAME.new_state(config, n_players, seed))
            checked = gamekit.check_every_step(GAME, config, n_players, [seed], partial(_check, table=table),
                                               ("heuristic",))
            assert checked > 1
