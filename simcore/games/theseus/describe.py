"""Party of the Theseus as a designer reads it (see ``simcore.describe``)."""

from __future__ import annotations

from simcore.describe import SeatView, StateView, Zone, facts
from simcore.games.theseus.rules import LAST_RANK, OVER, PHASE_NAMES, TheseusState


def describe_state(state: TheseusState) -> StateView:
    """Each seat's Hand, Party, Reward, VP so far and Bonuses; the Board (a
    Bonus on a card is marked), the Rank deck sizes and the exile pile."""
    config, card_of = state.config, state.card_of

    def named(instances: list[int]) -> tuple[str, ...]:
        return tuple(config.names[card_of[instance]] for instance in instances)

    seats = []
    for seat in range(state.n_players):
        printed, effects, bonus_vp = state.score_parts(seat)
        seat_facts = [("VP", f"{printed + effects + bonus_vp} ({printed} printed, {effects} effects, "
                             f"{bonus_vp} Bonuses)"), ("Bonuses", state.bonuses[seat])]
        if seat == state.active and state.phase != OVER:
            seat_facts.append(("cards used this turn", ", ".join(named(state.used_this_turn)) or "none"))
        seats.append(SeatView(
            seat, "", named(state.hands[seat]),
            (Zone("Party", named(state.parties[seat])), Zone("Reward", named(state.rewards[seat]))),
            facts(*seat_facts)))
    with_bonus = [config.names[card_of[instance]] for instance in state.board if state.has_bonus[instance]]
    deck_sizes = ", ".join(f"R{rank} {len(state.decks[rank])}" for rank in range(1, LAST_RANK + 1))
    table_facts = [("Rank", state.rank), ("active seat", state.active), ("Rank decks", deck_sizes),
                   ("Bonuses on the Board", ", ".join(with_bonus) or "none")]
    if state.phase == OVER:
        table_facts.append(("ended by", state.ended_by))
    return StateView(
        phase=PHASE_NAMES[state.phase], to_act=state.current_player, turns=state.turns(), seats=tuple(seats),
        table=(Zone("Board", named(state.board)), Zone("exiled (face down)", named(state.exiled), hidden=True)),
        table_facts=facts(*table_facts))
