"""A game state as a designer reads it: each seat's hand and board, and the table.

Every game package has a ``describe.py`` whose ``describe_state(state)``
returns a ``StateView``; the game object exposes it as
``game.describe_state(state)`` and ``simcore.describe.describe_state(game,
state)`` calls it for any registered game, so a caller (the dashboard's
Replay page, a notebook) needs no per-game code.

A view is omniscient: it names every card in a hand or in play, hidden ones
included (every seat's hand, face-down bids, face-down lands); draw piles are
given as sizes. Zones that some seat could not see in the real game carry
``hidden=True`` so a reader can tell. Cards are named as the game's card data names them (the
keys of ``cards.toml``), so a view can be compared with the state's own
contents through the card data.

Each ``describe.py`` also has ``card_face(card, data)``: one card of the card data as
its printed face would read (``CardFace``: name, what it is, what it does,
copies), for the dashboard's card pages; ``simcore.registry.card_faces``
calls it for any registered game.

This module and the ``describe.py`` files are not compiled (they are not on
the hot path): they read attributes of the compiled states, which interpreted
code may do.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from simcore.api import Game, GameState


@dataclass(frozen=True)
class Zone:
    """A named group of cards (a board, a treasure row, a pile...), first card first."""

    name: str
    cards: tuple[str, ...]
    # Face down or in a hand: the other seats did not see these cards.
    hidden: bool = False


@dataclass(frozen=True)
class Fact:
    """One named number or word (coins, HP, position on the map...)."""

    name: str
    value: str


@dataclass(frozen=True)
class SeatView:
    """What one seat has: its hand, its cards in play, and its numbers."""

    seat: int
    title: str  # e.g. ``Fighter`` or ``Hell Raisers``; empty when the game has no factions
    hand: tuple[str, ...]
    zones: tuple[Zone, ...]
    facts: tuple[Fact, ...]


@dataclass(frozen=True)
class StateView:
    """The whole table at one moment."""

    phase: str
    to_act: int  # the seat to act, -1 once the game is over
    turns: int  # ``state.turns()``: turns completed, as the game counts them
    seats: tuple[SeatView, ...]
    table: tuple[Zone, ...]
    table_facts: tuple[Fact, ...]


@runtime_checkable
class DescribesState(Protocol):
    """A game object that can describe its states (every registered game)."""

    def describe_state(self, state: GameState) -> StateView:
        """``state`` as a designer reads it."""
        ...


def describe_state(game: Game, state: GameState) -> StateView:
    """``state`` of ``game`` as a designer reads it; TypeError for a game without ``describe_state``."""
    if not isinstance(game, DescribesState):
        raise TypeError(f"game {game.info.id!r} has no describe_state (see simcore/describe.py)")
    return game.describe_state(state)


def zone(name: str, names: tuple[str, ...], cards: Iterable[int], *, hidden: bool = False) -> Zone:
    """A zone of ``cards`` (card ids) named through ``names`` (the card data's names)."""
    return Zone(name, tuple(names[card] for card in cards), hidden)


def facts(*pairs: tuple[str, object]) -> tuple[Fact, ...]:
    """``Fact``s from (name, value) pairs, values as text."""
    return tuple(Fact(name, str(value)) for name, value in pairs)


@dataclass(frozen=True)
class CardFace:
    """One card as a designer reads its face: ``name`` (``Dagger of Biting``), what it is
    (``kind``: suit and value, rank and icon, class and action...), what it does (``text``:
    its effects and scoring in the card data's own words; empty for a card without any) and
    how many ``copies`` are in the game (None where the card data has no count)."""

    card: str
    """The card's key in the card data (``cards.<card>.*``), as results and tables name it."""
    name: str
    kind: str
    text: str
    copies: int | None


SMALL_WORDS = frozenset({"a", "an", "and", "at", "by", "for", "from", "in", "of", "on", "or", "the", "to", "with"})
"""Words a card name keeps in lower case inside it (``Sword of Slaying``)."""


def card_name(card: str) -> str:
    """A card's key as its printed name: ``dagger_of_biting`` -> ``Dagger of Biting``, ``axes_12`` -> ``Axes 12``."""
    words = card.replace("_", " ").split()
    return " ".join(word if position and word in SMALL_WORDS else word[:1].upper() + word[1:]
                    for position, word in enumerate(words))


def effects_text(effects: Sequence[Any]) -> str:
    """A card's list of effects (the kit's one effect syntax, ``"draw 2"``) as one phrase: ``draw 2, explore 1``."""
    return ", ".join(str(effect) for effect in effects)


def copies_of(data: Mapping[str, Any]) -> int | None:
    """The card data's ``copies`` of a card, None where it has none."""
    copies = data.get("copies")
    return copies if isinstance(copies, int) and not isinstance(copies, bool) else None
