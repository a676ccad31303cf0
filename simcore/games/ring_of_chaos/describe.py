"""Ring of Chaos as a designer reads it (see ``simcore.describe``)."""

from __future__ import annotations

from simcore.describe import Fact, SeatView, StateView, Zone, facts, zone
from simcore.games.ring_of_chaos import rules
from simcore.games.ring_of_chaos.config import CARD_NAMES, CLASS_NAMES
from simcore.games.ring_of_chaos.rules import STATUS_NAMES, RingState

# The question being asked, from the task kinds' names (``K_MAIN`` -> ``main``).
TASK_NAMES = {value: name[2:].lower() for name, value in vars(rules).items()
              if name.startswith("K_") and isinstance(value, int)}


def describe_state(state: RingState) -> StateView:
    """Each party's hand, Heroes (full strength, wounded, dead), space on the
    map, Summoning Points and Imprison cards; the Ring, the discard pile, the
    cards in limbo and in the Tithe pool, and the draw pile's size."""
    seats = []
    for seat in range(state.n_players):
        heroes = ", ".join(f"{CLASS_NAMES[hero]} {STATUS_NAMES[status]}"
                           for hero, status in enumerate(state.heroes[seat]))
        seat_facts = [("Summoning Points", state.points[seat]),
                      ("space", state.position[seat] if state.position[seat] >= 0 else "not on the map yet"),
                      ("Heroes", heroes if state.alive[seat] else "eliminated")]
        if state.ring_holder == seat:
            seat_facts.append(("Ring of Chaos", "wears it"))
        zones: list[Zone] = []
        if state.imprisoned[seat]:
            zones.append(zone("imprisoned by", CARD_NAMES, state.imprisoned[seat]))
        seats.append(SeatView(seat, state.party_name(seat) or "", tuple(CARD_NAMES[card] for card in state.hands[seat]),
                              tuple(zones), facts(*seat_facts)))
    ring = (f"worn by seat {state.ring_holder}" if state.ring_holder >= 0
            else "on the Chaos Altar" if state.ring_space == state.config.board.altar
            else f"on space {state.ring_space}")
    table_facts = list(facts(
        ("map", state.config.board.name), ("Ring of Chaos", ring), ("active seat", state.active),
        ("actions used", ", ".join(name for name, used in (("move", state.used_move), ("attack", state.used_attack),
                                                          ("bonus", state.used_bonus)) if used) or "none"),
        ("draw pile", f"{len(state.draw_pile)} cards")))
    kind, _, offer_a, offer_b, _ = state.asked
    if kind == rules.K_DRAFT and not state.over and offer_a >= 0:
        names = state.config.party_names
        table_facts.append(Fact("draft offer", f"{names[offer_a]} or {names[offer_b]}"))
    if state.over:
        table_facts.append(Fact("ended by", state.ended_by))
    table = [zone("discard pile", CARD_NAMES, state.discard_pile)]
    if state.limbo:
        table.append(zone("in play", CARD_NAMES, state.limbo))
    if state.tithe_pool:
        table.append(zone("Tithe pool", CARD_NAMES, state.tithe_pool))
    phase = "over" if state.over else TASK_NAMES.get(state.asked[0], "rules")
    return StateView(phase=phase, to_act=state.current_player, turns=state.turns(), seats=tuple(seats),
                     table=tuple(table), table_facts=tuple(table_facts))
