"""Hand-made Theseus positions and moves by card name, shared by the rule tests.

A position starts from ``TheseusState.new_game`` (which makes one instance
per physical card) and then has its places set by card name: Parties, Hands,
Rewards, the Board (and which Board cards carry a Bonus), the top of each
Rank deck (``deck_tops``, top card first). Every card not named goes to the
bottom of its Rank deck if that Rank is still to come (``rest="decks"``),
otherwise (and for the Ranks in ``only_tops``, whose decks are exactly
their ``deck_tops``) to the exile pile; starting cards not named are exiled. So each
card is in exactly one place, as in a real game.

Moves are played through ``legal_actions``/``apply`` only: the helpers turn
card names into the action the rules expect and check that it is legal.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from simcore.games.theseus import GAME
from simcore.games.theseus.rules import (
    ALT_EXPLORE,
    END_TURN,
    EXILE,
    EXPLORE,
    ICON_NAMES,
    LAST_RANK,
    MAIN,
    PARTY_AREA,
    PILLAGE_STRIDE,
    RECRUIT,
    SUBJUGATE,
    TheseusConfig,
    TheseusState,
)
from simcore.parameters import apply_overrides

DEFAULT = GAME.configure(GAME.default_parameters())
STARTERS = ("knight", "mage", "rogue")


def configured(overrides: dict[str, Any]) -> TheseusConfig:
    """The default parameters with dotted-path overrides, compiled."""
    return GAME.configure(apply_overrides(GAME.default_parameters(), overrides))


def card(name: str, config: TheseusConfig = DEFAULT) -> int:
    """The card type of ``name``."""
    return config.names.index(name)


def rank_of(name: str, config: TheseusConfig = DEFAULT) -> int:
    """The Rank printed on ``name``."""
    return config.ranks[card(name, config)]


def vp_of(name: str, config: TheseusConfig = DEFAULT) -> int:
    """The VP printed on ``name``."""
    return config.vps[card(name, config)]


def icon_of(name: str, config: TheseusConfig = DEFAULT) -> str:
    """The Icon Ability of ``name``."""
    return ICON_NAMES[config.icons[card(name, config)]]


def names(state: TheseusState, instances: Iterable[int]) -> list[str]:
    """Card names of ``instances``, in order."""
    return [state.config.names[state.card_of[instance]] for instance in instances]


def build(
    *,
    n_players: int = 2,
    parties: Sequence[Sequence[str]] | None = None,
    hands: Sequence[Sequence[str]] | None = None,
    rewards: Sequence[Sequence[str]] | None = None,
    board: Sequence[str] = (),
    bonus_on: Sequence[str] = (),
    deck_tops: Mapping[int, Sequence[str]] | None = None,
    rest: str = "decks",
    only_tops: Sequence[int] = (),
    rank: int = 1,
    bonuses: Sequence[int] | None = None,
    active: int = 0,
    ending: bool = False,
    config: TheseusConfig = DEFAULT,
    events: list[dict[str, Any]] | None = None,
) -> TheseusState:
    """A hand-made position (see the module docstring); ``active`` is to act in MAIN."""
    state = TheseusState.new_game(config, n_players, 7, None if events is None else events.append)
    free: dict[int, list[int]] = {}
    for instance, card_type in enumerate(state.card_of):
        free.setdefault(card_type, []).append(instance)

    def take(name: str) -> int:
        pile = free.get(card(name, config), [])
        assert pile, f"no copy of {name} left to place"
        return pile.pop(0)

    empty: list[list[str]] = [[] for _ in range(n_players)]
    default_parties = [list(STARTERS) for _ in range(n_players)]
    state.parties = [[take(name) for name in seat] for seat in (parties or default_parties)]
    state.hands = [[take(name) for name in seat] for seat in (hands or empty)]
    state.rewards = [[take(name) for name in seat] for seat in (rewards or empty)]
    state.board = [take(name) for name in board]
    state.has_bonus = [False] * len(state.card_of)
    for name in bonus_on:
        instance = next(i for i in state.board if names(state, [i])[0] == name and not state.has_bonus[i])
        state.has_bonus[instance] = True
    tops = deck_tops or {}
    state.decks = [[] for _ in range(LAST_RANK + 1)]
    for deck_rank, top_first in tops.items():
        state.decks[deck_rank] = [take(name) for name in reversed(top_first)]  # the top is the end of the list
    state.exiled = []
    for card_type in sorted(free):
        for instance in free[card_type]:
            card_rank = config.ranks[card_type]
            to_deck = rest == "decks" and card_rank >= rank and card_rank > 0 and card_rank not in only_tops
            if to_deck:
                state.decks[card_rank].insert(0, instance)
            else:
                state.exiled.append(instance)
    state.rank = rank
    state.bonuses = list(bonuses) if bonuses is not None else [0] * n_players
    state.active = active
    state.current_player = active
    state.phase = MAIN
    state.ending = ending
    if events is not None:
        events.clear()
    return state


def act(state: TheseusState, action: int) -> None:
    """Apply ``action`` for the current player after checking it is legal."""
    legal = list(state.legal_actions())
    assert action in legal, (action, legal, state.phase)
    state.apply(action)


def party_position(state: TheseusState, name: str, seat: int | None = None) -> int:
    """Where the first ``name`` is in the Party of ``seat`` (default: the active seat)."""
    party = state.parties[state.active if seat is None else seat]
    return names(state, party).index(name)


def use(state: TheseusState, name: str) -> None:
    """The active player uses the Party card ``name``."""
    assert state.phase == MAIN
    act(state, party_position(state, name))


def without_card(state: TheseusState, ability: str) -> None:
    """The active player performs ``ability`` without using a card."""
    assert state.phase == MAIN
    act(state, ALT_EXPLORE + ICON_NAMES.index(ability))


def end_turn(state: TheseusState) -> None:
    """The active player ends the turn."""
    assert state.phase == MAIN
    act(state, END_TURN)


def explore(state: TheseusState, name: str) -> None:
    """Choose ``name`` on the Board for the pending Explore."""
    assert state.phase == EXPLORE
    act(state, names(state, state.board).index(name))


def recruit(state: TheseusState, name: str) -> None:
    """Choose ``name`` in the Hand for the pending Recruit."""
    assert state.phase == RECRUIT
    act(state, names(state, state.hands[state.active]).index(name))


def subjugate(state: TheseusState, name: str) -> None:
    """Choose ``name`` in the Hand for the pending Subjugate."""
    assert state.phase == SUBJUGATE
    act(state, names(state, state.hands[state.active]).index(name))


def exile(state: TheseusState, name: str) -> None:
    """The player who must exile chooses ``name`` from the area named by the obligation."""
    assert state.phase == EXILE
    seat = state.current_player
    area = state.parties[seat] if state.exile_areas[-1] == PARTY_AREA else state.hands[seat]
    act(state, names(state, area).index(name))


def pillage(state: TheseusState, victim: int, name: str) -> None:
    """Take ``name`` from ``victim``'s Reward for the pending pillage."""
    act(state, victim * PILLAGE_STRIDE + names(state, state.rewards[victim]).index(name))


def party(state: TheseusState, seat: int) -> list[str]:
    """The Party of ``seat`` by name, in order."""
    return names(state, state.parties[seat])


def hand(state: TheseusState, seat: int) -> list[str]:
    """The Hand of ``seat`` by name, in order."""
    return names(state, state.hands[seat])


def reward(state: TheseusState, seat: int) -> list[str]:
    """The Reward of ``seat`` by name, in order."""
    return names(state, state.rewards[seat])


def board(state: TheseusState) -> list[str]:
    """The Board by name, in order."""
    return names(state, state.board)


def bonus_cards(state: TheseusState) -> list[str]:
    """Board cards carrying a Bonus."""
    return [name for name, instance in zip(board(state), state.board, strict=True) if state.has_bonus[instance]]


def places(state: TheseusState) -> Counter[int]:
    """Every card instance, counted once per place it occupies."""
    cards = [*state.board, *state.exiled]
    for deck in state.decks:
        cards += deck
    for seat in range(state.n_players):
        cards += state.parties[seat] + state.hands[seat] + state.rewards[seat]
    return Counter(cards)


def every_card_once(state: TheseusState) -> bool:
    """True when each instance is in exactly one place."""
    return places(state) == Counter(range(len(state.card_of)))


def finish(state: TheseusState) -> None:
    """End the current turn of a position built with ``ending=True``: the game is over."""
    end_turn(state)
    assert state.is_terminal()
