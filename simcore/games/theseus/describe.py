"""Party of the Theseus as a designer reads it (see ``simcore.describe``): the
zones through the kit's one loop (``simcore.kit.view.describe_zones``), the
VP, Bonuses and Rank as facts."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from simcore.describe import CardFace, SeatView, StateView, card_name, copies_of, effects_text, facts
from simcore.games.theseus.rules import (
    ACTIVE,
    BONUS_MASK,
    BONUSES,
    LAST_RANK,
    PHASE_NAMES,
    RANK,
    USED_MASK,
    TheseusState,
)
from simcore.kit.view import describe_zones


def describe_state(state: TheseusState) -> StateView:
    """Each seat's Hand, Party, Reward, VP so far and Bonuses; the Board (a
    Bonus on a card is marked), the Rank decks and the exile pile."""
    names = [state.config.names[card] for card in state.card_of]  # per instance
    seat_zones, hands, table = describe_zones(state, names)
    numbers = state.numbers
    seats = []
    for seat in range(state.n_players):
        printed, effects, bonus_vp = state.score_parts(seat)
        seat_facts = [("VP", f"{printed + effects + bonus_vp} ({printed} printed, {effects} effects, "
                             f"{bonus_vp} Bonuses)"), ("Bonuses", state.seat_number(seat, BONUSES))]
        if seat == numbers[ACTIVE] and not state.over:
            used = [names[instance] for position, instance in enumerate(state.party(seat))
                    if numbers[USED_MASK] >> position & 1]
            seat_facts.append(("cards used this turn", ", ".join(used) or "none"))
        seats.append(SeatView(seat, "", hands[seat], tuple(seat_zones[seat]), facts(*seat_facts)))
    with_bonus = [names[instance] for position, instance in enumerate(state.board())
                  if numbers[BONUS_MASK] >> position & 1]
    deck_sizes = ", ".join(f"R{rank} {len(state.zones[rank])}" for rank in range(1, LAST_RANK + 1))
    table_facts = [("Rank", numbers[RANK]), ("active seat", numbers[ACTIVE]), ("Rank decks", deck_sizes),
                   ("Bonuses on the Board", ", ".join(with_bonus) or "none")]
    if state.over:
        table_facts.append(("ended by", state.ended_by))
    return StateView(phase=PHASE_NAMES[state.asked_kind()], to_act=state.current_player, turns=state.turns(),
                     seats=tuple(seats), table=tuple(table), table_facts=facts(*table_facts))


END_AREAS = {"party": "in the Party", "hand": "in the Hand", "reward": "in the Reward", "any": "anywhere"}
"""Where a card's end effect counts (``end_area``), in words."""


def card_face(card: str, data: Mapping[str, Any]) -> CardFace:
    """A Theseus card: its Rank, Icon Ability and printed VP; its effect when used and its
    scoring at the end (with where the card must be for it to count)."""
    rank = data.get("rank")
    kind = (f"starting card, {data.get('icon')} icon" if rank == 0
            else f"Rank {rank}, {data.get('icon')} icon, {data.get('vp')} VP")
    parts = []
    if data.get("use"):
        parts.append(f"use: {effects_text(data['use'])}")
    if data.get("end"):
        area = END_AREAS.get(str(data.get("end_area")), str(data.get("end_area")))
        parts.append(f"end: {effects_text(data['end'])} ({area})")
    return CardFace(card, card_name(card), kind, "; ".join(parts), copies_of(data))
