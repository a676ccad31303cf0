"""Hand-made Party Wanted positions, shared by the rule tests.

A position starts from ``PartyState.new_game`` with a fixed composition
(``rules.composition``) and then has its fields set: hands, Hero Decks, HP,
enemies. Moves go through ``legal_actions``/``apply`` only; the helpers turn
card names into the action integers the rules expect.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from simcore.games.party_wanted import GAME
from simcore.games.party_wanted.rules import (
    ATTACK_SLOT,
    BURY_BONUS,
    DONE,
    ENEMY_BOSS,
    ENEMY_MINI_BOSS,
    ENEMY_MONSTER,
    PLAN,
    PLAY,
    SACRIFICE,
    SLOTS,
    USE,
    PartyConfig,
    PartyState,
    Pile,
)
from simcore.parameters import apply_overrides

DEFAULT: PartyConfig = GAME.configure(GAME.default_parameters())
BASE_FOUR = "fighter,wizard,healer,rogue"


def configured(overrides: dict[str, Any]) -> PartyConfig:
    """The default configuration with dotted-path ``overrides``."""
    return GAME.configure(apply_overrides(GAME.default_parameters(), overrides))


def cid(name: str, config: PartyConfig = DEFAULT) -> int:
    """The card id of ``name``."""
    return config.names.index(name)


def ids(names: Iterable[str], config: PartyConfig = DEFAULT) -> list[int]:
    """Card ids of ``names``, in order."""
    return [cid(name, config) for name in names]


def named(cards: Iterable[int], config: PartyConfig = DEFAULT) -> list[str]:
    """Card names of ``cards``, in order."""
    return [config.names[card] for card in cards]


def party(
    composition: str = BASE_FOUR,
    seed: int = 3,
    overrides: dict[str, Any] | None = None,
    events: list[dict[str, Any]] | None = None,
) -> PartyState:
    """A new game with the heroes of ``composition`` in seat order."""
    config = configured({"rules.composition": composition, **(overrides or {})})
    n_players = len(composition.split(","))
    return PartyState.new_game(config, n_players, seed, None if events is None else events.append)


def set_hand(state: PartyState, seat: int, names: Sequence[str]) -> None:
    """Give ``seat`` exactly the cards ``names``."""
    state.hands[seat] = ids(names, state.config)


def set_deck(state: PartyState, seat: int, top_first: Sequence[str]) -> None:
    """``seat``'s Hero Deck, face down, top card first."""
    state.decks[seat] = Pile(ids(reversed(top_first), state.config))


def fight(state: PartyState, enemies: Sequence[str], kinds: Sequence[int] | None = None) -> None:
    """Start a combat against ``enemies`` now and run to the first plan
    (seat 0 holds the Turn Counter, so it plans first)."""
    config = state.config
    state.holder = 0
    cards = ids(enemies, config)
    if kinds is None:
        kinds = [ENEMY_BOSS if config.kinds[c] == 9 else ENEMY_MONSTER for c in cards]
    state.tasks = []
    state._start_combat(cards, list(kinds))
    state._run()


def set_enemy(state: PartyState, enemy: int, attack: int, defense: int, speed: int, hp: int) -> None:
    """Overwrite an enemy's stats for this combat."""
    state.enemy_stats[enemy] = (attack, defense, speed, hp)
    state.enemy_hp[enemy] = hp


def act(state: PartyState, action: int) -> None:
    """Apply ``action`` after checking that it is legal."""
    assert action in state.legal_actions(), (state.describe_action(action), state.phase)
    state.apply(action)


def position(state: PartyState, seat: int, name: str) -> int:
    """The first position of ``name`` in ``seat``'s hand."""
    return state.hands[seat].index(cid(name, state.config))


def target(hero: int = 0, enemy: int = 0) -> int:
    """The target of a play, use or sacrifice: the hero it aims at and the
    enemy it is designated to (0 where the card aims at none)."""
    return hero * SLOTS + enemy


def play(state: PartyState, name: str, hero: int = 0, enemy: int = 0) -> None:
    """The current planner plays ``name`` (aimed at ``hero``, designated to ``enemy``)."""
    seat = state.current_player
    act(state, PLAY << 16 | position(state, seat, name) << 8 | target(hero, enemy))


def bury_for(state: PartyState, name: str, hero: int, attack: bool = False, enemy: int = 0) -> None:
    """The current planner buries ``name`` for +1 defense (or +1 attack) to
    ``hero`` against ``enemy``."""
    seat = state.current_player
    slot = (ATTACK_SLOT if attack else 0) + enemy
    act(state, BURY_BONUS << 16 | position(state, seat, name) << 8 | hero * SLOTS + slot)


def use_item(state: PartyState, index: int, hero: int = 0, enemy: int = 0) -> None:
    """The current planner uses its held single-use item ``index``."""
    act(state, USE << 16 | index << 8 | target(hero, enemy))


def sacrifice(state: PartyState, which: int, hero: int = 0, enemy: int = 0) -> None:
    """The current planner sacrifices its weapon (0), armor (1) or minion k (2 + k)."""
    act(state, SACRIFICE << 16 | which << 8 | target(hero, enemy))


def done(state: PartyState) -> None:
    """The current planner is done."""
    act(state, DONE)


def finish_planning(state: PartyState) -> None:
    """Every remaining planner of this round is done: the round executes."""
    round_number = state.combat_round
    while state.phase == PLAN and state.combat_round == round_number and state.in_combat:
        state.apply(DONE)


def hero_cards(state: PartyState, seat: int) -> Counter[int]:
    """Every hero card ``seat`` owns, wherever it is."""
    cards = state.hands[seat] + state.decks[seat].cards + state.pools[seat] + state.in_play[seat] + state.aside[seat]
    cards += state.minions[seat] + [card for card in (state.weapons[seat], state.armors[seat]) if card >= 0]
    return Counter(cards)


__all__ = [
    "BASE_FOUR", "DEFAULT", "ENEMY_BOSS", "ENEMY_MINI_BOSS", "ENEMY_MONSTER", "act", "bury_for", "cid", "configured",
    "done", "fight", "finish_planning", "hero_cards", "ids", "named", "party", "play", "position", "sacrifice",
    "set_deck", "set_enemy", "set_hand", "target", "use_item",
]
