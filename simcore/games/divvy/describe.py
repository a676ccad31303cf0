"""Divvy the Loot as a designer reads it (see ``simcore.describe``): the
zones through the kit's one loop (``simcore.kit.view.describe_zones``), the
numbers and the choice waiting face down as facts."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from simcore.describe import CardFace, SeatView, StateView, card_name, copies_of, facts
from simcore.games.divvy.rules import (
    BATTLE_RECORD,
    BRAWL,
    BRAWL_RESULT,
    COINS,
    DRAW_PILE,
    HAND_MASK,
    HAND_POSITION,
    LEAD,
    OVER,
    PHASE_NAMES,
    RESHUFFLED,
    ROUND,
    SIMULTANEOUS_PHASES,
    STRENGTH,
    DivvyState,
    split_by_mask,
)
from simcore.kit.view import describe_zones

ALWAYS_SHOWN = ("won treasure",)
"""Seat zones listed even when empty (the others only while they hold cards)."""


def _waiting_choice(state: DivvyState, seat: int) -> list[int]:
    """The cards of ``seat``'s simultaneous choice that waits for the other seat's (none if no choice waits)."""
    choice = state.decisions.committed[seat]
    if choice < 0 or state.phase not in SIMULTANEOUS_PHASES:
        return []
    hand = state.hand(seat)
    if state.phase in (LEAD, BRAWL):
        return [hand[HAND_POSITION.value(choice)]]
    return split_by_mask(hand, HAND_MASK.value(choice))[0]


def describe_state(state: DivvyState) -> StateView:
    """Each seat's hand, its fighters and face-down bid, its won treasure and
    coins; the treasure row, the discard pile and the draw pile (face down)."""
    config = state.config
    names = config.names
    seat_zones, hands, table = describe_zones(state, names)
    seats = []
    for seat in (0, 1):
        zones = tuple(zone for zone in seat_zones[seat] if zone.cards or zone.name in ALWAYS_SHOWN)
        seat_facts: list[tuple[str, object]] = [("coins", state.seat_number(seat, COINS))]
        if state.seat_number(seat, STRENGTH):
            seat_facts.append(("Fighter Strength", state.seat_number(seat, STRENGTH)))
        if state.seat_number(seat, BATTLE_RECORD) >= 0:
            seat_facts.append(("brawl card this round", names[state.seat_number(seat, BATTLE_RECORD)]))
        if state.decisions.committed[seat] >= 0 and state.phase != OVER:
            waiting = ", ".join(names[card] for card in _waiting_choice(state, seat)) or "nothing"
            seat_facts.append((f"chosen to {PHASE_NAMES[state.phase]}, face down until the other seat chooses",
                               waiting))
        seats.append(SeatView(seat, "", hands[seat], zones, facts(*seat_facts)))
    winner = state.numbers[BRAWL_RESULT]
    brawl = {-1: "none yet" if state.seat_number(0, BATTLE_RECORD) < 0 else "tie"}.get(winner, f"won by seat {winner}")
    table_facts = [("round", f"{state.numbers[ROUND]} of {config.rounds}"),
                   ("draw pile", f"{len(state.zones[DRAW_PILE].cards)} cards"),
                   ("discard pile reshuffled", "yes" if state.numbers[RESHUFFLED] else "no"), ("brawl", brawl)]
    if state.phase == OVER:
        table_facts.append(("ended by", state.ended_by))
    return StateView(
        phase=PHASE_NAMES[state.phase], to_act=state.current_player, turns=state.turns(), seats=tuple(seats),
        table=tuple(table), table_facts=facts(*table_facts))


def card_face(card: str, data: Mapping[str, Any]) -> CardFace:
    """A Divvy card: a fighter (suit, value, battle icon) and a treasure (d20 number, coin)."""
    return CardFace(card, card_name(card), f"{data.get('suit')} {data.get('value')}, {data.get('icon')} icon",
                    f"as treasure: d20 {data.get('d20')}, {data.get('coin')} coin", copies_of(data))
