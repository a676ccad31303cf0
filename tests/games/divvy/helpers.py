"""Hand-made Divvy positions and moves by card name, shared by the rule tests.

A position starts from ``DivvyState.new_game`` and is then laid out by
``arrange``: the hands, the treasure row (in reveal order: the last one is the most
recently revealed), the top of the draw pile (``draw_top``, top card first),
the discard pile and won treasure. Every card not named goes under the draw
pile (or to the discard pile with ``rest="discard"``), so each card of the
deck is in exactly one place, as in a real game.

Moves are played through ``legal_actions``/``apply`` only: the helpers turn
card names into the action the rules expect (a hand position or a bit mask)
and check that action is legal before applying it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

from simcore.games.divvy import GAME
from simcore.games.divvy.rules import (
    BATTLE_CARD,
    BATTLE_RECORD,
    BRAWL,
    BRAWL_RESULT,
    CHAFF_BID,
    COINS,
    DISCARD_PILE,
    DRAW_PILE,
    HAND,
    ICON_NAMES,
    LEAD,
    LEAD_FIGHTER,
    REINFORCEMENTS,
    REPLACE,
    RESHUFFLED,
    ROUND,
    STRENGTH,
    TREASURE_ROW,
    WON_TREASURE,
    DivvyConfig,
    DivvyState,
)
from simcore.kit.decisions import NO_CHOICE, Task
from simcore.parameters import apply_overrides

T = TypeVar("T")

DEFAULT = GAME.configure(GAME.default_parameters())

# The rulebook's coin values, written out here so that the tests compare the
# card data against the rulebook rather than against itself.
RULEBOOK_COINS = {"copper": 1, "silver": 2, "gold": 3}


def configured(overrides: dict[str, Any]) -> DivvyConfig:
    """The default parameters with dotted-path overrides, compiled."""
    return GAME.configure(apply_overrides(GAME.default_parameters(), overrides))


def card(name: str, config: DivvyConfig = DEFAULT) -> int:
    """The card id of ``name``."""
    return config.names.index(name)


def ids(names: Iterable[str], config: DivvyConfig = DEFAULT) -> list[int]:
    """Card ids of ``names``, in order."""
    return [card(name, config) for name in names]


def named(cards: Iterable[int], config: DivvyConfig = DEFAULT) -> list[str]:
    """Card names of ``cards``, in order."""
    return [config.names[card_id] for card_id in cards]


def icon(name: str, config: DivvyConfig = DEFAULT) -> str:
    """The battle icon of ``name`` (shield, sword or scroll)."""
    return ICON_NAMES[config.icons[card(name, config)]]


def suit(name: str, config: DivvyConfig = DEFAULT) -> str:
    """The suit of ``name``."""
    return config.suit_names[config.suits[card(name, config)]]


def value(name: str, config: DivvyConfig = DEFAULT) -> int:
    """The numbered value of ``name``."""
    return config.values[card(name, config)]


def d20(name: str, config: DivvyConfig = DEFAULT) -> int:
    """The d20 number of ``name``."""
    return config.d20[card(name, config)]


def coin(name: str, config: DivvyConfig = DEFAULT) -> int:
    """The coins ``name`` is worth as treasure."""
    return config.coins[card(name, config)]


def arrange(state: DivvyState, hands: Sequence[Sequence[int]], treasure_row: Sequence[int],
            draw_pile: Sequence[int], discard_pile: Sequence[int], won_treasure: Sequence[Sequence[int]],
            round_number: int, reshuffled: bool, leads: Sequence[int], kind: int, seat: int) -> None:
    """Lay out a hand-made position in ``state``: the cards of every zone (the
    draw pile's top is its last card; ``leads`` -1 for none), no bid, brawl
    card or reinforcement, coins from the won treasure, and ``kind``'s
    question asked of ``seat``. The caller keeps every card in one place."""
    for zone in state.zones:
        zone.take_all()
    state.zones[TREASURE_ROW].extend(list(treasure_row))
    state.zones[DRAW_PILE].extend(list(draw_pile))
    state.zones[DISCARD_PILE].extend(list(discard_pile))
    coins = state.config.coins
    for player in (0, 1):
        state.seat_zone(player, HAND).extend(list(hands[player]))
        state.seat_zone(player, WON_TREASURE).extend(list(won_treasure[player]))
        if leads[player] >= 0:
            state.seat_zone(player, LEAD_FIGHTER).add(leads[player])
        state.set_seat_number(player, COINS, sum(coins[card] for card in won_treasure[player]))
        state.set_seat_number(player, BATTLE_RECORD, -1)
        state.set_seat_number(player, STRENGTH, 0)
    state.numbers[ROUND] = round_number
    state.numbers[RESHUFFLED] = int(reshuffled)
    state.numbers[BRAWL_RESULT] = -1
    state.over = False
    state.ended_by = ""
    state.decisions.clear()
    state.perform(Task(kind, seat), NO_CHOICE)


def build(
    hands: tuple[Sequence[str], Sequence[str]],
    treasure: Sequence[str],
    *,
    draw_top: Sequence[str] = (),
    discard: Sequence[str] = (),
    won: tuple[Sequence[str], Sequence[str]] = ((), ()),
    rest: str = "draw",
    round_number: int = 1,
    reshuffled: bool = False,
    phase: int = LEAD,
    current_player: int = 0,
    config: DivvyConfig = DEFAULT,
    events: list[dict[str, Any]] | None = None,
) -> DivvyState:
    """A hand-made position (see the module docstring)."""
    state = DivvyState.new_game(config, 7, None if events is None else events.append)
    placed = [*hands[0], *hands[1], *treasure, *draw_top, *discard, *won[0], *won[1]]
    left = Counter(config.deck) - Counter(ids(placed, config))
    assert sum(left.values()) == len(config.deck) - len(placed), "a card is placed twice"
    rest_cards = [card_id for card_id in range(len(config.names)) for _ in range(left[card_id])]
    draw_pile = ids(reversed(draw_top), config)  # the top of the pile is the end of the list
    discard_pile = ids(discard, config)
    if rest == "draw":
        draw_pile[:0] = rest_cards
    else:
        assert rest == "discard"
        discard_pile.extend(rest_cards)
    arrange(state, hands=[ids(hands[0], config), ids(hands[1], config)], treasure_row=ids(treasure, config),
            draw_pile=draw_pile, discard_pile=discard_pile,
            won_treasure=[ids(won[0], config), ids(won[1], config)], round_number=round_number,
            reshuffled=reshuffled, leads=[-1, -1], kind=phase, seat=current_player)
    if events is not None:
        events.clear()
    return state


def act(state: DivvyState, action: int) -> None:
    """Apply ``action`` for the current player after checking it is legal."""
    assert action in state.legal_actions(), (action, list(state.legal_actions()))
    state.apply(action)


def position(state: DivvyState, seat: int, name: str) -> int:
    """Where ``name`` is in ``seat``'s hand."""
    return state.hand(seat).index(card(name, state.config))


def mask(state: DivvyState, seat: int, names: Iterable[str]) -> int:
    """The bit mask choosing ``names`` in ``seat``'s hand."""
    return sum(1 << position(state, seat, name) for name in names)


def choose_one(state: DivvyState, first: str, second: str) -> None:
    """Both seats pick one card (lead fighter or brawl card), seat 0 first."""
    assert state.current_player == 0
    act(state, position(state, 0, first))
    act(state, position(state, 1, second))


def choose_many(state: DivvyState, first: Sequence[str], second: Sequence[str]) -> None:
    """Both seats pick a set of cards (chaff bid or reinforcements), seat 0 first."""
    assert state.current_player == 0
    act(state, mask(state, 0, first))
    act(state, mask(state, 1, second))


def hand_names(state: DivvyState, seat: int) -> Counter[str]:
    """``seat``'s hand as a multiset of names (order does not matter to the rules)."""
    return Counter(named(state.hand(seat), state.config))


def both(read: Callable[[int], T]) -> list[T]:
    """``read`` for seat 0 and seat 1, e.g. ``both(state.hand)``, ``both(state.lead_card)``."""
    return [read(0), read(1)]


def seat_cards(state: DivvyState, which: int) -> list[list[int]]:
    """Both seats' cards in their zone ``which`` (``CHAFF_BID``, ``WON_TREASURE``...)."""
    return [state.seat_zone(0, which).cards, state.seat_zone(1, which).cards]


def seat_numbers(state: DivvyState, which: int) -> list[int]:
    """Both seats' number ``which`` (``BATTLE_RECORD``, ``STRENGTH``, ``COINS``)."""
    return [state.seat_number(0, which), state.seat_number(1, which)]


def locations(state: DivvyState) -> Counter[int]:
    """Every card in play, counted once per place it occupies.

    The brawl card zone is a place only while the brawl winner decides whether
    to replace its placed cards (the loser's battle card is back in its hand
    at once); ``BATTLE_RECORD`` keeps a face-up record of both for the rest of
    the round, which is no place.
    """
    cards = [*state.zones[DRAW_PILE].cards, *state.zones[DISCARD_PILE].cards, *state.zones[TREASURE_ROW].cards]
    for seat in (0, 1):
        for which in (HAND, CHAFF_BID, REINFORCEMENTS, WON_TREASURE, LEAD_FIGHTER):
            cards += state.seat_zone(seat, which).cards
    if state.phase == REPLACE:  # the winner's battle card is still on the table
        cards += state.seat_zone(state.current_player, BATTLE_CARD).cards
    return Counter(cards)


# A quick round used where only its end matters: seat 0 leads axes_12 against
# axes_6, both bid one card, both brawl with a scroll (a tie, so nobody draws
# and every placed card goes back to its hand) and nobody reinforces, so seat 0
# is the stronger fighter (12 against 6) and wins the treasure row.
PLAIN_HANDS = (
    ("axes_12", "axes_2", "blades_1", "bows_3", "staves_5"),
    ("axes_6", "blades_4", "bows_6", "staves_8", "staves_11"),
)
PLAIN_LEFTOVERS = (
    ("axes_2", "blades_1", "bows_3", "staves_5"),
    ("blades_4", "bows_6", "staves_8", "staves_11"),
)


def play_plain_round(state: DivvyState) -> None:
    """Play the quick round above from its LEAD step to its end."""
    config = state.config
    assert icon("blades_1", config) == icon("bows_6", config) == "scroll"
    assert value("axes_12", config) > value("axes_6", config)
    choose_one(state, "axes_12", "axes_6")
    choose_many(state, ["axes_2"], ["blades_4"])
    choose_one(state, "blades_1", "bows_6")
    choose_many(state, [], [])


# Seat 0 leads axes_12 and bids axes_1; seat 1 leads blades_12 and bids
# blades_1. The brawl cards are bows (seat 0) and staves (seat 1) of each icon.
BRAWL_HANDS = (
    ("axes_12", "axes_1", "bows_10", "bows_11", "bows_12"),
    ("blades_12", "blades_1", "staves_9", "staves_10", "staves_11"),
)
BY_ICON = (
    {"shield": "bows_10", "sword": "bows_11", "scroll": "bows_12"},
    {"shield": "staves_9", "sword": "staves_10", "scroll": "staves_11"},
)


def to_brawl(treasure: Sequence[str], draw_top: Sequence[str] = (), **options: Any) -> DivvyState:
    """A position at the brawl: ``BRAWL_HANDS`` led with the 12s and a 1 bid each, so seat 0
    holds a shield, a sword and a scroll in bows and seat 1 the same in staves (``BY_ICON``)."""
    for seat in (0, 1):
        for wanted, name in BY_ICON[seat].items():
            assert icon(name) == wanted
    state = build(BRAWL_HANDS, treasure, draw_top=draw_top, **options)
    choose_one(state, "axes_12", "blades_12")
    choose_many(state, ["axes_1"], ["blades_1"])
    assert state.phase == BRAWL
    return state
