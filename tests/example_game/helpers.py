"""Hand-made Orchard positions by card name, shared by the rule tests.

``build`` starts from ``OrchardState.new_game`` and then sets the zones:
the hands, the market, the top of the draw pile (``draw_top``, top card
first), the discard pile and the orchards. Every card not named goes under
the draw pile, so each card of the deck is in exactly one zone, as in a real
game. The seat to act is then asked its turn afresh. Moves go through
``legal_actions``/``apply`` only (``act`` checks legality first).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from simcore.kit.decisions import Decisions, Task
from simcore.parameters import apply_overrides
from tests.example_game import GAME
from tests.example_game.rules import (
    DISCARD_PILE,
    DRAW_PILE,
    MARKET,
    ROUND,
    SCORE,
    TURN,
    OrchardConfig,
    OrchardState,
)

DEFAULT = GAME.configure(GAME.default_parameters())


def configured(overrides: dict[str, Any]) -> OrchardConfig:
    """The default parameters with dotted-path overrides, compiled."""
    return GAME.configure(apply_overrides(GAME.default_parameters(), overrides))


def card(name: str, config: OrchardConfig = DEFAULT) -> int:
    """The card id of ``name``."""
    return config.names.index(name)


def ids(names: Iterable[str], config: OrchardConfig = DEFAULT) -> list[int]:
    """Card ids of ``names``, in order."""
    return [card(name, config) for name in names]


def named(cards: Iterable[int], config: OrchardConfig = DEFAULT) -> list[str]:
    """Card names of ``cards``, in order."""
    return [config.names[card_id] for card_id in cards]


def build(
    hands: Sequence[Sequence[str]],
    *,
    market: Sequence[str] = (),
    draw_top: Sequence[str] = (),
    discard: Sequence[str] = (),
    orchards: Sequence[Sequence[str]] | None = None,
    rest: bool = True,
    to_act: int = 0,
    rounds_done: int = 0,
    config: OrchardConfig = DEFAULT,
    events: list[dict[str, Any]] | None = None,
) -> OrchardState:
    """A hand-made position (see the module docstring); ``rest=False`` leaves
    the unnamed cards out of the game (an empty draw pile stays empty)."""
    n_players = len(hands)
    state = OrchardState.new_game(config, n_players, 7, None if events is None else events.append)
    orchards = orchards if orchards is not None else [[] for _ in range(n_players)]
    placed = [*(name for hand in hands for name in hand), *market, *draw_top, *discard,
              *(name for orchard in orchards for name in orchard)]
    left = Counter(config.deck) - Counter(ids(placed, config))
    assert sum(left.values()) == len(config.deck) - len(placed), "a card is placed twice"
    for zone in state.zones:
        zone.take_all()
    if rest:
        state.zones[DRAW_PILE].extend([card_id for card_id in sorted(left.elements())])
    state.zones[DRAW_PILE].extend(ids(reversed(draw_top), config))
    state.zones[MARKET].extend(ids(market, config))
    state.zones[DISCARD_PILE].extend(ids(discard, config))
    for seat in range(n_players):
        state.hand(seat).extend(ids(hands[seat], config))
        state.orchard(seat).extend(ids(orchards[seat], config))
        state.set_seat_number(seat, SCORE, sum(config.values[c] for c in state.orchard(seat).cards))
    state.numbers[ROUND] = rounds_done
    state.decisions = Decisions()
    state.push(Task(TURN, to_act))
    state.run()
    if events is not None:
        events.clear()
    return state


def act(state: OrchardState, action: int) -> None:
    """Apply ``action`` for the seat to act after checking it is legal."""
    assert action in state.legal_actions(), (action, list(state.legal_actions()))
    state.apply(action)


def position(state: OrchardState, seat: int, name: str) -> int:
    """Where ``name`` is in ``seat``'s hand."""
    return state.hand(seat).cards.index(card(name, state.config))


def market_position(state: OrchardState, name: str) -> int:
    """Where ``name`` is in the market."""
    return state.zones[MARKET].cards.index(card(name, state.config))


def hand_names(state: OrchardState, seat: int) -> list[str]:
    """``seat``'s hand by name, in order."""
    return named(state.hand(seat).cards, state.config)


def zone_names(state: OrchardState, zone: int) -> list[str]:
    """A table zone's cards by name, bottom first."""
    return named(state.zones[zone].cards, state.config)


def locations(state: OrchardState) -> Counter[int]:
    """Every card of the game, counted once per zone it is in."""
    return Counter(card_id for zone in state.zones for card_id in zone.cards)
