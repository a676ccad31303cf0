"""The designer's view of a kit state, written once as loops over its zones.

``describe_zones`` turns a state's zones into ``simcore.describe.Zone``s:
each seat's zones (its ``hand`` zone apart, as ``SeatView.hand``) and the
table's. A zone is marked ``hidden`` when some seat could not see all of it in
the real game; a ``HIDDEN`` or ``FACE_UP_COUNT`` pile is listed face up and
face down separately, the face-down part as a hidden zone. ``describe_kit_state``
builds the whole ``StateView`` from them and the state's numbers.

Not compiled: it is not on the hot path.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from simcore.describe import Fact, SeatView, StateView, Zone, facts
from simcore.kit.state import KitState
from simcore.kit.zones import FACE_UP_COUNT, PUBLIC, TABLE
from simcore.kit.zones import Zone as CardZone

HAND_ZONE = "hand"
"""The name of the zone shown as a seat's hand."""


def zone_view(zone: CardZone, names: Sequence[str]) -> list[Zone]:
    """``zone`` as one view zone, or two (face up, face down) for a pile with a face-up part."""
    cards = tuple(names[card] for card in zone.cards)
    if zone.visibility == PUBLIC:
        return [Zone(zone.name, cards)]
    if zone.visibility == FACE_UP_COUNT:
        return [Zone(f"{zone.name}, face up", cards[:zone.face_up]),
                Zone(f"{zone.name}, face down", cards[zone.face_up:], hidden=True)]
    return [Zone(zone.name, cards, hidden=True)]


def describe_zones(state: KitState, names: Sequence[str]) -> tuple[list[list[Zone]], list[tuple[str, ...]], list[Zone]]:
    """(per seat: its zones but the hand; per seat: its hand; the table's zones)."""
    seat_zones: list[list[Zone]] = [[] for _ in range(state.n_players)]
    hands: list[tuple[str, ...]] = [() for _ in range(state.n_players)]
    table: list[Zone] = []
    for zone in state.zones:
        if zone.owner == TABLE:
            table.extend(zone_view(zone, names))
        elif zone.name == HAND_ZONE:
            hands[zone.owner] = tuple(names[card] for card in zone.cards)
        else:
            seat_zones[zone.owner].extend(zone_view(zone, names))
    return seat_zones, hands, table


def describe_kit_state(state: KitState, names: Sequence[str], phase: str, number_names: Sequence[str],
                       seat_number_names: Sequence[str], title: Callable[[int], str] = lambda seat: "",
                       extra_table_facts: Sequence[Fact] = ()) -> StateView:
    """The whole ``StateView``: zones through ``describe_zones``, numbers as facts by name."""
    seat_zones, hands, table = describe_zones(state, names)
    seats = []
    for seat in range(state.n_players):
        seat_facts = facts(*((name, state.seat_number(seat, index)) for index, name in enumerate(seat_number_names)))
        seats.append(SeatView(seat, title(seat), hands[seat], tuple(seat_zones[seat]), seat_facts))
    table_facts = facts(*zip(number_names, state.numbers, strict=True)) + tuple(extra_table_facts)
    if state.over:
        table_facts += facts(("ended by", state.ended_by))
    return StateView(phase=phase, to_act=state.current_player, turns=state.turns(), seats=tuple(seats),
                     table=tuple(table), table_facts=table_facts)
