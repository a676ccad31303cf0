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
from simcore.games.party_wanted.rules import ADD, ADD_SKILL_CARD, LEVEL, PartyState
from tests import gamekit

from .helpers import DEFAULT, classes, configured, deck, hero_cards


def _expected_cards(state: PartyState) -> Counter[int]:
    """Every card of the game: the lands, monsters, bosses, treasures and
    encounters of the boxes in play and each hero's Build Pool."""
    config = state.config
    wanted = (LAND, MONSTER, BOSS, TREASURE, ENCOUNTER)
    cards = Counter(card for card in range(len(config.names)) if config.kinds[card] in wanted
                    and config.sets[card] in {"base", "minotaur", "druid", "bard", "necromancer"}
                    for _ in range(config.copies[card]))
    for cls in classes(state):
        cards.update(config.decks.build_pools[cls])
    return cards


def _check(state: GameState, cards: Counter[int]) -> None:
    """Every invariant of a position: ``cards`` are the game's cards."""
    assert isinstance(state, PartyState)
    assert Counter(card for zone in state.zones for card in zone.cards) == cards  # each card in one zone
    for seat in range(state.n_players):
        assert hero_cards(state, seat) == Counter(state.config.decks.build_pools[classes(state)[seat]])
        assert 0 <= state.hp(seat) <= state.max_hp(seat)
        assert state.alive(seat) == (state.hp(seat) > 0)
        assert 0 <= deck(state, seat).face_up <= len(deck(state, seat).cards)
    assert 1 <= state.numbers[LEVEL] <= 4
    assert not state.is_terminal() or state.end_reason()
    if not state.is_terminal():
        assert state.decisions.waiting, "a game not over waits for an answer"
        assert 0 <= state.current_player < state.n_players and state.legal_actions()
        # Only the living are asked, but a dead hero's level-up Add ("each Hero ... picks a Class or
        # Utility card", rules.dead_heroes_level_up).
        asked = state.decisions.asked
        dead_heros_add = asked.kind == ADD and asked.a == ADD_SKILL_CARD and state.config.dead_heroes_level_up
        assert state.alive(state.current_player) or dead_heros_add


@pytest.mark.parametrize("agent", ["random", "heuristic"])
def test_cards_are_conserved_hp_stays_in_bounds_and_the_level_is_one_to_four(agent: str) -> None:
    endings: Counter[str] = Counter()
    for seed in range(24):
        n_players = 1 + seed % 8
        cards = _expected_cards(GAME.new_state(DEFAULT, n_players, seed))
        state, _ = gamekit.play_checked(GAME, DEFAULT, n_players, seed, partial(_check, cards=cards), (agent,))
        endings[state.end_reason()] += 1
    assert sum(endings.values()) == 24


def test_every_optional_mode_keeps_the_invariants_to_a_legal_end() -> None:
    modes: list[dict[str, Any]] = [
        {"rules.nemesis": True}, {"rules.hard_mode": True}, {"rules.heal_between_turns": "none"},
        {"rules.party_mode": True, "rules.max_turns": 30}, {"rules.hardcore": True}, {"rules.longer_game": True},
        {"rules.social": "reward"}, {"rules.multipliers": "party"},
        {"rules.dead_heroes_level_up": False, "rules.heal_between_turns": "none"},
    ]
    for overrides in modes:
        config = configured(overrides)
        for seed in range(4):
            n_players = 1 + seed * 2
            cards = _expected_cards(GAME.new_state(config, n_players, seed))
            checked = gamekit.check_every_step(GAME, config, n_players, [seed], partial(_check, cards=cards),
                                               ("heuristic",))
            assert checked > 1
