"""Divvy the Loot as a designer reads it (see ``simcore.describe``)."""

from __future__ import annotations

from simcore.describe import SeatView, StateView, Zone, facts, zone
from simcore.games.divvy.rules import BRAWL, CHAFF, LEAD, OVER, PHASE_NAMES, REINFORCE, DivvyState, split_by_mask


def _waiting_choice(state: DivvyState, seat: int) -> list[int]:
    """The cards of ``seat``'s simultaneous choice that waits for the other seat's (none if no choice waits)."""
    choice = state.pending[seat]
    if choice < 0 or state.phase not in (LEAD, CHAFF, BRAWL, REINFORCE):
        return []
    hand = state.hands[seat]
    if state.phase in (LEAD, BRAWL):
        return [hand[choice]]
    return split_by_mask(hand, choice)[0]


def describe_state(state: DivvyState) -> StateView:
    """Each seat's hand, its fighters and face-down bid, its won treasure and
    coins; the treasure row, the discard pile and the draw pile's size."""
    config = state.config
    names = config.names
    seats = []
    for seat in (0, 1):
        zones: list[Zone] = []
        if state.lead[seat] >= 0:
            zones.append(zone("lead fighter", names, [state.lead[seat]]))
        if state.chaff[seat]:
            zones.append(zone("chaff bid (face down)", names, state.chaff[seat], hidden=True))
        if state.battle[seat] >= 0:
            zones.append(zone("brawl card", names, [state.battle[seat]]))
        if state.reinforcements[seat]:
            zones.append(zone("reinforcements", names, state.reinforcements[seat]))
        zones.append(zone("won treasure", names, state.won_treasure[seat]))
        seat_facts: list[tuple[str, object]] = [("coins", state.coin_totals[seat])]
        if state.strengths[seat]:
            seat_facts.append(("Fighter Strength", state.strengths[seat]))
        if state.pending[seat] >= 0 and state.phase != OVER:
            waiting = ", ".join(names[card] for card in _waiting_choice(state, seat)) or "nothing"
            seat_facts.append((f"chosen to {PHASE_NAMES[state.phase]}, face down until the other seat chooses",
                               waiting))
        seats.append(SeatView(seat, "", tuple(names[card] for card in state.hands[seat]), tuple(zones),
                              facts(*seat_facts)))
    brawl = {-1: "none yet" if state.battle[0] < 0 else "tie"}.get(state.brawl_result,
                                                                   f"won by seat {state.brawl_result}")
    table_facts = [("round", f"{state.round} of {config.rounds}"), ("draw pile", f"{len(state.draw_pile)} cards"),
                   ("discard pile reshuffled", "yes" if state.reshuffled else "no"), ("brawl", brawl)]
    if state.phase == OVER:
        table_facts.append(("ended by", state.ended_by))
    return StateView(
        phase=PHASE_NAMES[state.phase], to_act=state.current_player, turns=state.turns(), seats=tuple(seats),
        table=(zone("treasure row", names, state.treasure_row), zone("discard pile", names, state.discard_pile)),
        table_facts=facts(*table_facts))
